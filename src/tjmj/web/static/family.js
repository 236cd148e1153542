// The rule families this server plays, as the pages see them: the server makes /static/registry.js
// from its family registry (tjmj.families; each family's `webpage` part: tjmj/web/app.py), so no page
// names a family. The first family is the default one (what older records that name none played).
import { t } from "./i18n.js";
import { FAMILIES } from "./registry.js";

export { FAMILIES };
export const DEFAULT_FAMILY = FAMILIES[0];

// the text of key, or null when no table has it (t shows a missing key as the key itself)
function known(key) {
  const text = t(key);
  return text === key ? null : text;
}

// the family named `name` (none: the default family), or null when this server has no such family
export function familyOf(name) {
  const wanted = name || DEFAULT_FAMILY.name;
  return FAMILIES.find((f) => f.name === wanted) || null;
}

// what the table shows differently per family (its `webpage` part's CAPS): e.g. wildCostsWin,
// indicatorLabels, reserve, upstairsMarks, passedWin, winds, flowers; an unknown family: the default's
export function capsOf(name) {
  return (familyOf(name) || DEFAULT_FAMILY).caps;
}

// a family's name in the page's language (天津麻将 / Tianjin mahjong); an unknown family: its name
export function familyName(name) {
  const key = `family_${name || DEFAULT_FAMILY.name}`;
  return known(key) ?? name;
}

// a preset's short name in the page's language (the settlement's and the lists' word); an unknown one: its name
export function presetName(preset) {
  const key = `preset_name_${preset}`;
  return known(key) ?? preset;
}

// a preset as the lobby's form describes it, in the page's language
export function presetText(preset) {
  const key = `preset_${preset}`;
  return known(key) ?? preset;
}
