"""The Tianjin calculator (天津麻将, docs/rules/RULES.md): its batch lines and its ``tjmj score``,
``waits`` and ``advise`` (the protocol: :mod:`tjmj.jsonlines` for the batch side,
:mod:`tjmj.cli.common` for the command line).  The batch side loads neither Click nor Rich: the
command-line functions import them when called.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Any

import orjson

from ...hand import Group
from ...jsonlines import (
    MELD_BY_TEXT,
    NO_OVERRIDES,
    TILE_BY_TEXT,
    LineError,
    RulesCache,
    field_bool,
    field_str,
    one_tile,
    show_value,
    unknown_keys_hint,
)
from ...meld import Meld
from ...tiles import TILE_TEXT, Tile, TileError, parse_tiles
from . import FAMILY
from .rules import CLASSIC, TianjinRules
from .score import ScoreResult, _codes, prepare, score_input

if TYPE_CHECKING:

    pass

# The batch input keys, in documentation order (docs/cli.md); anything else is an error.
BATCH_KEYS = ("hand", "draw", "indicator", "melds", "kong_draw", "tianhu", "ruleset", "rules")
_REQUIRED = ("hand", "draw", "indicator")
_KEYS = frozenset(BATCH_KEYS)


def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """A Tianjin line's answer: ``ScoreResult.to_dict(arrangement)`` (a line without ``ruleset``
    is one: classic; one naming no preset comes here too, and its error names it)."""
    if not _KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in BATCH_KEYS]
        hint = unknown_keys_hint(FAMILY.name, unknown)
        raise LineError(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys are {', '.join(BATCH_KEYS)}{hint}")
    if "hand" not in obj or "draw" not in obj or "indicator" not in obj:
        missing = [k for k in _REQUIRED if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand, draw and indicator are required")
    text = obj["hand"]
    if type(text) is not str:
        field_str(obj, "hand")  # raises, naming the type
    try:
        hand = parse_tiles(text)
    except TileError as e:
        raise TileError(f"hand: {e}") from None
    v = obj["draw"]
    draw = TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = one_tile(field_str(obj, "draw"), "draw")
    v = obj["indicator"]
    indicator = TILE_BY_TEXT.get(v) if type(v) is str else None
    if indicator is None:
        indicator = one_tile(field_str(obj, "indicator"), "indicator")
    raw_melds = obj.get("melds")
    melds: list[Meld] = []
    if raw_melds is not None:
        if type(raw_melds) is not list:
            raise LineError(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {show_value(raw_melds)}")
        for i, m in enumerate(raw_melds):
            meld = None
            if type(m) is dict and len(m) == 2 and type(m.get("type")) is str and type(m.get("tile")) is str:
                meld = MELD_BY_TEXT.get((m["type"], m["tile"]))
            if meld is None:
                try:
                    meld = Meld.from_dict(m)
                except TileError as e:
                    raise LineError(f"melds[{i}]: {e}") from None
            melds.append(meld)
    kong_draw = obj.get("kong_draw", False)
    if type(kong_draw) is not bool:
        field_bool(obj, "kong_draw")
    tianhu = obj.get("tianhu", False)
    if type(tianhu) is not bool:
        field_bool(obj, "tianhu")
    if "ruleset" in obj or "rules" in obj:
        rules = cache.get(obj.get("ruleset", CLASSIC.name), obj.get("rules", NO_OVERRIDES))
        if not isinstance(rules, TianjinRules):  # pragma: no cover - other families' lines go to their calculators
            raise LineError(f"ruleset {rules.name!r} is not Tianjin's")
    else:
        rules = CLASSIC  # the usual line: no look-up needed
    h = prepare(hand, draw, indicator, melds, kong_draw=kong_draw, tianhu=tianhu, rules=rules)
    return answer(score_input(h), arrangement)




# group -> its JSON: the same few thousand groups make up every arrangement
_GROUP_JSON: dict[Group, orjson.Fragment] = {}


def answer(r: ScoreResult, arrangement: bool = True) -> dict[str, object]:
    """``r.to_dict(arrangement)``, with each group as ready-made JSON and tuples for arrays
    (shared, so never to be changed in place): equal once serialised (tested)."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "fan": r.fan, "elements": _codes(r.flags),
                            "name": r.name}
    if r.reason:
        d["reason"] = r.reason
    if not arrangement:
        return d
    a = r.arrangement
    if a is None:
        d["arrangement"] = None
        return d
    groups = []
    for g in a.groups:
        f = _GROUP_JSON.get(g)
        groups.append(f if f is not None else _group_json(g))
    d["arrangement"] = {"groups": groups, "dragon": a.dragon}
    return d


def _list_json(tiles: tuple[Tile, ...]) -> str:
    if len(_LIST_JSON) >= 65536:  # bounded, whatever the input
        _LIST_JSON.clear()
    v = _LIST_JSON[tiles] = "[" + ",".join(['"' + TILE_TEXT[t] + '"' for t in tiles]) + "]"
    return v


# the parts of a group's JSON: tile lists (a few hundred recur), wild flags, winning index
_LIST_JSON: dict[tuple[Tile, ...], str] = {}
_WILD_JSON = {
    w: "[" + ",".join("true" if x else "false" for x in w) + "]" for n in (2, 3, 4) for w in product((False, True), repeat=n)
}
_WINNING_JSON: dict[int | None, str] = {None: "null", 0: "0", 1: "1", 2: "2", 3: "3"}


def _group_json(g: Group) -> orjson.Fragment:
    """``g.to_dict()`` as compact JSON, put together from cached parts (orjson.dumps would
    also hand back a 2 kB buffer for each of these kept fragments: tens of MB in a big batch)."""
    if len(_GROUP_JSON) >= 65536:  # bounded, whatever the input
        _GROUP_JSON.clear()
    kind, tiles, plays, wild, winning = g
    t = _LIST_JSON.get(tiles) or _list_json(tiles)
    p = t if plays == tiles else (_LIST_JSON.get(plays) or _list_json(plays))
    text = f'{{"kind":"{kind}","tiles":{t},"plays":{p},"wild":{_WILD_JSON[wild]},"winning":{_WINNING_JSON[winning]}}}'
    f = _GROUP_JSON[g] = orjson.Fragment(text.encode())
    return f
