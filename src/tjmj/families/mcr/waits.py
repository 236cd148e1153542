"""Waits and shanten of Chinese Official (国标麻将, MCR) hands: docs/rules/MCR.md M3, docs/cli.md
"MCR hands".

:func:`shanten_shapes` gives the shanten of 13-tile-equivalent concealed counts for each winning
shape of M3 — four melds and a pair, 七对, 十三幺, 全不靠 (七星不靠 included) and 组合龙 with one more
meld and a pair — and :func:`shanten_mcr` the least of them.  Shanten is the fewest exchanges (draw
a useful tile, discard one) that make the hand ready: 0 = ready (听牌); as usual it does not ask
whether the tiles needed are still live.  Every shape is counted as *tiles still missing* − 1, so
the shapes compare directly.

:func:`mcr_waits` lists every tile that completes a ready hand, scored by
:func:`~tjmj.families.mcr.score.score_mcr` both self-drawn and on a discard, each with whether it
reaches the 8-fan minimum (M2; flowers never count toward it).

>>> from tjmj.tiles import parse_tiles
>>> ws = mcr_waits(parse_tiles("123m456m789m123p5s"))
>>> ws.shanten, [(str(w.tile), w.self_drawn.fan, w.discard.fan, w.discard.win) for w in ws.waits]
(0, [('5s', 24, 22, True)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...hand import shanten_counts
from ...tiles import NUM_KINDS, TILE_TEXT, TILES, Tile
from .score import InvalidMcrHand, McrMeld, McrResult, McrSituation, is_complete_mcr, score_mcr

__all__ = ["SHAPES", "McrWait", "McrWaits", "shanten_shapes", "shanten_mcr", "mcr_waits", "counts_of_hand"]

# the shapes of M3, in the order shanten_shapes reports them
SHAPES = ("standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_HONORS = range(27, 34)
# the six 组合龙: 147, 258 and 369 each in a different suit
_KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + r for suit, start in enumerate(order) for r in range(start, 9, 3))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))
_MELD_TILES = {"chi": 3, "pon": 3, "kong": 4, "added_kong": 4, "ankong": 4}


def _standard(counts: Sequence[int], n_melds: int) -> int:
    return shanten_counts(list(counts), 0, 4 - n_melds)


def _seven_pairs(counts: Sequence[int]) -> int:
    """Four of a kind are two pairs in MCR's 七对 (四归一 may go with it)."""
    pairs = sum(n >> 1 for n in counts)
    singles = sum(n & 1 for n in counts)
    full = min(pairs, 7)
    used = 2 * full + min(singles, 7 - full)
    return 13 - used


def _thirteen_orphans(counts: Sequence[int]) -> int:
    kinds = sum(1 for k in _ORPHANS if counts[k])
    pair = any(counts[k] >= 2 for k in _ORPHANS)
    return 13 - kinds - pair


def _honors_and_knitted(counts: Sequence[int]) -> int:
    """全不靠: 14 different tiles, suited ones from one 组合龙 (147/258/369 of different suits), the
    rest honours; 七星不靠 is the case with all seven honours."""
    honors = sum(1 for k in _HONORS if counts[k])
    knitted = max(sum(1 for k in seq if counts[k]) for seq in _KNITTED)
    return 13 - min(14, honors + knitted)


def _knitted_straight(counts: Sequence[int], n_melds: int) -> int:
    """组合龙 (the nine tiles of one knitted sequence) with one more meld, claimed or concealed,
    and a pair: the knitted tiles still missing, plus what the rest lacks as one meld and a pair."""
    best = 99
    for seq in _KNITTED:
        rest = list(counts)
        held = 0
        for k in seq:
            if rest[k]:
                rest[k] -= 1
                held += 1
        best = min(best, (9 - held) + shanten_counts(rest, 0, 1 - n_melds))
    return best


def shanten_shapes(counts: Sequence[int], n_melds: int = 0) -> dict[str, int | None]:
    """The shanten of each shape of M3 for ``counts`` (34 kinds: the concealed tiles, 13 − 3 ×
    ``n_melds`` of them) beside ``n_melds`` fixed melds; ``None`` for a shape the melds rule out
    (七对, 十三幺 and 全不靠 are concealed shapes; 组合龙 leaves room for one meld)."""
    if len(counts) != NUM_KINDS:
        raise InvalidMcrHand(f"counts must have {NUM_KINDS} entries, got {len(counts)}")
    out: dict[str, int | None] = {"standard": _standard(counts, n_melds)}
    concealed = n_melds == 0
    out["seven_pairs"] = _seven_pairs(counts) if concealed else None
    out["thirteen_orphans"] = _thirteen_orphans(counts) if concealed else None
    out["honors_and_knitted"] = _honors_and_knitted(counts) if concealed else None
    out["knitted_straight"] = _knitted_straight(counts, n_melds) if n_melds <= 1 else None
    return out


def shanten_mcr(counts: Sequence[int], n_melds: int = 0) -> int:
    """The least shanten over the shapes of :func:`shanten_shapes` (0 = ready)."""
    return min(v for v in shanten_shapes(counts, n_melds).values() if v is not None)


