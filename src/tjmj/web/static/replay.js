// Step through a stored match with every hand shown (frames computed by the server).
//
// The server's frames are engine steps, each with the whole state after it. The viewer shows
// steps built from them (buildSteps): it opens on the deal of hand 1 (the frames before it show no
// tiles), and the end of every hand is a step of its own that shows the board as the win found it,
// the winner's hand with the winning tile apart, and each seat's change of score — also in Beijing,
// where the next deal comes in the same frame as the end of a hand.
import { applyI18n, lang, langToggle, t, tn } from "./i18n.js";
import { DEFAULT_FAMILY, capsOf, familyName, familyOf, presetName } from "./family.js";
import {
  api, diceText, discardsEl, el, errorText, eventText, flowersEl, meldEl, playerName, seatLabel, signedDelta, sortTiles,
  tileImg, tileName, windOf, windTile, windWord, winName,
} from "./render.js";

const matchId = location.pathname.split("/").filter(Boolean).pop();
const $ = (id) => document.getElementById(id);
let steps = [];
let names = ["", "", "", ""]; // as the server stored them
let kinds = [null, null, null, null]; // "human" or "bot" per seat, when the match says
let family = DEFAULT_FAMILY.name; // the match's rule family (start_game's rules)
let preset = "";
let failed = "";
let i = 0;
let timer = null;

const REASONS = {
  win: "reason_win", kong: "reason_kong", chan: "reason_chan", penalty: "reason_penalty", shaozhuang: "reason_shaozhuang",
};

