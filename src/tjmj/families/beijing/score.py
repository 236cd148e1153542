"""The Beijing hand scorer (北京麻将, docs/rules/BEIJING.md B4, B5; B6's payments for one win).

Fast path by pattern removal, as the Tianjin scorer (:mod:`tjmj.families.tianjin.score`): an element that depends
on the arrangement is one removal — the 一条龙 (123 456 789 of a suit, real tiles first), the
捉五魁 group (the winning non-wild 5m with non-wild 4m 6m), 本混儿龙 (the one wild counted as its
own kind), 对对和 (triplets only), 七对子 (pairs) — and the rest is checked with the per-suit
tables of :mod:`tjmj._tables`.  Every other element is the same in every arrangement of the hand
(the situation, 无混儿, the suits, 大钓), so the best value is the best over those removals
(B5; the argument is in docs/scoring-beijing.md).  :mod:`.reference` enumerates arrangements one
by one and is the tests' ground truth.

>>> r = score_beijing("123m456m789m123p5s", "5s", indicator="1z")
>>> r.value, r.name
(16, '一条龙、门清、自摸、无混儿')
>>> r.payments()
{'each': 16}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from ... import _tables as T
from ...hand import Group, InvalidHand
from ...meld import Meld, MeldType, melds_of
from ...rules import RulesError
from ...tiles import NUM_KINDS, TILES, Tile, format_tiles, parse_tiles, successor
from .elements import (
    ADD,
    MULTIPLY,
    PAIRS,
    STANDARD,
    BeijingArrangement,
    BeijingElement,
    WinContext,
    bit_of,
    elements_of,
    name_of,
    resolve,
    value_of,
)
from .rules import BEIJING, BeijingRules

__all__ = [
    "score_beijing",
    "score_input",
    "prepare_beijing",
    "BeijingHand",
    "BeijingResult",
    "BeijingScorer",
    "InvalidBeijingHand",
    "WinContext",
    "scorer_for",
]

TileLike = int | str
TilesLike = str | Iterable[int]
MeldsLike = str | Iterable[Meld | str | dict]


class InvalidBeijingHand(InvalidHand):
    """An impossible Beijing hand or win: wrong tile count, a fifth copy, a second claim, a
    self-contradicting win context …; the message names what is wrong and the rule (B1–B6)."""


DEFAULT_CONTEXT = WinContext()

# element bits, as plain ints (IntFlag arithmetic is slow on the hot path)
DEALER, MENQING, ZIMO, DIANPAO, WUHUN = (bit_of(c) for c in ("DEALER", "MENQING", "ZIMO", "DIANPAO", "WUHUN"))
ZHUOWUKUI, HAIDI, LONG, BENHUNLONG = (bit_of(c) for c in ("ZHUOWUKUI", "HAIDI", "LONG", "BENHUNLONG"))
QIDUI, HAOHUA, GANGKAI, QINGYISE = (bit_of(c) for c in ("QIDUI", "HAOHUA", "GANGKAI", "QINGYISE"))
HUNYISE, ZIYISE, DUIDUI, DADIAO = (bit_of(c) for c in ("HUNYISE", "ZIYISE", "DUIDUI", "DADIAO"))
HUNGANG, TIANHE, DIHE = (bit_of(c) for c in ("HUNGANG", "TIANHE", "DIHE"))

_ONE = T.ONE
_NUM = T.NUM
_HON = T.HON
_DRAGON = T.DRAGON
_FULL = (1 << 27) - 1
_ZW_BITS = _ONE[3] + _ONE[4] + _ONE[5]  # 4m 5m 6m in the packed 万 suit
_SUIT_CODE = {1: QINGYISE, 2: QINGYISE, 4: QINGYISE, 8: ZIYISE, 9: HUNYISE, 10: HUNYISE, 12: HUNYISE}


# --------------------------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------------------------


def _tiles(x: TilesLike, what: str) -> list[Tile]:
    if isinstance(x, str):
        return parse_tiles(x)
    try:
        out = list(x)
    except TypeError:
        raise InvalidBeijingHand(f"{what} must be tile text like '123m' or a sequence of tile kinds, got {x!r}") from None
    return [t if type(t) is Tile else Tile(t) for t in out]


def _tile(x: TileLike, what: str) -> Tile:
    if type(x) is Tile:
        return x
    if isinstance(x, str):
        ts = parse_tiles(x)
        if len(ts) != 1:
            raise InvalidBeijingHand(f"{what} must be exactly one tile, got {x!r} ({len(ts)} tiles)")
        return ts[0]
    return Tile(x)


class BeijingHand(NamedTuple):
    """A checked hand: the concealed tiles before the winning tile, the winning tile (None for a
    13-tile hand, as in :func:`.waits.waits`), the melds, the 混坯 and its wild, the rules and the
    win context; ``counts``: the concealed tiles and the winning tile, per kind."""

    concealed: tuple[Tile, ...]
    draw: Tile | None
    melds: tuple[Meld, ...]
    indicator: Tile | None
    wild: Tile | None
    rules: BeijingRules
    context: WinContext
    counts: tuple[int, ...]
    indicator_visible: bool = True

    def describe(self) -> str:
        ms = " ".join(str(m) for m in self.melds)
        win = f" + {self.draw}" if self.draw is not None else ""
        return f"{format_tiles(sorted(self.concealed))}{win}" + (f" {ms}" if ms else "")


def _context(x: WinContext | dict | None) -> WinContext:
    if x is None:
        return DEFAULT_CONTEXT
    if isinstance(x, WinContext):
        return x
    return WinContext.from_dict(x)


def prepare_beijing(
    hand: TilesLike,
    draw: TileLike | None,
    *,
    melds: MeldsLike = (),
    indicator: TileLike | None = None,
    rules: BeijingRules = BEIJING,
    context: WinContext | dict | None = None,
    indicator_visible: bool = True,
) -> BeijingHand:
    """Parse and check a hand and its win context; every error names the tile, count or flag at
    fault and the rule.  ``draw`` None checks a 13-tile hand (waits).  ``indicator_visible``
    (default True) counts the face-up 混坯 as one of the four copies of its kind; pass False once
    it has been drawn (it is the first replacement tile, B2)."""
    if not isinstance(rules, BeijingRules):
        raise RulesError(f"the Beijing scorer needs Beijing rules (preset beijing or beijing_a), got {rules!r}")
    ctx = _context(context)
    tiles = _tiles(hand, "hand")
    d = _tile(draw, "winning tile") if draw is not None else None
    ms = tuple(melds_of(melds)) if melds else ()
    if len(ms) > 4:
        raise InvalidBeijingHand(f"a hand has at most 4 melds, got {len(ms)} (B4)")
    want = 13 - 3 * len(ms)
    if len(tiles) != want:
        raise InvalidBeijingHand(
            f"hand has {len(tiles)} concealed tiles; with {len(ms)} meld(s) it must have {want} before the "
            "winning tile (a kong counts as 3, B4)"
        )
    ind: Tile | None = None
    wild: Tile | None = None
    if rules.wilds:
        if indicator is None:
            raise InvalidBeijingHand("these rules have a wild (B2): give the 混坯 (indicator); the wild is its successor")
        ind = _tile(indicator, "indicator")
        wild = successor(ind)
    own = [0] * NUM_KINDS
    for t in tiles:
        own[t] += 1
    if d is not None:
        own[d] += 1
    seen = list(own)
    for m in ms:
        for t in m.tiles:
            seen[t] += 1
    if ind is not None and indicator_visible:
        seen[ind] += 1
    for k, n in enumerate(seen):
        if n > 4:
            extra = " (the face-up 混坯 counts as one)" if ind is not None and indicator_visible and k == ind else ""
            raise InvalidBeijingHand(
                f"{n} copies of {TILES[k]} ({TILES[k].chinese}) in hand, winning tile and melds{extra}; only 4 exist (B1)"
            )
    claims = sum(1 for m in ms if m.type in (MeldType.CHI, MeldType.PON, MeldType.ADDED_KONG))
    if rules.max_claims and claims > rules.max_claims:
        raise InvalidBeijingHand(
            f"{claims} chi/pon in one hand (an added kong began as a pon); these rules allow {rules.max_claims} "
            "(B3 max_claims)"
        )
    _check_context(ctx, tiles, d, ms, wild, rules, own)
    return BeijingHand(tuple(tiles), d, ms, ind, wild, rules, ctx, tuple(own), indicator_visible)


def _check_context(ctx: WinContext, tiles: list[Tile], draw: Tile | None, melds: tuple[Meld, ...],
                   wild: Tile | None, rules: BeijingRules, counts: list[int]) -> None:
    """Reject a win context that cannot happen (each message names the flags and the rule)."""
    bad = InvalidBeijingHand
    if ctx.rob_kong and ctx.self_drawn:
        raise bad("rob_kong (抢杠) wins on another player's kong tile: self_drawn must be false (B3)")
    if ctx.kong_draw:
        if not ctx.self_drawn:
            raise bad("kong_draw (杠上开花) is a self-draw: self_drawn must be true (B5)")
        if not any(m.type.is_kong for m in melds):
            raise bad("kong_draw (杠上开花) needs a kong among the melds: a replacement draw follows a kong (B3)")
        if ctx.last_tile:
            raise bad("kong_draw and last_tile: a replacement draw is not a normal draw, so not 海底 (B1, B5)")
    flats = [n for n in ("hungang", "tianhe", "dihe") if getattr(ctx, n)]
    if len(flats) > 1:
        raise bad(f"{' and '.join(flats)}: a win is one flat hand at most (B5)")
    if ctx.hungang:
        if wild is None:
            raise bad("hungang (混杠) needs wilds (B2), and these rules have none")
        if not ctx.self_drawn:
            raise bad("hungang (混杠) is declared after one's own draw: self_drawn must be true (B2)")
        if draw is not None and counts[wild] != 4:
            raise bad(f"hungang (混杠) needs all four wilds ({wild}) in the concealed hand, found {counts[wild]} (B2)")
    for name, dealer in (("tianhe", True), ("dihe", False)):
        if getattr(ctx, name):
            cn = "天和" if dealer else "地和"
            if ctx.dealer != dealer:
                raise bad(f"{name} ({cn}) is won by {'the dealer' if dealer else 'a non-dealer'}: dealer must be "
                          f"{'true' if dealer else 'false'} (B5)")
            if not ctx.self_drawn or ctx.kong_draw:
                raise bad(f"{name} ({cn}) is won on the {'dealt 14' if dealer else 'first draw'}: self_drawn true, "
                          "kong_draw false (B5)")
            if melds:
                raise bad(f"{name} ({cn}) comes before any claim or kong: no melds (B5)")
    if ctx.hunyou:
        if wild is None or not rules.hunyou:
            raise bad("hunyou (混儿悠) is off in these rules (B3 option hunyou)")
        if not ctx.self_drawn:
            raise bad("hunyou (混儿悠) wins on the player's own next draw: self_drawn must be true (B3)")
        c13 = [0] * NUM_KINDS
        for t in tiles:
            c13[t] += 1
        if not scorer_for(wild_indicator(wild), rules).hunyou_ready(c13, len(melds)):
            raise bad("hunyou (混儿悠): the 13 tiles before the draw must be four melds and one lone wild (or six "
                      "pairs and one lone wild), so that any draw wins (B3)")


def wild_indicator(wild: int) -> Tile:
    """The 混坯 whose successor is ``wild`` (B2)."""
    for k in range(NUM_KINDS):
        if successor(k) == wild:
            return TILES[k]
    raise AssertionError(wild)  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Per-suit tables on 34-count lists: a suit's counts as a tuple -> (wilds for melds, extra for the
# pair), the wild kind's count ignored.  An exact-dict look-up on a tuple built from indices is the
# cheapest way in CPython; tables are shared by scorers with the same masked suit.
# --------------------------------------------------------------------------------------------

_SuitTable = dict[tuple[int, ...], tuple[int, int]]
_TUPLE_TABLES: dict[tuple[int, int], _SuitTable] = {}
# entries in all the tables together (~0.15 kB each: ~5 MB), then they are all emptied in place (the
# scorers hold them) and fill again: the suit shapes of play are many, and they grew without end
TUPLE_TABLES_CAP = 1 << 15
_tuple_entries = 0


def _suit_table(suit: int, mask: int) -> _SuitTable:
    t = _TUPLE_TABLES.get((suit, mask))
    if t is None:
        t = _TUPLE_TABLES[(suit, mask)] = {}
    return t


def _fill(table: _SuitTable, key: tuple[int, ...], suit: int, mask: int) -> tuple[int, int]:
    packed = 0
    for i, n in enumerate(key):
        packed |= n << (3 * i)
    v = (_HON if suit == 3 else _NUM)[packed & mask]
    global _tuple_entries
    if _tuple_entries >= TUPLE_TABLES_CAP:
        for t in _TUPLE_TABLES.values():
            t.clear()
        _tuple_entries = 0
    table[key] = v
    _tuple_entries += 1
    return v


_AND1 = (1).__and__  # the parity of a count, through map() in C


def _completeness_check(wild: int, masks: Sequence[int]) -> Callable[[Sequence[int], int], bool]:
    """``is_complete(counts, n_melds)`` for one wild kind (-1: none); see :meth:`BeijingScorer.is_complete`."""
    tm, tp, ts, tz = (_suit_table(s, masks[s]) for s in range(4))
    mm, mp, msu, mz = masks
    has_wild = wild >= 0
    wk = wild if has_wild else 0

    def is_complete(c: Sequence[int], n_melds: int = 0) -> bool:
        """Four melds and a pair (the exposed melds implied), or seven pairs, wilds standing in (B4).

        Suit by suit, honours first, giving up on the standard shape as soon as the wilds needed
        so far exceed those held; then seven pairs, which need as many wilds as lone tiles.
        """
        w = c[wk] if has_wild else 0
        key: tuple[int, ...] = (c[27], c[28], c[29], c[30], c[31], c[32], c[33])
        try:
            z0, zd = tz[key]
        except KeyError:
            z0, zd = _fill(tz, key, 3, mz)
        low = z0 + (zd if zd < 0 else 0)  # a suit needs at least min(n0, n0 + d) wilds
        if low <= w:
            key = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
            try:
                a0, ad = tm[key]
            except KeyError:
                a0, ad = _fill(tm, key, 0, mm)
            low += a0 + (ad if ad < 0 else 0)
            if low <= w:
                key = (c[9], c[10], c[11], c[12], c[13], c[14], c[15], c[16], c[17])
                try:
                    b0, bd = tp[key]
                except KeyError:
                    b0, bd = _fill(tp, key, 1, mp)
                low += b0 + (bd if bd < 0 else 0)
                if low <= w:
                    key = (c[18], c[19], c[20], c[21], c[22], c[23], c[24], c[25], c[26])
                    try:
                        c0, cd = ts[key]
                    except KeyError:
                        c0, cd = _fill(ts, key, 2, msu)
                    d = zd if zd < ad else ad
                    if bd < d:
                        d = bd
                    if cd < d:
                        d = cd
                    if z0 + a0 + b0 + c0 + (d if d < 2 else 2) <= w:
                        return True
        if n_melds:
            return False
        # seven pairs: every kind with an odd count needs one wild (the wild kind's own count aside)
        if not w:  # no wild: no odd count at all, and any() stops at the first one
            return not any(map(_AND1, c))
        odd = sum(map(_AND1, c)) - (w & 1)
        return odd <= w

    return is_complete


def _pack(c: Sequence[int]) -> list[int]:
    """The four packed suits (3 bits per kind) of a 34-count list."""
    return [
        c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9 | c[4] << 12 | c[5] << 15 | c[6] << 18 | c[7] << 21 | c[8] << 24,
        c[9] | c[10] << 3 | c[11] << 6 | c[12] << 9 | c[13] << 12 | c[14] << 15 | c[15] << 18 | c[16] << 21
        | c[17] << 24,
        c[18] | c[19] << 3 | c[20] << 6 | c[21] << 9 | c[22] << 12 | c[23] << 15 | c[24] << 18 | c[25] << 21
        | c[26] << 24,
        c[27] | c[28] << 3 | c[29] << 6 | c[30] << 9 | c[31] << 12 | c[32] << 15 | c[33] << 18,
    ]


def _need(k: Sequence[int]) -> int:
    """Fewest wilds making four packed suits into melds and one pair."""
    return T.wilds_needed(k[0], k[1], k[2], k[3], True)


def _take(key: int, positions: Iterable[int]) -> tuple[int, int]:
    """One tile of each position from a packed suit, real tiles first: (rest, positions lacking one)."""
    miss = 0
    for p in positions:
        if (key >> (3 * p)) & 7:
            key -= _ONE[p]
        else:
            miss += 1
    return key, miss


_TRIP: dict[tuple[int, int], tuple[int, int]] = {}
# per kind count: wilds to make it triplets only (t), and the change if the pair is there (p - t)
_TRIP_T = (0, 2, 1, 0, 2, 99, 99, 99)
_TRIP_D = (2, -1, -1, 2, -1, 2, 2, 2)


def _trip_need(key: int, positions: int) -> tuple[int, int]:
    """(wilds for triplets only, extra for the pair) of a packed suit: 对对和's table."""
    v = _TRIP.get((key, positions))
    if v is None:
        n0, d = 0, 2
        for p in range(positions):
            x = (key >> (3 * p)) & 7
            n0 += _TRIP_T[x]
            if _TRIP_D[x] < d:
                d = _TRIP_D[x]
        v = _TRIP[(key, positions)] = (n0, d)
    return v


