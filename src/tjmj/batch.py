"""The ``tjmj`` console script's entry point (pyproject's ``tjmj = "tjmj.batch:console"``).

``tjmj score --batch FILE`` goes straight to the batch loop (:mod:`tjmj.jsonlines`), without
Click, Rich or the other commands; every other command line goes to the Click group
:func:`tjmj.cli.main`.  Nothing in the package imports this module, so the command line and
the batch import each other nowhere.
"""

from __future__ import annotations

import gc
import sys

from .jsonlines import BatchFileError, run_file

__all__ = ["console"]


def console() -> None:
    """The ``tjmj`` console script.

    ``tjmj score --batch FILE`` goes straight to the batch loop, so a tool that starts one
    batch per job does not wait for Click and the other commands to load; any other command
    line (including a malformed batch one) goes to the Click CLI, :func:`tjmj.cli.main`.
    """
    args = sys.argv[1:]
    path = None
    rest = [a for a in args[1:] if a != "--no-arrangement"]
    if args[:1] == ["score"] and len(rest) >= len(args) - 2:  # --no-arrangement at most once
        if len(rest) == 2 and rest[0] == "--batch":
            path = rest[1]
        elif len(rest) == 1 and rest[0].startswith("--batch="):
            path = rest[0][len("--batch="):]
    if path is not None and path and (path == "-" or not path.startswith("-")):
        # each line's garbage is acyclic (freed by reference counting); the cyclic collector
        # would only rescan the growing caches, so it runs less often here
        gc.set_threshold(100_000, 50, 100)
        try:
            code = run_file(path, arrangement="--no-arrangement" not in args)
        except BatchFileError as e:
            sys.stderr.write(f"Error: {e}\n")  # as Click words its usage errors
            code = 2
        sys.exit(code)
    from .cli import main

    main()
