"""Deals anyone can verify (issue 31, part 5; docs/records.md "A deal committed before it is dealt").

The web table shows a commitment to the match seed before the first deal, keeps the salt secret
while the match is played, reveals it when the match is over, and ``tjmj verify`` checks a finished
record against both: every wall from the seed, the seed the one committed to.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import orjson
from starlette.testclient import TestClient

from tests.test_web import is_settlement, play
from tjmj.deal import commitment, verify
from tjmj.web.app import create_app
from tjmj.web.limits import Limits
from tjmj.web.store import Store

CLI = [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())", "verify"]


def _finished_match(tmp_path: Path) -> tuple[str, dict, list[dict]]:  # type: ignore[type-arg]
    store = Store(f"sqlite:///{tmp_path / 'deal.sqlite3'}")
    try:
        with TestClient(create_app(store, bot_delay=0, limits=Limits(post_burst=100, post_rate=100.0))) as client:
            made = client.post("/api/rooms", json={"name": "Ann", "match_hands": 1}).json()
            shown = client.get(f"/api/rooms/{made['room']}").json()["deal_commitment"]  # before the first deal
            assert isinstance(shown, str) and len(shown) == 64
            started = client.post(f"/api/rooms/{made['room']}/start", json={"token": made["token"]}).json()
            while_played = client.get(f"/api/matches/{started['match_id']}").json()["settings"]["deal"]
            assert while_played == {"commitment": shown}  # the salt stays secret while it is played
            with client.websocket_connect(f"/ws/{made['room']}") as ws:
                ws.send_json({"type": "hello", "token": made["token"]})
                play(ws, lambda m: is_settlement(m) and m["over"])
            for _ in range(100):  # the match is marked finished just after its last settlement is sent
                got = client.get(f"/api/matches/{started['match_id']}").json()
                if got["status"] != "playing":
                    break
                time.sleep(0.1)
            assert got["status"] == "finished"
            revealed = got["settings"]["deal"]
            record = client.get(f"/api/matches/{started['match_id']}/record").text
    finally:
        store.close()
    return shown, revealed, [orjson.loads(line) for line in record.splitlines()]


def test_the_commitment_shown_before_the_deal_is_to_the_seed_the_record_reveals(tmp_path: Path) -> None:
    shown, revealed, events = _finished_match(tmp_path)
    assert revealed["commitment"] == shown and len(revealed["salt"]) == 32
    assert commitment(events[0]["seed"], revealed["salt"]) == shown
    assert verify(events, shown, revealed["salt"]) == []
    # another seed (an arranged deal) is caught both ways: not the committed seed, walls not from it
    forged = [{**events[0], "seed": events[0]["seed"] + 1}, *events[1:]]
    problems = verify(forged, shown, revealed["salt"])
    assert any("not to this record's seed" in p for p in problems)
    assert any("does not replay" in p for p in problems)
    path = tmp_path / "match.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(e) for e in events) + b"\n")
    ok = subprocess.run([*CLI, str(path), "--commitment", shown, "--salt", revealed["salt"]],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 1 hands") and "committed to" in ok.stdout
    bad = subprocess.run([*CLI, str(path), "--commitment", "0" * 64, "--salt", revealed["salt"]],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "FAIL: the commitment is not to this record's seed" in bad.stderr
    half = subprocess.run([*CLI, str(path), "--commitment", shown], capture_output=True, text=True, timeout=120)
    assert half.returncode == 1 and "both the commitment and the salt" in half.stderr
    missing = subprocess.run([*CLI, str(tmp_path / "nope.jsonl")], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
