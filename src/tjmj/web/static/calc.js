// The calculator page (算番器, /calc; docs/web.md "Calculator"): a hand picked by touch from a tile
// palette (or typed as MPSZ text), scored by the server: POST /api/score takes one line of the batch
// format (docs/cli.md) and answers what `tjmj score --batch` answers; a 13-tile hand goes to
// POST /api/waits instead (`tjmj waits --json`). The inputs a family's line takes (indicator, winds,
// flowers, its flags) come from its batch keys (/static/calckeys.js), the families from the registry.
// The page works offline (sw.js keeps it); scoring does not, and the page says so.
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import { FAMILIES, DEFAULT_FAMILY, familyName, presetName, capsOf } from "./family.js";
import { KEYS } from "./calckeys.js";
import { arrangementEl, el, sortTiles, tileImg, tileWords, WINDS_ZH, WINDS_EN } from "./render.js";

const SUITS = ["m", "p", "s", "z"];
const NOT_FLAGS = new Set(["hand", "draw", "indicator", "melds", "flowers", "seat_wind", "prevalent_wind", "ruleset", "rules"]);
const MELD_KINDS = ["chi", "pon", "kong", "ankong"];
const FAMILY_KEY = "tjmj.calc.family";

const state = {
  family: (FAMILIES.find((f) => f.name === localStorage.getItem(FAMILY_KEY)) || DEFAULT_FAMILY).name,
  preset: null,
  target: "hand", // where a tapped palette tile goes: hand, win, indicator, or a meld kind
  hand: [], melds: [], win: null, indicator: null, flowers: [],
  flags: {}, seat: 0, prevalent: 0,
  text: null, // the text field's own text while it does not parse (sent as it is: the server names the fault)
};
let asked = 0; // the latest request: an older answer arriving late is dropped

const keysOf = () => KEYS[state.family] || [];
const takes = (key) => keysOf().includes(key);
const flagKeys = () => keysOf().filter((k) => !NOT_FLAGS.has(k));
const famOf = () => FAMILIES.find((f) => f.name === state.family) || DEFAULT_FAMILY;

// the tiles of a meld, for drawing and for counting copies
function meldTiles(m) {
  if (m.type === "chi") return [0, 1, 2].map((i) => `${Number(m.tile[0]) + i}${m.tile[1]}`);
  return Array(m.type === "pon" ? 3 : 4).fill(m.tile);
}

function mpsz(tiles) {
  let out = "";
  let run = "";
  let suit = "";
  for (const x of sortTiles(tiles)) {
    if (x[1] !== suit && run) { out += run + suit; run = ""; }
    suit = x[1];
    run += x[0];
  }
  return run ? out + run + suit : out;
}

// "123m456p789s1122z" -> tiles, or null when it is not plain MPSZ text
function parseText(text) {
  const s = text.replace(/\s+/g, "");
  if (!/^(?:[1-9]+[mps]|[1-7]+z)*$/.test(s)) return null;
  const tiles = [];
  for (const [, digits, suit] of s.matchAll(/([1-9]+)([mpsz])/g)) for (const d of digits) tiles.push(d + suit);
  return tiles;
}

function copiesUsed(tile) {
  const all = [...state.hand, ...state.melds.flatMap(meldTiles), state.win, state.indicator];
  return all.filter((x) => x === tile).length;
}

function put(tile) {
  state.text = null;
  if (tile[1] === "f") {
    if (!state.flowers.includes(tile)) state.flowers.push(tile);
  } else if (state.target === "hand") {
    if (state.hand.length < 14 && copiesUsed(tile) < 4) state.hand.push(tile);
  } else if (state.target === "win") {
    state.win = tile;
  } else if (state.target === "indicator") {
    state.indicator = tile;
  } else if (state.target === "chi") {
    if (tile[1] !== "z" && Number(tile[0]) <= 7) state.melds.push({ type: "chi", tile });
  } else {
    state.melds.push({ type: state.target, tile });
  }
  update();
}

// ---- drawing ------------------------------------------------------------------------------------

