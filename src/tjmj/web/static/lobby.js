// The lobby: quick game against bots, create a room, join by code.
import { applyI18n, langToggle, t, tn } from "./i18n.js";
import { api, el, errorText, saveName, saveSeat, savedName, tileImg, toast } from "./render.js";

const nameInput = document.getElementById("name");
nameInput.value = savedName();

function name() {
  const n = nameInput.value.trim();
  if (n) saveName(n);
  return n || undefined;
}

// each family's presets, its default first (the server checks them: POST /api/rooms)
const PRESETS = { tianjin: ["classic", "yiyou"], beijing: ["beijing", "beijing_a"], mcr: ["mcr"] };
const PRESET_TEXT = {
  classic: "preset_classic", yiyou: "preset_yiyou", beijing: "preset_beijing", beijing_a: "preset_beijing_a",
  mcr: "preset_mcr",
};

function fillPresets() {
  const family = document.getElementById("family").value || "tianjin";
  const preset = document.getElementById("preset");
  const keep = preset.value;
  preset.replaceChildren(...PRESETS[family].map((p) => el("option", { value: p, text: t(PRESET_TEXT[p]) })));
  if (PRESETS[family].includes(keep)) preset.value = keep;
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
  go(api("/api/quick", { name: name(), family })).finally(() => { e.target.disabled = false; });
});

document.getElementById("create").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const body = { name: name(), family: f.get("family"), preset: f.get("preset"), bots: f.get("bots") };
  body.match_hands = f.get("match_hands") ? Number(f.get("match_hands")) : null;
  body.timer_s = f.get("timer_s") ? Number(f.get("timer_s")) : null;
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
    await go(api(`/api/rooms/${encodeURIComponent(code)}/join`, { name: name() }), { rethrow: true });
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
if (savedFamily && PRESETS[savedFamily]) {
  document.getElementById("quick_family").value = savedFamily;
  document.getElementById("family").value = savedFamily;
}

langToggle(document.getElementById("lang"), texts);
applyI18n();
texts();
hero();