// a score as people read it: "−6" with a real minus sign
function total(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function shownNames() {
  return names.map((n, seat) => playerName(n, kinds[seat]));
}

// Steps: {events, state, hand, round, end?, hora?, last?}. state is what the board shows: after the
// events, except at the end of a hand (the state before the win: the hands are still there).
function buildSteps(frames) {
  const out = [];
  let before = null; // the last state that had hands
  let hand = 0;
  let round = 0;
  let lastDahai = null; // the latest discard of the hand so far (the pond marks it)
  for (const f of frames) {
    // each event's index in the match's events (the review's decisions name theirs: issue 32)
    const base = typeof f.event === "number" ? f.event : 0;
    const at = (e) => base + f.events.indexOf(e);
    const cut = f.events.findIndex((e) => e.type === "end_kyoku");
    const head = cut >= 0 ? f.events.slice(0, cut + 1) : f.events;
    let rest = cut >= 0 ? f.events.slice(cut + 1) : [];
    const deal = head.find((e) => e.type === "start_kyoku");
    if (deal) { hand = deal.hand; round = deal.round; lastDahai = null; }
    for (const e of head) if (e.type === "dahai") lastDahai = e;
    if (cut >= 0) {
      // the end of a hand; a final end_game stays with it
      const tail = rest.filter((e) => e.type === "end_game");
      rest = rest.filter((e) => e.type !== "end_game");
      const events = [...head, ...tail];
      out.push({
        events, idx: events.map(at), state: before || f.state, hand, round, last: lastDahai,
        end: head[cut], hora: head.find((e) => e.type === "hora"), over: tail.length > 0,
      });
    } else if (f.state.seats) {
      out.push({ events: head, idx: head.map(at), state: f.state, hand, round, last: lastDahai, deal: Boolean(deal) });
    }
    if (rest.length) { // Beijing: the next deal in the same frame
      const next = rest.find((e) => e.type === "start_kyoku");
      if (next) { hand = next.hand; round = next.round; lastDahai = null; }
      if (f.state.seats) out.push({ events: rest, idx: rest.map(at), state: f.state, hand, round, last: null, deal: Boolean(next) });
    }
    if (f.state.seats) before = f.state;
  }
  return out;
}

function handStarts() {
  return steps.map((s, k) => (s.deal ? k : -1)).filter((k) => k >= 0);
}

function go(k) {
  i = Math.max(0, Math.min(steps.length - 1, k));
  render();
}

// One seat's hand: the concealed tiles sorted, the drawn tile apart, then the melds. At a win the
// winner's hand is the one the win shows (hora), the winning tile apart and marked.
function handEl(seat, st, step, size) {
  const s = step.state;
  const wilds = s.wilds || [];
  const hora = step.hora && step.hora.actor === seat ? step.hora : null;
  const tile = (x) => tileImg(x, { size, wild: wilds.includes(x) });
  const box = el("div", { class: `rp-hand${hora ? " won" : ""}` });
  if (hora) {
    box.append(el("span", { class: "rp-tiles" }, sortTiles(hora.hand || []).map(tile)),
      el("span", { class: "rp-winning" }, tileImg(hora.pai, { size, wild: wilds.includes(hora.pai), cls: "winning" }),
        el("span", { class: "rp-winlabel" }, t("winning_tile"))));
    const melds = hora.melds || [];
    if (melds.length) box.append(el("span", { class: "rp-melds" }, melds.map((m) => meldEl(m, wilds, size))));
    const fl = flowersEl(st.flowers, "xs");
    if (fl) box.append(fl);
    return box;
  }
  const hand = sortTiles(st.hand || []);
  let drawn = null;
  if (s.drawn && s.to_act === seat && !step.end) {
    const k = hand.lastIndexOf(s.drawn);
    if (k >= 0) { hand.splice(k, 1); drawn = s.drawn; }
  }
  box.append(el("span", { class: "rp-tiles" }, hand.map(tile)));
  if (drawn) box.append(el("span", { class: "rp-drawn" }, tile(drawn)));
  if (st.melds && st.melds.length) box.append(el("span", { class: "rp-melds" }, st.melds.map((m) => meldEl(m, wilds, size))));
  const fl = flowersEl(st.flowers, "xs"); // MCR's flowers, laid aside face up (M1)
  if (fl) box.append(fl);
  return box;
}

function seatEl(seat, step, shown) {
  const s = step.state;
  const box = $(`pos-${seat}`);
  const end = step.end;
  const score = end ? end.scores[seat] : s.scores[seat];
  const acting = !end && s.to_act === seat;
  const won = step.hora && step.hora.actor === seat;
  box.classList.toggle("acting", acting);
  box.classList.toggle("won", Boolean(won));
  box.setAttribute("aria-label", t("seat_label", seatLabel(seat, shown), score));
  const marks = [];
  if (s.dealer === seat) marks.push(el("span", { class: "rp-mark dealer", title: t("dealer") }, t("dealer_short")));
  if (s.dealer === seat && s.sit) marks.push(el("span", { class: "rp-mark sit" }, t("sat")));
  if (s.pulls && s.pulls[seat]) marks.push(el("span", { class: "rp-mark pull" }, t("pulled", s.pulls[seat])));
  if (s.seat_winds && s.seat_winds[seat]) marks.push(el("span", { class: "rp-mark seatwind", title: t("seat_wind_title") }, t("seat_wind_mark", windWord(s.seat_winds[seat]))));
  const st = s.seats ? s.seats[seat] : null;
  if (st && st.hunyou) marks.push(el("span", { class: "rp-mark hunyou" }, t("hunyou_mark")));
  if (st && st.xiaoxianggong) marks.push(el("span", { class: "rp-mark xxg" }, t("xiaoxianggong")));
  const head = el("div", { class: "rp-seathead" },
    el("span", { class: "rp-wind", "aria-hidden": "true", title: s.seat_winds ? t("seat_place", windOf(seat)) : null }, windOf(seat)), el("span", { class: "rp-name" }, shown[seat]), ...marks,
    el("span", { class: "rp-spacer" }),
    end ? el("span", { class: `rp-delta ${end.deltas[seat] > 0 ? "up" : end.deltas[seat] < 0 ? "down" : ""}` }, signedDelta(end.deltas[seat])) : null,
    el("span", { class: "rp-score" }, total(score)));
  const parts = [head];
  if (st) {
    const size = seat === 0 || seat === 2 ? "sm" : "xs";
    const last = step.last && step.last.actor === seat;
    parts.push(el("div", { class: "rp-body" }, handEl(seat, st, step, size),
      discardsEl(st.discards || [], s.wilds || [], {
        last, size: "xs", perRow: seat === 0 || seat === 2 ? 12 : 8, claimed: st.claimed || [],
        label: t("discards_of", seatLabel(seat, shown)),
      })));
  }
  box.replaceChildren(...parts);
}

// The end of a hand: who won and how, the winning hand's elements, each seat's change of score.
function settlementEl(step, shown) {
  const { end, hora } = step;
  const who = (x) => seatLabel(x, shown);
  const parts = [el("h2", {}, t("hand_result", step.hand + 1))];
  if (hora) {
    let line;
    if (hora.hungang) line = t("win_hungang", who(hora.actor));
    else if (hora.hunyou) line = t("win_hunyou", who(hora.actor));
    else if (hora.rob_kong) line = t("win_rob", who(hora.actor), who(hora.target));
    else if (hora.target !== undefined && hora.target !== hora.actor) line = t("win_discard", who(hora.actor), who(hora.target));
    else line = t("winner_is", who(hora.actor));
    parts.push(el("p", { class: "rp-winline" }, line));
    const flags = [];
    if (hora.kong_draw) flags.push(t("kong_draw"));
    if (hora.tianhu) flags.push(t("tianhu"));
    if (hora.last_tile) flags.push(t("last_tile"));
    const value = hora.value !== undefined ? t("value_n", hora.value)
      : t("fan_n", hora.total !== undefined ? hora.total : hora.fan);
    parts.push(el("p", { class: "rp-combo" }, [winName(hora), value, ...flags].filter(Boolean).join(" · ")));
  } else {
    parts.push(el("p", { class: "rp-winline" }, t("drawn_hand")));
  }
  if (step.over) parts.push(el("p", { class: "rp-over" }, t("ev_end")));
  const rows = [0, 1, 2, 3].map((x) => {
    const d = end.deltas[x];
    return el("tr", { class: hora && hora.actor === x ? "won" : "" },
      el("th", { scope: "row" }, who(x)),
      el("td", { class: `num rp-delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` }, signedDelta(d)),
      el("td", { class: "num" }, total(end.scores[x])));
  });
  parts.push(el("table", { class: "rp-changes" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("seat_col")), el("th", { scope: "col", class: "num" }, t("change_col")),
      el("th", { scope: "col", class: "num" }, t("hand_total")))),
    el("tbody", {}, rows)));
  const pays = end.payments || [];
  if (pays.length) {
    parts.push(el("details", { class: "rp-payments" }, el("summary", {}, t("payments")),
      el("ul", {}, pays.map((p) => el("li", {}, t("pay_line", who(p.payer), who(p.payee), p.amount, (REASONS[p.reason] ? t(REASONS[p.reason]) : p.reason)))))));
  }
  return el("section", { class: "rp-settle", "aria-label": t("settlement") }, parts);
}

