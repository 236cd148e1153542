"""What the pages show of a finished hand and of a stored match, for the three families.

:func:`settlement_message`: a hand's settlement, the win explained element by element (or fan by
fan) and every payment with its formula; :func:`named`: events with their elements' names;
:func:`frames`: a stored match step by step, for the replay page.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ..families.tianjin.elements import ELEMENT_BY_CODE
from ..game import Action, Match
from ..meld import Meld
from ..record import rebuild
from ..rules import BeijingRules, McrRules, Rules, TianjinRules
from ..tiles import TILE_TEXT, Tile
from ..wall import SEATS
from .hints import _MCR_WINDS

__all__ = [
    "FACTOR_NAMES",
    "WINDS",
    "WINDS_CN",
    "beijing_payments_detail",
    "beijing_win_detail",
    "elements_detail",
    "frames",
    "mcr_arrangement",
    "mcr_payments_detail",
    "mcr_win_detail",
    "named",
    "payment_formula",
    "settlement_message",
    "tianjin_fan_formula",
    "tianjin_payments_detail",
    "win_arrangement",
]

log = logging.getLogger("tjmj.web")

WINDS = ("E", "S", "W", "N")
WINDS_CN = ("东", "南", "西", "北")


def frames(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One frame per step of a stored match: the events of that step and the whole state after it."""
    out: list[dict[str, Any]] = []

    def step(m: Match, action: Action | None, new: list[dict[str, Any]]) -> None:
        if new:
            out.append({"events": named(new, m.rules.family), "state": m.full_view()})

    rebuild(events, step)
    return out


