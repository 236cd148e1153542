// Shared drawing helpers: tiles as <img src="/tiles/5m.svg">, melds, discards, dice, names.
import { lang, t } from "./i18n.js";

export const WINDS_ZH = ["东", "南", "西", "北"];
export const WINDS_EN = ["E", "S", "W", "N"];
const NUM_ZH = "一二三四五六七八九";
const HONOR_ZH = ["东", "南", "西", "北", "中", "发", "白"];
const HONOR_EN = ["East", "South", "West", "North", "Red", "Green", "White"];
const HONOR_LONG_EN = ["East wind", "South wind", "West wind", "North wind", "Red dragon", "Green dragon", "White dragon"];
const SUIT_ZH = { m: "万", p: "饼", s: "条" };
const SUIT_EN = { m: "characters", p: "dots", s: "bamboo" };
const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };
// MCR's flowers (M1), 1f–8f
const FLOWER_ZH = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];
const WIND_WORD_EN = { E: "East", S: "South", W: "West", N: "North" };
const WIND_ZH = { E: "东", S: "南", W: "西", N: "北" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function tileName(tile) {
  const n = Number(tile[0]);
  const s = tile[1];
  if (s === "z") return lang() === "zh" ? HONOR_ZH[n - 1] : HONOR_EN[n - 1];
  if (s === "f") return lang() === "zh" ? FLOWER_ZH[n - 1] : FLOWER_EN[n - 1];
  return lang() === "zh" ? NUM_ZH[n - 1] + SUIT_ZH[s] : `${n} ${SUIT_EN[s]}`;
}

export function tileKey(tile) {
  return SUIT_ORDER[tile[1]] * 10 + Number(tile[0]);
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileKey(a) - tileKey(b));
}

export function tileURL(tile, opts = {}) {
  const q = [];
  if (opts.wild) q.push("wild=1");
  if (opts.back) q.push("back=1");
  const name = tile || "back";
  return `/tiles/${name}.svg${q.length ? "?" + q.join("&") : ""}`;
}

// Every tile is a <use> of one symbol of /tiles/sprite.svg, fetched once and put in the page: a
// table of 100 tiles costs one request, and a slow link shows a whole hand at once.
const SVG_NS = "http://www.w3.org/2000/svg";
let sprite = null;
export function loadSprite() {
  if (sprite) return sprite;
  sprite = fetch("/tiles/sprite.svg").then((r) => r.text()).then((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    document.body.prepend(document.importNode(doc.documentElement, true));
  }).catch(() => { sprite = null; });
  return sprite;
}

// A tile in words, for screen readers and tooltips: "5 of characters, wild" / "五万，混儿"
export function tileWords(tile, opts = {}) {
  if (opts.back || !tile) return t("tile_hidden");
  const name = lang() === "zh" ? tileName(tile) : tileNameLong(tile);
  return opts.wild ? t("tile_wild", name) : name;
}

function tileNameLong(tile) {
  const n = Number(tile[0]);
  if (tile[1] === "z") return HONOR_LONG_EN[n - 1];
  if (tile[1] === "f") return `${FLOWER_EN[n - 1]} (flower ${n})`;
  return `${n} of ${SUIT_EN[tile[1]]}`;
}

// One tile (an <svg role="img">); opts: wild, back, size (class t-<size>), cls (extra classes),
// decorative (hidden from screen readers: a parent names it)
export function tileImg(tile, opts = {}) {
  loadSprite();
  const svg = document.createElementNS(SVG_NS, "svg");
  const classes = ["tile", `t-${opts.size || "md"}`, opts.wild ? "wild" : "", opts.back ? "back" : "", opts.cls || ""];
  svg.setAttribute("class", classes.filter(Boolean).join(" ").trim());
  svg.setAttribute("viewBox", "0 0 60 80");
  const use = (id) => {
    const u = document.createElementNS(SVG_NS, "use");
    u.setAttribute("href", `#t-${id}`);
    svg.append(u);
  };
  use(opts.back || !tile ? "back" : tile);
  if (opts.wild && !opts.back) use("wild");
  if (tile && !opts.back) svg.setAttribute("data-tile", tile);
  const words = tileWords(tile, opts);
  if (opts.decorative) {
    svg.setAttribute("aria-hidden", "true");
  } else {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", words);
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = words;
    svg.prepend(title);
  }
  return svg;
}