function centerEl(step, shown) {
  const s = step.state;
  const center = [];
  const c = capsOf(family); // what this family's table shows (its `webpage` part)
  const labels = c.indicatorLabels || ["indicator", "wilds"];
  const info = [];
  if (s.indicator) {
    info.push(el("div", { class: "rp-indicator" }, el("span", { class: "rp-lbl" }, t(labels[0])),
      tileImg(s.indicator, { size: "sm" }), el("span", { class: "rp-lbl" }, t(labels[1])),
      (s.wilds || []).map((w) => tileImg(w, { size: "sm", wild: true }))));
  }
  if (c.reserve && s.seats) info.push(el("div", { class: "rp-wall" }, tn("reserve_line", s.wall_left, s.reserve)));
  else if (s.seats) info.push(el("div", { class: "rp-wall" }, tn("tiles_left_n", s.wall_left)));
  if (s.dice) info.push(el("div", { class: "rp-dice", title: t("dice") }, diceText(s.dice)));
  if (s.prevalent_wind) { // MCR M1: the prevalent wind of the hand
    info.push(el("div", { class: "rp-indicator rp-winds" }, el("span", { class: "rp-lbl" }, t("prevalent_wind")),
      tileImg(windTile(s.prevalent_wind), { size: "sm", decorative: true }), el("span", { class: "sr-only" }, windWord(s.prevalent_wind))));
  }
  const marks = [];
  if (c.upstairsMarks && s.upstairs) marks.push(el("span", { class: "rp-mark upstairs" }, t("upstairs_mark")));
  if (c.upstairsMarks && s.shaozhuang) marks.push(el("span", { class: "rp-mark shaozhuang" }, t("shaozhuang_mark", s.shaozhuang)));
  if (marks.length) info.push(el("div", { class: "rp-marks" }, marks));
  center.push(el("div", { class: "rp-info" }, info));
  const texts = step.events.map((e) => eventText(e, shown, -1, true)).filter(Boolean);
  center.push(el("p", { class: "rp-turn", hidden: Boolean(step.end) }, texts.join(" · ")));
  const why = reviewAt(i);
  if (why.length) { // the reviewed seat's decision at this step: why it stands or what was better
    center.push(el("div", { class: "rv-whybox", "data-testid": "review-whybox" }, why.map((d) =>
      el("p", { class: `rv-why ${d.mistake ? "bad" : "ok"}`, "data-testid": "review-why" }, whyOf(d)))));
  }
  // screen readers hear each step's moves (not while it plays by itself: that would never stop)
  if (!timer) $("announce").textContent = texts.join(" · ");
  if (step.end) center.push(settlementEl(step, shown));
  else center.push(el("p", { class: "rp-note" }, t("all_hands")));
  return center;
}

