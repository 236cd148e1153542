"""What the web table (and the terminal table) shows of a Beijing hand: the settlement explained
(B5, B6: each element in the rules' column, the value's sum or product, every payment's factors)
and the hint (the discards ranked by :mod:`tjmj.families.beijing.advise`).  The protocol is the
docstrings of :mod:`tjmj.web.settlement` and :mod:`tjmj.web.hints`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

from ...game import Match
from ...tiles import TILE_TEXT, Tile
from ...wall import SEATS
from ...web.hints import hint_outlook, meld_tiles, split_draw, visible_counts
from ...web.settlement import add_standings, element_names, hand_parts, payment_formula, rescored_arrangement, revealed
from .elements import ELEMENT_BY_CODE, MULTIPLY
from .rules import BeijingRules

__all__ = [
    "HINT_OFF_THREAD",
    "hint_available",
    "hint_compute",
    "hint_inputs",
    "payments_detail",
    "rules_brief",
    "settlement_message",
    "win_arrangement",
    "win_detail",
    "win_names",
]

log = logging.getLogger("tjmj.web")

# the hint is quick (the advisor's tables): computed on the event loop, from the match itself
HINT_OFF_THREAD = False


# ---- the settlement ---------------------------------------------------------------------------------


def win_names(hora: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A win's elements by name (code, Chinese, English), from its ``elements`` codes."""
    return element_names(hora, ELEMENT_BY_CODE)


def win_detail(hora: dict[str, Any], rules: BeijingRules) -> dict[str, Any]:
    """A Beijing win as the settlement explains it (B5): each element with its names, its value in
    the rules' column (``×n`` in version B, ``+n`` in version A, a flat 40) and whether it counts in
    the value, and the sum or product that makes the value: ``formula`` (Chinese names) and
    ``formula_en``, e.g. ``一条龙 ×2 · 门清 ×2 · 自摸 ×2 · 无混儿 ×2 = 16``; version A halves an open
    hand (``halved``), ``cap`` bounds the value (``capped``)."""
    scoring = rules.scoring
    codes = list(hora["elements"])
    elements: list[dict[str, Any]] = []
    zh: list[str] = []
    en: list[str] = []
    flat: tuple[int, str, str] | None = None
    product, total = 1, 0
    for code in codes:
        e = ELEMENT_BY_CODE.get(code)
        if e is None:  # an element this server does not know: listed, not explained
            elements.append({"code": code, "chinese": code, "english": code, "value": "", "counts": False})
            continue
        d: dict[str, Any] = {**e.to_dict(scoring), "counts": False}
        if e.flat is not None:
            d["counts"] = True
            flat = (e.flat, e.chinese, e.english)
        elif scoring == MULTIPLY and e.multiplier is not None:
            d.update(counts=True, times=e.multiplier)
            product *= e.multiplier
            zh.append(f"{e.chinese} ×{e.multiplier}")
            en.append(f"{e.english} ×{e.multiplier}")
        elif scoring != MULTIPLY and e.fan is not None:
            d.update(counts=True, plus=e.fan)
            total += e.fan
            zh.append(f"{e.chinese} +{e.fan}")
            en.append(f"{e.english} +{e.fan}")
        elements.append(d)
    halved = False
    if flat is not None:
        raw = value = flat[0]
        formula, formula_en = f"{flat[1]}（固定）= {raw}", f"{flat[2]} (flat) = {raw}"
    else:
        if scoring == MULTIPLY:
            raw = product
            zh, en = zh or ["推倒胡 1"], en or ["basic win 1"]
        else:
            raw = total or 1
            zh, en = zh or ["推倒胡 +1"], en or ["basic win +1"]
        formula, formula_en = " · ".join(zh) + f" = {raw}", " · ".join(en) + f" = {raw}"
        value = raw
        if scoring != MULTIPLY and "MENQING" not in codes:  # "破了门清后的点数就为原基准点数的1/2" (B5)
            halved = True
            value = (raw + 1) // 2
            formula += f"；未门清，减半（进一）→ {value}"
            formula_en += f"; not concealed: half, rounded up → {value}"
    capped = rules.cap > 0 and value > rules.cap
    if capped:
        value = rules.cap
        formula += f"；封顶 {value}"
        formula_en += f"; capped at {value}"
    if value != hora["value"]:  # the engine is the authority: say its value, whatever the sum says
        log.warning("Beijing value %s explained as %s (%s)", hora["value"], value, codes)
        formula, formula_en = f"{hora['name']} = {hora['value']}", f"{hora['name']} = {hora['value']}"
    target = hora.get("target")
    return {
        "seat": hora["actor"],
        "tile": hora["pai"],
        "hand": hora["hand"],
        "melds": hora["melds"],
        "value": hora["value"],
        "name": hora["name"],
        "scoring": scoring,
        "elements": elements,
        "formula": formula,
        "formula_en": formula_en,
        "halved": halved,
        "capped": capped,
        "self_drawn": bool(hora.get("self_drawn")),
        "rob_kong": bool(hora.get("rob_kong")),
        "kong_draw": bool(hora.get("kong_draw")),
        "last_tile": bool(hora.get("last_tile")),
        "hunyou": bool(hora.get("hunyou")),
        "hungang": "HUNGANG" in codes,
        "from": target if not hora.get("self_drawn") and target != hora["actor"] else None,
    }


def payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    payments: Sequence[dict[str, Any]], rules: BeijingRules) -> list[dict[str, Any]]:
    """Each payment of a Beijing hand with why it is that amount (B6): ``why`` lists factors whose
    product is the amount — ``value`` (the hand's), ``dianpao`` ×2 (点炮, version B), ``discarder``
    ×3 (包三家, version A), ``rob_kong`` ×3 (抢杠: the kong's declarer pays all three shares),
    ``mutual`` (互包: the tied player pays every share), ``hunyou`` ×2 (a 混儿悠 cut short),
    ``shaozhuang`` (烧庄 units) and ``shaozhuang_rounds`` (its doubling), ``base``, ``upstairs`` ×2
    (上楼).  A payment the factors do not explain gets an empty ``why`` (and a warning in the log)."""
    tail: list[dict[str, Any]] = []
    if rules.base != 1:
        tail.append({"key": "base", "times": rules.base})
    if kyoku.get("upstairs"):
        tail.append({"key": "upstairs", "times": 2})
    hunyou: set[int] = set()
    taken: dict[tuple[int, int], int] = {}
    liable: dict[int, int] = {}
    rounds = 0
    for ev in hand_events:
        t = ev["type"]
        if t == "dahai" and ev.get("hunyou"):
            hunyou.add(ev["actor"])
        elif t in ("chi", "pon", "daiminkan"):
            key = (ev["actor"], ev["target"])
            taken[key] = taken.get(key, 0) + 1
            if rules.mutual_liability and taken[key] >= rules.mutual_liability:
                liable[ev["actor"]], liable[ev["target"]] = ev["target"], ev["actor"]
        elif t == "shaozhuang":
            rounds = max(rounds, int(ev.get("rounds") or 0))
    expected: dict[int, list[dict[str, Any]]] = {}
    if hora is not None:
        winner = hora["actor"]
        source = None if hora.get("self_drawn") else hora.get("target")
        owed: dict[int, tuple[int, list[dict[str, Any]]]] = {p: (1, []) for p in range(SEATS) if p != winner}
        if hora.get("rob_kong") and source is not None:
            owed = {source: (3, [{"key": "rob_kong", "times": 3}])}
        elif source is not None and rules.discard_pays == "discarder":
            owed = {source: (3, [{"key": "discarder", "times": 3}])}
        elif source is not None:
            owed[source] = (2, [{"key": "dianpao", "times": 2}])
        partner = liable.get(winner)
        if partner is not None:
            shares = sum(n for n, _ in owed.values())
            owed = {partner: (shares, [{"key": "mutual", "times": shares}])}
        for p, (_, why) in owed.items():
            if p in hunyou:
                why = [*why, {"key": "hunyou", "times": 2}]
            expected[p] = [{"key": "value", "times": hora["value"]}, *why, *tail]
    out = []
    for pay in payments:
        d = dict(pay)
        if pay["reason"] == "win":
            why = expected.get(pay["payer"], [])
        elif pay["reason"] == "shaozhuang":
            why = [{"key": "shaozhuang", "times": rules.shaozhuang_units}]
            if rounds > 1:
                why.append({"key": "shaozhuang_rounds", "times": 2 ** (rounds - 1)})
            why += tail
        else:
            why = []
        product = 1
        for f in why:
            product *= f["times"]
        if not why or product != pay["amount"]:
            if why:
                log.warning("Beijing payment %s not explained by %s", pay, why)
            why = []
        d["why"] = why
        d["formula"], d["formula_en"] = payment_formula(why, pay["amount"])
        out.append(d)
    return out


def win_arrangement(hora: dict[str, Any], kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    rules: BeijingRules) -> dict[str, Any] | None:
    """The win's best arrangement (:func:`tjmj.web.settlement.win_arrangement`), re-scored by
    :func:`tjmj.families.beijing.score.score_beijing`, with its ``shape`` and ``wild``; None for 混杠."""

    def rescore() -> tuple[bool, Any]:
        from .elements import WinContext
        from .score import score_beijing

        codes = hora["elements"]
        ctx = WinContext(self_drawn=hora["self_drawn"], dealer=hora["actor"] == kyoku["dealer"],
                         last_tile=hora["last_tile"], kong_draw=hora["kong_draw"], rob_kong=hora["rob_kong"],
                         hunyou=hora["hunyou"], hungang="HUNGANG" in codes, tianhe="TIANHE" in codes,
                         dihe="DIHE" in codes)
        # the 混坯 lies face up until the first replacement draw takes it (B2)
        replaced = any(e["type"] == "tsumo" and e.get("replacement") for e in hand_events)
        b = score_beijing("".join(hora["hand"]), hora["pai"], melds=list(hora["melds"]),
                          indicator=kyoku.get("dora_marker"), rules=rules, context=ctx,
                          indicator_visible=not replaced)
        return b.win and b.value == hora["value"] and b.codes == codes, b.arrangement

    return rescored_arrangement(hora, rescore)


