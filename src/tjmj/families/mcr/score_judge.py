"""The MCR scorer's fan judging (:mod:`.score`): the fans of one arrangement of a prepared hand
(``_Hand``, :mod:`.score_hand`) — four melds and a pair, 组合龙 with a meld and a pair, 七对,
全不靠, 十三幺, 九莲宝灯 — with the rule book's exclusions applied (memoised on the excluders),
each as ``(total, fans)`` by fan id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import shapes as S
from .fans import EXCLUDES, VALUES
from .score_hand import _Hand
from .score_tables import (
    _CHOW_FANS,
    _CONCEALED_PUNG_FAN,
    _CPP_ORDER,
    _EXCLUDERS,
    _KNITTED,
    _KNITTED_SETS,
    _KONG_FAN,
    _NINE_GATES_EXTRA,
    _NO_TERMINAL_PUNGS,
    _ORPHANS,
    _PUNG_FANS,
    _RANK_OF,
    _TWO_CHOW_FANS,
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CLOSED_WAIT,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DRAGON_PUNG,
    EDGE_WAIT,
    FOUR_KONGS,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS,
    KNITTED_STRAIGHT,
    LESSER_HONORS,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    MELDED_KONG,
    NINE_GATES,
    NO_HONORS,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TERMINAL_CHOWS,
    SEAT_WIND,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TWO_DRAGONS_PUNGS,
)

# --- scoring ------------------------------------------------------------------------------------


def _standard_base(h: _Hand) -> dict[int, int]:
    """The fans every four-melds-and-a-pair arrangement of the hand has: the win's flags, the
    suits and kinds, 四归一, and 不求人 / 门前清 / 全求人."""
    base = h.flag_fans.copy()
    base.update(h.traits)
    if h.hog > 0:
        base[TILE_HOG] = h.hog
    claimed = h.claimed_melds
    if claimed == 0:
        base[FULLY_CONCEALED_HAND if h.self_drawn else CONCEALED_HAND] = 1
    elif claimed == 4 and not h.self_drawn:
        base[MELDED_HAND] = 1
    h.base = base
    return base



# the excluders present (a frozenset) -> every fan they strike out
_STRIKES: dict[frozenset[int], tuple[int, ...]] = {}


def _strikes(excluders: frozenset[int]) -> tuple[int, ...]:
    """The fans these excluders strike out: highest fan first, a fan still counted strikes out
    its ``excludes``, one struck out strikes nothing.  Whether an excluder is struck out depends
    only on the other excluders, so the fans struck out of a hand are its fans among these."""
    left = set(excluders)
    out: set[int] = set()
    for i in sorted(excluders, key=_RANK_OF):
        if i in left:
            out.update(EXCLUDES[i])
            left.difference_update(EXCLUDES[i])
    got = _STRIKES[excluders] = tuple(sorted(out))
    return got


def _finish(fans: dict[int, int]) -> None:
    """Apply the exclusions (memoised on the excluders present: a few hundred sets)."""
    excluders = _EXCLUDERS.intersection(fans)
    if excluders:
        strikes = _STRIKES.get(excluders)
        if strikes is None:
            strikes = _strikes(excluders)
        for j in strikes:
            if j in fans:
                del fans[j]


def _winds_and_terminal_pungs(fans: dict[int, int], wind_pungs: Iterable[int], seat: int, prevalent: int,
                              raw: int) -> None:
    """圈风刻 and 门风刻, then the 幺九刻 left: a pung already counted as a bigger fan (三风刻's
    three, a 圈风/门风 pung) is not counted again (不重复); beside 大四喜, 小四喜, 清幺九, 字一色
    and 混幺九 there are none."""
    if BIG_FOUR_WINDS in fans:
        return  # 大四喜 不计圈风刻、门风刻
    claimed = 0
    three_winds = BIG_THREE_WINDS in fans
    if three_winds:
        claimed = 3
    for k in wind_pungs:
        w = k - 27
        hit = False
        if w == prevalent:
            fans[PREVALENT_WIND] = 1
            hit = True
        if w == seat:
            fans[SEAT_WIND] = 1
            hit = True
        if hit and not three_winds:
            claimed += 1
    if raw > claimed:
        for f in _NO_TERMINAL_PUNGS:
            if f in fans:
                return
        fans[PUNG_OF_TERMINALS_OR_HONORS] = raw - claimed


def _unique_wait(h: _Hand) -> bool:
    """Whether the hand before the win waited on one tile only (by shape, a tile all four of
    which are in the hand included; 七对 waits too when nothing is fixed) — 边张/嵌张/单钓将 need
    it.  The hand is complete with the winning tile, so only the winning tile's suit and, when
    the pair lies elsewhere, the pair's suit can hold other waits."""
    w = h.unique_wait
    if w is None:
        win = h.win
        s = win // 9 if win < 27 else 3
        b = 9 * s
        e = b + 9 if s < 3 else 34
        sw = tuple(h.standing[b:e])
        waits = set(S.suit_waits(b, sw))
        if sum(sw) % 3 == 2 and S.suit_complete(sw, s == 3):
            full = h.full
            for p in range(4):
                if p != s:
                    bp = 9 * p
                    fp = tuple(full[bp:bp + 9]) if p < 3 else tuple(full[27:34])
                    if sum(fp) % 3 == 2:
                        waits.update(S.suit_waits(bp, fp))
                        break
        if not h.fixed and len(waits) == 1:
            sc = h.standing
            if sc.count(0) >= 27 and sum(sc[k] >> 1 for k in range(34)) == 6:
                for k in range(34):
                    if sc[k] & 1:
                        waits.add(k)
        w = len(waits) == 1
        h.unique_wait = w
    return w


