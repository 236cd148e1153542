"""Random hands for benchmarks, demos and tests (reproducible from a ``random.Random``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...meld import Meld, MeldType
from ...tiles import Tile, wild_kinds

__all__ = ["SampleHand", "random_complete_hand", "random_hand"]


@dataclass(frozen=True)
class SampleHand:
    concealed: tuple[Tile, ...]  # 13 − 3·melds tiles before the draw
    draw: Tile
    indicator: Tile
    melds: tuple[Meld, ...] = ()
    kong_draw: bool = False

    def to_batch(self) -> dict[str, object]:
        from ...tiles import format_tiles

        d: dict[str, object] = {
            "hand": format_tiles(sorted(self.concealed)),
            "draw": str(self.draw),
            "indicator": str(self.indicator),
        }
        if self.melds:
            d["melds"] = [m.to_dict() for m in self.melds]
        if self.kong_draw:
            d["kong_draw"] = True
        return d


def _take(pool: list[int], kind: int, n: int) -> bool:
    if pool[kind] < n:
        return False
    pool[kind] -= n
    return True


def random_complete_hand(
    rng: random.Random,
    *,
    wild_count: int | None = None,
    max_melds: int = 1,
    wild_kind_count: int = 2,
    dragon_bias: float = 0.15,
) -> SampleHand:
    """A complete 14-tile hand: 4 melds + pair of random kinds, then some tiles swapped for wilds.

    ``wild_count``: how many concealed tiles to make wild (default: 0–3 at random, as in play).
    ``dragon_bias``: chance to start from a 1-9 straight, so 龙 hands are not vanishingly rare.
    """
    while True:
        indicator = Tile(rng.randrange(34))
        wilds = wild_kinds(indicator, wild_kind_count)
        pool = [4] * 34
        pool[indicator] -= 1
        groups: list[list[int]] = []
        if rng.random() < dragon_bias:
            suit = rng.randrange(3) * 9
            groups += [[suit + p, suit + p + 1, suit + p + 2] for p in (0, 3, 6)]
        ok = True
        while len(groups) < 4 and ok:
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                groups.append([s, s + 1, s + 2])
            else:
                k = rng.randrange(34)
                groups.append([k, k, k])
        p = rng.randrange(34)
        groups.append([p, p])
        for g in groups:
            for k in g:
                ok = ok and _take(pool, k, 1)
        if not ok:
            continue
        # exposed melds only from non-wild triplets
        melds: list[Meld] = []
        concealed: list[int] = []
        n_melds = rng.randint(0, max_melds)
        for g in groups:
            if len(melds) < n_melds and len(g) == 3 and g[0] == g[1] and g[0] not in wilds:
                mtype = rng.choice([MeldType.PON, MeldType.KONG, MeldType.CONCEALED_KONG])
                if mtype.is_kong and not _take(pool, g[0], 1):
                    mtype = MeldType.PON
                melds.append(Meld(mtype, Tile(g[0])))
            else:
                concealed.extend(g)
        n_w = rng.choice([0, 0, 1, 1, 2, 2, 3]) if wild_count is None else wild_count
        spare = [k for k in wilds for _ in range(pool[k])]
        rng.shuffle(spare)
        idx = list(range(len(concealed)))
        rng.shuffle(idx)
        swaps = 0
        for i in idx:
            if swaps >= n_w or not spare:
                break
            if concealed[i] in wilds:
                continue
            pool[concealed[i]] += 1
            concealed[i] = spare.pop()
            swaps += 1
        if wild_count is not None and sum(1 for t in concealed if t in wilds) < wild_count:
            continue
        rng.shuffle(concealed)
        draw = concealed.pop()
        return SampleHand(tuple(Tile(t) for t in concealed), Tile(draw), indicator, tuple(melds),
                          kong_draw=any(m.type.is_kong for m in melds) and rng.random() < 0.3)


def random_hand(rng: random.Random, *, size: int = 14, wild_kind_count: int = 2) -> SampleHand:
    """A random (usually incomplete) concealed hand of ``size`` tiles (the last one is the draw)."""
    indicator = Tile(rng.randrange(34))
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(indicator)
    rng.shuffle(wall)
    tiles = [Tile(t) for t in wall[:size]]
    return SampleHand(tuple(tiles[:-1]), tiles[-1], indicator)
