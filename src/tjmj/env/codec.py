"""The environment's codecs: every engine action as one integer of a fixed ``Discrete`` space, and
every observation as one flat ``float32`` vector (docs/env.md lists both layouts).

The observation is what :meth:`tjmj.game.Match.observation` shows a seat, no more: the engine
decides visibility there, and :func:`encode_observation` (the reference) turns that dict into the
vector field by field.  :class:`Encoder` builds the same vector from the engine's state without the
dict (the dict costs more than a whole engine step); the tests check it against the reference on
many states of every family, so the fast path cannot show a seat anything its observation does not.

Seats in the vector are relative to the observing seat: 0 = itself, 1 = the next seat in play
order (its right, 下家), 2 = opposite (对家), 3 = the previous seat (上家).

What only one family has (Tianjin's 坐庄 and 拉庄, Beijing's 混儿悠, MCR's winds …) the encoder asks
the family's ``env`` part (``tjmj.families.<name>.env``, :attr:`tjmj.family.Family.env`), which
writes those fields itself at the offsets of :data:`OFFSETS`.  The part defines:

* ``seat_flags(seat_state, shown)`` or ``None``: a seat's own flags (``seat_state`` is
  ``match.seats[s]``) into every kept vector that shows it; ``shown`` is ``((vector, the seat
  relative to that vector's viewer), …)``.  Called whenever the seat's state may have changed.
* ``moment_fields(match, seat, vector)`` or ``None``: the fields of the moment at the table (the
  turn, a claim window, a rob window), written on every call.
* ``fixed_fields(match, seat, vector, at_table)``: the fields that do not change while a hand is
  played; ``at_table`` is false before the deal (坐庄/拉庄) and after the match.  A family with
  wilds calls :func:`mark_wilds` there when ``at_table``.
* ``env()``, ``raw_env()``, ``parallel_env()``: PettingZoo's module form with the family's default
  preset (``rules=`` for another), e.g. ``tjmj.families.tianjin.env.env()`` (docs/env.md).

``None`` rather than a function that does nothing: the encoder skips the call (it runs at every
decision).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .. import families
from .. import game as _game
from ..game import Action, Match
from ..meld import MeldType
from ..tiles import NUM_KINDS, TILE_TEXT, TILES

__all__ = [
    "ACTION_SIZE", "ACTIONS", "OBS_FIELDS", "OBS_SIZE", "MAX_DISCARDS", "PHASES",
    "action_index", "decode_action", "action_mask", "mark_legal", "encode_observation", "Encoder", "fields",
    "mark_wilds", "OFFSETS", "SEATS",
]

SEATS = 4
K = NUM_KINDS  # 34 tile kinds, 0..33 = 1m..9m, 1p..9p, 1s..9s, 1z..7z
MAX_PULL = 10  # the largest 拉庄 count any preset or option allows (Tianjin R7: max_pull ≤ 10)

# ---- the actions ----------------------------------------------------------------------------------
# One index per action, the same for every family (a family simply never makes some legal):
#   0..33     discard kind k            34..67   ankong (暗杠/金杠) kind k
#   68..101   added_kong (加杠) kind k   102..135 hunyou (混儿悠, Beijing B3): discard kind k
#   136..156  chi into the sequence starting at suit*7 + (number-1) (1m..7m, 1p..7p, 1s..7s)
#   157 pon   158 kong (明杠 the discard)   159 win   160 pass   161 hungang (混杠, Beijing B2)
#   162 sit 0 (not 坐庄)   163 sit 1 (坐庄)   164..174 pull 0..10 (拉庄 count, Tianjin R7)


def _all_actions() -> list[Action]:
    # the engine's own action objects where it has them: a decoded action is then found in the
    # legal list by identity
    out: list[Action] = [*_game._DISCARD, *_game._ANKONG, *_game._ADDED_KONG, *_game._HUNYOU]
    out += [_game._CHI[suit * 9 + n] for suit in range(3) for n in range(7)]
    out += [Action("pon"), Action("kong"), _game.WIN, _game.PASS, Action("hungang")]
    out += [Action("sit", None, c) for c in (0, 1)]
    out += [Action("pull", None, c) for c in range(MAX_PULL + 1)]
    return out


ACTIONS: tuple[Action, ...] = tuple(_all_actions())
ACTION_SIZE = len(ACTIONS)
# the engine names a claimed pon/kong by the tile on offer: the index forgets the tile
_INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}
_PON, _KONG = _INDEX[Action("pon")], _INDEX[Action("kong")]
_INDEX.update({Action("pon", TILES[k]): _PON for k in range(K)})
_INDEX.update({Action("kong", TILES[k]): _KONG for k in range(K)})
_INDEX_OF = _INDEX.__getitem__


def action_index(action: Action) -> int:
    """The integer of an engine action (``Action("pon", 5m)`` and ``Action("pon")`` are both 157)."""
    i = _INDEX.get(action)
    if i is not None:
        return i
    if action.type == "pon":
        return _PON
    if action.type == "kong":
        return _KONG
    raise ValueError(f"{action} has no index in the action space")


def decode_action(index: int, legal: Sequence[Action]) -> Action | None:
    """The legal engine action an index stands for, or None when none of ``legal`` has it."""
    if not 0 <= index < ACTION_SIZE:
        return None
    a = ACTIONS[index]
    if a in legal:
        return a
    if index in (_PON, _KONG):  # the engine names the claimed tile
        for b in legal:
            if b.type == a.type:
                return b
    return None


_NO_ACTIONS = array("b", bytes(ACTION_SIZE))
_ndarray, _INT8, _FLOAT32 = np.ndarray, np.dtype(np.int8), np.dtype(np.float32)
_MASK_SHAPE = (ACTION_SIZE,)


def action_mask(legal: Iterable[Action]) -> np.ndarray:
    """1 at the index of every legal action, 0 elsewhere (int8, ``ACTION_SIZE`` long)."""
    mask = array("b", _NO_ACTIONS)  # an array's items are cheaper to set than a numpy array's
    mark_legal(legal, mask, 0)
    return _ndarray(_MASK_SHAPE, _INT8, mask)  # a view of the array: the cheapest way numpy offers


def mark_legal(legal: Iterable[Action], out: Any, at: int) -> None:
    """Set ``out[at + index]`` to 1 for every legal action (``out`` a zeroed int8 buffer: a
    mask, or a row of a batch's masks)."""
    try:  # one C-level lookup per action (no dict.get call from Python)
        for i in map(_INDEX_OF, legal):
            out[at + i] = 1
    except KeyError:
        for a in legal:  # pon/kong without a tile, or an action outside the space: raises
            out[at + action_index(a)] = 1


# ---- the observation ------------------------------------------------------------------------------

MAX_DISCARDS = 40  # a seat's pond holds at most 36 tiles in any family (144-tile MCR wall); 40 for slack
MAX_MELDS = 4
PHASES = ("sit", "pull", "turn", "claim", "rob", "over")
MELD_CODES = {MeldType.CHI: 1, MeldType.PON: 2, MeldType.KONG: 3, MeldType.ADDED_KONG: 4,
              MeldType.CONCEALED_KONG: 5}
_MELD_TEXT_CODE = {"chi": 1, "pon": 2, "kong": 3, "added_kong": 4, "ankong": 5}
WIND_LETTERS = ("E", "S", "W", "N")

# (name, shape): the vector is these fields flattened in this order; seat axes are relative
OBS_FIELDS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("hand", (K,)),  # own concealed tiles per kind, the drawn one included (0..4)
    ("drawn", (K,)),  # the tile just drawn, on one's own turn (one-hot)
    ("wilds", (K,)),  # the wild kinds (Tianjin R2, Beijing B2)
    ("indicator", (K,)),  # the face-up indicator (one-hot)
    ("claimable", (K,)),  # the discard or kong tile on offer (one-hot)
    ("window_from", (SEATS,)),  # who offered it (one-hot, relative)
    ("window_kind", (2,)),  # a discard window, a rob-the-kong window
    ("asked", (1,)),  # this seat is asked to answer the window now
    ("melds", (SEATS, MAX_MELDS, 2)),  # each seat's melds in order: type code (chi 1, pon 2, kong 3,
    #                                    added kong 4, concealed kong 5) and lowest kind + 1; 0 = none
    ("discards", (SEATS, MAX_DISCARDS)),  # each seat's discards in order: kind + 1; 0 = none yet
    ("claimed", (SEATS, MAX_DISCARDS)),  # 1 where that discard was claimed by another seat
    ("hand_size", (SEATS,)),
    ("flowers", (SEATS, 8)),  # MCR's flowers laid aside (1f..8f)
    ("scores", (SEATS,)),
    ("dealer", (SEATS,)),  # one-hot, relative
    ("to_act", (SEATS,)),  # one-hot, relative; all 0 when it is not shown (another seat's window)
    ("seat", (SEATS,)),  # own absolute seat (0 = East at the start of the match), one-hot
    ("seat_wind", (SEATS,)),  # MCR's seat wind (M1), one-hot
    ("prevalent_wind", (SEATS,)),  # MCR's prevalent wind (M1), one-hot
    ("phase", (len(PHASES),)),
    ("wall_left", (1,)),
    ("hand_number", (1,)),
    ("round", (1,)),
    ("sit", (1,)),  # Tianjin: the dealer sat (坐庄, R7)
    ("pulls", (SEATS,)),  # Tianjin: each seat's 拉庄 count (R7)
    ("xiaoxianggong", (SEATS,)),  # Tianjin: 小相公 (R2)
    ("upstairs", (1,)),  # Beijing: 上楼 (B6)
    ("reserve", (1,)),  # Beijing: tiles kept back (B1)
    ("shaozhuang", (1,)),  # Beijing: 烧庄 rounds (B6)
    ("passed_win", (1,)),  # Beijing: 过手 (B3)
    ("hunyou", (SEATS,)),  # Beijing: 混儿悠 declared (B3)
    ("claims", (SEATS,)),  # Beijing: chi/pon made this hand (B3)
)