function render() {
  if (failed) {
    // nothing to step through: the reason and the way to the stored matches, no board or controls
    const text = failed === "unavailable" ? t("replay_unavailable") : errorText(failed);
    $("title").textContent = text;
    document.title = `${text} — ${t("title")}`;
    $("replay").classList.add("failed");
    for (const node of [$("board"), $("movesbtn"), $("side"), document.querySelector(".rp-controls")]) node.hidden = true;
    const back = $("failedback") || el("p", { id: "failedback", class: "rp-failed" });
    back.replaceChildren(el("a", { class: "button", href: "/history" }, t("replay_to_history")));
    if (!back.isConnected) $("board").before(back);
    return;
  }
  if (!steps.length) return;
  const step = steps[i];
  const s = step.state;
  const shown = shownNames();
  const fam = familyName(familyOf(family) ? family : DEFAULT_FAMILY.name);
  const pre = presetName(preset);
  $("title").textContent = `${t("replay_title", matchId)} · ${fam}${pre ? ` · ${pre}` : ""}`;
  document.title = `${t("replay_title", matchId)} — ${t("title")}`;
  const dealer = s.dealer !== undefined ? ` · ${t("dealer")} ${seatLabel(s.dealer, shown)}` : "";
  $("handline").textContent = `${t("round_hand", step.round + 1, step.hand + 1)}${dealer}`;
  $("slider").max = String(steps.length - 1);
  $("slider").value = String(i);
  const where = t("step", i + 1, steps.length);
  $("slider").setAttribute("aria-valuetext", `${where} · ${t("hand_of", step.hand + 1)}`);
  $("stepinfo").textContent = where;
  $("first").disabled = $("back").disabled = i === 0;
  $("last").disabled = $("fwd").disabled = i >= steps.length - 1;
  $("prevhand").disabled = i === 0;
  $("nexthand").disabled = i >= steps.length - 1;
  for (let seat = 0; seat < 4; seat++) seatEl(seat, step, shown);
  $("center").replaceChildren(...centerEl(step, shown));
  const scores = step.end ? step.end.scores : s.scores;
  $("scores").replaceChildren(el("table", { class: "rp-scoretable" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("seat_col")), el("th", { scope: "col" }, t("player_col")),
      el("th", { scope: "col", class: "num" }, t("hand_total")))),
    el("tbody", {}, [0, 1, 2, 3].map((x) => el("tr", { class: s.to_act === x && !step.end ? "acting" : "" },
      el("td", {}, windOf(x)), el("td", {}, shown[x]), el("td", { class: "num" }, total(scores[x])))))));
  // the moves of this hand up to this step, the latest last
  const starts = handStarts().filter((k) => k <= i);
  const from = starts.length ? starts[starts.length - 1] : 0;
  const lines = [];
  for (let k = from; k <= i; k++) {
    const marks = reviewAt(k);
    steps[k].events.forEach((e, j) => {
      const x = eventText(e, shown, -1, true);
      if (x) lines.push(el("li", { class: `ev-${e.type}${k === i ? " current" : ""}` }, x));
      // the reviewed seat's decision after the event its action made (or at the step's end: a pass may make none)
      for (const d of marks.filter((m) => m.event === steps[k].idx[j] || (j === steps[k].events.length - 1 && !steps[k].idx.includes(m.event)))) {
        lines.push(markLine(d, k === i));
      }
    });
  }
  $("log").replaceChildren(...lines);
  $("log").scrollTop = $("log").scrollHeight;
  renderReviewBar();
}

