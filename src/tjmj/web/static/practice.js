// The practice page (/practice; docs/practice.md): "what would you discard" puzzles shipped with the
// server (tjmj.puzzles). The page shows what the seat saw (its hand, melds, every pond, the wilds),
// the player taps a discard, and the server's verdict (POST /api/puzzles/{id}/answer) says right or
// wrong, the best discard and why, with each discard's figures. Results are kept in localStorage
// ("tjmj.practice": per puzzle attempted/solved, the daily streak).
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import { FAMILIES, DEFAULT_FAMILY, familyName } from "./family.js";
import { discardsEl, el, meldEl, tileImg, windWord } from "./render.js";

const KEY = "tjmj.practice";
const FAMILY_KEY = "tjmj.practice.family";
const state = { family: localStorage.getItem(FAMILY_KEY) || DEFAULT_FAMILY.name, puzzle: null, verdict: null, list: [], daily: false };

function results() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}
function saveResult(p, correct) {
  const r = results();
  r.puzzles = r.puzzles || {};
  const e = r.puzzles[p.id] || { attempted: 0, solved: false };
  e.attempted += 1;
  e.solved = e.solved || correct;
  r.puzzles[p.id] = e;
  if (state.daily && p.date) {
    r.daily = r.daily || { last: null, streak: 0 };
    if (r.daily.last !== p.date) {
      const prev = new Date(Date.parse(p.date) - 86400000).toISOString().slice(0, 10);
      r.daily.streak = correct ? (r.daily.last === prev ? r.daily.streak + 1 : 1) : 0;
      r.daily.last = p.date;
    }
  }
  localStorage.setItem(KEY, JSON.stringify(r));
}

let server = null; // a signed-in account's results kept on the server (GET /api/puzzles/results), else null

function showStats() {
  const r = results();
  const all = Object.values(r.puzzles || {});
  const solved = all.filter((e) => e.solved).length;
  let text = t("practice_stats", solved, all.length, (r.daily && r.daily.streak) || 0);
  if (server) text += ` · ${t("practice_server", server.account, server.solved, server.answered)}`;
  document.getElementById("stats").textContent = text;
}

async function loadServer() {
  try {
    const res = await fetch("/api/puzzles/results");
    server = res.ok ? await res.json() : null;
  } catch { server = null; }
  showStats();
}

async function getJSON(url) {
  const res = await fetch(url);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

async function load(url, daily) {
  state.daily = daily;
  state.verdict = null;
  try {
    state.puzzle = await getJSON(url);
  } catch (e) {
    document.getElementById("puzzle").replaceChildren(el("p", { class: "calc-error", text: e.message }));
    return;
  }
  render();
}

async function next() {
  if (!state.list.length) state.list = (await getJSON(`/api/puzzles?family=${state.family}`)).puzzles;
  const done = results().puzzles || {};
  const fresh = state.list.filter((p) => !(done[p.id] && done[p.id].solved) && (!state.puzzle || p.id !== state.puzzle.id));
  const pool = fresh.length ? fresh : state.list;
  await load(`/api/puzzles/${pool[Math.floor(Math.random() * pool.length)].id}`, false);
}

async function answer(tile) {
  if (state.verdict) return;
  const res = await fetch(`/api/puzzles/${state.puzzle.id}/answer`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ tile }),
  });
  const body = await res.json();
  if (!res.ok) { document.getElementById("answer").replaceChildren(el("p", { class: "calc-error", text: body.error })); return; }
  state.verdict = body;
  saveResult(state.puzzle, body.correct);
  render();
  if (body.kept) loadServer(); else showStats();
}

function pct(x) { return x === undefined ? "" : `${Math.round(x * 100)}%`; }

