"""Discard advice for a Beijing turn (北京麻将, docs/rules/BEIJING.md B2–B5; docs/advise.md).

The Beijing twin of :mod:`tjmj.advise`, with the same API: for a turn of 14 tiles (the concealed
hand before the draw plus the draw, exposed melds beside) it ranks every distinct discard, every
kong (concealed, or added onto one's own pon; each followed by a replacement draw, B1) and, where
B3 allows it, every 混儿悠 declaration.  For the 13-tile-equivalent hand each option leaves:

* ``shanten``: tiles from ready, the wild counted as whatever is missing (0 = ready, 听牌), the
  better of the standard shape (four melds and a pair) and 七对子 (seven pairs, only with no melds;
  a concealed four of a kind is two pairs, B4); both figures are kept;
* the **live** tiles whose draw lowers it (live = 4 − copies visible to this player: own tiles and
  draw, own melds, the face-up 混坯 and ``seen``, every other visible tile);
* when ready, every tile that completes it (:class:`Wait`): its value as the next draw (self-drawn;
  杠上开花 after a kong; 无混儿 added after 混儿悠), its value won on a discard (点炮; no win for a
  claimed hand under B3 ``claimed_self_draw_only``), its live copies; ``ev`` = Σ live × value of the
  next draw over the winning tiles, and ``hunyou`` when the 13 tiles win on any draw (a lone wild).

Discarding the wild costs nothing in Beijing (B2: no penalty, no 相公); such an option is flagged
``wild`` and ranked like any other.  Order: lower shanten; then higher ``ev`` (ready) or more
improving live tiles; then more winning live tiles; then tile order, discards before kongs before
混儿悠.

>>> a = advise("123m456m789m123p5s", "6s", "1z")      # 混坯 1z: the wild is 2z
>>> a.best.label(), a.best.shanten, [(str(w.tile), w.value) for w in a.best.waits]
('discard 5s', 0, [('6s', 16), ('2z', 8)])
>>> a.now is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...meld import Meld, MeldType
from ...tiles import NUM_KINDS, TILES, Tile
from ...waits import _NEG, used_table
from .elements import WinContext
from .rules import BEIJING, BeijingRules
from .score import (
    BeijingHand,
    BeijingResult,
    BeijingScorer,
    InvalidBeijingHand,
    MeldsLike,
    TileLike,
    TilesLike,
    _tiles,
    prepare_beijing,
    score_input,
    scorer_for,
)
from .waits import BeijingWait

__all__ = [
    "Advice",
    "Option",
    "Wait",
    "advise",
    "advise_input",
    "shanten",
    "shanten_counts",
    "ready_waits",
    "live_counts",
]

_ACTION_ORDER = {"discard": 0, "ankong": 1, "added_kong": 2, "hunyou": 3}
HUNYOU_DISCARD_REASON = "混儿悠 declared: no win on a discard, the next draw wins by itself (B3)"


# --------------------------------------------------------------------------------------------
# Shanten: the standard shape by per-suit tables of the most real tiles used (tjmj.waits), seven
# pairs by counting; the wild kind's tiles stand in for anything.
# --------------------------------------------------------------------------------------------

_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _combine(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]], m: int) -> list[list[int]]:
    """Max-plus product of two tables: row[melds][pair] = most real tiles in ≤ melds melds and ≤ 1 pair."""
    out = [[_NEG, _NEG] for _ in range(m + 1)]
    for ma in range(m + 1):
        ra = a[ma]
        for pa in range(2):
            x = ra[pa]
            if x < 0:
                continue
            for mb in range(m + 1 - ma):
                rb = b[mb]
                row = out[ma + mb]
                v = x + rb[0]
                if v > row[pa]:
                    row[pa] = v
                if pa == 0:
                    v = x + rb[1]
                    if v > row[1]:
                        row[1] = v
    return out


def _best_used(table: Sequence[Sequence[int]]) -> int:
    return max(max(r) for r in table)


def _pairs_used(c: Sequence[int], wk: int) -> int:
    """Most tiles of ``c`` that fit into seven pairs (a kind held four times is two pairs, B4), the
    wild kind's tiles pairing with a lone tile or with each other."""
    w = c[wk] if wk >= 0 else 0
    pairs = singles = 0
    for k in range(NUM_KINDS):
        if k != wk:
            n = c[k]
            pairs += n >> 1
            singles += n & 1
    full = min(pairs, 7)
    used, slots = 2 * full, 7 - full
    a = min(singles, w, slots)  # a lone tile and a wild
    used, slots, singles, w = used + 2 * a, slots - a, singles - a, w - a
    b = min(w // 2, slots)  # two wilds
    used, slots, w = used + 2 * b, slots - b, w - 2 * b
    return used + min(singles + w, slots)  # halves waiting for their second tile


def shanten_counts(counts: Sequence[int], wild: int | None, n_melds: int = 0) -> tuple[int, int | None]:
    """(standard, seven pairs) shanten of 13-tile-equivalent counts (the concealed tiles; ``n_melds``
    exposed melds), or of 14 (the best discard taken: −1 = complete).  Seven pairs is None with melds.

    Shanten is the fewest exchanges (draw a useful tile, discard one) that make the hand ready, the
    wild playing whatever is missing; as usual it ignores whether the tiles needed are still live.
    """
    wk = -1 if wild is None else int(wild)
    nonwild = list(counts)
    w = 0
    if wk >= 0:
        w, nonwild[wk] = nonwild[wk], 0
    m = 4 - n_melds
    acc: Sequence[Sequence[int]] = [[0, 0] for _ in range(m + 1)]
    for lo, hi, hon in _SUITS:
        acc = _combine(acc, used_table(tuple(nonwild[lo:hi]), hon), m)
    std = 3 * m + 2 - w - _best_used(acc) - 1
    if n_melds:
        return std, None
    return std, 13 - _pairs_used(counts, wk)


def _shanten_and_improving(
    counts: Sequence[int], wk: int, n_melds: int, live: Sequence[int]
) -> tuple[int, int, int | None, list[tuple[Tile, int]]]:
    """(shanten, standard, pairs, improving): the kinds whose draw lowers the shanten (the better
    shape), with their live copies.  Each draw changes one suit only, so the product of the other
    three suits' tables is computed once per suit, not once per draw."""
    nonwild = list(counts)
    w = 0
    if wk >= 0:
        w, nonwild[wk] = nonwild[wk], 0
    m = 4 - n_melds
    tables = [used_table(tuple(nonwild[lo:hi]), hon) for lo, hi, hon in _SUITS]
    zero = [[0, 0] for _ in range(m + 1)]
    others = []
    for s in range(4):
        acc: Sequence[Sequence[int]] = zero
        for t in range(4):
            if t != s:
                acc = _combine(acc, tables[t], m)
        others.append(acc)
    j = 3 * m + 2 - w  # tiles a complete hand still needs beyond the wilds
    std = j - _best_used(_combine(others[0], tables[0], m)) - 1
    pairs = None if n_melds else 13 - _pairs_used(counts, wk)
    sh = std if pairs is None else min(std, pairs)
    c = list(counts)
    improving = []
    for s, (lo, hi, hon) in enumerate(_SUITS):
        sub = list(nonwild[lo:hi])
        for k in range(lo, hi):
            if live[k] <= 0:
                continue
            if k == wk:
                new = sh - 1  # a drawn wild fills any gap of the better shape
            else:
                sub[k - lo] += 1
                new = j - _best_used(_combine(others[s], used_table(tuple(sub), hon), m)) - 1
                sub[k - lo] -= 1
                if pairs is not None:
                    c[k] += 1
                    new = min(new, 13 - _pairs_used(c, wk))
                    c[k] -= 1
            if new < sh:
                improving.append((TILES[k], live[k]))
    return sh, std, pairs, improving


def shanten(
    hand: TilesLike,
    melds: MeldsLike = (),
    indicator: TileLike | None = None,
    *,
    draw: TileLike | None = None,
    rules: BeijingRules = BEIJING,
) -> int:
    """Tiles from ready of a Beijing hand, the better of the two shapes: 0 = ready (听牌), −1 =
    complete (only with ``draw``, 14 tiles).  Raises :class:`InvalidBeijingHand` on bad input."""
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules)
    std, pairs = shanten_counts(h.counts, h.wild, len(h.melds))
    return std if pairs is None else min(std, pairs)


