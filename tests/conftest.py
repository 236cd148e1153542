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


# The files that take longest (CI's timings, 2026-12-07), collected first: pytest-xdist's
# --dist loadfile hands out files in collection order to whichever process is free, so starting
# the long ones first keeps one from running alone at the end while the other processes idle.
LONG_FIRST = ("test_strong_bot", "test_reference", "test_beijing_bots", "test_expert_bot", "test_docs",
              "test_reliability", "test_cluster", "test_table_issue34", "test_mcr_bots", "test_beijing_reference",
              "test_e2e", "test_ray", "test_e2e_whole_match", "test_store")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(LONG_FIRST)))  # stable: file order kept otherwise
