"""The engine's vocabulary (R3–R9, B3): an :class:`Action` and its :class:`ActionType`, the
:class:`Phase` a match is in, a :class:`Seat`'s tiles, the :class:`ClaimWindow` after a discard and
one :class:`Payment` of a settlement.  :mod:`tjmj.game` (the state machine) re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple

from .meld import Meld, MeldType
from .tiles import TILE_TEXT, TILES, Tile, TileError

__all__ = ["ACTION_TYPES", "Action", "ActionType", "ClaimWindow", "IllegalAction", "PASS", "Payment", "Phase",
           "Seat", "WIN"]


class IllegalAction(ValueError):
    """An action that is not legal for that seat now; the state is unchanged."""


class Phase(StrEnum):
    """Whose decision it is about: the pre-hand choices (坐庄/拉庄, Tianjin R7), a turn, a claim
    window on a discard, a window to rob a kong (抢杠, Beijing B3), or nothing (the match is over)."""

    SIT = "sit"
    PULL = "pull"
    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    OVER = "over"


class ActionType(StrEnum):
    """Every kind of decision; the text form of an action starts with one of these words."""

    SIT = "sit"  # 坐庄 (count 1) or not (0), Tianjin R7
    PULL = "pull"  # 拉庄 count times, Tianjin R7
    DISCARD = "discard"
    PON = "pon"  # 碰 the discard on offer
    KONG = "kong"  # 明杠: kong the discard on offer
    ADDED_KONG = "added_kong"  # 加杠 onto one's pon
    ANKONG = "ankong"  # 暗杠 (金杠 when wild)
    WIN = "win"  # 和: self-drawn on a turn, on the discard in a claim window, the kong in a rob window
    PASS = "pass"
    CHI = "chi"  # 吃 the discard on offer into the sequence starting at ``tile`` (Beijing B3)
    HUNYOU = "hunyou"  # 混儿悠: discard ``tile`` and wait on any tile (Beijing B3)
    HUNGANG = "hungang"  # 混杠: the four wilds, a flat win (Beijing B2)


ACTION_TYPES = tuple(t.value for t in ActionType)
# Actions and the match hold the enums' plain str values: they are compared at every decision, and a
# plain str compares and formats faster than a StrEnum member (equal to it all the same)
_COUNTED: Final = ("sit", "pull")
_COUNT_DIGITS: Final = 3  # a count is small (R7): a longer one is refused, not read (int() of 5,000 digits raises)


class Action(NamedTuple):
    """One decision: ``sit`` (count 1 = sit, 0 = not), ``pull`` (count = pulls), ``discard``/
    ``ankong``/``added_kong``/``hunyou`` (tile), ``pon``/``kong`` (the claimed discard), ``chi``
    (the lowest tile of the sequence made), ``win``, ``pass``, ``hungang``.

    A named tuple: the engine lists every legal action at every decision, so they must be cheap.
    """

    type: str
    tile: Tile | None = None
    count: int = 0  # type: ignore[assignment]  # shadows tuple.count on purpose: the public field name

    def __str__(self) -> str:
        if self.type in _COUNTED:
            return f"{self.type} {self.count}"
        return f"{self.type} {TILE_TEXT[self.tile]}" if self.tile is not None else self.type

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"discard 5m"``, ``"pon"``, ``"chi 3m"``, ``"sit 1"``, ``"pull 2"``, ``"win"``, ``"ankong 1z"``."""
        parts = text.split()
        if not parts or parts[0] not in ACTION_TYPES:
            raise IllegalAction(f"unknown action {text!r}; actions are {', '.join(ACTION_TYPES)}")
        kind = ActionType(parts[0]).value
        if kind in _COUNTED:
            # ASCII digits only: str.isdigit() also takes '²' (which int() refuses) and '٣' (which it reads)
            if len(parts) != 2 or not (parts[1].isascii() and parts[1].isdigit()) or len(parts[1]) > _COUNT_DIGITS:
                raise IllegalAction(f"action {text!r} needs a count, e.g. '{kind} 1'")
            return cls(kind, None, int(parts[1]))
        if len(parts) == 1:
            return cls(kind)
        if len(parts) != 2:
            raise IllegalAction(f"action {text!r} has too many words")
        try:
            return cls(kind, Tile.parse(parts[1]))
        except TileError as e:
            raise IllegalAction(f"action {text!r}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": str(self.type)}
        if self.tile is not None:
            d["tile"] = TILE_TEXT[self.tile]
        if self.type in _COUNTED:
            d["count"] = self.count
        return d


def _per_kind(kind: str) -> tuple[Action, ...]:
    return tuple(Action(kind, TILES[k]) for k in range(34))


