"""Build the compiled form of the engine: its hot modules compiled with mypyc (needs mypy, a C
compiler and setuptools; ``pip install -e '.[dev]'`` brings the first and the last).

    python -m tjmj.build_compiled            # in place: the .so files beside the .py files
    python -m tjmj.build_compiled --clean    # remove them: back to pure Python
    python -m tjmj.build_compiled --out DIR  # a compiled copy of the package at DIR/src/tjmj

Python imports an extension module before the ``.py`` of the same name, so after an in-place build
``import tjmj`` runs the compiled modules (:func:`tjmj.compiled` lists them); the results are the
same, byte for byte (tests/test_compiled.py).  ``--out`` leaves the tree as it is: run the copy with
``PYTHONPATH=DIR/src``.  The modules are :data:`tjmj.COMPILED_MODULES`; what their code must obey
to compile (and to behave the same) is in docs/architecture.md, "The compiled engine".
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from . import COMPILED_MODULES

__all__ = ["build", "clean", "main"]

PACKAGE = Path(__file__).resolve().parent  # src/tjmj
GROUP = "tjmj"  # mypyc's shared library of the group: <root>/tjmj__mypyc.<suffix>


def _extensions(root: Path) -> list[Path]:
    """The built files under ``root`` (the directory holding the tjmj package)."""
    out = [p for suffix in EXTENSION_SUFFIXES for p in (root / "tjmj").rglob(f"*{suffix}")]
    out += [p for suffix in EXTENSION_SUFFIXES for p in root.glob(f"{GROUP}__mypyc{suffix}")]
    return sorted(set(out))


def clean(root: Path = PACKAGE.parent) -> list[Path]:
    """Remove the compiled modules under ``root``; returns what was removed."""
    gone = _extensions(root)
    for p in gone:
        p.unlink()
    return gone


def build(root: Path = PACKAGE.parent, *, opt_level: str = "3", quiet: bool = False) -> list[Path]:
    """Compile :data:`tjmj.COMPILED_MODULES` under ``root`` in place; returns the files built."""
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]
    except ImportError as e:  # pragma: no cover - the dev extra has both
        raise SystemExit(f"tjmj.build_compiled needs mypy and setuptools (pip install -e '.[dev]'): {e}") from None
    clean(root)
    paths = [os.path.join("tjmj", *m.split(".")) + ".py" for m in COMPILED_MODULES]
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="tjmj-mypyc-") as tmp:
        os.chdir(root)
        try:
            # a bare Distribution: setup() would read pyproject.toml (hatchling's; setuptools rejects it)
            dist = Distribution({
                "name": "tjmj-compiled",
                "ext_modules": mypycify([f"--cache-dir={os.path.join(tmp, 'mypy')}", *paths], opt_level=opt_level, debug_level="0", group_name=GROUP,
                                        target_dir=os.path.join(tmp, "c")),
            })
            dist.script_args = (["-q"] if quiet else []) + [
                "build_ext", "--inplace", "--build-temp", os.path.join(tmp, "o"), "--build-lib", os.path.join(tmp, "lib")]
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(cwd)
    return _extensions(root)


def copy_tree(out: Path) -> Path:
    """A pure copy of the package at ``out/src/tjmj``; returns ``out/src``."""
    src = out / "src"
    if (src / "tjmj").exists():
        shutil.rmtree(src / "tjmj")
    src.mkdir(parents=True, exist_ok=True)
    so = tuple(EXTENSION_SUFFIXES)
    shutil.copytree(PACKAGE, src / "tjmj",
                    ignore=lambda d, names: [n for n in names if n == "__pycache__" or n.endswith(so)])
    return src


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tjmj.build_compiled",
                                 description="Compile the engine's hot modules with mypyc (the compiled form).")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules (back to pure Python)")
    ap.add_argument("--out", metavar="DIR", help="build into a copy of the package at DIR/src/tjmj, not in place")
    ap.add_argument("--opt-level", default="3", choices="0123", help="the C compiler's -O level (default 3)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no compiler output")
    args = ap.parse_args(argv)
    if args.clean:
        root = Path(args.out).resolve() / "src" if args.out else PACKAGE.parent
        gone = clean(root)
        print(f"removed {len(gone)} compiled module file(s) under {root}")
        return 0
    root = copy_tree(Path(args.out).resolve()) if args.out else PACKAGE.parent
    t = time.perf_counter()
    built = build(root, opt_level=args.opt_level, quiet=args.quiet)
    print(f"built {len(built)} file(s) under {root} in {time.perf_counter() - t:.0f} s"
          + (f"; run it with PYTHONPATH={root}" if args.out else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
