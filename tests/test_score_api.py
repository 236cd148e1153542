"""``POST /api/score`` (issue 32, part 2) answers exactly what ``tjmj score --batch`` answers for the
same line, in every family: the batch lines of docs/cli.md (Tianjin, Beijing, MCR) and bad lines,
sent to the API one by one and to the command as one file; a bad line is the batch's one-line
error with status 400."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from starlette.testclient import TestClient

from tests.test_accounts import LOOSE
from tjmj.web.app import create_app
from tjmj.web.store import Store

ROOT = Path(__file__).resolve().parents[1]
BAD = [
    '{"hand": "123m456m789m123p5", "draw": "5s"}',  # a tile without its suit
    '{"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "chess"}',
    '{"hand": "11111m", "draw": "1m"}',  # a fifth copy
    '[1, 2]',
    '{"hand": "123m456m789m123p5s"',  # not JSON
]


def _doc_lines() -> list[str]:
    lines = [ln for ln in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").splitlines()
             if re.match(r'^\{"hand"', ln)]
    assert {f for ln in lines for f in ("beijing", "mcr") if f'"{f}' in ln} == {"beijing", "mcr"}
    return lines


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('score') / 's.sqlite3'}")
    with TestClient(create_app(store, limits=LOOSE)) as c:
        yield c  # type: ignore[misc]
    store.close()


@pytest.mark.parametrize("arrangement", [True, False])
def test_the_api_answers_what_the_batch_answers_for_every_line(client: TestClient, tmp_path: Path,
                                                               arrangement: bool) -> None:
    lines = _doc_lines() + BAD
    batch = tmp_path / "lines.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tjmj = str(Path(sys.executable).with_name("tjmj"))  # the installed command
    cmd = [tjmj, "score", "--batch", str(batch), *([] if arrangement else ["--no-arrangement"])]
    out = subprocess.run(cmd, capture_output=True, check=False, cwd=ROOT).stdout.decode().splitlines()
    assert len(out) == len(lines)
    scored: set[str] = set()
    for line, expected in zip(lines, out, strict=True):
        r = client.post("/api/score" + ("" if arrangement else "?arrangement=false"), content=line.encode(),
                        headers={"Content-Type": "application/json"})
        want = orjson.loads(expected)
        assert r.json() == want, line
        assert r.status_code == (400 if "error" in want else 200), line
        if "error" not in want:
            scored.add(next((f for f in ("beijing", "mcr") if f in line), "tianjin"))
        else:
            assert "\n" not in want["error"]  # one line
    assert scored == {"tianjin", "beijing", "mcr"}  # hands of every family scored, not only refused
    assert all("error" in orjson.loads(o) for o in out[-len(BAD):])


def test_the_score_route_checks_its_request(client: TestClient) -> None:
    line = _doc_lines()[0]
    r = client.post("/api/score", content=line.encode(), headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/score?arrangement=maybe", content=line.encode(), headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "arrangement" in r.json()["error"]
    r = client.post("/api/score", content=b"{" + b" " * 20000 + b"}", headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/score").status_code == 405
