"""The game engine: one state machine for every rule family (docs/rules: R3–R9, B1–B7).

In the style of OpenSpiel/PettingZoo: at every moment exactly one seat has a decision
(:attr:`Match.to_act`); :meth:`Match.legal_actions` lists what it may do, :meth:`Match.apply`
does one legal action (anything else raises :class:`IllegalAction` and changes nothing), and
:meth:`Match.observation` shows a seat only what it may see (:meth:`Match.events_for` the events
likewise); it is the one place where visibility is decided.  Draws are automatic.  Every step
appends events (mjai-style dicts, see ``docs/records.md``) to :attr:`Match.events`; a match is
fully determined by (rules, seed, the actions taken).

:class:`Match` is the table loop shared by the families: hands, draws, discards, kongs, the
claim window after a discard, wins, settlement and dealer rotation.  Each rule family is a small
subclass that fills in what is its own (the pre-hand choices, the wall and its wild, the claims a
discard allows, scoring a win, the payments, who deals next), found by name in
:mod:`tjmj.families` as python-chess finds a variant; ``Match(rules)`` makes the subclass of
``rules.family``.

The claim window: after a discard every seat the family allows to claim it is asked in play order
(win, pon, kong, chi, pass); answers stay hidden; the window closes as soon as no answer still to
come could beat the best one (win > pon/kong > chi; between wins, the first in play order), which
gives the same outcome as asking everyone.  Robbing a kong is a window too.

>>> m = Match(seed=1)
>>> while not m.is_over and m.hand_number < 1:
...     seat = m.to_act
...     _ = m.apply(seat, m.legal_actions(seat)[0])  # (apply returns the new events)
>>> sum(m.scores)
0
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ._mypyc import mypyc_attr
from .action import (  # noqa: F401  (the vocabulary, re-exported: tjmj.game has always offered these names)
    _ADDED_KONG,
    _ANKONG,
    _AT_TABLE,
    _CHI,
    _DISCARD,
    _HUNYOU,
    _KONG,
    _PON,
    _PRIORITY,
    ACTION_TYPES,
    PASS,
    WIN,
    Action,
    ActionType,
    ClaimWindow,
    IllegalAction,
    Payment,
    Phase,
    Seat,
    _per_kind,
)
from .meld import Meld, MeldType
from .rules import Rules
from .tiles import TILE_TEXT, TILES, Tile
from .wall import SEATS, Dice, Wall

__all__ = ["ACTION_TYPES", "Action", "ActionType", "ClaimWindow", "IllegalAction", "Match", "PASS", "Payment", "Phase",
           "Seat", "WIN", "resume_seed", "visible_event"]


def _deal_weighted(pool: list[Tile], need: dict[int, int], weights: Sequence[Sequence[float]],
                   rng: random.Random) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """Deal ``need[s]`` tiles of ``pool`` (sorted) to each seat ``s``, one at a time and the seats in
    turn (so no seat has the first pick of every kind), each tile drawn in proportion to its kind's
    weight for that seat (:meth:`Match.determinize`); the rest, in pool order, is returned too."""
    by_kind: dict[int, list[Tile]] = {}
    for t in pool:
        by_kind.setdefault(int(t), []).append(t)
    kinds = sorted(by_kind)
    counts = {k: len(by_kind[k]) for k in kinds}
    dealt: dict[int, list[Tile]] = {s: [] for s in need}
    left = dict(need)
    while any(left.values()):
        for s, n in left.items():
            if not n:
                continue
            w = weights[s]
            total = 0.0
            for k in kinds:
                total += counts[k] * w[k]
            if total <= 0.0:
                raise ValueError(f"no unseen tile can be dealt to seat {s}: every weight is 0")
            r = rng.random() * total
            pick = -1
            for k in kinds:
                share = counts[k] * w[k]
                if share > 0.0:
                    pick = k  # (the last one with a share, should rounding leave r at 0)
                    r -= share
                    if r < 0.0:
                        break
            counts[pick] -= 1
            dealt[s].append(by_kind[pick].pop())
            left[s] = n - 1
    rest = [t for k in kinds for t in by_kind[k]]
    return dealt, rest


def resume_seed(seed: int, hand: int, resume: int) -> int:
    """The seed of the walls from hand ``hand`` on, when that hand is dealt again after the match was
    taken up again by a server (``resume``: the store's count of such takings, docs/records.md).

    A hash of the match's seed: as secret as the seed while the match is played, and a wall nobody
    has seen, whatever part of the interrupted deal a player saw before the restart."""
    digest = hashlib.sha256(f"tjmj resume {seed} {hand} {resume}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def visible_event(ev: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it (None: a spectator): another seat's draw and dealt tiles are
    hidden, the wall never shown.  The web table, outside bots and every client use this."""
    t = ev.get("type")
    if t == "tsumo" and ev.get("actor") != seat:
        return {**ev, "pai": None}
    if t == "start_kyoku":
        out = {k: v for k, v in ev.items() if k != "wall"}
        out["tehais"] = [h if s == seat else None for s, h in enumerate(ev["tehais"])]
        out["hand_sizes"] = [len(h) for h in ev["tehais"]]
        return out
    return ev


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a test may subclass it (no instance patching)
class Match:
    """A match of mahjong under ``rules``: hands, dealer rotation and rounds (R3–R9, B1–B7).

    ``Match(rules)`` is the subclass of ``rules.family`` (:mod:`tjmj.families`).  ``walls``:
    optional scripted walls for tests, one per hand in order: ``(tiles, dice)`` with ``tiles`` 136
    kinds in ring order (see :class:`tjmj.wall.Wall`) and a :class:`Dice`.  ``resumes``: hand
    number -> resume counter, for hands dealt again after a restart: before such a hand is dealt the
    match's rng is seeded afresh (:func:`resume_seed`), for it and every later hand, and its
    ``start_kyoku`` records ``resume`` (a record's replay reads them back from there).
    """

    family: ClassVar[str] = ""
    seat_type: ClassVar[type[Seat]] = Seat
    seat_flags: ClassVar[tuple[str, ...]] = ()  # the family's Seat attributes every seat shows (小相公 …)

    def __new__(cls, rules: Rules | None = None, *args: Any, **kwargs: Any) -> Match:
        if cls is Match:  # the family's own class (python-chess: a variant's Board)
            from .families import default, match_type

            sub = match_type(rules.family if rules is not None else default().name)
            # (mypyc compiles only super().__new__(cls) itself, cls unchanged: ask the family's class)
            return sub.__new__(sub, rules, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, rules: Rules | None = None, seed: int = 0, *, names: list[str] | None = None,
                 walls: list[tuple[list[int], Dice]] | None = None,
                 resumes: Mapping[int, int] | None = None) -> None:
        if rules is None:
            from .families import default  # the registry imports family packages: not at this module's top

            rules = default().default_rules
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.walls = list(walls) if walls else []
        self.resumes: dict[int, int] = dict(resumes) if resumes else {}  # never changed after this
        self.events: list[dict[str, Any]] = []
        self.scores = [0] * SEATS
        self.names = names or [f"player{i}" for i in range(SEATS)]
        self._init_match()
        self.seating = self._draw_seating()  # seating[seat] = player index (R3)
        self.dealer = 0
        self.hand_number = 0  # hands finished
        self.round = 0  # 圈 finished
        self.is_over = False
        self.phase: str = "turn"  # a Phase value
        self.actor = 0
        self.window: ClaimWindow | None = None
        self.pending: tuple[int, Tile] | None = None  # the discard (or kong tile) on offer
        self.wilds: tuple[Tile, ...] = ()  # the wild kinds of the hand (R2, B2): none in some families
        self._version = 0  # bumped by every action: legal actions are cached per version
        self._legal: tuple[int, list[Action]] | None = None
        # the last hand that ended: (its number, its seats, the index of its end_kyoku) for revealed_hands
        self._ended: tuple[int, list[Seat], int] | None = None
        self.last_payments: list[Payment] = []  # the payments of the last hand that ended
        self.log("start_game", names=[self.names[p] for p in self.seating], seating=self.seating, seed=seed,
                 rules=self.rules.to_dict(), **self._start_game_fields())
        self._begin_hand()

    # ---- the family's parts (overridden by each family) -------------------------------------

    def _init_match(self) -> None:
        """The family's state for the whole match (before the seating and the first hand)."""

    def _draw_seating(self) -> list[int]:
        """Seat winds at random (R3): a shuffled list, seating[seat] = player."""
        order = list(range(SEATS))
        self.rng.shuffle(order)
        return order

    def _start_game_fields(self) -> dict[str, Any]:
        return {}

    def _begin_hand(self) -> None:
        """Start the next hand: the pre-hand choices, or the deal."""
        self._deal()

    def _build_wall(self, scripted: tuple[list[int], Dice] | None) -> Wall:
        raise NotImplementedError

    def _new_hand(self) -> None:
        """The family's per-hand state, after the wall is built and the tiles dealt."""

    def _kyoku_fields(self) -> dict[str, Any]:
        """The fields of ``start_kyoku`` (the deal's tiles ``tehais`` are added after these)."""
        w = self.wall
        return {"hand": self.hand_number, "round": self.round, "dealer": self.dealer, "dice": w.dice.to_dict(),
                "wall_break": {"seat": w.break_seat, "stack": w.break_stack}, "scores": list(self.scores)}

    def _pre_hand_actions(self, seat: int) -> list[Action]:
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def _do_turn_other(self, seat: int, a: Action) -> None:
        """A family's own turn action (混儿悠, 混杠)."""
        raise IllegalAction(f"{a} is not an action of this game")

    def _discarded(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        """What a discard does beyond the discard itself (小相公, 铲, 烧庄 …), then who may claim it
        and how, in play order (pass included).  One call: it runs on every discard."""
        return []

    def _rob_options(self, seat: int, tile: Tile, kind: MeldType) -> list[tuple[int, list[Action]]]:
        """Who may rob ``seat``'s kong of ``tile`` (抢杠), in play order."""
        return []

    def _window_closed(self, w: ClaimWindow, winner: tuple[int, Action] | None) -> None:
        """Every answer of a closed window, before it takes effect (the passed-win lock, B3)."""

    def _claimed(self, seat: int, a: Action, source: int) -> None:
        """After a chi, pon or discard kong (counts per hand, 互包 …)."""

    def _win(self, seat: int, source: int | None = None, robbed: MeldType | None = None) -> None:
        """``seat`` wins: self-drawn (``source`` None), on ``source``'s discard, or robbing its kong."""
        raise NotImplementedError

    def _payments(self, winner: int, win: Any) -> list[Payment]:
        raise NotImplementedError

    def _dealer_keeps(self, winner: int) -> bool:
        return winner == self.dealer or winner < 0  # B7; Tianjin's R9 differs

    def _hand_over(self, winner: int) -> None:
        """After the settlement of a hand, before the next one (pots, 上楼 …)."""

    def _observation_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        """Add the family's fields to an observation (always present)."""

    def _table_fields(self, obs: dict[str, Any], seat: int | None) -> None:
        """Add the family's fields to an observation during a hand (turn, claim, rob)."""

    def _win_preview(self, seat: int) -> dict[str, Any]:
        """What ``seat``'s win now would score (``win`` is legal for it): the family's figures."""
        return {}

    def _claim_options(self, seat: int, tile: Tile) -> list[tuple[int, list[Action]]]:
        """Who may claim ``seat``'s discard ``tile`` now and how, in play order (pass included): the
        part of :meth:`_discarded` that only reads the table (:meth:`determinize` asks it again)."""
        return []

    def _copy_state(self, c: Match) -> None:
        """Copy the family's own state into ``c`` (:meth:`clone`), after the base's; a family that adds
        state copies it here (calling super): the lists and dicts that change in play copied, frozen
        things (rules, tiles, melds, scorers) shared.  The hand's state exists only once a hand has been
        dealt (:meth:`_has_hand`)."""

    def _visible_wall_positions(self) -> list[int]:
        """Positions of the wall whose tile every seat sees while it is still in the wall (Beijing's
        混坯): :meth:`determinize` leaves them where they are."""
        return []

    # ---- events ------------------------------------------------------------------------

    def log(self, type_: str, **fields: Any) -> dict[str, Any]:
        ev = {"type": type_, **fields}
        self.events.append(ev)
        return ev

    def events_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The events from ``start`` on as ``seat`` may see them (None: a spectator)."""
        return [visible_event(ev, seat) for ev in self.events[start:]]

    # ---- the phases --------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat whose decision it is (−1 when the match is over)."""
        if self.is_over:
            return -1
        return self.actor

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not this seat's decision)."""
        if self.is_over or seat != self.actor:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self._version:
            return list(cached[1])
        return list(self._legal_now(seat))

    def legal_view(self, seat: int) -> list[Action]:
        """:meth:`legal_actions` without the copy: the engine's own cached list, good until the next
        :meth:`apply`, for a reader that never changes it (the environments' masks, a decision's
        decode)."""
        if self.is_over or seat != self.actor:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self._version:
            return cached[1]
        return self._legal_now(seat)

    def _legal_now(self, seat: int) -> list[Action]:
        """The legal actions of the seat to act, computed and cached for this version (not a copy)."""
        acts = self._compute_legal(seat)
        self._legal = (self._version, acts)
        return acts

    def _compute_legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "turn":
            return self._turn_actions(seat)
        if phase == "claim" or phase == "rob":
            assert self.window is not None
            return list(self.window.options[seat])
        if phase == "sit" or phase == "pull":
            return self._pre_hand_actions(seat)
        return []

    def apply(self, seat: int, action: Action | str) -> list[dict[str, Any]]:
        """Do one legal action; returns the events it caused.  Illegal: raises, changes nothing."""
        if isinstance(action, str):
            action = Action.parse(action)
        if action.tile is None and action.type in ("pon", "kong") and self.window is not None:
            action = Action(action.type, self.window.tile)  # "pon" names the discard on offer
        if self.is_over:
            raise IllegalAction("the match is over")
        if seat != self.actor:
            raise IllegalAction(f"it is seat {self.actor}'s decision, not seat {seat}'s ({self.phase})")
        # the cached list itself, not a copy: it is only read here
        cached = self._legal
        legal = cached[1] if cached is not None and cached[0] == self._version else self._legal_now(seat)
        for a in legal:  # the bots hand back one of these very objects: found by identity
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(
                    f"{action} is not legal for seat {seat} now; legal: {', '.join(map(str, legal))}")
        events = self.events
        start = len(events)
        self._version += 1
        phase = self.phase
        if phase == "turn":  # the explicit dispatch, most frequent first
            self._do_turn(seat, action)
        elif phase == "claim" or phase == "rob":
            self._do_window(seat, action)
        elif phase == "sit":
            self._do_sit(seat, action)
        else:
            self._do_pull(seat, action)
        return events[start:]

    def _do_sit(self, seat: int, a: Action) -> None:
        raise NotImplementedError

    def _do_pull(self, seat: int, a: Action) -> None:
        raise NotImplementedError

    # ---- the deal (R3, B1) ---------------------------------------------------------------

    def _resume_deal(self) -> dict[str, Any]:
        """Before a deal: a hand dealt again after a restart seeds the match's rng afresh (the wall of
        the interrupted deal never comes back, in this hand or a later one); the ``start_kyoku``
        field that records it, or nothing."""
        resume = self.resumes.get(self.hand_number)
        if resume is None:
            return {}
        self.rng = random.Random(resume_seed(self.seed, self.hand_number, resume))
        return {"resume": resume}

    def _deal(self) -> None:
        resumed = self._resume_deal()
        scripted = self.walls[self.hand_number] if self.hand_number < len(self.walls) else None
        self.wall = w = self._build_wall(scripted)
        self.seats = [self.seat_type() for _ in range(SEATS)]
        for s in range(SEATS):
            for t in w.hands[s]:
                self.seats[s].add(t)
        self.melds_made = False  # any claim or kong this hand (天胡/地和 need none)
        self.after_claim = False  # the claimer of a pon or chi discards without drawing: no kong, no win
        self.kong_draw = False
        self.last_draw: Tile | None = None
        self.pending = None
        self.window = None
        self._new_hand()
        self.log(
            "start_kyoku",
            **self._kyoku_fields(),
            tehais=[[TILE_TEXT[t] for t in w.hands[s]] for s in range(SEATS)],
            # a scripted wall (tests) is not derived from the seed, so the record carries it
            **({"wall": [TILE_TEXT[k] for k in scripted[0]]} if scripted else {}),
            **resumed,
        )
        self.phase, self.actor = "turn", self.dealer
        self.seats[self.dealer].drew = 0

    # ---- a turn (R4, B3) -----------------------------------------------------------------

    def _do_turn(self, seat: int, a: Action) -> None:
        t = a.type
        if t == "discard":
            assert a.tile is not None
            self._discard(seat, a.tile)
        elif t == "win":
            self._win(seat)
        elif t == "ankong" or t == "added_kong":
            assert a.tile is not None
            self._kong(seat, a.tile, MeldType.CONCEALED_KONG if t == "ankong" else MeldType.ADDED_KONG)
        else:
            self._do_turn_other(seat, a)

    def _kong_event(self, seat: int, tile: Tile, kind: MeldType) -> None:
        if kind is MeldType.CONCEALED_KONG:
            self.log("ankan", actor=seat, consumed=[TILE_TEXT[tile]] * 4, **self._ankan_fields(tile))
        else:
            self.log("kakan", actor=seat, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[tile]] * 3)

    def _ankan_fields(self, tile: Tile) -> dict[str, Any]:
        return {}

    def _kong(self, seat: int, tile: Tile, kind: MeldType) -> None:
        """A concealed or added kong: declared, perhaps robbed (抢杠), then made with a replacement draw."""
        self._kong_event(seat, tile, kind)
        robbers = self._rob_options(seat, tile, kind)
        if robbers:
            self._open_window("rob", seat, tile, robbers, kong=kind)
            return
        self._make_kong(seat, tile, kind)

    def _make_kong(self, seat: int, tile: Tile, kind: MeldType) -> None:
        st = self.seats[seat]
        if kind is MeldType.CONCEALED_KONG:
            st.remove(tile, 4)
            st.melds.append(Meld(MeldType.CONCEALED_KONG, tile))
        else:
            st.remove(tile)
            i = next(i for i, m in enumerate(st.melds) if m.type is MeldType.PON and m.tile == tile)
            st.melds[i] = Meld(MeldType.ADDED_KONG, tile)
        st.kongs.append(kind)
        self._replacement(seat)

    def _replacement(self, seat: int) -> None:
        self.melds_made = True
        self._draw(seat, replacement=True)

    def _wall_left(self) -> int:
        """Tiles still available to normal draws (R3, B1)."""
        return self.wall.live_count

    def _can_draw(self, replacement: bool) -> bool:
        return self.wall.can_replace() if replacement else self.wall.can_draw()

    def _draw(self, seat: int, replacement: bool = False) -> None:
        """A head draw, or a kong replacement from the tail (R3, B1); none left: the hand is drawn."""
        wall = self.wall
        if not self._can_draw(replacement):
            self._exhausted()
            return
        t = wall.draw_replacement() if replacement else wall.draw()
        st = self.seats[seat]
        st.add(t)
        st.drew += 1
        self.last_draw = t
        self.kong_draw = replacement
        self.pending = None
        self.window = None
        self.after_claim = False
        # the event dict built at once (log's keywords would build it twice): a draw is every turn
        self.events.append({"type": "tsumo", "actor": seat, "pai": TILE_TEXT[t], "replacement": replacement})
        self.phase, self.actor = "turn", seat

    def _discard(self, seat: int, tile: Tile, hunyou: bool = False) -> None:
        st = self.seats[seat]
        st.remove(tile)
        st.discards.append(tile)
        ev = {"type": "dahai", "actor": seat, "pai": TILE_TEXT[tile], "tsumogiri": tile == self.last_draw,
              "wild": tile in self.wilds}
        self.events.append(ev)
        if hunyou:
            ev["hunyou"] = True  # 混儿悠 declared with this discard (B3)
        self.last_draw = None
        self.kong_draw = False
        self.after_claim = False
        self.pending = (seat, tile)
        claims = self._discarded(seat, tile)
        if claims:
            self._open_window("discard", seat, tile, claims)
        else:
            self.pending = None
            self._draw((seat + 1) % SEATS)

    # ---- claim windows -------------------------------------------------------------------

    def _open_window(self, kind: str, source: int, tile: Tile, claims: list[tuple[int, list[Action]]],
                     kong: MeldType | None = None) -> None:
        self.window = ClaimWindow(kind, tile, source, [s for s, _ in claims], dict(claims), kong=kong)
        self.pending = (source, tile)
        self.phase = "claim" if kind == "discard" else "rob"
        self.actor = claims[0][0]

    def _do_window(self, seat: int, a: Action) -> None:
        w = self.window
        assert w is not None
        w.answers[seat] = a
        if not w.decided():
            self.actor = w.waiting()[0]
            return
        best = w.best()
        self._window_closed(w, best)
        self.window = None
        if w.kind == "rob":
            self.pending = None
            if best is not None:  # robbed (抢杠): the kong is not made (B3)
                self._win(best[0], source=w.source, robbed=w.kong)
            else:
                assert w.kong is not None
                self._make_kong(w.source, w.tile, w.kong)
            return
        if best is None:
            self.pending = None
            self._draw((w.source + 1) % SEATS)
            return
        claimer, act = best
        if act.type == "win":
            self._win(claimer, source=w.source)
        else:
            self._claim(claimer, act, w.source, w.tile)

    def _claim(self, seat: int, a: Action, target: int, tile: Tile) -> None:
        """A chi, pon or discard kong of ``target``'s discard ``tile`` (R4, B3)."""
        st = self.seats[seat]
        self.melds_made = True
        self.pending = None
        self.seats[target].claimed.append(len(self.seats[target].discards) - 1)
        if a.type == "chi":
            assert a.tile is not None
            low = a.tile
            others = [TILES[k] for k in range(low, low + 3) if k != tile]
            for t in others:
                st.remove(t)
            st.melds.append(Meld(MeldType.CHI, low))
            self.log("chi", actor=seat, target=target, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[t] for t in others])
        elif a.type == "pon":
            st.remove(tile, 2)
            st.melds.append(Meld(MeldType.PON, tile))
            self.log("pon", actor=seat, target=target, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[tile]] * 2)
        else:
            st.remove(tile, 3)
            st.melds.append(Meld(MeldType.KONG, tile))
            st.kongs.append(MeldType.KONG)
            self.log("daiminkan", actor=seat, target=target, pai=TILE_TEXT[tile], consumed=[TILE_TEXT[tile]] * 3)
        self._claimed(seat, a, target)
        if a.type == "kong":
            self._replacement(seat)
            return
        # the claimer discards without drawing (R4, B3)
        self.last_draw = None
        self.kong_draw = False
        self.after_claim = True
        self.phase, self.actor = "turn", seat

    # ---- the end of a hand (R6–R9, B6–B7) -------------------------------------------------

    def _exhausted(self) -> None:
        self.log("ryukyoku", reason="exhausted")
        self._settle(winner=-1, win=None)

    def _settle(self, winner: int, win: Any) -> None:
        pays = self._payments(winner, win)
        deltas = [0] * SEATS
        for pay in pays:
            deltas[pay.payer] -= pay.amount
            deltas[pay.payee] += pay.amount
        for s in range(SEATS):
            self.scores[s] += deltas[s]
        self.log("end_kyoku", payments=[p.to_dict() for p in pays], deltas=deltas, scores=list(self.scores))
        self.last_payments = pays
        # the next deal replaces self.seats: keep this hand's, untouched from here on (revealed_hands)
        self._ended = (self.hand_number, self.seats, len(self.events) - 1)
        self._next_hand(winner)

    def _next_hand(self, winner: int) -> None:
        keeps = self._dealer_keeps(winner)
        self._hand_over(winner)
        self.hand_number += 1
        if not keeps:
            self.dealer = (self.dealer + 1) % SEATS
            if self.dealer == 0:
                self.round += 1
                self._new_round()
        r = self.rules
        if (r.match_hands is not None and self.hand_number >= r.match_hands) or (
            r.match_hands is None and self.round >= r.match_rounds
        ):
            self.is_over = True
            self.phase = "over"
            self.log("end_game", scores=list(self.scores))
            return
        self._begin_hand()

    def _new_round(self) -> None:
        """The deal came back to East (a new 圈)."""

    # ---- copies, for search -----------------------------------------------------------

    def _has_hand(self) -> bool:
        """Whether a hand has been dealt (before the first deal, Tianjin's 坐庄/拉庄, there is no wall)."""
        return self.hand_number > 0 or (self.phase != "sit" and self.phase != "pull")

    def clone(self, *, events: bool = False) -> Match:
        """An exact, independent copy of the match now: the same actions applied to the copy and to
        this match give the same events and scores from here on, and nothing done to one changes the
        other.  ``events``: with the events so far (a shallow copy of the list: logged events are
        never changed); by default the copy starts with none (cheaper: search plays on copies), and
        its :meth:`revealed_hands` knows only the hands that end in it.

        Everything the copy reads is its own (hands, counts, melds, discards, the wall, the window,
        scores, the family's state, the match's rng); frozen things are shared.  A family that adds
        state copies it in its :meth:`_copy_state`."""
        c = type(self).__new__(type(self))
        c.rules = self.rules
        c.seed = self.seed
        rng = random.Random(0)
        rng.setstate(self.rng.getstate())
        c.rng = rng
        c.walls = self.walls
        c.resumes = self.resumes
        c.events = list(self.events) if events else []
        c.scores = list(self.scores)
        c.names = list(self.names)
        c.seating = list(self.seating)
        c.dealer = self.dealer
        c.hand_number = self.hand_number
        c.round = self.round
        c.is_over = self.is_over
        c.phase = self.phase
        c.actor = self.actor
        w = self.window
        c.window = (None if w is None else
                    ClaimWindow(w.kind, w.tile, w.source, list(w.order), dict(w.options), dict(w.answers), w.kong))
        c.pending = self.pending
        c.wilds = self.wilds
        c._version = self._version
        c._legal = None
        c._ended = self._ended if events else None
        c.last_payments = list(self.last_payments)
        if self._has_hand():
            c.wall = self.wall.copy()
            c.seats = [st.copy() for st in self.seats]
            c.melds_made = self.melds_made
            c.after_claim = self.after_claim
            c.kong_draw = self.kong_draw
            c.last_draw = self.last_draw
        self._copy_state(c)
        return c

    def unseen_counts(self, seat: int) -> list[int]:
        """Copies of each kind (0..33) that ``seat`` has not seen: in the other seats' concealed hands
        and among the wall's tiles not yet drawn and face down — the tiles :meth:`determinize` deals
        again.  It depends on what ``seat`` sees only (the counts, not where the tiles are), so the
        same for two matches that look the same to it; the ``expert`` bot's beliefs
        (:mod:`tjmj.bots.belief`) read it."""
        counts = [0] * 34
        if not self._has_hand() or self.is_over or self.phase not in _AT_TABLE:
            return counts
        w = self.window
        for s in range(SEATS):
            if s == seat or self._keeps_hand(s):
                continue
            for t in self.seats[s].hand:
                counts[t] += 1
            if w is not None and w.kind == "rob" and w.source == s:  # the kong declared, face up
                counts[w.tile] -= 4 if w.kong is MeldType.CONCEALED_KONG else 1
        keep = set(self._visible_wall_positions())
        wall = self.wall
        for i, taken in enumerate(wall.taken):
            if not taken and i not in keep and wall.tiles[i] < 34:
                counts[wall.tiles[i]] += 1
        return counts

    def determinize(self, seat: int, rng: random.Random, *, keep_hands: bool = False,
                    weights: Sequence[Sequence[float]] | None = None) -> Match:
        """A copy of the match (:meth:`clone`) in which everything ``seat`` cannot see is dealt again at
        random: the other seats' concealed tiles and the wall's tiles not yet drawn are one pool,
        shuffled (``rng``) and laid out again, each hand keeping its size.  What ``seat`` sees stays:
        its own hand, every meld, discard and flower, the face-up indicator (Tianjin's is out of the
        wall; Beijing's 混坯 stays in the wall where it lies), a kong being declared (in a rob window its
        tiles are still in the declarer's hand, face up), the counts of tiles left.  MCR's flowers are
        laid aside as soon as they are drawn, so none lands in a hand: the unseen flowers stay among
        the wall's places.  ``seat``'s :meth:`observation` of the copy is the same as of this match.

        The copy tells ``seat`` nothing hidden: the unseen tiles are a uniform random arrangement of
        the tiles it has not seen (what is visible is decided by the engine, as in
        :meth:`observation`), not the true one — two matches that look the same to ``seat`` give the
        same copy for the same ``rng`` state (the unseen tiles are sorted before the shuffle).

        ``keep_hands=True`` leaves the other seats' hands and hidden flags as they truly are and deals
        only the wall's unseen tiles again: an oracle for measurements (what a choice is worth in the
        real position, ``benchmarks/search_findings.py --strong-check``), never for a bot, since it
        tells ``seat`` what it cannot see.  The one
        exception: a hand whose shape the engine relies on stays as it is (Beijing's 混儿悠, declared
        in the open, must win on any draw: :meth:`_keeps_hand`).  In a claim or rob window ``seat`` is
        asked, the other seats' options are listed again from their new hands, and those asked before
        ``seat`` are taken to have passed (their answers are hidden); only the seat asked can be
        determinized for in a window (ValueError).  On another seat's turn its drawn tile is one of
        its new tiles.  Hidden per-seat flags go too
        (Beijing's 过手 of the others is cleared: :meth:`_forget_hidden`), as do the scripted walls of
        later hands and the rng (the copy's later hands come from ``rng``).  Search (the ``expert``
        bot) plays on such copies.

        ``weights``: beliefs about the other hands instead of a uniform deal — ``weights[s][k]``, for
        each other seat ``s`` and kind ``k``, how much likelier a copy of ``k`` is to be in ``s``'s hand
        than in the wall (1: as likely; the entry of ``seat`` itself is not read).  The hands are then
        dealt one tile at a time, the seats in turn, each tile drawn from the unseen ones in proportion
        to its weight for that seat; what is left is the wall, shuffled.  The weights must come from
        what ``seat`` sees (:func:`tjmj.bots.belief.hand_weights`), so that the copy still tells it
        nothing hidden.  Not read with ``keep_hands``."""
        c = self.clone()
        c.rng = random.Random(rng.getrandbits(64))
        c.walls = []
        c.resumes = {}  # else a later hand of the copy would be dealt from the true seed
        if not self._has_hand() or self.is_over or self.phase not in _AT_TABLE:
            return c  # between hands nothing is hidden yet: the next wall comes from the new rng
        if self.window is not None and seat != self.actor:
            raise ValueError(f"in a claim or rob window only the seat asked ({self.actor}) can be determinized "
                             f"for, not seat {seat}: the others' answers are hidden")
        wall = c.wall
        keep = set(self._visible_wall_positions())
        places = [i for i, taken in enumerate(wall.taken) if not taken and i not in keep]
        others = [s for s in range(SEATS) if s != seat]
        fixed: dict[int, list[Tile]] = {s: [] for s in others}
        w = c.window
        if w is not None and w.kind == "rob" and w.source != seat:  # the kong declared, still in the hand
            fixed[w.source] = [w.tile] * (4 if w.kong is MeldType.CONCEALED_KONG else 1)
        for s in others:
            if keep_hands or self._keeps_hand(s):
                fixed[s] = list(c.seats[s].hand)
        pool: list[Tile] = []
        for s in others:
            rest = list(c.seats[s].hand)
            for t in fixed[s]:
                rest.remove(t)
            pool += rest
        flowers: list[Tile] = []
        for i in places:
            t = wall.tiles[i]
            (pool if t < 34 else flowers).append(t)
        # in a fixed order first: the copy then depends on what seat sees and on rng only, never on
        # where the hidden tiles really are
        pool.sort()
        flowers.sort()
        need = {s: len(c.seats[s].hand) - len(fixed[s]) for s in others}
        if weights is not None and not keep_hands:
            dealt, rest = _deal_weighted(pool, need, weights, rng)
            for s in others:
                c.seats[s].set_hand(dealt[s] + fixed[s])
            rest += flowers
        else:
            rng.shuffle(pool)
            at = 0
            for s in others:
                c.seats[s].set_hand(pool[at:at + need[s]] + fixed[s])
                at += need[s]
            rest = pool[at:] + flowers
        rng.shuffle(rest)
        tiles = list(wall.tiles)
        for i, t in zip(places, rest, strict=True):
            tiles[i] = t
        wall.tiles = tiles
        wall.hands = [list(h) if s == seat else [] for s, h in enumerate(wall.hands)]
        if not keep_hands:  # (kept: the true hidden flags and draw, as the clone copied them)
            self._forget_hidden(c, seat)
            if self.phase == "turn" and self.actor != seat and c.last_draw is not None:
                c.last_draw = c.seats[self.actor].hand[-1]  # the other seat's draw: one of its new tiles
        if w is not None:
            if w.kind == "discard":
                opts = c._claim_options(w.source, w.tile)
            else:
                assert w.kong is not None
                opts = c._rob_options(w.source, w.tile, w.kong)
            order = [s for s, _ in opts]
            if seat not in order:  # cannot happen: seat's own options depend on what it sees
                raise RuntimeError(f"seat {seat} lost its claim options in a determinized copy")
            before = order[:order.index(seat)]
            c.window = ClaimWindow(w.kind, w.tile, w.source, order, dict(opts), dict.fromkeys(before, PASS), w.kong)
            c.actor = seat
            if w.kind == "rob":
                c.last_draw = None  # the declarer's draw: hidden (the kong's replacement draw sets it anew)
        return c

    def _keeps_hand(self, seat: int) -> bool:
        """Whether :meth:`determinize` must leave ``seat``'s concealed tiles as they are: a hand the rules
        bind to a shape the engine relies on (Beijing's 混儿悠: it wins on any draw)."""
        return False

    def _forget_hidden(self, c: Match, seat: int) -> None:
        """Clear, in the determinized copy ``c``, the state of seats other than ``seat`` that follows from
        their hidden tiles (Beijing's 过手)."""

    # ---- what a seat may see -----------------------------------------------------------

    def observation(self, seat: int | None) -> dict[str, Any]:
        """Only what ``seat`` may see: its own concealed tiles, never another's or the wall order.
        ``None``: a spectator (public information only, no legal actions)."""
        # in a claim or rob window, who is being asked tells something of their hand (a pair, a
        # sequence, a winning hand): a seat learns only whether it is asked itself (B3)
        in_window = self.window is not None and seat != self.actor
        obs: dict[str, Any] = {
            "family": self.family,  # which family's bot and view play it (the registry's name)
            "seat": seat,
            "phase": self.phase,
            "to_act": None if in_window else self.to_act,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "round": self.round,
            "scores": list(self.scores),
        }
        self._observation_fields(obs, seat)
        obs["legal_actions"] = [str(a) for a in self.legal_actions(seat)] if seat is not None else []
        if self.phase in _AT_TABLE:
            w = self.window
            self._table_fields(obs, seat)
            obs["wall_left"] = self._wall_left()
            if seat is not None:
                obs["hand"] = [TILE_TEXT[t] for t in sorted(self.seats[seat].hand)]
                obs["drawn"] = (TILE_TEXT[self.last_draw] if self.actor == seat and self.last_draw is not None
                                and self.phase == "turn" else None)
            obs["claimable"] = TILE_TEXT[self.pending[1]] if self.pending is not None else None
            obs["window"] = ({"kind": w.kind, "tile": TILE_TEXT[w.tile], "from": w.source,
                              "waiting": [s for s in w.waiting() if s == seat]}
                             if w is not None else None)
            seats = obs["seats"] = [
                {
                    "melds": [str(m) for m in st.melds],
                    "discards": [TILE_TEXT[t] for t in st.discards],
                    "claimed": list(st.claimed),
                    "hand_size": len(st.hand),
                }
                for st in self.seats
            ]
            for flag in self.seat_flags:
                for d, st in zip(seats, self.seats, strict=True):
                    d[flag] = getattr(st, flag)
        return obs

    def full_view(self) -> dict[str, Any]:
        """Everything now, every hand included: for the replay of a stored match (never a live one)."""
        d = self.observation(None)
        d.pop("legal_actions")
        if "seats" in d:
            for s, st in enumerate(self.seats):
                d["seats"][s]["hand"] = [TILE_TEXT[t] for t in sorted(st.hand)]
            d["drawn"] = (TILE_TEXT[self.last_draw] if self.last_draw is not None and self.phase == "turn"
                          else None)
            d["to_act"] = self.to_act
        return d

    def win_preview(self, seat: int) -> dict[str, Any] | None:
        """What ``seat`` would score by declaring ``win`` now — Tianjin ``{"fan", "name", "elements"}``,
        Beijing ``{"value", "name", "elements", "payment"}`` — scored exactly as the win would be;
        None unless ``win`` is legal for ``seat`` now.  It tells that seat's own hand: show it to
        that seat alone."""
        if WIN not in self.legal_actions(seat):
            return None
        return self._win_preview(seat)

    def revealed_hands(self, hand: int | None = None) -> list[dict[str, Any]]:
        """Every seat's concealed tiles (``tiles``, sorted) and melds (``melds``, as in observations)
        as they stood when hand ``hand`` (None: the last one that ended) ended, by seat; a winner's
        ``tiles`` leave out the winning tile (its ``hora`` event's ``hand``).  Once a hand is over
        every hand in it is public (the settlement shows them face up): this is where that is
        decided.  A hand still in play, or not dealt yet, is never revealed (ValueError); only the
        last hand that ended is kept (an earlier one: ValueError too)."""
        ended = self._ended
        if ended is None:
            raise ValueError("no hand has ended yet: a hand in play is never revealed")
        if hand is not None and hand != ended[0]:
            state = "is in play or to come" if hand > ended[0] else "is no longer kept"
            raise ValueError(f"hand {hand} cannot be revealed: it {state} (hand {ended[0]} is the last that ended)")
        _, seats, end = ended
        hora = None
        for i in range(end - 1, -1, -1):  # the win, if any, is logged just before the settlement
            ev = self.events[i]
            if ev["type"] == "hora":
                hora = ev
                break
            if ev["type"] == "start_kyoku":
                break
        out = []
        for s, st in enumerate(seats):
            if hora is not None and hora["actor"] == s:
                out.append({"tiles": list(hora["hand"]), "melds": list(hora["melds"])})
            else:
                out.append({"tiles": [TILE_TEXT[t] for t in sorted(st.hand)], "melds": [str(m) for m in st.melds]})
        return out

    @property
    def returns(self) -> list[int]:
        """The score of each seat (zero-sum)."""
        return list(self.scores)
