// Tianjin mahjong (天津麻将): the settlement's account of a win. table.js loads it through /static/wins.js,
// which the server makes from the family registry (tjmj/web/app.py): win(s, parts) pushes the
// dialog's parts for s.win (the server's settlement message) onto parts.
import { lang, t } from "/static/i18n.js";
import { arrangementEl, el, elementRows, seatLabel, winHand } from "/static/render.js";

function tianjinWin(s, parts) {
  const w = s.win;
  const wilds = s.wilds || [];
  parts.push(el("div", { class: "winline" }, t("winner_is", seatLabel(w.seat, s.names)),
    w.kong_draw ? el("span", { class: "tag" }, t("kong_draw")) : null, w.tianhu ? el("span", { class: "tag" }, t("tianhu")) : null));
  parts.push(winHand(w, wilds));
  parts.push(arrangementEl(w.arrangement, wilds));
  parts.push(el("div", { class: "combo" }, el("strong", {}, w.name), ` · ${t("fan_n", w.fan)}`));
  if (w.elements && w.elements.length) parts.push(elementRows(w.elements));
  if (w.formula || w.formula_en) { // the core values added, then ×2 per doubling (R5.2)
    parts.push(el("div", { class: "formula" }, el("div", { class: "muted small" }, t("fan_how_tianjin")),
      el("div", { class: "formula-line" }, lang() === "zh" ? w.formula : w.formula_en)));
  }
  // 坐庄/拉庄: the stakes of this hand, which multiply its payments (R7)
  const stakes = [];
  if (s.sit) stakes.push(t("stake_sit", seatLabel(s.dealer, s.names)));
  (s.pulls || []).forEach((n, x) => { if (n) stakes.push(t("stake_pull", seatLabel(x, s.names), 2 ** n)); });
  if (stakes.length) parts.push(el("p", { class: "note" }, stakes.join(" · ")));
}

export { tianjinWin as win };