def _score_standard(h: _Hand, div: S.Summary) -> tuple[int, dict[int, int]]:
    """The fans of one arrangement as four melds (``h``'s fixed ones and the division's) and a
    pair, all in PyMahjongGB's tile order."""
    base = h.base
    fans = (base if base is not None else _standard_base(h)).copy()
    win = h.cwin
    concealed_chows, concealed_pung_kinds, pair, traits = div
    concealed_pungs = len(concealed_pung_kinds)
    if h.fixed:
        chows = concealed_chows + h.cfixed_chows
        pungs = concealed_pung_kinds + h.cfixed_pungs
        traits += h.fixed_traits
        if len(chows) > 2:
            chows = tuple(sorted(chows))
        if len(pungs) > 2:
            pungs = tuple(sorted(pungs))
    else:
        chows = concealed_chows
        pungs = concealed_pung_kinds
    n_pungs = len(pungs)
    n_chows = 4 - n_pungs
    if n_pungs:
        if concealed_pungs and not h.self_drawn and win in concealed_pung_kinds:
            # a discard completing a concealed pung makes it exposed, unless the winning tile can
            # be read as part of a concealed chow of this arrangement
            for c in concealed_chows:
                if c <= win <= c + 2:
                    break
            else:
                concealed_pungs -= 1
        kongs = h.kongs
        concealed_kongs = h.concealed_kongs
        if kongs:
            if kongs == 3:
                fans[THREE_KONGS] = 1
            elif kongs == 4:
                fans[FOUR_KONGS] = 1
            else:
                fans[_KONG_FAN[kongs, concealed_kongs]] = 1
        hidden = concealed_kongs + concealed_pungs
        if hidden >= 2:
            fans[_CONCEALED_PUNG_FAN[hidden]] = 1
        dragons = traits >> 16
        if dragons:
            fans[DRAGON_PUNG] = dragons
        if n_pungs >= 2:
            if n_pungs == 4:
                fans[ALL_PUNGS] = 1
            for f, n in _PUNG_FANS(pungs):
                fans[f] = fans.get(f, 0) + n
    if n_chows >= 2:
        # 一色双龙会 / 三色双龙会 take the four chows whole (_terminal_chows adds the fan)
        whole = n_chows == 4 and pair < 27 and pair % 9 == 4 and _terminal_chows(chows, pair, fans)
        if not whole:
            for f, n in _CHOW_FANS(chows) if n_chows > 2 else _TWO_CHOW_FANS[chows[0]][chows[1]]:
                fans[f] = fans.get(f, 0) + n
    # the pair: 平和, 小三元, 小四喜
    if n_chows == 4:
        if pair < 27:
            fans[ALL_CHOWS] = 1
    elif TWO_DRAGONS_PUNGS in fans:
        if pair >= 31:
            fans[LITTLE_THREE_DRAGONS] = 1
            del fans[TWO_DRAGONS_PUNGS]
    elif BIG_THREE_WINDS in fans and 27 <= pair <= 30:
        fans[LITTLE_FOUR_WINDS] = 1
        del fans[BIG_THREE_WINDS]
    # every group: 全带幺, 全带五, 全双刻
    if traits & 0xF == 5:
        fans[OUTSIDE_HAND] = 1
    elif traits >> 4 & 0xF == 5:
        fans[ALL_FIVE] = 1
    elif traits >> 8 & 0xF == 5:
        fans[ALL_EVEN_PUNGS] = 1
    # 边张, 嵌张, 单钓将: only when the hand waited on the one tile
    wait = 4 if pair == win else 0
    for c in concealed_chows:
        if win == c + 1:
            wait |= 2
        elif win == c:
            # 7 of 789 is 边张; the low end of another chow is not a unique wait: the tile three
            # up completes the hand too
            wait |= 1 if c % 9 == 6 else 8
        elif win == c + 2:
            wait |= 1 if c % 9 == 0 else 8  # 3 of 123, or else the tile three down completes it too
    if 0 < wait < 8 and MELDED_HAND not in fans and FOUR_KONGS not in fans and _unique_wait(h):
        fans[EDGE_WAIT if wait & 1 else CLOSED_WAIT if wait & 2 else SINGLE_WAIT] = 1
    _finish(fans)
    terminal_pungs = traits >> 12 & 0xF
    if terminal_pungs:
        _winds_and_terminal_pungs(fans, [k for k in pungs if 27 <= k <= 30], h.seat, h.prevalent,
                                  terminal_pungs)
    if not fans:
        fans[CHICKEN_HAND] = 1
    total = 0
    for i, n in fans.items():
        total += VALUES[i] * n
    return total, fans


