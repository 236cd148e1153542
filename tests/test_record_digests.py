"""Fixed seeds make the same records, byte for byte (issue 29: "no behaviour change").

For every preset of every registered family, :func:`tjmj.simulate.simulate` plays two matches of
three hands (seed 29, bots baseline, strong, greedy, strong by seat) into a record file; the SHA-256
of the file's bytes must equal the one stored in ``tests/data/record_digests.json``.  A refactor
that moves code must leave every digest alone; a change that means to play or record otherwise
regenerates the file, by an explicit command only, and says so in its commit::

    PYTHONPATH=src .venv/bin/python tests/test_record_digests.py --write

(without ``--write`` the script prints the digests of this tree and the stored ones side by side).
A preset added to the registry fails here until its digest is stored.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from tjmj import families
from tjmj.rules import Rules
from tjmj.simulate import simulate

DIGESTS = Path(__file__).with_name("data") / "record_digests.json"
SEED = 29
HANDS = 6
HANDS_PER_MATCH = 3
BOTS = ("baseline", "strong", "greedy", "strong")


def presets() -> list[str]:
    return [p for f in families.all_families() for p in f.presets]


def record_digest(preset: str, out: Path) -> str:
    """Play the fixed run of ``preset`` into ``out`` and return the SHA-256 of the file's bytes."""
    simulate(hands=HANDS, seed=SEED, rules=Rules.preset(preset), bots=BOTS, out=out,
             hands_per_match=HANDS_PER_MATCH)
    return hashlib.sha256(out.read_bytes()).hexdigest()


def stored() -> dict[str, str]:
    digests: dict[str, str] = json.loads(DIGESTS.read_text())["sha256"]
    return digests


def test_every_preset_has_a_stored_digest() -> None:
    assert sorted(stored()) == sorted(presets()), "a preset without a stored digest: regenerate (module docstring)"
    assert len(presets()) >= 5


@pytest.mark.parametrize("preset", presets())
def test_the_records_of_fixed_seeds_are_byte_identical(preset: str, tmp_path: Path) -> None:
    got = record_digest(preset, tmp_path / f"{preset}.jsonl")
    assert got == stored().get(preset), (
        f"{preset}: the records of seed {SEED} changed (sha256 {got}); if the change is meant, regenerate "
        "tests/data/record_digests.json (module docstring)")


def _main(argv: list[str]) -> int:
    import tempfile

    write = argv == ["--write"]
    if argv and not write:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as d:
        got = {p: record_digest(p, Path(d) / f"{p}.jsonl") for p in presets()}
    old = stored() if DIGESTS.exists() else {}
    for p, h in got.items():
        print(f"{p:10} {h}  {'same' if old.get(p) == h else 'CHANGED' if p in old else 'new'}")
    if write:
        DIGESTS.write_text(json.dumps({
            "about": "tests/test_record_digests.py: sha256 of the record file of each preset's fixed run",
            "seed": SEED, "hands": HANDS, "hands_per_match": HANDS_PER_MATCH, "bots": list(BOTS),
            "sha256": got}, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {DIGESTS}")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
