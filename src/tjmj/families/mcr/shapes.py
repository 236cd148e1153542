"""Shape tables for the MCR scorer (docs/scoring-mcr.md): per-suit decompositions, completeness,
waits, and the chow and pung combination fans, each memoised on its key.

A *pack code* is an int: ``k`` (0..33) is a pung of kind ``k``, ``34 + k`` a chow whose lowest tile
is kind ``k``.  Kinds are :mod:`tjmj.tiles`' (m 0–8, p 9–17, s 18–26, honours 27–33).

PyMahjongGB, the reference the rules ask to agree with (M3), orders tiles m, s, p (characters,
bamboo, dots); wherever that order decides between equally good answers (which arrangement of
a hand wins a tie, which three chows form the three-chow fan) :data:`CPP` gives a kind's place
in it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from .fans import FAN_BY_CODE

__all__ = [
    "CPP",
    "CPP_BASES",
    "suit_decomps",
    "suit_waits",
    "suit_complete",
    "hand_decomps",
    "hand_divisions",
    "suit_divisions",
    "group_traits",
    "pack_traits",
    "TRAIT_SHIFTS",
    "CHOW_TRAITS",
    "PUNG_TRAITS",
    "PAIR_TRAITS",
    "is_complete_counts",
    "basic_waits",
    "chow_fans",
    "TWO_CHOW_FANS",
    "pung_fans",
    "pair_fan_of_chows",
    "best_pair_combination",
    "allowed_combination",
]

_id = {c: f.id for c, f in FAN_BY_CODE.items()}
PURE_DOUBLE_CHOW = _id["pure_double_chow"]
MIXED_DOUBLE_CHOW = _id["mixed_double_chow"]
SHORT_STRAIGHT = _id["short_straight"]
TWO_TERMINAL_CHOWS = _id["two_terminal_chows"]
QUADRUPLE_CHOW = _id["quadruple_chow"]
FOUR_PURE_SHIFTED_CHOWS = _id["four_pure_shifted_chows"]
PURE_STRAIGHT = _id["pure_straight"]
PURE_SHIFTED_CHOWS = _id["pure_shifted_chows"]
PURE_TRIPLE_CHOW = _id["pure_triple_chow"]
MIXED_STRAIGHT = _id["mixed_straight"]
MIXED_TRIPLE_CHOW = _id["mixed_triple_chow"]
MIXED_SHIFTED_CHOWS = _id["mixed_shifted_chows"]
FOUR_PURE_SHIFTED_PUNGS = _id["four_pure_shifted_pungs"]
BIG_FOUR_WINDS = _id["big_four_winds"]
PURE_SHIFTED_PUNGS = _id["pure_shifted_pungs"]
MIXED_SHIFTED_PUNGS = _id["mixed_shifted_pungs"]
TRIPLE_PUNG = _id["triple_pung"]
BIG_THREE_WINDS = _id["big_three_winds"]
BIG_THREE_DRAGONS = _id["big_three_dragons"]
DOUBLE_PUNG = _id["double_pung"]
TWO_DRAGONS_PUNGS = _id["two_dragons_pungs"]

# PyMahjongGB's tile order: m (0..8), s (9..17), p (18..26), honours
CPP: tuple[int, ...] = tuple(k if k < 9 or k >= 27 else (k + 9 if k < 18 else k - 9) for k in range(34))

# --- decompositions -------------------------------------------------------------------------


def _decompose(c: list[int], r: int, n: int, honors: bool, base: int, need_pair: bool,
               out: list[tuple[tuple[int, ...], int]], packs: list[int], pair: int) -> None:
    while r < n and c[r] == 0:
        r += 1
    if r == n:
        if (pair >= 0) == need_pair:
            out.append((tuple(packs), pair))
        return
    m = c[r]
    for p in (0, 1):
        if p and (pair >= 0 or not need_pair or m < 2):
            continue
        for q in (0, 1):
            rest = m - 2 * p - 3 * q
            if rest < 0:
                continue
            if rest and (honors or r > 6 or c[r + 1] < rest or c[r + 2] < rest):
                continue
            c[r] = 0
            if rest:
                c[r + 1] -= rest
                c[r + 2] -= rest
            added = [base + r] * q + [34 + base + r] * rest
            packs.extend(added)
            _decompose(c, r + 1, n, honors, base, need_pair, out, packs, base + r if p else pair)
            del packs[len(packs) - len(added):]
            c[r] = m
            if rest:
                c[r + 1] += rest
                c[r + 2] += rest


@lru_cache(maxsize=1 << 12)  # keyed by suit shapes, which are many: ~0.3 kB an entry, ~1.4 MB full
def suit_decomps(base: int, counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way to split one suit's counts (``base`` 0, 9, 18, or 27 for the honours) into pungs
    and chows, with one pair when the total is 2 mod 3: ``((pack codes…), pair kind or -1)``."""
    total = sum(counts)
    if total % 3 == 1:
        return ()
    out: list[tuple[tuple[int, ...], int]] = []
    _decompose(list(counts), 0, len(counts), base == 27, base, total % 3 == 2, out, [], -1)
    return tuple(out)


