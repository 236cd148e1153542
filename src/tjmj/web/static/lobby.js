// The lobby: quick game against bots, create a room, join by code.
import { applyI18n, langToggle, t, tn } from "./i18n.js";
import { familyName, familyOf, presetName, presetText } from "./family.js";
import { api, el, errorText, playerId, playerUrl, saveName, saveSeat, savedName, tileImg, toast } from "./render.js";
import { accountCall, accountError, authForm, whoAmI } from "./auth.js";
import { renderRanked } from "./ranked.js";

const nameInput = document.getElementById("name");
nameInput.value = savedName();
let account = null; // the signed-in account ({name, created, player_id}: GET /api/account/me), or null
let auth = null; // the log-in / sign-up form (made below)

function name() {
  const n = nameInput.value.trim();
  if (n && !account) saveName(n); // a guest's name is remembered; an account's is the server's
  return n || undefined;
}

// the chosen family's presets, its default first (the server checks them: POST /api/rooms)
function fillPresets() {
  const presets = familyOf(document.getElementById("family").value).presets;
  const preset = document.getElementById("preset");
  const keep = preset.value;
  preset.replaceChildren(...presets.map((p) => el("option", { value: p, text: presetText(p) })));
  if (presets.includes(keep)) preset.value = keep;
}

function fillSelects() {
  fillPresets();
  const hands = document.getElementById("match_hands");
  const keep = hands.value || "4";
  hands.replaceChildren(
    ...[1, 4, 8, 16].map((n) => el("option", { value: String(n), text: tn("hands_n", n) })),
    el("option", { value: "", text: t("full_match") }),
  );
  hands.value = keep;
  const timer = document.getElementById("timer_s");
  const keepT = timer.value || "";
  timer.replaceChildren(
    el("option", { value: "", text: t("no_timer") }),
    ...[15, 30, 60].map((n) => el("option", { value: String(n), text: t("seconds_n", n) })),
  );
  timer.value = keepT;
}

function hero() { // decoration: the box is hidden from screen readers
  const box = document.getElementById("hero-tiles");
  const tile = (x, wild = false) => tileImg(x, { size: "md", wild, decorative: true });
  box.replaceChildren(...["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"].map((x) => tile(x)),
    el("span", { class: "gap" }), tile("5z", true), tile("6z", true));
}

function texts() {
  document.title = t("title");
  fillSelects();
  renderAccount();
}

async function go(promise, { rethrow = false } = {}) {
  try {
    const d = await promise;
    saveSeat(d.room, { token: d.token, player: d.player });
    location.href = `/table/${d.room}`;
  } catch (e) {
    if (rethrow) throw e;
    toast(errorText(e.message));
  }
}

document.getElementById("quick").addEventListener("click", (e) => {
  e.target.disabled = true;
  const family = document.getElementById("quick_family").value;
  const priv = document.getElementById("quick_private").checked; // not listed for watching
  go(api("/api/quick", { name: name(), player_id: playerId(), family, private: priv })).finally(() => { e.target.disabled = false; });
});

document.getElementById("create").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const body = { name: name(), player_id: playerId(), family: f.get("family"), preset: f.get("preset"), bots: f.get("bots") };
  body.match_hands = f.get("match_hands") ? Number(f.get("match_hands")) : null;
  body.timer_s = f.get("timer_s") ? Number(f.get("timer_s")) : null;
  body.private = f.get("private") === "on"; // kept out of the lobby's lists
  go(api("/api/rooms", body));
});

document.getElementById("join").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = new FormData(e.target).get("code").trim().toUpperCase();
  if (!code) return;
  joinByCode(code);
});

