"""Chinese Official (国标麻将, MCR) play for the bots (docs/rules/MCR.md M1–M4): what a seat's
observation says, shanten over every MCR shape, and the ``baseline`` policy.

A bot learns the family from the observation (its ``family`` field; one without it is MCR's when it
has ``prevalent_wind``, M1: :func:`is_mcr`) and the options (``min_fan``) from the driver
(``set_rules``, called by :func:`tjmj.simulate.play_with`); without them it plays by the preset
``mcr``.

Shanten (−1 complete, 0 ready) is the fewest exchanges that make the 13 tiles ready, the least over
the winning shapes of M3: four melds and a pair (:func:`tjmj.bots.common.shanten_fast`, the
table merges shared with Tianjin and Beijing), 七对 (a four is two pairs), 十三幺, 全不靠/七星不靠
(knitted tiles and honours) and 组合龙 with one more meld and a pair.  The values are those of
:func:`tjmj.families.mcr.waits.shanten_shapes` (the tests compare them on random hands); this
module computes them incrementally, for every discard of a hand at once, and skips a 组合龙 that
cannot beat the best shape so far.

>>> from tjmj.tiles import parse_tiles
>>> c = [0] * 34
>>> for t in parse_tiles("147m258p369s1234z"):
...     c[t] += 1
>>> shapes_shanten(c, 0)["honors_and_knitted"], mcr_shanten(c, 0)
(0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ....bots.common import _KIND, _discard_key, _discard_shanten, claim_removes, shanten_fast
from ....game import Action
from ....meld import Meld, MeldType
from ....rules import Rules
from ....tiles import TILES
from ..rules import MCR, McrRules
from ..score import McrMeld, McrSituation, score_mcr

__all__ = [
    "McrView",
    "baseline_choose",
    "is_mcr",
    "rules_for",
    "mcr_shanten",
    "shapes_shanten",
    "discard_shanten",
    "KNITTED",
    "ORPHANS",
    "WIND_INDEX",
]

WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
# the six 组合龙 (knitted straights): 147, 258 and 369, each in a different suit
KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + r for suit, start in enumerate(order) for r in range(start, 9, 3))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))


def is_mcr(obs: dict[str, Any]) -> bool:
    """Whether an observation is of an MCR match: ``prevalent_wind`` (圈风, M1) is MCR's own and is
    there in every phase (a ``family`` field, where a driver adds one, decides first)."""
    fam = obs.get("family")
    if fam is not None:
        return fam == "mcr"
    return "prevalent_wind" in obs


def rules_for(bound: Rules | None) -> McrRules:
    """The MCR options a bot plays by: those the driver gave, else the preset ``mcr``."""
    return bound if isinstance(bound, McrRules) else MCR


@lru_cache(maxsize=256)
def _meld(text: str) -> Meld:
    return Meld.parse(text)


# ---- shanten over every shape (M3) ------------------------------------------------------------


def _pairs(c: Sequence[int]) -> int:
    """七对: a four counts as two pairs (四归一 may go with it)."""
    pairs = singles = 0
    for n in c:
        if n:
            pairs += n >> 1
            singles += n & 1
    full = pairs if pairs < 7 else 7
    return 13 - 2 * full - min(singles, 7 - full)


def _orphans(c: Sequence[int]) -> int:
    kinds = pair = 0
    for k in ORPHANS:
        n = c[k]
        if n:
            kinds += 1
            if n >= 2:
                pair = 1
    return 13 - kinds - pair


def _knitted_held(c: Sequence[int]) -> int:
    best = 0
    for seq in KNITTED:
        h = 0
        for k in seq:
            if c[k]:
                h += 1
        if h > best:
            best = h
    return best


def _honors_knitted(c: Sequence[int]) -> int:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones from one knitted straight."""
    honors = sum(1 for k in range(27, 34) if c[k])
    n = honors + _knitted_held(c)
    return 13 - (n if n < 14 else 14)


def _knitted_straight(c: list[int], n_melds: int, bound: int) -> int:
    """组合龙 with one more meld and a pair: the knitted tiles missing plus what the rest lacks;
    a sequence that cannot go below ``bound`` is skipped (the answer is then ``bound`` or more)."""
    best = 99
    m = 1 - n_melds
    for seq in KNITTED:
        taken = [k for k in seq if c[k]]
        held = len(taken)
        if 8 - held >= (best if best < bound else bound):  # the rest's shanten is at least −1
            continue
        for k in taken:
            c[k] -= 1
        v = 9 - held + shanten_fast(c, 0, m)
        for k in taken:
            c[k] += 1
        if v < best:
            best = v
    return best