def settlement_message(m: Match, rules: BeijingRules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None, where: str) -> dict[str, Any]:
    """A Beijing hand's settlement (B5, B6): the win explained (:func:`win_detail`) and every
    payment with its factors (:func:`payments_detail`); no 坐庄, 拉庄 or 铲."""
    kyoku, end, hora = hand_parts(hand_events)
    rounds = max((int(e.get("rounds") or 0) for e in hand_events if e["type"] == "shaozhuang"), default=0)
    win = None
    if hora:
        win = win_detail(hora, rules)
        win["arrangement"] = win_arrangement(hora, kyoku, hand_events, rules)
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "preset": rules.name.split("+")[0],
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": kyoku["dealer"],
        "indicator": kyoku.get("dora_marker"),
        "wilds": kyoku.get("wilds") or [],
        "upstairs": bool(kyoku.get("upstairs")),
        "upstairs_next": bool(getattr(m, "upstairs", False)) and not m.is_over,
        "shaozhuang": rounds,
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": win,
        "hands": revealed(m, kyoku, where),
        "payments": payments_detail(hora, kyoku, hand_events, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    add_standings(m, msg, names)
    return msg


# ---- the table --------------------------------------------------------------------------------------


def rules_brief(rules: BeijingRules) -> dict[str, Any]:
    """What the table shows of these rules besides what every family has: the scoring column,
    the wilds, 混儿悠, 上楼, the claims allowed, who pays a discard win."""
    return {"scoring": rules.scoring, "wilds": rules.wilds, "hunyou": rules.hunyou, "upstairs": rules.upstairs,
            "max_claims": rules.max_claims, "claimed_self_draw_only": rules.claimed_self_draw_only,
            "discard_pays": rules.discard_pays}


# ---- the hint ---------------------------------------------------------------------------------------


def hint_available() -> bool:
    """Whether the advisor is installed (then the table offers hints)."""
    try:
        from . import advise  # noqa: F401
    except ImportError:
        return False
    return True


def hint_inputs(m: Match, seat: int) -> tuple[Match, int] | None:
    """The hint is computed on the loop from the match itself (:data:`HINT_OFF_THREAD` is False);
    None when the advisor is not there: no hint rather than a made-up one."""
    try:
        from . import advise  # noqa: F401
    except ImportError:
        return None
    return m, seat


def hint_compute(inputs: tuple[Match, int]) -> list[dict[str, Any]]:
    """Beijing's hint (B2–B5), by :func:`tjmj.families.beijing.advise.advise`: as Tianjin's, with
    ``value`` where Tianjin gives ``fan`` (``expected`` in points), each wait's value won on a discard
    (``discard``), and ``hunyou`` on a discard that may also be made as 混儿悠 (B3)."""
    from .advise import advise

    m, seat = inputs
    rules = cast(BeijingRules, m.rules)  # the family's own match
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    indicator = obs.get("indicator")
    visible = visible_counts(m, obs)
    # the 混坯 lies face up until the first replacement draw takes it (B2): after any kong it is a
    # tile like another (in a hand, or discarded and counted there)
    face_up = indicator is not None and not any(
        len(tiles) == 4 for st in obs["seats"] for tiles in meld_tiles(st["melds"]))
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = split_draw(obs, hand)
    a = advise(rest, draw, indicator, own_melds, seen=seen, rules=rules, dealer=seat == m.dealer,
               indicator_visible=face_up, wall_left=obs.get("wall_left"))
    by_tile = {o.tile: o for o in a.discards}
    legal = m.legal_actions(seat)
    hunyou = {x.tile for x in legal if x.type == "hunyou"}
    wilds = set(obs["wilds"])
    out = []
    for k in sorted({x.tile for x in legal if x.type == "discard" and x.tile is not None}):
        o = by_tile[k]
        waits = [
            {
                "tile": TILE_TEXT[w.tile],
                "value": w.value,
                "name": w.name,
                "win": w.win,
                "elements": w.codes,
                "live": w.live,
                "discard": {"value": w.discard.value, "win": w.discard.win},
                **({"reason": w.reason} if w.reason else {}),
            }
            for w in o.waits
        ]
        entry: dict[str, Any] = {
            "tile": TILE_TEXT[k], "wild": TILE_TEXT[k] in wilds, "shanten": o.shanten, "hunyou": k in hunyou,
            "waits": waits, "rank": o.rank, "improving": o.improving_count,
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in o.improving],
            **hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out