# every action on a tile made once, and reused: the engine lists them at every decision (a named
# tuple built in Python costs more than the rest of listing them)
_DISCARD: Final = _per_kind("discard")
_ANKONG: Final = _per_kind("ankong")
_ADDED_KONG: Final = _per_kind("added_kong")
_PON: Final = _per_kind("pon")
_KONG: Final = _per_kind("kong")
_CHI: Final = _per_kind("chi")  # by the lowest tile of the sequence
_HUNYOU: Final = _per_kind("hunyou")
PASS: Final = Action("pass")
WIN: Final = Action("win")
# claim priority (B3): a win beats a pon or kong, which beats a chi
_PRIORITY: Final = {"win": 3, "pon": 2, "kong": 2, "chi": 1, "pass": 0}
_AT_TABLE: Final = ("turn", "claim", "rob")  # the phases of a hand in play (not the pre-hand choices, not over)


@dataclass(frozen=True)
class Payment:
    """One transfer of a settlement (R8, B6): ``reason`` is win, kong, chan (铲), penalty, or the
    family's own (shaozhuang 烧庄, …)."""

    reason: str
    payer: int
    payee: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "payer": self.payer, "payee": self.payee, "amount": self.amount}


class Seat:
    """One player's tiles in a hand (families add their own slots in a subclass)."""

    __slots__ = ("hand", "counts", "fours", "melds", "discards", "claimed", "kongs", "drew")

    def __init__(self) -> None:
        self.hand: list[Tile] = []  # concealed tiles, the drawn one included
        self.counts = [0] * 34  # the same per kind, kept in step by add/remove
        self.fours = 0  # kinds held four times (a concealed kong is possible), kept in step likewise
        self.melds: list[Meld] = []
        self.discards: list[Tile] = []
        self.claimed: list[int] = []  # indices of discards another seat claimed (they stay in the pond)
        self.kongs: list[MeldType] = []
        self.drew = 0  # draws made this hand (天胡/地和: the first one)

    def add(self, t: Tile) -> None:
        self.hand.append(t)
        c = self.counts[t] + 1
        self.counts[t] = c
        if c == 4:
            self.fours += 1

    def remove(self, t: Tile, n: int = 1) -> None:
        for _ in range(n):
            self.hand.remove(t)
        c = self.counts[t]
        if c == 4:
            self.fours -= 1
        self.counts[t] = c - n

    def set_hand(self, tiles: list[Tile]) -> None:
        """Replace the concealed tiles (:meth:`Match.determinize`), ``counts`` and ``fours`` with them."""
        self.hand = []
        self.counts = [0] * 34
        self.fours = 0
        for t in tiles:
            self.add(t)

    def copy(self) -> Seat:
        """An independent copy (:meth:`Match.clone`): the lists that change in play are copied."""
        c = type(self).__new__(type(self))
        self._copy_to(c)
        return c

    def _copy_to(self, c: Seat) -> None:
        """Copy this seat's state into ``c``, a new seat of the same class; a family's seat with its
        own slots overrides it (calling super) and copies them too."""
        c.hand = list(self.hand)
        c.counts = list(self.counts)
        c.fours = self.fours
        c.melds = list(self.melds)  # Meld is frozen: shared
        c.discards = list(self.discards)
        c.claimed = list(self.claimed)
        c.kongs = list(self.kongs)
        c.drew = self.drew


@dataclass
class ClaimWindow:
    """The seats that may claim a discard (``kind`` "discard") or rob a kong ("rob"), asked in
    play order; ``answers`` stay hidden from the others until the window closes."""

    kind: str
    tile: Tile
    source: int  # the discarder, or the seat declaring the kong
    order: list[int]
    options: dict[int, list[Action]]
    answers: dict[int, Action] = field(default_factory=dict)
    kong: MeldType | None = None  # the kong being robbed

    def waiting(self) -> list[int]:
        return [s for s in self.order if s not in self.answers]

    def best(self) -> tuple[int, Action] | None:
        """The answer that wins the window so far: highest priority, then first in play order."""
        out: tuple[int, Action] | None = None
        top = 0
        for s in self.order:
            a = self.answers.get(s)
            if a is not None and _PRIORITY[a.type] > top:
                out, top = (s, a), _PRIORITY[a.type]
        return out

    def decided(self) -> bool:
        """No answer still to come can beat the best one (so asking the rest changes nothing)."""
        best = self.best()
        top = _PRIORITY[best[1].type] if best else 0
        before = True  # seats before the best one in play order win ties
        for s in self.order:
            if best is not None and s == best[0]:
                before = False
                continue
            if s in self.answers:
                continue
            can = max(_PRIORITY[a.type] for a in self.options[s])
            if can > top or (can == top and before and top > 0):
                return False
        return True
