"""Discard advice for a 14-tile turn (issue 5): rank every discard and every possible kong.

For each option (discard a kind, or declare a concealed / gold / added kong, which is followed
by a replacement draw) the 13-tile-equivalent hand left is measured by:

* ``shanten`` (with wilds, :func:`tjmj.hand.shanten_counts`; 0 = ready);
* the **live** tiles that improve it (lower its shanten), where live = 4 − copies visible to this
  player: own concealed tiles and draw, own melds, the face-up indicator and ``seen`` (every other
  visible tile: all discards, the other players' melds);
* when ready: every completing draw (:class:`tjmj.families.tianjin.waits.Wait`, with its fan, whether it is a legal
  win and why not, e.g. 死提溜) with its live count, ``ev`` = Σ live × fan over the winning draws,
  and whether the hand waits on everything (混儿吊, R5.1).  After a kong the next draw is the
  replacement draw, so a kong option's ``ev`` uses the 杠开 fan (``Wait.kong_fan``).

Each option is ranked by the **expected value of a legal win** (issue 11): ``win_chance``, the chance
of reaching a win that meets ``min_fan`` (R5.2) within the draws left, times the fan of that win
(``expected``).  The model (docs/advise.md "How options are ranked"): every draw is a tile picked
at random among the ``unseen`` ones (4 − visible copies of each kind); the player has
``ceil(wall_left / 4)`` draws left; a ready hand wins on each draw with the chance of its live legal
winning tiles; a hand one useful draw from a legal ready hand (a 1-shanten hand, or a ready hand
whose completions are all dead, 死提溜) is looked at one exchange ahead exactly (which draws allow
which legal ready hand, by :class:`tjmj.families.tianjin.score.Scorer`); a hand further away makes its steps at the
usual rates of strong self-play (:data:`TIANJIN_LATER`, :data:`TIANJIN_READY_WIDTH`) and is credited
the least legal fan.  The chain of steps is :func:`tjmj.bots.beijing_strong.win_chance` (the Beijing
strong bot's model), without the others' wins.  So a dead ready hand ranks as what it is: one step
(or more) from a hand that can win.

Discarding a wild makes the player 小相公 (R2): such an option is flagged ``wild``, none of its
draws wins, and it ranks after every other option.  Order: wild last, then −expected, then
``legal_shanten``, shanten, −ev (ready) or −improving live tiles (not ready), −winning live tiles,
tile order, discards before kongs (the later keys decide only ties, e.g. with no draw left).

>>> a = advise("123m456p789s111s4p", "9s", "4p")
>>> a.best.action, a.best.shanten, a.best.hundiao, a.best.winning_live
('discard', 0, True, 121)
>>> a.best.summary
'混儿吊: wins on any tile (121 live), ~100% to win, ~2.3 fan expected'
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..._tables import wilds_needed
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
from ...tiles import Tile, counts_of
from .elements import Flag
from .rules import CLASSIC, TianjinRules
from .score import (
    HandInput,
    InvalidHand,
    MeldsLike,
    Scorer,
    ScoreResult,
    TileLike,
    TilesLike,
    _tiles,
    prepare,
    score_input,
)
from .waits import Wait, waits_of

__all__ = ["Advice", "Option", "advise", "advise_input"]

XXG_REASON = "小相公: discarding a wild means no more wins this hand (R2)"
_ACTION_ORDER = {"discard": 0, "ankong": 1, "added_kong": 2}

# --------------------------------------------------------------------------------------------
# The model of a legal win (docs/advise.md "How options are ranked")
# --------------------------------------------------------------------------------------------

# Tianjin (classic) strong-bot self-play, 30 matches: the mean share of the unseen tiles that lower the
# shanten of a hand with j steps still to go (j = 1…6), the rate of every step after a hand's first ...
TIANJIN_LATER = (0.0, 0.28, 0.38, 0.51, 0.65, 0.72, 0.80)
# ... and the live legal winning tiles of a ready hand reached, dead ones (死提溜) counted as none
# (0.084 of the unseen tiles, about 95)
TIANJIN_READY_WIDTH = 8.0
# ... and the chance that another player ends the hand in a round grows by this much a round (fitted
# through 0 on the same self-play: about 5 % in round 5, 15 % in round 9, 25 % in round 15)
TIANJIN_HAZARD_RAMP = 0.017


@dataclass(frozen=True)
class Option(Summarised):
    """One choice on the turn and what the 13-tile-equivalent hand left looks like."""

    action: str  # "discard", "ankong" (concealed kong; 金杠 if ``gold``) or "added_kong" (加杠)
    tile: Tile
    shanten: int
    improving: tuple[tuple[Tile, int], ...]  # kinds whose draw lowers the shanten, with live copies (> 0)
    waits: tuple[Wait, ...] = ()  # completing draws when ready; ``live`` counts ``seen`` too
    hundiao: bool = False  # wins on every drawable tile with 混儿吊 (R5.1)
    wild: bool = False  # discarding a wild: 小相公 (R2)
    gold: bool = False  # a concealed kong of four wilds (金杠)
    rank: int = 0  # 1 = best
    can_win: bool = True  # False after discarding a wild (小相公, R2)
    min_fan: int = 2  # the rules' min_fan, to judge a replacement draw's 杠开 fan
    win_chance: float = 0.0  # chance of a legal win within the draws left (the model: module docstring)
    expected: float = 0.0  # win_chance × the fan of that win
    legal_shanten: int = 0  # useful draws before the next draw may win legally (0: it may now)
    legal_improving: int | None = None  # one step away: live tiles whose draw allows a legal ready hand

    @property
    def replacement_draw(self) -> bool:
        """A kong is followed by a replacement draw from the tail (R4)."""
        return self.action != "discard"

    @property
    def ready(self) -> bool:
        return self.shanten == 0

    @property
    def improving_count(self) -> int:
        """Live tiles that lower the shanten (for a ready hand: the live completing tiles)."""
        return sum(n for _, n in self.improving)

    @property
    def winning(self) -> tuple[Wait, ...]:
        return tuple(w for w in self.waits if w.win)

    @property
    def winning_live(self) -> int:
        """Live tiles that win on the next draw."""
        return sum(w.live for w in self.waits if self.next_win(w))

    @property
    def ev(self) -> int:
        """Σ live × fan over the draws that win on the next draw (the 杠开 fan after a kong)."""
        return sum(w.live * self.next_fan(w) for w in self.waits if self.next_win(w))

    def next_fan(self, w: Wait) -> int:
        if self.replacement_draw and w.kong_fan is not None:
            return w.kong_fan
        return w.fan

    def next_win(self, w: Wait) -> bool:
        """Does ``w`` win as the very next draw (the replacement draw after a kong: 杠开 fan)?"""
        if not self.can_win:
            return False
        if self.replacement_draw and w.kong_fan is not None:
            return w.win or w.kong_fan >= self.min_fan
        return w.win

    @property
    def any_tile(self) -> bool:
        """The hand wins on every drawable tile (混儿吊, R5.1): shown as "any tile", not 34 kinds."""
        return self.hundiao

    @property
    def dead(self) -> bool:
        """Ready, but no live tile wins legally on the next draw: every completion is below
        ``min_fan`` (死提溜, R5.2) or 小相公, or the winning tiles are all visible."""
        return self.ready and self.legal_shanten > 0

    def sort_key(self) -> tuple[float, ...]:
        primary = self.ev if self.ready else self.improving_count
        return (int(self.wild), -round(self.expected, 6), self.legal_shanten, self.shanten, -primary,
                -self.winning_live, int(self.tile), _ACTION_ORDER[self.action])

    def _summaries(self) -> tuple[str, str]:
        if self.wild:
            return ("小相公: discarding a wild ends every win this hand (R2)", "小相公：打出混儿，本局不能再和（R2）")
        if not self.can_win:
            return "小相公: no win this hand (R2)", "小相公：本局不能再和（R2）"
        en, zh = _outlook_text(self.win_chance, self.expected, "fan", "番")
        if self.ready and not self.dead:
            if self.any_tile:
                return (f"混儿吊: wins on any tile ({self.winning_live} live), {en}",
                        f"混儿吊：和任意牌（{self.winning_live}张活牌），{zh}")
            tiles = _tile_list([w.tile for w in self.waits if self.next_win(w) and w.live > 0])
            return f"ready: {tiles} ({self.winning_live} live), {en}", f"听{tiles}（{self.winning_live}张活牌），{zh}"
        if self.dead:
            if any(self.next_win(w) for w in self.waits):
                head, head_zh = "ready, but every winning tile is visible (no live win)", "听牌但和的牌已全部现出（空听）"
            else:
                head, head_zh = "dead ready (死提溜): no legal win", "死提溜：听牌但不够番，不能和"
        else:
            head = f"{self.shanten} step{'s' if self.shanten > 1 else ''} from ready: {self.improving_count} improving tiles"
            head_zh = f"{self.shanten}向听：进张{self.improving_count}张"
        if self.legal_improving is not None and (self.dead or self.legal_improving != self.improving_count):
            if self.legal_improving:
                head += f", {self.legal_improving} to a legal ready" if not self.dead else \
                    f"; {self.legal_improving} tiles to a legal ready"
                head_zh += f"，{self.legal_improving}张可成能和的听牌"
            else:
                head += ", none to a legal ready" if not self.dead else "; no single draw fixes it"
                head_zh += "，没有一张牌能成能和的听牌"
        return f"{head}, {en}", f"{head_zh}，{zh}"

    def label(self) -> str:
        if self.action == "discard":
            return f"discard {self.tile}"
        return f"{'gold kong' if self.gold else 'concealed kong' if self.action == 'ankong' else 'added kong'} {self.tile}"

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "rank": self.rank,
            "action": self.action,
            "tile": str(self.tile),
            "wild": self.wild,
            "shanten": self.shanten,
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
            if self.gold:
                d["gold"] = True
        if self.ready:
            waits = []
            for w in self.waits:
                wd = w.to_dict()
                if self.replacement_draw and isinstance(wd.get("kong_draw"), dict):
                    wd["kong_draw"]["win"] = self.next_win(w)  # type: ignore[index]
                waits.append(wd)
            d.update(ev=self.ev, winning_live=self.winning_live, hundiao=self.hundiao, waits=waits)
        return d


@dataclass(frozen=True)
class Advice:
    """Every option of the turn, best first, and the hand as held (complete already?)."""

    hand: HandInput
    options: tuple[Option, ...]
    visible: tuple[int, ...]  # copies of each kind visible to this player
    now: ScoreResult | None = None  # the 14 tiles scored as a self-drawn win, when complete
    wall_left: int = 0  # tiles left for normal draws, as given or estimated (:func:`estimate_wall_left`)
    wall_estimated: bool = True  # wall_left was not given
    draws: int = 0  # the player's own draws left (:func:`draws_left`)

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def discards(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.action == "discard")

    @property
    def kongs(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.action != "discard")

    @property
    def unseen(self) -> int:
        """Tiles this player cannot see (the wall and the others' hands): what a draw is picked from."""
        return sum(4 - n for n in self.visible)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "options": [o.to_dict() for o in self.options],
            "live": {str(Tile(k)): 4 - n for k, n in enumerate(self.visible) if n},
            "model": {"wall_left": self.wall_left, "estimated": self.wall_estimated, "draws": self.draws,
                      "unseen": self.unseen},
        }
        if self.now is not None and self.now.complete:
            d["win_now"] = {"fan": self.now.fan, "win": self.now.win, "name": self.now.name,
                            **({"reason": self.now.reason} if self.now.reason else {})}
        return d


