"""Waits and distance to ready, for people and bots (R5).

* :func:`waits`: for 13 tiles (+ melds) and an indicator, every kind whose draw wins, with its
  fan, also as a kong replacement draw (杠开), and whether the hand waits on every tile (混儿吊).
* :func:`shanten`: how many tiles the hand is from ready, counting wilds (−1 = complete).

Shanten here is the fewest exchanges (draw one useful tile, discard one) that make the hand
ready, with every wild playing whatever is missing; like the usual shanten it ignores whether
the needed tiles are still live and whether the finished hand reaches ``min_fan``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .elements import Flag, combination_name
from .rules import CLASSIC, TianjinRules
from .score import (
    HandInput,
    MeldsLike,
    TileLike,
    TilesLike,
    _judge,
    core_of,
    evaluate,
    is_double_hundiao,
    prepare,
)
from .tiles import Tile, counts_of

__all__ = ["Wait", "Waits", "waits", "shanten", "shanten_of"]


@dataclass(frozen=True)
class Wait:
    """One winning draw: the tile, its fan and elements, and the same as a kong replacement."""

    tile: Tile
    fan: int
    flags: Flag
    name: str
    win: bool
    live: int  # copies not visible to this player (hand, melds, indicator)
    kong_fan: int | None = None  # fan if drawn as a kong replacement (杠开); None without a kong
    kong_flags: Flag | None = None
    reason: str = ""  # why this draw completes the hand but does not win (R5.2); '' if it wins

    @property
    def codes(self) -> list[str]:
        from .elements import elements_of

        return [e.code for e in elements_of(self.flags)]

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "tile": str(self.tile),
            "fan": self.fan,
            "win": self.win,
            "elements": self.codes,
            "name": self.name,
            "live": self.live,
        }
        if self.reason:
            d["reason"] = self.reason
        if self.kong_fan is not None:
            from .elements import elements_of

            d["kong_draw"] = {
                "fan": self.kong_fan,
                "elements": [e.code for e in elements_of(self.kong_flags or 0)],
                "name": combination_name(self.kong_flags or 0),
            }
        return d


@dataclass(frozen=True)
class Waits:
    """All draws that complete the hand (``complete``) and those that win (``winning``)."""

    complete: tuple[Wait, ...]
    hundiao: bool  # wins on every drawable tile with 混儿吊 (R5.1)
    shanten: int

    @property
    def winning(self) -> tuple[Wait, ...]:
        return tuple(w for w in self.complete if w.win)

    @property
    def ready(self) -> bool:
        return bool(self.complete)

    def to_dict(self) -> dict[str, object]:
        return {
            "ready": self.ready,
            "shanten": self.shanten,
            "hundiao": self.hundiao,
            "waits": [w.to_dict() for w in self.complete],
        }


def waits(
    hand: TilesLike,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    rules: TianjinRules = CLASSIC,
    indicator_visible: bool = True,
) -> Waits:
    """Every draw that completes a 13-tile hand, with the fan it scores (R5)."""
    h = prepare(hand, None, indicator, melds, rules=rules, indicator_visible=indicator_visible)
    return waits_of(h, indicator_visible=indicator_visible)


def waits_of(h: HandInput, *, indicator_visible: bool = True) -> Waits:
    seen = counts_of(list(h.concealed) + [m.tile for m in h.melds for _ in range(m.size)])
    if indicator_visible:
        seen[h.indicator] += 1
    has_kong = any(m.type.is_kong for m in h.melds)
    base = counts_of(h.concealed)
    out: list[Wait] = []
    drawable = 0
    hundiao_all = True
    for k in range(34):
        live = 4 - seen[k]
        if live <= 0:
            continue
        drawable += 1
        t = Tile(k)
        with_draw = list(base)
        with_draw[k] += 1
        hk = HandInput(h.concealed, t, h.melds, h.indicator, h.wilds, False, False, h.rules, tuple(with_draw))
        c = core_of(hk)
        res = evaluate(c.nk, c.w, c.win, c.ww, c.m, c.wild_suit, c.su, False, c.suben_nk)
        if res is None:
            hundiao_all = False
            continue
        fan, flags, struct = res
        if not flags & Flag.HUNDIAO:
            hundiao_all = False
        ok, reason = _judge(hk, fan, flags)
        kong_fan = kong_flags = None
        if has_kong:
            kres = evaluate(c.nk, c.w, c.win, c.ww, c.m, c.wild_suit, c.su, True, c.suben_nk)
            assert kres is not None
            kong_fan, kong_flags = kres[0], Flag(kres[1])
        name = combination_name(flags, bool(flags & Flag.HUNDIAO) and is_double_hundiao(struct))
        out.append(Wait(t, fan, Flag(flags), name, ok, live, kong_fan, kong_flags, reason))
    return Waits(tuple(out), hundiao_all and drawable > 0, shanten_of(h))


# --------------------------------------------------------------------------------------
# Shanten with wilds.  For each suit: the most real tiles that fit in at most m melds and
# p pairs (each group holding at least one real tile; wilds fill the rest).  Then
# J = 3·M + 2 − wilds − (real tiles used) new tiles are needed, and shanten = J − 1.
# --------------------------------------------------------------------------------------

_NEG = -99


@lru_cache(maxsize=1 << 14)  # suit shapes: ~0.5 kB an entry, ~8.5 MB full (it grew without end)
def used_table(c: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """table[m] = (best with no pair, best with one pair), m = 0..4 melds at most."""
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return tuple((0, 0) for _ in range(5))
    lst = list(c)
    lst[i] -= 1
    best = [list(row) for row in used_table(tuple(lst), honors)]  # the lowest tile left unused
    lst[i] += 1

    def fold(sub: tuple[tuple[int, int], ...], gain: int, melds: int, pairs: int) -> None:
        for m in range(melds, 5):
            for p in range(pairs, 2):
                v = sub[m - melds][p - pairs] + gain
                if v > best[m][p]:
                    best[m][p] = v

    x = c[i]
    for k in range(1, min(x, 3) + 1):
        lst[i] = x - k
        fold(used_table(tuple(lst), honors), k, 1, 0)
    for k in range(1, min(x, 2) + 1):
        lst[i] = x - k
        fold(used_table(tuple(lst), honors), k, 0, 1)
    lst[i] = x - 1
    if not honors:
        if i + 1 < n and c[i + 1]:
            lst[i + 1] -= 1
            fold(used_table(tuple(lst), honors), 2, 1, 0)
            if i + 2 < n and c[i + 2]:
                lst[i + 2] -= 1
                fold(used_table(tuple(lst), honors), 3, 1, 0)
                lst[i + 2] += 1
            lst[i + 1] += 1
        if i + 2 < n and c[i + 2]:
            lst[i + 2] -= 1
            fold(used_table(tuple(lst), honors), 2, 1, 0)
    return tuple((a, b) for a, b in best)


def shanten(
    hand: TilesLike,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    draw: TileLike | None = None,
    rules: TianjinRules = CLASSIC,
) -> int:
    """Tiles from ready: 0 = ready (听牌), −1 = complete (only with ``draw``, 14 tiles)."""
    return shanten_of(prepare(hand, draw, indicator, melds, rules=rules))


def shanten_of(h: HandInput) -> int:
    tiles = list(h.concealed) + ([h.draw] if h.draw is not None else [])
    c = counts_of(tiles)
    w = sum(c[k] for k in h.wilds)
    for k in h.wilds:
        c[k] = 0
    return shanten_counts(c, w, 4 - len(h.melds))


def shanten_counts(nonwild: list[int], w: int, m: int) -> int:
    """Shanten from non-wild counts (34), the wild count and the concealed melds needed."""
    tables = [
        used_table(tuple(nonwild[0:9]), False),
        used_table(tuple(nonwild[9:18]), False),
        used_table(tuple(nonwild[18:27]), False),
        used_table(tuple(nonwild[27:34]), True),
    ]
    # max-plus combination over suits: acc[m][p] = most real tiles used
    acc = [[0, 0] for _ in range(m + 1)]
    for t in tables:
        nxt = [[_NEG, _NEG] for _ in range(m + 1)]
        for ma in range(m + 1):
            for pa in range(2):
                a = acc[ma][pa]
                if a < 0:
                    continue
                for mb in range(m + 1 - ma):
                    for pb in range(2 - pa):
                        v = a + t[mb][pb]
                        if v > nxt[ma + mb][pa + pb]:
                            nxt[ma + mb][pa + pb] = v
        acc = nxt
    used = max(max(row) for row in acc)
    return 3 * m + 2 - w - used - 1
