"""Outside bots over the JSON-lines protocol (tjmj.bots.external, docs/bot-protocol.md)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tjmj.bots.external import ExternalBot, safe_default
from tjmj.game import Action, Match
from tjmj.rules import CLASSIC
from tjmj.tournament import play, tournament

ROOT = Path(__file__).resolve().parent.parent
SIMPLE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'bots' / 'simple_bot.py'))}"

# the start of every misbehaving bot: read lines, answer requests with answer(msg, n)
_LOOP = '''
import json, sys, time
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "request":
        continue
    n += 1
    answer(msg, n)
    sys.stdout.flush()
'''

BOTS = {
    "garbage": "def answer(msg, n):\n    print('this is not json {')\n",
    "illegal": "def answer(msg, n):\n    print(json.dumps({'type': 'action', 'action': 'pull 7'}))\n",
    "wrongtype": "def answer(msg, n):\n    print(json.dumps({'type': 'hello'}))\n",
    "sleepy": ("def answer(msg, n):\n    if n > 1:\n        time.sleep(30)\n"
               "    print(json.dumps({'type': 'none'}))\n"),
    "crash": "def answer(msg, n):\n    if n == 3:\n        sys.exit(3)\n    print(json.dumps({'type': 'none'}))\n",
}


def _script(tmp_path: Path, kind: str) -> str:
    path = tmp_path / f"{kind}_bot.py"
    path.write_text(BOTS[kind] + _LOOP)
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def _one_hand(bot: ExternalBot) -> Match:
    try:
        return play(CLASSIC.replace(match_hands=1), 4, [bot, *(_baseline() for _ in range(3))])
    finally:
        bot.close()


def _baseline() -> Any:
    from tjmj.bots import make_bot
    return make_bot("baseline")


def test_simple_bot_plays_a_tournament_without_errors() -> None:
    r = tournament([SIMPLE, "baseline", "random", "baseline"], hands=16, seed=1, match_hands=4, workers=2)
    s = r.stats[SIMPLE].to_dict()
    assert r.hands == 16 and s["hands"] == 16
    assert s["decisions"] > 50 and s["errors"] == 0 and s["defaults"] == 0
    assert sum(v.points for v in r.stats.values()) == 0


@pytest.mark.parametrize("kind", ["garbage", "illegal", "wrongtype"])
def test_bad_answers_get_the_safe_default(tmp_path: Path, kind: str) -> None:
    bot = ExternalBot(_script(tmp_path, kind)[4:], timeout=2.0)
    m = _one_hand(bot)
    assert m.is_over
    err = "illegal" if kind == "illegal" else "garbage"
    assert bot.decisions > 5 and bot.errors[err] == bot.decisions == bot.defaults
    assert sum(bot.errors.values()) == bot.decisions


def test_timeouts_get_the_safe_default(tmp_path: Path) -> None:
    bot = ExternalBot(_script(tmp_path, "sleepy")[4:], timeout=0.05)
    m = _one_hand(bot)
    assert m.is_over
    assert bot.errors["timeout"] == bot.decisions - 1 > 3 and bot.defaults == bot.decisions
    assert not bot.dead


def test_a_crash_is_counted_once_and_the_default_plays_on(tmp_path: Path) -> None:
    bot = ExternalBot(_script(tmp_path, "crash")[4:], timeout=2.0)
    proc_holder: list[Any] = []
    orig_start = bot._start

    def start() -> None:
        orig_start()
        if bot._proc is not None and not proc_holder:
            proc_holder.append(bot._proc)

    bot._start = start  # type: ignore[method-assign]
    m = _one_hand(bot)
    assert m.is_over and bot.dead
    assert dict(bot.errors) == {"crash": 1}
    assert bot.defaults == bot.decisions > 3
    assert proc_holder and proc_holder[0].poll() is not None  # the process is gone


def test_errors_are_counted_in_the_tournament(tmp_path: Path) -> None:
    bad = _script(tmp_path, "garbage")
    crash = _script(tmp_path, "crash")
    r = tournament([bad, crash, "baseline", "random"], hands=8, seed=2, match_hands=2, timeout=2.0)
    g, c = r.stats[bad].to_dict(), r.stats[crash].to_dict()
    assert g["errors"] == g["errors_by_kind"]["garbage"] == g["decisions"] > 0
    assert c["errors_by_kind"]["crash"] == 4  # once per match: one match per rotation
    assert c["errors"] == 4 and c["defaults"] == c["decisions"]  # its two answers were "none"
    assert r.stats["baseline"].to_dict()["errors"] == 0
    assert sum(v.points for v in r.stats.values()) == 0


def test_missing_program_is_a_crash() -> None:
    bot = ExternalBot(["/nonexistent/bot-program"])
    m = _one_hand(bot)
    assert m.is_over and dict(bot.errors) == {"crash": 1} and bot.defaults == bot.decisions


def test_the_bot_sees_only_what_its_seat_may_see(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "recorder.py"
    script.write_text(
        "import json, sys\n"
        f"out = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    out.write(line); out.flush()\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'request':\n"
        "        print(json.dumps({'type': 'action', 'id': msg['id'], 'action': msg['legal'][0]}), flush=True)\n"
    )
    bot = ExternalBot([sys.executable, str(script)])
    m = _one_hand(bot)
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    hello = msgs[0]
    assert hello["type"] == "hello" and hello["rules"]["match_hands"] == 1 and hello["protocol"] == 1
    seat = hello["seat"]
    assert m.seating[seat] == 0  # player 0 is the outside bot
    assert msgs[-1] == {"type": "end"} and msgs[-2]["type"] == "end_game"
    deal = next(x for x in msgs if x["type"] == "start_kyoku")
    assert deal["tehais"][seat] is not None and all(deal["tehais"][s] is None for s in range(4) if s != seat)
    assert "wall" not in deal and deal["hand_sizes"][seat] in (13, 14)
    draws = [x for x in msgs if x["type"] == "tsumo"]
    assert any(d["actor"] != seat for d in draws) and any(d["actor"] == seat for d in draws)
    assert all((d["pai"] is None) == (d["actor"] != seat) for d in draws)
    requests = [x for x in msgs if x["type"] == "request"]
    assert [x["id"] for x in requests] == list(range(1, len(requests) + 1)) and len(requests) == bot.decisions
    assert all(x["observation"]["seat"] == seat and x["legal"] for x in requests)
    # every event of the match reached the bot exactly once, in order
    assert [x["type"] for x in msgs if x["type"] not in ("hello", "request", "end")] == [e["type"] for e in m.events]


def test_unbound_use_as_a_plain_bot() -> None:
    """Without bind(): the bot gets a hello from the observation and requests only (how `simulate` would use it)."""
    import random
    with ExternalBot(SIMPLE[4:]) as bot:
        m = Match(CLASSIC.replace(match_hands=1), 9)
        while not m.is_over:
            seat = m.to_act
            legal = m.legal_actions(seat)
            m.apply(seat, bot.choose(m.observation(seat), legal, random.Random(0)))
        assert bot.errors == {} and bot.defaults == 0


def test_safe_default() -> None:
    legal = [Action.parse(t) for t in ("pon 5m", "pass")]
    assert str(safe_default(legal, {})) == "pass"
    legal = [Action.parse(t) for t in ("discard 1m", "discard 5m", "win")]
    assert str(safe_default(legal, {"drawn": "5m"})) == "discard 5m"
    assert str(safe_default(legal, {"drawn": None})) == "discard 1m"
    assert str(safe_default([Action.parse("sit 1"), Action.parse("sit 0")], {})) == "sit 1"


def test_empty_command_is_refused() -> None:
    with pytest.raises(ValueError):
        ExternalBot("   ")
    with pytest.raises(ValueError):
        ExternalBot("python bot.py", timeout=0)


def test_simulate_runs_an_outside_bot_and_its_records_replay(tmp_path):
    """`--bots cmd:...` works in self-play too: the example bot's process is bound to its seat, ended
    after the match, and the record replays (issue 5 item 4)."""
    from tjmj.record import read_records, replay
    from tjmj.rules import Rules
    from tjmj.simulate import simulate

    example = Path(__file__).resolve().parent.parent / "examples" / "bots" / "simple_bot.py"
    cmd = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(example))}"
    out = tmp_path / "ext.jsonl"
    summary = simulate(hands=8, seed=5, rules=Rules.preset("classic"), bots=[cmd, "baseline", "baseline", "baseline"],
                       out=out, hands_per_match=8)
    assert summary.hands == 8
    (events,) = list(read_records(out))
    assert replay(events).ok