def _duidui_need(k: Sequence[int]) -> int:
    a, ad = _trip_need(k[0], 9)
    b, bd = _trip_need(k[1], 9)
    c, cd = _trip_need(k[2], 9)
    z, zd = _trip_need(k[3], 7)
    return a + b + c + z + min(ad, bd, cd, zd, 2)


# --------------------------------------------------------------------------------------------
# The fast scorer
# --------------------------------------------------------------------------------------------

# An arrangement pattern ("struct"), enough to rebuild the arrangement on demand:
# ("std", dragon suit or -1, 捉五魁 0/1 outside the dragon/2 inside it, 本混儿龙, 对对和)
# ("pairs", 豪华, 捉五魁) or ("declared",) for 混杠.
Struct = tuple


class BeijingScorer:
    """The Beijing scorer bound to one 混坯 and rule set, on 34-entry count lists (engine, bots).

    ``counts`` hold the concealed tiles and the winning tile (the exposed melds are implied).
    Nothing is checked here: the caller owns a legal hand.  :func:`score_beijing` is the checked
    form.  ``scorer.is_complete(counts, n_melds)`` is the cheap test made for every other seat on
    every discard.
    """

    __slots__ = ("wild", "rules", "scoring", "cap", "_wk", "_masks", "is_complete", "_want_benhun", "_want_duidui")

    def __init__(self, indicator: TileLike | None, rules: BeijingRules = BEIJING) -> None:
        self.rules = rules
        self.scoring = rules.scoring
        self.cap = rules.cap
        self.wild: Tile | None = None
        if rules.wilds:
            if indicator is None:
                raise InvalidBeijingHand("these rules have a wild (B2): give the 混坯 (indicator)")
            self.wild = successor(_tile(indicator, "indicator"))
        self._wk = -1 if self.wild is None else int(self.wild)
        masks = [_FULL, _FULL, _FULL, _FULL]
        if self._wk >= 0:
            masks[self._wk // 9] &= ~(7 << (3 * (self._wk % 9)))
        self._masks = tuple(masks)
        self._want_benhun = self.scoring == MULTIPLY and 0 <= self._wk < 27
        self._want_duidui = self.scoring == ADD
        # a closure over this scorer's tables, not a method: no attribute look-ups per call
        self.is_complete = _completeness_check(self._wk, masks)

    def hunyou_ready(self, counts13: Sequence[int], n_melds: int = 0) -> bool:
        """混儿悠 (B3): the 13 tiles less one wild are four melds (the exposed ones implied), or six
        pairs, so that any drawn tile wins by pairing with that lone wild.  This is exactly "wins on
        every draw" (docs/scoring-beijing.md)."""
        wk = self._wk
        if wk < 0 or counts13[wk] < 1:
            return False
        w = counts13[wk] - 1
        nk = _pack(counts13)
        m = self._masks
        need = _NUM[nk[0] & m[0]][0] + _NUM[nk[1] & m[1]][0] + _NUM[nk[2] & m[2]][0] + _HON[nk[3] & m[3]][0]
        if need <= w:
            return True
        if n_melds:
            return False
        odd = sum(map(_AND1, counts13)) - (counts13[wk] & 1)
        return odd <= w

    def evaluate(self, counts: Sequence[int], win: int, melds: Sequence[Meld] = (),
                 context: WinContext = DEFAULT_CONTEXT) -> tuple[bool, int] | None:
        """(win, value) of the best arrangement, or None if the hand is not complete (B4, B5);
        ``win`` is False where B3 forbids it (a claimed hand on a discard)."""
        best = self._best(counts, win, melds, context)
        if best is None:
            return None
        return self._allowed(melds, context)[0], best[0]

    def score(self, counts: Sequence[int], win: int, melds: Sequence[Meld] = (),
              context: WinContext = DEFAULT_CONTEXT) -> BeijingResult:
        """The full result (elements, name, arrangement on demand, payments), unchecked input."""
        concealed = [TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k])]
        concealed.remove(TILES[win])
        ind = None if self.wild is None else wild_indicator(self.wild)
        hand = BeijingHand(tuple(concealed), TILES[win], tuple(melds), ind, self.wild, self.rules, context,
                           tuple(counts))
        return _result(hand, self)

    def _allowed(self, melds: Sequence[Meld], ctx: WinContext) -> tuple[bool, str]:
        if self.rules.claimed_self_draw_only and not ctx.scores_self_drawn:
            for m in melds:
                if m.type is not MeldType.CONCEALED_KONG:
                    return False, (f"a hand with a claimed meld ({m}) wins only by self-draw or by robbing a kong "
                                   "(B3 claimed_self_draw_only)")
        return True, ""

    def _best(self, c: Sequence[int], win: int, melds: Sequence[Meld], ctx: WinContext) -> tuple[int, int, Struct] | None:
        """(value, listed element bits, struct) of the best arrangement, or None if incomplete."""
        scoring, cap = self.scoring, self.cap
        if ctx.hungang:  # declared: no shape needed (B2)
            flags = resolve(HUNGANG, scoring)
            return value_of(flags, scoring, cap), flags, ("declared",)
        wk = self._wk
        n = len(melds)
        w = c[wk] if wk >= 0 else 0
        m = self._masks
        p = _pack(c)
        nk = [p[0] & m[0], p[1] & m[1], p[2] & m[2], p[3] & m[3]]
        std = _need(nk) <= w
        odd = -1
        if n == 0:
            odd = sum(map(_AND1, c)) - (w & 1)
            if odd > w:
                odd = -1
        if not std and odd < 0:
            return None

        # what every arrangement shares: the situation, the wilds, the suits (as the tiles play:
        # a wild goes wherever the fixed tiles allow, so only they decide), 大钓
        claimed = False
        suits = (1 if nk[0] else 0) | (2 if nk[1] else 0) | (4 if nk[2] else 0) | (8 if nk[3] else 0)
        wild_total = w
        for meld in melds:
            if meld.type is not MeldType.CONCEALED_KONG:
                claimed = True
            suits |= 1 << (meld.tile // 9)
            if wk >= 0:
                wild_total += meld.tiles.count(wk)  # type: ignore[arg-type]
        flags = _SUIT_CODE.get(suits, 0)
        if ctx.dealer:
            flags |= DEALER
        if not claimed:
            flags |= MENQING
        flags |= ZIMO if ctx.self_drawn or ctx.rob_kong else DIANPAO
        if ctx.hunyou or wild_total == 0:
            flags |= WUHUN
        if ctx.last_tile and ctx.self_drawn:
            flags |= HAIDI
        if ctx.kong_draw:
            flags |= GANGKAI
        if n == 4:
            flags |= DADIAO
        if ctx.tianhe:
            flags |= TIANHE
        if ctx.dihe:
            flags |= DIHE

        # the arrangement patterns that work: (element bits, struct)
        found: list[tuple[int, Struct]] = []
        # 捉五魁 group: the winning 5m, not wild, with a non-wild 4m and 6m (wild 4m/5m/6m: never)
        zk = -1
        if win == 4 and wk not in (3, 4, 5) and nk[0] & (7 << 9) and nk[0] & (7 << 12) and nk[0] & (7 << 15):
            zk = nk[0] - _ZW_BITS
        if std:
            found.append((0, ("std", -1, 0, False, False)))
            if zk >= 0 and _need((zk, nk[1], nk[2], nk[3])) <= w:
                found.append((ZHUOWUKUI, ("std", -1, 1, False, False)))
            if self._want_duidui and not any(meld.type is MeldType.CHI for meld in melds) and _duidui_need(nk) <= w:
                found.append((DUIDUI, ("std", -1, 0, False, True)))
            if n <= 1:
                for d in (0, 1, 2):
                    dk, miss = _DRAGON[nk[d]]
                    if miss > w:
                        continue
                    keys = list(nk)
                    keys[d] = dk
                    if _need(keys) > w - miss:
                        continue  # with no 龙 here, none with 捉五魁 either: they only take more tiles
                    found.append((LONG, ("std", d, 0, False, False)))
                    if zk < 0:
                        continue
                    if d == 0:  # the 捉五魁 group as the dragon's 456
                        k0, miss = _take(zk, (0, 1, 2, 6, 7, 8))
                        if miss <= w and _need((k0, nk[1], nk[2], nk[3])) <= w - miss:
                            found.append((LONG | ZHUOWUKUI, ("std", d, 2, False, False)))
                    if n == 0:  # the 捉五魁 group beside the dragon
                        keys = [zk, nk[1], nk[2], nk[3]]
                        dk, miss = _DRAGON[keys[d]]
                        keys[d] = dk
                        if miss <= w and _need(keys) <= w - miss:
                            found.append((LONG | ZHUOWUKUI, ("std", d, 1, False, False)))
                if self._want_benhun and wild_total == 1:
                    # 本混儿龙: the one wild plays its own kind, so count it as a natural tile
                    d = wk // 9
                    nat = list(p)
                    dk, miss = _DRAGON[nat[d]]
                    keys = list(nat)
                    keys[d] = dk
                    if miss == 0 and _need(keys) == 0:
                        found.append((BENHUNLONG | LONG, ("std", d, 0, True, False)))
                        if zk >= 0:
                            z0 = nat[0] - _ZW_BITS
                            if d == 0:
                                k0, miss = _take(z0, (0, 1, 2, 6, 7, 8))
                                if miss == 0 and _need((k0, nat[1], nat[2], nat[3])) == 0:
                                    found.append((BENHUNLONG | LONG | ZHUOWUKUI, ("std", d, 2, True, False)))
                            if n == 0:
                                keys = [z0, nat[1], nat[2], nat[3]]
                                dk, miss = _DRAGON[keys[d]]
                                keys[d] = dk
                                if miss == 0 and _need(keys) == 0:
                                    found.append((BENHUNLONG | LONG | ZHUOWUKUI, ("std", d, 1, True, False)))
        if odd >= 0:
            # 豪华: a kind played four times, from three or four real tiles or a spare pair of wilds
            haohua = w - odd >= 2 or any(x >= 3 for k, x in enumerate(c) if k != wk)
            pb = HAOHUA | QIDUI if haohua else QIDUI
            found.append((pb, ("pairs", haohua, False)))
            if win == 4 and wk != 4 and (nk[0] >> 12) & 7 >= 2:
                found.append((pb | ZHUOWUKUI, ("pairs", haohua, True)))

        if any(bits & ZHUOWUKUI for bits, _ in found) and self._other_wait(c, melds):
            found = [(bits & ~ZHUOWUKUI, s) for bits, s in found]  # B5: the 13 tiles also won elsewhere
        best: tuple[int, int, Struct] | None = None
        for bits, struct in found:
            f = resolve(flags | bits, scoring)
            v = value_of(f, scoring, cap)
            if best is None or v > best[0] or (v == best[0] and f > best[1]):
                best = (v, f, struct)
        return best

    def _other_wait(self, c: Sequence[int], melds: Sequence[Meld]) -> bool:
        """Whether the 13 tiles before the winning 5m also completed on another kind than 5m and
        the wild kind, of which the player does not hold all four (捉五魁, B5)."""
        c13 = list(c)
        c13[4] -= 1
        own = list(c13)
        for meld in melds:
            for t in meld.tiles:
                own[t] += 1
        n = len(melds)
        for x in range(NUM_KINDS):
            if x == 4 or x == self._wk or own[x] >= 4:
                continue
            c13[x] += 1
            done = self.is_complete(c13, n)
            c13[x] -= 1
            if done:
                return True
        return False


@lru_cache(maxsize=256)
def scorer_for(indicator: Tile | None, rules: BeijingRules) -> BeijingScorer:
    """The cached :class:`BeijingScorer` of a 混坯 and rule set."""
    return BeijingScorer(indicator if rules.wilds else None, rules)


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------


class BeijingResult:
    """The scorer's answer for one win.

    ``complete``: the tiles form four melds and a pair or seven pairs (B4), or a 混杠 was declared;
    ``win``: complete and allowed (B3: a claimed hand wins only self-drawn or by robbing a kong);
    ``reason``: why a complete hand does not win ('' if it does); ``value``: the best value over all
    arrangements (B5, 0 if incomplete); ``flags``: the listed elements as bits; ``arrangement``:
    the best arrangement, built on first access.
    """

    __slots__ = ("hand", "complete", "win", "reason", "value", "flags", "struct", "_arrangement")

    def __init__(self, hand: BeijingHand, complete: bool, win: bool, reason: str, value: int, flags: int,
                 struct: Struct) -> None:
        self.hand, self.complete, self.win, self.reason = hand, complete, win, reason
        self.value, self.flags, self.struct = value, flags, struct
        self._arrangement: BeijingArrangement | None | bool = False  # False: not built yet

    def __repr__(self) -> str:
        return f"BeijingResult(complete={self.complete}, win={self.win}, value={self.value}, name={self.name!r})"

    @property
    def rules(self) -> BeijingRules:
        return self.hand.rules

    @property
    def context(self) -> WinContext:
        return self.hand.context

    @property
    def elements(self) -> tuple[type[BeijingElement], ...]:
        """The listed elements, in display order."""
        return elements_of(self.flags, self.rules.scoring)

    @property
    def codes(self) -> list[str]:
        return [e.code for e in self.elements]

    @property
    def name(self) -> str:
        """The element names joined, Chinese (推倒胡 for a plain win; '' if incomplete)."""
        return name_of(self.flags, self.rules.scoring) if self.complete else ""

    @property
    def halved(self) -> bool:
        """Version A: the value was halved because the hand is not 门清 (B5)."""
        flat = self.flags & (HUNGANG | TIANHE | DIHE)
        return self.complete and self.rules.scoring == ADD and not flat and not self.flags & MENQING

    @property
    def arrangement(self) -> BeijingArrangement | None:
        a = self._arrangement
        if a is False:
            a = self._arrangement = build_arrangement(self.hand, self.struct) if self.complete else None
        return a  # type: ignore[return-value]

    def payments(self, base: int | None = None, upstairs: bool = False) -> dict[str, int]:
        """What the three other players pay the winner for this win (B6), relative to the winner:

        * ``{"each": n}``: self-drawn — each of the three pays value × base;
        * ``{"kong_declarer": n}``: 抢杠 — the robbed kong's declarer pays all three shares;
        * ``{"discarder": n, "others": m}``: a discard win — under ``discard_pays: all`` (version
          B) each pays value × base and the discarder twice that (点炮); under ``discarder``
          (version A) the discarder alone pays three times the value (包三家), the others 0.

        ``base``: one unit (default: the rules' ``base``); ``upstairs``: the hand is played 上楼
        (after a drawn hand, option ``upstairs``): every payment doubles.  混儿悠's double
        payment, 互包 and 烧庄 involve other seats and are the engine's.
        """
        if not self.win:
            raise ValueError(f"no payments: the hand does not win ({self.reason or 'not complete'})")
        b = self.rules.base if base is None else base
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise ValueError(f"base must be a positive int, got {b!r}")
        if upstairs and not self.rules.upstairs:
            raise RulesError("upstairs (上楼) is off in these rules (B6 option upstairs)")
        unit = self.value * b * (2 if upstairs else 1)
        ctx = self.context
        if ctx.rob_kong:
            return {"kong_declarer": 3 * unit}
        if ctx.self_drawn:
            return {"each": unit}
        if self.rules.discard_pays == "discarder":
            return {"discarder": 3 * unit, "others": 0}
        return {"discarder": 2 * unit, "others": unit}

    def to_dict(self, arrangement: bool = True) -> dict[str, object]:
        scoring = self.rules.scoring
        d: dict[str, object] = {
            "complete": self.complete,
            "win": self.win,
            "value": self.value,
            "elements": [e.to_dict(scoring) for e in self.elements] if self.complete else [],
            "name": self.name,
        }
        if self.reason:
            d["reason"] = self.reason
        if self.halved:
            d["halved"] = True
        if self.win:
            d["payments"] = self.payments()
        if arrangement:
            a = self.arrangement
            d["arrangement"] = a.to_dict() if a is not None else None
        return d


def _result(h: BeijingHand, scorer: BeijingScorer) -> BeijingResult:
    assert h.draw is not None
    best = scorer._best(h.counts, h.draw, h.melds, h.context)
    if best is None:
        return BeijingResult(h, False, False, "not complete: the tiles form neither four melds and a pair nor "
                             "seven pairs (B4)", 0, 0, ())
    value, flags, struct = best
    ok, reason = scorer._allowed(h.melds, h.context)
    return BeijingResult(h, True, ok, reason, value, flags, struct)


def score_input(h: BeijingHand) -> BeijingResult:
    """Score a checked hand (:func:`prepare_beijing`)."""
    return _result(h, scorer_for(h.indicator, h.rules))


def score_beijing(
    hand: TilesLike,
    draw: TileLike,
    *,
    melds: MeldsLike = (),
    indicator: TileLike | None = None,
    rules: BeijingRules = BEIJING,
    context: WinContext | dict | None = None,
    indicator_visible: bool = True,
) -> BeijingResult:
    """Score one Beijing win (B4, B5).

    ``hand``: the concealed tiles before the winning tile (13 − 3 × melds, a kong counting 3), MPSZ
    text or kinds; ``draw``: the winning tile (drawn, or the discard won on); ``melds``: exposed
    melds (``"[345m][777p](1111z)"``, :class:`~tjmj.meld.Meld` objects or batch dicts);
    ``indicator``: the 混坯, whose successor is the wild (B2; ignored when ``rules.wilds`` is
    false); ``context``: a :class:`WinContext` (or its dict) — self-drawn by default.
    """
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules, context=context,
                        indicator_visible=indicator_visible)
    return score_input(h)