// A room that has started can only be watched: look first, so there is no error on the way.
async function joinByCode(code) {
  const where = `/table/${encodeURIComponent(code)}`;
  let info;
  try {
    info = await api(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (err) {
    toast(errorText(err.message));
    return;
  }
  if (info.status !== "waiting") { location.href = where; return; }
  try {
    await go(api(`/api/rooms/${encodeURIComponent(code)}/join`, { name: name(), player_id: playerId() }), { rethrow: true });
  } catch (err) {
    if (String(err.message).includes("started")) location.href = where; // it started meanwhile: watch it
    else toast(errorText(err.message));
  }
}

document.getElementById("family").addEventListener("change", fillPresets);
document.getElementById("quick_family").addEventListener("change", (e) => {
  localStorage.setItem("tjmj.family", e.target.value);
  document.getElementById("family").value = e.target.value;
  fillPresets();
});
const savedFamily = localStorage.getItem("tjmj.family");
if (savedFamily && familyOf(savedFamily)) {
  document.getElementById("quick_family").value = savedFamily;
  document.getElementById("family").value = savedFamily;
}

langToggle(document.getElementById("lang"), texts);
applyI18n();
texts();
hero();

// ---- open rooms and live tables: GET /api/lobby, polled with its ETag ------------------------------
// Polling, not a socket: a lobby page holds no connection (the per-address socket cap stays for
// tables), and an unchanged list costs the server a 304 with no body. Paused while the tab is hidden.
const POLL_MS = 1500;
const listing = { tag: null, data: null, offset: 0, timer: null, busy: false };

async function pollLobby() {
  clearTimeout(listing.timer);
  if (document.hidden || listing.busy) return;
  listing.busy = true;
  let wait = POLL_MS;
  try {
    const r = await fetch("/api/lobby", { cache: "no-store", headers: listing.tag ? { "If-None-Match": listing.tag } : {} });
    if (r.status === 200) {
      listing.data = await r.json();
      listing.tag = r.headers.get("ETag");
      listing.offset = listing.data.now - Date.now() / 1000; // the server's clock dates the rooms
      renderLists();
    } else if (r.status === 304) {
      renderAges();
    } else {
      wait = 1000 * Math.max(5, Number(r.headers.get("Retry-After")) || 0); // 429 or a server in trouble
    }
  } catch {
    wait = 5000; // offline: try again a little later
  } finally {
    listing.busy = false;
  }
  if (!document.hidden) listing.timer = setTimeout(pollLobby, wait);
}

function gameWords(e) {
  const rules = `${familyName(e.family)} · ${presetName(e.preset)}`;
  return e.custom ? `${rules}*` : rules;
}

function lengthWords(e) {
  return e.match_hands ? tn("hands_n", e.match_hands) : t("full_match");
}

function ageWords(created) {
  const age = Math.max(0, Date.now() / 1000 + listing.offset - created);
  if (age < 60) return t("age_now");
  if (age < 3600) return tn("age_min", Math.floor(age / 60));
  return tn("age_hour", Math.floor(age / 3600));
}

function renderAges() {
  document.querySelectorAll("#open-rooms [data-created]").forEach((node) => {
    node.textContent = ageWords(Number(node.dataset.created));
  });
}

function joinListed(code) {
  if (!nameInput.value.trim()) { // a listed room is joined under your name: ask for it first
    nameInput.focus();
    toast(t("name_first"));
    return;
  }
  joinByCode(code);
}

function openRow(e) {
  return el("li", { class: "roomrow", "data-room": e.room },
    el("div", { class: "roominfo" },
      el("div", { class: "roomtitle" }, el("span", { class: "code" }, e.room), " ", gameWords(e)),
      el("div", { class: "small" }, `${lengthWords(e)} · ${tn("players_of", e.players.length)}`),
      el("div", { class: "muted small who" }, // the first player is the host
        e.players.flatMap((n, i) => (i ? [", ", n] : [n, " ", el("small", { class: "tag" }, t("host"))])), " · ",
        el("span", { "data-created": String(e.created) }, ageWords(e.created)))),
    el("button", { class: "primary", type: "button", "data-room": e.room, "aria-label": t("join_room", e.room),
      onclick: () => joinListed(e.room) }, t("join")));
}

function liveRow(e) {
  const where = e.match_hands ? t("list_hand_of", e.hand, e.match_hands) : t("list_hand_round", e.hand, e.round, e.match_rounds);
  const seats = e.seats.map((s) => el("li", {}, s.name, s.bot ? [" ", el("small", { class: "tag" }, t("bot"))] : null,
    " ", el("span", { class: s.score > 0 ? "pos" : s.score < 0 ? "neg" : "" }, String(s.score))));
  return el("li", { class: "roomrow", "data-room": e.room },
    el("div", { class: "roominfo" },
      el("div", { class: "roomtitle" }, el("span", { class: "code" }, e.room), " ", gameWords(e)),
      el("div", { class: "small" }, e.spectators ? `${where} · ${tn("spectators_n", e.spectators)}` : where),
      el("ul", { class: "seatlist small" }, seats)),
    el("a", { class: "button", href: `/table/${encodeURIComponent(e.room)}`, "data-room": e.room,
      "aria-label": t("watch_room", e.room) }, t("watch")));
}

function renderLists() {
  const d = listing.data;
  if (!d) return;
  // the lists are rebuilt; a focused Join or Watch keeps its focus (same room) across the update
  const focused = document.activeElement && document.activeElement.closest(".roomlist") ? document.activeElement.dataset.room : null;
  const put = (id, empty, rows) => {
    document.getElementById(id).replaceChildren(...rows);
    document.getElementById(empty).hidden = rows.length > 0;
  };
  put("open-rooms", "open-empty", d.open.map(openRow));
  put("live-tables", "live-empty", d.live.map(liveRow));
  if (focused) document.querySelector(`.roomlist [data-room="${CSS.escape(focused)}"]:is(button, a)`)?.focus();
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) pollLobby(); });
document.getElementById("lang").addEventListener("click", renderLists); // after langToggle's own listener
pollLobby();

