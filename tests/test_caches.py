"""The process-wide caches stay bounded (issue 35, item 7).

A server plays match after match for days with the same bots, so every memo that outlives a match
must have a cap: a long soak grew ~2–4 MB a minute while the bots' memos filled (caps of 65,536
entries at ~0.6 kB each), ``hand.used_table`` (no cap) and the scorers' suit tables (no cap)
filled without end.  docs/architecture.md lists the caps and what each costs full.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

import tjmj
from tjmj.rules import Rules
from tjmj.simulate import simulate

# the most entries any memo may hold (at ~0.5–1 kB an entry, a few MB each: docs/architecture.md)
MAX_ENTRIES = 1 << 14
# memos with no cap, bounded by construction: their keys come from a small fixed set (element
# flags, indicators, the chows or pungs of one hand, the tile faces), or, for _min_wilds, the table
# build that empties it when done
FIXED = {
    "elements_of", "combination_name", "_codes", "_min_wilds", "wild_kinds", "_group", "_pack_group",
    "chow_fans", "pung_fans", "_most_combinations", "resolve", "value_of", "name_of", "_face", "sprite",
    "_sprite",
}
# modules that need extras or a compiled copy: not the server's bots
SKIP = ("tjmj.env", "tjmj.ray", "tjmj.gym", "tjmj.__main__", "tjmj.tui")


def _memos() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for info in pkgutil.walk_packages(tjmj.__path__, "tjmj."):
        if info.name.startswith(SKIP):
            continue
        try:
            mod = importlib.import_module(info.name)
        except ImportError:
            continue
        for name, v in vars(mod).items():
            if hasattr(v, "cache_info") and getattr(v, "__module__", None) == mod.__name__:
                out[f"{mod.__name__}.{name}"] = v
    return out


def test_every_memo_has_a_cap_or_a_fixed_set_of_keys() -> None:
    memos = _memos()
    assert "tjmj.families.tianjin.bots.strong._winning_kinds" in memos  # the walk found the bots
    unbounded = sorted(k for k, f in memos.items()
                       if f.cache_info().maxsize is None and k.rsplit(".", 1)[1] not in FIXED)
    assert unbounded == []
    too_big = sorted(k for k, f in memos.items() if (f.cache_info().maxsize or 0) > MAX_ENTRIES)
    assert too_big == []


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