# --------------------------------------------------------------------------------------------
# Waits with their values in each way the tile may arrive
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wait:
    """One tile that completes a 13-tile-equivalent hand, scored each way it may arrive.

    ``draw``: as the next draw (self-drawn; a kong replacement draw, 杠上开花, after a kong option;
    the automatic win after a 混儿悠 declaration); ``discard``: won on another player's discard (点炮:
    ``win`` is False for a claimed hand under B3 ``claimed_self_draw_only``); ``kong_draw``: as a
    replacement draw when the hand holds a kong (None otherwise).  ``live``: copies not visible to
    this player.
    """

    tile: Tile
    live: int
    draw: BeijingWait
    discard: BeijingWait
    kong_draw: BeijingWait | None = None

    @property
    def value(self) -> int:
        return self.draw.value

    @property
    def win(self) -> bool:
        return self.draw.win

    @property
    def codes(self) -> list[str]:
        return self.draw.codes

    @property
    def name(self) -> str:
        return self.draw.name

    @property
    def reason(self) -> str:
        return self.draw.reason

    def to_dict(self) -> dict[str, object]:
        d = self.draw.to_dict()
        d["live"] = self.live
        d["discard"] = _way(self.discard)
        if self.kong_draw is not None:
            d["kong_draw"] = _way(self.kong_draw)
        return d