def named(events: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    """Events as the pages show them: a win also carries its elements' names (``elements_detail``:
    code, Chinese, English; written once, in the element classes), so a log line or a replay reads in
    either language.  The record itself keeps the codes only."""
    if not any(e.get("type") == "hora" for e in events):
        return events
    if family == "mcr":
        return [{**e, "elements_detail": _mcr_fan_names(e)} if e.get("type") == "hora" else e for e in events]
    if family == "beijing":
        from ..families.beijing.elements import ELEMENT_BY_CODE as BEIJING_ELEMENTS

        table: Any = BEIJING_ELEMENTS
    else:
        table = ELEMENT_BY_CODE
    out = []
    for e in events:
        if e.get("type") == "hora" and isinstance(e.get("elements"), list):
            detail = []
            for c in e["elements"]:
                el = table.get(c)
                detail.append({"code": c, "chinese": el.chinese if el else c, "english": el.english if el else c})
            e = {**e, "elements_detail": detail}
        out.append(e)
    return out


def _mcr_fan_names(hora: dict[str, Any]) -> list[dict[str, Any]]:
    """An MCR win's fans by name (M3), from its ``fans`` (code, Chinese name, value, count; or its
    ``elements`` codes): code, Chinese, English, a fan counted n times marked ``×n``."""
    from ..families.mcr.fans import FAN_BY_CODE

    fans = hora.get("fans")
    if not isinstance(fans, list):
        fans = [{"code": c, "count": 1} for c in hora.get("elements") or []]
    out = []
    for f in fans:
        fan = FAN_BY_CODE.get(f.get("code", ""))
        zh = fan.chinese if fan is not None else f.get("name") or f.get("code", "")
        en = fan.english if fan is not None else f.get("code", "")
        times = f"×{f['count']}" if f.get("count", 1) > 1 else ""
        out.append({"code": f.get("code"), "chinese": zh + times, "english": en + (f" {times}" if times else "")})
    return out


def mcr_win_detail(hora: dict[str, Any], rules: McrRules) -> dict[str, Any]:
    """An MCR win as the settlement explains it (M3, M4): each fan with its Chinese and English
    names, its value and how many times it counts (花牌, the flowers, last: not part of ``fan``,
    which the 8-fan minimum is judged on), and the sum: ``formula`` / ``formula_en``, e.g.
    ``24番 + 花牌 2 = 26`` / ``24 fan + 2 flowers = 26``."""
    from ..families.mcr.fans import FAN_BY_CODE

    fans = []
    for f in hora.get("fans") or []:
        fan = FAN_BY_CODE.get(f["code"])
        fans.append({"code": f["code"], "chinese": f.get("name") or (fan.chinese if fan else f["code"]),
                     "english": fan.english if fan is not None else f["code"], "fan": f["fan"],
                     "count": f["count"], "total": f["fan"] * f["count"], "flower": f["code"] == "flower_tiles"})
    fan, flowers, total = hora["fan"], hora.get("flowers", 0), hora.get("total", hora["fan"])
    if flowers:
        formula = f"{fan}番 + 花牌 {flowers} = {total}"
        formula_en = f"{fan} fan + {flowers} flower{'s' if flowers > 1 else ''} = {total}"
    else:
        formula, formula_en = f"{fan}番", f"{fan} fan"
    counted = sum(f["total"] for f in fans if not f["flower"])
    if counted != fan:  # the engine is the authority: its sum, whatever the list says
        log.warning("MCR fan %s listed as %s (%s)", fan, counted, hora.get("fans"))
    target = hora.get("target")
    return {
        "seat": hora["actor"],
        "tile": hora["pai"],
        "hand": hora["hand"],
        "melds": hora["melds"],
        "fan": fan,
        "flowers": flowers,
        "total": total,
        "min_fan": rules.min_fan,
        "name": hora["name"],
        "fans": fans,
        "formula": formula,
        "formula_en": formula_en,
        "self_drawn": bool(hora.get("self_drawn")),
        "rob_kong": bool(hora.get("rob_kong")),
        "about_kong": bool(hora.get("about_kong")),
        "wall_last": bool(hora.get("wall_last")),
        "fourth_tile": bool(hora.get("fourth_tile")),
        "from": target if not hora.get("self_drawn") and target != hora["actor"] else None,
    }


def mcr_payments_detail(hora: dict[str, Any] | None, payments: Sequence[dict[str, Any]],
                        rules: McrRules) -> list[dict[str, Any]]:
    """Each payment of an MCR hand with how it is reached (M4): the discarder of a discard win (or
    the robbed kong's declarer) pays 8 + the total, each other player 8; a self-drawn win, 8 + the
    total each; all times ``base``.  ``terms`` are the summands (``[8, 24]`` or ``[8]``),
    ``formula`` / ``formula_en`` the sum: ``8 + 24 = 32``, ``8``, ``(8 + 24) × 2 = 64``.  A payment
    the rule does not explain gets its amount alone (and a warning in the log)."""
    from ..families.mcr.rules import BASIC_PAYMENT

    base = rules.base
    out = []
    for pay in payments:
        d = dict(pay)
        terms: list[int] = []
        if hora is not None and pay["reason"] == "win":
            source = None if hora.get("self_drawn") else hora.get("target")
            total = hora.get("total", hora["fan"])
            terms = [BASIC_PAYMENT, total] if source is None or pay["payer"] == source else [BASIC_PAYMENT]
        amount = sum(terms) * base
        if not terms or amount != pay["amount"]:
            if terms:
                log.warning("MCR payment %s not explained by %s × %s", pay, terms, base)
            terms = []
            formula = str(pay["amount"])
        else:
            text = " + ".join(map(str, terms))
            formula = text if len(terms) == 1 else f"{text} = {sum(terms)}"
            if base != 1:
                formula = (f"({text})" if len(terms) > 1 else text) + f" × {base} = {amount}"
        d["terms"], d["base"] = terms, base
        d["formula"] = d["formula_en"] = formula
        out.append(d)
    return out


def mcr_arrangement(hora: dict[str, Any], rules: McrRules) -> dict[str, Any] | None:
    """The winning arrangement of an MCR win, re-scored from its ``hora`` event (M3):
    ``shape`` (``standard``, ``seven_pairs``, ``thirteen_orphans``, ``knitted``,
    ``knitted_straight``, ``nine_gates``) and ``groups`` (``kind``: ``chow``, ``pung``, ``kong``,
    ``pair``, ``knitted``, ``single``; ``tiles``; ``concealed``; ``winning``: the winning tile's
    index in the group that holds it, else null), and ``winning_group``.  None when re-scoring does
    not give the engine's fan (logged: the engine is the authority)."""
    try:
        from ..families.mcr.score import McrMeld, McrSituation, score_mcr

        melds = []
        for text, c in zip(hora["melds"], hora.get("claims") or [{}] * len(hora["melds"]), strict=True):
            mt = Meld.parse(text)
            claimed = Tile.parse(c["claimed"]) if c.get("claimed") else None
            melds.append(McrMeld(type=mt.type.value, tile=mt.tile, claimed=claimed, offer=int(c.get("offer") or 0)))
        sit = McrSituation(self_drawn=bool(hora["self_drawn"]), fourth_tile=bool(hora.get("fourth_tile")),
                           about_kong=bool(hora.get("about_kong")), wall_last=bool(hora.get("wall_last")),
                           seat_wind=int(hora.get("seat_wind") or 0), prevalent_wind=int(hora.get("prevalent_wind") or 0),
                           flowers=int(hora.get("flowers") or 0))
        res = score_mcr([Tile.parse(x) for x in hora["hand"]], Tile.parse(hora["pai"]), melds, sit,
                        min_fan=rules.min_fan)
        if not res.win or res.fan != hora["fan"] or [f.code for f in res.fans] != list(hora["elements"]):
            log.warning("re-scoring the MCR win %s does not give the engine's result", hora)
            return None
        groups = [g.to_dict() for g in res.groups]
    except (ValueError, KeyError, TypeError) as e:  # InvalidMcrHand and TileError are ValueErrors
        log.warning("the MCR win %s cannot be re-scored: %s", hora, e)
        return None
    # the winning tile is in a group the hand made, not in a declared meld: the melds' groups are
    # matched first, then the first other group holding the tile is the winning one
    fixed = [sorted(TILE_TEXT[t] for t in Meld.parse(x).tiles) for x in hora["melds"]]
    winning_group = None
    for i, g in enumerate(groups):
        g["winning"] = None
        if g["kind"] == "kong" and g["concealed"]:
            g["kind"] = "ankong"  # 暗杠, as the other families name a concealed kong
        key = sorted(g["tiles"])
        if key in fixed and (not g["concealed"] or len(key) == 4):  # a claimed meld, or a concealed kong
            fixed.remove(key)
            continue
        if winning_group is None and hora["pai"] in g["tiles"]:
            winning_group = i
            g["winning"] = g["tiles"].index(hora["pai"])
    return {"shape": res.shape, "groups": groups, "winning_group": winning_group}


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


def tianjin_fan_formula(codes: Sequence[str], fan: int, rules: Rules | None = None) -> tuple[str, str]:
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


def beijing_win_detail(hora: dict[str, Any], rules: BeijingRules) -> dict[str, Any]:
    """A Beijing win as the settlement explains it (B5): each element with its names, its value in
    the rules' column (``×n`` in version B, ``+n`` in version A, a flat 40) and whether it counts in
    the value, and the sum or product that makes the value: ``formula`` (Chinese names) and
    ``formula_en``, e.g. ``一条龙 ×2 · 门清 ×2 · 自摸 ×2 · 无混儿 ×2 = 16``; version A halves an open
    hand (``halved``), ``cap`` bounds the value (``capped``)."""
    from ..families.beijing.elements import ELEMENT_BY_CODE as BEIJING_ELEMENTS
    from ..families.beijing.elements import MULTIPLY

    scoring = rules.scoring
    codes = list(hora["elements"])
    elements: list[dict[str, Any]] = []
    zh: list[str] = []
    en: list[str] = []
    flat: tuple[int, str, str] | None = None
    product, total = 1, 0
    for code in codes:
        e = BEIJING_ELEMENTS.get(code)
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


def beijing_payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
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


# How each factor of a payment's ``why`` reads in its formula, (Chinese, English): Tianjin's (R6–R8)
# and Beijing's (B6).  ``fan`` reads "2番" / "2 fan"; the others name then number, "坐庄2" / "sit 2".
FACTOR_NAMES: dict[str, tuple[str, str]] = {
    "fan": ("番", "fan"),
    "kong": ("明杠", "discard kong"),
    "added_kong": ("加杠", "added kong"),
    "ankong": ("暗杠", "concealed kong"),
    "gold_kong": ("金杠", "gold kong"),
    "chan": ("铲", "chan"),
    "penalty": ("打混罚", "wild discard"),
    "sit": ("坐庄", "sit"),
    "pull": ("拉庄", "pull"),
    "base": ("底分", "base"),
    "value": ("点数", "value"),
    "dianpao": ("点炮", "dealt in"),
    "discarder": ("包三家", "discarder pays all"),
    "rob_kong": ("抢杠包三家", "robbed kong pays all"),
    "mutual": ("互包", "tied"),
    "hunyou": ("混儿悠被截", "混儿悠 cut short"),
    "shaozhuang": ("烧庄", "烧庄"),
    "shaozhuang_rounds": ("连烧", "烧庄 again"),
    "upstairs": ("上楼", "upstairs"),
}


def payment_formula(why: Sequence[dict[str, Any]], amount: int) -> tuple[str, str]:
    """A payment's factors as a product, Chinese and English: ``2番 × 坐庄2 × 拉庄2 = 8``; when the
    product is more than the amount, the pot (锅牌, R8) held less: ``…= 8；锅里只剩5 → 5``.  No
    factors: the amount alone."""
    if not why:
        return str(amount), str(amount)
    zh, en = [], []
    product = 1
    for f in why:
        n = f["times"]
        product *= n
        name_zh, name_en = FACTOR_NAMES.get(f["key"], (f["key"], f["key"]))
        if f["key"] == "fan":
            zh.append(f"{n}番")
            en.append(f"{n} fan")
        else:
            zh.append(f"{name_zh}{n}")
            en.append(f"{name_en} {n}")
    formula, formula_en = " × ".join(zh) + f" = {product}", " × ".join(en) + f" = {product}"
    if product != amount:
        formula += f"；锅里只剩{amount} → {amount}"
        formula_en += f"; only {amount} left in the pot → {amount}"
    return formula, formula_en


_KONG_POINTS = {"kong": 1, "added_kong": 1, "ankong": 2}  # R6 (金杠: the rules' gold_kong_points)
_POT_ORDER = ("win", "kong", "chan", "penalty")  # R8: the order a pot (锅牌) pays in


def tianjin_payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
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
                    rules: Rules) -> dict[str, Any] | None:
    """The win's best arrangement, re-scored from its ``hora`` event under the hand's rules, in the
    form of ``tjmj score --batch``: ``groups`` (each ``kind``, ``tiles``, ``plays`` — the kind each
    tile plays, a wild the kind it stands for —, ``wild``, and ``winning``: the winning tile's index
    in that group, or null) and ``winning_group`` (the index of the group holding the winning
    tile); Tianjin adds ``dragon`` (the 龙's three groups), Beijing ``shape`` and ``wild``.  None for
    a win without an arrangement (混杠), or when re-scoring does not give the engine's result
    (logged: the engine is the authority)."""
    try:
        if isinstance(rules, BeijingRules):
            from ..families.beijing.elements import WinContext
            from ..families.beijing.score import score_beijing

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
            same = b.win and b.value == hora["value"] and b.codes == codes
            a: Any = b.arrangement
        elif isinstance(rules, TianjinRules):
            from ..families.tianjin.score import score

            t = score("".join(hora["hand"]), hora["pai"], kyoku["dora_marker"], hora["melds"],
                      kong_draw=hora["kong_draw"], tianhu=hora["tianhu"], rules=rules)
            same = t.win and t.fan == hora["fan"] and t.codes == hora["elements"]
            a = t.arrangement
        else:
            return None
    except (ValueError, KeyError, TypeError) as e:  # TileError is a ValueError
        log.warning("the win %s cannot be re-scored: %s", hora, e)
        return None
    if not same:
        log.warning("re-scoring the win %s does not give the engine's result", hora)
        return None
    if a is None:
        return None
    d: dict[str, Any] = a.to_dict()
    d["winning_group"] = next((i for i, g in enumerate(a.groups) if g.winning is not None), None)
    return d


