"""The per-suit wild tables behind the fast scorer (tjmj._tables) and the copy shipped with the package."""

import random

import pytest

from tjmj import _tables as T


def test_shipped_table_is_the_search_for_every_suit():
    """suit_tables.bin holds exactly what _min_wilds computes, for every suit of ≤ 14 tiles."""
    with open(T.STORED_PATH, "rb") as f:
        shipped = f.read()
    assert shipped == T.build_stored()


def test_shipped_table_is_read():
    assert len(T.stored()) == 5**9 + 5**7


@pytest.mark.parametrize("positions", [9, 7])
def test_lookups_agree_with_the_search(positions):
    """NUM/HON answers (through the shipped table) equal the search on random suits."""
    rng = random.Random(positions)
    honors = positions == 7
    table = T.HON if honors else T.NUM
    for _ in range(3000):
        c = [0] * positions
        for _ in range(rng.randrange(15)):
            p = rng.randrange(positions)
            if c[p] < 4:
                c[p] += 1
        key = sum(n << (3 * p) for p, n in enumerate(c))
        n0 = T._min_wilds(tuple(c), False, honors)
        n1 = T._min_wilds(tuple(c), True, honors)
        assert table[key] == (n0, n1 - n0), c


def test_suits_the_file_lacks_are_still_answered(monkeypatch):
    """A count over 4 (not a real suit) or a missing file falls back to the search."""
    assert T._stored_packed(5, 9) is None
    assert T.NUM[5] == (1, -1)  # 5 × 1m: two triplets with one wild, or a triplet and the pair
    monkeypatch.setattr(T, "_stored", b"")
    key = 1 | 1 << 3  # 1m2m
    assert T._stored_packed(key, 9) is None
    monkeypatch.setattr(T, "NUM", T._NeedTable(9))
    assert T.NUM[key] == (1, 2)
    assert T.decompose(key, False, 9) == (("sequence", (0, 1, 2), (False, False, True)),)


def _dragon_by_definition(key: int, skip5: bool) -> tuple[int, int]:
    """Take one 1..9 (not the 5 with skip5) real-first: the rest, and how many were missing."""
    k, missing = key, 0
    for p in range(9):
        if skip5 and p == 4:
            continue
        if (k >> (3 * p)) & 7:
            k -= T.ONE[p]
        else:
            missing += 1
    return k, missing


def test_dragon_tables_take_one_of_each_kind():
    rng = random.Random(7)
    for _ in range(20000):
        key = sum(rng.randrange(5) << (3 * p) for p in range(9))
        assert T.DRAGON[key] == _dragon_by_definition(key, False)
        assert T.DRAGON_NO5[key] == _dragon_by_definition(key, True)
