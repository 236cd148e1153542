// The table: a seat (or a spectator) over the WebSocket; the server decides everything, this page
// only draws what the engine lets this seat see and sends the actions it offers.
import { applyI18n, lang, langToggle, t, tn } from "./i18n.js";
import {
  api, backsEl, chiName, chiTiles, diceText, discardsEl, dropSeat, el, eventText, flowersEl, loadSeat, meldEl, saveName,
  saveSeat, playerId, playerName, savedName, seatLabel, signed, sortTiles, tileImg, tileName, tileWords, toast, windOf, windTile,
  windWord,
} from "./render.js";
import { DEFAULT_FAMILY, capsOf, familyName, presetName } from "./family.js";
import { sound } from "./sound.js";
import { WINS } from "./wins.js";
import { whoAmI } from "./auth.js";

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
let account = null; // the signed-in account (GET /api/account/me), or null: a guest
whoAmI().then((me) => { account = me; if (me && info && info.status === "waiting") render(); });
let info = null; // the last "room" message
let state = null; // the last "state" message
let hints = null; // the last "hint" message
let hintSearch = null; // the last "hint_search" message: the expert search's pick for that state
let hintAsked = -1;
let settlement = null; // on show
let settlementClosedFor = null;
let finalResult = null; // the last hand's settlement of a finished match (its standings stay reachable)
let lastDiscard = null; // {actor}: the latest discard of the table, marked until the next discard
let fresh = { discard: null, drawn: false, meld: null }; // what just happened: animated once
let hunyouMode = -1; // the state version in which the 混儿悠 toggle is on (Beijing, B3)
let focusIndex = 0; // the hand tile that has the keyboard focus (roving tabindex)
let autoDone = -1; // the state version an auto action was sent for
let lastTurnAnnounced = -1;
let retry = 0;
let closedForGood = false;
const log = [];

// ---- settings kept in this browser ----------------------------------------------------------

const SETTINGS = { hints: "tjmj.hints", "auto-win": "tjmj.autoWin", "auto-pass": "tjmj.autoPass",
  "auto-discard": "tjmj.autoDiscard", sound: "tjmj.sound", motion: "tjmj.motion" };
const DEFAULTS = { sound: "1", motion: "1" };

function setting(id) {
  return (localStorage.getItem(SETTINGS[id]) ?? DEFAULTS[id] ?? "0") === "1";
}

function initSettings() {
  for (const id of Object.keys(SETTINGS)) {
    const box = $(id);
    box.checked = setting(id);
    box.addEventListener("change", () => {
      localStorage.setItem(SETTINGS[id], box.checked ? "1" : "0");
      applySettings();
      if (id === "hints") { renderHints(); renderHand(); maybeAskHint(); }
      if (id.startsWith("auto")) maybeAuto();
    });
  }
  $("mute").addEventListener("click", () => {
    $("sound").checked = !$("sound").checked;
    localStorage.setItem(SETTINGS.sound, $("sound").checked ? "1" : "0");
    applySettings();
  });
  $("leave-ranked").addEventListener("click", () => {
    if (confirm(t("ranked_leave_confirm"))) send({ type: "leave" }); // the server hands the seat to a bot
  });
  $("bot-speed").addEventListener("change", () => send({ type: "speed", speed: $("bot-speed").value }));
  applySettings();
}

function applySettings() {
  const on = $("sound").checked;
  sound.muted = !on;
  const mute = $("mute");
  mute.replaceChildren(speakerIcon(on));
  mute.setAttribute("aria-pressed", on ? "false" : "true");
  mute.setAttribute("aria-label", on ? t("mute") : t("unmute"));
  mute.title = mute.getAttribute("aria-label");
  document.body.classList.toggle("no-motion", !$("motion").checked);
}

// a speaker, with sound waves or crossed out (drawn here: emoji fonts are not everywhere)
function speakerIcon(on) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "22");
  svg.setAttribute("height", "22");
  svg.setAttribute("aria-hidden", "true");
  const path = (d, fill) => {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", fill ? "currentColor" : "none");
    p.setAttribute("stroke", "currentColor");
    p.setAttribute("stroke-width", "2");
    p.setAttribute("stroke-linecap", "round");
    svg.append(p);
  };
  path("M3 9h4l5-4v14l-5-4H3z", true);
  if (on) { path("M16 9a4 4 0 0 1 0 6"); path("M19 6a8 8 0 0 1 0 12"); } else { path("M16 9l6 6M22 9l-6 6"); }
  return svg;
}

// ---- the side panel: a drawer on narrow screens ---------------------------------------------

function setDrawer(open) {
  $("side").classList.toggle("open", open);
  $("scrim").hidden = !open;
  $("side-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) $("side-close").focus();
}

$("side-toggle").addEventListener("click", () => setDrawer(!$("side").classList.contains("open")));
$("side-close").addEventListener("click", () => { setDrawer(false); $("side-toggle").focus(); });
$("scrim").addEventListener("click", () => setDrawer(false));

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
    setTimeout(connect, 500 * retry);
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

// Bots' names in the page's language ("Bot 1" → "机器人 1"); the server's names are kept as sent.
function localNames(msg) {
  if (!msg || !msg.names) return;
  if (!msg.rawNames) msg.rawNames = msg.names;
  const bots = (state && state.bots) || [];
  msg.names = msg.rawNames.map((n, i) => playerName(n, bots[i] ? "bot" : "human"));
}

// Screen readers hear turns, claims and wins through one polite live region.
function announce(text) {
  const live = $("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
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
      localNames(state);
      if (first) renderLog();
      if (settlement && !msg.paused && msg.status === "playing" && settlementClosedFor !== settlement.hand) {
        closeSettlement(false); // the next hand is on
      }
      render();
      maybeAskHint();
      maybeAnnounceTurn();
      maybeAuto();
      break;
    }
    case "events":
      if (msg.replay) { log.length = 0; lastDiscard = null; } // the hand so far, on (re)connecting
      for (const ev of msg.events) addEvent(ev, !msg.replay);
      break;
    case "settlement":
      settlement = msg;
      localNames(settlement);
      if (msg.over) finalResult = msg;
      showSettlement();
      break;
    case "hint":
      hints = msg;
      renderHints();
      renderHand();
      break;
    case "hint_search": // the hint's second part, after a short search (it may come before the first)
      hintSearch = msg;
      renderHints();
      renderHand(); // a hand tile's name says when it is the search's pick
      break;
    case "timed_out": // the turn timer ran out: the bot played this decision for the seat
      toast(t("timed_out", actionText(msg.action || "")), "error");
      announce(t("timed_out", actionText(msg.action || "")));
      break;
    case "error":
      if (msg.code === "bad_token") { dropSeat(room); seat = null; }
      if (msg.code === "no_room") { closedForGood = true; showMissing(); return; }
      if (msg.code === "not_paused") return; // "next hand" pressed after the pause ended on its own
      if (msg.code === "replaced") return; // the close that follows says it
      if (msg.code === "left") { dropSeat(room); seat = null; } // left a ranked match: from now on, watching
      toast(msg.message);
      break;
    default:
      break;
  }
}