function tileButton(tile, label, onTap, opts = {}) {
  return el("button", { type: "button", class: `calc-tile${opts.on ? " on" : ""}`, "aria-label": label, "data-tile": tile, onclick: onTap },
    tileImg(tile, { size: "md", decorative: true }));
}

function drawPicked() {
  const remove = (what) => t("calc_remove", what);
  document.getElementById("hand").replaceChildren(...state.hand.map((x, i) =>
    tileButton(x, remove(tileWords(x)), () => { state.hand.splice(i, 1); state.text = null; update(); })));
  document.getElementById("melds").replaceChildren(...state.melds.map((m, i) =>
    el("button", { type: "button", class: "calc-meld", "data-meld": m.type, "aria-label": remove(`${t(`group_${m.type}`)} ${meldTiles(m).map((x) => tileWords(x)).join(" ")}`),
      onclick: () => { state.melds.splice(i, 1); update(); } },
    ...meldTiles(m).map((x, j) => tileImg(m.type === "ankong" && (j === 0 || j === 3) ? null : x, { size: "sm", back: m.type === "ankong" && (j === 0 || j === 3), decorative: true })))));
  const one = (id, tile, clear) => document.getElementById(id).replaceChildren(...(tile ? [tileButton(tile, remove(tileWords(tile)), clear)] : []));
  one("win", state.win, () => { state.win = null; update(); });
  one("indicator", state.indicator, () => { state.indicator = null; update(); });
  document.getElementById("flowers").replaceChildren(...state.flowers.map((x, i) =>
    tileButton(x, remove(tileWords(x)), () => { state.flowers.splice(i, 1); update(); })));
  document.getElementById("indicator-row").hidden = !takes("indicator");
  document.getElementById("flowers-row").hidden = !takes("flowers");
  document.getElementById("indicator-label").textContent = indicatorWord();
}

// the family's word for the indicator (Tianjin 翻混, Beijing 混坯: its CAPS.indicatorLabels)
function indicatorWord() {
  const labels = capsOf(state.family).indicatorLabels;
  return t(labels ? labels[0] : "indicator");
}

function drawTargets() {
  const targets = ["hand", "win", ...(takes("indicator") ? ["indicator"] : []), ...MELD_KINDS];
  if (!targets.includes(state.target)) state.target = "hand";
  document.getElementById("targets").replaceChildren(...targets.map((k) =>
    el("button", { type: "button", class: "calc-target", "data-target": k, "aria-pressed": String(state.target === k),
      onclick: () => { state.target = k; drawTargets(); } }, k === "indicator" ? indicatorWord() : t(`calc_to_${k}`))));
}

function drawPalette() {
  const rows = SUITS.map((s) => Array.from({ length: s === "z" ? 7 : 9 }, (_, i) => `${i + 1}${s}`));
  if (takes("flowers")) rows.push(Array.from({ length: 8 }, (_, i) => `${i + 1}f`));
  document.getElementById("palette").replaceChildren(...rows.map((row) =>
    el("div", { class: "calc-prow" }, ...row.map((x) => tileButton(x, tileWords(x), () => put(x))))));
}

function drawFlags() {
  const keys = flagKeys();
  document.getElementById("flags-box").hidden = !keys.length;
  document.getElementById("flags").replaceChildren(...keys.map((k) =>
    el("button", { type: "button", class: "calc-flag", "data-flag": k, "aria-pressed": String(!!state.flags[k]),
      onclick: () => { state.flags[k] = !state.flags[k]; update(); } }, t(`calc_flag_${k}`))));
  const winds = document.getElementById("winds");
  if (!takes("seat_wind")) { winds.replaceChildren(); return; }
  const names = lang() === "zh" ? WINDS_ZH : WINDS_EN;
  const picker = (key, value, set) => el("label", { class: "field inline" }, el("span", {}, t(key)),
    el("select", { "data-testid": `calc-${key}`, onchange: (e) => { set(Number(e.target.value)); update(); } },
      ...names.map((n, i) => el("option", { value: String(i), selected: i === value }, n))));
  winds.replaceChildren(picker("seat_wind", state.seat, (v) => { state.seat = v; }),
    picker("prevalent_wind", state.prevalent, (v) => { state.prevalent = v; }));
}

