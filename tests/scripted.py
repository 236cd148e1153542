"""Helpers that script a wall (R3) and drive a :class:`tjmj.game.Match` through it in tests.

The layout is worked out from RULES.md R3, independently of ``tjmj.wall``'s own arithmetic:

* the ring holds 68 stacks numbered clockwise; seat ``s`` built ring stacks ``17k … 17k+16``
  with ``k = (−s) mod 4`` (so clockwise after East's wall comes North's, then West's, South's);
* the break: from the second roller's wall, ``s1 + s2`` stacks are counted clockwise; drawing starts
  at the next stack.  After the break the wall is one *line*: line stack ``j`` is ring stack
  ``(break + j) mod 68`` and line tile ``2j`` / ``2j+1`` is its top / bottom;
* the deal: picks of 2 stacks (4 tiles) from the dealer in play order, three times (line stacks
  0–23), then 跳牌 on line stacks 24–26 (dealer: tops of 24 and 26; the next three seats: bottom
  of 24, top of 25, bottom of 25); the bottom of 26 is left over;
* the indicator: 打混儿 (dice) the top of stack ``d`` counted from the tail (line stack ``68 − d``);
  翻混儿 (flip) the leftover bottom of line stack 26; Beijing's 混坯 (``wild_method="tail"``, B2)
  the first replacement tile, the top of line stack 67, which stays in the wall and is drawn first;
* head draws take the lowest free line tile; replacement draws take the tail: top then bottom of
  line stack 67, then 66, …, skipping the indicator.

``script_wall`` places chosen tiles there and fills the rest; ``start`` / ``play`` / ``run_out``
drive a match.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from tjmj.game import Action, Match
from tjmj.rules import CLASSIC, Rules
from tjmj.tiles import TILE_TEXT, Tile, parse_tiles, wild_kinds
from tjmj.wall import Dice

SEATS = 4
STACKS = 68

# default rolls: s1 = 5 (the dealer rolls again), s2 = 6, break after 11 stacks; indicator d = 8
DEFAULT_FIRST = (2, 3)
DEFAULT_SECOND = (3, 3)
DEFAULT_INDICATOR_ROLL = (4, 4)


def second_roller(dealer: int, s1: int) -> int:
    """R3: counting the dealer as 1 in play order: 1/5/9 dealer, 2/6/10 next, 3/7/11 opposite, 4/8/12 previous."""
    return {1: dealer, 2: (dealer + 1) % 4, 3: (dealer + 2) % 4, 0: (dealer + 3) % 4}[s1 % 4]


def make_dice(dealer: int = 0, first: tuple[int, int] = DEFAULT_FIRST, second: tuple[int, int] = DEFAULT_SECOND,
              indicator: tuple[int, int] | None = DEFAULT_INDICATOR_ROLL, wild_method: str = "dice") -> Dice:
    """A :class:`Dice` with the second roller worked out from the first roll (R3)."""
    return Dice(first, second_roller(dealer, sum(first)), second, indicator if wild_method == "dice" else None)


def break_stack(dice: Dice) -> int:
    """The ring stack where drawing starts: ``s1+s2`` stacks counted clockwise from the roller's wall."""
    k = (-dice.second_roller) % SEATS
    return (17 * k + sum(dice.first) + sum(dice.second)) % STACKS


class Layout:
    """Line positions (0..135, draw order) of the deal, the indicator, head and tail draws."""

    def __init__(self, dealer: int, dice: Dice, wild_method: str = "dice") -> None:
        self.dealer = dealer
        self.dice = dice
        self.wild_method = wild_method
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        for rnd in range(3):
            for j in range(SEATS):
                pick = rnd * SEATS + j
                hands[(dealer + j) % SEATS].extend(range(4 * pick, 4 * pick + 4))
        hands[dealer] += [2 * 24, 2 * 26]  # 跳牌: tops of the 1st and 3rd next stacks
        for j, pos in zip((1, 2, 3), (2 * 24 + 1, 2 * 25, 2 * 25 + 1)):
            hands[(dealer + j) % SEATS].append(pos)
        self.hands = hands
        if wild_method == "dice":
            assert dice.indicator is not None
            d = sum(dice.indicator)
            self.indicator = 2 * (STACKS - d)
            self.head_end = 2 * (STACKS - d)  # head draws stop before the indicator's stack
        elif wild_method == "flip":
            self.indicator = 2 * 26 + 1
            self.head_end = 136
        else:  # "tail": Beijing's 混坯 is the first replacement tile, and stays in the wall (B2)
            self.indicator = 2 * (STACKS - 1)
            self.head_end = 136
        dealt = {p for h in hands for p in h}
        self.head = [p for p in range(self.head_end) if p not in dealt and p != self.indicator]
        # replacement draws after the indicator (in tail mode the indicator itself is drawn first)
        self.tail = [2 * s + b for s in range(STACKS - 1, -1, -1) for b in (0, 1) if 2 * s + b != self.indicator]

    def to_ring(self, line: Sequence[int]) -> list[int]:
        """Ring order (what ``Wall.build(tiles=...)`` takes) of a wall given in line order."""
        start = break_stack(self.dice)
        ring = [0] * 136
        for j in range(STACKS):
            r = (start + j) % STACKS
            ring[2 * r], ring[2 * r + 1] = line[2 * j], line[2 * j + 1]
        return ring