// ---- the move list, sounds and what to animate ---------------------------------------------

function addEvent(ev, live) {
  if (ev.type === "start_kyoku") { log.length = 0; lastDiscard = null; }
  if (ev.type === "dahai") {
    lastDiscard = { actor: ev.actor };
    if (live) fresh.discard = ev.actor;
    if (live) sound.play("discard");
  }
  if (["pon", "chi", "daiminkan", "ankan", "kakan"].includes(ev.type) && live) {
    fresh.meld = ev.actor;
    sound.play("claim");
    const text = eventText(ev, state ? state.names : null, me());
    if (text) announce(text);
  }
  if (ev.type === "tsumo" && live && ev.actor === me() && ev.pai) fresh.drawn = true;
  if (ev.type === "hora" && live) {
    sound.play("win");
    const text = eventText(ev, state ? state.names : null, me());
    if (text) announce(text);
  }
  if (ev.type === "tsumo" && !ev.pai) return;
  log.push(ev);
  if (log.length > 300) log.shift();
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

function maybeAnnounceTurn() {
  if (!state || me() === null || state.to_act !== me() || !state.legal || !state.legal.length) return;
  if (lastTurnAnnounced === state.version) return;
  lastTurnAnnounced = state.version;
  announce(turnLine());
  sound.play(inWindow() ? "ask" : "turn");
}

// ---- rendering -----------------------------------------------------------------------------

// the rule family of the table (each has its own phases, buttons and settlement; the default family
// until the server says); the actions themselves (chi, 和 on a discard, kongs…) come from the server,
// so one code path draws every family's buttons
function family() {
  if (state && state.rules && state.rules.family) return state.rules.family;
  return info && info.rules && info.rules.family ? info.rules.family : DEFAULT_FAMILY.name;
}

// What the table shows differently per family, as the family declares it (its `webpage` part's CAPS,
// sent in registry.js). wildCostsWin: discarding a wild makes one 小相公 (R2), so it asks first;
// indicatorLabels: the names of the indicator box (none: the family has no wilds); reserve: the
// tiles before 荒牌 and the reserve (B1); upstairsMarks: 上楼 and 烧庄 (B6); passedWin: the 过手 lock
// (B4); winds: 圈风 and 门风 (MCR M1); flowers: the flowers laid aside (MCR M1).
function caps() { return capsOf(family()); }

function rulesName(r) {
  return `${familyName(r.family)} · ${presetName(r.preset)}`;
}

function me() {
  return state && state.you !== null && state.you !== undefined ? state.you : null;
}

function render() {
  $("roomcode").replaceChildren(el("span", { class: "lbl" }, `${t("room")} `), room);
  const brand = document.querySelector(".brand [data-i18n]"); // the table's game: 天津麻将 or 北京麻将
  if (brand && (state || info)) {
    brand.textContent = familyName(family());
    document.title = `${familyName(family())} — ${room}`;
  }
  $("guide-link").href = `/guide/${family()}?lang=${lang()}`; // the menu's "how to play": this table's game
  const playing = state && info && info.status !== "waiting";
  $("waiting").hidden = !!playing;
  $("table").hidden = !playing;
  $("scores").hidden = !playing;
  $("bot-speed").disabled = !(seat && seat.player === 0) || !!(info && info.ranked); // the host sets the bots' pace for the room
  $("ranked-badge").hidden = !(info && info.ranked); // a ranked match: rated, and leaving counts last
  $("leave-ranked").hidden = !(info && info.ranked && seat && info.status === "playing");
  if (info && info.bot_speed) $("bot-speed").value = info.bot_speed;
  if (state && state.bot_speed) $("bot-speed").value = state.bot_speed;
  if (state && state.notice) showNotice(state.notice);
  else if (info && info.notice) showNotice(info.notice);
  else if (ws && ws.readyState !== WebSocket.CLOSED) hideNotice();
  renderDeal();
  if (!playing) { renderWaiting(); return; }
  renderTop();
  for (let pos = 0; pos < 4; pos++) renderSeat(pos);
  renderCenter();
  renderHand();
  renderScores();
  renderHints();
  renderSeen();
  renderFinalBar();
  fresh = { discard: null, drawn: false, meld: null };
}

// the commitment to the match seed, fixed before the first deal (issue 31, part 5; null: an old match)
function renderDeal() {
  const c = info && info.deal_commitment;
  $("deal").hidden = !c;
  if (!c || $("deal").dataset.shown === c + lang()) return; // unchanged: the copy button keeps its focus
  $("deal").dataset.shown = c + lang();
  $("deal").replaceChildren(el("span", { class: "lbl", title: t("deal_commitment_title") }, t("deal_commitment")), " ",
    el("code", { lang: "en", title: c, "aria-describedby": "deal-why", "data-testid": "deal-commitment" }, `${c.slice(0, 16)}…`), " ",
    el("button", { type: "button", class: "link", "aria-label": t("copy_commitment"),
      onclick: () => { navigator.clipboard?.writeText(c); toast(t("copied"), "ok"); } }, t("copy")),
    el("span", { id: "deal-why", class: "sr-only" }, t("deal_commitment_title")));
}

// a person not signed in (the room's "guest": true, issue 31): a quiet tag, its words in title
function guestTag(guest) {
  return guest ? el("small", { class: "tag guest", title: t("guest_title"), "data-testid": "guest" }, t("guest")) : null;
}

function renderWaiting() {
  const box = $("waiting");
  if (!info) { box.replaceChildren(el("p", { class: "muted" }, t("connecting"))); return; }
  const link = `${location.origin}/table/${room}`;
  const players = [0, 1, 2, 3].map((i) => {
    const p = info.players[i];
    return el("li", { class: p ? "filled" : "empty" },
      p ? el("span", {}, p.name, guestTag(p.guest), i === 0 ? el("small", { class: "tag" }, t("host")) : null,
        seat && seat.player === i ? el("small", { class: "tag you" }, t("you")) : null,
        p.connected ? el("span", { class: "dot on", role: "img", "aria-label": t("online") })
          : el("span", { class: "dot", role: "img", "aria-label": t("offline") }))
        : el("span", { class: "muted" }, `${t("bot")} …`));
  });
  const parts = [
    el("h1", {}, t("waiting_for_players")),
    el("div", { class: "bigcode" }, room),
    el("p", {}, el("label", { for: "sharelink" }, t("share"))),
    el("div", { class: "share" }, el("input", { value: link, readonly: true, id: "sharelink" }),
      el("button", { onclick: () => { navigator.clipboard?.writeText(link); toast(t("copied"), "ok"); } }, t("copy"))),
    el("ol", { class: "players" }, players),
    el("p", { class: "muted rulesline" }, rulesLine()),
  ];
  if (seat && seat.player === 0) {
    // the host alone lists the room in the lobby or not (the server checks it: {"type": "private"})
    parts.push(el("label", { class: "toggle" }, el("input", { type: "checkbox", id: "private", checked: !!info.private,
      onchange: (e) => send({ type: "private", value: e.target.checked }) }), el("span", {}, t("private_room"))));
    parts.push(el("button", { class: "primary big", onclick: startMatch }, t("start")));
  } else if (seat) {
    parts.push(el("p", { class: "muted" }, t("host_starts")));
  } else if (info.players.length < 4) {
    // signed in, the server seats the account's name whatever is typed: show it, read-only
    const input = el("input", { maxlength: "20", value: account ? account.name : savedName(), placeholder: t("your_name"),
      "aria-label": t("your_name"), readonly: account ? "" : null });
    parts.push(el("form", {
      class: "joinform",
      onsubmit: (e) => { e.preventDefault(); joinRoom(input.value); },
    }, input, el("button", { class: "primary", type: "submit" }, t("join"))));
  }
  if (info.private && !(seat && seat.player === 0)) parts.push(el("p", { class: "muted" }, t("private_note")));
  const refocus = document.activeElement && document.activeElement.id === "private";
  box.replaceChildren(...parts);
  if (refocus) $("private")?.focus(); // an update re-renders the box: the checkbox keeps its focus
}

// the room's bots as the lobby named them: the level with its bot (the server says which level)
function botName(b, level) {
  if (level) return t(`level_${level}`);
  const key = `bot_${b}`;
  const text = t(key);
  return text === key ? b : text;
}

function rulesLine() {
  if (!info || !info.rules) return "";
  const r = info.rules;
  const parts = [`${t("preset")}: ${rulesName(r)}`,
    r.match_hands ? tn("hands_n", r.match_hands) : t("full_match"),
    `${t("bot_strength")}: ${botName(info.bots, info.level)}`,
    `${t("timer")}: ${info.timer_s ? t("seconds_n", info.timer_s) : t("no_timer")}`];
  return parts.join(" · ");
}

async function startMatch() {
  try { await api(`/api/rooms/${room}/start`, { token: seat.token }); } catch (e) { toast(e.message); }
}

async function joinRoom(name) {
  name = (name || "").trim();
  if (name && !account) saveName(name); // a guest's name is remembered; an account's is the server's
  try {
    const d = await api(`/api/rooms/${room}/join`, { name: name || undefined, player_id: playerId() });
    seat = { token: d.token, player: d.player };
    saveSeat(room, seat);
    if (ws) { ws.onclose = null; ws.close(); }
    connect();
  } catch (e) { toast(e.message); }
}

function renderTop() {
  const o = state.obs;
  // hand_number counts finished hands: once the match is over there is no next hand to name
  const bits = over() ? [t("match_over"), tn("hands_n", o.hand_number)]
    : [t("hand_of", o.hand_number + 1), t("round_of", o.round + 1)];
  if (state.rules) bits.push(rulesName(state.rules) + (state.rules.match_hands ? ` · ${tn("hands_n", state.rules.match_hands)}` : ""));
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
    if (o.dealer === s) marks.push(el("span", { class: "mark dealer", title: t("dealer") }, t("dealer_mark")));
    if (o.dealer === s && o.sit) marks.push(el("span", { class: "mark sit" }, t("sat")));
    if (o.pulls && o.pulls[s]) marks.push(el("span", { class: "mark pull" }, t("pulled", o.pulls[s])));
  }
  if (caps().winds && o.seat_winds && o.seat_winds[s] && !over()) { // MCR M1: the seat's wind this hand
    marks.push(el("span", { class: "mark seatwind", title: t("seat_wind_title") }, t("seat_wind_mark", windWord(o.seat_winds[s]))));
  }
  const st = o.seats ? o.seats[s] : null;
  if (st && st.xiaoxianggong) marks.push(el("span", { class: "mark xxg" }, t("xiaoxianggong")));
  if (st && st.hunyou) marks.push(el("span", { class: "mark hunyou", title: t("hunyou_tip") }, t("hunyou_mark")));
  const who = [];
  if (state.bots[s]) who.push(el("span", { class: "tag" }, t("bot")));
  else if (info && info.players.some((p) => p.seat === s && p.guest)) who.push(guestTag(true));
  else if (!state.connected[s]) who.push(el("span", { class: "tag away" }, t("away")));
  if (s === me()) who.push(el("span", { class: "tag you" }, t("you")));
  const acting = isActing(s);
  const timer = acting && state.deadline ? el("span", { class: "timer", "data-timer": "1" }, `${remaining()}s`) : null;
  return el("div", { class: `seathead${acting ? " acting" : ""}` },
    // MCR: the letter is the seat's fixed place (the log and the turn line name seats by it), the
    // badge beside it this hand's seat wind: each says which it is
    el("span", { class: "wind", title: caps().winds ? t("seat_place", windOf(s)) : t(`wind_${s}`) }, windOf(s)),
    el("span", { class: "pname" }, state.names[s]), ...who, ...marks,
    timer,
    el("span", { class: "pscore", "aria-label": `${t("score")} ${o.scores[s]}` }, String(o.scores[s])));
}

