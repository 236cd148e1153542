// Beijing mahjong (北京麻将): the settlement's account of a win. table.js loads it through /static/wins.js,
// which the server makes from the family registry (tjmj/web/app.py): win(s, parts) pushes the
// dialog's parts for s.win (the server's settlement message) onto parts.
import { lang, t } from "/static/i18n.js";
import { arrangementEl, el, elementRows, seatLabel, winHand } from "/static/render.js";

// A Beijing hand (B5, B6): who won and how, each element and how they make the value, then each
// payment with its factors (点炮 ×2, 上楼 ×2, 包三家, 抢杠, 互包, 混儿悠, 烧庄).
function beijingWin(s, parts) {
  const names = s.names;
  const wilds = s.wilds || [];
  const w = s.win;
  const who = seatLabel(w.seat, names);
  const from = w.from !== null && w.from !== undefined ? seatLabel(w.from, names) : "";
  const line = w.hungang ? t("win_hungang", who) : w.rob_kong ? t("win_rob", who, from)
    : from ? t("win_discard", who, from) : w.hunyou ? t("win_hunyou", who) : t("winner_is", who);
  parts.push(el("div", { class: "winline" }, line,
    w.kong_draw ? el("span", { class: "tag" }, t("kong_draw")) : null,
    w.last_tile ? el("span", { class: "tag" }, t("last_tile")) : null));
  parts.push(winHand(w, wilds));
  parts.push(arrangementEl(w.arrangement, wilds));
  parts.push(el("div", { class: "combo" }, el("strong", {}, w.name), ` · ${t("value_n", w.value)}`));
  parts.push(elementRows(w.elements));
  parts.push(el("div", { class: "formula" },
    el("div", { class: "muted small" }, `${t("value_how")} (${t(w.scoring === "add" ? "value_column_a" : "value_column_b")})`),
    el("div", { class: "formula-line" }, lang() === "zh" ? w.formula : w.formula_en)));
}

export { beijingWin as win };
