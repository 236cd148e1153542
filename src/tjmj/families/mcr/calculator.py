"""The MCR calculator (国标麻将, docs/rules/MCR.md): its batch lines and its ``tjmj score`` and
``waits`` (the protocol: :mod:`tjmj.jsonlines` for the batch side, :mod:`tjmj.cli.common` for the
command line; MCR has no advisor).  Its scorer is imported on first use; Click and Rich only by
the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...jsonlines import (
    NO_OVERRIDES,
    TILE_BY_TEXT,
    LineError,
    RulesCache,
    field_bool,
    field_str,
    hand_tiles,
    one_tile,
    other_keys,
    show_value,
)
from ...meld import Meld, MeldType
from ...tiles import TILE_TEXT, Tile, TileError
from . import FAMILY

if TYPE_CHECKING:
    pass

# An MCR line ("ruleset": "mcr", docs/rules/MCR.md): PyMahjongGB's inputs (M3), in documentation order.
MCR_FLAGS = ("self_drawn", "fourth_tile", "about_kong", "wall_last")
MCR_BATCH_KEYS = ("hand", "draw", "melds", "flowers", *MCR_FLAGS, "seat_wind", "prevalent_wind", "ruleset", "rules")
BATCH_KEYS = MCR_BATCH_KEYS

# --------------------------------------------------------------------------------------
# MCR lines (docs/rules/MCR.md): the calculator of tjmj.families.mcr.score, imported on the first
# such line.  Its inputs are PyMahjongGB's (M3); situations that cannot happen are errors here,
# where the calculator (like PyMahjongGB) would quietly drop the flag.
# --------------------------------------------------------------------------------------

_MCR_KEYS = frozenset(MCR_BATCH_KEYS)
_MCR_MELD_KEYS = ("type", "tile", "claimed", "from")
# another family's key on an MCR line: what MCR says instead
_MCR_INSTEAD = {
    "indicator": "MCR has no wilds (M1)",
    "kong_draw": "杠上开花 is 'about_kong' with 'self_drawn'",
    "rob_kong": "抢杠和 is 'about_kong' without 'self_drawn'",
    "last_tile": "妙手回春 and 海底捞月 are 'wall_last'",
    "win_on_discard": "an MCR line is won on a discard unless 'self_drawn' is true",
    "dealer": "the dealer is the East seat: 'seat_wind' 0",
}

def _mcr() -> Any:
    """The MCR calculator's module, imported on the first MCR line."""
    global _MCR_MODULE
    if _MCR_MODULE is None:
        from . import score

        _MCR_MODULE = score
    return _MCR_MODULE


_MCR_MODULE: Any = None


def mcr_meld(m: Meld, claimed: Tile | None = None, offer: int | None = None) -> Any:
    """The :class:`~tjmj.families.mcr.score.McrMeld` of a meld: ``offer`` (PyMahjongGB's: 1 the
    previous seat, 2 opposite, 3 the next; 0 for a concealed kong) defaults to 1 for a claimed meld.
    Neither ``claimed`` nor ``offer`` changes the fan (as in PyMahjongGB)."""
    McrMeld = _mcr().McrMeld
    if m.type is MeldType.CONCEALED_KONG:
        return McrMeld("ankong", m.tile, None, 0)
    if m.type is not MeldType.CHI and claimed is None:
        claimed = m.tile
    return McrMeld(m.type.value, m.tile, claimed, 1 if offer is None else offer)


# (type, tile, claimed, from) as written on a line -> its McrMeld: only valid melds are kept, so
# the table stays small (a few thousand at most) whatever the input
_MCR_MELD_CACHE: dict[tuple[object, object, object, object], Any] = {}
_ABSENT = object()  # a key not on the line (null is a value, and an error)