function renderSeat(pos) {
  const s = seatAt(pos);
  const box = $(`pos-${pos}`);
  const o = state.obs;
  box.classList.toggle("acting", isActing(s));
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", `${windOf(s)} ${state.names[s]}`);
  const parts = [seatHeader(s)];
  if (o.seats) {
    const st = o.seats[s];
    const wilds = o.wilds || [];
    if (pos !== 0) {
      const melds = st.melds.map((m, i) => {
        const node = meldEl(m, wilds, "xs");
        if (fresh.meld === s && i === st.melds.length - 1) node.classList.add("new");
        return node;
      });
      parts.push(el("div", { class: "concealed" }, backsEl(st.hand_size, pos === 2 ? "xs" : "xxs"),
        el("span", { class: "count" }, t("tiles_n", st.hand_size)),
        el("span", { class: "melds" }, melds),
        caps().flowers ? flowersEl(st.flowers, "xs", t("flowers_of", seatLabel(s, state.names))) : null));
    } else if (caps().flowers && st.flowers && st.flowers.length) { // yours: above your pond (the hand row is full)
      parts.push(el("div", { class: "myflowers" }, flowersEl(st.flowers, "xs", t("flowers_of", seatLabel(s, state.names)))));
    }
    const perRow = pos === 0 || pos === 2 ? 12 : 6;
    const last = lastDiscard && lastDiscard.actor === s;
    const pond = discardsEl(st.discards, wilds, {
      last, size: "sm", perRow, claimed: st.claimed || [], label: t("discards_of", seatLabel(s, state.names)),
    });
    if (fresh.discard === s && pond.lastElementChild) pond.lastElementChild.classList.add("new");
    parts.push(pond);
  }
  box.replaceChildren(...parts);
}

