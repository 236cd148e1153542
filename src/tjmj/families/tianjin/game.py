"""Tianjin mahjong (天津麻将) on the shared engine: what is Tianjin's own (docs/rules/RULES.md).

坐庄/拉庄 before each hand (R7), the wall with its face-up indicator and the wilds (R2, R3), pon
and kong only, by the one seat that can (R4), self-drawn wins scored by :mod:`tjmj.families.tianjin.score` (R5),
小相公 and its penalty (R2), 铲 (R7), the settlement with the 坐庄/拉庄 multipliers, kong points
and pots (R6, R8), and who deals next (R9).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..._mypyc import mypyc_attr
from ...game import _ADDED_KONG, _ANKONG, _DISCARD, _KONG, _PON, PASS, WIN, Action, Match, Payment, Seat
from ...meld import MeldType
from ...tiles import TILE_TEXT, Tile, wild_kinds
from ...wall import SEATS, Dice, Wall
from .rules import TianjinRules
from .score import HandInput, Scorer, ScoreResult, score_input

__all__ = ["TianjinMatch", "TianjinSeat"]

KONG_POINTS = {MeldType.KONG: 1, MeldType.ADDED_KONG: 1, MeldType.CONCEALED_KONG: 2}  # R6
_SIT = (Action("sit", None, 1), Action("sit", None, 0))


class TianjinSeat(Seat):
    __slots__ = ("xiaoxianggong",)

    def __init__(self) -> None:
        super().__init__()
        self.xiaoxianggong = False  # discarded a wild: can no longer win (R2)

    def _copy_to(self, c: Seat) -> None:
        super()._copy_to(c)
        assert isinstance(c, TianjinSeat)
        c.xiaoxianggong = self.xiaoxianggong


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a test may subclass it (no instance patching)
class TianjinMatch(Match):
    """A match of Tianjin mahjong: hands, 坐庄/拉庄, dealer rotation, rounds and pots (R3–R9)."""

    family: ClassVar[str] = "tianjin"
    seat_type: ClassVar[type[Seat]] = TianjinSeat
    seat_flags: ClassVar[tuple[str, ...]] = ("xiaoxianggong",)
    rules: TianjinRules
    seats: list[TianjinSeat]  # type: ignore[assignment]

    # ---- the match ----------------------------------------------------------------------

    def _init_match(self) -> None:
        self.pot_left = [self.rules.pot_stake] * SEATS
        self.sat_last = False  # the dealer sat and kept the deal: must sit again (R7)
        self.sit = False
        self.pulls = [0] * SEATS
        self._pull_next = 0

    def _draw_seating(self) -> list[int]:
        # 打风 draws four face-down wind tiles, one per player (same distribution; the tiles are recorded)
        draw_order = super()._draw_seating()
        self.dafeng = (
            [TILE_TEXT[27 + draw_order.index(p)] for p in range(SEATS)] if self.rules.seating == "dafeng" else None
        )
        return draw_order

    def _start_game_fields(self) -> dict[str, Any]:
        return {"dafeng": self.dafeng}

    # ---- 坐庄 and 拉庄 (R7) -----------------------------------------------------------------

    def _begin_hand(self) -> None:
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

    def _pre_hand_actions(self, seat: int) -> list[Action]:
        if self.phase == "sit":
            return list(_SIT)
        return [Action("pull", None, n) for n in range(self.rules.max_pull + 1)]

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

    # ---- the deal (R2, R3) --------------------------------------------------------------

    def _build_wall(self, scripted: tuple[list[int], Dice] | None) -> Wall:
        if scripted:
            return Wall.build(self.rng, self.dealer, self.rules.wild_method, tiles=scripted[0], dice=scripted[1])
        return Wall.build(self.rng, self.dealer, self.rules.wild_method)

    def _new_hand(self) -> None:
        self.indicator = self.wall.indicator
        self.wilds = wild_kinds(self.indicator, self.rules.wild_kinds)
        self.scorer = Scorer(self.indicator, self.rules)
        self.claims_made = False  # a pon or discard kong this hand (铲 needs none)
        self.first_discards: list[tuple[int, Tile]] = []
        self.chan = False
        self.penalties: list[int] = []  # seats that discarded a wild (R2 penalty)

    def _kyoku_fields(self) -> dict[str, Any]:
        w = self.wall
        return {"hand": self.hand_number, "round": self.round, "dealer": self.dealer, "dice": w.dice.to_dict(),
                "wall_break": {"seat": w.break_seat, "stack": w.break_stack},
                "dora_marker": TILE_TEXT[self.indicator], "wilds": [TILE_TEXT[k] for k in self.wilds],
                "sit": self.sit, "pulls": list(self.pulls), "scores": list(self.scores)}

    # ---- a turn (R4, R5) -----------------------------------------------------------------

    def _is_tianhu(self, seat: int) -> bool:
        """R5.5: the dealer's dealt 14, or a non-dealer's first draw before any pon or kong."""
        st = self.seats[seat]
        if self.melds_made or st.discards or st.melds:
            return False
        if seat == self.dealer:
            return st.drew == 0
        return st.drew == 1 and not self.kong_draw

    def _win_result(self, seat: int, counts: list[int] | None = None) -> ScoreResult | None:
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
        counts = st.counts
        out: list[Action] = []
        if not self.after_claim:
            if (st.fours or st.melds) and self.wall.can_replace():  # Seat keeps the count of fours
                out += [_ANKONG[k] for k in range(34) if counts[k] == 4]
                out += [_ADDED_KONG[m.tile] for m in st.melds if m.type is MeldType.PON and counts[m.tile]]
            if not st.xiaoxianggong:
                r = self._win_result(seat, counts)
                if r is not None and r.win:
                    out.append(WIN)
        out += [_DISCARD[k] for k in range(34) if counts[k]]  # sorted(set(st.hand))
        return out

    def _ankan_fields(self, tile: Tile) -> dict[str, Any]:
        return {"gold": tile in self.wilds}  # 金杠 (R2)

    def _discarded(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        st = self.seats[seat]
        wild = tile in self.wilds
        if wild:
            st.xiaoxianggong = True  # 小相公: no more wins this hand (R2)
            self.penalties.append(seat)
        # 铲 (R7): the dealer's first discard, then the same kind from each other seat in turn
        if not self.claims_made and len(self.first_discards) < SEATS:
            self.first_discards.append((seat, tile))
            if len(self.first_discards) == SEATS:
                seats_ok = [s for s, _ in self.first_discards] == [(self.dealer + i) % SEATS for i in range(SEATS)]
                if seats_ok and len({t for _, t in self.first_discards}) == 1:
                    self.chan = True
                    self.log("chan", actor=self.dealer, pai=TILE_TEXT[tile])
        return self._claim_options(seat, tile)

    def _claim_options(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        # R4: pon or discard kong, by the one seat that holds two (three) of a non-wild kind
        if tile in self.wilds:
            return []
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            n = self.seats[s].counts[tile]
            if n >= 2:
                no_claim = self.rules.last_tiles_no_claim  # 0: no such limit (see docs/rules-notes.md)
                if no_claim and self.wall.live_count <= no_claim:
                    return []
                out = [_PON[tile]]
                if n >= 3 and self.wall.can_replace():
                    out.append(_KONG[tile])
                out.append(PASS)
                return [(s, out)]
        return []

    def _claimed(self, seat: int, a: Action, source: int) -> None:
        self.claims_made = True

    # ---- copies, for search -------------------------------------------------------------

    def _copy_state(self, c: Match) -> None:
        super()._copy_state(c)
        assert isinstance(c, TianjinMatch)
        c.pot_left = list(self.pot_left)
        c.sat_last = self.sat_last
        c.sit = self.sit
        c.pulls = list(self.pulls)
        c._pull_next = self._pull_next
        c.dafeng = self.dafeng  # the seating draw: never changed
        if self._has_hand():
            c.indicator = self.indicator
            c.scorer = self.scorer  # read only
            c.claims_made = self.claims_made
            c.first_discards = list(self.first_discards)
            c.chan = self.chan
            c.penalties = list(self.penalties)

    # ---- the end of a hand (R6–R9) -----------------------------------------------------

    def multiplier(self, a: int, b: int) -> int:
        """R8: 1, ×2 if one is the dealer who sat, ×2 per pull of the other if one is the dealer."""
        if self.dealer not in (a, b) or a == b:
            return 1
        other = b if a == self.dealer else a
        return (2 if self.sit else 1) * (2 ** self.pulls[other])

    def _win(self, seat: int, source: int | None = None, robbed: MeldType | None = None) -> None:
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
        self._settle(winner=seat, win=r.fan)

    def _win_preview(self, seat: int) -> dict[str, Any]:
        r = self._win_result(seat)  # as _win scores it
        assert r is not None and r.win
        return {"fan": r.fan, "name": r.name, "elements": r.codes}

    def _payments(self, winner: int, win: Any) -> list[Payment]:
        rules = self.rules
        base = rules.base
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
            each_other(winner, win, "win")
        if winner >= 0 or rules.kong_pay_on_draw:
            for s in range(SEATS):
                for m in self.seats[s].melds:
                    if m.type.is_kong:
                        gold = m.type is MeldType.CONCEALED_KONG and m.tile in self.wilds
                        pts = rules.gold_kong_points if gold else KONG_POINTS[m.type]
                        each_other(s, pts, "kong")
        if self.chan:
            for p in range(SEATS):
                if p != self.dealer:
                    add("chan", self.dealer, p, rules.chan_units)
        for s in self.penalties:
            for p in range(SEATS):
                if p != s:
                    add("penalty", s, p, rules.wild_discard_penalty)
        if rules.settlement == "pot":
            capped = []
            for pay in sorted(pays, key=lambda x: ("win", "kong", "chan", "penalty").index(x.reason)):
                amount = min(pay.amount, self.pot_left[pay.payer])
                if amount:
                    self.pot_left[pay.payer] -= amount
                    self.pot_left[pay.payee] += amount
                    capped.append(Payment(pay.reason, pay.payer, pay.payee, amount))
            pays = capped
        return pays

    def _dealer_keeps(self, winner: int) -> bool:
        # R9: a drawn hand keeps the deal unless a non-dealer made a kong
        keeps = winner == self.dealer or (
            winner < 0 and not any(self.seats[s].kongs for s in range(SEATS) if s != self.dealer)
        )
        self.sat_last = keeps and self.sit
        return keeps

    def _new_round(self) -> None:
        if self.round % 4 == 0 and self.rules.settlement == "pot":
            self.pot_left = [self.rules.pot_stake] * SEATS  # a new pot (锅) every 4 rounds

    # ---- what a seat may see -----------------------------------------------------------

    def _observation_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["sit"] = self.sit
        obs["pulls"] = list(self.pulls)

    def _table_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["indicator"] = TILE_TEXT[self.indicator]
        obs["wilds"] = [TILE_TEXT[k] for k in self.wilds]
        obs["dice"] = self.wall.dice.to_dict()

    # for code written before the family seam: the claimer of a pon discards without drawing
    @property
    def after_pon(self) -> bool:
        return self.after_claim



MATCH = TianjinMatch  # the registry's Family.match_type
