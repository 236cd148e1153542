// The lobby's ranked card (issue 31, part 4; docs/web.md "Ranked play"): a signed-in player picks a
// family and a match length and queues (POST /api/ranked); the page asks every second how many wait
// and whether a table was made (GET /api/ranked), and goes to it with the seat the server handed out.
import { t, tn } from "./i18n.js";
import { api, el, errorText, saveSeat, toast } from "./render.js";

const HANDS = [4, 8, 16]; // tjmj.web.ranked.RANKED_HANDS
const $ = (id) => document.getElementById(id);
let timer = null;

function show(d) {
  const waiting = d.state === "waiting" || d.state === "seating";
  $("ranked-wait").hidden = !waiting;
  $("ranked-go").hidden = waiting;
  $("ranked_family").disabled = waiting;
  $("ranked_hands").disabled = waiting;
  if (d.state === "matched") {
    stop();
    saveSeat(d.room, { token: d.token, player: d.player });
    $("ranked-status").textContent = t("ranked_found");
    location.href = `/table/${d.room}`;
    return;
  }
  if (waiting) {
    $("ranked-status").textContent = d.state === "seating" ? t("ranked_seating")
      : t("ranked_waiting", d.waiting, Math.round(d.waited_s), d.window);
    if (!timer) timer = setInterval(poll, 1000);
  } else {
    stop();
  }
}

function stop() { if (timer) { clearInterval(timer); timer = null; } }

async function poll() {
  try { show(await api("/api/ranked")); } catch (e) { stop(); $("ranked-status").textContent = errorText(e.message); }
}

// Fills the card's choices (again after a language change) and shows it when someone is signed in.
export function renderRanked(account, families) {
  const card = $("ranked");
  card.hidden = !account;
  const fam = $("ranked_family");
  const keepF = fam.value || localStorage.getItem("tjmj.family") || "";
  fam.replaceChildren(...families.map(([value, text]) => el("option", { value, text })));
  if (keepF && families.some(([v]) => v === keepF)) fam.value = keepF;
  const hands = $("ranked_hands");
  const keepH = hands.value || "4";
  hands.replaceChildren(...HANDS.map((n) => el("option", { value: String(n), text: tn("hands_n", n) })));
  hands.value = keepH;
  if (account) poll(); else stop();
}

$("ranked-go").addEventListener("click", async (e) => {
  e.target.disabled = true;
  try {
    show(await api("/api/ranked", { family: $("ranked_family").value, match_hands: Number($("ranked_hands").value) }));
    $("ranked-leave").focus();
  } catch (err) {
    toast(errorText(err.message));
  } finally {
    e.target.disabled = false;
  }
});

$("ranked-leave").addEventListener("click", async () => {
  try {
    show(await api("/api/ranked/leave", {}));
    $("ranked-go").focus();
  } catch (err) {
    toast(errorText(err.message));
  }
});