// The fair-deal box (issue 31, part 5): a finished match reveals the salt of the commitment shown
// at its table before the first deal; the seed is start_game's, read from the record's first line
// as text (up to 2^62: JSON.parse would round it), and this browser checks SHA-256 itself.
let fair = null; // {commitment, salt, seed, ok: true, false or null (no check: no crypto.subtle)}

async function sha256Hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function loadFair(deal) {
  if (!deal || typeof deal.salt !== "string" || typeof deal.commitment !== "string") return;
  const r = await fetch(`/api/matches/${encodeURIComponent(matchId)}/record`);
  if (!r.ok) return;
  const first = (await r.text()).split("\n", 1)[0];
  const m = /"seed":\s*(\d+)/.exec(first);
  if (!m) return;
  let ok = null;
  try {
    if (globalThis.crypto && crypto.subtle) ok = (await sha256Hex(`tjmj-deal:${deal.salt}:${m[1]}`)) === deal.commitment;
  } catch { ok = null; }
  fair = { commitment: deal.commitment, salt: deal.salt, seed: m[1], ok };
  renderFair();
}

function renderFair() {
  $("fairdeal").hidden = !fair || Boolean(failed);
  if (!fair) return;
  const code = (text, id) => el("code", { lang: "en", "data-testid": id }, text);
  const record = `/api/matches/${encodeURIComponent(matchId)}/record`;
  const command = `tjmj verify tjmj-match-${matchId}.jsonl --commitment ${fair.commitment} --salt ${fair.salt}`;
  // the check shows; the values and the way to check them offline fold away (the move list keeps its room)
  const open = $("fairbody").querySelector("details")?.open || false;
  $("fairbody").replaceChildren(
    fair.ok === null ? el("p", {}, t("fair_deal_note"))
      : el("p", { class: fair.ok ? "ok" : "bad", "data-testid": "fair-check" }, t(fair.ok ? "deal_matches" : "deal_mismatch")),
    el("details", { open }, el("summary", {}, t("fair_deal_details")),
      fair.ok === null ? null : el("p", {}, t("fair_deal_note")),
      el("dl", {},
        el("dt", { title: t("deal_commitment_title") }, t("deal_commitment")), el("dd", {}, code(fair.commitment, "fair-commitment")),
        el("dt", {}, t("deal_salt")), el("dd", {}, code(fair.salt, "fair-salt")),
        el("dt", {}, t("deal_seed")), el("dd", {}, code(fair.seed, "fair-seed"))),
      el("p", {}, el("a", { href: record, download: `tjmj-match-${matchId}.jsonl` }, t("download"))),
      el("p", {}, t("deal_verify_offline")),
      el("pre", { lang: "en", "data-testid": "fair-command" }, command)));
}

// ---- the review (复盘, issue 32): one seat's decisions judged by search ------------------------------
// GET /api/matches/{id}/review?seat=N streams NDJSON: progress lines, then the review. The summary is
// a panel of the side drawer; each decision is marked in the move list, and the bar above the
// controls says the current step's decision (✓, or ✗ with the better choice, the loss and why) and
// jumps between the mistakes. A decision's step: the first step that holds its event (an action
// that made no event of its own — a pass — belongs to the step of the next event).
let review = null; // {seat, data, byStep: Map(step -> decisions), mistakes: [{d, step}]}
let rvState = "idle"; // idle, choose, running, done, error
let rvProgress = { done: 0, total: 0, queued: 0 };
let rvError = "";
let rvAbort = null;

function reviewAt(k) {
  return (review && review.byStep.get(k)) || [];
}

function actText(a) {
  const [verb, arg] = String(a).split(" ");
  if (verb === "sit" || verb === "pull") return t(`rv_act_${verb}_${arg === "0" ? "0" : "n"}`, arg);
  const key = `rv_act_${verb}`;
  const v = t(key) === key ? verb : t(key);
  return arg === undefined ? v : `${v} ${/^[1-9][mpsz]$|^[1-8]f$/.test(arg) ? tileName(arg) : arg}`;
}

function lossText(x) {
  return Number(x) < 0.005 ? "0" : `\u2212${Number(x).toFixed(2)}`;
}

function whyOf(d) {
  return lang() === "zh" ? d.why_zh : d.why;
}

function markLine(d, current) {
  const text = d.mistake ? t("rv_mark_mistake", actText(d.chosen), actText(d.best), lossText(d.loss)) : t("rv_mark_ok", actText(d.chosen));
  return el("li", { class: `rv-mark ${d.mistake ? "bad" : "ok"}${current ? " current" : ""}` }, text);
}

