// Shared drawing helpers: tiles as <img src="/tiles/5m.svg">, melds, discards, dice, names.
import { lang, t } from "./i18n.js";

export const WINDS_ZH = ["东", "南", "西", "北"];
export const WINDS_EN = ["E", "S", "W", "N"];
const NUM_ZH = "一二三四五六七八九";
const HONOR_ZH = ["东", "南", "西", "北", "中", "发", "白"];
const HONOR_EN = ["East", "South", "West", "North", "Red", "Green", "White"];
const SUIT_ZH = { m: "万", p: "饼", s: "条" };
const SUIT_EN = { m: "characters", p: "dots", s: "bamboo" };
const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3 };

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
  if (opts.rotated) q.push("rotated=1");
  const name = tile || "back";
  return `/tiles/${name}.svg${q.length ? "?" + q.join("&") : ""}`;
}

// One tile image; opts: wild, back, rotated, size (css class s-<size>), cls (extra classes), title
export function tileImg(tile, opts = {}) {
  const img = el("img", {
    src: tileURL(opts.back ? null : tile, opts),
    class: ["tile", `t-${opts.size || "md"}`, opts.rotated ? "rot" : "", opts.wild ? "wild" : "", opts.cls || ""]
      .filter(Boolean).join(" "),
    alt: opts.back ? "?" : tile,
    draggable: "false",
  });
  if (!opts.back && tile) img.title = `${tile} ${tileName(tile)}`;
  return img;
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

export function meldEl(text, wilds = [], size = "sm") {
  const { tiles, kind, concealed } = parseMeld(text);
  const box = el("span", { class: `meld meld-${kind}`, title: text });
  tiles.forEach((tile, i) => {
    const back = concealed && (i === 0 || i === tiles.length - 1);
    box.append(tileImg(tile, { size, back, wild: wilds.includes(tile) && !back }));
  });
  return box;
}

export function discardsEl(list, wilds = [], { last = false, size = "sm", perRow = 6 } = {}) {
  const box = el("div", { class: "discards" });
  box.style.setProperty("--per-row", String(perRow)); // CSSOM, not a style attribute: the CSP forbids those
  list.forEach((tile, i) => {
    const cls = last && i === list.length - 1 ? "last" : "";
    box.append(tileImg(tile, { size, wild: wilds.includes(tile), cls }));
  });
  return box;
}

export function backsEl(n, size = "xs") {
  const box = el("div", { class: "backs" });
  for (let i = 0; i < n; i++) box.append(tileImg(null, { back: true, size }));
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
    case "hora": return ev.value !== undefined ? t("ev_win_value", who(ev.actor), ev.name, ev.value)
      : t("ev_win", who(ev.actor), ev.name, ev.fan);
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
