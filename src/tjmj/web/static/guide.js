// The guide pages (/guide/FAMILY) are drawn by the server in ?lang=zh|en; without ?lang they are in
// the browser's language: follow the language chosen on the other pages instead (i18n.js keeps it,
// and keeps a ?lang given here for them).
import { lang } from "./i18n.js";

const asked = new URLSearchParams(location.search).get("lang");
const shown = document.documentElement.lang === "zh-CN" ? "zh" : "en";
if (!asked && lang() !== shown) location.replace(`${location.pathname}?lang=${lang()}`);