def _terminal_chows(chows: Sequence[int], pair: int, fans: dict[int, int]) -> bool:
    """一色双龙会 / 三色双龙会 (four chows, a pair of 5): True when one of them is the chow fan."""
    ps = pair // 9
    suits = set()
    for c in chows:
        if c % 9 not in (0, 6):
            return False
        suits.add(c // 9)
    if sorted(c % 9 for c in chows) != [0, 0, 6, 6]:
        return False
    if ps not in suits:
        if len(suits) == 2 and all({c % 9 for c in chows if c // 9 == s} == {0, 6} for s in suits):
            fans[THREE_SUITED_TERMINAL_CHOWS] = 1
            return True
        return False
    if suits == {ps}:
        fans[PURE_TERMINAL_CHOWS] = 1
        return True
    return False


# --- 组合龙 with a meld and a pair ---------------------------------------------------------------


def _pack_waits(table: list[int], waits: set[int]) -> None:
    """PyMahjongGB's two-tile wait (the first shape found in its tile order)."""
    for k in _CPP_ORDER:
        n = table[k]
        if n < 1:
            continue
        if n > 1:
            waits.add(k)
            return
        if k < 27:
            r = k % 9 + 1
            if r > 1 and table[k - 1]:
                if r < 9:
                    waits.add(k + 1)
                if r > 2:
                    waits.add(k - 2)
                return
            if r > 2 and table[k - 2]:
                waits.add(k - 1)
                return


def _regular_waits(table: list[int], n: int, prev: tuple[int, ...], waits: set[int]) -> None:
    """PyMahjongGB's wait search, step by step (counts are 16-bit as there)."""
    if n == 1:
        for k in _CPP_ORDER:
            if table[k] == 1:
                waits.add(k)
                break
        return
    if n == 4:
        for k in _CPP_ORDER:
            if table[k] < 2:
                continue
            table[k] -= 2
            _pack_waits(table, waits)
            table[k] += 2
    for k in _CPP_ORDER:
        if table[k] < 1:
            continue
        c = S.CPP[k]
        if table[k] > 2:
            e = (c, c, c)
            if e > prev:
                table[k] -= 3
                _regular_waits(table, n - 3, e, waits)
                table[k] += 3
        if k < 27 and k % 9 < 7 and table[k + 1] and table[k + 2]:
            e = (c, c + 1, c + 2)
            if e >= prev:
                table[k] -= 1
                table[k + 1] -= 1
                table[k + 2] -= 1
                _regular_waits(table, n - 3, e, waits)
                table[k] += 1
                table[k + 1] += 1
                table[k + 2] += 1


def _knitted_unique_wait(rest: Sequence[int], win: int) -> bool:
    """PyMahjongGB's 独听 test for a concealed 组合龙 hand: the wait of the five tiles outside the
    组合龙 less the winning tile (when the winning tile is not among them, its count wraps to
    65535 as in the C++ and the search runs on that table)."""
    table = list(rest)
    table[win] = (table[win] - 1) & 0xFFFF
    waits: set[int] = set()
    _regular_waits(table, 4, (-1,), waits)
    return len(waits) == 1


def _score_knitted_straight(h: _Hand) -> tuple[int, dict[int, int], tuple[int, ...], int, int] | None:
    """组合龙 with one more meld (claimed or concealed) and a pair."""
    if len(h.fixed) > 1:
        return None
    full = h.full
    for seq in _KNITTED:
        for t in seq:
            if not full[t]:
                break
        else:
            break
    else:
        return None
    if 2 not in h.fb and 3 not in h.fb and 4 not in h.fb:
        return None
    rest = full.copy()
    for t in seq:
        rest[t] -= 1
    if h.fixed:
        pack, is_kong, concealed = h.fixed[0]
        melded = not concealed
        pair = -1
        for k in range(34):
            if rest[k]:
                pair = k
                break
        if rest[pair] != 2:
            return None
    else:
        d = S.hand_decomps(rest)
        if len(d) != 1:
            return None
        (pack,), pair = d[0]
        is_kong = melded = False
    every = h.every
    fans: dict[int, int] = {KNITTED_STRAIGHT: 1}
    winds: list[int] = []
    raw_terminal = 0
    if pack >= 34:
        if pair < 27:
            fans[ALL_CHOWS] = 1
        if every[pair] == 4:
            fans[TILE_HOG] = 1
    elif pack >= 27:
        if pack <= 30:
            raw_terminal = 1
            winds.append(pack)
            if pair >= 31:
                fans[ALL_TYPES] = 1
        else:
            fans[DRAGON_PUNG] = 1
            if 27 <= pair <= 30:
                fans[ALL_TYPES] = 1
    else:
        if pack % 9 in (0, 8):
            raw_terminal = 1
        if pair < 27:
            fans[NO_HONORS] = 1
        if not is_kong and every[pack] == 4:
            fans[TILE_HOG] = 1
    fans.update(h.flag_fans)
    if melded:
        if is_kong:
            fans[MELDED_KONG] = 1
    else:
        if is_kong:
            fans[CONCEALED_KONG] = 1
        fans[FULLY_CONCEALED_HAND if h.self_drawn else CONCEALED_HAND] = 1
    win = h.win
    if not h.fixed:
        # the MIL supplement: a wait that is also a 边张/嵌张/单钓将 of the meld and pair counts
        if _knitted_unique_wait(rest, win):
            wait = 0
            if pack >= 34:
                c = pack - 34
                if win == c + 1:
                    wait |= 2
                elif win == c or win == c + 2:
                    wait |= 1
            if pair == win:
                wait |= 4
            if wait:
                fans[EDGE_WAIT if wait & 1 else CLOSED_WAIT if wait & 2 else SINGLE_WAIT] = 1
    elif win not in seq or full[win] == 3:
        fans[SINGLE_WAIT] = 1  # with a claimed meld the pair's tile was the only wait
    _finish(fans)
    if raw_terminal:
        _winds_and_terminal_pungs(fans, winds, h.seat, h.prevalent, raw_terminal)
    total = 0
    for i, n in fans.items():
        total += VALUES[i] * n
    return total, fans, seq, pack, pair


# --- 七对, 十三幺, 全不靠, 九莲宝灯 ----------------------------------------------------------------


def _score_special(h: _Hand) -> tuple[int, dict[int, int], str] | None:
    """The concealed special shapes, in PyMahjongGB's order: 七对/连七对, 全不靠/七星不靠, 十三幺
    (then, after 组合龙, 九莲宝灯: :func:`_score_nine_gates`)."""
    full = h.full
    fans: dict[int, int]
    fb = h.fb
    if 1 not in fb and 3 not in fb:
        kinds = [k for k in range(34) if full[k]]
        if (len(kinds) == 7 and kinds[0] < 27 and kinds[6] - kinds[0] == 6 and kinds[0] // 9 == kinds[6] // 9
                and 4 not in fb):
            fans = {SEVEN_SHIFTED_PAIRS: 1}
            if full[kinds[0]] and kinds[0] % 9 == 1:  # 2..8: 断幺 too
                fans[ALL_SIMPLES] = 1
        else:
            fans = {SEVEN_PAIRS: 1}
            fans.update(h.traits)
            if h.hog > 0:
                fans[TILE_HOG] = h.hog
        fans.update(h.flag_fans)
        _finish(fans)
        return sum(VALUES[i] * n for i, n in fans.items()), fans, "seven_pairs"
    if 2 not in fb and 3 not in fb and 4 not in fb:
        suited = [k for k in range(27) if full[k]]
        if 7 <= len(suited) <= 9 and any(s.issuperset(suited) for s in _KNITTED_SETS):
            if len(suited) == 7:
                fans = {GREATER_HONORS: 1}
            else:
                fans = {LESSER_HONORS: 1}
                if len(suited) == 9:
                    fans[KNITTED_STRAIGHT] = 1
            fans.update(h.flag_fans)
            _finish(fans)
            return sum(VALUES[i] * n for i, n in fans.items()), fans, "knitted"
        return None
    for k in _ORPHANS:
        if not full[k]:
            return None
    if sum(full[k] for k in _ORPHANS) == 14:
        fans = {THIRTEEN_ORPHANS: 1}
        fans.update(h.flag_fans)
        _finish(fans)
        return sum(VALUES[i] * n for i, n in fans.items()), fans, "thirteen_orphans"
    return None


def _score_nine_gates(h: _Hand) -> tuple[int, dict[int, int]] | None:
    """九莲宝灯: 1112345678999 of a suit concealed, winning on a tile of that suit; its other fans
    are fixed by the winning tile's number (:data:`_NINE_GATES_EXTRA`)."""
    win = h.win
    if win >= 27:
        return None
    base = win - win % 9
    sc = h.standing
    if sc[base] != 3 or sc[base + 8] != 3:
        return None
    for r in range(1, 8):
        if sc[base + r] != 1:
            return None
    fans = {NINE_GATES: 1}
    fans.update(_NINE_GATES_EXTRA[win % 9])
    fans.update(h.flag_fans)
    _finish(fans)
    return sum(VALUES[i] * n for i, n in fans.items()), fans


def _division_key(division: S.Summary) -> list[int]:
    """Where PyMahjongGB finds an arrangement (packs in its tile order): ordered by its packs, a
    pung before the chow starting on the same tile."""
    return sorted([2 * c + 1 for c in division[0]] + [2 * k for k in division[1]])
