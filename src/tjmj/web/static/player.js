// A player's statistics (issue 13): GET /api/players/{name}[?id=] drawn per rule family — the
// figures, the placements, the scoring elements, 铲/kongs/坐庄/拉庄, and the score over time as
// an SVG line (built here, no library: the CSP allows no inline script or style); and, for an
// account, its rating per family (issue 31: GET /api/players/{name}/ratings) with its history as a
// line beside the bot levels' fixed ratings.
import { applyI18n, langToggle, t } from "./i18n.js";
import { familyName, familyOf } from "./family.js";
import { api, el, errorText, signedDelta } from "./render.js";

const SVG = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(location.pathname.replace(/^\/player\//, ""));
const id = new URLSearchParams(location.search).get("id") || "";
let report = null;
let rated = null; // the account's ratings, or null (not an account, or never ranked)
let failure = ""; // the server's words when the page cannot be had (a bad name), said at each render

function pct(x) {
  return x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`;
}

// a number as people read it: "−3.92" with a real minus sign, as the total score has
function num(x) {
  if (x === null || x === undefined) return "—";
  return typeof x === "number" && x < 0 ? `\u2212${-x}` : String(x);
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

// the running total after each match: one point per match, a zero line, the extremes labelled
function plot(timeline) {
  if (timeline.length === 1) { // one point in an empty box says less than a sentence
    return el("p", { class: "score-one", "data-testid": "score-plot" }, t("ps_plot_one", signedDelta(timeline[0].total)));
  }
  const W = 640, H = 220, L = 48, R = 12, T = 14, B = 26;
  const totals = timeline.map((p) => p.total);
  const lo = Math.min(0, ...totals), hi = Math.max(0, ...totals);
  const span = hi - lo || 1;
  const x = (i) => L + (timeline.length > 1 ? (i * (W - L - R)) / (timeline.length - 1) : (W - L - R) / 2);
  const y = (v) => T + ((hi - v) * (H - T - B)) / span;
  const label = t("ps_plot_label", timeline.length);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-plot", role: "img", "aria-label": label,
    "data-testid": "score-plot" }, svg("title", {}, label));
  root.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero" }));
  for (const v of new Set([lo, 0, hi])) {
    root.append(svg("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, num(v)));
  }
  root.append(svg("text", { x: L, y: H - 6, class: "axis" }, "1"));
  if (timeline.length > 1) {
    root.append(svg("text", { x: W - R, y: H - 6, class: "axis", "text-anchor": "end" }, String(timeline.length)));
  }
  root.append(svg("polyline", { points: timeline.map((p, i) => `${x(i)},${y(p.total)}`).join(" "), class: "line" }));
  timeline.forEach((p, i) => {
    root.append(svg("circle", { cx: x(i), cy: y(p.total), r: 4, class: p.score >= 0 ? "point up" : "point down",
      "data-match": p.match_id }, svg("title", {}, t("ps_point", i + 1, p.match_id, signedDelta(p.score), p.total))));
  });
  return root;
}

// the rating after each ranked match, with the bot levels' fixed ratings as dashed lines; its words
// (role=img, aria-label and title) say what it shows, each point's title its match and rating
function ratingPlot(history, bots) {
  const values = history.map((h) => h.rating);
  if (history.length === 1) {
    return el("p", { class: "score-one", "data-testid": "rating-plot" }, t("rt_plot_one", values[0]));
  }
  const W = 640, H = 220, L = 48, R = 12, T = 14, B = 26;
  const lines = bots.map((b) => b.rating);
  const lo = Math.min(...values, ...lines), hi = Math.max(...values, ...lines);
  const span = hi - lo || 1;
  const x = (i) => L + (i * (W - L - R)) / (history.length - 1);
  const y = (v) => T + ((hi - v) * (H - T - B)) / span;
  const label = t("rt_plot_label", history.length, values[0], values[values.length - 1]);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-plot rating-plot", role: "img", "aria-label": label,
    "data-testid": "rating-plot" }, svg("title", {}, label));
  let below = -Infinity; // the last label's baseline: labels of close ratings are set apart, not on top of each other
  for (const b of [...bots].sort((p, q) => q.rating - p.rating)) {
    const words = t("rt_bot_line", t(`lb_level_${b.name}`), b.rating);
    root.append(svg("line", { x1: L, x2: W - R, y1: y(b.rating), y2: y(b.rating), class: "zero" }, svg("title", {}, words)));
    below = Math.max(y(b.rating) - 3, below + 14);
    root.append(svg("text", { x: W - R, y: below, class: "axis", "text-anchor": "end" }, words));
  }
  for (const v of new Set([lo, hi])) {
    root.append(svg("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  history.forEach((h, i) => {
    const up = i === 0 || h.rating >= values[i - 1];
    root.append(svg("circle", { cx: x(i), cy: y(h.rating), r: 4, class: up ? "point up" : "point down", "data-match": h.match_id },
      svg("title", {}, t("rt_point", i + 1, h.match_id, h.rating))));
  });
  return root;
}

function ratingSection(r) {
  const bots = (rated.bots || {})[r.family] || [];
  return el("section", { class: "card stats-family", "data-family": r.family, "data-testid": `rating-${r.family}` },
    el("h2", {}, `${t("rt_title")} · ${familyOf(r.family) ? familyName(r.family) : r.family}`),
    el("dl", { class: "figures" },
      figure("rt_rating", String(r.rating), "rating"),
      figure("rt_matches", String(r.matches), "rated-matches")),
    ratingPlot(r.history, bots),
    el("p", {}, el("a", { href: `/leaderboard?family=${encodeURIComponent(r.family)}` }, t("leaderboard"))));
}

function figure(key, value, testid) {
  return el("div", { class: "figure", "data-testid": testid }, el("dt", {}, t(key)), el("dd", {}, value));
}

function elementsTable(f) {
  if (!f.elements.length) return el("p", { class: "muted" }, t("ps_no_elements"));
  const head = el("thead", {}, el("tr", {}, ["ps_element_zh", "ps_element_en", "ps_count", "ps_share"].map(
    (k) => el("th", { scope: "col" }, t(k)))));
  const cell = (k, attrs, ...c) => el("td", { ...attrs, "data-label": t(k) }, ...c);
  const rows = f.elements.map((e) => el("tr", { "data-code": e.code },
    cell("ps_element_zh", { class: "first", lang: "zh" }, e.chinese),
    cell("ps_element_en", { lang: "en" }, e.english),
    cell("ps_count", {}, String(e.count)),
    cell("ps_share", {}, pct(e.rate))));
  return el("table", { class: "list elements", "data-testid": "elements" },
    el("caption", { class: "sr-only" }, t("ps_elements")), head, el("tbody", {}, rows));
}

function familySection(f) {
  const mean = f.points === "value" ? "ps_mean_value" : "ps_mean_fan";
  const figures = el("dl", { class: "figures" },
    figure("ps_matches", String(f.matches), "matches"),
    figure("ps_hands", String(f.hands), "hands"),
    figure("ps_wins", String(f.wins), "wins"),
    figure("ps_win_rate", pct(f.win_rate), "win-rate"),
    figure("ps_self_drawn", String(f.self_drawn), "self-drawn"),
    figure("ps_deal_ins", String(f.deal_ins), "deal-ins"),
    figure(mean, num(f.mean_points), "mean-points"),
    figure("ps_total_score", signedDelta(f.score.total), "total-score"),
    figure("ps_mean_score", num(f.score.mean), "mean-score"));
  const places = el("dl", { class: "figures placements", "data-testid": "placements" },
    ...f.placements.map((n, i) => figure(`ps_place_${i + 1}`, String(n), `place-${i + 1}`)));
  const k = f.kongs;
  const lines = [el("p", { "data-testid": "kongs" }, el("strong", {}, t("ps_kongs")), " ",
    t("ps_kongs_line", k.total, k.ankan, k.daiminkan, k.kakan), k.gold ? t("ps_gold", k.gold) : "")];
  if (f.chan) {
    const c = f.chan, sp = f.sit_pull;
    lines.push(el("p", { "data-testid": "chan" }, el("strong", {}, t("ps_chan")), " ", t("ps_chan_line", c.paid, c.received, signedDelta(c.net))));
    lines.push(el("p", { "data-testid": "sit" }, el("strong", {}, t("ps_sit")), " ", t("ps_sit_line", sp.sat, sp.dealer_hands, signedDelta(sp.sat_net))));
    lines.push(el("p", { "data-testid": "pull" }, el("strong", {}, t("ps_pull")), " ", t("ps_pull_line", sp.pulled, sp.pulls, signedDelta(sp.pulled_net))));
  }
  return el("section", { class: "card stats-family", "data-family": f.family, "data-testid": `family-${f.family}` },
    el("h2", {}, familyOf(f.family) ? familyName(f.family) : t(f.family)),
    figures,
    el("h3", {}, t("ps_placements")), places,
    el("h3", {}, t("ps_plot")), plot(f.timeline),
    ...lines,
    el("h3", {}, t("ps_elements")), elementsTable(f));
}

function render() {
  document.title = `${t("ps_title", name)} — ${t("title")}`;
  document.getElementById("title").textContent = t("ps_title", name);
  const summary = document.getElementById("summary");
  const box = document.getElementById("families");
  document.getElementById("ratings").replaceChildren(...(rated ? rated.ratings.map(ratingSection) : []));
  if (!report) {
    summary.textContent = "";
    box.replaceChildren(el("p", { "data-testid": "player-missing" }, failure ? errorText(failure) : t("ps_no_player")));
    return;
  }
  summary.textContent = `${t("ps_summary", report.matches, report.hands, report.wins, pct(report.win_rate))} · ${t(id ? "ps_by_id" : "ps_by_name")}`;
  box.replaceChildren(...Object.values(report.families).map(familySection));
}

async function load() {
  try {
    report = await api(`/api/players/${encodeURIComponent(name)}${id ? `?id=${encodeURIComponent(id)}` : ""}`);
  } catch (e) {
    report = null;
    failure = /no finished matches/.test(e.message) ? "" : e.message;
  }
  try { // an account's ratings (by its name: ratings are public, ids are not)
    rated = id && !id.startsWith("account-") ? null : await api(`/api/players/${encodeURIComponent(name)}/ratings`);
  } catch {
    rated = null; // the database failed: the statistics still show
  }
  render();
}

langToggle(document.getElementById("lang"), render);
applyI18n();
load();
