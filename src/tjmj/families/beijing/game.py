"""Beijing mahjong (北京麻将) on the shared engine: what is Beijing's own (docs/rules/BEIJING.md).

The wall with its reserve of 7 stacks plus one per kong after the first (B1), the 混坯 and its one
wild kind (B2), 混杠 (B2), chi by the next seat, discard wins with 抢胡 order, one claim per hand,
claimed hands winning only by self-draw, the passed-win lock, 抢杠 and 混儿悠 (B3), scoring by
:mod:`.score` (B4, B5), and the settlement: 点炮, 包三家, 互包, 烧庄, 上楼 (B6); the dealer keeps
the deal after their own win or a drawn hand (B7).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..._mypyc import mypyc_attr
from ...game import (
    _ADDED_KONG,
    _ANKONG,
    _CHI,
    _DISCARD,
    _HUNYOU,
    _KONG,
    _PON,
    PASS,
    WIN,
    Action,
    ClaimWindow,
    Match,
    Payment,
    Seat,
)
from ...meld import MeldType
from ...tiles import TILE_TEXT, TILES, Tile, successor
from ...wall import SEATS, Dice, Wall
from .elements import WinContext
from .rules import BeijingRules
from .score import BeijingResult, BeijingScorer

__all__ = ["BeijingMatch", "BeijingSeat"]

HUNGANG = Action("hungang")


class BeijingSeat(Seat):
    __slots__ = ("claims", "passed_win", "hunyou")

    def __init__(self) -> None:
        super().__init__()
        self.claims = 0  # chi and pon made this hand (B3: one claim per hand; kongs do not count)
        self.passed_win = False  # 过手: passed a discard win; no discard win until after one's own next discard
        self.hunyou = False  # 混儿悠 declared: the next draw wins (B3)

    def _copy_to(self, c: Seat) -> None:
        super()._copy_to(c)
        assert isinstance(c, BeijingSeat)
        c.claims = self.claims
        c.passed_win = self.passed_win
        c.hunyou = self.hunyou


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a test may subclass it (no instance patching)
class BeijingMatch(Match):
    """A match of Beijing mahjong: hands, the dealer keeping the deal, 上楼 (B1–B7)."""

    family: ClassVar[str] = "beijing"
    seat_type: ClassVar[type[Seat]] = BeijingSeat
    seat_flags: ClassVar[tuple[str, ...]] = ("hunyou", "claims")
    rules: BeijingRules
    seats: list[BeijingSeat]  # type: ignore[assignment]

    # ---- the match ----------------------------------------------------------------------

    def _init_match(self) -> None:
        self.upstairs = False  # 上楼 (B6): every payment doubled until North's dealership ends
        self.indicator: Tile | None = None
        self._window_tile: Tile | None = None

    # ---- the deal (B1, B2) --------------------------------------------------------------

    def _build_wall(self, scripted: tuple[list[int], Dice] | None) -> Wall:
        if scripted:
            return Wall.build(self.rng, self.dealer, "tail", tiles=scripted[0], dice=scripted[1])
        return Wall.build(self.rng, self.dealer, "tail")

    def _new_hand(self) -> None:
        r = self.rules
        # the 混坯: the first replacement tile, face up where it lies; the wild is its successor (B2)
        self.indicator = self.wall.indicator if r.wilds else None
        self.wild: Tile | None = successor(self.indicator) if self.indicator is not None else None
        self.wilds = (self.wild,) if self.wild is not None else ()
        self.scorer = BeijingScorer(self.indicator, r)
        self.first_discards: list[tuple[int, Tile]] = []  # the discards while nobody has claimed (烧庄)
        self.claims_made = False
        self.shaozhuang = 0  # rounds of four equal discards from the dealer on (B6)
        self.liable: dict[int, int] = {}  # 互包: seat -> the seat that pays all of its win (B6)
        self._taken_from = [[0] * SEATS for _ in range(SEATS)]  # melds claimed [claimer][from]
        self.upstairs_at_deal = self.upstairs

    def _kyoku_fields(self) -> dict[str, Any]:
        w = self.wall
        return {"hand": self.hand_number, "round": self.round, "dealer": self.dealer, "dice": w.dice.to_dict(),
                "wall_break": {"seat": w.break_seat, "stack": w.break_stack},
                "dora_marker": TILE_TEXT[self.indicator] if self.indicator is not None else None,
                "wilds": [TILE_TEXT[k] for k in self.wilds], "upstairs": self.upstairs,
                "scores": list(self.scores)}

    # ---- the wall's reserve (B1) ----------------------------------------------------------

    def reserve(self) -> int:
        """Tiles kept back from normal draws: 2 × (reserve_stacks + one per kong after the first), every
        kind of kong counted (a robbed one was never made)."""
        s = self.seats  # (spelled out: read at every draw and every observation)
        kongs = len(s[0].kongs) + len(s[1].kongs) + len(s[2].kongs) + len(s[3].kongs)
        return 2 * (self.rules.reserve_stacks + max(0, kongs - 1))

    def _wall_left(self) -> int:
        return max(0, self.wall.remaining - self.reserve())

    def _can_draw(self, replacement: bool) -> bool:
        if replacement:
            return self.wall.can_replace()
        return self.wall.remaining > self.reserve()  # 荒牌 at the reserve line (B1)

    # ---- a turn (B2, B3) -----------------------------------------------------------------

    def _context(self, seat: int, *, self_drawn: bool, rob: bool = False, hunyou: bool = False) -> WinContext:
        st = self.seats[seat]
        first = not self.melds_made and not st.discards and not st.melds
        return WinContext(
            self_drawn=self_drawn,
            dealer=seat == self.dealer,
            last_tile=self_drawn and not self.kong_draw and not rob and not self._can_draw(False),
            kong_draw=self_drawn and self.kong_draw,
            rob_kong=rob,
            hunyou=hunyou,
            tianhe=self_drawn and first and seat == self.dealer and st.drew == 0,
            dihe=self_drawn and first and seat != self.dealer and st.drew == 1 and not self.kong_draw,
        )

    def _self_draw(self, seat: int) -> tuple[bool, int] | None:
        """(win, value) of a self-drawn win now, or None."""
        st = self.seats[seat]
        if not self.scorer.is_complete(st.counts, len(st.melds)):
            return None
        win = self.last_draw if self.last_draw is not None else st.hand[-1]
        return self.scorer.evaluate(st.counts, win, st.melds, self._context(seat, self_drawn=True))

    def _turn_actions(self, seat: int) -> list[Action]:
        st = self.seats[seat]
        out: list[Action] = []
        counts = st.counts
        kinds = [TILES[k] for k in range(34) if counts[k]]  # sorted(set(st.hand))
        if not self.after_claim:
            if self.wild is not None and counts[self.wild] == 4:
                out.append(HUNGANG)  # 混杠 (B2)
            if (st.fours or st.melds) and self.wall.can_replace():
                if st.fours:
                    out += [_ANKONG[k] for k in kinds if counts[k] == 4]
                for m in st.melds:
                    if m.type is MeldType.PON and counts[m.tile]:
                        out.append(_ADDED_KONG[m.tile])
            r = self._self_draw(seat)
            if r is not None and r[0]:
                out.append(WIN)
                if self.rules.hunyou and self.wild is not None and counts[self.wild]:
                    out.extend(self._hunyou_discards(seat))
        out.extend(self._discards(seat, kinds))
        return out

    def _discards(self, seat: int, kinds: list[Tile]) -> list[Action]:
        """B6 option shaozhuang_follow_wind: after the dealer's first discard of a wind, a player who
        holds it must make it their first discard."""
        st = self.seats[seat]
        if self.rules.shaozhuang_follow_wind and seat != self.dealer and not st.discards:
            d = self.seats[self.dealer].discards
            if d and d[0] >= 27 and d[0] <= 30 and st.counts[d[0]]:
                return [_DISCARD[d[0]]]
        return [_DISCARD[k] for k in kinds]

    def _hunyou_discards(self, seat: int) -> list[Action]:
        """混儿悠 (B3): each discard that leaves 13 tiles winning on any draw (a wild stays single)."""
        st = self.seats[seat]
        out = []
        counts = list(st.counts)
        for k in sorted(set(st.hand)):
            counts[k] -= 1
            if self.scorer.hunyou_ready(counts, len(st.melds)):
                out.append(_HUNYOU[k])
            counts[k] += 1
        return out

    def _do_turn_other(self, seat: int, a: Action) -> None:
        if a.type == "hungang":
            self._win(seat, hungang=True)
        elif a.type == "hunyou":
            assert a.tile is not None
            self.seats[seat].hunyou = True
            self._discard(seat, a.tile, hunyou=True)
        else:
            super()._do_turn_other(seat, a)

    def _draw(self, seat: int, replacement: bool = False) -> None:
        super()._draw(seat, replacement)
        st = self.seats[seat]
        if st.hunyou and not self.is_over and self.phase == "turn" and self.actor == seat and not replacement \
                and self.last_draw is not None:
            self._win(seat, hunyou=True)  # the 混儿悠 draw wins by itself (B3)

    def _ankan_fields(self, tile: Tile) -> dict[str, Any]:
        return {}

    # ---- claims (B3) -------------------------------------------------------------------

    def _discarded(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        self.seats[seat].passed_win = False  # 过手 ends with one's own discard (B3)
        if not self.claims_made:
            self._shaozhuang(seat, tile)
        return self._claims(seat, tile)

    def _claim_options(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        return self._claims(seat, tile)

    def _shaozhuang(self, seat: int, tile: Tile) -> None:
        """烧庄 (B6): the dealer's first discard followed by the same kind from each other seat; under
        doubling, each further round of four equal discards doubles it."""
        fd = self.first_discards
        fd.append((seat, tile))
        n = len(fd)
        if n % SEATS:
            return
        rnd = fd[n - SEATS:]
        seats_ok = [s for s, _ in rnd] == [(self.dealer + i) % SEATS for i in range(SEATS)]
        if not seats_ok or len({t for _, t in rnd}) != 1 or n // SEATS != self.shaozhuang + 1:
            return
        if n > SEATS and not self.rules.shaozhuang_doubling:
            return
        self.shaozhuang += 1
        self.log("shaozhuang", actor=self.dealer, pai=TILE_TEXT[tile], rounds=self.shaozhuang)

    def _claims(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        r = self.rules
        out = []
        nxt = (seat + 1) % SEATS
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            st = self.seats[s]
            if st.hunyou:
                continue  # a 混儿悠 player waits for their draw (see docs/rules-notes.md)
            opts: list[Action] = []
            counts = st.counts
            if not st.passed_win:
                counts[tile] += 1
                try:
                    if self.scorer.is_complete(counts, len(st.melds)):
                        res = self.scorer.evaluate(counts, tile, st.melds, self._context(s, self_drawn=False))
                        if res is not None and res[0]:
                            opts.append(WIN)
                finally:
                    counts[tile] -= 1
            may_claim = r.max_claims == 0 or st.claims < r.max_claims
            n = counts[tile]
            if n >= 2 and may_claim:
                opts.append(_PON[tile])
            if n >= 3 and self.wall.can_replace():
                opts.append(_KONG[tile])
            if s == nxt and may_claim and tile < 27:
                num = tile % 9
                for low in range(tile - 2, tile + 1):
                    if low < tile - num or low % 9 > 6:  # the sequence stays in the suit
                        continue
                    if all(counts[k] for k in range(low, low + 3) if k != tile):
                        opts.append(_CHI[low])
            if opts:
                opts.append(PASS)
                out.append((s, opts))
        return out

    def _window_closed(self, w: ClaimWindow, winner: tuple[int, Action] | None) -> None:
        if w.kind != "discard":
            return
        for s, a in w.answers.items():
            if a.type != "win" and WIN in w.options[s]:
                self.seats[s].passed_win = True  # 过手 (B3)

    def _claimed(self, seat: int, a: Action, source: int) -> None:
        self.claims_made = True
        if a.type != "kong":
            self.seats[seat].claims += 1
        n = self.rules.mutual_liability
        self._taken_from[seat][source] += 1
        if n and self._taken_from[seat][source] >= n:  # 互包 (B6): the two pay for each other
            self.liable[seat] = source
            self.liable[source] = seat

    def _rob_options(self, seat: int, tile: Tile, kind: MeldType) -> list[tuple[int, list[Action]]]:
        """抢杠 (B3): any player whose hand the added kong's tile completes; a concealed kong only by a
        hand that wins with 一条龙 on that tile."""
        out = []
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            st = self.seats[s]
            if st.hunyou:
                continue
            counts = st.counts
            counts[tile] += 1
            ok = False
            try:  # (no continue inside try/finally: mypyc does not compile it)
                if self.scorer.is_complete(counts, len(st.melds)):
                    ctx = self._context(s, self_drawn=False, rob=True)
                    if kind is MeldType.CONCEALED_KONG:
                        res = self.scorer.score(counts, tile, st.melds, ctx)
                        ok = res.win and bool({"LONG", "BENHUNLONG"} & set(res.codes))
                    else:
                        ev = self.scorer.evaluate(counts, tile, st.melds, ctx)
                        ok = ev is not None and ev[0]
            finally:
                counts[tile] -= 1
            if ok:
                out.append((s, [WIN, PASS]))
        return out

    # ---- wins and the settlement (B5, B6) --------------------------------------------------

    def _win(self, seat: int, source: int | None = None, robbed: MeldType | None = None, *,
             hungang: bool = False, hunyou: bool = False) -> None:
        st = self.seats[seat]
        res, tile, counts = self._score_win(seat, source, robbed, self._window_tile, hungang=hungang, hunyou=hunyou)
        concealed = [TILES[k] for k in range(34) for _ in range(counts[k])]
        concealed.remove(tile)
        self.log(
            "hora",
            actor=seat,
            target=seat if source is None else source,
            pai=TILE_TEXT[tile],
            hand=[TILE_TEXT[t] for t in concealed],
            melds=[str(m) for m in st.melds],
            value=res.value,
            elements=res.codes,
            name=res.name,
            self_drawn=source is None,
            rob_kong=robbed is not None,
            kong_draw=res.context.kong_draw,
            last_tile=res.context.last_tile,
            hunyou=hunyou,
        )
        self._settle(winner=seat, win=(res, source, robbed))

    def _score_win(self, seat: int, source: int | None, robbed: MeldType | None, window_tile: Tile | None, *,
                   hungang: bool = False, hunyou: bool = False) -> tuple[BeijingResult, Tile, list[int]]:
        """The result of ``seat``'s win, its winning tile and its 14 concealed tiles per kind: a win and
        its preview are scored alike."""
        st = self.seats[seat]
        counts = list(st.counts)
        if source is not None:  # on a discard, or robbing a kong: the tile is not in the hand yet
            assert window_tile is not None
            tile = window_tile
            counts[tile] += 1
            ctx = self._context(seat, self_drawn=False, rob=robbed is not None)
        else:
            tile = self.last_draw if self.last_draw is not None else self._best_dealt(seat)
            ctx = self._context(seat, self_drawn=True, hunyou=hunyou)
        if hungang:
            ctx = WinContext(self_drawn=True, dealer=seat == self.dealer, hungang=True)
        res = self.scorer.score(counts, tile, st.melds, ctx)
        assert res.win, (res, ctx)
        return res, tile, counts

    def _win_preview(self, seat: int) -> dict[str, Any]:
        w = self.window
        source = w.source if w is not None else None
        robbed = w.kong if w is not None and w.kind == "rob" else None
        res, _, _ = self._score_win(seat, source, robbed, w.tile if w is not None else None)
        pays = self._payments(seat, (res, source, robbed))  # reads the table, changes nothing
        return {"value": res.value, "name": res.name, "elements": res.codes,
                "payment": sum(p.amount for p in pays if p.reason == "win" and p.payee == seat)}

    def _do_window(self, seat: int, a: Action) -> None:
        # the tile won on is needed after the window closes (the base forgets the window first)
        self._window_tile = self.window.tile if self.window is not None else None
        super()._do_window(seat, a)

    def _best_dealt(self, seat: int) -> Tile:
        """The dealer's 14 dealt tiles (天和): the copy that scores best is the winning tile (B5)."""
        st = self.seats[seat]
        best, value = st.hand[-1], -1
        for k in sorted(set(st.hand)):
            ev = self.scorer.evaluate(st.counts, TILES[k], st.melds, self._context(seat, self_drawn=True))
            if ev is not None and ev[0] and ev[1] > value:
                best, value = TILES[k], ev[1]
        return best

    def _payments(self, winner: int, win: Any) -> list[Payment]:
        r = self.rules
        up = 2 if self.upstairs else 1
        pays: list[Payment] = []
        if winner >= 0:
            res, source, robbed = win
            assert isinstance(res, BeijingResult)
            share = res.value * r.base * up
            owed = {p: share for p in range(SEATS) if p != winner}
            if robbed is not None and source is not None:
                owed = {source: 3 * share}  # 抢杠: the kong's declarer pays all three shares (B3, B6)
            elif source is not None and r.discard_pays == "discarder":
                owed = {source: 3 * share}  # 包三家 (version A)
            elif source is not None:
                owed[source] *= 2  # 点炮 ×2 on the discarder's payment (version B)
            liable = self.liable.get(winner)
            if liable is not None:  # 互包: the tied player pays all of it
                owed = {liable: sum(owed.values())}
            for p, amount in owed.items():
                if self.seats[p].hunyou:
                    amount *= 2  # a 混儿悠 that another player's win cut short pays double (B3)
                if amount:
                    pays.append(Payment("win", p, winner, amount))
            if self.shaozhuang and r.shaozhuang_units:  # 烧庄, not paid in a drawn hand (B6)
                units = r.shaozhuang_units * 2 ** (self.shaozhuang - 1)
                for p in range(SEATS):
                    if p != self.dealer:
                        pays.append(Payment("shaozhuang", self.dealer, p, units * r.base * up))
        return pays

    # ---- copies, for search -------------------------------------------------------------

    def _copy_state(self, c: Match) -> None:
        super()._copy_state(c)
        assert isinstance(c, BeijingMatch)
        c.upstairs = self.upstairs
        c.indicator = self.indicator
        c._window_tile = self._window_tile
        if self._has_hand():
            c.wild = self.wild
            c.scorer = self.scorer  # read only
            c.first_discards = list(self.first_discards)
            c.claims_made = self.claims_made
            c.shaozhuang = self.shaozhuang
            c.liable = dict(self.liable)
            c._taken_from = [list(row) for row in self._taken_from]
            c.upstairs_at_deal = self.upstairs_at_deal

    def _visible_wall_positions(self) -> list[int]:
        w = self.wall  # the 混坯 lies face up in the wall until it is drawn (B2)
        if self.indicator is not None and not w.taken[w.indicator_index]:
            return [w.indicator_index]
        return []

    def _keeps_hand(self, seat: int) -> bool:
        return self.seats[seat].hunyou  # 混儿悠 (B3): the 13 tiles must win on any draw

    def _forget_hidden(self, c: Match, seat: int) -> None:
        for s, st in enumerate(c.seats):
            if s != seat:
                assert isinstance(st, BeijingSeat)
                st.passed_win = False  # 过手 follows from a hidden hand: nobody sees it

    def _hand_over(self, winner: int) -> None:
        if winner < 0 and self.rules.upstairs:
            self.upstairs = True  # 上楼 (B6): a further drawn hand does not double again

    def _new_round(self) -> None:
        self.upstairs = False  # North's dealership ended: back downstairs (B6)

    # ---- what a seat may see -----------------------------------------------------------

    def _observation_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["upstairs"] = self.upstairs

    def _table_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["indicator"] = TILE_TEXT[self.indicator] if self.indicator is not None else None
        obs["wilds"] = [TILE_TEXT[k] for k in self.wilds]
        obs["dice"] = self.wall.dice.to_dict()
        obs["reserve"] = self.reserve()
        obs["shaozhuang"] = self.shaozhuang
        obs["passed_win"] = self.seats[seat].passed_win if seat is not None else None


MATCH = BeijingMatch  # the registry's Family.match_type