def _melds_only(c: list[int], honors: bool) -> bool:
    """Whether one suit's counts (``c``, changed) are pungs and chows only.  Greedy from the
    lowest tile: of ``n`` copies there, ``n % 3`` start chows (three chows from one tile are the
    same tiles as three pungs), the rest are a pung."""
    if honors:
        return all(not n % 3 for n in c)
    for r in range(7):
        n = c[r] % 3
        if n:
            if c[r + 1] < n or c[r + 2] < n:
                return False
            c[r + 1] -= n
            c[r + 2] -= n
    return not c[7] % 3 and not c[8] % 3


def suit_complete(counts: list[int] | tuple[int, ...], honors: bool) -> bool:
    """Whether one suit's counts split into pungs and chows, with one pair when the total is
    2 mod 3 (a fifth copy allowed); what :func:`suit_decomps` is non-empty for, without listing
    the splits."""
    total = sum(counts)
    m = total % 3
    if m == 0:
        return _melds_only(list(counts), honors)
    if m == 1:
        return False
    # the pair's number p: chows and pungs add 0 mod 3 to the sum of the numbers, the pair 2p
    weighted = 0
    for r, n in enumerate(counts):
        weighted += r * n
    for r in range(2 * weighted % 3, len(counts), 3):
        if counts[r] >= 2:
            c = list(counts)
            c[r] -= 2
            if _melds_only(c, honors):
                return True
    return False


