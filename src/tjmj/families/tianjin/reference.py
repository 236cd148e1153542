"""A slow, exhaustive reference scorer: the tests' ground truth for :mod:`tjmj.families.tianjin.score` (R5).

It shares nothing with the fast path's evaluation (no ``tjmj._tables``, ``tjmj.families.tianjin.arrange`` or
``tjmj.families.tianjin.score.evaluate``): it lists arrangements one by one, in the sense of R5.1, and scores each
with the element classes of :mod:`tjmj.families.tianjin.elements`.  The hand's answer is the best (fan, flags)
over all of them (R5.2; ties by the larger flag int, as the fast path does).

How the arrangements are listed
-------------------------------
1. *Group multisets.*  The lowest kind that still has a non-wild tile must lie in some group: a
   pair or triplet of that kind, or a sequence holding it at any of its three places.  Every other
   slot of that group is filled either by a non-wild tile of the kind it plays (if one is left)
   or by a wild; slots below the lowest kind can only be wilds.  Recursing on what is left covers
   every non-wild tile in every possible way.  The wilds left over then form all-wild groups.
2. *All-wild groups and plain melds* (exact reductions): no element of R5.1 looks at the kind played by
   an all-wild pair or triplet, nor by an all-wild sequence other than the nine 123/456/789
   sequences of a number suit (龙; 456m, the 捉伍儿 group, is one of them).  Elements only ask
   whether a group is a pair, a concealed meld, which of its tiles are wild, where the winning
   tile is, and the plays of dragon and 456m sequences.  So an all-wild group is one
   representative pair, one representative triplet, or one of those nine sequences.
   By the same argument a concealed triplet, or a sequence that is neither 456m nor completes a
   123/456/789 of its suit with two other sequences of the multiset, is told apart from another
   such meld only by its non-wild tiles and its number of wilds (where a non-wild winning tile can
   sit, and that a wild winning tile's partners are wilds), so group multisets that agree up to
   such melds are scored once (``_group_views``).
3. *Winning tile.*  A non-wild winning tile is any non-wild slot playing its kind (every copy of
   the drawn kind may be "the" winning tile, R5.2); a wild winning tile is any wild slot.
   Placements the elements cannot tell apart (the same slot of identical groups, or any wild
   slot of a plain meld of step 2) are tried once.
4. *Physical wilds.*  A wild's own kind enters only 素本 (it must play itself, and the hand's
   wilds must be exactly one of each wild kind) and the winning tile (fixed by step 3).  So all
   distinct assignments of the physical wilds to the wild slots are tried when the hand's wilds
   are exactly one of each wild kind (at most 3! ways); otherwise 素本 cannot hold and one
   assignment (each wild on a slot of its own kind where there is one) stands for all.
5. *Dragon.*  ``Arrangement.dragon`` is None or any choice of three concealed sequences 123, 456,
   789 of one number suit; 混儿吊 and 素本 depend on which groups are claimed.

``HandInput.tianhu`` is ignored (the answer is as if it were False).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, permutations, product

from ...hand import Group
from ...tiles import Tile, counts_of
from .elements import ARRANGEMENT_ELEMENTS, Arrangement, fan_of
from .score import HandInput

__all__ = ["reference_score", "arrangements", "flags_of"]

# A group before physical tiles are chosen: (kind, plays, wild slot flags).
Proto = tuple[str, tuple[int, ...], tuple[bool, ...]]
Shape = tuple[Proto, ...]

# The nine all-wild sequences that an element can tell apart (123/456/789 of m, p, s).
_SPECIAL_STARTS = tuple(s * 9 + p for s in range(3) for p in (0, 3, 6))


def flags_of(arr: Arrangement) -> int:
    """The R5.1 elements met by one arrangement, as a Flag bit set."""
    flags = 0
    for e in ARRANGEMENT_ELEMENTS:
        if e.is_condition_met(arr):
            flags |= int(e.flag)
    return flags


def _groups_at(k: int, counts: tuple[int, ...], wilds: int, melds: int, pair: int) -> Iterator[tuple[Proto, int]]:
    """Every group holding a non-wild tile of kind ``k`` (the lowest left), with the wilds it uses."""
    if pair:
        if counts[k] >= 2:
            yield ("pair", (k, k), (False, False)), 0
        if wilds >= 1:
            yield ("pair", (k, k), (False, True)), 1
    if not melds:
        return
    for real in (3, 2, 1):  # non-wild tiles of kind k in the triplet; the rest are wilds
        if counts[k] >= real and wilds >= 3 - real:
            yield ("triplet", (k, k, k), (False,) * real + (True,) * (3 - real)), 3 - real
    if k >= 27:
        return
    for place in range(3):
        start = k - place
        if start // 9 != k // 9 or start % 9 > 6:
            continue
        options: list[tuple[bool, ...]] = []
        for j in range(start, start + 3):
            if j < k:
                options.append((True,))  # lower non-wild kinds are all used up
            elif j == k:
                options.append((False,))
            else:
                options.append(((False,) if counts[j] else ()) + (True,))
        for wild in product(*options):
            used = sum(wild)
            if used <= wilds:
                yield ("sequence", (start, start + 1, start + 2), wild), used


def _shapes(
    counts: tuple[int, ...], wilds: int, melds: int, pair: int, rep: int, memo: dict, full: bool = False
) -> frozenset[Shape]:
    """All group multisets (sorted tuples) covering ``counts`` non-wild tiles plus ``wilds`` wilds.

    ``full``: all-wild groups of every kind, not only the representatives of step 2.
    """
    key = (counts, wilds, melds, pair)
    hit = memo.get(key)
    if hit is not None:
        return hit
    out: set[Shape] = set()
    if sum(counts) + wilds == 3 * melds + 2 * pair:
        k = next((i for i, n in enumerate(counts) if n), None)
        if k is None:
            # only wilds left: the representative groups of the module docstring, step 2
            kinds = range(34) if full else (rep,)
            starts = [s for s in range(27) if s % 9 <= 6] if full else _SPECIAL_STARTS
            bases: list[tuple[Proto, ...]] = [(("pair", (k, k), (True, True)),) for k in kinds] if pair else [()]
            options: list[Proto] = [("triplet", (k, k, k), (True, True, True)) for k in kinds]
            options += [("sequence", (s, s + 1, s + 2), (True, True, True)) for s in starts]
            for base in bases:
                for combo in combinations_with_replacement(options, melds):
                    out.add(tuple(sorted(base + combo)))
        else:
            for group, used in _groups_at(k, counts, wilds, melds, pair):
                left = list(counts)
                for p, w in zip(group[1], group[2], strict=True):
                    if not w:
                        left[p] -= 1
                is_pair = group[0] == "pair"
                rest = _shapes(tuple(left), wilds - used, melds - (not is_pair), pair - is_pair, rep, memo, full)
                for r in rest:
                    out.add(tuple(sorted((group, *r))))
    result = frozenset(out)
    memo[key] = result
    return result


def _wild_assignments(
    slots: list[tuple[int, int]], shape: Shape, physical: Sequence[int], one_each: bool
) -> Iterator[dict[tuple[int, int], int]]:
    """Ways to put the physical wild tiles on the wild slots (module docstring, step 4)."""
    if one_each:
        for perm in sorted(set(permutations(physical))):
            yield dict(zip(slots, perm, strict=True))
        return
    left = list(physical)
    out: dict[tuple[int, int], int] = {}
    rest: list[tuple[int, int]] = []
    for gi, si in slots:
        play = shape[gi][1][si]
        if play in left:  # a wild on a slot of its own kind reads as playing itself
            left.remove(play)
            out[(gi, si)] = play
        else:
            rest.append((gi, si))
    out.update(zip(rest, sorted(left), strict=True))
    yield out


def _group_views(shape: Shape, full: bool = False) -> list[tuple]:
    """What the elements can see of each group of a multiset (module docstring, step 2).

    A pair and a sequence that may be in a dragon or be the 456m are seen whole; any other
    meld only by its non-wild tiles and its number of wilds.  ``full``: every group whole.
    """
    if full:
        return list(shape)
    starts = {plays[0] for kind, plays, _ in shape if kind == "sequence"}
    out: list[tuple] = []
    for kind, plays, wild in shape:
        s = plays[0]
        dragon_part = s in _SPECIAL_STARTS and all(s - s % 9 + p in starts for p in (0, 3, 6))
        if kind == "pair" or (kind == "sequence" and (dragon_part or plays == (3, 4, 5))):
            out.append((kind, plays, wild))
        else:
            out.append(("meld", tuple(sorted(p for p, w in zip(plays, wild, strict=True) if not w)), sum(wild)))
    return out


def _dragons(shape: Shape) -> list[tuple[int, int, int] | None]:
    """None and every choice of three concealed sequences 123/456/789 of one number suit."""
    out: list[tuple[int, int, int] | None] = [None]
    for suit in range(3):
        a, b, c = (
            [i for i, (kind, plays, _) in enumerate(shape) if kind == "sequence" and plays[0] == suit * 9 + p]
            for p in (0, 3, 6)
        )
        out += [(i, j, k) for i in a for j in b for k in c]
    return out


_TILE = tuple(Tile(k) for k in range(34))


def arrangements(h: HandInput, full: bool = False) -> Iterator[Arrangement]:
    """Every arrangement of the hand, up to the exact reductions of the module docstring.

    ``full=True`` drops the reductions of steps 2-4 (all-wild groups of every kind, every group
    multiset, every assignment of the physical wilds): far slower, for checking them with few wilds.
    """
    wildset = set(h.wilds)
    tiles = [*h.concealed, h.draw]
    counts = counts_of(t for t in tiles if t not in wildset)
    physical = sorted(t for t in tiles if t in wildset)
    melds = 4 - len(h.melds)
    if len(tiles) != 3 * melds + 2:
        return
    win_wild = h.draw in wildset
    one_each = full or sorted(physical) == sorted(h.wilds)
    exposed = tuple(
        Group(m.type.value, (m.tile,) * m.size, (m.tile,) * m.size, (m.tile in wildset,) * m.size) for m in h.melds
    )
    exposed_wild = sum(m.size for m in h.melds if m.tile in wildset)
    shapes: dict[tuple, Shape] = {}
    for shape in sorted(_shapes(tuple(counts), len(physical), melds, 1, int(h.wilds[0]), {}, full)):
        shapes.setdefault(tuple(sorted(_group_views(shape, full))), shape)
    for shape in shapes.values():
        wild_slots = [(gi, si) for gi, g in enumerate(shape) for si, w in enumerate(g[2]) if w]
        dragons = _dragons(shape)
        views = _group_views(shape, full)
        # the winning tile: any slot it can be, slots the elements cannot tell apart tried once (step 3)
        seen: set[tuple[tuple, int | None, bool]] = set()
        for gi, g in enumerate(shape):
            for si, (play, w) in enumerate(zip(g[1], g[2], strict=True)):
                fits = w if win_wild else (not w and play == h.draw)
                key = (views[gi], None if views[gi][0] == "meld" else play, w)
                if not fits or key in seen:
                    continue
                seen.add(key)
                if win_wild:
                    others = [x for x in wild_slots if x != (gi, si)]
                    rest = list(physical)
                    rest.remove(h.draw)
                    assigns: Iterator[dict[tuple[int, int], int]] = (
                        {**a, (gi, si): int(h.draw)} for a in _wild_assignments(others, shape, rest, one_each)
                    )
                else:
                    assigns = _wild_assignments(wild_slots, shape, physical, one_each)
                for assign in assigns:
                    groups = (
                        tuple(
                            Group(
                                kind,
                                tuple(_TILE[assign[(j, i)] if wl else p] for i, (p, wl) in enumerate(zip(plays, wild))),
                                tuple(_TILE[p] for p in plays),
                                wild,
                                si if j == gi else None,
                            )
                            for j, (kind, plays, wild) in enumerate(shape)
                        )
                        + exposed
                    )
                    for dragon in dragons:
                        yield Arrangement(
                            groups,
                            winning_tile=h.draw,
                            wild_kinds=h.wilds,
                            dragon=dragon,
                            kong_draw=h.kong_draw,
                            tianhu=False,
                            suben_rule=h.rules.suben,
                            exposed_wild_tiles=exposed_wild,
                        )


def reference_score(h: HandInput, full: bool = False) -> tuple[int, int, Arrangement] | None:
    """Best ``(fan, flags, arrangement)`` over every arrangement (R5.2), or None if incomplete.

    The key is (fan, flags): ties between equal fans go to the larger flag int.  ``full``: see
    :func:`arrangements`.
    """
    best: tuple[int, int, Arrangement] | None = None
    for arr in arrangements(h, full):
        flags = flags_of(arr)
        fan = fan_of(flags)
        if best is None or (fan, flags) > (best[0], best[1]):
            best = (fan, flags, arr)
    return best
