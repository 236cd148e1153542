// Chinese Official mahjong (国标麻将, MCR): the settlement's account of a win. table.js loads it
// through /static/wins.js, which the server makes from the family registry (tjmj/web/app.py):
// win(s, parts) pushes the dialog's parts for s.win (the server's settlement message) onto parts.
import { lang, t } from "/static/i18n.js";
import { arrangementEl, el, flowersEl, seatLabel, winHand } from "/static/render.js";

// An MCR hand (M3, M4): who won and how, the hand and its arrangement, each fan with its value and
// count (花牌 last: not part of the 8 fan a win needs), the flowers and the total.
function mcrWin(s, parts) {
  const names = s.names;
  const w = s.win;
  const who = seatLabel(w.seat, names);
  const from = w.from !== null && w.from !== undefined ? seatLabel(w.from, names) : "";
  const line = w.rob_kong ? t("win_rob", who, from) : from ? t("win_discard", who, from) : t("winner_is", who);
  parts.push(el("div", { class: "winline" }, line));
  parts.push(winHand(w, []));
  const flowers = s.flowers && s.flowers[w.seat];
  if (flowers && flowers.length) {
    parts.push(el("div", { class: "winflowers" }, el("span", { class: "muted small" }, `${t("flowers")}:`),
      flowersEl(flowers, "sm", t("flowers_of", who))));
  }
  parts.push(arrangementEl(w.arrangement, []));
  const zh = lang() === "zh";
  const name = zh ? w.name : w.fans.map((f) => f.english + (f.count > 1 ? ` ×${f.count}` : "")).join(", ");
  parts.push(el("div", { class: "combo" }, el("strong", {}, name), ` · ${t("fan_n", w.total)}`));
  parts.push(el("table", { class: "elements fans" },
    el("caption", { class: "sr-only" }, t("fans")),
    el("tr", {}, el("th", { scope: "col" }, t("fans")), el("th", { scope: "col" }, t("fan_value"))),
    w.fans.map((f) => el("tr", { class: f.flower ? "flower" : "" },
      el("td", {}, zh ? f.chinese : [`${f.english} (`, el("span", { lang: "zh-CN" }, f.chinese), ")"]),
      el("td", { class: "num" }, f.count > 1 ? `${f.fan} × ${f.count} = ${f.total}` : String(f.fan))))));
  parts.push(el("div", { class: "formula" },
    el("div", { class: "muted small" }, t("fan_how", w.min_fan)),
    el("div", { class: "formula-line" }, zh ? w.formula : w.formula_en)));
}

export { mcrWin as win };