function render() {
  const p = state.puzzle;
  if (!p) return;
  const wilds = p.wilds || [];
  const box = document.getElementById("puzzle");
  const info = [t("practice_seat", windWord(p.seat_wind)) + (p.dealer ? ` · ${t("practice_dealer")}` : "")];
  if (p.prevalent_wind) info.push(t("practice_prevalent", windWord(p.prevalent_wind)));
  if (p.wall_left !== null && p.wall_left !== undefined) info.push(t("practice_wall", p.wall_left));
  const ponds = p.seats.map((s) => el("div", { class: "practice-seat" },
    el("span", { class: "calc-label", text: `${t(`practice_${s.who}`)} (${windWord(s.wind)})` }),
    el("div", { class: "practice-melds" }, ...s.melds.map((m) => meldEl(m, wilds, "xs"))),
    discardsEl(s.discards, wilds, { size: "xs", perRow: 9, label: t("practice_pond", t(`practice_${s.who}`)) })));
  const hand = el("div", { class: "practice-hand", role: "group", "aria-label": t("practice_tap"), "data-testid": "practice-hand" });
  const best = state.verdict ? state.verdict.best : null;
  p.hand.forEach((tile) => {
    const cls = ["calc-tile", "practice-tile", best === tile ? "best" : "", state.verdict && state.verdict.tile === tile && !state.verdict.correct ? "wrong" : ""].filter(Boolean).join(" ");
    hand.append(el("button", { type: "button", class: cls, "data-tile": tile, disabled: !p.legal.includes(tile) || !!state.verdict, onclick: () => answer(tile) },
      tileImg(tile, { size: "md", wild: wilds.includes(tile) })));
  });
  box.replaceChildren(
    el("p", { class: "practice-info", "data-testid": "practice-info" }, `${state.daily ? t("practice_daily_of", p.date) + " · " : ""}${familyName(p.family)} · ${info.join(" · ")}`),
    p.indicator ? el("div", { class: "calc-row" }, el("span", { class: "calc-label", text: t("indicator") }), tileImg(p.indicator, { size: "sm" }),
      wilds.length ? el("span", { class: "calc-label", text: t("practice_wilds") }) : null, ...wilds.map((w) => tileImg(w, { size: "sm", wild: true }))) : null,
    el("div", { class: "practice-ponds" }, ...ponds),
    el("p", { class: "practice-ask", text: state.verdict ? "" : t("practice_ask") }),
    el("div", { class: "practice-melds" }, ...p.melds.map((m) => meldEl(m, wilds, "sm"))),
    hand);
  renderVerdict();
}

function renderVerdict() {
  const v = state.verdict;
  const out = document.getElementById("answer");
  if (!v) { out.replaceChildren(); return; }
  const zh = lang() === "zh";
  const rows = v.options.flatMap((o) => [el("tr", { class: o.tile === v.best ? "best" : o.tile === v.tile ? "chosen" : "" },
    el("td", {}, tileImg(o.tile, { size: "xs" })), el("td", { text: String(o.rank) }), el("td", { text: String(o.shanten) }),
    el("td", { text: String(o.improving ?? "") }), el("td", { text: pct(o.win_chance) }),
    el("td", { text: o.expected === undefined ? "" : String(o.expected) }),
    el("td", { text: o.searched ? (o.tile === v.best ? "0" : `−${o.loss.toFixed(2)} ± ${o.se.toFixed(2)}`) : "" })),
    el("tr", { class: o.tile === v.best ? "best best-why" : "" }, el("td", { class: "practice-why", colspan: "7", text: zh ? o.summary_zh : o.summary }))]);
  out.replaceChildren(
    el("p", { class: v.correct ? "practice-right" : "practice-wrong", "data-testid": "practice-verdict", text: v.correct ? t("practice_right_answer") : t("practice_wrong", v.best) }),
    el("p", { class: "practice-explain", "data-testid": "practice-explain", text: zh ? v.explanation_zh : v.explanation }),
    el("div", { class: "practice-table" }, el("table", {},
      el("thead", {}, el("tr", {}, ...["practice_col_tile", "practice_col_rank", "practice_col_shanten", "practice_col_improving", "practice_col_win", "practice_col_exp", "practice_col_search"].map((k) => el("th", { text: t(k) })))),
      el("tbody", {}, ...rows))),
    el("p", { class: "practice-note", text: t("practice_note", v.worlds) }));
}