function turnLine() {
  const o = state.obs;
  const actor = state.to_act;
  if (state.status === "over") return t("match_over");
  if (state.status === "error") return state.notice || t("stopped");
  if (state.saving) return t("saving");
  if (actor !== null && actor === me()) {
    if (inWindow()) {
      const from = seatLabel(o.window.from, state.names);
      return o.phase === "rob" ? t("rob_yours", from, tileName(o.window.tile))
        : t("window_yours", from, tileName(o.window.tile), claimChoices(state.legal || []));
    }
    return o.phase === "sit" ? t("choose_sit") : o.phase === "pull" ? t("choose_pull") : t("your_turn");
  }
  if (inWindow()) return o.phase === "rob" ? t("rob_waiting") : t("window_waiting", tileName(o.window.tile));
  if (actor !== null && actor >= 0) {
    return ["sit", "pull"].includes(o.phase) ? t("waiting_choice", seatLabel(actor, state.names))
      : t("turn_of", seatLabel(actor, state.names));
  }
  return "";
}

// The claims this seat is offered, named in the engine's order ("chi, pon", "碰"): the prompt names
// only what is legal (no 吃 from the seat opposite, no 和 in Tianjin)
function claimChoices(legal) {
  const kinds = [...new Set(legal.map((a) => a.split(" ")[0]).filter((k) => ["win", "chi", "pon", "kong"].includes(k)))];
  return kinds.map((k) => t(`claim_${k}`)).join(lang() === "zh" ? "、" : ", ");
}

function renderCenter() {
  const o = state.obs;
  const box = $("center");
  const parts = [];
  const c = caps();
  const labels = c.indicatorLabels || ["indicator", "wilds"];
  if (o.indicator) {
    parts.push(el("div", { class: "indicator", "data-testid": "wilds" },
      el("div", { class: "lbl" }, t(labels[0])), tileImg(o.indicator, { size: "md" }),
      el("div", { class: "lbl" }, t(labels[1])),
      ...(o.wilds || []).map((w) => tileImg(w, { size: "md", wild: true }))));
  }
  if (c.winds && o.prevalent_wind) { // MCR M1: no wilds; the prevalent wind, and your seat's wind this hand
    const mine = me() !== null && o.seat_winds ? o.seat_winds[me()] : null;
    const windBox = (key, letter) => [el("div", { class: "lbl" }, t(key)),
      tileImg(windTile(letter), { size: "md", decorative: true }), el("span", { class: "sr-only" }, windWord(letter))];
    parts.push(el("div", { class: "indicator winds", "data-testid": "winds", role: "group", "aria-label": t("winds_box") },
      ...windBox("prevalent_wind", o.prevalent_wind), ...(mine ? windBox("seat_wind", mine) : [])));
  }
  const dice = () => el("div", { class: "dice", title: t("dice"), "aria-label": `${t("dice")} ${diceText(o.dice)}` }, diceText(o.dice));
  if (c.reserve && o.seats) { // B1: the tiles normal draws may still take, and the reserve kept back for kongs
    parts.push(el("div", { class: "wall reserve" }, t("reserve_line", o.wall_left, o.reserve)));
    parts.push(dice());
  } else if (o.indicator || (o.seats && o.wall_left !== undefined)) {
    parts.push(el("div", { class: "wall" }, t("wall_left", o.wall_left)));
    parts.push(dice());
  }
  if (c.upstairsMarks && !over()) { // B6: 上楼 doubles every payment; 烧庄 makes the dealer pay each other player
    const marks = [];
    if (o.upstairs) marks.push(el("span", { class: "mark upstairs", title: t("upstairs_title") }, t("upstairs_mark")));
    if (o.shaozhuang) marks.push(el("span", { class: "mark shaozhuang", title: t("shaozhuang_title") }, t("shaozhuang_mark", o.shaozhuang)));
    if (marks.length) parts.push(el("div", { class: "bjmarks" }, marks));
  }
  const mine = state.to_act !== null && state.to_act === me();
  parts.push(el("div", { class: `turn${mine ? " mine" : ""}${inWindow() && !mine ? " answering" : ""}`, "data-testid": "turn" },
    turnLine()));
  if (state.deadline && (!inWindow() || mine)) parts.push(el("div", { class: "bigtimer", "data-timer": "1" }, `${remaining()}s`));
  if (o.claimable && (o.phase === "claim" || o.phase === "rob")) {
    parts.push(el("div", { class: "claimable" }, tileImg(o.claimable, { size: "md", wild: (o.wilds || []).includes(o.claimable) })));
  }
  box.replaceChildren(...parts);
}

// Each action's label in the chosen language, and its key: the first of a kind gets its letter,
// the others digits.
const ACTION_KEY = { win: "w", pon: "p", kong: "k", ankong: "k", added_kong: "k", chi: "c", pass: "x", hungang: "g", sit: "s", pull: "l" };

// 坐庄/拉庄 (R7): the letter goes to the choice it names (S sits, L pulls once), a decline takes X,
// the pass key, and a higher level its own digit (2 pulls twice); the server's order of the choices
// (pull 0 first) decides nothing.  Every level also answers its digit (0 declines, 1 sits or pulls
// once), as the terminal's keys do.
function levelKey(kind, arg) {
  const n = Number(arg);
  if (n === 0) return "x";
  if (n === 1) return ACTION_KEY[kind];
  return n <= 9 ? String(n) : null;
}

function actionText(a) {
  const [kind, arg] = a.split(" ");
  if (kind === "sit") return arg === "1" ? t("act_sit") : t("act_no_sit");
  if (kind === "pull") return arg === "0" ? t("act_no_pull") : t("act_pull", arg);
  if (kind === "win") return winLabel(state ? state.obs.phase : "turn");
  if (kind === "discard") return t("act_discard", tileName(arg));
  if (kind === "hunyou") return t("act_hunyou", tileName(arg));
  if (kind === "chi" && arg) return `${t("act_chi")} ${chiName(arg)}`;
  const key = `act_${kind}`;
  const text = t(key);
  return text === key ? a : arg && /^[1-9][mpsz]$/.test(arg) ? `${text} ${tileName(arg)}` : text;
}