@lru_cache(maxsize=1 << 12)  # keyed by suit shapes, which are many: ~0.3 kB an entry, ~1.4 MB full
def suit_waits(base: int, counts: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds of this suit that make its counts decompose (a fifth copy allowed: waits are
    judged on shape, as PyMahjongGB does)."""
    total = sum(counts)
    if total % 3 == 0:
        return ()
    waits = []
    honors = base == 27
    n = len(counts)
    c = list(counts)
    with_pair = total % 3 == 1
    weighted = 0
    if with_pair:
        for r in range(n):
            weighted += r * c[r]
    for r in range(n):
        if counts[r] == 0 and (honors or not any(counts[max(0, r - 2):r + 3])):
            continue  # a tile far from every tile of the suit completes nothing
        c[r] += 1
        if not with_pair:
            if _melds_only(c.copy(), honors):
                waits.append(base + r)
        else:
            # as in suit_complete: the pair's number is 2 * (the numbers' sum) mod 3
            for p in range(2 * (weighted + r) % 3, n, 3):
                if c[p] >= 2:
                    d = c.copy()
                    d[p] -= 2
                    if _melds_only(d, honors):
                        waits.append(base + r)
                        break
        c[r] -= 1
    return tuple(waits)


def _split(counts: list[int] | tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))


_BASES = (0, 9, 18, 27)
CPP_BASES = (0, 18, 9, 27)  # where m, p, s and the honours start in PyMahjongGB's order


def hand_decomps(counts: Sequence[int],
                 bases: tuple[int, int, int, int] = _BASES) -> list[tuple[tuple[int, ...], int]]:
    """Every split of these counts (in our kind order) into pungs and chows and exactly one
    pair; with ``bases=CPP_BASES`` the pack codes and the pair are in :data:`CPP` order."""
    packs: tuple[int, ...] = ()
    pair = -1
    multi = None
    for i in range(4):
        j = 9 * i
        sc = tuple(counts[j:j + 9]) if i < 3 else tuple(counts[27:34])
        if sc == _ZERO[i]:
            continue
        d = suit_decomps(bases[i], sc)
        if not d:
            return []
        if len(d) == 1:
            p, q = d[0]
            packs += p
            if q >= 0:
                if pair >= 0:
                    return []
                pair = q
        else:
            if d[0][1] >= 0:
                if pair >= 0:
                    return []
                pair = -2  # the pair comes from this suit's decompositions
            if multi is None:
                multi = [d]
            else:
                multi.append(d)
    if multi is None:
        return [(packs, pair)] if pair >= 0 else []
    if pair == -1:
        return []
    out = []
    for combo in itertools.product(*multi):
        ps = packs
        pr = pair
        for p, q in combo:
            ps += p
            if q >= 0:
                pr = q
        out.append((ps, pr))
    return out


_ZERO = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)


# A division summary, what scoring one arrangement needs, all in CPP order: (chows (lowest
# tiles, sorted), pungs (sorted), pair, traits) where ``traits`` packs five counts of the groups,
# 4 bits each (:data:`TRAIT_SHIFTS`; packed counts add up field by field)
Summary = tuple[tuple[int, ...], tuple[int, ...], int, int]


def group_traits(chows: Iterable[int], pungs: Iterable[int], pair: int) -> tuple[int, int, int, int, int]:
    """(outside, five, even, terminal-or-wind pungs, dragon pungs) of some groups (CPP kinds;
    ``pair`` -1 for none)."""
    outside = five = even = terminal = dragons = 0
    for c in chows:
        r = c % 9
        if r == 0 or r == 6:
            outside += 1
        elif 2 <= r <= 4:
            five += 1
    for k in pungs:
        if k >= 27:
            outside += 1
            if k >= 31:
                dragons += 1
            else:
                terminal += 1
        else:
            r = k % 9
            if r == 0 or r == 8:
                outside += 1
                terminal += 1
            elif r == 4:
                five += 1
            if r & 1:
                even += 1
    if pair >= 27:
        outside += 1
    elif pair >= 0:
        r = pair % 9
        if r == 0 or r == 8:
            outside += 1
        elif r == 4:
            five += 1
        if r & 1:
            even += 1
    return outside, five, even, terminal, dragons


# :func:`group_traits` packed into one int, 4 bits a count (none passes 5, so packed traits add):
# groups with a 1/9/honour, with a 5, of an even number, 1/9/wind pungs, dragon pungs
TRAIT_SHIFTS = (0, 4, 8, 12, 16)


def pack_traits(traits: tuple[int, int, int, int, int]) -> int:
    return sum(n << shift for n, shift in zip(traits, TRAIT_SHIFTS))


# per CPP kind: the packed traits of a chow from it, a pung of it, a pair of it
CHOW_TRAITS = tuple(pack_traits(group_traits((k,), (), -1)) for k in range(34))
PUNG_TRAITS = tuple(pack_traits(group_traits((), (k,), -1)) for k in range(34))
PAIR_TRAITS = tuple(pack_traits(group_traits((), (), k)) for k in range(34))


def _suit_splits(c: list[int], r: int, base: int, need_pair: bool, pair: int, chows: tuple[int, ...],
                 pungs: tuple[int, ...], traits: int, out: list[Summary]) -> None:
    """:func:`_decompose` for the nine kinds of a suit (``base`` its first kind in the codes
    wanted), each split summarised (:data:`Summary`), in the same order."""
    while r < 9 and not c[r]:
        r += 1
    if r == 9:
        if (pair >= 0) == need_pair:
            out.append((chows, pungs, pair, traits))
        return
    m = c[r]
    k = base + r
    c[r] = 0
    for p in (0, 1) if need_pair and pair < 0 and m >= 2 else (0,):
        left = m - 2 * p
        t = traits + PAIR_TRAITS[k] if p else traits
        for q in (0, 1) if left >= 3 else (0,):
            rest = left - 3 * q
            tq = t + PUNG_TRAITS[k] if q else t
            pq = pungs + (k,) if q else pungs
            if rest:
                if r > 6 or c[r + 1] < rest or c[r + 2] < rest:
                    continue
                c[r + 1] -= rest
                c[r + 2] -= rest
                _suit_splits(c, r + 1, base, need_pair, k if p else pair, chows + (k,) * rest, pq,
                             tq + CHOW_TRAITS[k] * rest, out)
                c[r + 1] += rest
                c[r + 2] += rest
            else:
                _suit_splits(c, r + 1, base, need_pair, k if p else pair, chows, pq, tq, out)
    c[r] = m


def suit_divisions(base: int, counts: tuple[int, ...] | bytes) -> tuple[Summary, ...]:
    """The splits of :func:`suit_decomps`, each summarised (:data:`Summary`); ``base`` (0, 9, 18
    or 27) is where the suit starts in the kind order of the codes wanted."""
    total = sum(counts)
    if total % 3 == 1:
        return ()
    need_pair = total % 3 == 2
    if base == 27:  # honours: pungs and at most one pair, one way only
        pungs: list[int] = []
        pair = -1
        for r, n in enumerate(counts):
            if n == 3:
                pungs.append(27 + r)
            elif (n == 2 or n == 5) and need_pair and pair < 0:
                pair = 27 + r
                if n == 5:
                    pungs.append(27 + r)
            elif n:
                return ()
        return ((((), tuple(pungs), pair, _traits_of((), pungs, pair))),)
    out: list[Summary] = []
    _suit_splits(list(counts), 0, base, need_pair, -1, (), (), 0, out)
    return tuple(out)


def _traits_of(chows: Iterable[int], pungs: Iterable[int], pair: int) -> int:
    t = PAIR_TRAITS[pair] if pair >= 0 else 0
    for k in chows:
        t += CHOW_TRAITS[k]
    for k in pungs:
        t += PUNG_TRAITS[k]
    return t


_CPP_SLICES = ((0, 9, 0), (18, 27, 9), (9, 18, 18), (27, 34, 27))  # m s p z: our slice, CPP base
# per CPP base: counts (as bytes) -> suit_divisions; an empty suit -> _NO_TILES
_DIVISIONS: dict[int, dict[bytes, tuple[Summary, ...]]] = {0: {}, 9: {}, 18: {}, 27: {}}
_NO_TILES: tuple[Summary, ...] = (((), (), -1, 0),)  # an object of its own: not a suit's divisions
for _base, _memo in _DIVISIONS.items():
    _memo[bytes(7 if _base == 27 else 9)] = _NO_TILES
del _base, _memo
_SLICES = tuple((lo, hi, base, _DIVISIONS[base]) for lo, hi, base in _CPP_SLICES)


def hand_divisions(counts: list[int] | bytes | bytearray) -> list[Summary]:
    """Every split of the counts (our kind order) into pungs and chows and one pair, summarised
    in CPP order; the suits are visited in that order, so the chows and pungs come sorted."""
    acc: Summary | None = None
    multi = None
    pairs = 0
    whole = bytes(counts)
    for lo, hi, base, memo in _SLICES:
        key = whole[lo:hi]
        d = memo.get(key)
        if d is None:
            d = memo[key] = suit_divisions(base, key)
        if d is _NO_TILES:
            continue
        if not d:
            return []
        if d[0][2] >= 0:
            pairs += 1
        if multi is not None:
            multi.append(d)
        elif len(d) == 1:
            if acc is None:
                acc = d[0]
            else:
                b = d[0]
                acc = (acc[0] + b[0], acc[1] + b[1], acc[2] if acc[2] >= 0 else b[2], acc[3] + b[3])
        else:
            multi = [d] if acc is None else [(acc,), d]
    if pairs != 1:
        return []
    if multi is None:
        return [acc]  # type: ignore[list-item]
    out = []
    for combo in itertools.product(*multi):
        a = combo[0]
        for b in combo[1:]:
            a = _join(a, b)
        out.append(a)
    return out


def _join(a: Summary, b: Summary) -> Summary:
    return (a[0] + b[0], a[1] + b[1], a[2] if a[2] >= 0 else b[2], a[3] + b[3])


def _suit_verdict(sc: tuple[int, ...], honors: bool) -> int:
    """One suit's part of :func:`is_complete_counts`: 0 not pungs and chows (with at most one pair),
    1 pungs and chows (or empty), 2 pungs and chows and a pair."""
    t = sum(sc)
    if t == 0:
        return 1
    if not suit_complete(sc, honors):
        return 0
    return 2 if t % 3 == 2 else 1


# the verdicts by a suit's counts, number suits and honours apart: every discard asks up to three
# seats whether it completes them (M2), and the same few thousand suit shapes keep coming back
_VERDICTS: tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]] = ({}, {})


def is_complete_counts(counts: list[int] | tuple[int, ...]) -> bool:
    """True when the counts are pungs and chows and one pair."""
    pairs = 0
    for i, sc in enumerate(_split(counts)):
        memo = _VERDICTS[1 if i == 3 else 0]
        v = memo.get(sc)
        if v is None:
            v = memo[sc] = _suit_verdict(sc, i == 3)
        if v == 0:
            return False
        if v == 2:
            pairs += 1
    return pairs == 1


def basic_waits(counts: list[int] | tuple[int, ...]) -> set[int]:
    """Kinds that complete these counts (3n + 1 tiles) as pungs and chows and one pair."""
    parts = _split(counts)
    res = [sum(p) % 3 for p in parts]
    ones = [i for i in range(4) if res[i] == 1]
    twos = [i for i in range(4) if res[i] == 2]
    out: set[int] = set()
    if len(ones) == 1 and not twos:
        s = ones[0]
        if all(i == s or not any(parts[i]) or suit_complete(parts[i], i == 3) for i in range(4)):
            out.update(suit_waits(_BASES[s], parts[s]))
    elif len(twos) == 2 and not ones:
        a, b = twos
        if all(i in twos or not any(parts[i]) or suit_complete(parts[i], i == 3) for i in range(4)):
            if suit_complete(parts[b], b == 3):
                out.update(suit_waits(_BASES[a], parts[a]))
            if suit_complete(parts[a], a == 3):
                out.update(suit_waits(_BASES[b], parts[b]))
    return out


# --- chow combinations ----------------------------------------------------------------------


def pair_fan_of_chows(a: int, b: int) -> int:
    """The 1-fan combination of two chows (lowest kinds ``a``, ``b``), or -1."""
    if a // 9 != b // 9:
        return MIXED_DOUBLE_CHOW if a % 9 == b % 9 else -1
    if a == b:
        return PURE_DOUBLE_CHOW
    d = abs(a - b)
    if d == 3:
        return SHORT_STRAIGHT
    if d == 6:
        return TWO_TERMINAL_CHOWS
    return -1


# PyMahjongGB's precedence among the 1-fan chow combinations when one must be chosen
_PAIR_ORDER = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _three_chow_fan(a: int, b: int, c: int) -> int:
    sa, sb, sc = a // 9, b // 9, c // 9
    ra, rb, rc = sorted((a % 9, b % 9, c % 9))
    if sa != sb and sa != sc and sb != sc:
        if ra + 1 == rb and rb + 1 == rc:
            return MIXED_SHIFTED_CHOWS
        if ra == rc:
            return MIXED_TRIPLE_CHOW
        if (ra, rb, rc) == (0, 3, 6):
            return MIXED_STRAIGHT
        return -1
    if sa == sb == sc:
        if (ra, rb, rc) == (0, 3, 6):
            return PURE_STRAIGHT
        if (ra + 1 == rb and rb + 1 == rc) or (ra + 2 == rb and rb + 2 == rc):
            return PURE_SHIFTED_CHOWS
        if ra == rc:
            return PURE_TRIPLE_CHOW
    return -1


# pair_fan_of_chows of any two chows' lowest kinds: _PAIR_FAN[a][b]
_PAIR_FAN: tuple[tuple[int, ...], ...] = tuple(tuple(pair_fan_of_chows(a, b) for b in range(34)) for a in range(34))
_THREE_CHOW: dict[tuple[int, int, int], int] = {}


def _three_chow_fan_of(a: int, b: int, c: int) -> int:
    """:func:`_three_chow_fan`, memoised (at most 1,771 sorted triples)."""
    key = (a, b, c)
    f = _THREE_CHOW.get(key)
    if f is None:
        f = _THREE_CHOW[key] = _three_chow_fan(a, b, c)
    return f


def best_pair_combination(chows: tuple[int, ...]) -> int:
    """The most 1-fan chow combinations the exclusion principles allow among ``chows``: each new
    combination must bring in a chow not yet combined (套算一次, so the combinations form a
    forest) and no chow may form the same fan twice (不得相同).  Exhaustive; ``chows`` has at most
    four entries."""
    n = len(chows)
    return _most_combinations(n, tuple((i, j, f) for i in range(n) for j in range(i + 1, n)
                                       if (f := pair_fan_of_chows(chows[i], chows[j])) >= 0))


@cache
def _most_combinations(n: int, edges: tuple[tuple[int, int, int], ...]) -> int:
    """:func:`best_pair_combination` of ``n`` chows whose 1-fan combinations are ``edges`` (a few
    hundred edge lists occur)."""
    for k in range(min(len(edges), n - 1), 0, -1):
        for sel in itertools.combinations(edges, k):
            if allowed_combination(n, sel):
                return k
    return 0


def allowed_combination(n: int, combination: Iterable[tuple[int, int, int]]) -> bool:
    """Whether these 1-fan combinations ``(chow i, chow j, fan)`` of ``n`` chows may all count:
    taken one by one each brings in a chow not yet combined (套算一次: they form a forest), and no
    chow forms the same fan twice (不得相同)."""
    parent = list(range(n))
    used: set[tuple[int, int]] = set()
    for i, j, f in combination:
        ri, rj = _root(parent, i), _root(parent, j)
        if ri == rj or (i, f) in used or (j, f) in used:
            return False
        parent[ri] = rj
        used.add((i, f))
        used.add((j, f))
    return True


def _root(parent: list[int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


def _reduce_pairs(found: list[int], limit: int) -> dict[int, int]:
    """Choose ``limit`` of the 1-fan combinations ``found``: drop repeated kinds first, then
    whole kinds, 老少副 first, then 连六, 喜相逢, 一般高 (PyMahjongGB's choice among equally
    good answers)."""
    table = {f: found.count(f) for f in _PAIR_ORDER}
    cnt = len(found)
    for keep in (1, 0):
        for f in reversed(_PAIR_ORDER):
            while table[f] > keep and cnt > limit:
                table[f] -= 1
                cnt -= 1
    return {f: n for f, n in table.items() if n}


@cache
def chow_fans(chows: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The fans of 2–4 chows (lowest kinds, in :data:`CPP` order) as ``((fan id, count), …)``,
    the four-chow fans first, then a three-chow fan with at most one combination of the fourth
    chow (套算一次), else the pairwise 1-fan combinations (:func:`best_pair_combination`).  The
    双龙会 fans need the pair and are judged by the caller."""
    n = len(chows)
    pairs = _PAIR_FAN
    if n == 4:
        a, b, c, d = chows
        if a // 9 == b // 9 == c // 9 == d // 9:
            ra, rb, rc, rd = a % 9, b % 9, c % 9, d % 9
            if (ra + 1 == rb and rb + 1 == rc and rc + 1 == rd) or (ra + 2 == rb and rb + 2 == rc and rc + 2 == rd):
                return ((FOUR_PURE_SHIFTED_CHOWS, 1),)
            if a == b == c == d:
                return ((QUADRUPLE_CHOW, 1),)
        for i, j, k, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f = _three_chow_fan_of(chows[i], chows[j], chows[k])
            if f >= 0:
                r = chows[rest]
                extra = {pairs[chows[x]][r] for x in (i, j, k)}
                for e in _PAIR_ORDER:
                    if e in extra:
                        return ((f, 1), (e, 1)) if e > f else ((e, 1), (f, 1))
                return ((f, 1),)
    elif n == 3:
        f = _three_chow_fan_of(*chows)
        if f >= 0:
            return ((f, 1),)
    elif n == 2:
        f = pairs[chows[0]][chows[1]]
        return ((f, 1),) if f >= 0 else ()
    else:
        return ()
    found = [f for a, b in itertools.combinations(chows, 2) if (f := pairs[a][b]) >= 0]
    if len(found) < 2:
        return ((found[0], 1),) if found else ()  # one combination always counts
    limit = best_pair_combination(chows)
    return tuple(sorted(_reduce_pairs(found, limit).items()))


# chow_fans of two chows (lowest kinds a <= b, CPP order): TWO_CHOW_FANS[a][b]
TWO_CHOW_FANS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(chow_fans.__wrapped__((a, b)) for b in range(27)) for a in range(27))


