"""The game engine: a server-authoritative state machine for hands and matches (R3–R9).

In the style of OpenSpiel/PettingZoo: at every moment exactly one seat has a decision
(:attr:`Match.to_act`); :meth:`Match.legal_actions` lists what it may do, :meth:`Match.apply`
does one legal action (anything else raises :class:`IllegalAction` and changes nothing), and
:meth:`Match.observation` shows a seat only what it may see.  Draws are automatic.  Every
step appends events (mjai-style dicts, see ``docs/records.md``) to :attr:`Match.events`; a
match is fully determined by (rules, seed, the actions taken).

>>> m = Match(seed=1)
>>> while not m.is_over and m.hand_number < 1:
...     seat = m.to_act
...     m.apply(seat, m.legal_actions(seat)[0])
>>> sum(m.scores)
0
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from .meld import Meld, MeldType
from .rules import CLASSIC, Rules
from .score import HandInput, Scorer, score_input
from .tiles import TILE_TEXT, TILES, Tile, TileError, wild_kinds
from .wall import SEATS, Dice, Wall

__all__ = ["Action", "IllegalAction", "Match", "Payment"]

KONG_POINTS = {MeldType.KONG: 1, MeldType.ADDED_KONG: 1, MeldType.CONCEALED_KONG: 2}  # R6
ACTION_TYPES = ("sit", "pull", "discard", "pon", "kong", "added_kong", "ankong", "win", "pass")


class IllegalAction(ValueError):
    """An action that is not legal for that seat now; the state is unchanged."""


class Action(NamedTuple):
    """One decision: ``sit`` (count 1 = sit, 0 = not), ``pull`` (count = pulls), ``discard``/
    ``ankong``/``added_kong`` (tile), ``pon``/``kong`` (the claimed discard), ``win``, ``pass``.

    A named tuple: the engine lists every legal action at every decision, so they must be cheap.
    """

    type: str
    tile: Tile | None = None
    count: int = 0  # type: ignore[assignment]  # shadows tuple.count on purpose: the public field name

    def __str__(self) -> str:
        if self.type in ("sit", "pull"):
            return f"{self.type} {self.count}"
        return f"{self.type} {TILE_TEXT[self.tile]}" if self.tile is not None else self.type

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"discard 5m"``, ``"pon"``, ``"sit 1"``, ``"pull 2"``, ``"win"``, ``"ankong 1z"``."""
        parts = text.split()
        if not parts or parts[0] not in ACTION_TYPES:
            raise IllegalAction(f"unknown action {text!r}; actions are {', '.join(ACTION_TYPES)}")
        kind = parts[0]
        if kind in ("sit", "pull"):
            if len(parts) != 2 or not parts[1].isdigit():
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
        d: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            d["tile"] = TILE_TEXT[self.tile]
        if self.type in ("sit", "pull"):
            d["count"] = self.count
        return d


_DISCARD = tuple(Action("discard", TILES[k]) for k in range(34))  # reused: listed at every turn


@dataclass(frozen=True)
class Payment:
    """One transfer of a settlement (R8): ``reason`` is win, kong, chan (铲) or penalty."""

    reason: str
    payer: int
    payee: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "payer": self.payer, "payee": self.payee, "amount": self.amount}


class _Seat:
    __slots__ = ("hand", "counts", "melds", "discards", "xiaoxianggong", "kongs", "drew")

    def __init__(self) -> None:
        self.hand: list[Tile] = []  # concealed tiles, the drawn one included
        self.counts = [0] * 34  # the same per kind, kept in step by add/remove
        self.melds: list[Meld] = []
        self.discards: list[Tile] = []
        self.xiaoxianggong = False  # discarded a wild: can no longer win (R2)
        self.kongs: list[MeldType] = []
        self.drew = 0  # draws made this hand (天胡 for non-dealers: the first one)

    def add(self, t: Tile) -> None:
        self.hand.append(t)
        self.counts[t] += 1

    def remove(self, t: Tile, n: int = 1) -> None:
        for _ in range(n):
            self.hand.remove(t)
        self.counts[t] -= n


