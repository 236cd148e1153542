"""What the web table (and the terminal table) shows of a Tianjin hand: the settlement explained
(R5–R8: each element with its fan, the fan's formula, every payment's factors) and the hint
(the discards ranked by :mod:`tjmj.families.tianjin.advise`).  The protocol is the docstrings of
:mod:`tjmj.web.settlement` and :mod:`tjmj.web.hints`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

from ...game import Match
from ...meld import Meld
from ...rules import Rules
from ...tiles import TILE_TEXT, Tile
from ...wall import SEATS
from ...web.hints import hint_outlook, meld_tiles, split_draw, visible_counts
from ...web.settlement import add_standings, element_names, hand_parts, payment_formula, rescored_arrangement, revealed
from .elements import ELEMENT_BY_CODE
from .rules import TianjinRules

__all__ = [
    "HINT_OFF_THREAD",
    "elements_detail",
    "fan_formula",
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


def elements_detail(codes: Sequence[str], rules: Rules | None = None) -> list[dict[str, Any]]:
    """Tianjin's elements of a win with their names and fan (R5); 天胡's value as these rules have
    it (R5.5: 4 fan flat, or ×4 the best fan), not both readings."""
    out = []
    for c in codes:
        e = ELEMENT_BY_CODE.get(c)
        d = e.to_dict() if e is not None else {"code": c, "chinese": c, "english": c, "value": ""}
        if c == "TIANHU" and rules is not None:
            best = getattr(rules, "tianhu", "flat") == "best_x4"
            d["value"], d["value_zh"] = ("×4", "×4") if best else ("4 fan", "4番")
        out.append(d)
    return out


def _short(english: str) -> str:
    """An element's English name without its gloss: "dragon (1-9 straight)" → "dragon"."""
    return english.split(" (")[0]


def fan_formula(codes: Sequence[str], fan: int, rules: Rules | None = None) -> tuple[str, str]:
    """How a Tianjin win's fan is made (R5.2), Chinese and English, from the scorer's elements:
    the core values added, times 2 per doubling element, e.g. ``(捉伍儿3 + 龙4) × 没混儿2 = 14`` and
    ``(catching the five 3 + dragon 4) × no wilds 2 = 14``; 天胡 (R5.5) 4 flat or ×4.  The scorer's
    ``fan`` is the authority: a formula that does not come to it is replaced by the fan alone."""
    known = [ELEMENT_BY_CODE[c] for c in codes if c in ELEMENT_BY_CODE]
    tianhu = "TIANHU" in codes
    best_x4 = getattr(rules, "tianhu", "flat") == "best_x4"
    if tianhu and not best_x4:  # R5.5 flat: 4 fan whatever the shape
        return "天胡4 = 4" if fan == 4 else f"{fan}", "heavenly hand 4 = 4" if fan == 4 else f"{fan}"
    cores = [e for e in known if e.core]
    doubles = [e for e in known if e.double]
    core = sum(e.core for e in cores) or 1
    zh_terms = [f"{e.chinese}{e.core}" for e in cores] or ["提溜1"]
    en_terms = [f"{_short(e.english)} {e.core}" for e in cores] or ["basic win 1"]
    zh, en = " + ".join(zh_terms), " + ".join(en_terms)
    if len(cores) > 1 and (doubles or tianhu):  # the sum first, then the doublings
        zh, en = f"({zh})", f"({en})"
    zh = " × ".join([zh, *(f"{e.chinese}2" for e in doubles)] + (["天胡4"] if tianhu else []))
    en = " × ".join([en, *(f"{_short(e.english)} 2" for e in doubles)] + (["heavenly hand 4"] if tianhu else []))
    total = core * 2 ** len(doubles) * (4 if tianhu else 1)
    if total != fan or len(known) != len(codes):
        log.warning("Tianjin fan %s explained as %s (%s)", fan, total, list(codes))
        return str(fan), str(fan)
    return f"{zh} = {fan}", f"{en} = {fan}"


