"""How many cells the terminal really gives a mahjong glyph, and Rich told the same.

The Mahjong Tiles block (U+1F000–U+1F02B) is ambiguous: Unicode makes its tiles narrow but 🀄
(U+1F004, emoji presentation) wide, and terminals differ — one draws 🀇 in one cell, another (a
tmux or a locale with other widths) in two.  Textual lays the screen out with Rich's widths; where
the terminal disagrees, each glyph pushes the rest of its line sideways (a box's right border, the
hint panel).  So before the screen opens the terminal is asked (a cursor position report after
printing a glyph), and if it differs, Rich's cell table is told the terminal's width for the block;
:func:`tjmj.tui.glyphs.glyph` then pads each glyph to two cells by Rich's measure.
"""

from __future__ import annotations

import os
import re
import select
import sys
import time

__all__ = ["SAMPLES", "measure", "adopt", "fit_to_terminal", "BLOCK_START", "BLOCK_END", "WIDE"]

BLOCK_START, BLOCK_END = 0x1F000, 0x1F02B  # the tiles (U+1F02C–1F02F are unassigned)
WIDE = 0x1F004  # 🀄: emoji presentation, wide in Unicode
SAMPLES = (chr(0x1F007), chr(WIDE))  # 🀇 stands for every other tile of the block
_CPR = re.compile(rb"\x1b\[(\d+);(\d+)R")


def measure(fd_in: int, fd_out: int, timeout: float = 0.4) -> tuple[int, int] | None:
    """The cells the terminal advances for 🀇 and for 🀄: each is printed at the start of the line
    and the cursor's column asked for (``ESC [6n``).  None when it does not answer in ``timeout``
    seconds or answers nonsense (the caller keeps Rich's widths).  The line is cleared after."""
    import termios
    import tty

    old = termios.tcgetattr(fd_in)
    widths: list[int] = []
    try:
        tty.setcbreak(fd_in)  # the answer is read, not echoed or held for a newline
        deadline = time.monotonic() + timeout
        for sample in SAMPLES:
            os.write(fd_out, f"\r{sample}\x1b[6n".encode())
            reply = b""
            while (m := _CPR.search(reply)) is None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd_in], [], [], left)[0]:
                    return None
                reply += os.read(fd_in, 64)
            width = int(m.group(2)) - 1
            if width not in (1, 2):
                return None
            widths.append(width)
    finally:
        os.write(fd_out, b"\r\x1b[K")
        termios.tcsetattr(fd_in, termios.TCSADRAIN, old)
    return widths[0], widths[1]


def _set_width(table: list[tuple[int, int, int]], start: int, end: int, width: int) -> None:
    """Make ``start…end`` ``width`` cells in a Rich cell table (sorted, non-overlapping ranges;
    a code point in no range is one cell)."""
    out: list[tuple[int, int, int]] = []
    for s, e, w in table:
        if e < start or s > end:
            out.append((s, e, w))
            continue
        if s < start:
            out.append((s, start - 1, w))
        if e > end:
            out.append((end + 1, e, w))
    if width != 1:
        out.append((start, end, width))
    table[:] = sorted(out)


def adopt(tile: int, dragon: int) -> bool:
    """Tell Rich (and so Textual) that the block's tiles are ``tile`` cells and 🀄 ``dragon``
    cells wide.  Rich has no public way to say so: its cell table (a list, for the pinned Rich)
    is changed in place and its caches cleared.  False, changing nothing, if the table is not what
    this expects."""
    from rich import cells
    from rich._unicode_data import load

    table = load("auto").widths
    if not isinstance(table, list) or not all(isinstance(r, tuple) and len(r) == 3 for r in table[:3]):
        return False
    _set_width(table, BLOCK_START, WIDE - 1, tile)
    _set_width(table, WIDE, WIDE, dragon)
    _set_width(table, WIDE + 1, BLOCK_END, tile)
    cells.get_character_cell_size.cache_clear()
    cells.cached_cell_len.cache_clear()
    return cells.cell_len(SAMPLES[0]) == tile and cells.cell_len(SAMPLES[1]) == dragon


def fit_to_terminal() -> bool:
    """Before the screen opens: measure the terminal's widths of the glyphs and make Rich's agree.
    True when the glyphs will line up (the terminal agrees, or Rich was told); False when the
    terminal draws them otherwise and Rich could not be told (the caller falls back to MPSZ text).
    Not a terminal, or no answer: True, Rich's widths are kept."""
    from rich.cells import cell_len

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return True
    try:
        sys.stdout.flush()
        got = measure(sys.stdin.fileno(), sys.stdout.fileno())
    except (OSError, ImportError):  # no termios (Windows), or the terminal went away
        return True
    if got is None or got == (cell_len(SAMPLES[0]), cell_len(SAMPLES[1])):
        return True
    return adopt(*got)