# --- pung combinations ----------------------------------------------------------------------


def _two_pung_fan(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return DOUBLE_PUNG if a % 9 == b % 9 else -1
    if a >= 31 and b >= 31:
        return TWO_DRAGONS_PUNGS
    return -1


def _three_pung_fan(a: int, b: int, c: int) -> int:
    if a < 27 and b < 27 and c < 27:
        sa, sb, sc = a // 9, b // 9, c // 9
        ra, rb, rc = sorted((a % 9, b % 9, c % 9))
        if sa != sb and sa != sc and sb != sc:
            if ra + 1 == rb and rb + 1 == rc:
                return MIXED_SHIFTED_PUNGS
            if ra == rc:
                return TRIPLE_PUNG
        elif sa == sb == sc and ra + 1 == rb and rb + 1 == rc:
            return PURE_SHIFTED_PUNGS
        return -1
    if a >= 27 and c <= 30 and a != b != c != a:
        return BIG_THREE_WINDS
    if a == 31 and b == 32 and c == 33:
        return BIG_THREE_DRAGONS
    return -1


# kinds whose pungs can combine with a pung of kind k (in any fan), one bit each: suited kinds
# at most two numbers apart, winds with winds, dragons with dragons
_RELATED: tuple[int, ...] = tuple(
    sum(1 << j for j in range(34) if (
        (k < 27 and j < 27 and abs(k % 9 - j % 9) <= 2) or (27 <= k <= 30 and 27 <= j <= 30)
        or (k >= 31 and j >= 31)))
    for k in range(34))


@cache
def pung_fans(pungs: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The combination fans of 2–4 pungs (kinds, in :data:`CPP` order): a four-pung fan; else a
    three-pung fan and at most one combination of the fourth pung (套算一次); else every pairwise
    双同刻/双箭刻."""
    related = seen = 0
    for k in pungs:
        related |= seen & _RELATED[k]
        seen |= 1 << k
    if not related:
        return ()  # every such fan joins pungs two by two related (_RELATED)
    n = len(pungs)
    out: dict[int, int] = {}
    if n == 4:
        a, b, c, d = pungs
        if a < 27 and a // 9 == d // 9 and b == a + 1 and c == a + 2 and d == a + 3:
            return ((FOUR_PURE_SHIFTED_PUNGS, 1),)
        if (a, b, c, d) == (27, 28, 29, 30):
            return ((BIG_FOUR_WINDS, 1),)
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f = _three_pung_fan(pungs[i], pungs[j], pungs[k])
            if f >= 0:
                out[f] = 1
                for x in range(4):
                    if x != free:
                        e = _two_pung_fan(pungs[x], pungs[free])
                        if e >= 0:
                            out[e] = out.get(e, 0) + 1
                            break
                return tuple(sorted(out.items()))
    elif n == 3:
        f = _three_pung_fan(*pungs)
        if f >= 0:
            return ((f, 1),)
    elif n < 2:
        return ()
    for a, b in itertools.combinations(pungs, 2):
        e = _two_pung_fan(a, b)
        if e >= 0:
            out[e] = out.get(e, 0) + 1
    return tuple(sorted(out.items()))
