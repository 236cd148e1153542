"""Chinese Official mahjong (国标麻将, MCR) on the shared engine: what is MCR's own (docs/rules/MCR.md).

The wall of 144 tiles with the flowers, laid aside and replaced from the tail as soon as they are
dealt or drawn (M1); 16 hands with the dealer passing after every hand and the prevalent wind
changing every four (M1); chi by the next seat only, pon and kong by any, a discard win by any with
截和 (the first in play order after the discarder), robbing an added kong but never a concealed one,
and a win only with at least ``min_fan`` (8) fan not counting flowers (M2), scored by
:mod:`.score` (M3); the settlement 8 + fan (M4).

Flowers are :class:`tjmj.tiles.Flower` values 34..41: they are in the wall but never in a hand or a
34-entry count array.  A flower dealt is logged in ``start_kyoku``'s ``tehais``, then laid aside
(``flower`` event) and replaced (``tsumo`` with ``replacement``), dealer first, pass after pass
until nobody holds one; a flower drawn is logged as drawn (``tsumo``), laid aside (``flower``) and
replaced at once (docs/records.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..._mypyc import mypyc_attr
from ...game import _ADDED_KONG, _ANKONG, _CHI, _DISCARD, _KONG, _PON, PASS, WIN, Action, Match, Payment, Seat
from ...meld import MeldType
from ...tiles import FLOWER_TEXT, NUM_KINDS, TILE_TEXT, TILES, Flower, Tile
from ...wall import SEATS, Dice, Wall
from .rules import BASIC_PAYMENT, McrRules
from .score import McrMeld, McrResult, McrSituation, is_complete_mcr, score_mcr

__all__ = ["McrMatch", "McrSeat", "WINDS", "fan_list"]

WINDS = ("E", "S", "W", "N")  # seat and prevalent winds, as observations show them (records: 0..3)


class McrSeat(Seat):
    __slots__ = ("flower_tiles", "meld_info")

    def __init__(self) -> None:
        super().__init__()
        self.flower_tiles: list[Flower] = []  # laid aside, face up (M1): public
        # per meld, in step with ``melds``: (the claimed tile, offer) — offer 1 the previous seat,
        # 2 the opposite, 3 the next (who the tile came from, M3's input); (None, 0) for a concealed kong
        self.meld_info: list[tuple[Tile | None, int]] = []

    def _copy_to(self, c: Seat) -> None:
        super()._copy_to(c)
        assert isinstance(c, McrSeat)
        c.flower_tiles = list(self.flower_tiles)
        c.meld_info = list(self.meld_info)

    @property
    def flowers(self) -> list[str]:
        """The flowers laid aside, as text (``1f``–``8f``): what every seat sees (M1)."""
        return [FLOWER_TEXT[f - NUM_KINDS] for f in self.flower_tiles]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a test may subclass it (no instance patching)
class McrMatch(Match):
    """A match of Chinese Official mahjong: 16 hands, the dealer passing after every hand (M1–M4)."""

    family: ClassVar[str] = "mcr"
    seat_type: ClassVar[type[Seat]] = McrSeat
    seat_flags: ClassVar[tuple[str, ...]] = ("flowers",)
    rules: McrRules
    seats: list[McrSeat]  # type: ignore[assignment]

    def _init_match(self) -> None:
        self.kong_chain = False  # from a kong's replacement draw to the next head draw (杠上开花, M3)
        self._window_tile: Tile | None = None

    # ---- the winds (M1) -----------------------------------------------------------------

    @property
    def prevalent_wind(self) -> int:
        """圈风: East for hands 1–4, South 5–8, West 9–12, North 13–16 (0..3)."""
        return self.round % SEATS

    def seat_wind(self, seat: int) -> int:
        """门风 of ``seat`` (0..3): the dealer is East, the winds moving with the deal (M1)."""
        return (seat - self.dealer) % SEATS

    # ---- the deal and the flowers (M1) --------------------------------------------------------

    def _build_wall(self, scripted: tuple[list[int], Dice] | None) -> Wall:
        flowers = self.rules.flowers
        if scripted:
            return Wall.build(self.rng, self.dealer, "none", tiles=scripted[0], dice=scripted[1], flowers=flowers)
        return Wall.build(self.rng, self.dealer, "none", flowers=flowers)

    def _kyoku_fields(self) -> dict[str, Any]:
        w = self.wall
        return {"hand": self.hand_number, "round": self.round, "dealer": self.dealer, "dice": w.dice.to_dict(),
                "wall_break": {"seat": w.break_seat, "stack": w.break_stack},
                "prevalent_wind": self.prevalent_wind, "scores": list(self.scores)}

    def _deal(self) -> None:
        """The deal (the base's, with the flowers): tiles from the head, then the flowers dealt are
        laid aside and replaced from the tail, dealer first in play order, pass after pass until
        nobody holds one (M1)."""
        resumed = self._resume_deal()
        scripted = self.walls[self.hand_number] if self.hand_number < len(self.walls) else None
        self.wall = w = self._build_wall(scripted)
        self.seats = [McrSeat() for _ in range(SEATS)]
        held: list[list[Flower]] = [[] for _ in range(SEATS)]
        for s in range(SEATS):
            for t in w.hands[s]:
                if isinstance(t, Flower):
                    held[s].append(t)
                else:
                    self.seats[s].add(t)
        self.melds_made = False
        self.after_claim = False
        self.kong_draw = False
        self.kong_chain = False
        self.last_draw = None
        self.pending = None
        self.window = None
        self._new_hand()
        self.log(
            "start_kyoku",
            **self._kyoku_fields(),
            tehais=[[str(t) for t in w.hands[s]] for s in range(SEATS)],
            **({"wall": [TILE_TEXT[k] if k < NUM_KINDS else FLOWER_TEXT[k - NUM_KINDS] for k in scripted[0]]}
               if scripted else {}),
            **resumed,
        )
        while any(held):
            for j in range(SEATS):
                s = (self.dealer + j) % SEATS
                mine, held[s] = held[s], []
                for f in mine:
                    self._lay_aside(s, f)
                    t = w.draw_replacement()
                    self.log("tsumo", actor=s, pai=str(t), replacement=True)
                    if isinstance(t, Flower):
                        held[s].append(t)  # replaced in the next pass
                    else:
                        self.seats[s].add(t)
        self.phase, self.actor = "turn", self.dealer
        self.seats[self.dealer].drew = 0

    def _lay_aside(self, seat: int, flower: Flower) -> None:
        self.seats[seat].flower_tiles.append(flower)
        self.log("flower", actor=seat, pai=str(flower))

    def _draw(self, seat: int, replacement: bool = False) -> None:
        """A head draw, or a replacement from the tail (after a kong or a flower); a flower drawn is
        laid aside and replaced at once; nothing left to draw: the hand is drawn (荒庄, M1)."""
        if not replacement:
            self.kong_chain = False
        wall = self.wall
        while True:
            if not self._can_draw(replacement):
                self._exhausted()
                return
            t = wall.draw_replacement() if replacement else wall.draw()
            if not isinstance(t, Flower):
                break
            self.log("tsumo", actor=seat, pai=str(t), replacement=replacement)
            self._lay_aside(seat, t)
            replacement = True
        st = self.seats[seat]
        st.add(t)
        st.drew += 1
        self.last_draw = t
        self.kong_draw = replacement
        self.pending = None
        self.window = None
        self.after_claim = False
        self.log("tsumo", actor=seat, pai=TILE_TEXT[t], replacement=replacement)
        self.phase, self.actor = "turn", seat

    def _replacement(self, seat: int) -> None:
        self.kong_chain = True  # 杠上开花 if this draw (or a flower's replacement after it) wins (M3)
        super()._replacement(seat)

    def _make_kong(self, seat: int, tile: Tile, kind: MeldType) -> None:
        if kind is MeldType.CONCEALED_KONG:
            self.seats[seat].meld_info.append((None, 0))
        # an added kong keeps its pon's place, claimed tile and offer
        super()._make_kong(seat, tile, kind)

    # ---- a turn (M2) ---------------------------------------------------------------------

    def _turn_actions(self, seat: int) -> list[Action]:
        st = self.seats[seat]
        counts = st.counts
        kinds = [TILES[k] for k in range(34) if counts[k]]  # sorted(set(st.hand))
        out: list[Action] = []
        if not self.after_claim:  # a chi or pon is followed by a discard only
            if (st.fours or st.melds) and self.wall.can_replace():
                if st.fours:
                    out += [_ANKONG[k] for k in kinds if counts[k] == 4]
                out += [_ADDED_KONG[m.tile] for m in st.melds if m.type is MeldType.PON and counts[m.tile]]
            if is_complete_mcr(counts, len(st.melds)) and self._self_drawn_win(seat)[0].win:
                out.append(WIN)
        out += [_DISCARD[k] for k in kinds]
        return out

    # ---- claims (M2) -----------------------------------------------------------------------

    def _discarded(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        """Who may claim the discard and how: a win by any (8 fan), pon and kong by any, chi by the
        next seat only; the last discard (the wall empty) only for a win (see docs/rules-notes.md)."""
        return self._claim_options(seat, tile)

    def _claim_options(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        last = not self.wall.can_draw()
        nxt = (seat + 1) % SEATS
        out = []
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            st = self.seats[s]
            counts = st.counts
            opts: list[Action] = []
            counts[tile] += 1
            complete = is_complete_mcr(counts, len(st.melds))
            counts[tile] -= 1
            if complete and self._score(s, counts, tile, self_drawn=False, robbed=False)[0].win:
                opts.append(WIN)
            if not last:
                n = counts[tile]
                if n >= 2:
                    opts.append(_PON[tile])
                if n >= 3:
                    opts.append(_KONG[tile])
                if s == nxt and tile < 27:
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

    def _copy_state(self, c: Match) -> None:
        super()._copy_state(c)
        assert isinstance(c, McrMatch)
        c.kong_chain = self.kong_chain
        c._window_tile = self._window_tile

    def _claimed(self, seat: int, a: Action, source: int) -> None:
        claimed = self.seats[source].discards[-1]
        self.seats[seat].meld_info.append((claimed, (seat - source) % SEATS))

    def _rob_options(self, seat: int, tile: Tile, kind: MeldType) -> list[tuple[int, list[Action]]]:
        """抢杠和 (M2): any player whose hand the added kong's tile wins (8 fan); a concealed kong is
        never robbed."""
        if kind is not MeldType.ADDED_KONG:
            return []
        out = []
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            st = self.seats[s]
            counts = st.counts
            counts[tile] += 1
            complete = is_complete_mcr(counts, len(st.melds))
            counts[tile] -= 1
            if complete and self._score(s, counts, tile, self_drawn=False, robbed=True)[0].win:
                out.append((s, [WIN, PASS]))
        return out

    def _do_window(self, seat: int, a: Action) -> None:
        # the tile won on is needed after the window closes (the base forgets the window first)
        self._window_tile = self.window.tile if self.window is not None else None
        super()._do_window(seat, a)

    # ---- scoring a win (M3) ----------------------------------------------------------------

    def _visible(self, kind: int) -> int:
        """Copies of ``kind`` face up on the table: in the ponds (a claimed discard counted in its
        meld instead) and in exposed melds (not concealed kongs)."""
        n = 0
        for st in self.seats:
            if kind in st.discards:
                claimed = st.claimed
                n += sum(1 for i, t in enumerate(st.discards) if t == kind and i not in claimed)
            for m in st.melds:
                if m.type is not MeldType.CONCEALED_KONG:
                    n += m.tiles.count(kind)  # type: ignore[arg-type]
        return n

    def _situation(self, seat: int, tile: Tile, *, self_drawn: bool, robbed: bool) -> McrSituation:
        """The table's part of a win (M3): 和绝张 from what is face up, 杠上开花/抢杠和, 妙手回春/海底捞月,
        the winds and the flowers."""
        on_discard = not self_drawn and not robbed  # the discard itself lies in the pond
        return McrSituation(
            self_drawn=self_drawn,
            fourth_tile=self._visible(tile) - (1 if on_discard else 0) == 3,
            about_kong=robbed or (self_drawn and self.kong_draw and self.kong_chain),
            wall_last=not robbed and not self.wall.can_draw(),
            seat_wind=self.seat_wind(seat),
            prevalent_wind=self.prevalent_wind,
            flowers=len(self.seats[seat].flower_tiles),
        )

    def _score(self, seat: int, before: list[int], tile: Tile, *, self_drawn: bool,
               robbed: bool) -> tuple[McrResult, McrSituation]:
        """``seat``'s hand ``before`` (per kind, without the winning tile) winning on ``tile``."""
        st = self.seats[seat]
        concealed = [TILES[k] for k in range(NUM_KINDS) for _ in range(before[k])]
        melds = [McrMeld(type=m.type.value, tile=m.tile, claimed=c, offer=o)
                 for m, (c, o) in zip(st.melds, st.meld_info, strict=True)]
        sit = self._situation(seat, tile, self_drawn=self_drawn, robbed=robbed)
        return score_mcr(concealed, tile, melds, sit, min_fan=self.rules.min_fan), sit

    def _self_drawn_win(self, seat: int) -> tuple[McrResult, McrSituation, Tile]:
        """A self-drawn win now: on the tile just drawn, or (the dealer's 14 dealt tiles) on the
        tile that scores best (see docs/rules-notes.md)."""
        st = self.seats[seat]
        choices = [self.last_draw] if self.last_draw is not None else [TILES[k] for k in sorted(set(st.hand))]
        best: tuple[McrResult, McrSituation, Tile] | None = None
        for tile in choices:
            before = list(st.counts)
            before[tile] -= 1
            res, sit = self._score(seat, before, tile, self_drawn=True, robbed=False)
            if best is None or (res.win, res.fan) > (best[0].win, best[0].fan):
                best = (res, sit, tile)
        assert best is not None
        return best

    def _score_win(self, seat: int, source: int | None, robbed: MeldType | None,
                   window_tile: Tile | None) -> tuple[McrResult, McrSituation, Tile, list[int]]:
        """The result of ``seat``'s win, its situation, the winning tile and the concealed tiles per
        kind before it: a win and its preview are scored alike."""
        st = self.seats[seat]
        if source is not None:  # on a discard, or robbing a kong: the tile is not in the hand
            assert window_tile is not None
            tile = window_tile
            before = list(st.counts)
            res, sit = self._score(seat, before, tile, self_drawn=False, robbed=robbed is not None)
        else:
            res, sit, tile = self._self_drawn_win(seat)
            before = list(st.counts)
            before[tile] -= 1
        assert res.win, (res, sit)
        return res, sit, tile, before

    def _win(self, seat: int, source: int | None = None, robbed: MeldType | None = None) -> None:
        st = self.seats[seat]
        res, sit, tile, before = self._score_win(seat, source, robbed, self._window_tile)
        self.log(
            "hora",
            actor=seat,
            target=seat if source is None else source,
            pai=TILE_TEXT[tile],
            hand=[TILE_TEXT[k] for k in range(NUM_KINDS) for _ in range(before[k])],
            melds=[str(m) for m in st.melds],
            claims=[{"claimed": TILE_TEXT[c] if c is not None else None, "offer": o} for c, o in st.meld_info],
            fan=res.fan,
            flowers=res.flowers,
            total=res.total,
            fans=fan_list(res),
            elements=[f.code for f in res.fans],
            name=res.names,
            self_drawn=source is None,
            rob_kong=robbed is not None,
            about_kong=sit.about_kong,
            wall_last=sit.wall_last,
            fourth_tile=sit.fourth_tile,
            seat_wind=sit.seat_wind,
            prevalent_wind=sit.prevalent_wind,
        )
        self._settle(winner=seat, win=(res.total, source))

    def _win_preview(self, seat: int) -> dict[str, Any]:
        w = self.window
        source = w.source if w is not None else None
        robbed = w.kong if w is not None and w.kind == "rob" else None
        res, _, _, _ = self._score_win(seat, source, robbed, w.tile if w is not None else None)
        pays = self._payments(seat, (res.total, source))  # reads the table, changes nothing
        return {"fan": res.fan, "flowers": res.flowers, "total": res.total, "fans": fan_list(res), "name": res.names,
                "payment": sum(p.amount for p in pays if p.payee == seat)}

    # ---- the settlement (M4) -----------------------------------------------------------------

    def _payments(self, winner: int, win: Any) -> list[Payment]:
        """A discard win (or a robbed kong): the discarder pays 8 + fan, each other player 8; a
        self-drawn win: each pays 8 + fan; fan with the flowers, times ``base``; a drawn hand: none."""
        if winner < 0:
            return []
        total, source = win
        base = self.rules.base
        pays = []
        for p in range(SEATS):
            if p == winner:
                continue
            amount = BASIC_PAYMENT + total if source is None or p == source else BASIC_PAYMENT
            pays.append(Payment("win", p, winner, amount * base))
        return pays

    def _dealer_keeps(self, winner: int) -> bool:
        return False  # M1: the deal passes after every hand (no 连庄)

    # ---- what a seat may see ---------------------------------------------------------------

    def _observation_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["prevalent_wind"] = WINDS[self.prevalent_wind]
        obs["seat_winds"] = [WINDS[self.seat_wind(s)] for s in range(SEATS)]

    def _table_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        obs["dice"] = self.wall.dice.to_dict()


def fan_list(res: McrResult) -> list[dict[str, Any]]:
    """The fans of a result as a record holds them: code, Chinese name, value of one, times counted
    (花牌, the flowers, last when there are any: they are in ``total``, not in ``fan``)."""
    return [{"code": f.code, "name": f.chinese, "fan": f.fan, "count": f.count} for f in res.fans]


MATCH = McrMatch  # the registry's Family.match_type