def shapes_shanten(counts: Sequence[int], n_melds: int = 0) -> dict[str, int | None]:
    """Each shape's shanten (``None``: the melds rule it out), as
    :func:`tjmj.families.mcr.waits.shanten_shapes`."""
    c = list(counts)
    concealed = n_melds == 0
    return {
        "standard": shanten_fast(c, 0, 4 - n_melds),
        "seven_pairs": _pairs(c) if concealed else None,
        "thirteen_orphans": _orphans(c) if concealed else None,
        "honors_and_knitted": _honors_knitted(c) if concealed else None,
        "knitted_straight": _knitted_straight(c, n_melds, 99) if n_melds <= 1 else None,
    }


def _special(c: list[int], n_melds: int, best: int) -> int:
    """The least of ``best`` and the shanten of the shapes other than four melds and a pair."""
    if n_melds == 0:
        v = _pairs(c)
        if v < best:
            best = v
        v = _orphans(c)
        if v < best:
            best = v
        v = _honors_knitted(c)
        if v < best:
            best = v
    if n_melds <= 1 and best > 0:
        v = _knitted_straight(c, n_melds, best)
        if v < best:
            best = v
    return best


def mcr_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """The least shanten over every shape of M3 (0 = ready, −1 = complete)."""
    c = list(counts)
    return _special(c, n_melds, shanten_fast(c, 0, 4 - n_melds))


def discard_shanten(counts: list[int], n_melds: int, kinds: Sequence[int]) -> dict[int, int]:
    """The shanten (every shape) after discarding one tile of each kind in ``kinds`` (held)."""
    out = _discard_shanten(counts, 0, 4 - n_melds, kinds)
    if n_melds <= 1:
        for k in kinds:
            counts[k] -= 1
            out[k] = _special(counts, n_melds, out[k])
            counts[k] += 1
    return out


# ---- the observation, as the bots read it -----------------------------------------------------


class McrView:
    """One MCR decision as a bot sees it: its concealed tiles per kind, its melds (as the scorer takes
    them), the winds and flowers, the copies of each kind still unseen, and the wall."""

    __slots__ = ("obs", "rules", "seat", "counts", "melds", "mcr_melds", "n_melds", "m", "concealed",
                 "seat_wind", "prevalent", "flowers", "table", "visible", "live", "total_live", "wall_left",
                 "min_fan")

    def __init__(self, obs: dict[str, Any], rules: McrRules) -> None:
        self.obs = obs
        self.rules = rules
        self.min_fan = rules.min_fan
        self.seat = seat = obs["seat"]
        counts = [0] * 34
        for t in obs["hand"]:
            counts[_KIND[t]] += 1
        self.counts = counts
        seats = obs["seats"]
        me = seats[seat]
        self.melds = melds = [_meld(t) for t in me["melds"]]
        self.mcr_melds = tuple(McrMeld(type=ml.type.value, tile=ml.tile) for ml in melds)
        self.n_melds = len(melds)
        self.m = 4 - self.n_melds
        self.concealed = all(ml.type is MeldType.CONCEALED_KONG for ml in melds)
        winds = obs.get("seat_winds")
        self.seat_wind = WIND_INDEX[winds[seat]] if winds else 0
        self.prevalent = WIND_INDEX.get(obs.get("prevalent_wind") or "E", 0)
        self.flowers = len(me.get("flowers", ()))
        # face up on the table: the ponds (a claimed discard is counted in its meld) and every meld
        table = [0] * 34
        for st in seats:
            claimed = st.get("claimed") or ()
            for i, t in enumerate(st["discards"]):
                if i not in claimed:
                    table[_KIND[t]] += 1
            for text in st["melds"]:
                for t in _meld(text).tiles:
                    table[t] += 1
        self.table = table
        self.visible = visible = [table[k] + counts[k] for k in range(34)]
        self.live = [4 - v if v < 4 else 0 for v in visible]
        self.total_live = sum(self.live) or 1
        self.wall_left = obs.get("wall_left", 80)

    def shanten(self) -> int:
        return mcr_shanten(self.counts, self.n_melds)

    def situation(self, self_drawn: bool, win: int) -> McrSituation:
        """A win on ``win`` as the table stands (和绝张 when the other three are face up); flowers
        are left out: they never decide a win (M2) and are added to the payment apart."""
        return _situation(self_drawn, self.table[win] >= 3, self.seat_wind, self.prevalent)

    def fan(self, counts13: Sequence[int], win: int, melds: tuple[McrMeld, ...], self_drawn: bool) -> int:
        """The fan (without flowers) of the concealed ``counts13`` winning on ``win`` beside ``melds``;
        0 when it does not complete the hand."""
        return win_fan(tuple(counts13), win, melds, self_drawn, self.table[win] >= 3, self.seat_wind,
                       self.prevalent)


