"""Discard advice for a Beijing turn (北京麻将, docs/rules/BEIJING.md B2–B5; docs/advise.md).

The Beijing twin of :mod:`tjmj.families.tianjin.advise`, with the same API: for a turn of 14 tiles (the concealed
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

Each option is ranked by the **expected points of a win** (issue 11), with the model of
:mod:`tjmj.families.tianjin.advise` (docs/advise.md "How options are ranked"): ``win_chance``, the chance of a win
within the draws left (a self-draw each round and, unless the hand has claimed under B3
``claimed_self_draw_only`` or declared 混儿悠, the three others' discards, each a live winning tile
with ``DISCARD_RATE`` × its share of the unseen tiles), times the points it collects (self-drawn:
3 × value; on a discard 4 × value, the discarder paying double, or 3 × under ``discard_pays:
discarder``): ``expected``.  A hand one useful draw from a ready hand with a live win is looked at one
exchange ahead exactly; a hand further away steps at the Beijing strong bot's rates
(:mod:`tjmj.bots.beijing_strong`: ``LATER_STEPS_B`` / ``_A``, ``READY_WIDTH``, its hazard ramp) and is
credited the least value its situation allows (自摸, 门清 while concealed, 庄).

Discarding the wild costs nothing in Beijing (B2: no penalty, no 相公); such an option is flagged
``wild`` and ranked like any other.  Order: higher ``expected``; then lower ``legal_shanten``,
shanten; then higher ``ev`` (ready) or more improving live tiles; then more winning live tiles; then
tile order, discards before kongs before 混儿悠.

>>> a = advise("123m456m789m123p5s", "6s", "1z")      # 混坯 1z: the wild is 2z
>>> a.best.label(), a.best.shanten, [(str(w.tile), w.value) for w in a.best.waits]
('discard 5s', 0, [('6s', 16), ('2z', 8)])
>>> a.now is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ...hand import _NEG, used_table
from ...meld import Meld, MeldType
from ...outlook import (
    Summarised,
    _chain,
    _outlook_text,
    _routes_chance,
    _tile_list,
    draws_left,
    estimate_wall_left,
    hazard_now,
)
from ...tiles import NUM_KINDS, TILES, Tile
from .elements import WinContext, bit_of, resolve, value_of
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
# Shanten: the standard shape by per-suit tables of the most real tiles used (tjmj.hand), seven
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
class Option(Summarised):
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
    win_chance: float = 0.0  # chance of a win within the draws left (the model: module docstring)
    expected: float = 0.0  # win_chance × the points that win collects
    legal_shanten: int = 0  # useful draws before a live tile may win (0: the next one may)
    legal_improving: int | None = None  # one step away: live tiles whose draw allows a ready hand with a live win

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

    @property
    def any_tile(self) -> bool:
        """The hand wins on every drawable tile (混儿悠-ready, or the 混儿悠 declaration itself)."""
        return self.hunyou

    @property
    def dead(self) -> bool:
        """Ready, but no live tile wins: every winning tile is visible (空听)."""
        return self.ready and self.legal_shanten > 0

    @property
    def self_draw_only(self) -> bool:
        """Ready and no tile may be won on a discard (a claimed hand under B3, or 混儿悠 declared)."""
        return self.ready and not any(w.discard.win for w in self.waits)

    def sort_key(self) -> tuple[float, ...]:
        primary = self.ev if self.ready else self.improving_count
        return (-round(self.expected, 6), self.legal_shanten, self.shanten, -primary, -self.winning_live,
                int(self.tile), _ACTION_ORDER[self.action])

    def _summaries(self) -> tuple[str, str]:
        en, zh = _outlook_text(self.win_chance, self.expected, "points", "分")
        if self.action == "hunyou":
            return (f"混儿悠: the next draw wins, any tile (无混儿), {en}",
                    f"混儿悠：下一张摸什么都和（无混儿），{zh}")
        if self.ready and not self.dead:
            only = ", self-draw only" if self.self_draw_only else ""
            only_zh = "，只能自摸" if self.self_draw_only else ""
            if self.any_tile:
                return (f"wins on any tile (混儿悠-ready, {self.winning_live} live{only}), {en}",
                        f"和任意牌（可混儿悠，{self.winning_live}张活牌{only_zh}），{zh}")
            tiles = _tile_list([w.tile for w in self.waits if (w.win or w.discard.win) and w.live > 0])
            live = sum(w.live for w in self.waits if w.win or w.discard.win)
            return (f"ready: {tiles} ({live} live{only}), {en}", f"听{tiles}（{live}张活牌{only_zh}），{zh}")
        if self.dead:
            head, head_zh = "ready, but every winning tile is visible (no live win)", "听牌但和的牌已全部现出（空听）"
        else:
            head = f"{self.shanten} step{'s' if self.shanten > 1 else ''} from ready: {self.improving_count} improving tiles"
            head_zh = f"{self.shanten}向听：进张{self.improving_count}张"
        if self.legal_improving is not None and (self.dead or self.legal_improving != self.improving_count):
            sep = "; " if self.dead else ", "
            if self.legal_improving:
                head += f"{sep}{self.legal_improving} to a ready hand with a live win"
                head_zh += f"，{self.legal_improving}张可成有活牌的听牌"
            else:
                head += f"{sep}none to a ready hand with a live win"
                head_zh += "，没有一张牌能成有活牌的听牌"
        return f"{head}, {en}", f"{head_zh}，{zh}"

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
            "win_chance": round(self.win_chance, 4),
            "expected": round(self.expected, 3),
            "legal_shanten": self.legal_shanten,
            "any_tile": self.any_tile,
            "dead": self.dead,
            "summary": self.summary,
            "summary_zh": self.summary_zh,
        }
        if self.legal_improving is not None:
            d["legal_improving"] = self.legal_improving
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
    wall_left: int = 0  # tiles left for normal draws, as given or estimated (tjmj.outlook.estimate_wall_left)
    wall_estimated: bool = True  # wall_left was not given
    draws: int = 0  # the player's own draws left (tjmj.outlook.draws_left)

    @property
    def unseen(self) -> int:
        """Tiles this player cannot see (the wall and the others' hands): what a draw is picked from."""
        return sum(4 - n for n in self.visible)

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
            "model": {"wall_left": self.wall_left, "estimated": self.wall_estimated, "draws": self.draws,
                      "unseen": self.unseen},
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
    wall_left: int | None = None,
) -> Advice:
    """Rank every discard, kong and 混儿悠 of a 14-tile Beijing turn (``hand`` is the concealed hand
    before the draw: 13 − 3 × melds tiles).

    ``indicator``: the 混坯 (the wild is its successor, B2; ignored when ``rules.wilds`` is false);
    ``seen``: every other tile visible to this player (all discards, the others' melds), MPSZ text
    or kinds; ``dealer``: the player is the dealer (庄胡 doubles every value, B5);
    ``indicator_visible``: the 混坯 still lies face up (False once drawn); ``wall_left``: tiles left
    for normal draws (None: estimated from the unseen tiles).  Raises
    :class:`~tjmj.families.beijing.score.InvalidBeijingHand` (a ``TileError``) naming what is wrong.
    """
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules,
                        context=WinContext(dealer=dealer), indicator_visible=indicator_visible)
    return advise_input(h, _tiles(seen, "seen"), wall_left=wall_left)