_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _combine(a: list[list[int]], b: tuple[tuple[int, int], ...] | list[list[int]], m: int) -> list[list[int]]:
    """Max-plus product of two per-suit tables (most real tiles used with ≤ m melds, ≤ 1 pair)."""
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


def _shanten_and_improving(
    nonwild: list[int], w: int, m: int, live: list[int], wilds: Container[int]
) -> tuple[int, list[tuple[Tile, int]]]:
    """Shanten of a 13-tile-equivalent hand and the live kinds whose draw lowers it.

    The same figure as :func:`tjmj.hand.shanten_counts`, but each draw changes one suit only,
    so the other three suits' product is computed once per suit rather than once per draw.
    """
    tables = [used_table(tuple(nonwild[lo:hi]), hon) for lo, hi, hon in _SUITS]
    zero = [[0, 0] for _ in range(m + 1)]
    others = []
    for s in range(4):
        acc = zero
        for t in range(4):
            if t != s:
                acc = _combine(acc, tables[t], m)
        others.append(acc)
    full = _combine(others[0], tables[0], m)
    j = 3 * m + 2 - w  # tiles a complete hand still needs beyond the wilds
    sh = j - max(max(r) for r in full) - 1
    improving = []
    for s, (lo, hi, hon) in enumerate(_SUITS):
        sub = list(nonwild[lo:hi])
        other = others[s]
        for k in range(lo, hi):
            if live[k] <= 0:
                continue
            if k in wilds:
                s2 = sh - 1  # a drawn wild fills any gap: the real tiles used stay, one more tile is in
            else:
                sub[k - lo] += 1
                s2 = j - max(max(r) for r in _combine(other, used_table(tuple(sub), hon), m)) - 1
                sub[k - lo] -= 1
            if s2 < sh:
                improving.append((Tile(k), live[k]))
    return sh, improving


