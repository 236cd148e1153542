"""The web table's hint (the terminal table shows it too): for each legal discard, what is left
to ready, the tiles that improve, and the win it may lead to, best first; Tianjin's by
:func:`hint`, Beijing's and MCR's by their families' advisors (MCR's computed in a worker thread),
and the expert search a hint may carry (:func:`hint_search_bot`, :data:`HINT_SEARCH_MS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..game import Match
from ..meld import Meld
from ..rules import BeijingRules, McrRules, Rules, TianjinRules
from ..tiles import TILE_TEXT, Tile

if TYPE_CHECKING:
    from ..bots.expert import ExpertBot

__all__ = [
    "HINT_SEARCH_MS",
    "hint",
    "hint_available",
    "hint_search_bot",
]

# the time the expert search behind a hint may take (ms): shorter than a bot seat's 200 ms, since a
# person is waiting for it; Lobby(hint_search_ms=None) gives hints without the search part
HINT_SEARCH_MS = 100.0


def _meld_tiles(melds: Sequence[str]) -> list[list[int]]:
    """The kinds of the tiles of each meld text (a chi is three kinds, a kong four)."""
    return [[int(t) for t in Meld.parse(text).tiles] for text in melds]


def _visible_counts(m: Match, obs: dict[str, Any]) -> list[int]:
    """Copies of each kind the seat of ``obs`` sees: its hand, every meld and every discard.  A
    claimed tile lies in a meld and in its discarder's list too; the claims of the hand (public
    events) say which tile that was, so it is counted once."""
    visible = [0] * 34
    for t in obs["hand"]:
        visible[Tile.parse(t)] += 1
    for st in obs["seats"]:
        for t in st["discards"]:
            visible[Tile.parse(t)] += 1
        for tiles in _meld_tiles(st["melds"]):
            for k in tiles:
                visible[k] += 1
    for ev in reversed(m.events):
        if ev["type"] == "start_kyoku":
            break
        if ev["type"] in ("pon", "chi", "daiminkan"):
            visible[Tile.parse(ev["pai"])] -= 1
    return visible


def hint(m: Match, seat: int) -> list[dict[str, Any]]:
    """For each discard the seat may make now, ranked by the family's advisor (:mod:`tjmj.families.tianjin.advise`,
    :mod:`tjmj.families.beijing.advise`): shanten, live improving tiles and, when ready, what the 13
    tiles left wait on, with fan (Tianjin) or value (Beijing) and live copies.

    ``live`` counts copies not visible to this seat: its hand, every meld, every discard and the
    indicator (Beijing's 混坯 while it lies face up).  Each entry also has ``rank`` (1 = best: by the
    expected value of a legal win, docs/advise.md), ``improving`` (live tiles that lower the shanten),
    ``improving_tiles``, ``win_chance`` and ``expected`` (the chance of a legal win within the draws
    the wall leaves, and that times its fan or points), ``legal_shanten``, ``dead`` (ready, no live
    legal win: 死提溜), ``any_tile`` (wins on any tile: 混儿吊 / 混儿悠), ``summary`` and
    ``summary_zh`` (one line each) and, when ready, ``ev`` (Σ live × fan, or × value, over the
    winning draws).
    """
    rules = m.rules
    if isinstance(rules, BeijingRules):
        return _beijing_hint(m, seat, rules)
    if isinstance(rules, McrRules):
        return _mcr_hint(m, seat, rules) or []
    if not isinstance(rules, TianjinRules):
        return []
    from ..families.tianjin.advise import advise  # the waits tables are only needed when someone asks

    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    visible = _visible_counts(m, obs)
    visible[Tile.parse(obs["indicator"])] += 1
    # what the advisor does not count itself: all but the seat's hand, own melds and the indicator
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in _meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen_counts[Tile.parse(obs["indicator"])] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = _split_draw(obs, hand)
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
            **_hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out


def _hint_outlook(o: Any) -> dict[str, Any]:
    """The advisor's figures of one option for a hint entry (either family's ``Option``)."""
    d: dict[str, Any] = {
        "win_chance": round(o.win_chance, 3), "expected": round(o.expected, 2), "legal_shanten": o.legal_shanten,
        "dead": o.dead, "any_tile": o.any_tile, "summary": o.summary, "summary_zh": o.summary_zh,
    }
    if o.legal_improving is not None:
        d["legal_improving"] = o.legal_improving
    return d


def _split_draw(obs: dict[str, Any], hand: list[Tile]) -> tuple[list[Tile], Tile]:
    """The 14 tiles of a turn as the hand before the draw and the draw (after a claim, or the
    dealer's first turn, any tile stands for the draw: the discards are judged the same)."""
    drawn = obs.get("drawn")
    rest = list(hand)
    draw = Tile.parse(drawn) if drawn and Tile.parse(drawn) in rest else rest[-1]
    rest.remove(draw)
    return rest, draw


def _beijing_hint(m: Match, seat: int, rules: BeijingRules) -> list[dict[str, Any]]:
    """Beijing's hint (B2–B5), by :func:`tjmj.families.beijing.advise.advise`: as Tianjin's, with
    ``value`` where Tianjin gives ``fan`` (``expected`` in points), each wait's value won on a discard
    (``discard``), and ``hunyou`` on a discard that may also be made as 混儿悠 (B3)."""
    try:
        from ..families.beijing.advise import advise
    except ImportError:  # the advisor is not there: no hint rather than a made-up one
        return []
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    indicator = obs.get("indicator")
    visible = _visible_counts(m, obs)
    # the 混坯 lies face up until the first replacement draw takes it (B2): after any kong it is a
    # tile like another (in a hand, or discarded and counted there)
    face_up = indicator is not None and not any(
        len(tiles) == 4 for st in obs["seats"] for tiles in _meld_tiles(st["melds"]))
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in _meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = _split_draw(obs, hand)
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
            **_hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out


def hint_search_bot(budget_ms: float) -> ExpertBot:
    """The searching bot behind a hint's search part: a fresh :class:`tjmj.bots.expert.ExpertBot` per
    search (two searches of one seat may overlap in the worker threads, and a bot holds its match)."""
    from ..bots.expert import ExpertBot  # the search is only needed when someone asks

    return ExpertBot(budget_ms=budget_ms)


def hint_available(rules: Rules) -> bool:
    """Whether the family of ``rules`` has an advisor the hint can use (MCR's waits module may be
    missing from an installation: then the table says hints are not available, rather than guess)."""
    if isinstance(rules, TianjinRules):
        return True
    try:
        if isinstance(rules, BeijingRules):
            from ..families.beijing import advise  # noqa: F401
        elif isinstance(rules, McrRules):
            from ..families.mcr import waits  # noqa: F401
        else:
            return False
    except ImportError:
        return False
    return True


_MCR_WINDS = ("E", "S", "W", "N")


def _mcr_hint(m: Match, seat: int, rules: McrRules) -> list[dict[str, Any]] | None:
    """MCR's hint (M2, M3), by :func:`tjmj.families.mcr.waits.mcr_waits`: for each legal discard,
    the shanten of the tiles left (over every shape of M3), the live tiles that lower it and, when
    ready, each winning tile with its fan self-drawn (``fan``, ``name``, ``fans``) and on a discard
    (``discard``), and ``win``: whether it reaches ``min_fan`` (8) not counting flowers.  Ranked by
    the live winning tiles times their fan, then the shanten and the improving tiles.  None when
    the waits module is missing."""
    inputs = _mcr_hint_inputs(m, seat, rules)
    return None if inputs is None else _mcr_hint_compute(inputs)


def _mcr_hint_inputs(m: Match, seat: int, rules: McrRules) -> dict[str, Any] | None:
    """What :func:`_mcr_hint_compute` needs, copied from the match (it may then run in another
    thread while the match goes on); None when the waits module is missing."""
    try:
        from ..families.mcr import waits  # noqa: F401
        from ..families.mcr.score import McrMeld
    except ImportError:
        return None
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    st = m.seats[seat]
    info = list(getattr(st, "meld_info", [])) or [(None, 0)] * len(st.melds)
    melds = [McrMeld(type=x.type.value, tile=x.tile, claimed=c, offer=o) for x, (c, o) in zip(st.melds, info)]
    winds = obs.get("seat_winds") or list(_MCR_WINDS)
    seat_wind = _MCR_WINDS.index(winds[seat]) if winds[seat] in _MCR_WINDS else 0
    prevalent = obs.get("prevalent_wind")
    prevalent_wind = _MCR_WINDS.index(prevalent) if prevalent in _MCR_WINDS else 0
    legal = m.legal_actions(seat)
    return {"hand": hand, "melds": melds, "seat_wind": seat_wind, "prevalent_wind": prevalent_wind,
            "visible": _visible_counts(m, obs), "min_fan": rules.min_fan,
            "discards": sorted({x.tile for x in legal if x.type == "discard" and x.tile is not None})}


def _mcr_hint_compute(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """The hint of :func:`_mcr_hint` from its inputs (a pure function of them)."""
    from ..families.mcr.waits import mcr_waits, shanten_mcr

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