def _mcr_melds(raw_melds: object) -> list[Any]:
    """An MCR line's ``melds``: ``{"type", "tile"}`` as for the other families, and optionally the
    ``claimed`` tile (a chi's: one of its three) and ``from`` (1 previous seat, 2 opposite, 3 next)."""
    if raw_melds is None:
        return []
    if type(raw_melds) is not list:
        raise LineError(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {show_value(raw_melds)}")
    out = []
    for i, m in enumerate(raw_melds):
        if type(m) is dict:
            offer = m.get("from", _ABSENT)
            if offer is _ABSENT or type(offer) is int:  # not true, 1.0: equal to 1 as a key, but errors
                hit = _MCR_MELD_CACHE.get((m.get("type"), m.get("tile"), m.get("claimed", _ABSENT), offer))
                if hit is not None and len(m) == 2 + ("claimed" in m) + ("from" in m):
                    out.append(hit)
                    continue
        out.append(_mcr_meld_checked(i, m))
    return out


def _mcr_meld_checked(i: int, m: object) -> Any:
    if type(m) is not dict:
        raise LineError(f"melds[{i}]: a meld must be an object like {{\"type\": \"pon\", \"tile\": \"7z\"}}, got {show_value(m)}")
    unknown = [k for k in m if k not in _MCR_MELD_KEYS]
    if unknown:
        raise LineError(f"melds[{i}]: unknown key(s) {', '.join(map(repr, unknown))}; an MCR meld has "
                        f"{', '.join(_MCR_MELD_KEYS)}")
    try:
        meld = Meld.from_dict({k: m[k] for k in ("type", "tile") if k in m})
    except TileError as e:
        raise LineError(f"melds[{i}]: {e}") from None
    claimed = offer = None
    if meld.type is MeldType.CONCEALED_KONG and ("claimed" in m or "from" in m):
        raise LineError(f"melds[{i}]: a concealed kong (ankong) claims nothing; leave out 'claimed' and 'from'")
    if "claimed" in m:
        c = m["claimed"]
        if type(c) is not str:
            raise LineError(f"melds[{i}]: 'claimed' must be a string like \"5m\", got {show_value(c)}")
        claimed = one_tile(c, f"melds[{i}].claimed")
        if claimed not in meld.tiles:
            raise LineError(f"melds[{i}]: the claimed tile {claimed} is not a tile of the {meld.type.value} {meld}")
    if "from" in m:
        offer = m["from"]
        if type(offer) is not int or not 1 <= offer <= 3:
            raise LineError(f"melds[{i}]: 'from' must be 1 (the previous seat), 2 (opposite) or 3 (the next), "
                            f"got {show_value(offer)}")
        if meld.type is MeldType.CHI and offer != 1:
            raise LineError(f"melds[{i}]: a chi is claimed from the previous seat only (M2): 'from' 1, got {offer}")
    got = mcr_meld(meld, claimed, offer)
    _MCR_MELD_CACHE[(m["type"], m["tile"], m.get("claimed", _ABSENT), m.get("from", _ABSENT))] = got
    return got


def mcr_situation(hand: list[Tile], draw: Tile, melds: list[Any], flags: dict[str, bool], flowers: int,
                  rules: Any, name: Any = None) -> None:
    """Reject a win situation that cannot happen (raises :class:`~tjmj.tiles.TileError`, one line):
    杠上开花 without a kong, 抢杠和 on a tile the winner holds, 和绝张 on a tile the hand holds, or
    flowers under rules without them.  ``name(flag)`` spells a flag (``--about-kong`` on the
    command line)."""
    def say(k: str) -> str:
        return name(k) if name is not None else k

    if flowers and not rules.flowers:
        raise TileError(f"{say('flowers')}: rules {rules.name} play without flowers (M1 option flowers false)")
    if flags.get("about_kong"):
        if flags.get("self_drawn"):
            if not any(m.type in ("kong", "added_kong", "ankong") for m in melds):
                raise TileError(f"{say('about_kong')} with {say('self_drawn')} is 杠上开花 (out with a replacement "
                                "tile): it needs a kong among the melds")
        elif draw in hand or any(draw in _mcr_meld_tiles(m) for m in melds):
            raise TileError(f"{say('about_kong')} on a discard is 抢杠和 (robbing the kong): the other three {draw} "
                            "are the robbed kong's, so the winner's hand and melds cannot hold one")
    if flags.get("fourth_tile") and draw in hand:
        raise TileError(f"{say('fourth_tile')} (和绝张): the other three {draw} are face up, so the hand cannot "
                        "hold one")


def _mcr_meld_tiles(m: Any) -> tuple[int, ...]:
    return (m.tile, m.tile + 1, m.tile + 2) if m.type == "chi" else (m.tile,)


def _mcr_reason(r: Any, min_fan: int) -> str:
    if not r.complete:
        return "not complete: the 14 tiles make none of the winning shapes (M3)"
    return f"{r.fan} fan < min_fan {min_fan}: a win needs {min_fan} fan, flowers not counted (M2)"


def mcr_answer(r: Any, min_fan: int, arrangement: bool = True) -> dict[str, object]:
    """An MCR line's answer from an :class:`~tjmj.families.mcr.score.McrResult` (docs/cli.md):
    ``complete``, ``win``, ``fan`` (without flowers), ``flowers``, ``total``, ``fans``, ``reason``
    when it does not win, ``arrangement`` (null when not complete).  The fans' dicts and the tile
    lists are shared between answers: never to be changed in place."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "fan": r.fan, "flowers": r.flowers,
                            "total": r.fan + r.flowers, "fans": [_mcr_fan(e) for e in r.fans]}
    if not r.win:
        d["reason"] = _mcr_reason(r, min_fan)
    if arrangement:
        d["arrangement"] = {"shape": r.shape, "groups": [_mcr_group(g) for g in r.groups]} if r.complete else None
    return d


# a fan entry -> its JSON dict, built once (the calculator hands out the same few hundred entries:
# looked up by identity, checked), and a group's tiles -> their texts
_MCR_FANS: dict[int, tuple[object, dict[str, object]]] = {}
_MCR_TILES: dict[tuple[Tile, ...], list[str]] = {}


def _mcr_fan(e: Any) -> dict[str, object]:
    got = _MCR_FANS.get(id(e))
    if got is not None and got[0] is e:
        return got[1]
    if len(_MCR_FANS) >= 4096:  # entries the calculator does not keep (rare counts): bounded
        _MCR_FANS.clear()
    d: dict[str, object] = {"code": e.code, "name": e.chinese, "en": e.english, "fan": e.fan, "count": e.count}
    _MCR_FANS[id(e)] = (e, d)
    return d


def _mcr_group(g: Any) -> dict[str, object]:
    tiles = g.tiles
    texts = _MCR_TILES.get(tiles)
    if texts is None:
        if len(_MCR_TILES) >= 65536:  # bounded, whatever the input
            _MCR_TILES.clear()
        texts = _MCR_TILES[tiles] = [TILE_TEXT[t] for t in tiles]
    return {"kind": g.kind, "tiles": texts, "concealed": g.concealed}


def _mcr_wind(obj: dict[str, Any], key: str) -> int:
    v = obj.get(key, 0)
    if type(v) is not int or not 0 <= v <= 3:
        raise LineError(f"'{key}' must be 0, 1, 2 or 3 (东 南 西 北), got {show_value(v)}")
    return v


# the situations of MCR lines, built once each (7 values: a few thousand at most)
_MCR_SITUATIONS: dict[tuple[bool, bool, bool, bool, int, int, int], Any] = {}


def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """An MCR line's answer (``"ruleset": "mcr"``): :func:`mcr_answer`."""
    mod = _mcr()
    ruleset = obj["ruleset"]
    if not _MCR_KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in _MCR_KEYS]
        hints = [f"{k!r}: {_MCR_INSTEAD[k]}" for k in unknown if k in _MCR_INSTEAD]
        theirs = {k for _, keys in other_keys(FAMILY.name) for k in keys}
        others = [k for k in unknown if k in theirs]
        what = (f"key(s) {', '.join(map(repr, unknown))} belong to other rulesets' lines, not to ruleset {ruleset!r}"
                if len(others) == len(unknown) else f"unknown key(s) {', '.join(map(repr, unknown))}")
        raise LineError(f"{what}{' (' + '; '.join(hints) + ')' if hints else ''}; the keys of an MCR line are "
                        f"{', '.join(MCR_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", NO_OVERRIDES))
    text = obj["hand"]
    if type(text) is not str:
        field_str(obj, "hand")  # raises, naming the type
    hand = hand_tiles(text)
    v = obj["draw"]
    draw = TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = one_tile(field_str(obj, "draw"), "draw")
    melds = _mcr_melds(obj.get("melds"))
    flowers = obj.get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:
        raise LineError(f"'flowers' must be a count 0..8, got {show_value(flowers)}")
    self_drawn = obj.get("self_drawn", False)
    fourth = obj.get("fourth_tile", False)
    about = obj.get("about_kong", False)
    wall_last = obj.get("wall_last", False)
    seat = obj.get("seat_wind", 0)
    prevalent = obj.get("prevalent_wind", 0)
    key = (self_drawn, fourth, about, wall_last, seat, prevalent, flowers)
    situation = _MCR_SITUATIONS.get(key)  # type: ignore[arg-type]
    if (situation is None or type(self_drawn) is not bool or type(fourth) is not bool or type(about) is not bool
            or type(wall_last) is not bool or type(seat) is not int or type(prevalent) is not int):
        # 1, 1.0, true: equal as keys, but only the right type is valid
        for k in MCR_FLAGS:
            field_bool(obj, k)
        seat, prevalent = _mcr_wind(obj, "seat_wind"), _mcr_wind(obj, "prevalent_wind")
        situation = _MCR_SITUATIONS.get(key)  # type: ignore[arg-type]
        if situation is None:
            situation = _MCR_SITUATIONS[key] = mod.McrSituation(  # type: ignore[index]
                self_drawn, fourth, about, wall_last, seat, prevalent, flowers)
    try:
        if about or fourth or (flowers and not rules.flowers):  # type: ignore[attr-defined]
            mcr_situation(hand, draw, melds, {"self_drawn": self_drawn, "about_kong": about, "fourth_tile": fourth},
                          flowers, rules)
        r = mod.score_mcr(hand, draw, melds, situation, min_fan=rules.min_fan)  # type: ignore[attr-defined]
    except mod.InvalidMcrHand as e:
        raise LineError(str(e)) from None
    return mcr_answer(r, rules.min_fan, arrangement)  # type: ignore[attr-defined]