# --------------------------------------------------------------------------------------------
# The explicit arrangement: the struct's removals again, with real tiles, then each suit laid out
# by its memoised fewest-wild decomposition (tjmj._tables.decompose).
# --------------------------------------------------------------------------------------------

_Proto = list  # [kind, plays (list of kinds), wild flags (list of bools), winning slot or None]


def _place(protos: list[_Proto], kind: str, plays: Sequence[int], counts: list[int]) -> None:
    """A group playing ``plays``: a real tile where one is left, else a wild."""
    flags = []
    for k in plays:
        if counts[k]:
            counts[k] -= 1
            flags.append(False)
        else:
            flags.append(True)
    protos.append([kind, list(plays), flags, None])


def _std_rest(counts: list[int], target: int) -> tuple[list[_Proto], int]:
    """The concealed tiles left as melds and a pair at the fewest wilds: (groups, wilds used).

    The pair goes to the suit where it costs least, ``target`` first on a tie (so all-wild groups
    keep the suit elements)."""
    keys = _pack(counts)
    need = [_NUM[keys[0]], _NUM[keys[1]], _NUM[keys[2]], _HON[keys[3]]]
    pair_suit = min(range(4), key=lambda s: (need[s][1], s != target, s))
    out: list[_Proto] = []
    used = 0
    for s in range(4):
        table = T.DECOMP_HON if s == 3 else T.DECOMP_NUM
        used += need[s][0] + (need[s][1] if s == pair_suit else 0)
        for kind, pos, wild in table[keys[s], s == pair_suit]:
            plays = [9 * s + q for q in pos]
            out.append([kind, plays, list(wild), None])
            for q, wl in zip(pos, wild):
                if not wl:
                    counts[9 * s + q] -= 1
    return out, used