def advise_input(h: BeijingHand, seen: Sequence[int] = (), *, wall_left: int | None = None) -> Advice:
    """:func:`advise` on a checked hand (:func:`~tjmj.families.beijing.score.prepare_beijing`, ``h.draw``
    set; ``h.context.dealer`` is used)."""
    if h.draw is None:
        raise ValueError("advise_input takes a 14-tile turn: the hand and its draw")
    vis = live_counts(h, seen)
    if wall_left is not None and wall_left < 0:
        raise InvalidBeijingHand(f"wall_left: {wall_left} is negative")
    live = [4 - n for n in vis]
    drawable = [4 - n for n in live_counts(h)]
    scorer = scorer_for(h.indicator, h.rules)
    wk = -1 if h.wild is None else int(h.wild)
    dealer = h.context.dealer
    own = list(h.counts)
    now = score_input(h)
    now_win = now.complete and now.win
    unseen = sum(live)
    wall = estimate_wall_left(unseen) if wall_left is None else wall_left
    model = _Model(scorer, live, drawable, unseen, draws_left(wall), wall, dealer)

    def measure(action: str, tile: int, counts: list[int], melds: tuple[Meld, ...]) -> Option:
        n = len(melds)
        sh, std, pairs, improving = _shanten_and_improving(counts, wk, n, live)
        ws: tuple[Wait, ...] = ()
        ready_any = False
        if sh == 0:
            ws = _wait_list(scorer, counts, melds, live, drawable, dealer=dealer,
                            after_kong=action in ("ankong", "added_kong"), hunyou=action == "hunyou")
            ready_any = scorer.hunyou_ready(counts, n)
        o = Option(action, TILES[tile], sh, std, pairs, tuple(improving), ws, ready_any,
                   action != "ankong" and action != "added_kong" and tile == wk)
        return model.outlook(o, counts, melds)

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
    return Advice(h, ranked, tuple(vis), now if now.complete else None, wk >= 0 and own[wk] == 4, wall,
                  wall_left is None, model.rounds)