// Fan-counting drills (Tianjin): a winning hand; the player enters its fan; the server's answer is
// POST /api/score's for the hand, with every element named.
async function drill() {
  const list = (await getJSON("/api/drills")).drills;
  const d = await getJSON(`/api/drills/${list[Math.floor(Math.random() * list.length)]}`);
  state.puzzle = null;
  const line = d.line;
  const hand = (line.hand.match(/\d[mpsz]/g) || []);
  const wilds = d.wilds || [];
  const input = el("input", { type: "number", inputmode: "numeric", min: "0", id: "fan", "data-testid": "drill-fan", "aria-label": t("drill_fan") });
  const out = el("div", { "data-testid": "drill-answer", "aria-live": "polite" });
  const check = async () => {
    const res = await fetch(`/api/drills/${d.id}/answer`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ fan: Number(input.value) }) });
    const v = await res.json();
    if (!res.ok) { out.replaceChildren(el("p", { class: "calc-error", text: v.error })); return; }
    const zh = lang() === "zh";
    out.replaceChildren(
      el("p", { class: v.correct ? "practice-right" : "practice-wrong", "data-testid": "drill-verdict", text: v.correct ? t("practice_right_answer") : t("drill_wrong", v.answer.fan) }),
      el("p", { text: `${v.answer.name} = ${v.answer.fan}` }),
      el("ul", {}, ...(v.names || v.answer.elements.map((c) => ({ code: c, chinese: c, english: c }))).map((n) => el("li", { text: zh ? `${n.chinese}（${n.english}）` : `${n.english} (${n.chinese})` }))));
  };
  document.getElementById("answer").replaceChildren();
  document.getElementById("puzzle").replaceChildren(
    el("p", { class: "practice-ask", text: t("drill_ask") }),
    el("div", { class: "calc-row" }, el("span", { class: "calc-label", text: t("indicator") }), tileImg(line.indicator, { size: "sm" }),
      el("span", { class: "calc-label", text: t("practice_wilds") }), ...wilds.map((w) => tileImg(w, { size: "sm", wild: true }))),
    el("div", { class: "practice-melds" }, ...line.melds.map((m) => el("span", { class: "meld" }, ...Array(m.type === "pon" ? 3 : m.type === "chi" ? 0 : 4).fill(m.tile).map((x, j) => tileImg(x, { size: "sm", decorative: true, back: m.type === "ankong" && (j === 0 || j === 3) })),
      ...(m.type === "chi" ? [0, 1, 2].map((i) => tileImg(`${Number(m.tile[0]) + i}${m.tile[1]}`, { size: "sm", decorative: true })) : [])))),
    el("div", { class: "practice-hand", "data-testid": "drill-hand" }, ...hand.map((x) => tileImg(x, { size: "md", wild: wilds.includes(x) })),
      el("span", { class: "calc-label", text: t("drill_win_tile") }), tileImg(line.draw, { size: "md", wild: wilds.includes(line.draw) })),
    el("p", { class: "practice-info", text: [line.kong_draw ? t("drill_kong_draw") : "", line.tianhu ? t("drill_tianhu") : ""].filter(Boolean).join(" · ") }),
    el("div", { class: "practice-bar" }, input, el("button", { type: "button", "data-testid": "drill-check", onclick: check, text: t("drill_check") })),
    out);
}

function start() {
  applyI18n();
  langToggle(document.getElementById("lang"), () => { render(); showStats(); });
  const sel = document.getElementById("family");
  for (const f of FAMILIES) sel.append(el("option", { value: f.name, text: familyName(f.name), selected: f.name === state.family }));
  if (!FAMILIES.some((f) => f.name === state.family)) state.family = DEFAULT_FAMILY.name;
  sel.addEventListener("change", () => {
    state.family = sel.value; state.list = []; localStorage.setItem(FAMILY_KEY, state.family);
    load(`/api/puzzles/daily?family=${state.family}`, true);
  });
  document.getElementById("daily").addEventListener("click", () => load(`/api/puzzles/daily?family=${state.family}`, true));
  document.getElementById("next").addEventListener("click", () => next());
  document.getElementById("drill").addEventListener("click", () => drill());
  showStats();
  loadServer();
  const id = new URLSearchParams(location.search).get("id");
  load(id ? `/api/puzzles/${encodeURIComponent(id)}` : `/api/puzzles/daily?family=${state.family}`, !id);
}

start();