// The label of a 和 button: self-drawn on a turn, on the discard in a claim window, robbing a kong;
// with what the win is worth (the engine's preview for this seat), so nobody wins blind.
function winLabel(phase) {
  if (phase === "claim") return t("act_win_discard");
  if (phase === "rob") return t("act_win_rob");
  return t("act_win");
}

function winWorth() {
  const p = state && state.win_preview;
  if (!p) return "";
  const detail = p.elements_detail || [];
  const name = lang() === "zh" || !detail.length ? p.name : detail.map((e) => e.english).join(", ");
  if (p.total !== undefined) { // MCR: the total (flowers apart); the fans are many, the button names the biggest
    const worth = p.flowers ? tn("fan_flowers", p.flowers, p.total, p.fan) : t("fan_n", p.total);
    const first = detail.length ? (lang() === "zh" ? detail[0].chinese : detail[0].english) : "";
    return first ? `${first}${detail.length > 1 ? "…" : ""} · ${worth}` : worth;
  }
  const worth = p.value !== undefined ? t("value_n", p.value) : t("fan_n", p.fan);
  return name ? `${name} · ${worth}` : worth;
}

// Every fan of the win the button offers (MCR: the button names only the biggest), for its tooltip
function winFans() {
  const p = state && state.win_preview;
  if (!p || p.total === undefined) return null;
  const detail = p.elements_detail || [];
  return detail.map((e) => (lang() === "zh" ? e.chinese : e.english)).join(lang() === "zh" ? "、" : ", ");
}

// An action names the state version it answers (the one its button was drawn for): the server
// refuses it as "stale" once the table has moved on, so a double tap or a late click never lands
// on a later decision.
function act(action, version) {
  send({ type: "action", action, version });
}

function hintFor(tile) {
  if (!hints || !state || hints.version !== state.version) return null;
  return hints.discards.find((d) => d.tile === tile) || null;
}

function actionButtons(legal) {
  const o = state.obs;
  const version = state.version;
  const used = new Set();
  let digit = 1;
  const keyFor = (kind, arg) => {
    if (kind === "sit" || kind === "pull") return levelKey(kind, arg); // the only choices offered then
    const letter = ACTION_KEY[kind];
    if (letter && !used.has(letter)) { used.add(letter); return letter; }
    while (digit <= 9 && used.has(String(digit))) digit++;
    if (digit > 9) return null;
    used.add(String(digit));
    return String(digit++);
  };
  return legal.filter((a) => !a.startsWith("discard ") && !a.startsWith("hunyou ")).map((a) => {
    const [kind, arg] = a.split(" ");
    let label = actionText(a);
    if (kind === "win") { const w = winWorth(); if (w) label = `${label} · ${w}`; }
    const fans = kind === "win" ? winFans() : null;
    let tiles = arg && /^[1-9][mpsz]$/.test(arg) ? [tileImg(arg, { size: "xs", decorative: true })] : [];
    if (kind === "chi") { // the sequence it makes, the claimed tile marked
      tiles = chiTiles(arg).map((x) => tileImg(x, { size: "xs", decorative: true, cls: o.window && x === o.window.tile ? "claimed" : "" }));
    }
    const key = keyFor(kind, arg);
    return el("button", {
      class: `act act-${kind}${kind === "win" || kind === "hungang" ? " primary" : ""}`, type: "button",
      "data-action": a, title: kind === "win" ? fans : null, "aria-keyshortcuts": key ? key.toUpperCase() : null,
      "aria-label": (key ? `${label} (${key.toUpperCase()})` : label) + (kind === "win" && fans ? `: ${fans}` : ""),
      onclick: () => act(a, version),
    }, el("span", { "aria-hidden": "true" }, label), ...tiles, key ? el("span", { class: "key", "aria-hidden": "true" }, key.toUpperCase()) : null);
  });
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
  const version = state.version;
  const hunyous = new Set(legal.filter((a) => a.startsWith("hunyou ")).map((a) => a.slice(7)));
  const picking = hunyous.size > 0 && hunyouMode === state.version; // B3: the next click declares 混儿悠
  const discards = picking ? hunyous : new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
  const buttons = actionButtons(legal);
  if (hunyous.size) { // 混儿悠 is a way to discard: the toggle picks which discard declares it
    buttons.push(el("button", {
      class: `mode mode-hunyou${picking ? " on" : ""}`, type: "button", title: t("hunyou_tip"), "aria-pressed": picking ? "true" : "false",
      onclick: () => { hunyouMode = picking ? -1 : state.version; renderHand(); },
    }, t("act_hunyou_mode")));
  }
  const wilds = o.wilds || [];
  const row = el("div", { class: "handrow", "data-testid": "hand", role: "toolbar", "aria-label": t("your_hand") });
  const tilesEls = [];
  if (o.hand) {
    const hand = sortTiles(o.hand);
    let drawn = null;
    if (o.drawn) {
      const i = hand.lastIndexOf(o.drawn);
      if (i >= 0) { hand.splice(i, 1); drawn = o.drawn; }
    }
    const tileBox = (tile, isDrawn) => {
      const can = discards.has(tile);
      const wild = wilds.includes(tile);
      const h = can ? hintFor(tile) : null;
      const pick = can && $("hints").checked ? searchPick() : null;
      const picked = pick && pick.action === `${picking ? "hunyou" : "discard"} ${tile}` ? `. ${t("search_pick")}` : "";
      const words = tileWords(tile, { wild }) + (isDrawn ? `, ${t("drawn")}` : "");
      const btn = el("button", {
        class: `htile${can ? " can" : ""}${can && picking ? " hunyou" : ""}${isDrawn ? " drawn" : ""}${isDrawn && fresh.drawn ? " new" : ""}`,
        type: "button", "data-testid": "hand-tile", "data-tile": tile, tabindex: "-1",
        "aria-label": can ? `${picking ? t("act_hunyou", words) : t("act_discard", words)}${h && h.summary ? `. ${hintSummary(h)}` : ""}${picked}` : words,
        "aria-disabled": can ? null : "true",
      }, tileImg(tile, { size: "lg", wild, decorative: true }));
      if (can) {
        btn.addEventListener("click", () => {
          if (picking) { hunyouMode = -1; act(`hunyou ${tile}`, version); return; }
          // a Tianjin wild discard makes one 小相公 (R2); a Beijing one costs nothing (B2)
          if (caps().wildCostsWin && wild && !confirm(t("discard_wild"))) return;
          act(`discard ${tile}`, version);
        });
        if (h) {
          const wins = h.waits.filter((w) => w.win);
          const label = h.hundiao ? t("any_tile") : wins.length ? `${t("ready")} ${wins.length}` : h.shanten >= 0 ? t("shanten_short", h.shanten) : "";
          btn.append(el("span", { class: `hlabel${wins.length || h.hundiao ? " good" : ""}`, "aria-hidden": "true" }, label));
          btn.addEventListener("mouseenter", () => highlightHint(tile));
          btn.addEventListener("focus", () => highlightHint(tile));
        } else {
          btn.append(el("span", { class: "hlabel", "aria-hidden": "true" }, ""));
        }
      } else {
        btn.append(el("span", { class: "hlabel", "aria-hidden": "true" }, ""));
      }
      tilesEls.push(btn);
      return btn;
    };
    hand.forEach((tile) => row.append(tileBox(tile, false)));
    if (drawn) row.append(tileBox(drawn, true));
    const melds = (o.seats && o.seats[mine].melds) || [];
    if (melds.length) {
      row.append(el("span", { class: "mymelds", role: "list", "aria-label": t("your_melds") },
        ...melds.map((m, i) => {
          const node = meldEl(m, wilds, "md");
          if (fresh.meld === mine && i === melds.length - 1) node.classList.add("new");
          return el("span", { role: "listitem" }, node);
        })));
    }
  } else if (["sit", "pull"].includes(o.phase)) {
    row.append(el("span", { class: "muted" }, state.to_act === mine ? (o.phase === "sit" ? t("choose_sit") : t("choose_pull")) : ""));
  }
  // the roving tabindex: one hand tile is in the tab order, the arrows move along the hand
  if (tilesEls.length) {
    const firstCan = tilesEls.findIndex((b) => b.classList.contains("can"));
    if (focusIndex >= tilesEls.length) focusIndex = tilesEls.length - 1;
    const start = tilesEls[focusIndex] && tilesEls[focusIndex].classList.contains("can") ? focusIndex : Math.max(firstCan, 0);
    tilesEls[start].tabIndex = 0;
  }
  const hadFocus = box.contains(document.activeElement) && document.activeElement.dataset.testid === "hand-tile";
  const notes = [];
  if (picking) notes.push(el("span", { class: "note hunyou" }, t("hunyou_pick")));
  if (caps().passedWin && o.passed_win && !over()) notes.push(el("span", { class: "note" }, t("passed_win")));
  box.replaceChildren(el("div", { class: "actions", "data-testid": "actions", role: "group", "aria-label": t("actions") }, buttons, notes), row);
  if (hadFocus && tilesEls.length) {
    const target = tilesEls.find((b) => b.tabIndex === 0);
    if (target) target.focus({ preventScroll: true });
  }
}