# --------------------------------------------------------------------------------------------
# The model: the chance and points of a win (module docstring; tjmj.outlook for the chain)
# --------------------------------------------------------------------------------------------

_ZIMO, _MENQING, _DEALER, _QIDUI = (bit_of(c) for c in ("ZIMO", "MENQING", "DEALER", "QIDUI"))


@dataclass
class _Model:
    """The chance and points of a win for each option of one Beijing turn."""

    scorer: BeijingScorer
    live: list[int]
    drawable: list[int]
    unseen: int
    rounds: int
    wall_left: int
    dealer: bool
    cache: dict[tuple[Meld, ...], dict[bytes, tuple[float, float]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from .bots import strong as bs  # the engine is imported on first use only

        r = self.scorer.rules
        self.discard_rate = bs.DISCARD_RATE
        self.later = bs.LATER_STEPS_B if r.wilds else bs.LATER_STEPS_A
        self.later_pairs = bs.LATER_PAIRS
        self.ready_width = bs.READY_WIDTH
        self.pairs_width = bs.PAIRS_WIDTH
        self.ramp = bs.HAZARD_RAMP_B if r.wilds else bs.HAZARD_RAMP_A
        self.hazard = hazard_now(self.wall_left, self.ramp)
        self.discard_mult = 4 if r.scoring == "multiply" and r.discard_pays == "all" else 3
        self.ctx_self = WinContext(self_drawn=True, dealer=self.dealer)
        self.ctx_disc = WinContext(self_drawn=False, dealer=self.dealer)
        self.wk = -1 if self.scorer.wild is None else int(self.scorer.wild)

    def per_round(self, ws: float, vs: float, wd: float, vd: float) -> tuple[float, float]:
        """(chance to win a round, mean points of that win) from the live self-draw wins ``ws`` worth
        ``vs`` points in all and the live discard wins ``wd`` worth ``vd``: the three others' discards
        come first (each a given live tile with ``DISCARD_RATE`` × its share), then the own draw."""
        u = self.unseen
        pd = min(1.0, self.discard_rate * wd / u)
        ps = min(1.0, ws / u)
        miss_d = (1.0 - pd) ** 3
        by_d, by_s = 1.0 - miss_d, miss_d * ps
        q = by_d + by_s
        if q <= 0:
            return 0.0, 0.0
        return q, (by_d * (vd / wd if wd else 0.0) + by_s * (vs / ws if ws else 0.0)) / q

    def ready_figures(self, waits: Sequence[Wait]) -> tuple[float, float]:
        """(q, v) of a ready hand's own waits (the next draw's values)."""
        dm = self.discard_mult
        ws = vs = wd = vd = 0
        for w in waits:
            if w.live <= 0:
                continue
            if w.win:
                ws += w.live
                vs += w.live * 3 * w.value
            if w.discard.win:
                wd += w.live
                vd += w.live * dm * w.discard.value
        return self.per_round(ws, vs, wd, vd)

    def hand_figures(self, c: list[int], melds: tuple[Meld, ...], drawn: int) -> tuple[float, float]:
        """(q, v) of the 13 tiles ``c`` (0, 0 when not ready), scored by the scorer; ``drawn``: the
        kind just drawn (one live copy fewer)."""
        sc = self.scorer
        n = len(melds)
        ok_d = sc._allowed(melds, self.ctx_disc)[0]
        dm = self.discard_mult
        live = self.live
        ws = vs = wd = vd = 0
        for x in self.candidates(c, n):
            lx = live[x] - (x == drawn)
            if lx <= 0:
                continue
            c[x] += 1
            if sc.is_complete(c, n):
                b = sc._best(c, x, melds, self.ctx_self)
                if b is not None:
                    ws += lx
                    vs += lx * 3 * b[0]
                if ok_d:
                    bd = sc._best(c, x, melds, self.ctx_disc)
                    if bd is not None:
                        wd += lx
                        vd += lx * dm * bd[0]
            c[x] -= 1
        return self.per_round(ws, vs, wd, vd)

    def candidates(self, c: list[int], n_melds: int) -> Iterable[int]:
        """The draws that may complete the 13 tiles ``c`` (B4): the drawn tile joins a group of tiles
        held, so it is next to a non-wild tile held (the same kind for honours and pairs) or the wild;
        only a hand that wins on any draw (混儿悠-ready: less one wild, melds or six pairs; two wilds and
        a pair are a meld with one of them) may be completed by a tile far from all it holds."""
        wk = self.wk
        if wk >= 0 and c[wk] and self.scorer.hunyou_ready(c, n_melds):
            return range(NUM_KINDS)
        near = {wk} if wk >= 0 else set()
        for x in range(NUM_KINDS):
            if c[x] and x != wk:
                if x >= 27:
                    near.add(x)
                else:
                    lo = x - x % 9
                    near.update(range(max(lo, x - 2), min(lo + 9, x + 3)))
        return sorted(near)

    def routes(self, counts: list[int], melds: tuple[Meld, ...], kinds: Iterable[int]) -> list[tuple[int, float, float]]:
        """Per live kind of ``kinds`` whose draw allows (one discard) a ready hand with a live win: (its
        live copies, that hand's chance to win a round, its mean points), the best hand (q × v) taken."""
        live = self.live
        sc = self.scorer
        n = len(melds)
        wk = -1 if sc.wild is None else int(sc.wild)
        cache = self.cache.setdefault(melds, {})
        c = list(counts)
        out = []
        for k in kinds:
            lk = live[k]
            if lk <= 0:
                continue
            c[k] += 1
            best = (0.0, 0.0)
            for j in range(NUM_KINDS):
                if not c[j] or j == k:
                    continue
                c[j] -= 1
                key = bytes(c) + bytes((k,))
                got = cache.get(key)
                if got is None:
                    if wk >= 0:  # ready ⇔ one more wild completes it
                        c[wk] += 1
                        ready = sc.is_complete(c, n)
                        c[wk] -= 1
                    else:
                        ready = True
                    got = cache[key] = self.hand_figures(c, melds, k) if ready else (0.0, 0.0)
                c[j] += 1
                if got[0] * got[1] > best[0] * best[1] or (got[0] * got[1] == best[0] * best[1] and got[0] > best[0]):
                    best = got
            c[k] -= 1
            if best[0] > 0:
                out.append((lk, best[0], best[1]))
        return out

    def least(self, melds: tuple[Meld, ...], pairs: bool) -> tuple[float, float]:
        """(points of the least self-drawn win, of the least discard win) of a hand far from ready:
        自摸, 门清 while no meld is claimed, 庄, and 七对子 on that route (B5)."""
        r = self.scorer.rules
        flags = (_MENQING if all(m.type is MeldType.CONCEALED_KONG for m in melds) else 0) | \
            (_DEALER if self.dealer else 0) | (_QIDUI if pairs else 0)
        v_s = value_of(resolve(flags | _ZIMO, r.scoring), r.scoring, r.cap)
        v_d = value_of(resolve(flags, r.scoring), r.scoring, r.cap)
        return 3.0 * v_s, float(self.discard_mult * v_d)

    def outlook(self, o: Option, counts: list[int], melds: tuple[Meld, ...]) -> Option:
        """``o`` with ``win_chance``, ``expected``, ``legal_shanten`` and ``legal_improving``."""
        unseen = self.unseen
        if not unseen:  # nothing left to draw
            return replace(o, legal_shanten=o.shanten)
        rounds = self.rounds + (1 if o.replacement_draw and not o.ready else 0)  # the replacement draw
        hz, ramp = self.hazard, self.ramp
        waits = o.waits
        first: tuple[float, float] | None = None
        if o.replacement_draw and o.ready:  # the replacement draw (杠上开花) first, then plain draws
            first = self.ready_figures([replace(w, discard=replace(w.discard, win=False)) for w in waits])
            waits = _wait_list(self.scorer, counts, melds, self.live, self.drawable, dealer=self.dealer)
        limp: int | None = None
        q, v = self.ready_figures(waits) if o.ready else (0.0, 0.0)
        if o.ready and q > 0:
            lsh = 0
            p = _chain(0, 0.0, q, rounds, (), hz, ramp)
            e = p * v
        elif o.shanten <= 1:
            kinds = range(NUM_KINDS) if o.ready else (int(t) for t, _ in o.improving)
            routes = self.routes(counts, melds, kinds)
            limp = sum(n for n, _, _ in routes)
            if routes:
                lsh = 1
                p, e = _routes_chance(routes, unseen, rounds, hz, ramp)
            else:
                lsh = 2
                p, e = self.far(o, melds, 2, self.later[2] if o.ready else o.improving_count / unseen, rounds)
        else:
            lsh = o.shanten
            p, e = self.far(o, melds, o.shanten, o.improving_count / unseen, rounds)
        if first is not None:
            q1, v1 = first
            p, e = q1 + (1 - q1) * p, q1 * v1 + (1 - q1) * e
            if q1 > 0:
                lsh = 0
        return replace(o, win_chance=p, expected=e, legal_shanten=lsh, legal_improving=limp)

    def far(self, o: Option, melds: tuple[Meld, ...], steps: int, first: float, rounds: int) -> tuple[float, float]:
        """(chance, expected points) of a hand ``steps`` from a ready hand: the first step at ``first``
        a round, the later ones at the usual rates, the win with a usual ready hand's width, worth the
        least win (:meth:`least`); seven pairs' rates when that shape is the nearer."""
        pairs = o.shanten_pairs is not None and o.shanten_pairs < o.shanten_standard
        width = self.pairs_width if pairs else self.ready_width
        vs, vd = self.least(melds, pairs)
        ok_d = self.scorer._allowed(melds, self.ctx_disc)[0]
        q, v = self.per_round(width, width * vs, width if ok_d else 0, width * vd if ok_d else 0)
        p = _chain(min(steps, 6), first, q, rounds, self.later_pairs if pairs else self.later, self.hazard, self.ramp)
        return p, p * v