def settlement_message(m: Match, rules: Rules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None = None, where: str = "match") -> dict[str, Any]:
    """The settlement of one finished hand (``hand_events``: its ``start_kyoku`` … ``end_kyoku``) as
    the web table's ``settlement`` message (docs/web.md): the win explained element by element (or
    fan by fan), every payment with its formula, every hand face up (``Match.revealed_hands``), the
    scores and, once the match is over, the standings.  ``m`` is the match just after that hand
    (the engine keeps its hands); ``names`` by seat; ``next_delay`` the pause before the next hand.
    The web room and the terminal table (``tjmj play``) both show this."""
    if isinstance(rules, BeijingRules):
        return _beijing_settlement(m, hand_events, rules, names, next_delay, where)
    if isinstance(rules, McrRules):
        return _mcr_settlement(m, hand_events, rules, names, next_delay, where)
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    chan = next((e for e in hand_events if e["type"] == "chan"), None)
    hands = _revealed(m, kyoku, where)
    payments = (tianjin_payments_detail(hora, kyoku, hand_events, end["payments"], rules, hands or [])
                if isinstance(rules, TianjinRules) else end["payments"])
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
        formula, formula_en = tianjin_fan_formula(hora["elements"], hora["fan"], rules)
        msg["win"] = {
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
            "arrangement": win_arrangement(hora, kyoku, hand_events, rules),
        }
    _standings(m, msg, names)
    return msg


