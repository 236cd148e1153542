"""The Beijing calculator (北京麻将, docs/rules/BEIJING.md): its batch lines and its ``tjmj score``,
``waits`` and ``advise`` (the protocol: :mod:`tjmj.jsonlines` for the batch side,
:mod:`tjmj.cli.common` for the command line).  Its scorer is imported on first use, so that a
Tianjin batch or command neither loads it nor pays for it; Click and Rich only by the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import families
from ...jsonlines import NO_OVERRIDES, LineError, RulesCache, field_bool, field_str, named_tiles, one_tile, parse_melds
from ...tiles import TileError

if TYPE_CHECKING:
    pass

# A Beijing line ("ruleset": "beijing" or "beijing_a", docs/rules/BEIJING.md): its win situation
# flags, then every key it may hold, in documentation order.
BEIJING_FLAGS = ("win_on_discard", "dealer", "last_tile", "kong_draw", "rob_kong", "hunyou", "hungang", "tianhe",
                 "dihe", "upstairs")
BEIJING_BATCH_KEYS = ("hand", "draw", "indicator", "melds", *BEIJING_FLAGS, "ruleset", "rules")
BATCH_KEYS = BEIJING_BATCH_KEYS
_BEIJING_KEYS = frozenset(BEIJING_BATCH_KEYS)


def beijing_context(flags: dict[str, bool], name: Any = None) -> Any:
    """The :class:`~tjmj.families.beijing.elements.WinContext` of a Beijing win from the interface's
    flags (``BEIJING_FLAGS`` but ``upstairs``; missing ones false), after rejecting situations that
    cannot happen together; ``name(flag)`` spells a flag in the error (``--discard`` on the command
    line).  Raises :class:`~tjmj.tiles.TileError` with one line naming both flags and the rule."""
    from .elements import WinContext

    def say(k: str) -> str:
        return name(k) if name is not None else k

    def clash(a: str, b: str, why: str) -> TileError:
        return TileError(f"{say(a)} and {say(b)}: {why}")

    f = {k: bool(flags.get(k, False)) for k in BEIJING_FLAGS}
    discard, rob = f["win_on_discard"], f["rob_kong"]
    if discard and rob:
        raise clash("win_on_discard", "rob_kong", "a robbed kong's tile is not a discard (B3)")
    other = "win_on_discard" if discard else "rob_kong" if rob else None
    if other is not None:
        for k, why in (("kong_draw", "杠上开花 is won on one's own replacement draw (B5)"),
                       ("last_tile", "海底捞月 is the last tile a normal draw may take, self-drawn (B1, B5)"),
                       ("hunyou", "the 混儿悠 win is the player's own next draw (B3)"),
                       ("hungang", "混杠 is declared after one's own draw (B2)"),
                       ("tianhe", "天和 is won on the dealer's 14 dealt tiles (B5)"),
                       ("dihe", "地和 is won on a non-dealer's first draw (B5)")):
            if f[k]:
                raise clash(other, k, why)
    if f["kong_draw"] and f["last_tile"]:
        raise clash("kong_draw", "last_tile", "a replacement draw is not a normal draw, so not 海底 (B1, B5)")
    flats = [k for k in ("hungang", "tianhe", "dihe") if f[k]]
    if len(flats) > 1:
        raise clash(flats[0], flats[1], "a win is one flat hand at most (B5)")
    if f["tianhe"] and not f["dealer"]:
        raise TileError(f"{say('tianhe')} (天和) is the dealer's win: it needs {say('dealer')} as well (B5)")
    if f["dihe"] and f["dealer"]:
        raise clash("dihe", "dealer", "地和 is a non-dealer's win; the dealer's is 天和 (B5)")
    for k in ("tianhe", "dihe"):
        if f[k] and f["kong_draw"]:
            raise clash(k, "kong_draw", "it comes before any kong (B5)")
    return WinContext(self_drawn=not (discard or rob), dealer=f["dealer"], last_tile=f["last_tile"],
                      kong_draw=f["kong_draw"], rob_kong=rob, hunyou=f["hunyou"], hungang=f["hungang"],
                      tianhe=f["tianhe"], dihe=f["dihe"])


def beijing_answer(r: Any, arrangement: bool = True, upstairs: bool = False) -> dict[str, object]:
    """A Beijing line's answer from a :class:`~tjmj.families.beijing.score.BeijingResult` (docs/cli.md):
    ``complete``, ``win``, ``value``, ``elements`` (B5 codes), ``name``, ``reason`` when it does not
    win, ``halved`` (version A, an open hand), ``payments`` when it wins, ``arrangement``."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "value": r.value, "elements": r.codes,
                            "name": r.name}
    if r.reason:
        d["reason"] = r.reason
    if r.halved:
        d["halved"] = True
    if r.win:
        d["payments"] = r.payments(upstairs=upstairs)
    if arrangement:
        a = r.arrangement
        d["arrangement"] = a.to_dict() if a is not None else None
    return d



def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """A Beijing line's answer (``"ruleset": "beijing"`` or ``"beijing_a"``): :func:`beijing_answer`."""
    from .score import prepare_beijing, score_input

    ruleset = obj["ruleset"]
    if not _BEIJING_KEYS.issuperset(obj):
        tianjin = [k for k in obj if k in _tianjin_only()]
        if tianjin:
            raise LineError(f"key(s) {', '.join(map(repr, tianjin))} belong to Tianjin lines, not to ruleset "
                            f"{ruleset!r} (Beijing's 天和 and 地和 are 'tianhe' and 'dihe'); the keys of a Beijing line "
                            f"are {', '.join(BEIJING_BATCH_KEYS)}")
        unknown = [k for k in obj if k not in _BEIJING_KEYS]
        raise LineError(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys of a Beijing line are "
                        f"{', '.join(BEIJING_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", NO_OVERRIDES))
    hand = named_tiles(field_str(obj, "hand"), "hand")
    draw = one_tile(field_str(obj, "draw"), "draw")
    indicator = None
    if rules.wilds:  # type: ignore[attr-defined]
        if "indicator" not in obj:
            raise LineError(f"missing key 'indicator': ruleset {rules.name!r} has a wild (B2); give the 混坯, the wild "
                            "is its successor")
        indicator = one_tile(field_str(obj, "indicator"), "indicator")
    elif "indicator" in obj:
        raise LineError(f"'indicator': ruleset {rules.name!r} has no wild (B2 option wilds false); leave it out")
    melds = parse_melds(obj.get("melds"))
    flags = {k: field_bool(obj, k) for k in BEIJING_FLAGS if k in obj}
    ctx = beijing_context(flags)
    upstairs = flags.get("upstairs", False)
    if upstairs and not rules.upstairs:  # type: ignore[attr-defined]
        raise LineError(f"'upstairs': 上楼 is off in ruleset {rules.name!r} (B6 option upstairs)")
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules, context=ctx)  # type: ignore[arg-type]
    return beijing_answer(score_input(h), arrangement, upstairs)


def _tianjin_only() -> frozenset[str]:
    """The keys of Tianjin lines that Beijing's have not (``tianhu``): an error's hint only."""
    return frozenset(families.get("tianjin").calculator.BATCH_KEYS) - _BEIJING_KEYS
