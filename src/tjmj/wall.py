"""The wall, the dice and the deal (R3), faithful to the table.

Each seat builds 17 stacks of two tiles; the 68 stacks form a ring.  The ring is numbered
clockwise (the way tiles are drawn; play itself goes E→S→W→N, counter-clockwise), seat ``s``'s
wall holding ring stacks ``17·k … 17·k+16`` with ``k = (−s) mod 4`` (E, then N, W, S), each
wall counted from its owner's right.  After the break the wall is kept as one line of 68
stacks: ``stack 0`` is drawn first (the head), ``stack 67`` is the tail end (牌底), and tile
``2·j`` / ``2·j+1`` is the top / bottom of stack ``j``.  Head draws take the lowest free tile;
replacement draws (补牌) take from the tail: top of the last stack, then its bottom, then the
stack before it, never the face-up indicator.

MCR (M1) builds the same wall with its eight flowers (``flowers=True``): 144 tiles, 18 stacks a
side, 72 in the ring (``stacks_per_wall`` 18; the ring, the break and the deal are counted as above
with 18 for 17), and no indicator (``wild_method="none"``).

>>> import random
>>> w = Wall.build(random.Random(1), dealer=0)
>>> len(w.hands[0]), len(w.hands[1]), w.live_count > 0
(14, 13, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from .tiles import FLOWERS, TILES, Tile

__all__ = ["Wall", "Dice", "STACKS", "SEATS"]

SEATS: Final = 4
STACKS = 68
STACKS_PER_WALL = 17


def seat_from(dealer: int, roll: int) -> int:
    """R3: counting the dealer as 1 in play order, 1/5/9 → dealer, 2/6/10 → next, …"""
    return (dealer + (roll - 1)) % SEATS


@dataclass(frozen=True)
class Dice:
    """The rolls of a deal: the dealer's sum, the second roller and sum, the indicator roll."""

    first: tuple[int, int]
    second_roller: int
    second: tuple[int, int]
    indicator: tuple[int, int] | None  # the dealer's opposite rolls it (打混儿); None for 翻混儿

    @property
    def break_count(self) -> int:
        return sum(self.first) + sum(self.second)

    def to_dict(self) -> dict[str, object]:
        return {
            "first": list(self.first),
            "second_roller": self.second_roller,
            "second": list(self.second),
            "indicator": list(self.indicator) if self.indicator else None,
        }


    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Dice:
        ind = d.get("indicator")
        return cls(tuple(d["first"]), d["second_roller"], tuple(d["second"]), tuple(ind) if ind else None)  # type: ignore[arg-type]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` of :class:`random.Random` (n > 0): the draws of ``rng.choice`` and
    ``rng.shuffle``, spelled out so that a compiled build runs them natively; the same numbers."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[Tile]) -> None:
    """``rng.shuffle(x)``, the same permutation (Fisher-Yates with :func:`randbelow`)."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise: ask it
        rng.shuffle(x)
        return
    for i in range(len(x) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def _roll(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


@dataclass
class Wall:
    """The wall of one hand after the break: tiles in draw order, what is taken, the indicator."""

    tiles: list[Tile]  # 136 (MCR: 144 with flowers), index 2j = top of stack j, 2j+1 = bottom (stack 0 = head)
    dice: Dice
    dealer: int
    break_seat: int  # whose wall was broken
    break_stack: int  # ring stack where drawing starts
    indicator_index: int  # position of the face-up indicator in ``tiles``
    wild_method: str  # "dice" 打混儿, "flip" 翻混儿 (Tianjin R3), "tail" (Beijing's 混坯, B2: not taken out)
    taken: list[bool] = field(default_factory=lambda: [False] * 136)  # per tile: len(tiles) entries
    hands: list[list[Tile]] = field(default_factory=list)  # the dealt tiles, dealer first has 14
    head: int = 0  # lowest index that may still be free
    tail_order: list[int] = field(default_factory=list)
    tail_pos: int = 0
    head_limit: int = 136  # head draws must stay below this (the reserve in dice mode)
    _live: int = 0  # free tiles below head_limit, kept in step (observations read it often)
    _free: int = 0  # free tiles in the whole wall, kept in step (Beijing's wall count reads it every draw)

    @classmethod
    def build(cls, rng: random.Random, dealer: int, wild_method: str = "dice", tiles: list[int] | None = None,
              dice: Dice | None = None, *, flowers: bool = False) -> Wall:
        """Shuffle (unless ``tiles`` is given, ring order), roll, break, deal and turn the indicator.

        ``flowers`` (MCR M1): the 8 flowers too, 144 tiles in 18 stacks a side (``tiles`` then holds
        each of the kinds 34..41 once); ``wild_method="none"``: no indicator."""
        full = [TILES[k] for k in range(34) for _ in range(4)] + (list(FLOWERS) if flowers else [])
        if tiles is None:
            ring = full
            shuffle(rng, ring)
        else:
            if sorted(tiles) != full:
                raise ValueError("a scripted wall must hold each of the 34 kinds four times"
                                 + (" and each of the 8 flowers once" if flowers else ""))
            ring = [TILES[k] if k < 34 else FLOWERS[k - 34] for k in tiles]
        n = len(ring)
        stacks = n // 2
        per_wall = stacks // SEATS
        if dice is None:
            first = _roll(rng)
            roller = seat_from(dealer, sum(first))
            second = _roll(rng)
            ind_roll = _roll(rng) if wild_method == "dice" else None
            dice = Dice(first, roller, second, ind_roll)
        roller = dice.second_roller
        # the roller's wall starts at ring stack 17·k; count s1+s2 stacks clockwise from there
        k = (-roller) % SEATS
        start = (per_wall * k + dice.break_count) % stacks
        order = [(start + j) % stacks for j in range(stacks)]
        line: list[Tile] = []
        for s in order:
            line.append(ring[2 * s])
            line.append(ring[2 * s + 1])
        w = cls(line, dice, dealer, roller, start, -1, wild_method, taken=[False] * n, head_limit=n)
        w._deal()
        w.tail_order = [2 * s + b for s in range(stacks - 1, -1, -1) for b in (0, 1)]
        if wild_method == "dice":
            assert dice.indicator is not None
            d = sum(dice.indicator)
            # from the tail, the last stack counting as 1: the top tile of stack d
            w.indicator_index = 2 * (stacks - d)
            w.head_limit = 2 * (stacks - d)  # the indicator's stack onward is the reserve
        elif wild_method == "flip":
            # 翻混儿: the single tile left without its partner by the 跳牌 (bottom of the 3rd stack)
            w.indicator_index = 2 * 26 + 1
        elif wild_method == "none":  # MCR (M1): no wild, no indicator
            w._recount()
            return w
        else:  # "tail" (Beijing's 混坯, B2): the first replacement tile, face up but left in the wall
            w.indicator_index = w.tail_order[0]
            w._recount()
            return w
        w.taken[w.indicator_index] = True
        w._recount()
        return w

    def _recount(self) -> None:
        self._live = sum(1 for i in range(min(self.head_limit, len(self.tiles))) if not self.taken[i])
        self._free = self.taken.count(False)

    def _take(self, i: int) -> Tile:
        assert not self.taken[i]
        self.taken[i] = True
        self._free -= 1
        if i < self.head_limit:
            self._live -= 1
        return self.tiles[i]

    def _deal(self) -> None:
        hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        pick = 0  # each pick is two stacks: tiles 4·pick … 4·pick+3 (top, bottom, top, bottom)
        for _ in range(3):  # each takes 2 stacks (4 tiles), three times, from the dealer on
            for j in range(SEATS):
                seat = (self.dealer + j) % SEATS
                hands[seat].extend(self._take(i) for i in range(4 * pick, 4 * pick + 4))
                pick += 1
        stack = 2 * pick
        # 跳牌: the dealer takes the tops of the 1st and 3rd next stacks; the others take the
        # bottom of the 1st, the top and the bottom of the 2nd, in play order
        s1, s2, s3 = stack, stack + 1, stack + 2
        hands[self.dealer].append(self._take(2 * s1))
        hands[self.dealer].append(self._take(2 * s3))
        for j, idx in zip(range(1, SEATS), (2 * s1 + 1, 2 * s2, 2 * s2 + 1), strict=True):
            hands[(self.dealer + j) % SEATS].append(self._take(idx))
        self.hands = hands
        self.head = 0

    # ---- drawing -------------------------------------------------------------------------

    def _next_head(self) -> int | None:
        i = self.head
        n = len(self.tiles)
        while i < n and self.taken[i]:
            i += 1
        self.head = i
        if i >= self.head_limit or i >= n:
            return None
        return i

    @property
    def live_count(self) -> int:
        """Tiles still available to head draws (R3 exhaustion)."""
        return self._live

    @property
    def remaining(self) -> int:
        """Every tile not yet drawn, the reserve included (Tianjin's face-up indicator excluded; Beijing's
        混坯 included: it stays in the wall)."""
        return self._free

    def can_draw(self) -> bool:
        return self._next_head() is not None

    def draw(self) -> Tile:
        """A normal draw from the head; raises IndexError when the wall is exhausted (荒牌)."""
        i = self._next_head()
        if i is None:
            raise IndexError("the wall is exhausted (荒牌, R3)")
        return self._take(i)

    def can_replace(self) -> bool:
        # taken tiles never come back: skip them for good (a head draw may have eaten the tail)
        order, taken, i = self.tail_order, self.taken, self.tail_pos
        while i < len(order) and taken[order[i]]:
            i += 1
        self.tail_pos = i
        return i < len(order)

    def draw_replacement(self) -> Tile:
        """A kong replacement draw (补牌) from the tail end, skipping the indicator (R3)."""
        while self.tail_pos < len(self.tail_order):
            i = self.tail_order[self.tail_pos]
            self.tail_pos += 1
            if not self.taken[i]:
                # past the reserve this eats the end of the live wall (R3): the head draws
                # skip taken tiles, so the two ends simply meet
                return self._take(i)
        raise IndexError("no tile left for a replacement draw (R3)")

    def copy(self) -> Wall:
        """An independent copy (:meth:`tjmj.game.Match.clone`): ``tiles`` and ``taken`` copied; the dice,
        the dealt hands and the tail order (never changed after the deal) shared."""
        return Wall(list(self.tiles), self.dice, self.dealer, self.break_seat, self.break_stack, self.indicator_index,
                    self.wild_method, list(self.taken), self.hands, self.head, self.tail_order, self.tail_pos,
                    self.head_limit, self._live, self._free)

    def stacks_left(self) -> list[tuple[bool, bool]]:
        """For drawing the table: per stack in draw order, whether its top / bottom remain."""
        return [(not self.taken[2 * j], not self.taken[2 * j + 1]) for j in range(len(self.tiles) // 2)]

    @property
    def indicator(self) -> Tile:
        return self.tiles[self.indicator_index]
