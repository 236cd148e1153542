"""The help and the docs name the three families this version plays (issue 34 item 9): Tianjin,
Beijing and MCR, with the presets of each; the README says which Python the project needs.

tests/test_docs.py runs the docs' code blocks and checks their links; these check what they say.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from tjmj.cli import main
from tjmj.families import all_families
from tjmj.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent


def _help(*args: str) -> str:
    out = CliRunner().invoke(main, [*args, "--help"], terminal_width=200)
    assert out.exit_code == 0, out.output
    return " ".join(out.output.split())  # one line: Click wraps at the terminal's width


def test_tjmj_help_names_every_family_and_its_rules_file() -> None:
    text = _help()
    for word in ("Tianjin", "Beijing", "MCR", "RULES.md", "BEIJING.md", "MCR.md"):
        assert word in text, word


def test_rules_help_names_every_preset_by_family_and_each_section_letter() -> None:
    text = _help("rules")
    option = text[text.index("--rules"):]
    for name in PRESETS:
        assert name in option
    assert "mcr: MCR" in option and "beijing, beijing_a: Beijing" in option
    assert "M… for MCR" in text and "B… for Beijing" in text and "R… for Tianjin" in text


@pytest.mark.parametrize("command", ["serve", "replay"])
def test_the_web_table_and_the_replay_are_for_every_family(command: str) -> None:
    text = _help(command)
    for word in ("Tianjin", "Beijing", "MCR"):
        assert word in text, (command, word)


def test_the_rules_readme_says_every_family_is_implemented() -> None:
    text = (ROOT / "docs/rules/README.md").read_text()
    assert "not yet implemented" not in text and "not implemented" not in text
    for family in all_families():
        for preset in family.presets:
            assert f"`{preset}`" in text, preset


def test_the_readme_says_which_python() -> None:
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = re.fullmatch(r">=\s*(\d+\.\d+)", requires)
    assert version is not None, requires
    head = (ROOT / "README.md").read_text()[:2000]  # said before the first command is run
    assert f"Python {version.group(1)} or newer" in head


def test_the_mcr_settlement_names_are_described_as_the_table_shows_them() -> None:
    """In Chinese the MCR settlement shows each fan's Chinese name only (the family's win.js, mcrWin)."""
    web = " ".join((ROOT / "docs/web.md").read_text().split())
    table = (ROOT / "src/tjmj/families/mcr/static/win.js").read_text()
    assert "zh ? f.chinese : [`${f.english} (`" in table  # what the page does …
    assert "lists each fan (in Chinese, its Chinese name; in English, its English name with the Chinese" in web
    assert "lists each fan (Chinese and English name" not in web  # … and not what the docs said
