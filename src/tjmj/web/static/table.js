// The table: a seat (or a spectator) over the WebSocket; the server decides everything.
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import {
  api, backsEl, chiTiles, diceText, discardsEl, dropSeat, el, eventText, loadSeat, meldEl, saveName, saveSeat,
  savedName, seatLabel, signed, sortTiles, tileImg, tileName, toast, windOf,
} from "./render.js";

const room = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const $ = (id) => document.getElementById(id);

// "/table/ROOM#token=…&player=0" hands a seat to this browser (the hash never reaches the server)
if (location.hash.includes("token=")) {
  const h = new URLSearchParams(location.hash.slice(1));
  saveSeat(room, { token: h.get("token"), player: Number(h.get("player") || 0) });
  if (h.get("hints") === "1") localStorage.setItem("tjmj.hints", "1");
  history.replaceState(null, "", location.pathname);
}

let ws = null;
let seat = loadSeat(room); // {token, player} or null
let info = null; // the last "room" message
let state = null; // the last "state" message
let hints = null; // the last "hint" message
let hintAsked = -1;
let settlement = null; // on show
let settlementClosedFor = null;
let lastDiscard = null; // {actor, count}
let hunyouMode = -1; // the state version in which the 混儿悠 toggle is on (Beijing, B3)
let retry = 0;
let closedForGood = false;
let reconnectTimer = null;
const log = [];

// ---- the connection ------------------------------------------------------------------------