function mapDecisions(data) {
  const byStep = new Map();
  const mistakes = [];
  let k = 0;
  for (const d of data.decisions) { // in the match's order, as the steps are
    const ends = (s) => (s.idx.length ? Math.max(...s.idx) : -1);
    while (k < steps.length - 1 && ends(steps[k]) < d.event) k++;
    if (!byStep.has(k)) byStep.set(k, []);
    byStep.get(k).push(d);
    if (d.mistake) mistakes.push({ d, step: k });
  }
  return { byStep, mistakes };
}

function jumpMistake(dir) {
  if (!review) return;
  const m = dir > 0 ? review.mistakes.find((x) => x.step > i) : [...review.mistakes].reverse().find((x) => x.step < i);
  if (!m) return;
  setPlaying(false);
  go(m.step);
  $("announce").textContent = `${t("rv_mistake_n", review.mistakes.indexOf(m) + 1, review.mistakes.length)}: ${whyOf(m.d)}`;
}

function renderReviewBar() {
  const bar = $("reviewbar");
  bar.hidden = !review;
  if (!review) return;
  const here = reviewAt(i);
  const r = review.data;
  const parts = [];
  if (here.length) {
    for (const d of here) {
      const n = review.mistakes.findIndex((m) => m.d === d);
      parts.push(el("p", { class: `rv-now ${d.mistake ? "bad" : "ok"}`, "data-testid": "review-decision" },
        d.mistake ? t("rv_mark_mistake", actText(d.chosen), actText(d.best), lossText(d.loss)) : t("rv_mark_ok", actText(d.chosen)),
        n >= 0 ? el("span", { class: "rv-count" }, ` · ${t("rv_mistake_n", n + 1, review.mistakes.length)}`) : null));
    }
  } else {
    parts.push(el("p", { class: "rv-now" }, t("rv_bar_summary", seatLabel(review.seat, shownNames()), pct(r.agreement), r.mistakes)));
  }
  $("reviewnow").replaceChildren(...parts);
  $("prevmistake").disabled = !review.mistakes.some((m) => m.step < i);
  $("nextmistake").disabled = !review.mistakes.some((m) => m.step > i);
}

function pct(x) {
  return `${Math.round(x * 1000) / 10}%`;
}

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

// the cumulative loss after each hand, as a line (the words say the same for screen readers)
function curveEl(curve) {
  const w = 300; const h = 90; const pad = 8;
  const top = Math.max(1, ...curve);
  const x = (k) => pad + (curve.length > 1 ? (k * (w - 2 * pad)) / (curve.length - 1) : (w - 2 * pad) / 2);
  const y = (v) => h - pad - (v / top) * (h - 2 * pad);
  const points = curve.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const words = curve.map((v, k) => t("rv_curve_point", k + 1, lossText(v))).join(", ");
  return svgEl("svg", { class: "rv-curve", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": t("rv_curve_label", words), "data-testid": "review-curve" },
    svgEl("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis" }),
    svgEl("polyline", { points, class: "line" }),
    ...curve.map((v, k) => svgEl("circle", { cx: x(k).toFixed(1), cy: y(v).toFixed(1), r: 3 })));
}

