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


WAITS = [  # (the API's body, the same request as a command line)
    ({"hand": "123m678p999p234s4p", "indicator": "4p"}, ["123m678p999p234s4p", "--indicator", "4p"]),
    ({"hand": "123m46m789m123p55s", "indicator": "1z", "ruleset": "beijing", "dealer": True},
     ["123m46m789m123p55s", "--indicator", "1z", "--rules", "beijing", "--dealer"]),
    ({"hand": "123m456m789m5s", "melds": ["[777p]"], "ruleset": "mcr", "seat_wind": "1"},
     ["123m456m789m5s", "--meld", "[777p]", "--rules", "mcr", "--seat-wind", "1"]),
    ({"hand": "123m456m789m123p5s", "ruleset": "mcr", "indicator": "1z"},
     ["123m456m789m123p5s", "--rules", "mcr", "--indicator", "1z"]),  # refused, as the command refuses it
    ({"hand": "123m456m789m123p5", "indicator": "1z"}, ["123m456m789m123p5", "--indicator", "1z"]),
]


def test_the_waits_api_answers_what_tjmj_waits_json_answers(client: TestClient) -> None:
    tjmj = str(Path(sys.executable).with_name("tjmj"))
    for body, args in WAITS:
        done = subprocess.run([tjmj, "waits", *args, "--json"], capture_output=True, check=False, cwd=ROOT)
        r = client.post("/api/waits", content=orjson.dumps(body), headers={"Content-Type": "application/json"})
        if done.returncode == 0:
            assert r.status_code == 200 and r.json() == orjson.loads(done.stdout), body
            assert r.json()["waits"], body
        else:  # the command's one-line error, without Click's "Error: "
            assert r.status_code == 400, body
            assert done.stderr.decode().strip().splitlines()[-1] == f"Error: {r.json()['error']}", body
    for bad, word in (([1], "object"), ({"hand": "1m", "draw": "1m"}, "draw"), ({"hand": 5}, "hand"),
                      ({"hand": "1m", "melds": "[777m]"}, "melds"), ({"hand": "1m", "ruleset": "chess"}, "chess")):
        r = client.post("/api/waits", content=orjson.dumps(bad), headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and word in r.json()["error"], bad
    assert client.post("/api/waits", content=b"{}", headers={"Content-Type": "text/plain"}).status_code == 415


def test_names_are_added_on_request_only(client: TestClient) -> None:
    line = '{"hand": "1122m3344p5566s7z", "draw": "7z", "ruleset": "mcr", "self_drawn": true}'
    plain = client.post("/api/score", content=line.encode(), headers={"Content-Type": "application/json"}).json()
    named = client.post("/api/score?names=true", content=line.encode(), headers={"Content-Type": "application/json"}).json()
    assert "names" not in plain and named.pop("names") and named == plain