// "[777m]" pon, "[345m]" chi, "[7777m]" kong, "[7777m+]" added kong, "(7777m)" concealed kong
export function parseMeld(text) {
  const m = /^([[(])(\d+)([mpsz])(\+?)[\])]$/.exec(text.trim());
  if (!m) return { tiles: [], kind: "?" };
  const tiles = [...m[2]].map((d) => d + m[3]);
  const concealed = m[1] === "(";
  const kind = concealed ? "ankong" : m[4] ? "added_kong" : tiles.length === 4 ? "kong"
    : new Set(m[2]).size > 1 ? "chi" : "pon";
  return { tiles, kind, concealed };
}

// The tiles of the sequence a "chi 3m" action makes (the lowest tile is named): ["3m", "4m", "5m"]
export function chiTiles(low) {
  const n = Number(low[0]);
  return [n, n + 1, n + 2].map((x) => `${x}${low[1]}`);
}

// A chi's sequence in words, the suit said once: "5-6-7 dots", 五六七饼 (not "5 dots6 dots7 dots")
export function chiName(low) {
  const n = Number(low[0]);
  const s = low[1];
  return lang() === "zh" ? `${NUM_ZH[n - 1]}${NUM_ZH[n]}${NUM_ZH[n + 1]}${SUIT_ZH[s]}` : `${n}-${n + 1}-${n + 2} ${SUIT_EN[s]}`;
}

export function meldEl(text, wilds = [], size = "sm") {
  const { tiles, kind, concealed } = parseMeld(text);
  const words = `${t(`meld_${kind}`)}: ${tiles.map((x) => tileWords(x, { wild: wilds.includes(x) })).join(", ")}`;
  const box = el("span", { class: `meld meld-${kind}`, title: text, role: "img", "aria-label": words });
  tiles.forEach((tile, i) => {
    const back = concealed && (i === 0 || i === tiles.length - 1);
    box.append(tileImg(tile, { size, back, wild: wilds.includes(tile) && !back, decorative: true }));
  });
  return box;
}

// A pond: the discards in order; opts.last marks the latest discard of the table (until the next
// one), opts.claimed the indices another seat claimed (shown claimed, still in the pond).
export function discardsEl(list, wilds = [], { last = false, size = "sm", perRow = 6, claimed = [], label = "" } = {}) {
  const box = el("div", { class: "discards", role: "list", "aria-label": label || t("discards") });
  box.style.setProperty("--per-row", String(perRow)); // CSSOM, not a style attribute: the CSP forbids those
  const taken = new Set(claimed);
  list.forEach((tile, i) => {
    const isLast = last && i === list.length - 1;
    const cls = [isLast ? "last" : "", taken.has(i) ? "claimed" : ""].filter(Boolean).join(" ");
    const img = tileImg(tile, { size, wild: wilds.includes(tile), cls });
    if (taken.has(i)) img.setAttribute("aria-label", `${tileWords(tile, { wild: wilds.includes(tile) })} (${t("claimed")})`);
    const item = el("span", { role: "listitem", class: "pond-tile" }, img);
    box.append(item);
  });
  return box;
}

export function backsEl(n, size = "xs") {
  const box = el("div", { class: "backs", role: "img", "aria-label": t("tiles_n", n) });
  for (let i = 0; i < n; i++) box.append(tileImg(null, { back: true, size, decorative: true }));
  return box;
}

const PIPS = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
export function diceText(dice) {
  if (!dice) return "";
  const pair = (p) => (p ? p.map((d) => PIPS[d - 1] || d).join("") + ` ${p[0] + p[1]}` : "");
  const parts = [pair(dice.first), pair(dice.second)];
  if (dice.indicator) parts.push(pair(dice.indicator));
  return parts.filter(Boolean).join(" · ");
}

// A wind given by its letter (MCR's 圈风 and 门风, "E"…"N"), as a word: 东 / East
export function windWord(letter) {
  return lang() === "zh" ? WIND_ZH[letter] || letter : WIND_WORD_EN[letter] || letter;
}

// The honour tile of a wind letter: "E" → "1z"
export function windTile(letter) {
  const i = ["E", "S", "W", "N"].indexOf(letter);
  return i >= 0 ? `${i + 1}z` : null;
}

// A seat's flowers (MCR M1: laid aside face up, public), as a row of small tiles
export function flowersEl(list, size = "xs", label = "") {
  if (!list || !list.length) return null;
  const words = list.map((x) => tileWords(x)).join(", ");
  return el("span", { class: "flowers", role: "img", "aria-label": `${label || t("flowers")}: ${words}`, title: words },
    list.map((x) => tileImg(x, { size, decorative: true })));
}

