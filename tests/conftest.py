"""Fixtures shared by the tests: one Debian Chromium per test module for the browser tests
(Playwright's own browser downloads are not reachable; ./test installs chromium with apt), and the
lock that gives one test at a time the throwaway PostgreSQL database (``./test`` runs the tests in
parallel processes, pytest-xdist)."""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def postgres_lock() -> Iterator[None]:
    """Hold the one PostgreSQL test database (``TJMJ_TEST_POSTGRES_URL``) alone: test_store and
    test_stats drop its tables, and with ``pytest -n`` they may run at once in two processes."""
    with open(Path(tempfile.gettempdir()) / "tjmj-test-postgres.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)  # released when the file is closed
        yield