def _offsets() -> dict[str, tuple[int, int, tuple[int, ...]]]:
    out: dict[str, tuple[int, int, tuple[int, ...]]] = {}
    at = 0
    for name, shape in OBS_FIELDS:
        n = int(np.prod(shape))
        out[name] = (at, at + n, shape)
        at += n
    return out


OFFSETS = _offsets()
OBS_SIZE = max(end for _, end, _ in OFFSETS.values())
_OBS_SHAPE = (OBS_SIZE,)
_O = {name: start for name, (start, _, _) in OFFSETS.items()}


def fields(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The named fields of an observation vector, each in its shape (views, not copies)."""
    return {name: vector[a:b].reshape(shape) for name, (a, b, shape) in OFFSETS.items()}


_TEXT_KIND = {t: k for k, t in enumerate(TILE_TEXT)}
_FLOWER_INDEX = {f"{n}f": n - 1 for n in range(1, 9)}


def _rel(s: int, seat: int) -> int:
    return (s - seat) % SEATS


def _meld_code(text: str) -> tuple[int, int]:
    """The (type code, lowest kind + 1) of a meld as observations write it: ``[345m]`` chi,
    ``[777m]`` pon, ``[7777m]`` kong, ``[7777m+]`` added kong, ``(7777m)`` concealed kong."""
    body = text.strip("[]()+")
    digits, suit = body[:-1], body[-1]
    kind = _TEXT_KIND[f"{min(digits)}{suit}"]
    if text.startswith("("):
        code = 5
    elif text.endswith("+]"):
        code = 4
    elif len(set(digits)) > 1:
        code = 1
    else:
        code = 2 if len(digits) == 3 else 3
    return code, kind + 1


def encode_observation(obs: dict[str, Any]) -> np.ndarray:
    """The reference: the vector of an observation dict (:meth:`Match.observation` of a seat).
    Slow and plain; :class:`Encoder` must give exactly the same vector."""
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    f = fields(v)
    seat = obs["seat"]
    for k in (_TEXT_KIND[t] for t in obs.get("hand") or ()):
        f["hand"][k] += 1
    if obs.get("drawn"):
        f["drawn"][_TEXT_KIND[obs["drawn"]]] = 1
    for t in obs.get("wilds") or ():
        f["wilds"][_TEXT_KIND[t]] = 1
    if obs.get("indicator"):
        f["indicator"][_TEXT_KIND[obs["indicator"]]] = 1
    if obs.get("claimable"):
        f["claimable"][_TEXT_KIND[obs["claimable"]]] = 1
    w = obs.get("window")
    if w:
        f["window_from"][_rel(w["from"], seat)] = 1
        f["window_kind"][0 if w["kind"] == "discard" else 1] = 1
        f["asked"][0] = 1 if seat in w["waiting"] else 0
    for s, d in enumerate(obs.get("seats") or ()):
        r = _rel(s, seat)
        for i, text in enumerate(d["melds"][:MAX_MELDS]):
            f["melds"][r, i] = _meld_code(text)
        for i, t in enumerate(d["discards"][:MAX_DISCARDS]):
            f["discards"][r, i] = _TEXT_KIND[t] + 1
        for i in d["claimed"]:
            if i < MAX_DISCARDS:
                f["claimed"][r, i] = 1
        f["hand_size"][r] = d["hand_size"]
        for t in d.get("flowers", ()):
            f["flowers"][r, _FLOWER_INDEX[t]] = 1
        f["xiaoxianggong"][r] = bool(d.get("xiaoxianggong"))
        f["hunyou"][r] = bool(d.get("hunyou"))
        f["claims"][r] = d.get("claims", 0)
    for s in range(SEATS):
        f["scores"][_rel(s, seat)] = obs["scores"][s]
    f["dealer"][_rel(obs["dealer"], seat)] = 1
    if obs["to_act"] is not None and obs["to_act"] >= 0:
        f["to_act"][_rel(obs["to_act"], seat)] = 1
    f["seat"][seat] = 1
    if "seat_winds" in obs:
        f["seat_wind"][WIND_LETTERS.index(obs["seat_winds"][seat])] = 1
        f["prevalent_wind"][WIND_LETTERS.index(obs["prevalent_wind"])] = 1
    f["phase"][PHASES.index(obs["phase"])] = 1
    f["wall_left"][0] = obs.get("wall_left", 0)
    f["hand_number"][0] = obs["hand_number"]
    f["round"][0] = obs["round"]
    f["sit"][0] = bool(obs.get("sit"))
    for s, n in enumerate(obs.get("pulls") or ()):
        f["pulls"][_rel(s, seat)] = n
    f["upstairs"][0] = bool(obs.get("upstairs"))
    f["reserve"][0] = obs.get("reserve") or 0
    f["shaozhuang"][0] = obs.get("shaozhuang") or 0
    f["passed_win"][0] = bool(obs.get("passed_win"))
    return v


_AT_TABLE = ("turn", "claim", "rob")
_PHASE_AT = {p: _O["phase"] + i for i, p in enumerate(PHASES)}
# the offsets as plain ints: the encoder reads them at every decision
(_HAND, _DRAWN, _WILDS, _IND, _CLAIMABLE, _WFROM, _WKIND, _ASKED, _MELDS, _DISC, _CLAIMED, _HSIZE, _FLOWERS,
 _SCORES, _DEALER, _TO_ACT, _SEAT, _SEAT_WIND, _PREVALENT, _PHASE, _WALL, _HANDNO, _ROUND, _SIT, _PULLS, _XXG,
 _UPSTAIRS, _RESERVE, _SHAO, _PASSED, _HUNYOU, _CLAIMS) = (_O[name] for name, _ in OBS_FIELDS)
assert _HAND == 0  # the encoder counts a hand tile at its kind index
# C-level packing of a run of fields (ints and bools become floats on the way): a Python-level
# write per item costs more than the whole pack
_PACK_HAND = struct.Struct(f"{K}f")
_CLAIM_EVENTS = frozenset(("chi", "pon", "daiminkan"))  # the events that mark the target's discard claimed
_MELD_BLOCK = MAX_MELDS * 2  # a seat's melds in the vector: (type code, lowest kind + 1) per meld
_FLOWER_BLOCK = 8
_POND = SEATS * MAX_DISCARDS
_MELD_EVENTS = frozenset(("ankan", "kakan", "flower"))  # a seat's melds or flowers change, its own pond does not


def _doubled(per_seat: int) -> array[float]:
    """A zeroed block of ``per_seat`` floats per seat, the four seats twice over: the seats as
    seat ``s`` sees them (itself, then play order) are the one slice from ``s * per_seat``."""
    return array("f", bytes(4 * 2 * SEATS * per_seat))


class Encoder:
    """The fast form of :func:`encode_observation` for one match: reads the engine's state where
    the observation does, and keeps between calls what changes only with an event.

    * What changes at nearly every event (each seat's discards and hand size) is kept once per
      seat, the four seats twice over (:func:`_doubled`): a change is one write, and the seats as
      one seat sees them are one slice.
    * The rest of the hand in play (wilds, scores, melds, flowers, flags, claimed discards and the
      seat's own counts) is kept as a vector per observing seat: a call copies it, adds the slices
      and writes the fields of the moment (the tile drawn, the window, the tiles left, who acts).

    An event says whose state changed (a discard: that seat's pond, size and one kind; a claim:
    the claimer's melds and the discarder's pond …); the changed parts are then read from the
    engine's current state, never worked out from the event, so the vectors are right however many
    events come between two calls (the single-agent env plays three seats between its agent's).

    The vector is written into an ``array.array`` and handed out as a numpy view of it: an item
    written to an array costs a tenth of one written to a numpy array, and the view copies nothing."""

    def __init__(self, match: Match) -> None:
        self.m = match
        part = families.get(match.rules.family).env  # the family's own fields (the module docstring)
        self._seat_flags = part.seat_flags
        self._moment_fields = part.moment_fields
        self._fixed_fields = part.fixed_fields
        self._hand = -1  # the hand the kept vectors are of
        self._events = -1  # len(match.events) when they were last brought up to date
        self._zeros = array("f", bytes(4 * OBS_SIZE))
        # the kept vectors, one per observing seat (the same arrays from hand to hand: a call copies)
        self._views = views = [array("f", self._zeros) for _ in range(SEATS)]
        # for each seat s, the kept vectors that show it, each with the place s has there (its seat
        # relative to the viewer): ((vector, relative seat), …)
        self._shown = [tuple((views[v], (s - v) % SEATS) for v in range(SEATS)) for s in range(SEATS)]
        self._disc = _doubled(MAX_DISCARDS)  # kind + 1 of each discard, 0 = none yet
        self._sizes = _doubled(1)
        self._done = [0] * SEATS  # discards written per seat
        self._claimed_done = [0] * SEATS

    def _new_hand(self) -> None:
        """The kept vectors of a hand just dealt (or of the hand in play, for a new encoder)."""
        m = self.m
        self._hand = m.hand_number
        for seat, view in enumerate(self._views):
            view[:] = self._zeros
            self._fixed(view, seat, True)
        self._disc = _doubled(MAX_DISCARDS)
        self._sizes = _doubled(1)
        self._done = [0] * SEATS
        self._claimed_done = [0] * SEATS
        for s in range(SEATS):
            self._seat(s)

    def _seat(self, s: int) -> None:
        """Everything of seat ``s`` read again: pond, melds, flowers, size, flags and own counts."""
        st = self.m.seats[s]
        self._pond(s)
        if st.melds:  # (none as a rule: a hand just dealt)
            self._meld_block(s)
        if getattr(st, "flower_tiles", None):
            self._flower_block(s)
        self._seat_row(s)
        _PACK_HAND.pack_into(self._views[s], _HAND * 4, *st.counts)

    def _sync(self) -> None:
        """Bring the kept vectors up to date with the match."""
        m = self.m
        events = m.events
        n_events = len(events)
        start = self._events
        self._events = n_events
        if m.hand_number != self._hand or start < 0:
            self._new_hand()
            return
        seats = m.seats
        sizes = self._sizes
        for ev in events[start:]:
            t = ev["type"]
            if t == "dahai":
                s = ev["actor"]
                st = seats[s]
                d = st.discards
                n = self._done[s]
                if len(d) == n + 1 and n < MAX_DISCARDS:  # the one new discard, as a rule
                    kind = d[n]
                    disc = self._disc
                    disc[s * MAX_DISCARDS + n] = disc[(s + SEATS) * MAX_DISCARDS + n] = kind + 1
                    self._done[s] = n + 1
                    self._views[s][kind] = st.counts[kind]  # (_HAND is 0)
                else:
                    self._seat(s)
                sizes[s] = sizes[s + SEATS] = len(st.hand)
                if ev["wild"] or "hunyou" in ev:  # 小相公 (R2) or 混儿悠 (B3) may be new
                    self._seat_row(s)
            elif t == "tsumo":
                s = ev["actor"]
                kind = _TEXT_KIND.get(ev["pai"], -1)
                if ev["replacement"] or kind < 0:  # a kong made, or a flower drawn (MCR)
                    self._seat(s)
                else:
                    st = seats[s]
                    sizes[s] = sizes[s + SEATS] = len(st.hand)
                    self._views[s][kind] = st.counts[kind]
            elif t in _CLAIM_EVENTS:
                self._pond(ev["target"])
                self._seat(ev["actor"])
            elif t in _MELD_EVENTS:
                self._seat(ev["actor"])

    def _seat_row(self, s: int) -> None:
        """Seat ``s``'s hand size and family flags."""
        st = self.m.seats[s]
        self._sizes[s] = self._sizes[s + SEATS] = len(st.hand)
        flags = self._seat_flags
        if flags is not None:
            flags(st, self._shown[s])

    def _meld_block(self, s: int) -> None:
        """Seat ``s``'s melds in order: type code and lowest kind + 1."""
        block = array("f", bytes(4 * _MELD_BLOCK))
        at = 0
        for meld in self.m.seats[s].melds[:MAX_MELDS]:
            block[at] = MELD_CODES[meld.type]
            block[at + 1] = meld.tile + 1
            at += 2
        for view, r in self._shown[s]:
            a = _MELDS + r * _MELD_BLOCK
            view[a:a + _MELD_BLOCK] = block

    def _flower_block(self, s: int) -> None:
        """Seat ``s``'s flowers laid aside (MCR, M1), one flag per flower."""
        flowers = getattr(self.m.seats[s], "flower_tiles", ())
        for view, r in self._shown[s]:
            for f in flowers:
                view[_FLOWERS + r * _FLOWER_BLOCK + (f - K)] = 1

    def _pond(self, s: int) -> None:
        """Bring seat ``s``'s discards and claimed flags up to date."""
        st = self.m.seats[s]
        d = st.discards
        n = self._done[s]
        if len(d) > n:
            disc = self._disc
            for i in range(n, min(len(d), MAX_DISCARDS)):
                disc[s * MAX_DISCARDS + i] = disc[(s + SEATS) * MAX_DISCARDS + i] = d[i] + 1
            self._done[s] = len(d)
        c = st.claimed
        n = self._claimed_done[s]
        if len(c) > n:
            shown = self._shown[s]
            for i in c[n:]:
                if i < MAX_DISCARDS:
                    for view, r in shown:
                        view[_CLAIMED + r * MAX_DISCARDS + i] = 1
            self._claimed_done[s] = len(c)

    def encode(self, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` now (a new array)."""
        return _ndarray(_OBS_SHAPE, _FLOAT32, self.vector(seat))

    def vector(self, seat: int) -> array[float]:
        """The same vector as an ``array.array("f")`` (a new one): what a batch copies into its
        buffer without a numpy array per table."""
        m = self.m
        phase = m.phase
        if phase in _AT_TABLE:
            if len(m.events) != self._events:
                self._sync()
            v = array("f", self._views[seat])
            a = seat * MAX_DISCARDS
            v[_DISC:_CLAIMED] = self._disc[a:a + _POND]
            v[_HSIZE:_HSIZE + SEATS] = self._sizes[seat:seat + SEATS]
            # -- the fields of the moment
            actor = m.actor
            if phase == "turn" and actor == seat and m.last_draw is not None:
                v[_DRAWN + m.last_draw] = 1
            w = m.window
            if w is not None:
                v[_WFROM + (w.source - seat) % SEATS] = 1
                v[_WKIND + (0 if w.kind == "discard" else 1)] = 1
                if seat in w.order and seat not in w.answers:
                    v[_ASKED] = 1
            if m.pending is not None:
                v[_CLAIMABLE + m.pending[1]] = 1
            v[_WALL] = m._wall_left()
            moment = self._moment_fields
            if moment is not None:
                moment(m, seat, v)
            if w is None or seat == actor:  # another seat's window hides who is asked
                v[_TO_ACT + (actor - seat) % SEATS] = 1
        else:
            v = array("f", self._zeros)
            self._fixed(v, seat, False)
            if not m.is_over:
                v[_TO_ACT + (m.actor - seat) % SEATS] = 1
        v[_PHASE_AT[phase]] = 1
        return v

    def _fixed(self, v: array[float], seat: int, at_table: bool) -> None:
        """The fields that do not change while a hand is played."""
        m = self.m
        sc = m.scores
        for r in range(SEATS):
            v[_SCORES + r] = sc[(seat + r) % SEATS]
        v[_DEALER + (m.dealer - seat) % SEATS] = 1
        v[_SEAT + seat] = 1
        v[_HANDNO] = m.hand_number
        v[_ROUND] = m.round
        self._fixed_fields(m, seat, v, at_table)


def mark_wilds(m: Match, v: array[float]) -> None:
    """The wild kinds and the face-up indicator of the hand in play (Tianjin R2, Beijing B2): what
    a family with wilds writes in its ``fixed_fields`` at the table."""
    for k in m.wilds:
        v[_WILDS + k] = 1
    ind = m.indicator  # type: ignore[attr-defined]
    if ind is not None:
        v[_IND + ind] = 1