// The token goes in the first message, never in the URL (URLs end up in logs).
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  setConn("connecting");
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(room)}`);
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify(seat ? { type: "hello", token: seat.token } : { type: "hello", spectate: true }));
    setConn("connected");
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = (e) => {
    if (closedForGood) return;
    if (e.code === 4403 || e.code === 4401) { // a token this room does not know
      dropSeat(room);
      seat = null;
    }
    if (e.code === 4404) { showMissing(); return; }
    if (e.code === 4409) { showReplaced(); return; } // the seat was opened in another tab: do not fight it
    setConn("disconnected");
    retry = Math.min(retry + 1, 6);
    reconnectTimer = setTimeout(connect, 500 * retry);
  };
}

function showReplaced() {
  setConn("disconnected");
  $("conn").textContent = t("opened_elsewhere");
  const again = el("button", { class: "primary", onclick: () => { hideNotice(); connect(); } }, t("use_here"));
  showNotice(t("opened_elsewhere"), again);
}

function showNotice(text, ...extra) {
  const box = $("notice");
  box.replaceChildren(el("span", {}, text), ...extra);
  box.hidden = false;
}

function hideNotice() { $("notice").hidden = true; }

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function setConn(what) {
  const c = $("conn");
  c.className = `conn ${what}`;
  c.textContent = seat ? t(what) : `${t(what)} · ${t("spectating")}`;
}

function onMessage(msg) {
  switch (msg.type) {
    case "room":
      info = msg;
      render();
      break;
    case "state": {
      const first = !state;
      state = msg;
      if (first) renderLog();
      if (settlement && !msg.paused && msg.status === "playing" && settlementClosedFor !== settlement.hand) {
        closeSettlement(false); // the next hand is on
      }
      render();
      maybeAskHint();
      break;
    }
    case "events":
      if (msg.replay) { log.length = 0; lastDiscard = null; } // the hand so far, on (re)connecting
      for (const ev of msg.events) addEvent(ev);
      break;
    case "settlement":
      settlement = msg;
      showSettlement();
      break;
    case "hint":
      hints = msg;
      renderHints();
      renderHand();
      break;
    case "error":
      if (msg.code === "bad_token") { dropSeat(room); seat = null; }
      if (msg.code === "no_room") { closedForGood = true; showMissing(); return; }
      if (msg.code === "not_paused") return; // "next hand" pressed after the pause ended on its own
      if (msg.code === "replaced") return; // the close that follows says it
      toast(msg.message);
      break;
    default:
      break;
  }
}

// ---- the move list -------------------------------------------------------------------------

function addEvent(ev) {
  if (ev.type === "start_kyoku") { log.length = 0; lastDiscard = null; }
  if (ev.type === "dahai") lastDiscard = { actor: ev.actor };
  if (["tsumo", "pon", "chi", "daiminkan", "ankan", "kakan"].includes(ev.type)) lastDiscard = null;
  if (ev.type === "tsumo" && !ev.pai) return;
  log.push(ev);
  if (log.length > 200) log.shift();
  renderLog();
}

// the text is made at each rendering: names and language may arrive or change later
function renderLog() {
  const ol = $("log");
  const names = state ? state.names : null;
  const items = [];
  for (const ev of log) {
    const text = eventText(ev, names, me());
    if (text) items.push(el("li", { class: `ev-${ev.type}` }, text));
  }
  ol.replaceChildren(...items);
  ol.scrollTop = ol.scrollHeight;
}

// ---- rendering -----------------------------------------------------------------------------

// the rule family of the table: "tianjin" or "beijing" (each has its own phases, buttons and settlement)
function family() {
  if (state && state.rules && state.rules.family) return state.rules.family;
  return info && info.rules && info.rules.family ? info.rules.family : "tianjin";
}

function beijing() { return family() === "beijing"; }

function rulesName(r) {
  return `${t(`family_${r.family || "tianjin"}`)} · ${r.preset}`;
}

function me() {
  return state && state.you !== null && state.you !== undefined ? state.you : null;
}

function render() {
  $("roomcode").textContent = `${t("room")} ${room}`;
  const brand = document.querySelector(".brand [data-i18n]"); // the table's game: 天津麻将 or 北京麻将
  if (brand && (state || info)) {
    brand.textContent = t(`family_${family()}`);
    document.title = `${t(`family_${family()}`)} — ${room}`;
  }
  const playing = state && info && info.status !== "waiting";
  $("waiting").hidden = !!playing;
  $("table").hidden = !playing;
  $("scores").hidden = !playing;
  if (state && state.notice) showNotice(state.notice);
  else if (info && info.notice) showNotice(info.notice);
  else if (ws && ws.readyState !== WebSocket.CLOSED) hideNotice();
  if (!playing) { renderWaiting(); return; }
  renderTop();
  for (let pos = 0; pos < 4; pos++) renderSeat(pos);
  renderCenter();
  renderHand();
  renderScores();
  renderHints();
}

function renderWaiting() {
  const box = $("waiting");
  if (!info) { box.replaceChildren(el("p", { class: "muted" }, t("connecting"))); return; }
  const link = `${location.origin}/table/${room}`;
  const players = [0, 1, 2, 3].map((i) => {
    const p = info.players[i];
    return el("li", { class: p ? "filled" : "empty" },
      p ? el("span", {}, p.name, i === 0 ? el("small", { class: "tag" }, t("host")) : null,
        seat && seat.player === i ? el("small", { class: "tag you" }, t("you")) : null,
        p.connected ? el("span", { class: "dot on" }) : el("span", { class: "dot" }))
        : el("span", { class: "muted" }, `${t("bot")} …`));
  });
  const parts = [
    el("h1", {}, t("waiting_for_players")),
    el("div", { class: "bigcode" }, room),
    el("p", {}, t("share")),
    el("div", { class: "share" }, el("input", { value: link, readonly: true, id: "sharelink" }),
      el("button", { onclick: () => { navigator.clipboard?.writeText(link); toast(t("copied"), "ok"); } }, t("copy"))),
    el("ol", { class: "players" }, players),
    el("p", { class: "muted rulesline" }, rulesLine()),
  ];
  if (seat && seat.player === 0) {
    parts.push(el("button", { class: "primary big", onclick: startMatch }, t("start")));
  } else if (seat) {
    parts.push(el("p", { class: "muted" }, t("host_starts")));
  } else if (info.players.length < 4) {
    const input = el("input", { maxlength: "20", value: savedName(), placeholder: t("your_name") });
    parts.push(el("form", {
      class: "joinform",
      onsubmit: (e) => { e.preventDefault(); joinRoom(input.value); },
    }, input, el("button", { class: "primary", type: "submit" }, t("join"))));
  }
  box.replaceChildren(...parts);
}

function rulesLine() {
  if (!info || !info.rules) return "";
  const r = info.rules;
  const parts = [`${t("preset")}: ${rulesName(r)}`,
    r.match_hands ? t("hands_n", r.match_hands) : t("full_match"),
    `${t("bot_strength")}: ${info.bots}`,
    `${t("timer")}: ${info.timer_s ? t("seconds_n", info.timer_s) : t("no_timer")}`];
  return parts.join(" · ");
}

async function startMatch() {
  try { await api(`/api/rooms/${room}/start`, { token: seat.token }); } catch (e) { toast(e.message); }
}

async function joinRoom(name) {
  name = (name || "").trim();
  if (name) saveName(name);
  try {
    const d = await api(`/api/rooms/${room}/join`, { name: name || undefined });
    seat = { token: d.token, player: d.player };
    saveSeat(room, seat);
    if (ws) { ws.onclose = null; ws.close(); }
    connect();
  } catch (e) { toast(e.message); }
}

function renderTop() {
  const o = state.obs;
  // hand_number counts finished hands: once the match is over there is no next hand to name
  const bits = over() ? [t("match_over"), t("hands_n", o.hand_number)]
    : [t("hand_of", o.hand_number + 1), t("round_of", o.round + 1)];
  if (state.rules) bits.push(rulesName(state.rules) + (state.rules.match_hands ? ` · ${t("hands_n", state.rules.match_hands)}` : ""));
  $("handinfo").textContent = bits.join(" · ");
}

function seatAt(pos) {
  const base = me() === null ? 0 : me();
  return (base + pos) % 4;
}

function remaining() {
  if (!state || !state.deadline) return null;
  return Math.max(0, Math.ceil((state.deadline - Date.now()) / 1000));
}

function over() {
  return state && (state.status === "over" || state.obs.phase === "over");
}

// In a claim or rob window the table says only that the others are answering, not who is asked
// (who may claim a tile tells something of their hand); the seat to act on a turn is shown.
function inWindow() {
  const o = state.obs;
  return (o.phase === "claim" || o.phase === "rob") && !!o.window;
}

function isActing(s) {
  return state.to_act === s && (!inWindow() || s === me());
}

function seatHeader(s) {
  const o = state.obs;
  const marks = [];
  if (!over()) { // no dealer and no 坐庄/拉庄 marks once the match is over: no hand follows
    if (o.dealer === s) marks.push(el("span", { class: "mark dealer", title: t("dealer") }, lang() === "zh" ? "庄" : "D"));
    if (o.dealer === s && o.sit) marks.push(el("span", { class: "mark sit" }, t("sat")));
    if (o.pulls && o.pulls[s]) marks.push(el("span", { class: "mark pull" }, t("pulled", o.pulls[s])));
  }
  const st = o.seats ? o.seats[s] : null;
  if (st && st.xiaoxianggong) marks.push(el("span", { class: "mark xxg" }, t("xiaoxianggong")));
  if (st && st.hunyou) marks.push(el("span", { class: "mark hunyou", title: t("hunyou_tip") }, t("hunyou_mark")));
  const who = [];
  if (state.bots[s]) who.push(el("span", { class: "tag" }, t("bot")));
  else if (!state.connected[s]) who.push(el("span", { class: "tag away" }, t("away")));
  if (s === me()) who.push(el("span", { class: "tag you" }, t("you")));
  const acting = isActing(s);
  const timer = acting && state.deadline ? el("span", { class: "timer", "data-timer": "1" }, `${remaining()}s`) : null;
  return el("div", { class: `seathead${acting ? " acting" : ""}` },
    el("span", { class: "wind" }, windOf(s)),
    el("span", { class: "pname" }, state.names[s]), ...who, ...marks,
    el("span", { class: "spacer" }),
    timer,
    el("span", { class: "pscore" }, String(o.scores[s])));
}

function renderSeat(pos) {
  const s = seatAt(pos);
  const box = $(`pos-${pos}`);
  const o = state.obs;
  box.classList.toggle("acting", isActing(s));
  const parts = [seatHeader(s)];
  if (o.seats) {
    const st = o.seats[s];
    const wilds = o.wilds || [];
    if (pos !== 0) {
      parts.push(el("div", { class: "concealed" }, backsEl(st.hand_size, pos === 2 ? "xs" : "xxs"),
        el("span", { class: "count" }, t("tiles_n", st.hand_size)),
        el("span", { class: "melds" }, st.melds.map((m) => meldEl(m, wilds, "xs")))));
    }
    const perRow = pos === 0 || pos === 2 ? 12 : 6;
    const last = lastDiscard && lastDiscard.actor === s;
    parts.push(discardsEl(st.discards, wilds, { last, size: "sm", perRow }));
  }
  box.replaceChildren(...parts);
}

function renderCenter() {
  const o = state.obs;
  const box = $("center");
  const parts = [];
  const bj = beijing();
  if (o.indicator) {
    parts.push(el("div", { class: "indicator" },
      el("div", { class: "lbl" }, t(bj ? "indicator_bj" : "indicator")), tileImg(o.indicator, { size: "md" }),
      el("div", { class: "lbl" }, t(bj ? "wild_bj" : "wilds")),
      ...(o.wilds || []).map((w) => tileImg(w, { size: "md", wild: true }))));
  }
  if (bj && o.seats) { // B1: the tiles normal draws may still take, and the reserve kept back for kongs
    parts.push(el("div", { class: "wall reserve" }, t("reserve_line", o.wall_left, o.reserve)));
    parts.push(el("div", { class: "dice", title: t("dice") }, diceText(o.dice)));
  } else if (o.indicator) {
    parts.push(el("div", { class: "wall" }, t("wall_left", o.wall_left)));
    parts.push(el("div", { class: "dice", title: t("dice") }, diceText(o.dice)));
  }
  if (bj && !over()) { // B6: 上楼 doubles every payment; 烧庄 makes the dealer pay each other player
    const marks = [];
    if (o.upstairs) marks.push(el("span", { class: "mark upstairs", title: t("upstairs_title") }, t("upstairs_mark")));
    if (o.shaozhuang) marks.push(el("span", { class: "mark shaozhuang", title: t("shaozhuang_title") }, t("shaozhuang_mark", o.shaozhuang)));
    if (marks.length) parts.push(el("div", { class: "bjmarks" }, marks));
  }
  const actor = state.to_act;
  let line;
  if (state.status === "over") line = t("match_over");
  else if (state.status === "error") line = state.notice || t("stopped");
  else if (state.saving) line = t("saving");
  else if (actor !== null && actor === me()) {
    if (inWindow()) {
      const from = seatLabel(o.window.from, state.names);
      line = o.phase === "rob" ? t("rob_yours", from, tileName(o.window.tile)) : t("window_yours", from, tileName(o.window.tile));
    } else line = o.phase === "sit" ? t("choose_sit") : o.phase === "pull" ? t("choose_pull") : t("your_turn");
  } else if (inWindow()) {
    line = o.phase === "rob" ? t("rob_waiting") : t("window_waiting", tileName(o.window.tile));
  } else if (actor !== null && actor >= 0) {
    line = ["sit", "pull"].includes(o.phase) ? t("waiting_choice", seatLabel(actor, state.names))
      : t("turn_of", seatLabel(actor, state.names));
  }
  const mine = actor !== null && actor === me();
  parts.push(el("div", { class: `turn${mine ? " mine" : ""}${inWindow() && !mine ? " answering" : ""}` }, line || ""));
  if (state.deadline && (!inWindow() || mine)) parts.push(el("div", { class: "bigtimer", "data-timer": "1" }, `${remaining()}s`));
  if (o.claimable && (o.phase === "claim" || o.phase === "rob")) {
    parts.push(el("div", { class: "claimable" }, tileImg(o.claimable, { size: "md", wild: (o.wilds || []).includes(o.claimable) })));
  }
  box.replaceChildren(...parts);
}

const ACTION_LABEL = {
  sit: (n) => (n === "1" ? "坐庄 Sit" : "不坐 No"),
  pull: (n) => (n === "0" ? "不拉 No pull" : `拉庄 Pull ×${n}`),
  pon: () => "碰 Pon",
  kong: () => "杠 Kong",
  ankong: () => "暗杠 Kong",
  added_kong: () => "加杠 Kong",
  win: () => "自摸 Win",
  pass: () => "过 Pass",
  chi: () => "吃 Chi",
  hungang: () => "混杠 Four wilds",
};

// The label of a 和 button: self-drawn on a turn, on the discard in a claim window, robbing a kong
function winLabel(phase) {
  if (phase === "claim") return "和 Win";
  if (phase === "rob") return "抢杠 Rob";
  return "自摸 Win";
}

function act(action) {
  send({ type: "action", action });
}

function hintFor(tile) {
  if (!hints || !state || hints.version !== state.version) return null;
  return hints.discards.find((d) => d.tile === tile) || null;
}

function renderHand() {
  const box = $("myhand");
  if (!state) return;
  const o = state.obs;
  const mine = me();
  if (mine === null) {
    box.replaceChildren(el("p", { class: "muted" }, t("spectating")));
    return;
  }
  const legal = state.legal || [];
  const hunyous = new Set(legal.filter((a) => a.startsWith("hunyou ")).map((a) => a.slice(7)));
  const picking = hunyous.size > 0 && hunyouMode === state.version; // B3: the next click declares 混儿悠
  const discards = picking ? hunyous : new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
  const buttons = legal.filter((a) => !a.startsWith("discard ") && !a.startsWith("hunyou ")).map((a) => {
    const [kind, arg] = a.split(" ");
    const label = kind === "win" ? winLabel(o.phase) : ACTION_LABEL[kind] ? ACTION_LABEL[kind](arg) : a;
    let tiles = arg && /^[1-9][mpsz]$/.test(arg) ? [tileImg(arg, { size: "xs" })] : [];
    if (kind === "chi") { // the sequence it makes, the claimed tile marked
      tiles = chiTiles(arg).map((x) => tileImg(x, { size: "xs", cls: o.window && x === o.window.tile ? "claimed" : "" }));
    }
    return el("button", { class: `act act-${kind}${kind === "win" || kind === "hungang" ? " primary" : ""}`,
      "data-action": a, onclick: () => act(a) }, label, ...tiles);
  });
  if (hunyous.size) { // 混儿悠 is a way to discard: the toggle picks which discard declares it
    buttons.push(el("button", {
      class: `mode mode-hunyou${picking ? " on" : ""}`, title: t("hunyou_tip"), "aria-pressed": picking ? "true" : "false",
      onclick: () => { hunyouMode = picking ? -1 : state.version; renderHand(); },
    }, "混儿悠 Hunyou"));
  }
  const wilds = o.wilds || [];
  const row = el("div", { class: "handrow" });
  if (o.hand) {
    const hand = sortTiles(o.hand);
    let drawn = null;
    if (o.drawn) {
      const i = hand.lastIndexOf(o.drawn);
      if (i >= 0) { hand.splice(i, 1); drawn = o.drawn; }
    }
    const tileBox = (tile, extra) => {
      const can = discards.has(tile);
      const img = tileImg(tile, { size: "lg", wild: wilds.includes(tile), cls: `${can ? "can" : ""}${can && picking ? " hunyou" : ""} ${extra || ""}` });
      const wrap = el("span", { class: "htile" }, img);
      if (can) {
        wrap.addEventListener("click", () => {
          if (picking) { hunyouMode = -1; act(`hunyou ${tile}`); return; }
          // a Tianjin wild discard makes one 小相公 (R2); a Beijing one costs nothing (B2)
          if (!beijing() && wilds.includes(tile) && !confirm(t("discard_wild"))) return;
          act(`discard ${tile}`);
        });
        const h = hintFor(tile);
        if (h) {
          const wins = h.waits.filter((w) => w.win);
          const label = wins.length ? `${t("ready")} ${wins.length}` : h.shanten >= 0 ? t("shanten_short", h.shanten) : "";
          wrap.append(el("span", { class: `hlabel${wins.length ? " good" : ""}` }, label));
          wrap.addEventListener("mouseenter", () => highlightHint(tile));
        }
      }
      return wrap;
    };
    hand.forEach((tile) => row.append(tileBox(tile)));
    if (drawn) row.append(el("span", { class: "gap" }), tileBox(drawn, "drawn"));
    const melds = (o.seats && o.seats[mine].melds) || [];
    if (melds.length) row.append(el("span", { class: "gap" }), ...melds.map((m) => meldEl(m, wilds, "md")));
  } else if (["sit", "pull"].includes(o.phase)) {
    row.append(el("span", { class: "muted" }, state.to_act === mine ? (o.phase === "sit" ? t("choose_sit") : t("choose_pull")) : ""));
  }
  const notes = [];
  if (picking) notes.push(el("span", { class: "note hunyou" }, t("hunyou_pick")));
  if (beijing() && o.passed_win && !over()) notes.push(el("span", { class: "note" }, t("passed_win")));
  box.replaceChildren(el("div", { class: "actions" }, buttons, notes), row);
}

function renderScores() {
  const o = state.obs;
  const rows = [0, 1, 2, 3].map((s) => el("tr", { class: s === me() ? "me" : "" },
    el("td", {}, windOf(s)), el("td", {}, state.names[s]), el("td", { class: "num" }, String(o.scores[s]))));
  $("scores").replaceChildren(el("h3", {}, t("scores")), el("table", { class: "scoretable" }, rows));
}

function maybeAskHint() {
  if (!$("hints").checked || !state || me() === null) return;
  if (state.to_act === me() && state.obs.phase === "turn" && hintAsked !== state.version) {
    hintAsked = state.version;
    send({ type: "hint" });
  }
}

function renderHints() {
  const panel = $("hintpanel");
  if (!$("hints").checked || me() === null) { panel.hidden = true; return; }
  panel.hidden = false;
  const parts = [el("h3", {}, t("hint_title"))];
  if (!hints || !state || hints.version !== state.version) {
    parts.push(el("p", { class: "muted small" }, t("hint_none")));
  } else {
    const rows = [...hints.discards].sort((a, b) => score(b) - score(a));
    for (const d of rows) {
      const wins = d.waits.filter((w) => w.win);
      const what = wins.length
        ? wins.map((w) => el("span", { class: "wait", title: `${w.name} · ${worth(w)} · ${t("live_n", w.live)}` },
          tileImg(w.tile, { size: "xs" }), ` ${worthShort(w)} ${w.name} (${w.live})`))
        : [el("span", { class: "muted" }, d.waits.length ? t("not_win") : t("shanten_n", d.shanten))];
      parts.push(el("div", { class: "hintrow", "data-tile": d.tile },
        tileImg(d.tile, { size: "sm", wild: d.wild }), el("span", { class: "arrow" }, "→"), el("span", { class: "waits" }, what),
        d.hunyou ? el("span", { class: "tag hunyou", title: t("hunyou_tip") }, t("hunyou_mark")) : null));
    }
  }
  panel.replaceChildren(...parts);
}

// a wait's worth: Tianjin's fan, Beijing's value (B5)
function worth(w) { return w.value !== undefined ? t("value_n", w.value) : t("fan_n", w.fan); }
function worthShort(w) {
  return w.value !== undefined ? t("value_short", w.value) : `${w.fan}${lang() === "zh" ? "番" : "f"}`;
}

function score(d) {
  const wins = d.waits.filter((w) => w.win);
  return wins.reduce((a, w) => a + (w.value !== undefined ? w.value : w.fan) * Math.max(w.live, 0.5), 0) * 10 - d.shanten;
}

function highlightHint(tile) {
  document.querySelectorAll(".hintrow").forEach((r) => r.classList.toggle("hl", r.dataset.tile === tile));
}

// ---- the settlement ------------------------------------------------------------------------

const REASON = {
  win: "reason_win", kong: "reason_kong", chan: "reason_chan", penalty: "reason_penalty", shaozhuang: "reason_shaozhuang",
};

function winHand(w, wilds) {
  return el("div", { class: "winhand" },
    ...sortTiles(w.hand).map((x) => tileImg(x, { size: "md", wild: wilds.includes(x) })),
    el("span", { class: "gap" }), tileImg(w.tile, { size: "md", wild: wilds.includes(w.tile), cls: "winning" }),
    el("span", { class: "gap" }), ...w.melds.map((m) => meldEl(m, wilds, "sm")));
}

// A Beijing hand (B5, B6): who won and how, each element and how they make the value, then each
// payment with its factors (点炮 ×2, 上楼 ×2, 包三家, 抢杠, 互包, 混儿悠, 烧庄).
function beijingSettlement(s, parts) {
  const names = s.names;
  const wilds = s.wilds || [];
  if (s.win) {
    const w = s.win;
    const who = seatLabel(w.seat, names);
    const from = w.from !== null && w.from !== undefined ? seatLabel(w.from, names) : "";
    const line = w.hungang ? t("win_hungang", who) : w.rob_kong ? t("win_rob", who, from)
      : from ? t("win_discard", who, from) : w.hunyou ? t("win_hunyou", who) : t("winner_is", who);
    parts.push(el("div", { class: "winline" }, line,
      w.kong_draw ? el("span", { class: "tag" }, t("kong_draw")) : null,
      w.last_tile ? el("span", { class: "tag" }, t("last_tile")) : null));
    parts.push(winHand(w, wilds));
    parts.push(el("div", { class: "combo" }, el("strong", {}, w.name), ` · ${t("value_n", w.value)}`));
    parts.push(el("table", { class: "elements" },
      el("tr", {}, el("th", {}, t("elements")), el("th", {}, "中文"), el("th", {}, "English"), el("th", {}, "")),
      w.elements.map((e) => el("tr", { class: e.counts ? "" : "muted" }, el("td", {}, e.code), el("td", {}, e.chinese),
        el("td", {}, e.english), el("td", { class: "num" }, lang() === "zh" && e.value_zh ? e.value_zh : e.value)))));
    parts.push(el("div", { class: "formula" },
      el("div", { class: "muted small" }, `${t("value_how")} (${t(w.scoring === "add" ? "value_column_a" : "value_column_b")})`),
      el("div", { class: "formula-line" }, lang() === "zh" ? w.formula : w.formula_en)));
  } else {
    parts.push(el("div", { class: "winline" }, t("drawn_hand")));
    if (s.upstairs_next) parts.push(el("p", { class: "note" }, t("settle_upstairs_next")));
  }
  if (s.upstairs) parts.push(el("p", { class: "note" }, t("settle_upstairs")));
  if (s.shaozhuang) parts.push(el("p", { class: "note" }, t("settle_shaozhuang", s.shaozhuang)));
  if (s.payments.length) {
    parts.push(el("h3", {}, t("payments")));
    parts.push(el("table", { class: "payments" }, s.payments.map((p) => el("tr", {},
      el("td", {}, seatLabel(p.payer, names)), el("td", { class: "muted" }, "→"), el("td", {}, seatLabel(p.payee, names)),
      el("td", { class: "num" }, String(p.amount)), el("td", { class: "muted" }, t(REASON[p.reason] || p.reason)),
      el("td", { class: "why small" }, (p.why || []).map((f) => t(`why_${f.key}`, f.times)).join(" · "))))));
  }
}

function showSettlement() {
  const s = settlement;
  if (!s) return;
  const names = s.names;
  const parts = [el("h2", {}, `${t("settlement")} · ${t("hand_of", s.hand + 1)}`)];
  if (s.family === "beijing") beijingSettlement(s, parts);
  else if (s.win) {
    const w = s.win;
    const wilds = s.wilds || [];
    parts.push(el("div", { class: "winline" }, t("winner_is", seatLabel(w.seat, names)),
      w.kong_draw ? el("span", { class: "tag" }, t("kong_draw")) : null, w.tianhu ? el("span", { class: "tag" }, t("tianhu")) : null));
    parts.push(winHand(w, wilds));
    parts.push(el("div", { class: "combo" }, el("strong", {}, w.name), ` · ${t("fan_n", w.fan)}`));
    parts.push(el("table", { class: "elements" },
      el("tr", {}, el("th", {}, t("elements")), el("th", {}, "中文"), el("th", {}, "English"), el("th", {}, "")),
      w.elements.map((e) => el("tr", {}, el("td", {}, e.code), el("td", {}, e.chinese), el("td", {}, e.english),
        el("td", { class: "num" }, e.value)))));
  } else {
    parts.push(el("div", { class: "winline" }, t("drawn_hand")));
  }
  if (s.chan) parts.push(el("p", {}, `${t("chan")}: ${s.chan} ${tileName(s.chan)}`));
  if (s.family !== "beijing" && s.payments.length) {
    parts.push(el("h3", {}, t("payments")));
    parts.push(el("table", { class: "payments" }, s.payments.map((p) => el("tr", {},
      el("td", {}, seatLabel(p.payer, names)), el("td", { class: "muted" }, "→"), el("td", {}, seatLabel(p.payee, names)),
      el("td", { class: "num" }, String(p.amount)), el("td", { class: "muted" }, t(REASON[p.reason] || p.reason))))));
  }
  parts.push(el("table", { class: "totals" },
    el("tr", {}, el("th", {}, ""), el("th", {}, t("deltas")), el("th", {}, t("scores"))),
    [0, 1, 2, 3].map((x) => el("tr", { class: x === me() ? "me" : "" }, el("td", {}, seatLabel(x, names)),
      el("td", { class: `num ${s.deltas[x] > 0 ? "pos" : s.deltas[x] < 0 ? "neg" : ""}` }, signed(s.deltas[x])),
      el("td", { class: "num" }, String(s.scores[x]))))));
  if (s.over) {
    parts.push(el("h3", {}, t("match_over")));
    parts.push(el("ol", { class: "standings" }, s.standings.map((r) => el("li", { class: r.seat === me() ? "me" : "" },
      `${seatLabel(r.seat, names)} · ${r.score}`))));
    const mid = state ? state.match_id : null;
    parts.push(el("div", { class: "buttons" },
      el("a", { class: "button", href: "/" }, t("back_lobby")),
      mid ? el("a", { class: "button", href: `/replay/${mid}` }, t("replay_match")) : null,
      mid ? el("a", { class: "button", href: `/api/matches/${mid}/record` }, t("download")) : null));
  } else {
    const countdown = el("span", { class: "muted", id: "autonext" });
    const deadline = Date.now() + (s.next_in || 0) * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      countdown.textContent = s.next_in ? t("auto_next", left) : "";
    };
    tick();
    parts.push(el("div", { class: "buttons" },
      el("button", { class: "primary", onclick: () => closeSettlement(true) }, t("next_hand")), countdown));
    settlementTick = tick;
  }
  $("modal").replaceChildren(...parts);
  $("overlay").hidden = false;
}

let settlementTick = null;

function closeSettlement(ready) {
  if (settlement) settlementClosedFor = settlement.hand;
  if (ready) send({ type: "next" });
  settlement = null;
  settlementTick = null;
  $("overlay").hidden = true;
}

function showMissing() {
  $("waiting").hidden = false;
  $("table").hidden = true;
  $("waiting").replaceChildren(el("h1", {}, t("no_room")), el("p", {}, el("a", { href: "/" }, t("back_lobby"))));
}

// timers count down between messages
setInterval(() => {
  const left = remaining();
  document.querySelectorAll("[data-timer]").forEach((x) => {
    x.textContent = left === null ? "" : `${left}s`;
    x.classList.toggle("low", left !== null && left <= 5);
  });
  if (settlementTick) settlementTick();
}, 250);

$("hints").checked = localStorage.getItem("tjmj.hints") === "1";
$("hints").addEventListener("change", () => {
  localStorage.setItem("tjmj.hints", $("hints").checked ? "1" : "0");
  renderHints();
  renderHand();
  maybeAskHint();
});

langToggle($("lang"), () => { render(); renderLog(); if (settlement) showSettlement(); });
applyI18n();
render();

(async () => {
  try {
    info = await api(`/api/rooms/${encodeURIComponent(room)}`);
  } catch {
    showMissing();
    return;
  }
  render();
  connect();
})();
