// The leaderboard of one rule family (issue 31): GET /api/leaderboard?family= — the rated accounts,
// best first, with the bot levels' fixed ratings as rows of their own (marked "bot") where they fall,
// so that a newcomer sees where they stand. A real table (caption, column headers) for screen
// readers; on phones each row is a card whose cells carry their column's name (data-label).
import { applyI18n, langToggle, t } from "./i18n.js";
import { DEFAULT_FAMILY, FAMILIES, familyName, familyOf } from "./family.js";
import { api, el, errorText, playerUrl, toast } from "./render.js";

const PAGE = 100;
const query = new URLSearchParams(location.search);
const asked = query.get("family");
let family = asked && familyOf(asked) ? asked : DEFAULT_FAMILY.name;
let offset = 0;
let board = null;

function rows() {
  const players = board.players;
  const more = players.length === PAGE;
  const first = players.length ? players[0].rating : Infinity;
  const last = players.length ? players[players.length - 1].rating : -Infinity;
  // each bot where its rating falls among this page's players
  const bots = board.bots.filter((b) => (offset === 0 || b.rating <= first) && (!more || b.rating >= last));
  const all = [...players.map((p) => ({ ...p, kind: "human" })), ...bots.map((b) => ({ ...b, kind: "bot" }))];
  return all.sort((a, b) => b.rating - a.rating || (a.kind === "bot") - (b.kind === "bot"));
}

function render() {
  document.title = `${t("leaderboard")} — ${t("title")}`;
  const select = document.getElementById("family");
  if (select.options.length !== FAMILIES.length) {
    select.replaceChildren(...FAMILIES.map((f) => el("option", { value: f.name }, familyName(f.name))));
  }
  FAMILIES.forEach((f, i) => { select.options[i].textContent = familyName(f.name); }); // the language may change
  select.value = family;
  const box = document.getElementById("list");
  document.getElementById("prev").disabled = offset === 0;
  document.getElementById("next").disabled = !board || board.players.length < PAGE;
  if (!board) { box.replaceChildren(); return; }
  const cols = ["lb_rank", "lb_name", "lb_rating", "lb_matches"];
  const head = el("thead", {}, el("tr", {}, cols.map((k) => el("th", { scope: "col" }, t(k)))));
  const cell = (k, attrs, ...children) => el("td", { ...attrs, "data-label": t(k) }, ...children);
  const body = rows().map((r) => r.kind === "bot"
    ? el("tr", { class: "bot-row", "data-testid": "lb-bot", "data-level": r.name, title: t("lb_bot_title") },
      cell("lb_rank", { class: "first" }, "—"),
      cell("lb_name", {}, el("span", {}, t("lb_bot_name", t(`lb_level_${r.name}`)), " ", el("span", { class: "tag" }, t("bot")))),
      cell("lb_rating", { class: "num" }, String(r.rating)),
      cell("lb_matches", { class: "num" }, "—"))
    : el("tr", { "data-testid": "lb-player" },
      cell("lb_rank", { class: "first" }, String(r.rank)),
      cell("lb_name", {}, el("a", { href: playerUrl(r.name), "aria-label": t("ps_player_link", r.name) }, r.name)),
      cell("lb_rating", { class: "num" }, String(r.rating)),
      cell("lb_matches", { class: "num" }, String(r.matches))));
  const caption = el("caption", { class: "sr-only" }, t("lb_caption", familyName(family)));
  const parts = [el("table", { class: "list leaderboard", "data-testid": "leaderboard" }, caption, head, el("tbody", {}, body))];
  if (!board.players.length) parts.unshift(el("p", { "data-testid": "lb-empty" }, t("lb_none")));
  box.replaceChildren(...parts);
}

async function load() {
  try {
    board = await api(`/api/leaderboard?family=${encodeURIComponent(family)}&limit=${PAGE}&offset=${offset}`);
  } catch (e) {
    toast(errorText(e.message));
    board = null;
  }
  render();
}

document.getElementById("family").addEventListener("change", (e) => {
  family = e.target.value;
  offset = 0;
  history.replaceState(null, "", `/leaderboard?family=${encodeURIComponent(family)}`);
  load();
});
document.getElementById("next").addEventListener("click", () => { offset += PAGE; load(); });
document.getElementById("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
langToggle(document.getElementById("lang"), render);
applyI18n();
load();