def _way(w: BeijingWait) -> dict[str, object]:
    d: dict[str, object] = {"value": w.value, "win": w.win, "elements": w.codes, "name": w.name}
    if w.reason:
        d["reason"] = w.reason
    return d


def live_counts(h: BeijingHand, seen: Sequence[int] = ()) -> list[int]:
    """Copies of each kind visible to this player: own concealed tiles (and draw), own melds, the
    face-up 混坯 (while it lies face up) and ``seen``.  Raises when a kind is seen more than 4 times."""
    vis = list(h.counts)
    for m in h.melds:
        for t in m.tiles:
            vis[t] += 1
    if h.indicator is not None and h.indicator_visible:
        vis[h.indicator] += 1
    for x in seen:
        vis[x] += 1
    for k in range(NUM_KINDS):
        if vis[k] > 4:
            raise InvalidBeijingHand(
                f"seen: {vis[k]} copies of {TILES[k]} ({TILES[k].chinese}) visible in hand, draw, melds, 混坯 and "
                "seen; only 4 exist (B1)"
            )
    return vis


def _wait_list(
    scorer: BeijingScorer, counts: Sequence[int], melds: tuple[Meld, ...], live: Sequence[int],
    drawable: Sequence[int], *, dealer: bool, after_kong: bool = False, hunyou: bool = False,
) -> tuple[Wait, ...]:
    """Every kind that completes ``counts`` (13-tile-equivalent), scored as the next draw, on a
    discard and (with a kong among the melds) as a replacement draw; kinds of which the player
    holds or shows all four (``drawable`` ≤ 0) are left out."""
    scoring = scorer.rules.scoring
    has_kong = any(m.type.is_kong for m in melds)
    drawn = WinContext(self_drawn=True, dealer=dealer)
    on_discard = WinContext(self_drawn=False, dealer=dealer)
    kong = WinContext(self_drawn=True, dealer=dealer, kong_draw=True)
    nxt = WinContext(self_drawn=True, dealer=dealer, hunyou=True) if hunyou else kong if after_kong else drawn
    ok_d, why_d = scorer._allowed(melds, on_discard)
    if hunyou:
        ok_d, why_d = False, HUNYOU_DISCARD_REASON
    ways = [(nxt, True, ""), (on_discard, ok_d, why_d)]
    if has_kong and not after_kong:
        ways.append((kong, True, ""))
    n = len(melds)
    c = list(counts)
    out = []
    for k in range(NUM_KINDS):
        if drawable[k] <= 0:
            continue
        c[k] += 1
        if scorer.is_complete(c, n):
            scored = []
            for ctx, ok, why in ways:
                best = scorer._best(c, k, melds, ctx)
                assert best is not None
                scored.append(BeijingWait(TILES[k], best[0], best[1], ok, live[k], scoring, why))
            out.append(Wait(TILES[k], live[k], scored[0], scored[1], scored[2] if len(scored) > 2 else None))
        c[k] -= 1
    return tuple(out)