def counts_of_hand(concealed: Sequence[Tile], melds: Sequence[McrMeld] = ()) -> tuple[list[int], list[int]]:
    """(concealed counts, counts of every tile held: concealed and melds) after checking the tile
    count (13 − 3 per meld) and that no kind has a fifth copy; raises :class:`InvalidMcrHand`."""
    if len(melds) > 4:
        raise InvalidMcrHand(f"at most 4 melds, got {len(melds)}")
    need = 13 - 3 * len(melds)
    if len(concealed) != need:
        raise InvalidMcrHand(f"with {len(melds)} meld(s) the hand holds {need} concealed tiles, got {len(concealed)}")
    counts = [0] * NUM_KINDS
    for t in concealed:
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < NUM_KINDS:
            raise InvalidMcrHand(f"a concealed tile must be a tile kind 0..33, got {t!r}")
        counts[t] += 1
    every = counts.copy()
    for m in melds:
        n = _MELD_TILES.get(m.type)
        if n is None:
            raise InvalidMcrHand(f"unknown meld type {m.type!r} (one of {', '.join(_MELD_TILES)})")
        if m.type == "chi":
            if m.tile >= 27 or m.tile % 9 > 6:
                raise InvalidMcrHand(f"a chi is named by its lowest tile, 1..7 of a suit; got {TILE_TEXT[m.tile]}")
            for i in range(3):
                every[m.tile + i] += 1
        else:
            every[m.tile] += n
    for k in range(NUM_KINDS):
        if every[k] > 4:
            raise InvalidMcrHand(f"{every[k]} copies of {TILE_TEXT[k]} (at most 4)")
    return counts, every


@dataclass(frozen=True)
class McrWait:
    """A tile that completes the hand: its copies not in the hand or its melds (``live``), and
    the hand scored with it won on a discard and self-drawn (``to_dict``: the discard's ``fan``,
    ``win`` and ``fans``, and the same under ``self_drawn``)."""

    tile: Tile
    live: int
    self_drawn: McrResult
    discard: McrResult

    @property
    def win(self) -> bool:
        """Whether it wins at all: self-drawn scores at least as much as on a discard."""
        return self.self_drawn.win or self.discard.win

    def to_dict(self) -> dict[str, Any]:
        def way(r: McrResult) -> dict[str, Any]:
            return {"fan": r.fan, "win": r.win,
                    "fans": [{"code": e.code, "name": e.chinese, "en": e.english, "fan": e.fan, "count": e.count}
                             for e in r.fans]}

        return {"tile": TILE_TEXT[self.tile], "live": self.live, **way(self.discard),
                "self_drawn": way(self.self_drawn)}


@dataclass(frozen=True)
class McrWaits:
    """The waits of a 13-tile-equivalent hand: ``shanten`` (the least over ``shapes``), and the
    completing tiles in tile order (empty unless ``shanten`` is 0)."""

    shanten: int
    shapes: dict[str, int | None]
    waits: tuple[McrWait, ...]
    min_fan: int

    @property
    def ready(self) -> bool:
        """Some tile completes the hand (whatever its fan)."""
        return bool(self.waits)

    @property
    def winning(self) -> tuple[McrWait, ...]:
        """The completing tiles that reach ``min_fan`` self-drawn or on a discard."""
        return tuple(w for w in self.waits if w.win)

    def to_dict(self) -> dict[str, Any]:
        return {"ready": self.ready, "shanten": self.shanten, "shapes": dict(self.shapes), "min_fan": self.min_fan,
                "waits": [w.to_dict() for w in self.waits]}


def mcr_waits(concealed: Sequence[Tile], melds: Sequence[McrMeld] = (), *, seat_wind: int = 0,
              prevalent_wind: int = 0, min_fan: int = 8) -> McrWaits:
    """Every tile that completes ``concealed`` (13 − 3 per meld tiles) beside ``melds``, scored
    self-drawn and on a discard with the given winds (no flowers, no 和绝张 or other special
    situation); raises :class:`InvalidMcrHand` for an impossible hand."""
    melds = tuple(melds)
    counts, every = counts_of_hand(concealed, melds)
    shapes = shanten_shapes(counts, len(melds))
    best = min(v for v in shapes.values() if v is not None)
    out: list[McrWait] = []
    if best == 0:
        drawn = McrSituation(self_drawn=True, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
        claimed = McrSituation(self_drawn=False, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
        for k in range(NUM_KINDS):
            if every[k] >= 4:
                continue
            counts[k] += 1
            complete = is_complete_mcr(counts, len(melds))
            counts[k] -= 1
            if not complete:
                continue
            t = TILES[k]
            s = score_mcr(concealed, t, melds, drawn, min_fan=min_fan)
            d = score_mcr(concealed, t, melds, claimed, min_fan=min_fan)
            if s.complete:
                out.append(McrWait(t, 4 - every[k], s, d))
    return McrWaits(best, shapes, tuple(out), min_fan)
