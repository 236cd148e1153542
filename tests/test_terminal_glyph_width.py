"""Unicode tiles line up in a real terminal (issue 34 item 8): ``tjmj play`` in tmux, the settlement
box captured with ``tmux capture-pane`` — its right border in one column on every row, and every
tile two cells wide — in a tmux that draws the mahjong glyphs one cell wide (Unicode's width, the C
locale's) and in one that draws them two cells wide (a locale whose width table says so, built here
with ``localedef``: what terminals that draw these glyphs wide do).  ``tjmj.tui.cellwidth`` measures
the terminal before the screen opens and tells Rich; the glyphs are padded by that measure.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tjmj.tui.cellwidth import _set_width, adopt
from tjmj.tui.glyphs import GLYPHS, glyph, is_glyph

CHARMAP = Path("/usr/share/i18n/charmaps/UTF-8.gz")
SIZE = (100, 40)

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def width_in(wide: bool) -> Callable[[str], int]:
    """A character's cells in the tmux under test: the block's tiles 2 (``wide``) or 1, 🀄 2."""

    def w(ch: str) -> int:
        if is_glyph(ch):
            return 2 if wide or ord(ch) == 0x1F004 else 1
        return 2 if unicodedata.east_asian_width(ch) in "WF" else 1

    return w


@pytest.fixture(scope="module")
def wide_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A LOCPATH holding a ``C.utf8`` whose width table makes U+1F000–U+1F02B two cells (tmux uses
    C.UTF-8 when it can, so the locale takes that name)."""
    if shutil.which("localedef") is None or not CHARMAP.exists():
        pytest.skip("localedef and the UTF-8 charmap are needed to make a wide-glyph terminal")
    folder = tmp_path_factory.mktemp("locale")
    text = gzip.decompress(CHARMAP.read_bytes()).decode()
    assert "\n<U0001F004>\t2\n" in text
    charmap = folder / "WIDE"
    charmap.write_text(text.replace("\n<U0001F004>\t2\n", "\n<U0001F000>...<U0001F02B>\t2\n"))
    subprocess.run(["localedef", "-i", "C", "-f", str(charmap), str(folder / "C.utf8")], check=True,
                   capture_output=True)
    return folder


class Tmux:
    """One tmux server of its own (``-L``), no user configuration."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.name, self.env = name, env

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", *args], env=self.env, check=True,
                              capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "t")


@pytest.fixture
def tmux_factory(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], Tmux]]:
    servers: list[Tmux] = []

    def make(extra: dict[str, str]) -> Tmux:
        import os

        # the server's socket is machine-wide (/tmp/tmux-UID/NAME): the pid keeps two runs of the
        # suite at once (two checkouts) from sharing, and killing, one server
        # pytest-xdist's workers set COLUMNS=80 and LINES=24, which Rich takes over the terminal's size
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        t = Tmux(f"tjmj-width-{os.getpid()}-{len(servers)}-{tmp_path.name}", {**env, **extra})
        servers.append(t)
        return t

    yield make
    for t in servers:
        subprocess.run(["tmux", "-L", t.name, "kill-server"], capture_output=True)


def _settlement(tmux: Tmux, tmp_path: Path) -> list[str]:
    """``tjmj play`` (Tianjin, one hand) answered by keys until its settlement; the screen's lines."""
    cmd = (f"{sys.executable} -c 'from tjmj.batch import console; console()' play --rules classic --seed 7 "
           f"--hands 1 --bot-delay 0 --record {tmp_path / 'r.jsonl'}")
    tmux("new-session", "-d", "-s", "t", "-x", str(SIZE[0]), "-y", str(SIZE[1]), cmd)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.25)
        screen = tmux.screen()
        if "Payments" in screen and "Enter to leave" in screen:
            return screen.splitlines()
        key = "w" if "[w]" in screen else "Space" if "[␣]" in screen else "Enter" if "[⏎]" in screen else None
        if key:
            tmux("send-keys", "-t", "t", key)
    raise AssertionError("no settlement in time:\n" + tmux.screen())


def _check_box(lines: list[str], wide: bool) -> None:
    w = width_in(wide)
    rows = [line for line in lines if line.startswith("│")]
    assert len(rows) > 10, lines
    borders = {sum(map(w, row[:row.rindex("│")])) for row in rows}
    assert borders == {SIZE[0] - 1}, "\n".join(lines)  # the right border in one column on every row
    win = next(row for row in rows if " + " in row and any(map(is_glyph, row)))
    before = win[:win.index(" + ")]
    tiles = sum(map(is_glyph, before))
    # "│", the padding, two spaces, the hand (each tile two cells), then the first space of "  + "
    assert sum(map(w, before)) == 1 + 1 + 2 + 2 * tiles + 1, win
    assert tiles >= 1


@needs_tmux
def test_the_settlement_box_lines_up_where_glyphs_are_one_cell(tmux_factory: Callable[[dict[str, str]], Tmux],
                                                               tmp_path: Path) -> None:
    lines = _settlement(tmux_factory({}), tmp_path)
    _check_box(lines, wide=False)


@needs_tmux
def test_the_settlement_box_lines_up_where_glyphs_are_two_cells(wide_locale: Path, tmp_path: Path,
                                                                tmux_factory: Callable[[dict[str, str]], Tmux]) -> None:
    tmux = tmux_factory({"LOCPATH": str(wide_locale)})
    lines = _settlement(tmux, tmp_path)
    _check_box(lines, wide=True)


def test_rich_is_told_the_measured_width() -> None:
    from rich import cells
    from rich._unicode_data import load

    table = load("auto").widths
    saved = list(table)
    try:
        assert glyph("1m") == GLYPHS["1m"] + " " and glyph("5z") == GLYPHS["5z"]
        assert adopt(2, 2)
        assert cells.cell_len(GLYPHS["1m"]) == 2 and cells.cell_len(GLYPHS["1f"]) == 2
        assert glyph("1m") == GLYPHS["1m"] and glyph("5z") == GLYPHS["5z"]  # two cells each, unpadded
        assert cells.cell_len("中a") == 3  # nothing else changed
        assert adopt(1, 1)
        assert glyph("5z") == GLYPHS["5z"] + " " and glyph("9p") == GLYPHS["9p"] + " "
    finally:
        table[:] = saved
        cells.get_character_cell_size.cache_clear()
        cells.cached_cell_len.cache_clear()
    assert glyph("1m") == GLYPHS["1m"] + " " and glyph("5z") == GLYPHS["5z"]


def test_set_width_splits_the_ranges_it_crosses() -> None:
    table = [(10, 20, 2), (30, 40, 0)]
    _set_width(table, 15, 35, 1)
    assert table == [(10, 14, 2), (36, 40, 0)]
    _set_width(table, 12, 12, 2)
    assert table == [(10, 11, 2), (12, 12, 2), (13, 14, 2), (36, 40, 0)]