function summaryEl() {
  const r = review.data;
  const shown = shownNames();
  const kinds = Object.entries(r.by_kind || {});
  const first = review.mistakes[0];
  return el("div", { class: "rv-summary", "data-testid": "review-summary", tabindex: "-1", id: "reviewsummary" },
    el("p", { class: "rv-who" }, t("rv_of", seatLabel(review.seat, shown))),
    el("dl", { class: "rv-figures" },
      el("dt", {}, t("rv_agreement")), el("dd", { "data-testid": "review-agreement" }, pct(r.agreement)),
      el("dt", {}, t("rv_mistakes")), el("dd", {}, t("rv_mistakes_of", r.mistakes, r.decisions.length)),
      el("dt", {}, t("rv_loss")), el("dd", {}, lossText(r.loss))),
    first ? el("button", { type: "button", class: "rv-first", onclick: () => { setDrawer(false); setPlaying(false); go(first.step); } }, t("rv_first_mistake")) : null,
    kinds.length ? el("table", { class: "rv-table" },
      el("caption", {}, t("rv_by_kind")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rv_kind")), el("th", { scope: "col", class: "num" }, t("rv_decisions")),
        el("th", { scope: "col", class: "num" }, t("rv_mistakes")), el("th", { scope: "col", class: "num" }, t("rv_loss")))),
      el("tbody", {}, kinds.map(([k, v]) => el("tr", {}, el("th", { scope: "row" }, t(`rv_kind_${k}`) === `rv_kind_${k}` ? k : t(`rv_kind_${k}`)),
        el("td", { class: "num" }, String(v.decisions)), el("td", { class: "num" }, String(v.mistakes)), el("td", { class: "num" }, lossText(v.loss)))))) : null,
    el("table", { class: "rv-table" },
      el("caption", {}, t("rv_by_hand")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rv_hand")), el("th", { scope: "col", class: "num" }, t("rv_agreement")),
        el("th", { scope: "col", class: "num" }, t("rv_loss")))),
      el("tbody", {}, (r.hands || []).map((h) => el("tr", {}, el("th", { scope: "row" }, t("hand_of", h.hand)),
        el("td", { class: "num" }, pct(h.agreement)), el("td", { class: "num" }, lossText(h.loss)))))),
    (r.curve || []).length ? el("figure", { class: "rv-figure" }, curveEl(r.curve), el("figcaption", {}, t("rv_curve"))) : null,
    el("button", { type: "button", class: "rv-again", onclick: () => openReview(null) }, t("rv_other_seat")));
}

function renderReview() {
  const body = $("reviewbody");
  $("reviewpanel").hidden = rvState === "idle";
  renderReviewBar();
  if (rvState === "idle") return;
  const shown = shownNames();
  if (rvState === "choose") {
    body.replaceChildren(el("p", {}, t("rv_choose")),
      el("div", { class: "rv-seats", role: "group", "aria-label": t("rv_choose") },
        [0, 1, 2, 3].map((seat) => el("button", { type: "button", "data-seat": String(seat), onclick: () => startReview(seat) }, seatLabel(seat, shown)))),
      el("p", { class: "rv-note" }, t("rv_note")));
  } else if (rvState === "running") {
    const p = rvProgress;
    const label = p.queued ? t("rv_queued", p.queued) : p.total ? t("rv_progress", p.done, p.total) : t("rv_starting");
    const bar = el("progress", { id: "rvprogress", max: String(Math.max(1, p.total)), "data-testid": "review-progress" });
    if (p.total) bar.value = p.done; // no value: an indeterminate bar while it waits
    body.replaceChildren(el("label", { for: "rvprogress", class: "rv-label" }, label), bar);
  } else if (rvState === "error") {
    body.replaceChildren(el("p", { class: "rv-error", role: "alert" }, errorText(rvError)),
      el("button", { type: "button", class: "rv-again", onclick: () => openReview(null) }, t("rv_retry")));
  } else if (review) {
    const keep = body.contains(document.activeElement);
    body.replaceChildren(summaryEl());
    if (keep) $("reviewsummary").focus();
  }
}

// The Review button and ?review: the chooser, or straight to a seat's review.
function openReview(seat) {
  if (seat !== null) { startReview(seat); return; }
  if (rvState !== "running") rvState = "choose";
  setDrawer(true);
  renderReview();
  $("reviewpanel").scrollIntoView({ block: "nearest" });
}

async function startReview(seat) {
  if (rvAbort) rvAbort.abort();
  const abort = new AbortController();
  rvAbort = abort;
  review = null;
  rvState = "running";
  rvProgress = { done: 0, total: 0, queued: 0 };
  setDrawer(true);
  renderReview();
  render();
  try {
    const r = await fetch(`/api/matches/${encodeURIComponent(matchId)}/review?seat=${seat}`, { signal: abort.signal });
    if (!r.ok) {
      let msg = `${r.status} ${r.statusText}`;
      try { msg = (await r.json()).error || msg; } catch { /* not JSON: the status says it */ }
      throw new Error(msg);
    }
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    let result = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buf += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line);
        if (msg.type === "progress") { rvProgress = { done: msg.done, total: msg.total, queued: msg.queued || 0 }; renderReview(); }
        else if (msg.type === "review") result = msg;
        else if (msg.type === "error") throw new Error(msg.error);
      }
      if (done) break;
    }
    if (!result) throw new Error("the review ended without a result");
    if (rvAbort !== abort) return;
    review = { seat, data: result, ...mapDecisions(result) };
    rvState = "done";
    renderReview();
    render();
    $("reviewsummary").focus();
  } catch (e) {
    if (abort.signal.aborted) return;
    rvState = "error";
    rvError = e.message || "?";
    renderReview();
  }
}