function moveFocus(delta) {
  const tilesEls = [...document.querySelectorAll("#myhand [data-testid=hand-tile]")];
  if (!tilesEls.length) return;
  let i = tilesEls.indexOf(document.activeElement);
  if (i < 0) i = tilesEls.findIndex((b) => b.tabIndex === 0);
  i = delta === Infinity ? tilesEls.length - 1 : delta === -Infinity ? 0 : (i + delta + tilesEls.length) % tilesEls.length;
  tilesEls.forEach((b) => { b.tabIndex = -1; });
  tilesEls[i].tabIndex = 0;
  tilesEls[i].focus();
  focusIndex = i;
}

// Keys: arrows and Home/End move along the hand, Enter or Space discards the focused tile (a
// button), the action keys press their buttons, Escape closes a drawer or dialog.
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target;
  const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
  if (e.key === "Escape") {
    if ($("side").classList.contains("open")) { setDrawer(false); $("side-toggle").focus(); return; }
    if (!$("overlay").hidden && settlement && settlement.over) { closeSettlement(false); return; }
  }
  if (typing || !$("overlay").hidden) return;
  const onHand = target && target.dataset && target.dataset.testid === "hand-tile";
  if (onHand && (e.key === "ArrowRight" || e.key === "ArrowDown")) { e.preventDefault(); moveFocus(1); return; }
  if (onHand && (e.key === "ArrowLeft" || e.key === "ArrowUp")) { e.preventDefault(); moveFocus(-1); return; }
  if (onHand && e.key === "Home") { e.preventDefault(); moveFocus(-Infinity); return; }
  if (onHand && e.key === "End") { e.preventDefault(); moveFocus(Infinity); return; }
  if (e.key.length !== 1) return;
  const key = e.key.toUpperCase();
  const buttons = [...document.querySelectorAll("#myhand button[data-action]")];
  const btn = buttons.find((b) => (b.getAttribute("aria-keyshortcuts") || "") === key)
    // a 坐庄/拉庄 level by its digit: "0" declines, "1" sits or pulls once (levelKey)
    || (/^[0-9]$/.test(key) ? buttons.find((b) => /^(sit|pull) /.test(b.dataset.action) && b.dataset.action.endsWith(` ${key}`)) : null);
  if (btn) { e.preventDefault(); btn.click(); return; }
  if (key === "H" && me() !== null) { // H: to the hand
    e.preventDefault();
    moveFocus(0);
  }
});

function renderScores() {
  const o = state.obs;
  const rows = [0, 1, 2, 3].map((s) => el("tr", { class: s === me() ? "me" : "" },
    el("td", {}, windOf(s)), el("td", {}, state.names[s]), el("td", { class: "num" }, String(o.scores[s]))));
  $("scores").replaceChildren(el("h3", {}, t("scores")), el("table", { class: "scoretable" },
    el("caption", { class: "sr-only" }, t("scores")), rows));
}

// How many of each kind this seat has not seen: 4 less its hand, every meld, every pond (a claimed
// discard counted once, in its meld) and the face-up indicator.
function renderSeen() {
  const panel = $("seenpanel");
  const o = state && state.obs;
  if (!o || !o.seats || me() === null || !o.hand) { panel.hidden = true; return; }
  panel.hidden = false;
  const seen = {};
  const add = (x, n = 1) => { seen[x] = (seen[x] || 0) + n; };
  o.hand.forEach((x) => add(x));
  o.seats.forEach((st) => {
    st.melds.forEach((m) => { (m.match(/\d/g) || []).forEach((d) => add(d + m.match(/[mpsz]/)[0])); });
    const claimed = new Set(st.claimed || []);
    st.discards.forEach((x, i) => { if (!claimed.has(i)) add(x); });
  });
  if (o.indicator) add(o.indicator);
  const kinds = [];
  for (const s of ["m", "p", "s"]) for (let n = 1; n <= 9; n++) kinds.push(`${n}${s}`);
  for (let n = 1; n <= 7; n++) kinds.push(`${n}z`);
  const cells = kinds.map((k) => {
    const left = Math.max(0, 4 - (seen[k] || 0));
    return el("div", { class: `cell${left === 0 ? " gone" : ""}`, role: "listitem", "aria-label": t("unseen_of", tileWords(k, { wild: (o.wilds || []).includes(k) }), left) },
      tileImg(k, { size: "xs", wild: (o.wilds || []).includes(k), decorative: true }), el("span", { "aria-hidden": "true" }, String(left)));
  });
  panel.replaceChildren(el("h3", {}, t("unseen_title")), el("div", { class: "seen", role: "list" }, cells));
}