def _revealed(m: Match, kyoku: dict[str, Any], where: str) -> list[dict[str, Any]] | None:
    """Every seat's hand in the hand that just ended, face up (the engine says they are public
    now).  The settlement is built after the engine has moved on to the next hand (or ended the
    match), so the hand is named; while it is stored nothing else can end."""
    try:
        return m.revealed_hands(kyoku["hand"])
    except ValueError as e:  # not expected: the engine keeps the last hand that ended
        log.error("%s: the hands of hand %s cannot be shown: %s", where, kyoku["hand"], e)
        return None


def _standings(m: Match, msg: dict[str, Any], names: list[str]) -> None:
    if m.is_over:
        order = sorted(range(SEATS), key=lambda s: -m.scores[s])
        msg["standings"] = [{"rank": r + 1, "seat": s, "name": names[s], "score": m.scores[s]}
                            for r, s in enumerate(order)]


def _beijing_settlement(m: Match, hand_events: list[dict[str, Any]], rules: BeijingRules,
                        names: list[str], next_delay: float | None, where: str) -> dict[str, Any]:
    """A Beijing hand's settlement (B5, B6): the win explained (:func:`beijing_win_detail`) and
    every payment with its factors (:func:`beijing_payments_detail`); no 坐庄, 拉庄 or 铲."""
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    rounds = max((int(e.get("rounds") or 0) for e in hand_events if e["type"] == "shaozhuang"), default=0)
    win = None
    if hora:
        win = beijing_win_detail(hora, rules)
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
        "hands": _revealed(m, kyoku, where),
        "payments": beijing_payments_detail(hora, kyoku, hand_events, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    _standings(m, msg, names)
    return msg


def _mcr_settlement(m: Match, hand_events: list[dict[str, Any]], rules: McrRules,
                    names: list[str], next_delay: float | None, where: str) -> dict[str, Any]:
    """An MCR hand's settlement (M3, M4): the winds of the hand, every seat's flowers, the win
    explained fan by fan (:func:`mcr_win_detail`) with its arrangement (:func:`mcr_arrangement`),
    and every payment with its sum (:func:`mcr_payments_detail`)."""
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    for e in hand_events:
        if e["type"] == "flower":
            flowers[e["actor"]].append(e["pai"])
    hands = _revealed(m, kyoku, where)
    if hands is not None:
        hands = [{**h, "flowers": flowers[s]} for s, h in enumerate(hands)]
    win = None
    if hora:
        win = mcr_win_detail(hora, rules)
        win["arrangement"] = mcr_arrangement(hora, rules)
    dealer = kyoku["dealer"]
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "preset": rules.name.split("+")[0],
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": dealer,
        "prevalent_wind": _MCR_WINDS[int(kyoku.get("prevalent_wind") or 0) % SEATS],
        "seat_winds": [_MCR_WINDS[(s - dealer) % SEATS] for s in range(SEATS)],
        "flowers": flowers,
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": win,
        "hands": hands,
        "payments": mcr_payments_detail(hora, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    _standings(m, msg, names)
    return msg