@lru_cache(maxsize=64)
def _scorer(indicator: Tile, rules: TianjinRules) -> Scorer:
    return Scorer(indicator, rules)


def advise(
    hand: TilesLike,
    draw: TileLike,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    seen: TilesLike = (),
    rules: TianjinRules = CLASSIC,
    xiaoxianggong: bool = False,
    wall_left: int | None = None,
) -> Advice:
    """Rank every discard and kong of a 14-tile turn (``hand`` is 13-tile-equivalent, plus ``draw``).

    ``seen``: every other tile visible to this player (all discards, the others' melds), as MPSZ
    text or kinds.  ``xiaoxianggong``: the player already discarded a wild (nothing wins).
    ``wall_left``: tiles left for normal draws (the player draws one in four); None: estimated from
    the unseen tiles (:func:`estimate_wall_left`).  Raises :class:`tjmj.hand.InvalidHand` (a
    ``TileError``) naming what is wrong.
    """
    h = prepare(hand, draw, indicator, melds, rules=rules)
    return advise_input(h, _tiles(seen, "seen"), xiaoxianggong=xiaoxianggong, wall_left=wall_left)


def advise_input(h: HandInput, seen: list[Tile] | tuple[Tile, ...] = (), *, xiaoxianggong: bool = False,
                 wall_left: int | None = None) -> Advice:
    """:func:`advise` on a prepared hand (``h.draw`` set)."""
    own = list(h.counts) if h.counts else counts_of(list(h.concealed) + [h.draw])
    vis = list(own)
    for m in h.melds:
        vis[m.tile] += m.size
    vis[h.indicator] += 1
    for t in seen:
        vis[t] += 1
    over = [k for k in range(34) if vis[k] > 4]
    if over:
        k = over[0]
        raise InvalidHand(f"seen: {vis[k]} copies of {Tile(k)} ({Tile(k).chinese}) visible in hand, draw, melds, "
                          f"indicator and seen; only 4 exist")
    if wall_left is not None and wall_left < 0:
        raise InvalidHand(f"wall_left: {wall_left} is negative")
    live = [4 - n for n in vis]
    wilds = set(h.wilds)
    rules = h.rules
    options: list[Option] = []
    base = HandInput(h.concealed, h.draw, h.melds, h.indicator, h.wilds, False, False, rules, tuple(own))
    unseen = sum(live)
    wall = estimate_wall_left(unseen) if wall_left is None else wall_left
    model = _Model(_scorer(h.indicator, rules), live, unseen, draws_left(wall), wilds, rules,
                   hazard_now(wall, TIANJIN_HAZARD_RAMP))

    def measure(action: str, tile: Tile, counts: list[int], melds: tuple[Meld, ...], wild: bool, gold: bool) -> Option:
        nonwild = list(counts)
        w = 0
        for k in wilds:
            w += nonwild[k]
            nonwild[k] = 0
        need = 4 - len(melds)
        sh, improving = _shanten_and_improving(nonwild, w, need, live, wilds)
        ws: tuple[Wait, ...] = ()
        hundiao = False
        if sh == 0:
            concealed = tuple(Tile(k) for k in range(34) for _ in range(counts[k]))
            h13 = HandInput(concealed, None, melds, h.indicator, h.wilds, False, False, rules, ())  # type: ignore[arg-type]
            res = waits_of(h13)
            hundiao = res.hundiao and not (wild or xiaoxianggong)
            out = []
            for x in res.complete:
                x = replace(x, live=live[x.tile])
                if (wild or xiaoxianggong) and x.win:
                    x = replace(x, win=False, reason=XXG_REASON)
                out.append(x)
            ws = tuple(out)
        o = Option(action, tile, sh, tuple(improving), ws, hundiao, wild, gold, 0,
                   not (wild or xiaoxianggong), rules.min_fan)
        return model.outlook(o, counts, melds)

    for k in range(34):
        if own[k] == 0:
            continue
        c = list(own)
        c[k] -= 1
        options.append(measure("discard", Tile(k), c, h.melds, k in wilds, False))
        if own[k] == 4 and len(h.melds) < 4:
            c4 = list(own)
            c4[k] = 0
            km = h.melds + (Meld(MeldType.CONCEALED_KONG, Tile(k)),)
            options.append(measure("ankong", Tile(k), c4, km, False, k in wilds))
        for i, m in enumerate(h.melds):
            if m.type is MeldType.PON and m.tile == k:
                km = h.melds[:i] + (Meld(MeldType.ADDED_KONG, Tile(k)),) + h.melds[i + 1:]
                options.append(measure("added_kong", Tile(k), c, km, False, False))
    options.sort(key=Option.sort_key)
    ranked = tuple(replace(o, rank=i + 1) for i, o in enumerate(options))
    res = score_input(base)
    return Advice(base, ranked, tuple(vis), res if res.complete else None, wall, wall_left is None, model.rounds)