@lru_cache(maxsize=64)
def _situation(self_drawn: bool, fourth: bool, seat_wind: int, prevalent: int) -> McrSituation:
    return McrSituation(self_drawn=self_drawn, fourth_tile=fourth, seat_wind=seat_wind, prevalent_wind=prevalent)


@lru_cache(maxsize=1 << 12)  # ~0.5 kB an entry: ~2 MB full
def win_fan(counts13: tuple[int, ...], win: int, melds: tuple[McrMeld, ...], self_drawn: bool, fourth: bool,
            seat_wind: int, prevalent: int) -> int:
    """:func:`~tjmj.families.mcr.score.score_mcr`'s fan (no flowers) of a win, memoised; 0 if the
    tiles do not make a winning shape."""
    concealed = [TILES[k] for k in range(34) for _ in range(counts13[k])]
    r = score_mcr(concealed, TILES[win], melds, _situation(self_drawn, fourth, seat_wind, prevalent), min_fan=0)
    return r.fan if r.complete else 0


# ---- the baseline policy ------------------------------------------------------------------------


def baseline_choose(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    """The ``baseline`` bot in MCR (:class:`tjmj.bots.baseline.BaselineBot`): wins whenever
    ``win`` is legal (the engine offers only wins of ``min_fan``, M2), discards to the lowest
    shanten over every shape, declares a kong and claims a chi, pon or kong when that costs no
    distance; it knows nothing of fan."""
    phase = obs.get("phase")
    if phase == "turn":
        return _baseline_turn(obs, legal, rules)
    return _baseline_claim(obs, legal, rules)


def _baseline_turn(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    discards: list[Action] = []
    kongs: list[Action] = []
    for a in legal:
        t = a.type
        if t == "win":
            return a
        if t == "discard":
            discards.append(a)
        elif t == "ankong" or t == "added_kong":
            kongs.append(a)
    if not discards:
        return legal[0]
    v = McrView(obs, rules)
    c = v.counts
    candidates = [int(a.tile) for a in discards]  # type: ignore[arg-type]  # a discard names its tile
    sh = discard_shanten(c, v.n_melds, candidates)
    low = min(sh.values())
    best = min((k for k in candidates if sh[k] == low), key=lambda k: _discard_key(c, k))
    for a in kongs:
        assert a.tile is not None
        k = int(a.tile)
        if a.type == "ankong":
            c[k] -= 4
            after = mcr_shanten(c, v.n_melds + 1)
            c[k] += 4
        else:  # an added kong: the tile joins its pon, like a discard of it
            after = sh.get(k, low)
        if after <= sh[best]:
            return a
    return next(a for a in discards if a.tile == best)


def claim_meld(a: Action, tile: int) -> McrMeld:
    """The meld a claim makes, as the scorer takes it."""
    if a.type == "chi":
        assert a.tile is not None
        return McrMeld(type="chi", tile=a.tile, claimed=TILES[tile])
    return McrMeld(type="pon" if a.type == "pon" else "kong", tile=TILES[tile], claimed=TILES[tile])


def after_claim(counts: Sequence[int], a: Action, tile: int) -> list[int] | None:
    """The concealed counts after the claim ``a`` of ``tile``; None if a tile it needs is missing."""
    c = list(counts)
    for k in claim_removes(a, tile):
        if not c[k]:
            return None
        c[k] -= 1
    return c


def best_after_claim(c: list[int], n_melds: int) -> int:
    """The lowest shanten after the best discard of the hand a chi or pon leaves."""
    kinds = [k for k in range(34) if c[k]]
    return min(discard_shanten(c, n_melds, kinds).values()) if kinds else 99


def _baseline_claim(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    """Win when it can (a discard or a robbed kong); a kong, pon or chi when the hand after it (and,
    for a chi or pon, its best discard) is no further from ready than now."""
    pass_ = None
    claims: list[Action] = []
    for a in legal:
        if a.type == "win":
            return a
        if a.type == "pass":
            pass_ = a
        else:
            claims.append(a)
    fallback = pass_ if pass_ is not None else legal[-1]
    window = obs.get("window")
    if not claims or window is None:
        return fallback
    tile = _KIND[window["tile"]]
    v = McrView(obs, rules)
    now = v.shanten()
    best: tuple[int, int, Action] | None = None
    for a in claims:
        c = after_claim(v.counts, a, tile)
        if c is None:
            continue
        if a.type == "kong":
            after = mcr_shanten(c, v.n_melds + 1)
            rank = 0
        else:
            after = best_after_claim(c, v.n_melds + 1)
            rank = 1 if a.type == "pon" else 2
        if after <= now and (best is None or (after, rank) < best[:2]):
            best = (after, rank, a)
    return best[2] if best is not None else fallback