def win_detail(hora: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """A Tianjin win as the settlement explains it (R5): its fan with the formula
    (:func:`fan_formula`) and each element (:func:`elements_detail`); the caller adds its
    ``arrangement``."""
    formula, formula_en = fan_formula(hora["elements"], hora["fan"], rules)
    return {
        "seat": hora["actor"],
        "tile": hora["pai"],
        "hand": hora["hand"],
        "melds": hora["melds"],
        "fan": hora["fan"],
        "name": hora["name"],
        "formula": formula,
        "formula_en": formula_en,
        "elements": elements_detail(hora["elements"], rules),
        "kong_draw": hora["kong_draw"],
        "tianhu": hora["tianhu"],
    }


_KONG_POINTS = {"kong": 1, "added_kong": 1, "ankong": 2}  # R6 (金杠: the rules' gold_kong_points)
_POT_ORDER = ("win", "kong", "chan", "penalty")  # R8: the order a pot (锅牌) pays in


def payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    payments: Sequence[dict[str, Any]], rules: TianjinRules,
                    hands: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each payment of a Tianjin hand with why it is that amount (R6–R8), as the engine computes it:
    ``why`` lists factors whose product is the amount — the units (``fan``: the hand's fan for a
    win; ``kong`` 明杠 1, ``added_kong`` 加杠 1, ``ankong`` 暗杠 2, ``gold_kong`` 金杠
    ``gold_kong_points``; ``chan`` 铲 ``chan_units``; ``penalty`` 打混罚 ``wild_discard_penalty``),
    ``base`` (底, when not 1), ``sit`` ×2 (坐庄: the dealer sat and is the payer or the payee) and
    one ``pull`` ×2 per pull (拉庄) of the non-dealer of a payment between the dealer and them.
    Under ``settlement: pot`` a payer pays at most what is left of their stake: a payment so cut
    has ``capped: true`` and ``full`` (the product).  ``formula``/``formula_en`` write it out
    (:func:`payment_formula`).  ``hands``: :meth:`Match.revealed_hands` (the kongs, in the order the
    engine pays them).  A payment the factors do not explain gets an empty ``why`` (and a warning
    in the log)."""
    dealer, sit, pulls = kyoku["dealer"], bool(kyoku["sit"]), kyoku["pulls"]
    wilds = set(kyoku["wilds"])
    tail = [{"key": "base", "times": rules.base}] if rules.base != 1 else []
    expected: list[tuple[str, int, int, list[dict[str, Any]]]] = []

    def add(reason: str, payer: int, payee: int, key: str, units: int) -> None:
        why = [{"key": key, "times": units}, *tail]
        if dealer in (payer, payee):  # R8: the multiplier between the dealer and another seat
            other = payee if payer == dealer else payer
            if sit:
                why.append({"key": "sit", "times": 2})
            why += [{"key": "pull", "times": 2} for _ in range(pulls[other])]
        if units:  # R8: a payment of 0 is not listed
            expected.append((reason, payer, payee, why))

    def each_other(payee: int, key: str, units: int, reason: str) -> None:
        for p in range(SEATS):
            if p != payee:
                add(reason, p, payee, key, units)

    if hora is not None:
        each_other(hora["actor"], "fan", hora["fan"], "win")
    if hora is not None or rules.kong_pay_on_draw:
        for s, h in enumerate(hands):
            for text in h["melds"]:
                m = Meld.parse(text)
                if m.type.is_kong:
                    gold = m.type.value == "ankong" and TILE_TEXT[m.tile] in wilds
                    key = "gold_kong" if gold else m.type.value
                    each_other(s, key, rules.gold_kong_points if gold else _KONG_POINTS[key], "kong")
    if any(e["type"] == "chan" for e in hand_events):
        for p in range(SEATS):
            if p != dealer:
                add("chan", dealer, p, "chan", rules.chan_units)
    for e in hand_events:
        if e["type"] == "dahai" and e.get("wild"):  # 小相公 (R2): the discarder pays each other seat
            for p in range(SEATS):
                if p != e["actor"]:
                    add("penalty", e["actor"], p, "penalty", rules.wild_discard_penalty)
    pot = rules.settlement == "pot"
    if pot:  # a stable sort, as the engine's: within a reason, the order made
        expected.sort(key=lambda x: _POT_ORDER.index(x[0]))
    out = []
    i = 0
    for pay in payments:
        d = dict(pay)
        why: list[dict[str, Any]] = []
        paid = (pay["reason"], pay["payer"], pay["payee"])
        while i < len(expected):
            reason, payer, payee, factors = expected[i]
            i += 1
            if (reason, payer, payee) == paid:
                why = factors
                break
            if not pot:  # only a pot leaves payments out (a stake used up pays 0)
                break
        product = 1
        for f in why:
            product *= f["times"]
        if not why or not (product == pay["amount"] or (pot and product > pay["amount"])):
            log.warning("Tianjin payment %s not explained by %s", pay, why)
            why = []
        elif product != pay["amount"]:
            d["capped"], d["full"] = True, product
        d["why"] = why
        d["formula"], d["formula_en"] = payment_formula(why, pay["amount"])
        out.append(d)
    return out


def win_arrangement(hora: dict[str, Any], kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    rules: TianjinRules) -> dict[str, Any] | None:
    """The win's best arrangement (:func:`tjmj.web.settlement.win_arrangement`), re-scored by
    :func:`tjmj.families.tianjin.score.score`, with the 龙's three groups (``dragon``)."""

    def rescore() -> tuple[bool, Any]:
        from .score import score

        t = score("".join(hora["hand"]), hora["pai"], kyoku["dora_marker"], hora["melds"],
                  kong_draw=hora["kong_draw"], tianhu=hora["tianhu"], rules=rules)
        return t.win and t.fan == hora["fan"] and t.codes == hora["elements"], t.arrangement

    return rescored_arrangement(hora, rescore)


def settlement_message(m: Match, rules: TianjinRules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None, where: str) -> dict[str, Any]:
    """A Tianjin hand's settlement (R5–R8): 坐庄, the pulls, 铲, the win explained
    (:func:`win_detail`) and every payment with its factors (:func:`payments_detail`)."""
    kyoku, end, hora = hand_parts(hand_events)
    chan = next((e for e in hand_events if e["type"] == "chan"), None)
    hands = revealed(m, kyoku, where)
    payments = payments_detail(hora, kyoku, hand_events, end["payments"], rules, hands or [])
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": kyoku["dealer"],
        "sit": kyoku["sit"],
        "pulls": kyoku["pulls"],
        "indicator": kyoku["dora_marker"],
        "wilds": kyoku["wilds"],
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": None,
        "chan": chan["pai"] if chan else None,
        "hands": hands,
        "payments": payments,
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    if hora:
        win = win_detail(hora, rules)
        win["arrangement"] = win_arrangement(hora, kyoku, hand_events, rules)
        msg["win"] = win
    add_standings(m, msg, names)
    return msg


# ---- the table --------------------------------------------------------------------------------------


def rules_brief(rules: Rules) -> dict[str, Any]:
    """What the table shows of these rules besides what every family has (the pulls: ``max_pull``,
    there already)."""
    return {}


# ---- the hint ---------------------------------------------------------------------------------------


def hint_available() -> bool:
    """The advisor is part of the package: always."""
    return True


def hint_inputs(m: Match, seat: int) -> tuple[Match, int]:
    """The hint is computed on the loop from the match itself (:data:`HINT_OFF_THREAD` is False)."""
    return m, seat


def hint_compute(inputs: tuple[Match, int]) -> list[dict[str, Any]]:
    """The hint of ``(m, seat)`` (:func:`tjmj.web.hints.hint`), by
    :func:`tjmj.families.tianjin.advise.advise`: shanten, live improving tiles and, when ready,
    what the 13 tiles left wait on with their fan and live copies (the indicator counts as seen)."""
    from .advise import advise  # the waits tables are only needed when someone asks

    m, seat = inputs
    rules = cast(TianjinRules, m.rules)  # the family's own match
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    visible = visible_counts(m, obs)
    visible[Tile.parse(obs["indicator"])] += 1
    # what the advisor does not count itself: all but the seat's hand, own melds and the indicator
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen_counts[Tile.parse(obs["indicator"])] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = split_draw(obs, hand)
    xxg = bool(obs["seats"][seat].get("xiaoxianggong"))
    a = advise(rest, draw, obs["indicator"], own_melds, seen=seen, rules=rules, xiaoxianggong=xxg,
               wall_left=obs.get("wall_left"))
    by_tile = {o.tile: o for o in a.discards}
    wilds = set(obs["wilds"])
    out = []
    candidates = sorted({a.tile for a in m.legal_actions(seat) if a.type == "discard" and a.tile is not None})
    for k in candidates:
        o = by_tile[k]
        entries = [
            {
                "tile": TILE_TEXT[x.tile],
                "fan": x.fan,
                "name": x.name,
                "win": x.win,
                "elements": x.codes,
                "live": max(0, 4 - visible[x.tile]),
                **({"reason": x.reason} if x.reason else {}),
            }
            for x in o.waits
        ]
        entry: dict[str, Any] = {
            "tile": TILE_TEXT[k], "wild": TILE_TEXT[k] in wilds, "shanten": o.shanten, "hundiao": o.hundiao,
            "waits": entries, "rank": o.rank, "improving": o.improving_count,
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in o.improving],
            **hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out