function drawRules() {
  const fam = document.getElementById("family");
  fam.replaceChildren(...FAMILIES.map((f) => el("option", { value: f.name, selected: f.name === state.family }, familyName(f.name))));
  const f = famOf();
  if (!f.presets.includes(state.preset)) state.preset = f.default_preset;
  document.getElementById("preset").replaceChildren(...f.presets.map((p) =>
    el("option", { value: p, selected: p === state.preset }, presetName(p))));
}

function drawAll() {
  document.title = `${t("calc_title")} — ${t("title")}`;
  drawRules(); drawTargets(); drawPalette(); drawFlags(); drawPicked();
  const text = document.getElementById("text");
  if (document.activeElement !== text) text.value = state.text ?? mpsz(state.hand);
}

// ---- asking the server --------------------------------------------------------------------------

function meldText(m) { // the command's meld text, as /api/waits takes it
  const tiles = meldTiles(m).map((x) => x[0]).join("");
  return m.type === "ankong" ? `(${tiles}${m.tile[1]})` : `[${tiles}${m.tile[1]}]`;
}

function request() {
  const hand = state.text ?? mpsz(state.hand);
  const count = (state.text === null ? state.hand.length : 13) + 3 * state.melds.length;
  if (!state.win && count !== 13) return null; // nothing to ask yet
  const line = { hand };
  if (state.win) line.draw = state.win;
  if (takes("indicator") && state.indicator) line.indicator = state.indicator;
  line.ruleset = state.preset;
  if (!state.win) { // what it waits on
    line.melds = state.melds.map(meldText);
    if (takes("seat_wind")) { line.seat_wind = String(state.seat); line.prevalent_wind = String(state.prevalent); }
    if (state.flags.dealer && takes("dealer")) line.dealer = true;
    return ["/api/waits", line];
  }
  if (state.melds.length) line.melds = state.melds.map((m) => ({ type: m.type, tile: m.tile }));
  for (const k of flagKeys()) if (state.flags[k]) line[k] = true;
  if (takes("flowers") && state.flowers.length) line.flowers = state.flowers.length;
  if (takes("seat_wind")) { line.seat_wind = state.seat; line.prevalent_wind = state.prevalent; }
  return ["/api/score?names=true", line];
}

async function ask() {
  const error = document.getElementById("calc-error");
  const result = document.getElementById("result");
  const req = request();
  const n = ++asked;
  if (!req) { error.textContent = ""; summary(null, null); result.replaceChildren(el("p", { class: "muted" }, t("calc_pick_more"))); return; }
  let answer;
  try {
    const r = await fetch(req[0], { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req[1]) });
    answer = await r.json();
  } catch {
    if (n !== asked) return;
    error.textContent = "";
    summary(null, null);
    document.getElementById("summary").textContent = t("calc_offline"); // at the top too: below the palette it is out of sight
    result.replaceChildren(el("p", { class: "calc-offline", "data-testid": "calc-offline" }, t("calc_offline")));
    return;
  }
  if (n !== asked) return;
  if (answer.error) {
    error.textContent = answer.error; // the server's one line, as it says it
    summary(null, null);
    result.replaceChildren();
    return;
  }
  error.textContent = "";
  result.replaceChildren(...(req[0] === "/api/waits" ? waitsEls(answer) : scoreEls(answer)));
  summary(req[0] === "/api/waits" ? answer : null, req[0] === "/api/waits" ? null : answer);
}

// one line at the top (on a phone the full answer is below the palette): the verdict and value, or the waits
function summary(waits, score) {
  const line = document.getElementById("summary");
  if (score) {
    const value = score.total ?? score.value ?? score.fan ?? 0;
    line.textContent = `${score.win ? t("calc_win") : t("calc_no_win")} · ${"value" in score ? t("calc_value") : t("calc_fan")} ${value}`;
  } else if (waits) {
    line.textContent = waits.waits && waits.waits.length
      ? `${t("calc_waits")}: ${waits.waits.map((w) => tileWords(w.tile)).join(lang() === "zh" ? "、" : ", ")}`
      : t("calc_not_ready", waits.shanten);
  } else line.textContent = "";
}

