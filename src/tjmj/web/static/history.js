// Stored matches, newest first, with their results and links to the replay and the record.
// A table on wide screens; on phones each row is a card whose cells carry their column's name
// (data-label, shown by the CSS).
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import { DEFAULT_FAMILY, familyName, familyOf, presetName } from "./family.js";
import { api, el, errorText, playerName, playerUrl, toast, windOf } from "./render.js";

const PAGE = 25;
let offset = 0;
let matches = [];

const STATUS_NAMES = {
  playing: "status_playing", finished: "status_finished", abandoned: "status_abandoned", waiting: "status_waiting",
  over: "status_over", error: "status_error",
};

function player(m, seat) {
  return (m.players || []).find((x) => x.seat === seat) || null;
}

function nameAt(m, seat) {
  const p = player(m, seat);
  return p ? playerName(p.name, p.kind) : windOf(seat);
}

function result(m) {
  if (!m.scores) return el("span", {}, "—");
  const order = [0, 1, 2, 3].sort((a, b) => m.scores[b] - m.scores[a]);
  return el("span", {}, order.map((s, i) => [i ? " · " : "",
    el("span", { class: i === 0 ? "res pos" : "res" }, `${nameAt(m, s)} ${total(m.scores[s])}`)]).flat());
}

// the rule family and preset of a stored match (older records name no family: the default family,
// Tianjin, and its default preset)
function rulesText(rules) {
  const r = rules || {};
  const family = familyOf(r.family) ? r.family : DEFAULT_FAMILY.name;
  return `${familyName(family)} · ${presetName(r.preset || DEFAULT_FAMILY.default_preset)}`;
}

function when(m) {
  if (!m.created_at) return "";
  const d = new Date(m.created_at);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString(lang() === "zh" ? "zh-CN" : "en", { dateStyle: "medium", timeStyle: "short" });
}

function players(m) {
  return el("div", {}, [0, 1, 2, 3].map((s) => {
    const p = player(m, s);
    const shown = p ? playerName(p.name, p.kind) : "";
    const tagged = p && p.kind === "bot" && shown === p.name && !/^Bot \d+$/.test(p.name); // a bot with a name of its own
    // a person's name leads to their statistics (by name: nobody's id is public)
    const who = p && p.kind === "human" ? el("a", { href: playerUrl(p.name), "aria-label": t("ps_player_link", shown) }, shown) : shown;
    return el("div", { class: "who" }, `${windOf(s)} `, who, tagged ? el("span", { class: "tag" }, t("bot")) : null);
  }));
}

// a score as people read it: "−4" with a real minus sign
function total(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function links(m) {
  if (m.status === "playing") {
    return el("div", { class: "links" }, el("a", { href: `/table/${m.room}`, "aria-label": t("watch_room", m.room) }, t("watch")));
  }
  return el("div", { class: "links" },
    el("a", { href: `/replay/${m.id}`, "aria-label": t("replay_of", m.id) }, t("replay")),
    // the review (复盘, issue 32): the replay with its seat chooser open
    m.status === "finished" ? el("a", { href: `/replay/${m.id}?review`, "aria-label": t("rv_review_of", m.id) }, t("rv_review")) : null,
    el("a", { href: `/api/matches/${m.id}/record`, "aria-label": t("download_of", m.id) }, t("download")));
}

function render() {
  document.title = `${t("history")} — ${t("title")}`;
  const box = document.getElementById("list");
  document.getElementById("newer").disabled = offset === 0;
  document.getElementById("older").disabled = matches.length < PAGE;
  if (!matches.length) { box.replaceChildren(el("p", {}, t("no_matches"))); return; }
  const cols = ["match_no", "date", "room", "family", "players", "hands", "result", "links"];
  const head = el("thead", {}, el("tr", {}, cols.map((k) => el("th", { scope: "col" }, t(k)))));
  const cell = (k, attrs, ...children) => el("td", { ...attrs, "data-label": t(k) }, ...children);
  const rows = matches.map((m) => el("tr", {},
    cell("match_no", { class: "first" }, String(m.id)),
    cell("date", { class: "small" }, when(m)),
    cell("room", {}, el("span", { class: "code" }, m.room)),
    cell("family", { class: "small family" }, rulesText(m.rules)),
    cell("players", { class: "small" }, players(m)),
    cell("hands", {}, el("span", {}, String(m.hands), " ",
      el("span", { class: `status ${m.status}` }, STATUS_NAMES[m.status] ? t(STATUS_NAMES[m.status]) : m.status))),
    cell("result", { class: "small" }, result(m)),
    cell("links", {}, links(m))));
  box.replaceChildren(el("table", { class: "list" }, el("caption", { class: "sr-only" }, t("history")), head, el("tbody", {}, rows)));
}

async function load() {
  try {
    matches = (await api(`/api/matches?limit=${PAGE}&offset=${offset}`)).matches;
  } catch (e) {
    toast(errorText(e.message));
    matches = [];
  }
  render();
}

document.getElementById("older").addEventListener("click", () => { offset += PAGE; load(); });
document.getElementById("newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
langToggle(document.getElementById("lang"), render);
applyI18n();
load();
