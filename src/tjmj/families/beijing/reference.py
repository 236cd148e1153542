"""A slow, exhaustive reference scorer for Beijing hands: the tests' ground truth for
:mod:`.score` (docs/rules/BEIJING.md B4, B5).

It shares nothing with the fast path's evaluation (no ``tjmj._tables``, no pattern removal): it
lists every arrangement of the hand, every wild given every kind it may play, and scores each one
with the element classes of :mod:`.elements` alone.  The answer is the best (value, element bits)
over all of them (B5; ties by the larger bit set, as the fast path).

How the arrangements are listed
-------------------------------
1. *Standard shape* (four melds and a pair, B4).  The lowest kind that still has a non-wild tile
   lies in some group: a pair or triplet of that kind, or a sequence holding it at any of its three
   places.  Every other slot of that group holds a non-wild tile of the kind it plays (if one is
   left) or a wild; slots below the lowest kind can only be wilds.  Recursing on what is left covers
   every non-wild tile in every possible way.  The wilds left over then form all-wild groups: at
   most one, since a hand holds at most four wilds — a pair of each of the 34 kinds, or a triplet
   of each kind, or each of the 21 sequences.
2. *Seven pairs* (no melds, B4): each non-wild tile pairs with another of its kind or with a wild;
   the wilds left pair up, each such pair playing each of the 34 kinds.
3. *Winning tile*: a non-wild winning tile is any non-wild slot of its kind (every copy of that kind
   may be "the" winning tile, B5); a wild winning tile is any wild slot.  The wilds are one kind, so
   no assignment of physical wilds to slots needs choosing.
4. The exposed melds are fixed groups; a claimed wild in one plays its own kind (B2).

``other_wait`` (捉五魁, B5) is found by the same kind of search: does the 13-tile hand complete on
another kind, not 5m nor the wild, of which the player holds fewer than four?
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from ...hand import Group
from ...tiles import NUM_KINDS, TILES
from .elements import (
    PAIRS,
    STANDARD,
    BeijingArrangement,
    Situation,
    met_flags,
    resolve,
    value_of,
)
from .score import BeijingHand

__all__ = ["reference_score", "arrangements", "reference_complete", "reference_other_wait"]

# A group before its physical tiles: (kind, plays, wild slot flags).
Proto = tuple[str, tuple[int, ...], tuple[bool, ...]]
Shape = tuple[Proto, ...]

_SEQ_STARTS = tuple(s * 9 + p for s in range(3) for p in range(7))


def _groups_at(k: int, counts: tuple[int, ...], wilds: int, melds: int, pair: int) -> Iterator[tuple[Proto, int]]:
    """Every group holding a non-wild tile of kind ``k`` (the lowest left), with the wilds it uses."""
    if pair:
        if counts[k] >= 2:
            yield ("pair", (k, k), (False, False)), 0
        if wilds >= 1:
            yield ("pair", (k, k), (False, True)), 1
    if not melds:
        return
    for real in (3, 2, 1):  # non-wild tiles of kind k in the triplet; wilds fill the rest
        if counts[k] >= real and wilds >= 3 - real:
            yield ("triplet", (k, k, k), (False,) * real + (True,) * (3 - real)), 3 - real
    if k >= 27:
        return
    for start in (k - 2, k - 1, k):
        if start < 0 or start // 9 != k // 9 or start % 9 > 6:
            continue
        options: list[tuple[bool, ...]] = []
        for j in range(start, start + 3):
            if j < k:
                options.append((True,))  # lower non-wild kinds are used up
            elif j == k:
                options.append((False,))
            else:
                options.append(((False,) if counts[j] else ()) + (True,))
        for a in options[0]:
            for b in options[1]:
                for c in options[2]:
                    used = a + b + c
                    if used <= wilds:
                        yield ("sequence", (start, start + 1, start + 2), (a, b, c)), used


def _standard(counts: tuple[int, ...], wilds: int, melds: int, pair: int,
              memo: dict[tuple, frozenset[Shape]]) -> frozenset[Shape]:
    """Every multiset of groups (sorted tuples) covering the non-wild ``counts`` and ``wilds`` wilds."""
    key = (counts, wilds, melds, pair)
    hit = memo.get(key)
    if hit is not None:
        return hit
    out: set[Shape] = set()
    if sum(counts) + wilds == 3 * melds + 2 * pair:
        k = next((i for i, n in enumerate(counts) if n), None)
        if k is None:
            if wilds == 0:
                out.add(())
            elif pair == 1 and melds == 0:  # wilds == 2
                out.update((("pair", (x, x), (True, True)),) for x in range(NUM_KINDS))
            elif pair == 0 and melds == 1:  # wilds == 3
                out.update((("triplet", (x, x, x), (True, True, True)),) for x in range(NUM_KINDS))
                out.update((("sequence", (s, s + 1, s + 2), (True, True, True)),) for s in _SEQ_STARTS)
        else:
            for group, used in _groups_at(k, counts, wilds, melds, pair):
                left = list(counts)
                for p, w in zip(group[1], group[2]):
                    if not w:
                        left[p] -= 1
                is_pair = group[0] == "pair"
                for rest in _standard(tuple(left), wilds - used, melds - (not is_pair), pair - is_pair, memo):
                    out.add(tuple(sorted((group, *rest))))
    result = frozenset(out)
    memo[key] = result
    return result


def _pairs(counts: tuple[int, ...], wilds: int) -> Iterator[Shape]:
    """Every seven-pairs multiset: non-wild tiles paired with their kind or with a wild, then the
    spare wilds in pairs playing any kind."""
    k = next((i for i, n in enumerate(counts) if n), None)
    if k is None:
        if wilds % 2 == 0:
            for kinds in combinations_with_replacement(range(NUM_KINDS), wilds // 2):
                yield tuple(("pair", (x, x), (True, True)) for x in kinds)
        return
    left = list(counts)
    if counts[k] >= 2:
        left[k] -= 2
        for rest in _pairs(tuple(left), wilds):
            yield (("pair", (k, k), (False, False)), *rest)
        left[k] += 2
    if wilds:
        left[k] -= 1
        for rest in _pairs(tuple(left), wilds - 1):
            yield (("pair", (k, k), (False, True)), *rest)


def _split(h: BeijingHand) -> tuple[tuple[int, ...], int]:
    """The non-wild concealed counts (winning tile included) and the concealed wilds."""
    counts = list(h.counts)
    w = 0
    if h.wild is not None:
        w = counts[h.wild]
        counts[h.wild] = 0
    return tuple(counts), w


def _shapes(counts: tuple[int, ...], w: int, n_melds: int) -> Iterator[tuple[str, Shape]]:
    memo: dict[tuple, frozenset[Shape]] = {}
    for shape in sorted(_standard(counts, w, 4 - n_melds, 1, memo)):
        yield STANDARD, shape
    if n_melds == 0:
        seen: set[Shape] = set()
        for shape in _pairs(counts, w):
            s = tuple(sorted(shape))
            if s not in seen:
                seen.add(s)
                yield PAIRS, s


def arrangements(h: BeijingHand) -> Iterator[BeijingArrangement]:
    """Every arrangement of a complete hand (B4): every shape, every winning slot."""
    assert h.draw is not None
    counts, w = _split(h)
    wild = h.wild
    win_wild = wild is not None and h.draw == wild
    exposed = tuple(
        Group(m.type.value, m.tiles, m.tiles, tuple(t == wild for t in m.tiles), None) for m in h.melds
    )
    for shape_kind, shape in _shapes(counts, w, len(h.melds)):
        seen: set[tuple[Proto, int]] = set()
        for gi, (_kind, plays, wl) in enumerate(shape):
            for si, (play, w_slot) in enumerate(zip(plays, wl)):
                fits = w_slot if win_wild else (not w_slot and play == h.draw)
                if not fits or (shape[gi], si) in seen:
                    continue
                seen.add((shape[gi], si))
                groups = tuple(
                    Group(
                        g_kind,
                        tuple(TILES[wild] if f and wild is not None else TILES[p] for p, f in zip(g_plays, g_wl)),
                        tuple(TILES[p] for p in g_plays),
                        g_wl,
                        si if j == gi else None,
                    )
                    for j, (g_kind, g_plays, g_wl) in enumerate(shape)
                )
                yield BeijingArrangement(groups + exposed, h.draw, wild, shape_kind)


def _exists(counts: list[int], w: int, melds: int, pair: int) -> bool:
    """Is there any standard arrangement (the search of step 1, stopping at the first)?"""
    k = next((i for i, n in enumerate(counts) if n), None)
    if k is None:
        return w == 3 * melds + 2 * pair
    if sum(counts) + w != 3 * melds + 2 * pair:
        return False
    tc = tuple(counts)
    for group, used in _groups_at(k, tc, w, melds, pair):
        for p, f in zip(group[1], group[2]):
            if not f:
                counts[p] -= 1
        is_pair = group[0] == "pair"
        ok = _exists(counts, w - used, melds - (not is_pair), pair - is_pair)
        for p, f in zip(group[1], group[2]):
            if not f:
                counts[p] += 1
        if ok:
            return True
    return False


def reference_complete(counts: list[int], wild: int | None, n_melds: int) -> bool:
    """Do the concealed tiles (``counts``, 34 kinds) complete, by exhaustive search (B4)?"""
    c = list(counts)
    w = 0
    if wild is not None:
        w = c[wild]
        c[wild] = 0
    if _exists(c, w, 4 - n_melds, 1):
        return True
    return n_melds == 0 and next(_pairs(tuple(c), w), None) is not None


def reference_other_wait(h: BeijingHand) -> bool:
    """The 13 tiles before the winning 5m also complete on a kind other than 5m and the wild, of
    which the player holds fewer than four (捉五魁, B5)."""
    c13 = list(h.counts)
    c13[4] -= 1
    own = list(c13)
    for m in h.melds:
        for t in m.tiles:
            own[t] += 1
    for x in range(NUM_KINDS):
        if x == 4 or x == h.wild or own[x] >= 4:
            continue
        c13[x] += 1
        done = reference_complete(c13, h.wild, len(h.melds))
        c13[x] -= 1
        if done:
            return True
    return False


def reference_score(h: BeijingHand) -> tuple[int, int, BeijingArrangement | None] | None:
    """Best ``(value, element bits, arrangement)`` over every arrangement (B5), or None if the hand
    is not complete.  A declared 混杠 needs no shape: its arrangement is None."""
    scoring, cap = h.rules.scoring, h.rules.cap
    assert h.draw is not None
    other = h.draw == 4 and h.wild != 4 and reference_other_wait(h)
    sit = Situation(h.context, h.rules, h.wild, other)
    if h.context.hungang:
        empty = BeijingArrangement((), h.draw, h.wild, STANDARD)
        flags = resolve(met_flags(empty, sit), scoring)
        return value_of(flags, scoring, cap), flags, None
    best: tuple[int, int, BeijingArrangement | None] | None = None
    for arr in arrangements(h):
        flags = resolve(met_flags(arr, sit), scoring)
        value = value_of(flags, scoring, cap)
        if best is None or (value, flags) > (best[0], best[1]):
            best = (value, flags, arr)
    return best