def _duidui_rest(counts: list[int], target: int) -> tuple[list[_Proto], int]:
    """Triplets and one pair at the fewest wilds (对对和)."""
    pair_kind = next((k for k in range(NUM_KINDS) if counts[k] in (1, 2, 4)), -1)
    out: list[_Proto] = []
    used = 0
    for k in range(NUM_KINDS):
        r = counts[k]
        if not r:
            continue
        parts = {1: (1,), 2: (2,), 4: (2, 2)}[r] if k == pair_kind else {1: (1,), 2: (2,), 3: (3,), 4: (3, 1)}[r]
        for j, real in enumerate(parts):
            size = 2 if k == pair_kind and j == 0 else 3
            out.append(["pair" if size == 2 else "triplet", [k] * size, [False] * real + [True] * (size - real), None])
            used += size - real
        counts[k] = 0
    if pair_kind < 0:
        out.append(["pair", [_first_kind(target)] * 2, [True, True], None])
        used += 2
    return out, used


def _first_kind(suit: int) -> int:
    return 27 if suit == 3 else 9 * suit


def build_arrangement(h: BeijingHand, struct: Struct) -> BeijingArrangement | None:
    """The arrangement behind a struct of :meth:`BeijingScorer._best` (None for a declared 混杠)."""
    if not struct or struct[0] == "declared":
        return None
    assert h.draw is not None
    wk = -1 if h.wild is None else int(h.wild)
    counts = list(h.counts)
    w = counts[wk] if wk >= 0 else 0
    if wk >= 0:
        counts[wk] = 0
    suits = 0
    for k in range(NUM_KINDS):
        if counts[k]:
            suits |= 1 << (k // 9)
    for m in h.melds:
        suits |= 1 << (m.tile // 9)
    target = (suits & -suits).bit_length() - 1 if suits else 0  # where all-wild groups go
    protos: list[_Proto] = []
    natural = False
    if struct[0] == PAIRS:
        _, haohua, zw = struct
        for k in range(NUM_KINDS):
            r = counts[k]
            while r >= 2:
                protos.append(["pair", [k, k], [False, False], None])
                r -= 2
            if r:
                protos.append(["pair", [k, k], [False, True], None])
                w -= 1
        first = protos[0][1][0]
        while w >= 2:  # spare wilds pair up, playing a kind already paired (豪华 when it counts)
            protos.append(["pair", [first, first], [True, True], None])
            w -= 2
        if zw:
            g = next(g for g in protos if g[1] == [4, 4] and g[2] == [False, False])
            g[3] = 0
        shape = PAIRS
    else:
        _, dragon, zw, benhun, duidui = struct
        if benhun and wk >= 0 and w:
            counts[wk] += w  # the one wild plays its own kind: lay it out as a natural tile
            w = 0
            natural = True
        if zw:
            _place(protos, "sequence", (3, 4, 5), counts)
            protos[-1][3] = 1
        if dragon >= 0:
            for start in (0, 3, 6):
                if zw == 2 and start == 3:
                    continue  # the 捉五魁 group is the dragon's 456
                b = 9 * dragon + start
                _place(protos, "sequence", (b, b + 1, b + 2), counts)
                w -= sum(protos[-1][2])
        rest, used = (_duidui_rest if duidui else _std_rest)(counts, target)
        protos += rest
        w -= used
        assert w >= 0 and w % 3 == 0, (h.describe(), struct)
        k = _first_kind(target)
        for _ in range(w // 3):
            protos.append(["triplet", [k, k, k], [True, True, True], None])
        shape = STANDARD
    if natural:  # the natural tiles of the wild kind are that wild
        for g in protos:
            g[2] = [fl or p == wk for p, fl in zip(g[1], g[2])]
    if not any(g[3] is not None for g in protos):
        win_wild = h.draw == wk
        for g in protos:
            slot = next((i for i, (p, fl) in enumerate(zip(g[1], g[2]))
                         if (fl if win_wild else not fl and p == h.draw)), None)
            if slot is not None:
                g[3] = slot
                break
    wild_tile = TILES[wk] if wk >= 0 else None
    groups = [
        Group(kind, tuple(TILES[wk] if fl else TILES[p] for p, fl in zip(plays, wl)),
              tuple(TILES[p] for p in plays), tuple(wl), slot)
        for kind, plays, wl, slot in protos
    ]
    for m in h.melds:
        ts = m.tiles
        groups.append(Group(m.type.value, ts, ts, tuple(t == wk for t in ts), None))
    return BeijingArrangement(tuple(groups), h.draw, wild_tile, shape)
