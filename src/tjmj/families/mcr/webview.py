"""What the web table (and the terminal table) shows of an MCR hand: the settlement explained
(M3, M4: each fan with its value, the flowers, every payment's sum, the winning arrangement) and
the hint (the discards ranked by :func:`tjmj.families.mcr.waits.mcr_waits`, computed in a worker
thread: up to a second on a far hand).  The protocol is the docstrings of
:mod:`tjmj.web.settlement` and :mod:`tjmj.web.hints`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

from ...game import Match
from ...meld import Meld
from ...tiles import TILE_TEXT, Tile
from ...wall import SEATS
from ...web.hints import visible_counts
from ...web.settlement import WINDS, add_standings, hand_parts, revealed
from .fans import FAN_BY_CODE
from .rules import BASIC_PAYMENT, McrRules

__all__ = [
    "HINT_OFF_THREAD",
    "arrangement",
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

# the hint takes up to a second on a far hand (the shanten of every shape after every discard and
# draw): its inputs are copied on the loop and it is computed in a worker thread
HINT_OFF_THREAD = True


# ---- the settlement ---------------------------------------------------------------------------------


def win_names(hora: dict[str, Any]) -> list[dict[str, Any]]:
    """An MCR win's fans by name (M3), from its ``fans`` (code, Chinese name, value, count; or its
    ``elements`` codes): code, Chinese, English, a fan counted n times marked ``×n``."""
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


def win_detail(hora: dict[str, Any], rules: McrRules) -> dict[str, Any]:
    """An MCR win as the settlement explains it (M3, M4): each fan with its Chinese and English
    names, its value and how many times it counts (花牌, the flowers, last: not part of ``fan``,
    which the 8-fan minimum is judged on), and the sum: ``formula`` / ``formula_en``, e.g.
    ``24番 + 花牌 2 = 26`` / ``24 fan + 2 flowers = 26``."""
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


def payments_detail(hora: dict[str, Any] | None, payments: Sequence[dict[str, Any]],
                        rules: McrRules) -> list[dict[str, Any]]:
    """Each payment of an MCR hand with how it is reached (M4): the discarder of a discard win (or
    the robbed kong's declarer) pays 8 + the total, each other player 8; a self-drawn win, 8 + the
    total each; all times ``base``.  ``terms`` are the summands (``[8, 24]`` or ``[8]``),
    ``formula`` / ``formula_en`` the sum: ``8 + 24 = 32``, ``8``, ``(8 + 24) × 2 = 64``.  A payment
    the rule does not explain gets its amount alone (and a warning in the log)."""
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


def arrangement(hora: dict[str, Any], rules: McrRules) -> dict[str, Any] | None:
    """The winning arrangement of an MCR win, re-scored from its ``hora`` event (M3):
    ``shape`` (``standard``, ``seven_pairs``, ``thirteen_orphans``, ``knitted``,
    ``knitted_straight``, ``nine_gates``) and ``groups`` (``kind``: ``chow``, ``pung``, ``kong``,
    ``pair``, ``knitted``, ``single``; ``tiles``; ``concealed``; ``winning``: the winning tile's
    index in the group that holds it, else null), and ``winning_group``.  None when re-scoring does
    not give the engine's fan (logged: the engine is the authority)."""
    try:
        from .score import McrMeld, McrSituation, score_mcr

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


def win_arrangement(hora: dict[str, Any], kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    rules: McrRules) -> dict[str, Any] | None:
    """The win's arrangement (:func:`tjmj.web.settlement.win_arrangement`): :func:`arrangement`."""
    return arrangement(hora, rules)


def settlement_message(m: Match, rules: McrRules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None, where: str) -> dict[str, Any]:
    """An MCR hand's settlement (M3, M4): the winds of the hand, every seat's flowers, the win
    explained fan by fan (:func:`win_detail`) with its arrangement (:func:`arrangement`), and every
    payment with its sum (:func:`payments_detail`)."""
    kyoku, end, hora = hand_parts(hand_events)
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    for e in hand_events:
        if e["type"] == "flower":
            flowers[e["actor"]].append(e["pai"])
    hands = revealed(m, kyoku, where)
    if hands is not None:
        hands = [{**h, "flowers": flowers[s]} for s, h in enumerate(hands)]
    win = None
    if hora:
        win = win_detail(hora, rules)
        win["arrangement"] = arrangement(hora, rules)
    dealer = kyoku["dealer"]
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "preset": rules.name.split("+")[0],
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": dealer,
        "prevalent_wind": WINDS[int(kyoku.get("prevalent_wind") or 0) % SEATS],
        "seat_winds": [WINDS[(s - dealer) % SEATS] for s in range(SEATS)],
        "flowers": flowers,
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": win,
        "hands": hands,
        "payments": payments_detail(hora, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    add_standings(m, msg, names)
    return msg


# ---- the table --------------------------------------------------------------------------------------


def rules_brief(rules: McrRules) -> dict[str, Any]:
    """What the table shows of these rules besides what every family has: the flowers and the
    fewest fan to win."""
    return {"flowers": rules.flowers, "min_fan": rules.min_fan}


# ---- the hint ---------------------------------------------------------------------------------------


def hint_available() -> bool:
    """Whether the waits module is installed (it may be missing from an installation: then the table
    says hints are not available, rather than guess)."""
    try:
        from . import waits  # noqa: F401
    except ImportError:
        return False
    return True


def hint_inputs(m: Match, seat: int) -> dict[str, Any] | None:
    """What :func:`hint_compute` needs, copied from the match (it then runs in a worker thread while
    the match goes on); None when the waits module is missing."""
    try:
        from . import waits  # noqa: F401
        from .score import McrMeld
    except ImportError:
        return None
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    st = m.seats[seat]
    info = list(getattr(st, "meld_info", [])) or [(None, 0)] * len(st.melds)
    melds = [McrMeld(type=x.type.value, tile=x.tile, claimed=c, offer=o) for x, (c, o) in zip(st.melds, info)]
    winds = obs.get("seat_winds") or list(WINDS)
    seat_wind = WINDS.index(winds[seat]) if winds[seat] in WINDS else 0
    prevalent = obs.get("prevalent_wind")
    prevalent_wind = WINDS.index(prevalent) if prevalent in WINDS else 0
    legal = m.legal_actions(seat)
    return {"hand": hand, "melds": melds, "seat_wind": seat_wind, "prevalent_wind": prevalent_wind,
            "visible": visible_counts(m, obs), "min_fan": cast(McrRules, m.rules).min_fan,
            "discards": sorted({x.tile for x in legal if x.type == "discard" and x.tile is not None})}


def hint_compute(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """MCR's hint (M2, M3) from :func:`hint_inputs` (a pure function of them), by
    :func:`tjmj.families.mcr.waits.mcr_waits`: for each legal discard, the shanten of the tiles
    left (over every shape of M3), the live tiles that lower it and, when ready, each winning tile
    with its fan self-drawn (``fan``, ``name``, ``fans``) and on a discard (``discard``), and
    ``win``: whether it reaches ``min_fan`` (8) not counting flowers.  Ranked by the live winning
    tiles times their fan, then the shanten and the improving tiles."""
    from .waits import mcr_waits, shanten_mcr

    hand, melds, visible, min_fan = inputs["hand"], inputs["melds"], inputs["visible"], inputs["min_fan"]
    seat_wind, prevalent_wind = inputs["seat_wind"], inputs["prevalent_wind"]
    out: list[dict[str, Any]] = []
    for k in inputs["discards"]:
        rest = list(hand)
        rest.remove(k)
        ws = mcr_waits(rest, melds, seat_wind=seat_wind, prevalent_wind=prevalent_wind, min_fan=min_fan)
        counts = [0] * 34
        for t in rest:
            counts[t] += 1
        improving = []
        for d in range(34):
            live = max(0, 4 - visible[d])  # the discard stays seen: in the pond instead of the hand
            if not live or counts[d] >= 4:
                continue
            counts[d] += 1
            if shanten_mcr(counts, len(melds)) < ws.shanten:
                improving.append((d, live))
            counts[d] -= 1
        waits: list[dict[str, Any]] = []
        for w in ws.waits:
            drawn, claimed = w.self_drawn, w.discard
            waits.append({
                "tile": TILE_TEXT[w.tile],
                "fan": drawn.fan,
                "name": drawn.names,
                "win": drawn.win,
                "fans": [{"code": f.code, "name": f.chinese, "en": f.english, "fan": f.fan, "count": f.count}
                         for f in drawn.fans],
                "live": max(0, 4 - visible[w.tile]),
                "discard": {"fan": claimed.fan, "win": claimed.win},
            })
        winning = [w for w in waits if w["win"] or w["discard"]["win"]]
        ev = sum(w["live"] * w["fan"] for w in winning)
        n_live = sum(w["live"] for w in winning)
        best = max((w["fan"] for w in winning), default=0)
        if winning:
            kinds = f"{len(winning)} winning tile{'s' if len(winning) > 1 else ''}"
            summary = f"ready: {kinds}, {n_live} live, up to {best} fan"
            summary_zh = f"听牌：{len(winning)} 种和张，剩 {n_live} 张，最多 {best} 番"
        elif waits:
            summary = f"ready, but no wait reaches {min_fan} fan"
            summary_zh = f"听牌，但不够 {min_fan} 番起和"
        else:
            n_imp = sum(n for _, n in improving)
            summary = f"{ws.shanten} from ready, {n_imp} tiles improve"
            summary_zh = f"{ws.shanten} 向听，{n_imp} 张进张"
        out.append({
            "tile": TILE_TEXT[k], "wild": False, "shanten": ws.shanten, "waits": waits,
            "improving": sum(n for _, n in improving),
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in improving],
            "ev": ev, "summary": summary, "summary_zh": summary_zh,
        })
    # a live win first (by live tiles × fan), then nearer to ready, then more tiles that improve
    order = sorted(out, key=lambda e: (-(e["ev"] > 0), -e["ev"], e["shanten"], -e["improving"], e["tile"]))
    for rank, e in enumerate(order, 1):
        e["rank"] = rank
    return order
