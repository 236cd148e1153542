"""The compiled copy the benchmark scripts compare against: the one given, or one built for the run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compiled_src(given: Path | None, tmp: str) -> Path:
    """The ``src`` of a compiled copy: ``given`` (a ``python -m tjmj.build_compiled --out DIR`` directory,
    or its ``src``), else one built now under ``tmp`` (about 3 minutes)."""
    if given is None:
        print("building the compiled copy (python -m tjmj.build_compiled) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "tjmj.build_compiled", "--out", f"{tmp}/compiled", "--quiet"],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        given = Path(tmp) / "compiled"
    return given / "src" if (given / "src").is_dir() else given