function both(zh, en) {
  return el("span", {}, el("span", { lang: "zh-CN" }, zh), en && en !== zh ? el("span", { lang: "en", class: "muted" }, ` ${en}`) : null);
}

function scoreEls(a) {
  const value = a.total ?? a.value ?? a.fan ?? 0;
  const unit = "value" in a ? t("calc_value") : t("calc_fan");
  const out = [el("p", { class: `calc-verdict ${a.win ? "pos" : "neg"}`, "data-testid": "calc-verdict" },
    a.win ? t("calc_win") : t("calc_no_win"), ` · ${unit} `, el("strong", { "data-testid": "calc-value" }, String(value)))];
  if (a.reason) out.push(el("p", { class: "muted small" }, a.reason));
  const fans = a.fans || [];
  const names = a.names || [];
  // the combination's name where it says more than the names listed (Tianjin's 双混儿捉伍儿本混儿龙)
  if (a.name && a.name !== names.map((x) => x.chinese).join("、")) out.push(el("p", { class: "calc-combo" }, both(a.name, "")));
  if (names.length) {
    out.push(el("ul", { class: "calc-names", "data-testid": "calc-names" }, names.map((x, i) => {
      const f = fans[i];
      return el("li", { "data-code": x.code }, both(x.chinese, x.english), f ? el("span", { class: "num" }, ` ${f.fan * f.count}`) : null);
    })));
  }
  const arr = arrangementEl(a.arrangement, [...new Set((a.arrangement?.groups || []).flatMap((g) => g.tiles.filter((_, i) => g.wild && g.wild[i])))]);
  if (arr) out.push(el("h2", { class: "small" }, t("arrangement")), arr);
  return out;
}

function waitsEls(a) {
  const waits = a.waits || [];
  if (!waits.length) return [el("p", { "data-testid": "calc-waits-none" }, t("calc_not_ready", a.shanten))];
  return [el("h2", { class: "small" }, t("calc_waits")),
    el("ul", { class: "calc-waits", "data-testid": "calc-waits" }, waits.map((w) => {
      const value = w.value ?? w.fan;
      return el("li", { "data-tile": w.tile }, tileImg(w.tile, { size: "sm" }),
        el("span", {}, ` ${"value" in w ? t("calc_value") : t("calc_fan")} ${value}`, w.win === false ? ` · ${t("calc_no_win")}` : "",
          w.name ? el("span", { lang: "zh-CN" }, ` ${w.name}`) : null));
    }))];
}

function update() {
  drawAll();
  ask();
}

// ---- wiring -------------------------------------------------------------------------------------

document.getElementById("family").addEventListener("change", (e) => {
  state.family = e.target.value;
  localStorage.setItem(FAMILY_KEY, state.family);
  state.preset = null;
  state.flags = {};
  update();
});
document.getElementById("preset").addEventListener("change", (e) => { state.preset = e.target.value; update(); });
document.getElementById("text").addEventListener("input", (e) => {
  const tiles = parseText(e.target.value);
  if (tiles && tiles.length <= 14) { state.hand = tiles; state.text = null; } else state.text = e.target.value.trim();
  drawPicked();
  ask();
});
// leaving the field shows the hand's text in order; nothing else is redrawn (a tap that left it must land)
document.getElementById("text").addEventListener("change", (e) => { e.target.value = state.text ?? mpsz(state.hand); });
document.getElementById("clear").addEventListener("click", () => {
  Object.assign(state, { hand: [], melds: [], win: null, indicator: null, flowers: [], flags: {}, text: null });
  update();
});
langToggle(document.getElementById("lang"), update);
applyI18n();
update();

// installable and offline: the worker keeps the page and its files (sw.js)
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