// ---- "My statistics" (issue 13): the player page of the name and id this browser plays under ----

function myStatsLink() {
  const link = document.getElementById("my-stats");
  if (!link) return;
  if (account) { // the account's games, from any browser
    link.hidden = false;
    link.href = playerUrl(account.name, account.player_id);
    return;
  }
  const n = nameInput.value.trim() || savedName();
  link.hidden = !n;
  if (n) link.href = playerUrl(n, playerId());
}
nameInput.addEventListener("input", myStatsLink);
myStatsLink();

// ---- the account area (issue 31): a guest plays at once; log in or sign up to play as an account ----

auth = authForm({ id: "lobby-auth", onDone: signedIn, onCancel: () => { auth.close(); document.getElementById("show-login").focus(); } });
auth.form.hidden = true;
document.getElementById("account").append(auth.form);
renderAccount();

function renderAccount() {
  if (!auth) return;
  auth.render();
  const signedInAs = document.getElementById("signed-in-as");
  document.getElementById("account-out").hidden = !!account;
  document.getElementById("account-in").hidden = !account;
  document.getElementById("name-note").hidden = !account;
  signedInAs.replaceChildren(...(account ? [t("acct_signed_in_as"), " ", el("strong", {}, account.name)] : []));
  nameInput.readOnly = !!account; // the server plays an account under its own name whatever is sent
  if (account) nameInput.value = account.name;
  myStatsLink();
  // ranked play is for accounts; its families are the quick game's (filled in by the server)
  renderRanked(account, [...document.getElementById("quick_family").options].map((o) => [o.value, o.textContent]));
}

function signedIn(me) {
  account = me;
  auth.close();
  renderAccount();
  document.getElementById("logout").focus();
}

document.getElementById("show-login").addEventListener("click", () => auth.open("login"));
document.getElementById("show-signup").addEventListener("click", () => auth.open("signup"));
document.getElementById("logout").addEventListener("click", async () => {
  const r = await accountCall("/api/account/logout", {});
  if (!r.ok) { toast(accountError(r)); return; }
  account = null;
  nameInput.value = savedName();
  renderAccount();
  document.getElementById("show-login").focus();
});

whoAmI().then((me) => { if (me) { account = me; renderAccount(); } });
