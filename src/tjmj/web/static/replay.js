// Step through a stored match with every hand shown (frames computed by the server).
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import {
  api, diceText, discardsEl, el, eventText, meldEl, signed, sortTiles, tileImg, toast, windOf,
} from "./render.js";

const matchId = location.pathname.split("/").filter(Boolean).pop();
const $ = (id) => document.getElementById(id);
let frames = [];
let names = ["", "", "", ""];
let family = "tianjin"; // the match's rule family (start_game's rules)
let preset = "";
let i = 0;
let timer = null;

function handStarts() {
  return frames.map((f, k) => (f.events.some((e) => e.type === "start_kyoku") ? k : -1)).filter((k) => k >= 0);
}

function go(k) {
  i = Math.max(0, Math.min(frames.length - 1, k));
  render();
}

function render() {
  if (!frames.length) return;
  const f = frames[i];
  const s = f.state;
  $("slider").max = String(frames.length - 1);
  $("slider").value = String(i);
  $("stepinfo").textContent = t("step", i + 1, frames.length);
  $("title").textContent = `#${matchId} · ${t(`family_${family}`)}${preset ? ` ${preset}` : ""} · ${t("hand_of", s.hand_number + (s.seats && s.phase !== "sit" && s.phase !== "pull" ? 1 : 0))}`;
  const lastDahai = [...f.events].reverse().find((e) => e.type === "dahai");
  for (let pos = 0; pos < 4; pos++) {
    const seat = pos;
    const box = $(`pos-${pos}`);
    box.classList.toggle("acting", s.to_act === seat);
    const marks = [];
    if (s.dealer === seat) marks.push(el("span", { class: "mark dealer" }, lang() === "zh" ? "庄" : "D"));
    if (s.dealer === seat && s.sit) marks.push(el("span", { class: "mark sit" }, t("sat")));
    if (s.pulls && s.pulls[seat]) marks.push(el("span", { class: "mark pull" }, t("pulled", s.pulls[seat])));
    if (s.seats && s.seats[seat].hunyou) marks.push(el("span", { class: "mark hunyou" }, t("hunyou_mark")));
    const parts = [el("div", { class: `seathead${s.to_act === seat ? " acting" : ""}` },
      el("span", { class: "wind" }, windOf(seat)), el("span", { class: "pname" }, names[seat]), ...marks,
      el("span", { class: "spacer" }), el("span", { class: "pscore" }, String(s.scores[seat])))];
    if (s.seats) {
      const st = s.seats[seat];
      const wilds = s.wilds || [];
      const hand = sortTiles(st.hand);
      let drawn = null;
      if (s.drawn && s.to_act === seat) {
        const k = hand.lastIndexOf(s.drawn);
        if (k >= 0) { hand.splice(k, 1); drawn = s.drawn; }
      }
      const size = pos === 0 || pos === 2 ? "sm" : "xs";
      parts.push(el("div", { class: "hand" }, hand.map((x) => tileImg(x, { size, wild: wilds.includes(x) })),
        drawn ? el("span", { class: "gap" }) : null, drawn ? tileImg(drawn, { size, wild: wilds.includes(drawn) }) : null,
        st.melds.length ? el("span", { class: "gap" }) : null, st.melds.map((m) => meldEl(m, wilds, "xs"))));
      const last = lastDahai && lastDahai.actor === seat;
      parts.push(discardsEl(st.discards, wilds, { last, size: "sm", perRow: pos === 0 || pos === 2 ? 14 : 6 }));
    }
    box.replaceChildren(...parts);
  }
  const center = [];
  const bj = family === "beijing";
  if (s.indicator) {
    center.push(el("div", { class: "indicator" }, el("div", { class: "lbl" }, t(bj ? "indicator_bj" : "indicator")),
      tileImg(s.indicator, { size: "md" }), el("div", { class: "lbl" }, t(bj ? "wild_bj" : "wilds")),
      (s.wilds || []).map((w) => tileImg(w, { size: "md", wild: true }))));
  }
  if (bj && s.seats) {
    center.push(el("div", { class: "wall reserve" }, t("reserve_line", s.wall_left, s.reserve)));
    const marks = [];
    if (s.upstairs) marks.push(el("span", { class: "mark upstairs" }, t("upstairs_mark")));
    if (s.shaozhuang) marks.push(el("span", { class: "mark shaozhuang" }, t("shaozhuang_mark", s.shaozhuang)));
    if (marks.length) center.push(el("div", { class: "bjmarks" }, marks));
    center.push(el("div", { class: "dice" }, diceText(s.dice)));
  } else if (s.indicator) {
    center.push(el("div", { class: "wall" }, t("wall_left", s.wall_left)));
    center.push(el("div", { class: "dice" }, diceText(s.dice)));
  }
  center.push(el("div", { class: "muted" }, t("all_hands")));
  const texts = f.events.map((e) => eventText(e, names, -1, true)).filter(Boolean);
  center.push(el("div", { class: "turn" }, texts.join(" · ")));
  const end = f.events.find((e) => e.type === "end_kyoku");
  if (end) {
    center.push(el("div", {}, [0, 1, 2, 3].map((x) => el("span", { class: end.deltas[x] > 0 ? "pos" : end.deltas[x] < 0 ? "neg" : "" },
      `${windOf(x)} ${signed(end.deltas[x])}  `))));
  }
  $("center").replaceChildren(...center);
  $("scores").replaceChildren(el("h3", {}, t("scores")), el("table", { class: "scoretable" },
    [0, 1, 2, 3].map((x) => el("tr", {}, el("td", {}, windOf(x)), el("td", {}, names[x]), el("td", { class: "num" }, String(s.scores[x]))))));
  const lines = [];
  const from = Math.max(0, i - 60);
  for (let k = from; k <= i; k++) {
    for (const e of frames[k].events) {
      const x = eventText(e, names, -1);
      if (x) lines.push(el("li", { class: `ev-${e.type}` }, x));
    }
  }
  $("log").replaceChildren(...lines);
  $("log").scrollTop = $("log").scrollHeight;
}

function toggle() {
  if (timer) { clearInterval(timer); timer = null; $("playbtn").textContent = "▶"; return; }
  $("playbtn").textContent = "❚❚";
  timer = setInterval(() => { if (i >= frames.length - 1) toggle(); else go(i + 1); }, 500);
}

$("first").onclick = () => go(0);
$("last").onclick = () => go(frames.length - 1);
$("back").onclick = () => go(i - 1);
$("fwd").onclick = () => go(i + 1);
$("playbtn").onclick = toggle;
$("prevhand").onclick = () => { const hs = handStarts().filter((k) => k < i); go(hs.length ? hs[hs.length - 1] : 0); };
$("nexthand").onclick = () => { const h = handStarts().find((k) => k > i); go(h === undefined ? frames.length - 1 : h); };
$("slider").oninput = (e) => go(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(i + 1);
  if (e.key === "ArrowLeft") go(i - 1);
  if (e.key === "Home") go(0);
  if (e.key === "End") go(frames.length - 1);
});

langToggle($("lang"), render);
applyI18n();

(async () => {
  try {
    const d = await api(`/api/matches/${encodeURIComponent(matchId)}/frames`);
    frames = d.frames;
    names = d.names || names;
    const rules = (d.match && d.match.rules) || {};
    family = rules.family || "tianjin";
    preset = rules.preset || "";
    const q = new URLSearchParams(location.search);
    go(q.has("step") ? Number(q.get("step")) : 0);
  } catch (e) {
    toast(e.message);
    $("title").textContent = t("not_found");
  }
})();
