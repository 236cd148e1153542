// Stored matches, newest first, with their results and links to the replay and the record.
import { applyI18n, langToggle, t } from "./i18n.js";
import { api, el, toast, windOf } from "./render.js";

const PAGE = 25;
let offset = 0;
let matches = [];

function result(m) {
  if (!m.scores) return el("span", { class: "muted" }, "—");
  const order = [0, 1, 2, 3].sort((a, b) => m.scores[b] - m.scores[a]);
  return el("span", {}, order.map((s, i) => el("span", { class: i === 0 ? "pos" : "" },
    `${i ? " · " : ""}${nameAt(m, s)} ${m.scores[s]}`)));
}

// the rule family and preset of a stored match (older records name no family: Tianjin)
function rulesText(rules) {
  const r = rules || {};
  return `${t(`family_${r.family || "tianjin"}`)} · ${r.preset || "classic"}`;
}

function nameAt(m, seat) {
  const p = (m.players || []).find((x) => x.seat === seat);
  return p ? p.name : windOf(seat);
}

function render() {
  const box = document.getElementById("list");
  if (!matches.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_matches"))); return; }
  const head = el("tr", {}, ["#", t("date"), t("room"), t("family"), t("players"), t("hands"), t("result"), ""]
    .map((h) => el("th", {}, h)));
  const rows = matches.map((m) => el("tr", {},
    el("td", {}, String(m.id)),
    el("td", { class: "small" }, m.created_at ? new Date(m.created_at).toLocaleString() : ""),
    el("td", {}, m.status === "playing" ? el("a", { href: `/table/${m.room}` }, m.room) : m.room),
    el("td", { class: "small family" }, rulesText(m.rules)),
    el("td", { class: "small" }, [0, 1, 2, 3].map((s) => {
      const p = (m.players || []).find((x) => x.seat === s);
      return el("div", {}, `${windOf(s)} ${p ? p.name : ""}${p && p.kind === "bot" ? ` (${t("bot")})` : ""}`);
    })),
    el("td", {}, String(m.hands), " ", el("span", { class: `status ${m.status}` }, t(`status_${m.status}`))),
    el("td", { class: "small" }, result(m)),
    el("td", {}, m.status !== "playing" ? el("a", { href: `/replay/${m.id}` }, t("replay")) : null, " ",
      m.status !== "playing" ? el("a", { href: `/api/matches/${m.id}/record` }, t("download")) : null)));
  box.replaceChildren(el("table", { class: "list" }, head, rows));
  document.getElementById("newer").disabled = offset === 0;
  document.getElementById("older").disabled = matches.length < PAGE;
}

async function load() {
  try {
    matches = (await api(`/api/matches?limit=${PAGE}&offset=${offset}`)).matches;
  } catch (e) {
    toast(e.message);
    matches = [];
  }
  render();
}

document.getElementById("older").addEventListener("click", () => { offset += PAGE; load(); });
document.getElementById("newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
langToggle(document.getElementById("lang"), render);
applyI18n();
load();