function setPlaying(on) {
  if (timer) { clearInterval(timer); timer = null; }
  if (on) timer = setInterval(() => { if (i >= steps.length - 1) setPlaying(false); else go(i + 1); }, 600);
  $("playicon").textContent = on ? "❚❚" : "▶";
  $("playbtn").dataset.i18nAriaLabel = on ? "pause" : "play";
  $("playbtn").dataset.i18nTitle = on ? "pause" : "play";
  $("playbtn").setAttribute("aria-label", t(on ? "pause" : "play"));
  $("playbtn").title = t(on ? "pause" : "play");
}

function prevHand() {
  const hs = handStarts().filter((k) => k < i);
  go(hs.length ? hs[hs.length - 1] : 0);
}

function nextHand() {
  const h = handStarts().find((k) => k > i);
  go(h === undefined ? steps.length - 1 : h);
}

// The move list is a drawer on narrow screens (the button shows only there).
function isDrawer() {
  return getComputedStyle($("movesbtn")).display !== "none";
}

function setDrawer(open) {
  if (open && !isDrawer()) return; // wide: the side column is always there
  $("side").classList.toggle("open", open);
  $("movesbtn").setAttribute("aria-expanded", String(open));
  if (open) $("closeside").focus();
  else if (document.activeElement && $("side").contains(document.activeElement)) $("movesbtn").focus();
}

$("first").onclick = () => go(0);
$("last").onclick = () => go(steps.length - 1);
$("back").onclick = () => go(i - 1);
$("fwd").onclick = () => go(i + 1);
$("playbtn").onclick = () => setPlaying(!timer);
$("prevhand").onclick = prevHand;
$("nexthand").onclick = nextHand;
$("slider").oninput = (e) => go(Number(e.target.value));
$("movesbtn").onclick = () => {
  setDrawer(!$("side").classList.contains("open"));
  if (!$("reviewpanel").hidden) $("movesheading").scrollIntoView({ block: "start" }); // past the review's summary
  $("log").scrollTop = $("log").scrollHeight; // drawn while the drawer was closed: its scroll was lost
};
$("closeside").onclick = () => setDrawer(false);
$("reviewbtn").onclick = () => openReview(null);
$("prevmistake").onclick = () => jumpMistake(-1);
$("nextmistake").onclick = () => jumpMistake(1);
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === "Escape" && $("side").classList.contains("open")) { setDrawer(false); return; }
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return; // the slider has its own keys
  const keys = {
    ArrowRight: () => go(i + 1), ArrowLeft: () => go(i - 1), Home: () => go(0), End: () => go(steps.length - 1),
    PageDown: nextHand, PageUp: prevHand,
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

langToggle($("lang"), () => { render(); renderFair(); renderReview(); });
applyI18n();

(async () => {
  try {
    const d = await api(`/api/matches/${encodeURIComponent(matchId)}/frames`);
    steps = buildSteps(d.frames || []);
    names = d.names || names;
    const players = (d.match && d.match.players) || [];
    kinds = [0, 1, 2, 3].map((seat) => { const p = players.find((x) => x.seat === seat); return p ? p.kind : null; });
    const rules = (d.match && d.match.rules) || {};
    family = rules.family || DEFAULT_FAMILY.name;
    preset = rules.preset || "";
    if (!steps.length) failed = "unavailable";
    const q = new URLSearchParams(location.search);
    go(q.has("step") ? Number(q.get("step")) || 0 : 0);
    if (!failed) {
      $("reviewbtn").hidden = !(d.match && d.match.status === "finished");
      // ?review=SEAT starts that seat's review; ?review alone opens the seat chooser (the history's link)
      if (!$("reviewbtn").hidden && q.has("review")) {
        const want = q.get("review");
        openReview(/^[0-3]$/.test(want) ? Number(want) : null);
      }
    }
    if (!failed) loadFair(((d.match && d.match.settings) || {}).deal).catch(() => {}); // the box is extra: the replay stands without it
  } catch (e) {
    failed = e.message || "?"; // the server's words, said in the page's language at each render
    render();
  }
})();
