"""The process-wide caches stay bounded (issue 35, item 7).

A server plays match after match for days with the same bots, so every memo that outlives a match
must have a cap: a long soak grew ~2–4 MB a minute while the bots' memos filled (caps of 65,536
entries at ~0.6 kB each), ``hand.used_table`` (no cap) and the scorers' suit tables (no cap)
filled without end.  docs/architecture.md lists the caps and what each costs full.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Any

import pytest

import tjmj
from tjmj.rules import Rules
from tjmj.simulate import simulate

# the most entries any memo may hold (at ~0.5–1 kB an entry, a few MB each: docs/architecture.md)
MAX_ENTRIES = 1 << 14
# memos with no cap, bounded by construction: their keys come from a small fixed set (element
# flags, indicators, the chows or pungs of one hand, the tile faces)
FIXED = {
    "elements_of", "combination_name", "_codes", "wild_kinds", "_group", "_pack_group",
    "chow_fans", "pung_fans", "_most_combinations", "resolve", "value_of", "name_of", "_face", "sprite",
    "_sprite", "bot_ratings",  # bot_ratings: no arguments, the shipped file read once
}
# memos with no maxsize that their one caller empties at a size (tested below)
EMPTIED_BY_CALLER = {"tjmj._tables._min_wilds"}
# dicts with __missing__ (memos by subclassing dict) that empty themselves at _tables.TABLE_CAP
CAPPED_DICTS = {"tjmj._tables.NUM", "tjmj._tables.HON", "tjmj._tables.DRAGON", "tjmj._tables.DRAGON_NO5",
                "tjmj._tables.DECOMP_NUM", "tjmj._tables.DECOMP_HON"}
# modules that need extras or a compiled copy: not the server's bots
SKIP = ("tjmj.env", "tjmj.ray", "tjmj.gym", "tjmj.__main__", "tjmj.tui")


def _modules() -> list[Any]:
    out = []
    for info in pkgutil.walk_packages(tjmj.__path__, "tjmj."):
        if info.name.startswith(SKIP):
            continue
        try:
            out.append(importlib.import_module(info.name))
        except ImportError:
            continue
    return out


def _memos() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mod in _modules():
        for name, v in vars(mod).items():
            if hasattr(v, "cache_info") and getattr(v, "__module__", None) == mod.__name__:
                out[f"{mod.__name__}.{name}"] = v
    return out


def _missing_dicts() -> dict[str, Any]:
    """Module-level dicts whose class fills them on a miss (``__missing__``): memos too."""
    out: dict[str, Any] = {}
    for mod in _modules():
        for name, v in vars(mod).items():
            if isinstance(v, dict) and hasattr(type(v), "__missing__") and type(v).__module__ == mod.__name__:
                out[f"{mod.__name__}.{name}"] = v
    return out


def test_every_memo_has_a_cap_or_a_fixed_set_of_keys() -> None:
    memos = _memos()
    assert "tjmj.families.tianjin.bots.strong._winning_kinds" in memos  # the walk found the bots
    unbounded = sorted(k for k, f in memos.items() if f.cache_info().maxsize is None
                       and k.rsplit(".", 1)[1] not in FIXED and k not in EMPTIED_BY_CALLER)
    assert unbounded == []
    too_big = sorted(k for k, f in memos.items() if (f.cache_info().maxsize or 0) > MAX_ENTRIES)
    assert too_big == []


def test_every_dict_memo_is_one_that_empties_itself_at_its_cap() -> None:
    assert set(_missing_dicts()) == CAPPED_DICTS


def test_the_suit_tables_empty_themselves_at_their_cap_and_answer_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from tjmj import _tables as T
    rng = random.Random(35)
    suits = [[rng.randint(0, 4) for _ in range(9)] for _ in range(400)]
    keys = [sum(n << (3 * i) for i, n in enumerate(c)) for c in suits]
    tables = [T.NUM, T.HON, T.DRAGON, T.DRAGON_NO5, T.DECOMP_NUM, T.DECOMP_HON]
    for t in tables:
        t.clear()
    hon_keys = [k & ((1 << 21) - 1) for k in keys]  # the first 7 positions: an honour suit
    full = ([T.NUM[k] for k in keys], [T.DRAGON[k] for k in keys], [T.DECOMP_NUM[k, True] for k in keys],
            [T.HON[k] for k in hon_keys])
    assert len(T.NUM) > 300 and len(T.DECOMP_NUM) > 300  # uncapped, they hold more than the cap below
    for t in tables:
        t.clear()
    monkeypatch.setattr(T, "TABLE_CAP", 100)
    capped = ([T.NUM[k] for k in keys], [T.DRAGON[k] for k in keys], [T.DECOMP_NUM[k, True] for k in keys],
              [T.HON[k] for k in hon_keys])
    assert capped == full
    assert all(0 < len(t) <= 100 for t in (T.NUM, T.HON, T.DRAGON, T.DECOMP_NUM))
    for t in tables:  # leave them empty: later tests fill them at the real cap
        t.clear()


def test_the_wild_search_memo_is_emptied_before_it_passes_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from tjmj import _tables as T
    # suits of more than 14 tiles are not in the shipped file: each goes through _min_wilds
    rng = random.Random(7)
    keys = set()
    while len(keys) < 200:
        c = [rng.randint(1, 4) for _ in range(9)]
        if sum(c) > 14:
            keys.add(sum(n << (3 * i) for i, n in enumerate(c)))
    T.NUM.clear()
    T._min_wilds.cache_clear()
    uncapped = [T.NUM[k] for k in sorted(keys)]
    most = T._min_wilds.cache_info().currsize
    T.NUM.clear()
    T._min_wilds.cache_clear()
    monkeypatch.setattr(T, "MIN_WILDS_CAP", 500)
    peak = 0
    capped = []
    for k in sorted(keys):
        capped.append(T.NUM[k])
        peak = max(peak, T._min_wilds.cache_info().currsize)
    assert capped == uncapped
    assert most > 4 * 500  # without the cap it holds far more than with it
    assert peak < most // 2
    T.NUM.clear()
    T._min_wilds.cache_clear()


def test_the_expert_memos_start_again_at_a_modest_size() -> None:
    from tjmj.bots import expert
    assert expert._MEMO_SIZE <= MAX_ENTRIES


def _tables(mod: Any) -> int:
    return sum(len(t) for t in mod._TUPLE_TABLES.values())


@pytest.mark.parametrize(("module", "preset", "bots"), [
    ("tjmj.families.tianjin.score", "classic", "strong"),
    ("tjmj.families.beijing.score", "beijing", "baseline"),
])
def test_the_scorers_suit_tables_stay_under_their_cap_and_play_is_unchanged(
        monkeypatch: pytest.MonkeyPatch, module: str, preset: str, bots: str) -> None:
    mod = importlib.import_module(module)
    rules = Rules.preset(preset)
    before = simulate(hands=2, seed=35, rules=rules, bots=bots, workers=1, hands_per_match=1).to_dict()
    for t in mod._TUPLE_TABLES.values():  # emptied in place, as the cap does: the scorers hold them
        t.clear()
    monkeypatch.setattr(mod, "_tuple_entries", 0)
    monkeypatch.setattr(mod, "TUPLE_TABLES_CAP", 300)
    after = simulate(hands=2, seed=35, rules=rules, bots=bots, workers=1, hands_per_match=1).to_dict()
    assert 0 < _tables(mod) <= 300
    drop = ("seconds", "hands_per_s")  # timings differ, nothing else may
    assert {k: v for k, v in after.items() if k not in drop} == {k: v for k, v in before.items() if k not in drop}