@dataclass
class _Model:
    """The chance and value of a legal win for each option of one turn (module docstring)."""

    scorer: Scorer
    live: list[int]
    unseen: int
    rounds: int
    wilds: Container[int]
    rules: TianjinRules
    hazard: float = 0.0  # the others' chance to end the hand in the coming round (hazard_now)
    ramp: float = TIANJIN_HAZARD_RAMP
    routes_cache: dict[tuple[int, int], dict[bytes, tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    wild_kinds: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.wild_kinds = tuple(int(k) for k in self.scorer.wilds)

    def shortcut(self, c: list[int], gold: int) -> tuple[Iterable[int], int]:
        """(the draws that may win the 13 tiles ``c`` legally, the fan of every other draw: 0 = none
        wins), by R5: a fan of 2 or more needs 素 (no wild held, ×2), 混儿吊 (×2), 龙 or 捉伍儿 (the draw
        is 5m or a wild, playing 5m).  So a hand holding a wild wins only on 5m, a wild or (when its
        wilds fall one short of a suit's nine numbers, 龙) a missing number, unless 龙 is within reach
        anyway, or it is 混儿吊-shaped (less one wild: melds; or less two wilds: melds and a pair): then
        every other draw wins 混儿吊 alone, fan 2.  A hand with no wild is completed only by a draw next
        to a tile it holds (or a wild).  The candidates are scored."""
        every = range(34)
        if self.rules.min_fan <= 1:
            return every, 0
        nk, w = self.scorer._keys(c)
        wilds = self.wild_kinds
        if w == 0 and not gold:
            near = set(wilds)
            for x in range(34):
                if c[x]:
                    if x >= 27:
                        near.add(x)
                    else:
                        lo = x - x % 9
                        near.update(range(max(lo, x - 2), min(lo + 9, x + 3)))
            return sorted(near), 0
        special = {4, *wilds}  # 捉伍儿
        for lo in (0, 9, 18):  # 龙: the numbers of a suit the wilds cannot stand for
            missing = [i for i in range(lo, lo + 9) if not c[i] or i in wilds]
            if len(missing) <= w:
                return every, 0  # within reach whatever is drawn
            if len(missing) == w + 1:
                special.update(missing)  # only the draw of a missing number (or a wild) completes it
        if w and (wilds_needed(nk[0], nk[1], nk[2], nk[3], False) <= w - 1
                  or (w >= 2 and wilds_needed(nk[0], nk[1], nk[2], nk[3], True) <= w - 2)):
            return sorted(special), (2 if self.scorer.can_win(2, int(Flag.HUNDIAO)) else 0)
        return sorted(special), 0

    def legal_wins(self, c: list[int], n_melds: int, gold: int) -> tuple[tuple[int, int], ...]:
        """(kind, fan) of every draw that wins a 13-tile concealed hand ``c`` legally (R5.2)."""
        sc = self.scorer
        complete: Callable[[Sequence[int]], bool] = sc.is_complete
        xs, rest = self.shortcut(c, gold)
        wins = {}
        for x in xs:
            if c[x] >= 4:
                continue
            c[x] += 1
            if complete(c):
                r = sc.evaluate(c, x, n_melds, gold)
                if r is not None and sc.can_win(r[0], r[1]):
                    wins[x] = r[0]
            c[x] -= 1
        if rest:
            scored = set(xs)
            wins.update((x, rest) for x in range(34) if c[x] < 4 and x not in scored)
        return tuple(sorted(wins.items()))

    def routes(self, counts: list[int], n_melds: int, gold: int, kinds: Iterable[int]) -> list[tuple[int, float, float]]:
        """Per live kind of ``kinds`` whose draw allows a ready hand with a live legal win (one discard,
        never a wild: 小相公): (its live copies, that hand's chance to win a draw, its mean fan), the best
        such hand (most live × fan) taken."""
        live, unseen, wilds = self.live, self.unseen, self.wilds
        complete = self.scorer.is_complete
        w0 = self.wild_kinds[0]
        cache = self.routes_cache.setdefault((n_melds, gold), {})
        c = list(counts)
        out = []
        for k in kinds:
            lk = live[k]
            if lk <= 0:
                continue
            c[k] += 1
            best_v = best_w = 0
            for j in range(34):
                if not c[j] or j == k or j in wilds:
                    continue
                c[j] -= 1
                key = bytes(c)
                wins = cache.get(key)
                if wins is None:
                    c[w0] += 1  # ready ⇔ one more wild completes it: one look-up rules most discards out
                    ready = complete(c)
                    c[w0] -= 1
                    wins = cache[key] = self.legal_wins(c, n_melds, gold) if ready else ()
                c[j] += 1
                if not wins:
                    continue
                w = v = 0
                for x, fan in wins:
                    n = live[x] - (x == k)
                    if n > 0:
                        w += n
                        v += n * fan
                if v > best_v or (v == best_v and w > best_w):
                    best_v, best_w = v, w
            c[k] -= 1
            if best_w:
                out.append((lk, best_w / unseen, best_v / best_w))
        return out

    def outlook(self, o: Option, counts: list[int], melds: tuple[Meld, ...]) -> Option:
        """``o`` with ``win_chance``, ``expected``, ``legal_shanten`` and ``legal_improving``."""
        if not o.can_win or not self.unseen:  # 小相公, or nothing left to draw
            return replace(o, legal_shanten=o.shanten)
        unseen = self.unseen
        rounds = self.rounds + (1 if o.replacement_draw and not o.ready else 0)  # the replacement draw
        # the next draw (a replacement draw after a kong, with its 杠开 fan)
        w1 = sum(w.live for w in o.waits if o.next_win(w))
        v1 = sum(w.live * o.next_fan(w) for w in o.waits if o.next_win(w))
        # every later draw
        w_all = sum(w.live for w in o.waits if w.win)
        v_all = sum(w.live * w.fan for w in o.waits if w.win)
        limp: int | None = None
        hz, ramp = self.hazard, self.ramp
        if o.ready and w_all:
            lsh = 0
            p = _chain(0, 0.0, w_all / unseen, rounds, (), hz, ramp)
            e = p * v_all / w_all
        elif o.shanten <= 1:
            gold = sum(1 for m in melds if m.type is MeldType.CONCEALED_KONG and m.tile in self.wilds)
            kinds = range(34) if o.ready else (int(t) for t, _ in o.improving)
            routes = self.routes(counts, len(melds), gold, kinds)
            limp = sum(n for n, _, _ in routes)
            if routes:
                lsh = 1
                p, e = _routes_chance(routes, unseen, rounds, hz, ramp)
            else:  # every ready hand one draw away is dead as well: a step more, at the usual rates
                lsh = 2
                first = o.improving_count / unseen if not o.ready else TIANJIN_LATER[2]
                p = _chain(2, first, TIANJIN_READY_WIDTH / unseen, rounds, TIANJIN_LATER, hz, ramp)
                e = p * max(1, self.rules.min_fan)
        else:
            lsh = o.shanten
            p = _chain(min(o.shanten, 6), o.improving_count / unseen, TIANJIN_READY_WIDTH / unseen, rounds,
                       TIANJIN_LATER, hz, ramp)
            e = p * max(1, self.rules.min_fan)
        if o.replacement_draw and o.ready:  # the replacement draw comes first
            q1 = w1 / unseen
            p, e = q1 + (1 - q1) * p, (v1 / unseen) + (1 - q1) * e
            if w1:
                lsh = 0
        return replace(o, win_chance=p, expected=e, legal_shanten=lsh, legal_improving=limp)