function maybeAskHint() {
  if (!$("hints").checked || !state || me() === null) return;
  if (state.to_act === me() && state.obs.phase === "turn" && hintAsked !== state.version) {
    hintAsked = state.version;
    send({ type: "hint" });
  }
}

function hintSummary(d) {
  if (lang() === "zh" && d.summary_zh) return d.summary_zh;
  return d.summary || "";
}

// The search's pick for the state on show: {action, budget_ms, …}; null while it runs or when it failed
function searchPick() {
  if (!hintSearch || !state || hintSearch.version !== state.version) return null;
  return hintSearch.search || null;
}

// The line with the search's pick (any action: a discard, a kong, a win), or that it is still running
function searchLine() {
  if (!state || state.to_act !== me() || state.obs.phase !== "turn" || !state.rules || !state.rules.hint_search_ms) return null;
  const pick = searchPick();
  if (pick) {
    return el("p", { class: "hintsearch", "data-testid": "hint-search", "data-action": pick.action,
      title: t("search_note", pick.budget_ms) }, t("search_suggests", actionText(pick.action)));
  }
  if (hintSearch && hintSearch.version === state.version) return null; // it failed: the advisor's part stands
  return el("p", { class: "hintsearch muted", "data-testid": "hint-search" }, t("search_pending"));
}

function renderHints() {
  const panel = $("hintpanel");
  if (!$("hints").checked || me() === null) { panel.hidden = true; return; }
  panel.hidden = false;
  const parts = [el("h3", {}, t("hint_title"))];
  const line = searchLine();
  if (line) parts.push(line);
  const pick = searchPick();
  // a discard the search picks (a 混儿悠 discards its tile too): its row is marked
  const pickTile = pick && /^(discard|hunyou) /.test(pick.action) ? pick.action.split(" ")[1] : null;
  if ((hints && hints.available === false) || (state && state.rules && state.rules.hints === false)) {
    parts.push(el("p", { class: "muted small" }, t("hint_unavailable")));
  } else if (!hints || !state || hints.version !== state.version) {
    parts.push(el("p", { class: "muted small" }, t("hint_none")));
  } else {
    // the server ranks the options (rank 1 = best: the chance and value of a legal win)
    const rows = [...hints.discards].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
    for (const d of rows) {
      const wins = d.waits.filter((w) => w.win);
      let what;
      if (d.hundiao) what = [el("span", {}, t("any_tile"))];
      else if (wins.length) {
        what = wins.map((w) => el("span", { class: "wait", title: `${w.name} · ${worth(w)} · ${t("live_n", w.live)}` },
          tileImg(w.tile, { size: "xs", decorative: true }), ` ${tileName(w.tile)} ${worthShort(w)} (${t("live_n", w.live)})`));
      } else what = [el("span", { class: "muted" }, d.waits.length ? t("not_win") : t("shanten_n", d.shanten))];
      const picked = d.tile === pickTile;
      parts.push(el("div", { class: `hintrow${picked ? " pick" : ""}`, "data-tile": d.tile },
        tileImg(d.tile, { size: "sm", wild: d.wild }),
        el("span", { class: "summary" }, hintSummary(d) || t("discard_this", tileName(d.tile)),
          picked ? [" ", el("span", { class: "tag pick", title: t("search_note", pick.budget_ms) }, t("search_pick"))] : null),
        el("span", { class: "waits" }, what,
          d.hunyou ? el("span", { class: "tag hunyou", title: t("hunyou_tip") }, t("hunyou_mark")) : null)));
    }
  }
  panel.replaceChildren(...parts);
}

// a wait's worth: Tianjin's fan, Beijing's value (B5)
function worth(w) { return w.value !== undefined ? t("value_n", w.value) : t("fan_n", w.fan); }
function worthShort(w) {
  return w.value !== undefined ? t("value_short", w.value) : t("fan_short", w.fan);
}

function highlightHint(tile) {
  document.querySelectorAll(".hintrow").forEach((r) => r.classList.toggle("hl", r.dataset.tile === tile));
}

// ---- automatic play the player asked for ----------------------------------------------------

// Auto-win takes a legal win, auto-pass declines a claim (never a win), auto-discard plays the
// drawn tile when nothing else (a win, a kong) is offered; once per state.
function maybeAuto() {
  if (!state || me() === null || state.to_act !== me() || autoDone === state.version) return;
  const legal = state.legal || [];
  if (!legal.length) return;
  let choice = null;
  if ($("auto-win").checked && legal.includes("win")) choice = "win";
  else if ($("auto-pass").checked && inWindow() && legal.includes("pass") && !legal.includes("win")) choice = "pass";
  else if ($("auto-discard").checked && state.obs.phase === "turn" && state.obs.drawn
    && legal.every((a) => a.startsWith("discard ") || a.startsWith("hunyou "))
    && legal.includes(`discard ${state.obs.drawn}`)) choice = `discard ${state.obs.drawn}`;
  if (!choice) return;
  autoDone = state.version;
  const version = state.version;
  setTimeout(() => { if (state && state.version === version) act(choice, version); }, 350); // a moment to see it
}

// ---- the settlement ------------------------------------------------------------------------

const REASON = {
  win: "reason_win", kong: "reason_kong", chan: "reason_chan", penalty: "reason_penalty", shaozhuang: "reason_shaozhuang",
};

// Every seat's hand face up (the engine reveals them once the hand is over)
function handsUp(s) {
  if (!s.hands) return null;
  const wilds = s.wilds || [];
  return el("div", { class: "hands-up" }, el("h3", {}, t("hands_up")), [0, 1, 2, 3].map((x) => {
    const h = s.hands[x];
    if (!h) return null;
    return el("div", { class: "row", role: "img", "aria-label": `${seatLabel(x, s.names)}: ${sortTiles(h.tiles).map((y) => tileWords(y, { wild: wilds.includes(y) })).join(", ")}` },
      el("span", { class: "who", "aria-hidden": "true" }, seatLabel(x, s.names)),
      ...sortTiles(h.tiles).map((y) => tileImg(y, { size: "xs", wild: wilds.includes(y), decorative: true })),
      ...(h.melds || []).map((m) => meldEl(m, wilds, "xs")),
      flowersEl(h.flowers, "xs", t("flowers_of", seatLabel(x, s.names))));
  }));
}