def ready_waits(h: BeijingHand, seen: Sequence[int] = ()) -> tuple[Wait, ...]:
    """Every tile completing a checked 13-tile hand (``h.draw`` None), scored self-drawn (the hand's
    context's ``dealer`` is used), on a discard and as a kong replacement draw (when the hand holds a
    kong).  ``live`` counts ``seen`` too: a kind whose last copies others have shown is kept with live 0;
    one of which the player holds or shows all four is left out."""
    if h.draw is not None:
        raise ValueError("ready_waits takes a 13-tile hand (draw None)")
    live = [4 - n for n in live_counts(h, seen)]
    drawable = [4 - n for n in live_counts(h)]
    return _wait_list(scorer_for(h.indicator, h.rules), h.counts, h.melds, live, drawable, dealer=h.context.dealer)


# --------------------------------------------------------------------------------------------
# The advice
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One choice on the turn and what the 13-tile-equivalent hand left looks like."""

    action: str  # "discard", "ankong" (concealed kong), "added_kong" (加杠) or "hunyou" (混儿悠, B3)
    tile: Tile  # the tile discarded, or the kong's kind
    shanten: int  # the better of the two shapes; 0 = ready
    shanten_standard: int  # four melds and a pair
    shanten_pairs: int | None  # 七对子 (None with melds: seven pairs are fully concealed, B4)
    improving: tuple[tuple[Tile, int], ...]  # kinds whose draw lowers the shanten, with live copies (> 0)
    waits: tuple[Wait, ...] = ()  # the tiles completing the hand, when ready
    hunyou: bool = False  # the 13 tiles win on any draw: a lone wild (混儿悠-ready, B3)
    wild: bool = False  # the discard is the wild kind (no penalty in Beijing, B2)
    rank: int = 0  # 1 = best

    @property
    def replacement_draw(self) -> bool:
        """A kong is followed by a replacement draw (B1)."""
        return self.action in ("ankong", "added_kong")

    @property
    def ready(self) -> bool:
        return self.shanten == 0

    @property
    def improving_count(self) -> int:
        """Live tiles that lower the shanten (for a ready hand: the live completing tiles)."""
        return sum(n for _, n in self.improving)

    @property
    def winning(self) -> tuple[Wait, ...]:
        """The completing tiles that win as the next draw."""
        return tuple(w for w in self.waits if w.win)

    @property
    def winning_live(self) -> int:
        """Live tiles that win as the next draw."""
        return sum(w.live for w in self.waits if w.win)

    @property
    def ev(self) -> int:
        """Σ live × value of the next draw over the winning tiles (杠上开花 after a kong, 无混儿
        added after 混儿悠); a win on a discard is not counted (see each wait's ``discard``)."""
        return sum(w.live * w.value for w in self.waits if w.win)

    def sort_key(self) -> tuple[int, ...]:
        primary = self.ev if self.ready else self.improving_count
        return (self.shanten, -primary, -self.winning_live, int(self.tile), _ACTION_ORDER[self.action])

    def label(self) -> str:
        if self.action == "discard":
            return f"discard {self.tile}"
        if self.action == "hunyou":
            return f"混儿悠 discard {self.tile}"
        return f"{'concealed kong' if self.action == 'ankong' else 'added kong'} {self.tile}"

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "rank": self.rank,
            "action": self.action,
            "tile": str(self.tile),
            "wild": self.wild,
            "shanten": self.shanten,
            "shanten_standard": self.shanten_standard,
            "shanten_pairs": self.shanten_pairs,
            "improving": self.improving_count,
            "improving_tiles": [{"tile": str(t), "live": n} for t, n in self.improving],
        }
        if self.replacement_draw:
            d["replacement_draw"] = True
        if self.ready:
            d.update(ev=self.ev, winning_live=self.winning_live, hunyou=self.hunyou,
                     waits=[w.to_dict() for w in self.waits])
        return d


@dataclass(frozen=True)
class Advice:
    """Every option of the turn, best first, and the 14 tiles as held (complete already?)."""

    hand: BeijingHand  # the 13-tile-equivalent hand and the draw, checked
    options: tuple[Option, ...]
    visible: tuple[int, ...]  # copies of each kind visible to this player
    now: BeijingResult | None = None  # the 14 tiles scored as a self-drawn win, when complete
    hungang: bool = False  # all four wilds held: 混杠 may be declared, a flat 40 (B2)

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def discards(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.action == "discard")

    @property
    def kongs(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.replacement_draw)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "options": [o.to_dict() for o in self.options],
            "live": {str(TILES[k]): 4 - n for k, n in enumerate(self.visible) if n},
        }
        if self.now is not None:
            d["win_now"] = {"value": self.now.value, "win": self.now.win, "elements": self.now.codes,
                            "name": self.now.name, **({"reason": self.now.reason} if self.now.reason else {})}
        if self.hungang:
            d["hungang"] = True
        return d


