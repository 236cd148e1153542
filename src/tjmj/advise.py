"""Discard advice for a 14-tile turn (issue 5): rank every discard and every possible kong.

For each option (discard a kind, or declare a concealed / gold / added kong, which is followed
by a replacement draw) the 13-tile-equivalent hand left is measured by:

* ``shanten`` (with wilds, :func:`tjmj.waits.shanten_counts`; 0 = ready);
* the **live** tiles that improve it (lower its shanten), where live = 4 − copies visible to this
  player: own concealed tiles and draw, own melds, the face-up indicator and ``seen`` (every other
  visible tile: all discards, the other players' melds);
* when ready: every completing draw (:class:`tjmj.waits.Wait`, with its fan, whether it is a legal
  win and why not, e.g. 死提溜) with its live count, ``ev`` = Σ live × fan over the winning draws,
  and whether the hand waits on everything (混儿吊, R5.1).  After a kong the next draw is the
  replacement draw, so a kong option's ``ev`` uses the 杠开 fan (``Wait.kong_fan``).

Discarding a wild makes the player 小相公 (R2): such an option is flagged ``wild``, none of its
draws wins, and it ranks after every other option.  Order: wild last, then shanten, then
−ev (ready) or −improving live tiles (not ready), then −winning live tiles, then tile order,
discards before kongs.

>>> a = advise("123m456p789s111s4p", "9s", "4p")
>>> a.best.action, a.best.shanten, a.best.hundiao, a.best.winning_live
('discard', 0, True, 121)
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, replace

from .meld import Meld, MeldType
from .rules import CLASSIC, TianjinRules
from .score import (
    HandInput,
    InvalidHand,
    MeldsLike,
    ScoreResult,
    TileLike,
    TilesLike,
    _tiles,
    prepare,
    score_input,
)
from .tiles import Tile, counts_of
from .waits import _NEG, Wait, used_table, waits_of

__all__ = ["Advice", "Option", "advise", "advise_input"]

XXG_REASON = "小相公: discarding a wild means no more wins this hand (R2)"
_ACTION_ORDER = {"discard": 0, "ankong": 1, "added_kong": 2}


@dataclass(frozen=True)
class Option:
    """One choice on the turn and what the 13-tile-equivalent hand left looks like."""

    action: str  # "discard", "ankong" (concealed kong; 金杠 if ``gold``) or "added_kong" (加杠)
    tile: Tile
    shanten: int
    improving: tuple[tuple[Tile, int], ...]  # kinds whose draw lowers the shanten, with live copies (> 0)
    waits: tuple[Wait, ...] = ()  # completing draws when ready; ``live`` counts ``seen`` too
    hundiao: bool = False  # wins on every drawable tile with 混儿吊 (R5.1)
    wild: bool = False  # discarding a wild: 小相公 (R2)
    gold: bool = False  # a concealed kong of four wilds (金杠)
    rank: int = 0  # 1 = best
    can_win: bool = True  # False after discarding a wild (小相公, R2)
    min_fan: int = 2  # the rules' min_fan, to judge a replacement draw's 杠开 fan

    @property
    def replacement_draw(self) -> bool:
        """A kong is followed by a replacement draw from the tail (R4)."""
        return self.action != "discard"

    @property
    def ready(self) -> bool:
        return self.shanten == 0

    @property
    def improving_count(self) -> int:
        """Live tiles that lower the shanten (for a ready hand: the live completing tiles)."""
        return sum(n for _, n in self.improving)

    @property
    def winning(self) -> tuple[Wait, ...]:
        return tuple(w for w in self.waits if w.win)

    @property
    def winning_live(self) -> int:
        """Live tiles that win on the next draw."""
        return sum(w.live for w in self.waits if self.next_win(w))

    @property
    def ev(self) -> int:
        """Σ live × fan over the draws that win on the next draw (the 杠开 fan after a kong)."""
        return sum(w.live * self.next_fan(w) for w in self.waits if self.next_win(w))

    def next_fan(self, w: Wait) -> int:
        if self.replacement_draw and w.kong_fan is not None:
            return w.kong_fan
        return w.fan

    def next_win(self, w: Wait) -> bool:
        """Does ``w`` win as the very next draw (the replacement draw after a kong: 杠开 fan)?"""
        if not self.can_win:
            return False
        if self.replacement_draw and w.kong_fan is not None:
            return w.win or w.kong_fan >= self.min_fan
        return w.win

    def sort_key(self) -> tuple[int, ...]:
        primary = self.ev if self.ready else self.improving_count
        return (int(self.wild), self.shanten, -primary, -self.winning_live, int(self.tile),
                _ACTION_ORDER[self.action])

    def label(self) -> str:
        if self.action == "discard":
            return f"discard {self.tile}"
        return f"{'gold kong' if self.gold else 'concealed kong' if self.action == 'ankong' else 'added kong'} {self.tile}"

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "rank": self.rank,
            "action": self.action,
            "tile": str(self.tile),
            "wild": self.wild,
            "shanten": self.shanten,
            "improving": self.improving_count,
            "improving_tiles": [{"tile": str(t), "live": n} for t, n in self.improving],
        }
        if self.replacement_draw:
            d["replacement_draw"] = True
            if self.gold:
                d["gold"] = True
        if self.ready:
            waits = []
            for w in self.waits:
                wd = w.to_dict()
                if self.replacement_draw and isinstance(wd.get("kong_draw"), dict):
                    wd["kong_draw"]["win"] = self.next_win(w)  # type: ignore[index]
                waits.append(wd)
            d.update(ev=self.ev, winning_live=self.winning_live, hundiao=self.hundiao, waits=waits)
        return d


@dataclass(frozen=True)
class Advice:
    """Every option of the turn, best first, and the hand as held (complete already?)."""

    hand: HandInput
    options: tuple[Option, ...]
    visible: tuple[int, ...]  # copies of each kind visible to this player
    now: ScoreResult | None = None  # the 14 tiles scored as a self-drawn win, when complete

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def discards(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.action == "discard")

    @property
    def kongs(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.action != "discard")

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "options": [o.to_dict() for o in self.options],
            "live": {str(Tile(k)): 4 - n for k, n in enumerate(self.visible) if n},
        }
        if self.now is not None and self.now.complete:
            d["win_now"] = {"fan": self.now.fan, "win": self.now.win, "name": self.now.name,
                            **({"reason": self.now.reason} if self.now.reason else {})}
        return d


_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _combine(a: list[list[int]], b: tuple[tuple[int, int], ...] | list[list[int]], m: int) -> list[list[int]]:
    """Max-plus product of two per-suit tables (most real tiles used with ≤ m melds, ≤ 1 pair)."""
    out = [[_NEG, _NEG] for _ in range(m + 1)]
    for ma in range(m + 1):
        ra = a[ma]
        for pa in range(2):
            x = ra[pa]
            if x < 0:
                continue
            for mb in range(m + 1 - ma):
                rb = b[mb]
                row = out[ma + mb]
                v = x + rb[0]
                if v > row[pa]:
                    row[pa] = v
                if pa == 0:
                    v = x + rb[1]
                    if v > row[1]:
                        row[1] = v
    return out


def _shanten_and_improving(
    nonwild: list[int], w: int, m: int, live: list[int], wilds: Container[int]
) -> tuple[int, list[tuple[Tile, int]]]:
    """Shanten of a 13-tile-equivalent hand and the live kinds whose draw lowers it.

    The same figure as :func:`tjmj.waits.shanten_counts`, but each draw changes one suit only,
    so the other three suits' product is computed once per suit rather than once per draw.
    """
    tables = [used_table(tuple(nonwild[lo:hi]), hon) for lo, hi, hon in _SUITS]
    zero = [[0, 0] for _ in range(m + 1)]
    others = []
    for s in range(4):
        acc = zero
        for t in range(4):
            if t != s:
                acc = _combine(acc, tables[t], m)
        others.append(acc)
    full = _combine(others[0], tables[0], m)
    j = 3 * m + 2 - w  # tiles a complete hand still needs beyond the wilds
    sh = j - max(max(r) for r in full) - 1
    improving = []
    for s, (lo, hi, hon) in enumerate(_SUITS):
        sub = list(nonwild[lo:hi])
        other = others[s]
        for k in range(lo, hi):
            if live[k] <= 0:
                continue
            if k in wilds:
                s2 = sh - 1  # a drawn wild fills any gap: the real tiles used stay, one more tile is in
            else:
                sub[k - lo] += 1
                s2 = j - max(max(r) for r in _combine(other, used_table(tuple(sub), hon), m)) - 1
                sub[k - lo] -= 1
            if s2 < sh:
                improving.append((Tile(k), live[k]))
    return sh, improving


def advise(
    hand: TilesLike,
    draw: TileLike,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    seen: TilesLike = (),
    rules: TianjinRules = CLASSIC,
    xiaoxianggong: bool = False,
) -> Advice:
    """Rank every discard and kong of a 14-tile turn (``hand`` is 13-tile-equivalent, plus ``draw``).

    ``seen``: every other tile visible to this player (all discards, the others' melds), as MPSZ
    text or kinds.  ``xiaoxianggong``: the player already discarded a wild (nothing wins).
    Raises :class:`tjmj.score.InvalidHand` (a ``TileError``) naming what is wrong.
    """
    h = prepare(hand, draw, indicator, melds, rules=rules)
    return advise_input(h, _tiles(seen, "seen"), xiaoxianggong=xiaoxianggong)


def advise_input(h: HandInput, seen: list[Tile] | tuple[Tile, ...] = (), *, xiaoxianggong: bool = False) -> Advice:
    """:func:`advise` on a prepared hand (``h.draw`` set)."""
    own = list(h.counts) if h.counts else counts_of(list(h.concealed) + [h.draw])
    vis = list(own)
    for m in h.melds:
        vis[m.tile] += m.size
    vis[h.indicator] += 1
    for t in seen:
        vis[t] += 1
    over = [k for k in range(34) if vis[k] > 4]
    if over:
        k = over[0]
        raise InvalidHand(f"seen: {vis[k]} copies of {Tile(k)} ({Tile(k).chinese}) visible in hand, draw, melds, "
                          f"indicator and seen; only 4 exist")
    live = [4 - n for n in vis]
    wilds = set(h.wilds)
    rules = h.rules
    options: list[Option] = []
    base = HandInput(h.concealed, h.draw, h.melds, h.indicator, h.wilds, False, False, rules, tuple(own))

    def measure(action: str, tile: Tile, counts: list[int], melds: tuple[Meld, ...], wild: bool, gold: bool) -> Option:
        nonwild = list(counts)
        w = 0
        for k in wilds:
            w += nonwild[k]
            nonwild[k] = 0
        need = 4 - len(melds)
        sh, improving = _shanten_and_improving(nonwild, w, need, live, wilds)
        ws: tuple[Wait, ...] = ()
        hundiao = False
        if sh == 0:
            concealed = tuple(Tile(k) for k in range(34) for _ in range(counts[k]))
            h13 = HandInput(concealed, None, melds, h.indicator, h.wilds, False, False, rules, ())  # type: ignore[arg-type]
            res = waits_of(h13)
            hundiao = res.hundiao and not (wild or xiaoxianggong)
            out = []
            for x in res.complete:
                x = replace(x, live=live[x.tile])
                if (wild or xiaoxianggong) and x.win:
                    x = replace(x, win=False, reason=XXG_REASON)
                out.append(x)
            ws = tuple(out)
        return Option(action, tile, sh, tuple(improving), ws, hundiao, wild, gold, 0,
                      not (wild or xiaoxianggong), rules.min_fan)

    for k in range(34):
        if own[k] == 0:
            continue
        c = list(own)
        c[k] -= 1
        options.append(measure("discard", Tile(k), c, h.melds, k in wilds, False))
        if own[k] == 4 and len(h.melds) < 4:
            c4 = list(own)
            c4[k] = 0
            km = h.melds + (Meld(MeldType.CONCEALED_KONG, Tile(k)),)
            options.append(measure("ankong", Tile(k), c4, km, False, k in wilds))
        for i, m in enumerate(h.melds):
            if m.type is MeldType.PON and m.tile == k:
                km = h.melds[:i] + (Meld(MeldType.ADDED_KONG, Tile(k)),) + h.melds[i + 1:]
                options.append(measure("added_kong", Tile(k), c, km, False, False))
    options.sort(key=Option.sort_key)
    ranked = tuple(replace(o, rank=i + 1) for i, o in enumerate(options))
    res = score_input(base)
    return Advice(base, ranked, tuple(vis), res if res.complete else None)