class Match:
    """A match of Tianjin mahjong: hands, dealer rotation, rounds and pots (R3–R9).

    ``walls``: optional scripted walls for tests, one per hand in order: ``(tiles, dice)`` with
    ``tiles`` 136 kinds in ring order (see :class:`tjmj.wall.Wall`) and a :class:`Dice`.
    """

    def __init__(self, rules: Rules = CLASSIC, seed: int = 0, *, names: list[str] | None = None,
                 walls: list[tuple[list[int], Dice]] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.walls = list(walls) if walls else []
        self.events: list[dict[str, Any]] = []
        self.scores = [0] * SEATS
        self.names = names or [f"player{i}" for i in range(SEATS)]
        # seat winds are drawn at random (R3): seating[seat] = player index.  打风 draws four
        # face-down wind tiles, one per player (same distribution; the tiles are recorded)
        draw_order = list(range(SEATS))
        self.rng.shuffle(draw_order)
        self.seating = draw_order
        self.dafeng = (
            [TILE_TEXT[27 + draw_order.index(p)] for p in range(SEATS)] if rules.seating == "dafeng" else None
        )
        self.dealer = 0
        self.hand_number = 0  # hands finished
        self.round = 0  # 圈 finished
        self.pot_left = [rules.pot_stake] * SEATS
        self.is_over = False
        self.sat_last = False  # the dealer sat and kept the deal: must sit again (R7)
        self.phase = "sit"
        self.sit = False
        self.pulls = [0] * SEATS
        self._pull_next = 0
        self._version = 0  # bumped by every action: legal actions are cached per version
        self._legal: tuple[int, list[Action]] | None = None
        self.log("start_game", names=[self.names[p] for p in self.seating], seating=self.seating, seed=seed,
                 rules=rules.to_dict(), dafeng=self.dafeng)
        self._begin_choices()

    # ---- events ------------------------------------------------------------------------

    def log(self, type_: str, **fields: Any) -> dict[str, Any]:
        ev = {"type": type_, **fields}
        self.events.append(ev)
        return ev

    # ---- the phases --------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat whose decision it is (−1 when the match is over)."""
        if self.is_over:
            return -1
        return self.actor

    def _begin_choices(self) -> None:
        self.sit = False
        self.pulls = [0] * SEATS
        if self.rules.forced_sit or self.sat_last:
            self.sit = True  # 死坐庄, or a dealer who sat and kept the deal (R7)
            self._begin_pulls()
        else:
            self.phase, self.actor = "sit", self.dealer

    def _begin_pulls(self) -> None:
        self._pull_next = 1
        if self.rules.max_pull == 0:
            self._deal()
        else:
            self.phase, self.actor = "pull", (self.dealer + 1) % SEATS

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not this seat's decision)."""
        if self.is_over or seat != self.actor:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self._version:
            return list(cached[1])
        acts = self._compute_legal(seat)
        self._legal = (self._version, acts)
        return list(acts)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase == "sit":
            return [Action("sit", None, 1), Action("sit", None, 0)]
        if self.phase == "pull":
            return [Action("pull", None, n) for n in range(self.rules.max_pull + 1)]
        if self.phase == "turn":
            return self._turn_actions(seat)
        if self.phase == "claim":
            return self._claim_actions(seat)
        return []

    def apply(self, seat: int, action: Action | str) -> list[dict[str, Any]]:
        """Do one legal action; returns the events it caused.  Illegal: raises, changes nothing."""
        if isinstance(action, str):
            action = Action.parse(action)
        if action.type in ("pon", "kong") and action.tile is None and self.phase == "claim" and self.pending:
            action = Action(action.type, self.pending[1])  # "pon" names the discard on offer
        if self.is_over:
            raise IllegalAction("the match is over")
        if seat != self.actor:
            raise IllegalAction(f"it is seat {self.actor}'s decision, not seat {seat}'s ({self.phase})")
        legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(f"{action} is not legal for seat {seat} now; legal: {', '.join(map(str, legal))}")
        start = len(self.events)
        self._version += 1
        getattr(self, f"_do_{self.phase}")(seat, action)
        return self.events[start:]

    def _do_sit(self, seat: int, a: Action) -> None:
        self.sit = a.count == 1
        self._begin_pulls()

    def _do_pull(self, seat: int, a: Action) -> None:
        self.pulls[seat] = a.count
        self._pull_next += 1
        if self._pull_next >= SEATS:
            self._deal()
        else:
            self.actor = (self.dealer + self._pull_next) % SEATS

    # ---- the deal (R3) -----------------------------------------------------------------

    def _deal(self) -> None:
        scripted = self.walls[self.hand_number] if self.hand_number < len(self.walls) else None
        if scripted:
            self.wall = Wall.build(self.rng, self.dealer, self.rules.wild_method, tiles=scripted[0], dice=scripted[1])
        else:
            self.wall = Wall.build(self.rng, self.dealer, self.rules.wild_method)
        w = self.wall
        self.indicator = w.indicator
        self.wilds = wild_kinds(self.indicator, self.rules.wild_kinds)
        self.scorer = Scorer(self.indicator, self.rules)
        self.seats = [_Seat() for _ in range(SEATS)]
        for s in range(SEATS):
            for t in w.hands[s]:
                self.seats[s].add(t)
        self.claims_made = False  # a pon or discard kong this hand (铲 needs none)
        self.melds_made = False  # any pon or kong this hand (天胡 needs none)
        self.after_pon = False  # the claimer of a pon discards without drawing: no kong, no win
        self.first_discards: list[tuple[int, Tile]] = []
        self.chan = False
        self.penalties: list[int] = []  # seats that discarded a wild (R2 penalty)
        self.kong_draw = False
        self.last_draw: Tile | None = None
        self.pending: tuple[int, Tile] | None = None  # the discard that may be claimed
        self.log(
            "start_kyoku",
            hand=self.hand_number,
            round=self.round,
            dealer=self.dealer,
            dice=w.dice.to_dict(),
            wall_break={"seat": w.break_seat, "stack": w.break_stack},
            dora_marker=TILE_TEXT[self.indicator],
            wilds=[TILE_TEXT[k] for k in self.wilds],
            sit=self.sit,
            pulls=list(self.pulls),
            scores=list(self.scores),
            tehais=[[TILE_TEXT[t] for t in w.hands[s]] for s in range(SEATS)],
            # a scripted wall (tests) is not derived from the seed, so the record carries it
            **({"wall": [TILE_TEXT[k] for k in scripted[0]]} if scripted else {}),
        )
        self.phase, self.actor = "turn", self.dealer
        self.seats[self.dealer].drew = 0

    # ---- a turn (R4) -------------------------------------------------------------------

    def _is_tianhu(self, seat: int) -> bool:
        """R5.5: the dealer's dealt 14, or a non-dealer's first draw before any pon or kong."""
        st = self.seats[seat]
        if self.melds_made or st.discards or st.melds:
            return False
        if seat == self.dealer:
            return st.drew == 0
        return st.drew == 1 and not self.kong_draw

    def _win_result(self, seat: int, counts: list[int] | None = None):  # noqa: ANN202 - a ScoreResult
        st = self.seats[seat]
        if self.last_draw is None and not self._is_tianhu(seat):
            return None
        if counts is None:
            counts = st.counts
        if not self.scorer.is_complete(counts):  # the cheap test first: most turns end here
            return None
        concealed = list(st.hand)
        draw = self.last_draw if self.last_draw is not None else concealed[-1]
        concealed.remove(draw)
        h = HandInput(tuple(concealed), draw, tuple(st.melds), self.indicator, self.wilds,
                      self.kong_draw, self._is_tianhu(seat), self.rules, tuple(counts))  # type: ignore[arg-type]
        return score_input(h)

    def _turn_actions(self, seat: int) -> list[Action]:
        st = self.seats[seat]
        out: list[Action] = []
        counts = st.counts
        kinds = sorted(set(st.hand))
        if not self.after_pon and self.wall.can_replace():
            for k in kinds:
                if counts[k] == 4:
                    out.append(Action("ankong", k))
            for m in st.melds:
                if m.type is MeldType.PON and counts[m.tile]:
                    out.append(Action("added_kong", m.tile))
        if not self.after_pon and not st.xiaoxianggong:
            r = self._win_result(seat, counts)
            if r is not None and r.win:
                out.append(Action("win"))
        out.extend([_DISCARD[k] for k in kinds])
        return out

    def _do_turn(self, seat: int, a: Action) -> None:
        st = self.seats[seat]
        if a.type == "win":
            self._win(seat)
            return
        if a.type == "discard":
            self._discard(seat, a.tile)
            return
        # kongs: a replacement draw follows (R4)
        assert a.tile is not None
        if a.type == "ankong":
            st.remove(a.tile, 4)
            st.melds.append(Meld(MeldType.CONCEALED_KONG, a.tile))
            st.kongs.append(MeldType.CONCEALED_KONG)
            gold = a.tile in self.wilds
            self.log("ankan", actor=seat, consumed=[TILE_TEXT[a.tile]] * 4, gold=gold)
        else:
            st.remove(a.tile)
            i = next(i for i, m in enumerate(st.melds) if m.type is MeldType.PON and m.tile == a.tile)
            st.melds[i] = Meld(MeldType.ADDED_KONG, a.tile)
            st.kongs.append(MeldType.ADDED_KONG)
            self.log("kakan", actor=seat, pai=TILE_TEXT[a.tile], consumed=[TILE_TEXT[a.tile]] * 3)
        self._replacement(seat)

    def _replacement(self, seat: int) -> None:
        self.melds_made = True
        self._draw(seat, replacement=True)

    def _draw(self, seat: int, replacement: bool = False) -> None:
        """A head draw, or a kong replacement from the tail (R3); none left: the hand is drawn."""
        wall = self.wall
        if not (wall.can_replace() if replacement else wall.can_draw()):
            self._exhausted()
            return
        t = wall.draw_replacement() if replacement else wall.draw()
        st = self.seats[seat]
        st.add(t)
        st.drew += 1
        self.last_draw = t
        self.kong_draw = replacement
        self.pending = None
        self.after_pon = False
        self.log("tsumo", actor=seat, pai=TILE_TEXT[t], replacement=replacement)
        self.phase, self.actor = "turn", seat

    def _discard(self, seat: int, tile: Tile | None) -> None:
        assert tile is not None
        st = self.seats[seat]
        st.remove(tile)
        st.discards.append(tile)
        wild = tile in self.wilds
        self.log("dahai", actor=seat, pai=TILE_TEXT[tile], tsumogiri=tile == self.last_draw, wild=wild)
        if wild and not st.xiaoxianggong:
            st.xiaoxianggong = True  # 小相公: no more wins this hand (R2)
        if wild:
            self.penalties.append(seat)
        # 铲 (R7): the dealer's first discard, then the same kind from each other seat in turn
        if not self.claims_made and len(self.first_discards) < SEATS:
            self.first_discards.append((seat, tile))
            if len(self.first_discards) == SEATS:
                seats_ok = [s for s, _ in self.first_discards] == [(self.dealer + i) % SEATS for i in range(SEATS)]
                if seats_ok and len({t for _, t in self.first_discards}) == 1:
                    self.chan = True
                    self.log("chan", actor=self.dealer, pai=TILE_TEXT[tile])
        self.last_draw = None
        self.kong_draw = False
        self.pending = (seat, tile)
        # a claim is possible for at most one seat (R4): two of a non-wild kind
        claimer = -1
        no_claim = self.rules.last_tiles_no_claim  # 0: no such limit (see docs/rules-notes.md)
        self.after_pon = False
        if not wild:
            for i in range(1, SEATS):
                s = (seat + i) % SEATS
                if self.seats[s].counts[tile] >= 2:
                    claimer = s
                    break
            if claimer >= 0 and no_claim and self.wall.live_count <= no_claim:
                claimer = -1
        if claimer >= 0:
            self.phase, self.actor = "claim", claimer
        else:
            self.pending = None
            self._draw((seat + 1) % SEATS)

    def _claim_actions(self, seat: int) -> list[Action]:
        assert self.pending is not None
        _, tile = self.pending
        n = self.seats[seat].counts[tile]
        out = [Action("pon", tile)]
        if n >= 3 and self.wall.can_replace():
            out.append(Action("kong", tile))
        out.append(Action("pass"))
        return out

    def _do_claim(self, seat: int, a: Action) -> None:
        assert self.pending is not None
        target, tile = self.pending
        st = self.seats[seat]
        if a.type == "pass":
            self.pending = None
            self._draw((target + 1) % SEATS)
            return
        self.claims_made = self.melds_made = True
        st.remove(tile, 2 if a.type == "pon" else 3)
        if a.type == "pon":
            st.melds.append(Meld(MeldType.PON, tile))
            self.log("pon", actor=seat, target=target, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[tile]] * 2)
            # the claimer discards without drawing (R4)
            self.last_draw = None
            self.kong_draw = False
            self.pending = None
            self.after_pon = True
            self.phase, self.actor = "turn", seat
        else:
            st.melds.append(Meld(MeldType.KONG, tile))
            st.kongs.append(MeldType.KONG)
            self.log("daiminkan", actor=seat, target=target, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[tile]] * 3)
            self.pending = None
            self._replacement(seat)

    # ---- the end of a hand (R6–R9) -----------------------------------------------------

    def multiplier(self, a: int, b: int) -> int:
        """R8: 1, ×2 if one is the dealer who sat, ×2 per pull of the other if one is the dealer."""
        if self.dealer not in (a, b) or a == b:
            return 1
        other = b if a == self.dealer else a
        return (2 if self.sit else 1) * (2 ** self.pulls[other])

    def _win(self, seat: int) -> None:
        r = self._win_result(seat)
        assert r is not None and r.win
        st = self.seats[seat]
        concealed = list(st.hand)
        draw = self.last_draw if self.last_draw is not None else concealed[-1]
        concealed.remove(draw)
        self.log(
            "hora",
            actor=seat,
            target=seat,
            pai=TILE_TEXT[draw],
            hand=[TILE_TEXT[t] for t in sorted(concealed)],
            melds=[str(m) for m in st.melds],
            kong_draw=self.kong_draw,
            tianhu=r.hand.tianhu,
            fan=r.fan,
            elements=r.codes,
            name=r.name,
        )
        self._settle(winner=seat, fan=r.fan)

    def _exhausted(self) -> None:
        self.log("ryukyoku", reason="exhausted")
        self._settle(winner=-1, fan=0)

    def _settle(self, winner: int, fan: int) -> None:
        base = self.rules.base
        pays: list[Payment] = []

        def add(reason: str, payer: int, payee: int, units: int) -> None:
            # R8: a payment of 0 is not listed, whatever its kind (chan_units, gold_kong_points and
            # wild_discard_penalty may be 0); the settlement then lists only real transfers
            amount = units * base * self.multiplier(payer, payee)
            if amount:
                pays.append(Payment(reason, payer, payee, amount))

        def each_other(payee: int, units: int, reason: str) -> None:
            for p in range(SEATS):
                if p != payee:
                    add(reason, p, payee, units)

        if winner >= 0:
            each_other(winner, fan, "win")
        if winner >= 0 or self.rules.kong_pay_on_draw:
            for s in range(SEATS):
                for m in self.seats[s].melds:
                    if m.type.is_kong:
                        gold = m.type is MeldType.CONCEALED_KONG and m.tile in self.wilds
                        pts = self.rules.gold_kong_points if gold else KONG_POINTS[m.type]
                        each_other(s, pts, "kong")
        if self.chan:
            for p in range(SEATS):
                if p != self.dealer:
                    add("chan", self.dealer, p, self.rules.chan_units)
        for s in self.penalties:
            for p in range(SEATS):
                if p != s:
                    add("penalty", s, p, self.rules.wild_discard_penalty)
        if self.rules.settlement == "pot":
            capped = []
            for pay in sorted(pays, key=lambda x: ("win", "kong", "chan", "penalty").index(x.reason)):
                amount = min(pay.amount, self.pot_left[pay.payer])
                if amount:
                    self.pot_left[pay.payer] -= amount
                    self.pot_left[pay.payee] += amount
                    capped.append(Payment(pay.reason, pay.payer, pay.payee, amount))
            pays = capped
        deltas = [0] * SEATS
        for pay in pays:
            deltas[pay.payer] -= pay.amount
            deltas[pay.payee] += pay.amount
        for s in range(SEATS):
            self.scores[s] += deltas[s]
        self.log("end_kyoku", payments=[p.to_dict() for p in pays], deltas=deltas, scores=list(self.scores))
        self.last_payments = pays
        self._next_hand(winner)

    def _next_hand(self, winner: int) -> None:
        dealer_keeps = winner == self.dealer or (
            winner < 0 and not any(self.seats[s].kongs for s in range(SEATS) if s != self.dealer)
        )  # R9: a drawn hand keeps the deal unless a non-dealer made a kong
        self.sat_last = dealer_keeps and self.sit
        self.hand_number += 1
        if not dealer_keeps:
            self.dealer = (self.dealer + 1) % SEATS
            if self.dealer == 0:
                self.round += 1
                if self.round % 4 == 0 and self.rules.settlement == "pot":
                    self.pot_left = [self.rules.pot_stake] * SEATS  # a new pot (锅) every 4 rounds
        r = self.rules
        if (r.match_hands is not None and self.hand_number >= r.match_hands) or (
            r.match_hands is None and self.round >= r.match_rounds
        ):
            self.is_over = True
            self.phase = "over"
            self.log("end_game", scores=list(self.scores))
            return
        self._begin_choices()

    # ---- what a seat may see -----------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """Only what ``seat`` may see: its own concealed tiles, never another's or the wall order."""
        obs: dict[str, Any] = {
            "seat": seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "round": self.round,
            "scores": list(self.scores),
            "sit": self.sit,
            "pulls": list(self.pulls),
            "legal_actions": [str(a) for a in self.legal_actions(seat)],
        }
        if self.phase in ("turn", "claim"):
            obs.update(
                indicator=TILE_TEXT[self.indicator],
                wilds=[TILE_TEXT[k] for k in self.wilds],
                dice=self.wall.dice.to_dict(),
                wall_left=self.wall.live_count,
                hand=[TILE_TEXT[t] for t in sorted(self.seats[seat].hand)],
                drawn=TILE_TEXT[self.last_draw] if self.actor == seat and self.last_draw is not None else None,
                claimable=TILE_TEXT[self.pending[1]] if self.pending is not None else None,
                seats=[
                    {
                        "melds": [str(m) for m in st.melds],
                        "discards": [TILE_TEXT[t] for t in st.discards],
                        "hand_size": len(st.hand),
                        "xiaoxianggong": st.xiaoxianggong,
                    }
                    for st in self.seats
                ],
            )
        return obs

    @property
    def returns(self) -> list[int]:
        """The score of each seat (zero-sum)."""
        return list(self.scores)