export function windOf(seat) {
  if (seat === null || seat === undefined || seat < 0) return "";
  return lang() === "zh" ? WINDS_ZH[seat] : WINDS_EN[seat];
}

export function seatLabel(seat, names) {
  return `${windOf(seat)} ${names ? names[seat] : ""}`.trim();
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// One line of the move list for an event (hidden tiles are null); all: say every draw (replays).
export function eventText(ev, names, me, all = false) {
  const who = (s) => seatLabel(s, names);
  const tileT = (x) => (x ? (lang() === "zh" ? tileName(x) : x) : "");
  switch (ev.type) {
    case "start_kyoku": return t("ev_deal", ev.hand + 1, who(ev.dealer));
    case "tsumo":
      if (all && ev.pai) return t("ev_draw_tile", who(ev.actor), tileT(ev.pai));
      return ev.actor === me && ev.pai ? t("ev_draw_own", tileT(ev.pai)) : null;
    case "dahai": return ev.hunyou ? t("ev_hunyou", who(ev.actor), tileT(ev.pai)) : t("ev_discard", who(ev.actor), tileT(ev.pai));
    case "pon": return t("ev_pon", who(ev.actor), tileT(ev.pai));
    case "chi": return t("ev_chi", who(ev.actor), tileT(ev.pai));
    case "shaozhuang": return t("ev_shaozhuang");
    case "daiminkan": return t("ev_kong", who(ev.actor), tileT(ev.pai));
    case "ankan": return ev.gold ? t("ev_gold", who(ev.actor), tileT(ev.consumed[0])) : t("ev_ankong", who(ev.actor));
    case "kakan": return t("ev_kakan", who(ev.actor), tileT(ev.pai));
    case "chan": return t("ev_chan");
    case "flower": return t("ev_flower", who(ev.actor), tileT(ev.pai));
    case "hora": return ev.value !== undefined ? t("ev_win_value", who(ev.actor), winName(ev), ev.value)
      : t("ev_win", who(ev.actor), winName(ev), ev.total !== undefined ? ev.total : ev.fan);
    case "ryukyoku": return t("ev_drawn");
    case "end_game": return t("ev_end");
    default: return null;
  }
}

export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast ${kind}`, text: message });
  box.append(item);
  setTimeout(() => item.remove(), 4500);
}

export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new Error((data && data.error) || `${r.status} ${r.statusText}`);
  return data;
}

// The seat a person holds in a room: {token, player}, kept in this browser only.
export function loadSeat(room) {
  try { return JSON.parse(localStorage.getItem(`tjmj.seat.${room}`) || "null"); } catch { return null; }
}
export function saveSeat(room, seat) { localStorage.setItem(`tjmj.seat.${room}`, JSON.stringify(seat)); }
export function dropSeat(room) { localStorage.removeItem(`tjmj.seat.${room}`); }
export function savedName() { return localStorage.getItem("tjmj.name") || ""; }
export function saveName(name) { localStorage.setItem("tjmj.name", name); }

// The player id (docs/web.md, issue 13): made once per browser and sent with the name, so that the
// statistics tell apart people who chose the same name. Not a password: it opens no seat; the
// server never shows it to anyone else.
const PLAYER_ID = /^[A-Za-z0-9_-]{16,32}$/;
export function playerId() {
  let id = localStorage.getItem("tjmj.player_id");
  if (!id || !PLAYER_ID.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(12)); // 96 bits: 16 base64url characters
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
    localStorage.setItem("tjmj.player_id", id);
  }
  return id;
}
// The page of a player's statistics: "/player/Ann?id=…" for oneself (the id picks this browser's
// games among everyone called Ann), "/player/Ann" for anyone else.
export function playerUrl(name, id) {
  return `/player/${encodeURIComponent(name)}${id ? `?id=${encodeURIComponent(id)}` : ""}`;
}

// ---- lobby, history, replay (issue 11) ----------------------------------------------------------

// A player's name as shown: the server names its bots "Bot 1"…"Bot 3" (kind "bot"); those read
// 机器人 1… in Chinese. People keep the names they chose.
export function playerName(name, kind) {
  const m = /^Bot (\d+)$/.exec(name || "");
  if (m && kind !== "human") return t("bot_n", m[1]);
  return name || "";
}

// The name of a win in the chosen language: its elements' names when the event carries them
// (elements_detail: [{code, chinese, english}], as the settlement has them), else the engine's
// Chinese name (in Chinese) or the element codes (in English: pinyin, "hundiao, long").
export function winName(ev) {
  const zh = lang() === "zh";
  const detail = ev.elements_detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((e) => (zh ? e.chinese : e.english) || e.code).join(zh ? "、" : ", ");
  }
  if (zh || !Array.isArray(ev.elements) || !ev.elements.length) return ev.name || "";
  return ev.elements.map((c) => String(c).toLowerCase().replaceAll("_", " ")).join(", ");
}

// A change of score as people read it: "+8", "−4" (a real minus sign), "0".
export function signedDelta(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

// The server's error messages are English; the common ones in the chosen language.
const ERRORS = [
  [/^no room/, "err_no_room"],
  [/room is full/, "err_room_full"],
  [/has (already )?started/, "err_started"],
  [/try again/, "err_busy"],
  [/too many requests/, "err_rate"],
  [/still being played/, "err_playing"],
  [/nothing of this match was stored/, "err_not_stored"],
  [/^no match/, "err_no_match"],
  [/player's name has/, "err_player_name"],
  [/belongs to an account/, "err_account_name"],
];
export function errorText(message) {
  const text = String(message || "");
  const hit = ERRORS.find(([re]) => re.test(text));
  return hit ? t(hit[1]) : t("err_other", text);
}

// ---- the settlement's win, shared by the families' win.js (tjmj/families/<name>/static/win.js) ----

// The winning hand: the hand, the winning tile apart, the melds
export function winHand(w, wilds) {
  return el("div", { class: "winhand", role: "img", "aria-label": t("winning_hand_words", w.hand.map((x) => tileWords(x, { wild: wilds.includes(x) })).join(", "), tileWords(w.tile)) },
    ...sortTiles(w.hand).map((x) => tileImg(x, { size: "md", wild: wilds.includes(x), decorative: true })),
    el("span", { class: "gap" }), tileImg(w.tile, { size: "md", wild: wilds.includes(w.tile), cls: "winning", decorative: true }),
    el("span", { class: "gap" }), ...w.melds.map((m) => meldEl(m, wilds, "sm")));
}

// The winning arrangement: each group with what each of its tiles plays (a wild's role shown)
export function arrangementEl(arr, wilds) {
  if (!arr || !arr.groups) return null;
  return el("div", { class: "arr", role: "list", "aria-label": t("arrangement") }, arr.groups.map((g) => {
    const tiles = g.tiles.map((x, i) => {
      const wild = g.wild ? !!g.wild[i] : wilds.includes(x);
      return tileImg(x, { size: "sm", wild, cls: g.winning === i ? "winning" : "", decorative: true });
    });
    const plays = g.tiles.map((x, i) => {
      const wild = g.wild ? !!g.wild[i] : false;
      return wild && g.plays && g.plays[i] ? `${tileName(x)}=${tileName(g.plays[i])}` : null;
    }).filter(Boolean);
    const words = g.tiles.map((x, i) => {
      const wild = g.wild ? !!g.wild[i] : false;
      return wild && g.plays ? t("wild_plays", tileWords(x, { wild: true }), tileWords(g.plays[i])) : tileWords(x);
    }).join(", ");
    return el("div", { class: "group", role: "listitem", "aria-label": `${t(`group_${g.kind}`)}: ${words}` },
      el("span", { class: "gtiles", "aria-hidden": "true" }, tiles),
      el("span", { class: "gkind", "aria-hidden": "true" }, t(`group_${g.kind}`)),
      plays.length ? el("span", { class: "plays", "aria-hidden": "true" }, plays.join(" ")) : null);
  }));
}

// An element's name in the chosen language (the code is no help to a player)
export function elementRows(elements) {
  return el("table", { class: "elements" },
    el("caption", { class: "sr-only" }, t("elements")),
    el("tr", {}, el("th", { scope: "col" }, t("elements")), el("th", { scope: "col" }, t("element_value"))),
    elements.map((e) => el("tr", { class: e.counts === false ? "muted" : "" },
      el("td", {}, lang() === "zh" ? e.chinese : `${e.english} (${e.chinese})`),
      el("td", { class: "num" }, lang() === "zh" && e.value_zh ? e.value_zh : e.value))));
}