def advise(
    hand: TilesLike,
    draw: TileLike,
    indicator: TileLike | None = None,
    melds: MeldsLike = (),
    *,
    seen: TilesLike = (),
    rules: BeijingRules = BEIJING,
    dealer: bool = False,
    indicator_visible: bool = True,
) -> Advice:
    """Rank every discard, kong and 混儿悠 of a 14-tile Beijing turn (``hand`` is the concealed hand
    before the draw: 13 − 3 × melds tiles).

    ``indicator``: the 混坯 (the wild is its successor, B2; ignored when ``rules.wilds`` is false);
    ``seen``: every other tile visible to this player (all discards, the others' melds), MPSZ text
    or kinds; ``dealer``: the player is the dealer (庄胡 doubles every value, B5);
    ``indicator_visible``: the 混坯 still lies face up (False once drawn).  Raises
    :class:`~tjmj.families.beijing.score.InvalidBeijingHand` (a ``TileError``) naming what is wrong.
    """
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules,
                        context=WinContext(dealer=dealer), indicator_visible=indicator_visible)
    return advise_input(h, _tiles(seen, "seen"))


def advise_input(h: BeijingHand, seen: Sequence[int] = ()) -> Advice:
    """:func:`advise` on a checked hand (:func:`~tjmj.families.beijing.score.prepare_beijing`, ``h.draw``
    set; ``h.context.dealer`` is used)."""
    if h.draw is None:
        raise ValueError("advise_input takes a 14-tile turn: the hand and its draw")
    vis = live_counts(h, seen)
    live = [4 - n for n in vis]
    drawable = [4 - n for n in live_counts(h)]
    scorer = scorer_for(h.indicator, h.rules)
    wk = -1 if h.wild is None else int(h.wild)
    dealer = h.context.dealer
    own = list(h.counts)
    now = score_input(h)
    now_win = now.complete and now.win

    def measure(action: str, tile: int, counts: list[int], melds: tuple[Meld, ...]) -> Option:
        n = len(melds)
        sh, std, pairs, improving = _shanten_and_improving(counts, wk, n, live)
        ws: tuple[Wait, ...] = ()
        ready_any = False
        if sh == 0:
            ws = _wait_list(scorer, counts, melds, live, drawable, dealer=dealer,
                            after_kong=action in ("ankong", "added_kong"), hunyou=action == "hunyou")
            ready_any = scorer.hunyou_ready(counts, n)
        return Option(action, TILES[tile], sh, std, pairs, tuple(improving), ws, ready_any,
                      action != "ankong" and action != "added_kong" and tile == wk)

    options: list[Option] = []
    can_hunyou = h.rules.hunyou and wk >= 0 and own[wk] > 0 and now_win
    for k in range(NUM_KINDS):
        if own[k] == 0:
            continue
        c = list(own)
        c[k] -= 1
        options.append(measure("discard", k, c, h.melds))
        if can_hunyou and scorer.hunyou_ready(c, len(h.melds)):
            options.append(measure("hunyou", k, c, h.melds))
        if own[k] == 4 and len(h.melds) < 4:
            c4 = list(own)
            c4[k] = 0
            options.append(measure("ankong", k, c4, h.melds + (Meld(MeldType.CONCEALED_KONG, TILES[k]),)))
        for i, m in enumerate(h.melds):
            if m.type is MeldType.PON and m.tile == k:
                km = h.melds[:i] + (Meld(MeldType.ADDED_KONG, TILES[k]),) + h.melds[i + 1:]
                options.append(measure("added_kong", k, c, km))
    options.sort(key=Option.sort_key)
    ranked = tuple(replace(o, rank=i + 1) for i, o in enumerate(options))
    return Advice(h, ranked, tuple(vis), now if now.complete else None, wk >= 0 and own[wk] == 4)