def kinds(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)] if text else []


def _isolated(k: int, held: set[int]) -> bool:
    return k >= 27 or not any(h < 27 and h // 9 == k // 9 and abs(h - k) <= 2 for h in held)


def script_wall(
    dealer: int = 0,
    hands: Sequence[str] | Mapping[int, str] = ("", "", "", ""),
    draws: str | Mapping[int, str] = "",
    replacements: str = "",
    indicator: str = "7z",
    wild_method: str = "dice",
    dice: Dice | None = None,
    seed: int = 0,
    quiet: bool = True,
    avoid: str = "",
    park: str = "",
) -> tuple[list[int], Dice]:
    """A scripted wall: ``(tiles in ring order, dice)`` for ``Wall.build`` / ``Match(walls=...)``.

    ``hands``: per seat (a list of 4, or a mapping seat → text), the dealt tiles (14 for the
    dealer, 13 for others, MPSZ).  A shorter text is completed: with ``quiet`` (default) by kinds
    that seat does not hold yet (so no pair appears that the script did not ask for), never wild
    kinds (up to three from the indicator) nor kinds in ``avoid``.  ``draws``: the head draws in
    order (a string), or a mapping draw number (0 = the first head draw) → tile.  ``replacements``:
    the kong replacement draws in order (in tail mode, Beijing's, those after the 混坯, which is the
    first one).  ``indicator``: the face-up wild indicator.  Everything
    else is filled at random from the remaining tiles (``seed``).  ``park``: tiles put on the tail
    after the replacements (in dice mode the reserve, which head draws never reach), to keep stray
    copies of a kind away from the hands and the head draws.
    """
    dice = dice or make_dice(dealer, wild_method=wild_method)
    lay = Layout(dealer, dice, wild_method)
    left = [4] * 34
    line: list[int | None] = [None] * 136

    def put(pos: int, k: int, what: str) -> None:
        if line[pos] is not None:
            raise ValueError(f"{what}: line position {pos} is already scripted")
        if left[k] == 0:
            raise ValueError(f"{what}: a fifth {TILE_TEXT[k]} (only 4 exist)")
        left[k] -= 1
        line[pos] = k

    put(lay.indicator, kinds(indicator)[0], "indicator")
    hand_texts = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    given: list[list[int]] = [kinds(hand_texts.get(s, "") or "") for s in range(SEATS)]
    for s in range(SEATS):
        if len(given[s]) > len(lay.hands[s]):
            raise ValueError(f"seat {s} is dealt {len(lay.hands[s])} tiles, {len(given[s])} given")
        for pos, k in zip(lay.hands[s], given[s]):
            put(pos, k, f"hand of seat {s}")
    draw_map = dict(enumerate(kinds(draws))) if isinstance(draws, str) else {n: kinds(t)[0] for n, t in draws.items()}
    for n, k in draw_map.items():
        put(lay.head[n], k, f"head draw {n}")
    for n, k in enumerate(kinds(replacements) + kinds(park)):
        put(lay.tail[n], k, f"replacement draw {n}")
    if quiet:
        banned = set(wild_kinds(kinds(indicator)[0], 3)) | set(kinds(avoid))
        for s in range(SEATS):
            held = set(given[s])
            for pos in lay.hands[s][len(given[s]):]:
                # a kind this seat does not hold yet, preferably far (3+) from its suited tiles (no
                # sequence shapes), then the one with most copies left
                choices = [k for k in range(34) if k not in held and k not in banned and left[k] > 0]
                if not choices:
                    raise ValueError(f"cannot complete the hand of seat {s} quietly")
                k = max(choices, key=lambda k: (_isolated(k, held), left[k], -k))
                put(pos, k, f"quiet fill of seat {s}")
                held.add(k)
    rest = [k for k in range(34) for _ in range(left[k])]
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    full = [k if k is not None else next(it) for k in line]
    return lay.to_ring(full), dice


# ---- driving a match ---------------------------------------------------------------------


def start(m: Match, sit: int = 0, pulls: Sequence[int] = (0, 0, 0)) -> None:
    """Make the dealer's sit choice (if asked) and the pulls in play order, up to the deal."""
    if m.phase == "sit":
        m.apply(m.dealer, f"sit {sit}")
    i = 0
    while m.phase == "pull":
        seat = m.to_act
        assert seat == (m.dealer + 1 + i) % SEATS
        m.apply(seat, f"pull {pulls[i]}")
        i += 1


def scripted_match(rules: Rules = CLASSIC, *walls: tuple[list[int], Dice], seed: int = 1, sit: int = 0,
                   pulls: Sequence[int] = (0, 0, 0)) -> Match:
    """A match on scripted walls, started up to the dealer's first turn of the first hand."""
    m = Match(rules, seed, walls=list(walls))
    start(m, sit, pulls)
    return m


def play(m: Match, *steps: str) -> None:
    """Apply steps written ``"<seat> <action>"``, e.g. ``"0 discard 5m"``, checking whose turn it is."""
    for step in steps:
        seat_text, action = step.split(" ", 1)
        seat = int(seat_text)
        assert m.to_act == seat, f"{step!r}: it is seat {m.to_act}'s decision ({m.phase}), not seat {seat}'s"
        m.apply(seat, action)


def drawn(m: Match, seat: int) -> str:
    """The tile ``seat`` just drew, as its observation shows it."""
    t = m.observation(seat)["drawn"]
    assert t is not None, f"seat {seat} has no drawn tile"
    return t


def tsumogiri(m: Match, n: int = 1) -> None:
    """``n`` times: the seat to act discards the tile it just drew (with none drawn, its first
    discard in legal order), or passes a claim."""
    for _ in range(n):
        seat = m.to_act
        if m.phase == "claim":
            m.apply(seat, "pass")
            continue
        t = m.observation(seat)["drawn"]
        if t is None:
            t = next(TILE_TEXT[a.tile] for a in m.legal_actions(seat) if a.type == "discard")
        m.apply(seat, f"discard {t}")


def head_draws(m: Match) -> int:
    """Head (not replacement) draws made so far in the current hand."""
    n = 0
    for e in reversed(m.events):
        if e["type"] == "start_kyoku":
            break
        n += e["type"] == "tsumo" and not e["replacement"]
    return n


def draw_until(m: Match, n: int) -> int:
    """Tsumogiri (passing claims) until the ``n``-th head draw of the hand is made; returns the drawer."""
    while head_draws(m) < n:
        tsumogiri(m)
    assert m.phase == "turn"
    return m.to_act


def run_out(m: Match, limit: int = 1000) -> dict:
    """Tsumogiri (passing claims) until the hand ends; returns its ``end_kyoku`` event."""
    n0 = len(m.events)
    for _ in range(limit):
        ends = [e for e in m.events[n0:] if e["type"] == "end_kyoku"]
        if ends:
            return ends[0]
        tsumogiri(m)
    raise AssertionError("the hand did not end")


def events_of(m: Match, type_: str, since: int = 0) -> list[dict]:
    return [e for e in m.events[since:] if e["type"] == type_]


def last_end(m: Match) -> dict:
    return events_of(m, "end_kyoku")[-1]


def payments(m: Match, reason: str | None = None) -> list[tuple[str, int, int, int]]:
    """The last hand's payments as ``(reason, payer, payee, amount)``, optionally of one reason."""
    pays = [(p["reason"], p["payer"], p["payee"], p["amount"]) for p in last_end(m)["payments"]]
    return [p for p in pays if reason is None or p[0] == reason]


def legal(m: Match, seat: int | None = None) -> list[str]:
    seat = m.to_act if seat is None else seat
    return [str(a) for a in m.legal_actions(seat)]


def tile_texts(ts: Iterable[int]) -> list[str]:
    return [TILE_TEXT[Tile(t)] for t in ts]


__all__ = [
    "Action",
    "Layout",
    "break_stack",
    "draw_until",
    "drawn",
    "events_of",
    "head_draws",
    "kinds",
    "last_end",
    "legal",
    "make_dice",
    "payments",
    "play",
    "run_out",
    "script_wall",
    "scripted_match",
    "second_roller",
    "start",
    "tile_texts",
    "tsumogiri",
]
