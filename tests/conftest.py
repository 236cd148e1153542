"""Fixtures shared by the browser tests: one Debian Chromium per test module (Playwright's own
browser downloads are not reachable; ./test installs chromium with apt)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.ui_helpers import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: ./test installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