function whyText(p) {
  if (p.formula || p.formula_en) return lang() === "zh" ? (p.formula || p.formula_en) : (p.formula_en || p.formula);
  return (p.why || []).map((f) => t(`why_${f.key}`, f.times)).join(" · ");
}

// Each payment on a row, and how it is reached on a row of its own below it: a fifth column for the
// formula left every column too narrow on a phone (names and formulas wrapped over 2–4 lines).
function paymentsTable(s) {
  const names = s.names;
  return el("table", { class: "payments" },
    el("caption", { class: "sr-only" }, t("payments")),
    el("tr", {}, el("th", { scope: "col" }, t("payer")), el("th", { scope: "col" }, t("payee")),
      el("th", { scope: "col" }, t("amount")), el("th", { scope: "col" }, t("reason"))),
    s.payments.flatMap((p) => [
      el("tr", { class: "pay" },
        el("td", {}, seatLabel(p.payer, names)), el("td", {}, seatLabel(p.payee, names)),
        el("td", { class: "num" }, String(p.amount)), el("td", {}, t(REASON[p.reason] || p.reason))),
      el("tr", { class: "how" },
        el("td", { class: "why", colspan: "4" }, el("span", { class: "sr-only" }, `${t("how")}${lang() === "zh" ? "：" : ": "}`), whyText(p)))]));
}

function showSettlement() {
  const s = settlement;
  if (!s) return;
  const names = s.names;
  const parts = [el("h2", { id: "modal-title" }, `${t("settlement")} · ${t("hand_of", s.hand + 1)}`)];
  if (s.over) {
    parts.push(el("button", { class: "close", type: "button", "data-testid": "close-standings", "aria-label": t("close"),
      onclick: () => closeSettlement(false) }, el("span", { "aria-hidden": "true" }, "✕")));
  }
  if (s.prevalent_wind) {
    parts.push(el("p", { class: "note" }, t("settle_winds", windWord(s.prevalent_wind), seatLabel(s.dealer, names))));
  }
  if (s.win) {
    (WINS[s.family] || WINS[DEFAULT_FAMILY.name])(s, parts); // the family's own win.js (B5, M3, R5)
  } else {
    parts.push(el("div", { class: "winline" }, t("drawn_hand")));
    if (s.upstairs_next) parts.push(el("p", { class: "note" }, t("settle_upstairs_next")));
  }
  if (s.upstairs) parts.push(el("p", { class: "note" }, t("settle_upstairs")));
  if (s.shaozhuang) parts.push(el("p", { class: "note" }, t("settle_shaozhuang", s.shaozhuang)));
  if (s.chan) parts.push(el("p", {}, `${t("chan")}: ${tileName(s.chan)}`));
  if (s.payments.length) {
    parts.push(el("h3", {}, t("payments")));
    parts.push(paymentsTable(s));
  }
  parts.push(handsUp(s));
  parts.push(el("table", { class: "totals" },
    el("caption", { class: "sr-only" }, t("deltas")),
    el("tr", {}, el("th", { scope: "col" }, t("player")), el("th", { scope: "col" }, t("deltas")), el("th", { scope: "col" }, t("scores"))),
    [0, 1, 2, 3].map((x) => el("tr", { class: x === me() ? "me" : "" }, el("td", {}, seatLabel(x, names)),
      el("td", { class: `num ${s.deltas[x] > 0 ? "pos" : s.deltas[x] < 0 ? "neg" : ""}` }, signed(s.deltas[x])),
      el("td", { class: "num" }, String(s.scores[x]))))));
  if (s.over) {
    parts.push(el("h3", {}, t("match_over")));
    parts.push(el("ol", { class: "standings" }, s.standings.map((r) => el("li", { class: r.seat === me() ? "me" : "" },
      `${seatLabel(r.seat, names)} · ${r.score}`))));
    parts.push(finalLinks(true));
  } else {
    const countdown = el("span", { class: "muted", id: "autonext" });
    const deadline = Date.now() + (s.next_in || 0) * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      countdown.textContent = s.next_in ? t("auto_next", left) : "";
    };
    tick();
    parts.push(el("div", { class: "buttons" },
      el("button", { class: "primary", type: "button", onclick: () => closeSettlement(true) }, t("next_hand")), countdown));
    settlementTick = tick;
  }
  $("modal").replaceChildren(...parts.filter(Boolean));
  $("overlay").hidden = false;
  $("modal").focus({ preventScroll: true });
}

function finalLinks(inDialog) {
  const mid = state ? state.match_id : null;
  return el("div", { class: "buttons" },
    inDialog ? null : el("button", { type: "button", onclick: () => { settlement = finalResult; showSettlement(); } }, t("show_standings")),
    el("a", { class: "button", href: "/" }, t("back_lobby")),
    mid ? el("a", { class: "button", href: `/replay/${mid}` }, t("replay_match")) : null,
    mid ? el("a", { class: "button", href: `/api/matches/${mid}/record` }, t("download")) : null);
}

// After the final standings are closed, a bar keeps them (and the way out) one click away.
function renderFinalBar() {
  let bar = document.getElementById("finalbar");
  if (!finalResult || !over() || !$("overlay").hidden) { if (bar) bar.remove(); return; }
  if (!bar) {
    bar = el("div", { id: "finalbar", class: "standings-bar", role: "region", "aria-label": t("match_over") });
    $("table").prepend(bar);
  }
  const top = finalResult.standings[0];
  bar.replaceChildren(el("strong", {}, `${t("match_over")}: ${seatLabel(top.seat, finalResult.names)} ${top.score}`), finalLinks(false));
}

let settlementTick = null;

function closeSettlement(ready) {
  if (settlement) settlementClosedFor = settlement.hand;
  if (ready) send({ type: "next" });
  settlement = null;
  settlementTick = null;
  $("overlay").hidden = true;
  if (state) renderFinalBar();
  const first = document.querySelector("#myhand [data-testid=hand-tile][tabindex='0']");
  if (first) first.focus({ preventScroll: true });
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

initSettings();
langToggle($("lang"), () => { localNames(state); localNames(settlement); localNames(finalResult); applySettings(); render(); renderLog(); if (settlement) showSettlement(); });
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
