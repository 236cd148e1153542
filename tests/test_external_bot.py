"""Outside bots over the JSON-lines protocol (tjmj.bots.external, docs/bot-protocol.md)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tjmj.bots.external import BotStartError, ExternalBot, safe_default
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


def test_missing_program_raises_instead_of_a_crash() -> None:
    """A program that cannot be started is a wrong bot name, not a crash: BotStartError (a ValueError
    and an OSError) at construction, naming the bot and the problem (it used to count as a crash)."""
    for argv, problem in ((["/nonexistent/bot-program"], "no such file"),
                          (["no-such-program-xyz"], "'no-such-program-xyz' is not found on PATH")):
        with pytest.raises(BotStartError, match=problem) as info:
            ExternalBot(argv)
        assert isinstance(info.value, ValueError) and isinstance(info.value, OSError)
        assert "cannot start the outside bot 'cmd:" in str(info.value)
    with pytest.raises(BotStartError, match="no-such-program-xyz"):
        ExternalBot("no-such-program-xyz --flag")


def test_python_where_only_python3_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cmd:python ...` on a system with only python3: refused with a hint, not played as a crash."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(bindir))
    with pytest.raises(BotStartError, match=r"'python' is not found on PATH \(did you mean python3\?\)"):
        ExternalBot("python examples/bots/simple_bot.py")
    ExternalBot("python3 examples/bots/simple_bot.py").close()  # found: nothing is started yet


def test_a_program_the_system_refuses_raises(tmp_path: Path) -> None:
    """Found and executable, but not runnable (a script without a #! line): the first start raises
    BotStartError in the match instead of counting a crash."""
    script = tmp_path / "no_shebang.py"
    script.write_text("print('hi')\n")
    script.chmod(0o755)
    bot = ExternalBot([str(script)])
    with pytest.raises(BotStartError, match="no_shebang.py"):
        _one_hand(bot)
    assert not bot.errors  # not a crash


def test_not_executable_file_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("")
    with pytest.raises(BotStartError, match="is not executable"):
        ExternalBot([str(script)])


def recorder(tmp_path: Path, answer: str) -> tuple[Path, Path]:
    """An outside bot that writes every line it receives to a log and answers each request with
    ``answer`` (a Python expression over ``msg``): (the log, the script)."""
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "recorder.py"
    script.write_text(
        "import json, sys\n"
        f"out = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    out.write(line); out.flush()\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'request':\n"
        f"        print(json.dumps({answer}), flush=True)\n"
    )
    return log, script


def test_the_bot_sees_only_what_its_seat_may_see(tmp_path: Path) -> None:
    log, script = recorder(tmp_path, "{'type': 'action', 'id': msg['id'], 'action': msg['legal'][0]}")
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
    # never sit or pull above 0 (R7): the safe default used to take "sit 1", the first legal action
    assert str(safe_default([Action.parse("sit 1"), Action.parse("sit 0")], {})) == "sit 0"
    assert str(safe_default([Action.parse(f"pull {n}") for n in range(3)], {})) == "pull 0"


def test_empty_command_is_refused() -> None:
    with pytest.raises(ValueError):
        ExternalBot("   ")
    with pytest.raises(ValueError):
        ExternalBot("python3 bot.py", timeout=0)


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


# ---- safe fallbacks on the dealer's first turn and after a pon (drawn is null) ----------------------

# indicator 9m: the wilds are 9m and 1m, the lowest kinds, so "the first discard" is a wild (R2)
_FIRST_TURN = dict(hands={0: "2222p345p678s11z1m9m"}, indicator="9m")  # complete: 天胡 (R5.5) and ankong 2p


def _simple_bot() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("simple_bot", ROOT / "examples" / "bots" / "simple_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _dealer_first_turn() -> tuple[Match, int]:
    from .scripted import script_wall, scripted_match

    m = scripted_match(CLASSIC.replace(match_hands=1), script_wall(0, **_FIRST_TURN))  # type: ignore[arg-type]
    return m, 0


def _after_a_pon() -> tuple[Match, int]:
    from .scripted import play as play_steps
    from .scripted import script_wall, scripted_match

    m = scripted_match(CLASSIC.replace(match_hands=1), script_wall(0, {0: "6z", 2: "66z1m"}, indicator="9m"))
    play_steps(m, "0 discard 6z", "2 pon 6z")
    return m, 2


def _is_safe(choice: str, legal: list[str], wilds: list[str]) -> bool:
    plain = [a for a in legal if a.startswith("discard ") and a.split()[1] not in wilds]
    return choice in plain


@pytest.mark.parametrize("situation", ["dealer_first_turn", "after_a_pon"])
def test_safe_fallbacks_when_drawn_is_null(situation: str) -> None:
    """docs/bot-protocol.md: `drawn` is null on the dealer's first turn and after a pon, where the first
    legal action is a kong, a win or a wild discard.  The engine's safe default and the example bot's
    fallback must take a plain (non-wild) discard there (they used to take the first legal action)."""
    m, seat = _dealer_first_turn() if situation == "dealer_first_turn" else _after_a_pon()
    obs = m.observation(seat)
    legal = m.legal_actions(seat)
    texts = [str(a) for a in legal]
    assert obs["drawn"] is None and obs["phase"] == "turn"
    assert obs["wilds"] == ["9m", "1m"]
    if situation == "dealer_first_turn":
        assert texts[:2] == ["ankong 2p", "win"] and {"discard 1m", "discard 9m"} <= set(texts)
    else:
        assert texts[0] == "discard 1m" and "ankong" not in " ".join(texts) and "win" not in texts
    engine = str(safe_default(legal, obs))
    example = _simple_bot().safe(texts, json.loads(json.dumps(obs)))
    for choice in (engine, example):
        assert _is_safe(choice, texts, obs["wilds"]), choice
    m.apply(seat, engine)  # and it is legal


def test_safe_default_prefers_the_drawn_tile_unless_wild() -> None:
    legal = [Action.parse(t) for t in ("ankong 3p", "win", "discard 1m", "discard 3p", "discard 7s", "discard 8s")]
    obs = {"wilds": ["1m", "2m"], "hand": ["1m", "3p", "3p", "3p", "3p", "7s", "8s"], "drawn": "7s"}
    assert str(safe_default(legal, obs)) == "discard 7s"
    obs["drawn"] = "1m"  # a drawn wild is kept: the most isolated plain tile goes instead
    assert str(safe_default(legal, obs)) == "discard 7s"  # 7s and 8s touch (3 each), 3p is a kong (12)
    only_wilds = [Action.parse(t) for t in ("ankong 1m", "discard 1m")]
    assert str(safe_default(only_wilds, {"wilds": ["1m"], "hand": ["1m"] * 4})) == "ankong 1m"  # nothing plain


def test_example_bot_safe_matches_the_rules() -> None:
    bot = _simple_bot()
    assert bot.safe(["sit 1", "sit 0"], {}) == "sit 0"
    assert bot.safe(["pull 0", "pull 1"], {}) == "pull 0"
    assert bot.safe(["pon 5m", "kong 5m", "pass"], {}) == "pass"
    obs = {"wilds": ["1m", "2m"], "hand": ["1m", "5p", "7s", "8s"], "drawn": "8s"}
    assert bot.safe(["win", "discard 1m", "discard 5p", "discard 7s", "discard 8s"], obs) == "discard 8s"
    obs["drawn"] = None
    assert bot.safe(["win", "discard 1m", "discard 5p", "discard 7s", "discard 8s"], obs) == "discard 5p"


# ---- the documented messages are the messages sent ------------------------------------------------


def _doc_tables() -> dict[str, list[list[tuple[str, str]]]]:
    """docs/bot-protocol.md: per ``### `` section, its tables as (first cell's `name`, rest of the row)."""
    import re

    text = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    out: dict[str, list[list[tuple[str, str]]]] = {}
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        tables: list[list[tuple[str, str]]] = []
        rows: list[tuple[str, str]] | None = None
        for line in body.splitlines():
            if line.startswith("|"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                name = re.fullmatch(r"`([^`]+)`", cells[0])
                if rows is None:
                    rows = []
                    tables.append(rows)
                if name:
                    rows.append((name.group(1), " | ".join(cells[1:])))
            else:
                rows = None
        out[title.strip()] = tables
    return out


def _names(cell: str) -> set[str]:
    import re

    return set(re.findall(r"`([a-z_]+)`", cell))


def test_documented_fields_are_the_fields_sent(tmp_path: Path) -> None:
    """Every field of hello, the events, request, the observation (and seats[i]) and end, as
    docs/bot-protocol.md lists them, equals what a real outside bot receives: the doc cannot drift."""
    from tjmj.families.tianjin.records import EVENT_FIELDS

    log, script = recorder(tmp_path, "{'type': 'none', 'id': msg['id']}")
    bot = ExternalBot([sys.executable, str(script)])
    try:
        play(CLASSIC.replace(match_hands=3), 4, [bot, *(_baseline() for _ in range(3))])
    finally:
        bot.close()
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    docs = _doc_tables()

    def fields(title: str, table: int = 0) -> set[str]:
        return {name for name, _ in docs[title][table]}

    hello = msgs[0]
    assert hello["type"] == "hello" and set(hello) == fields("`hello`")
    assert msgs[-1] == {"type": "end"}
    requests = [x for x in msgs if x["type"] == "request"]
    assert requests and all(set(r) == fields("`request`") for r in requests)
    obs_rows = docs["The observation"][0]
    always = {n for n, rest in obs_rows if "*turn/claim:*" not in rest}
    dealt = {n for n, rest in obs_rows if "*turn/claim:*" in rest}
    phases = set()
    for r in requests:
        obs = r["observation"]
        phases.add(obs["phase"])
        expected = always | dealt if obs["phase"] in ("turn", "claim") else always
        assert set(obs) == expected, obs["phase"]
        assert obs["legal_actions"] == r["legal"] and obs["to_act"] == obs["seat"] == hello["seat"]
        for st in obs.get("seats", []):
            assert set(st) == fields("The observation", 1)
    assert {"turn", "pull"} <= phases or {"turn", "sit"} <= phases
    documented = {name: _names(rest) for name, rest in docs["Game events"][0]}
    assert set(documented) == set(EVENT_FIELDS)
    seen: dict[str, set[str]] = {}
    for x in msgs:
        if x["type"] in EVENT_FIELDS:
            assert set(x) == documented[x["type"]], x["type"]
            seen.setdefault(x["type"], set(x))
    assert {"start_game", "start_kyoku", "tsumo", "dahai", "end_kyoku", "end_game"} <= set(seen)
    for t, required in EVENT_FIELDS.items():  # types this match did not show: at least the record's fields
        assert set(required) | {"type"} <= documented[t], t


# ---- Beijing: the same protocol, its own actions, events and observation (docs/bot-protocol.md) ------


def test_documented_beijing_fields_are_the_fields_sent(tmp_path: Path) -> None:
    """The Beijing section of docs/bot-protocol.md (its events, the observation, seats[i], the action
    words) equals what an outside bot receives in matches of both Beijing presets."""
    from tjmj.bots import make_bot
    from tjmj.families.beijing.records import EVENT_FIELDS as BEIJING_EVENT_FIELDS
    from tjmj.rules import Rules

    actions, events, obs_rows, seat_rows = _doc_tables()["Beijing"]
    documented = {name: _names(rest) for name, rest in events}
    optional = {"dahai": {"hunyou"}}  # only on a 混儿悠 discard
    assert set(documented) == set(BEIJING_EVENT_FIELDS)
    for t, required in BEIJING_EVENT_FIELDS.items():
        assert set(required) | {"type"} <= documented[t], t
    obs_fields = {n for n, _ in obs_rows}
    seat_fields = {n for n, _ in seat_rows}
    verbs = {name.split()[0] for name, _ in actions} | {"discard", "ankong", "added_kong", "kong", "pon", "pass"}
    phases: set[str] = set()
    seen: set[str] = set()
    for preset, seed in (("beijing", 4), ("beijing_a", 5)):
        log, script = recorder(tmp_path, "{'type': 'none', 'id': msg['id']}")
        bot = ExternalBot([sys.executable, str(script)])
        try:
            play(Rules.preset(preset, match_hands=3), seed, [bot, make_bot("strong"), make_bot("baseline"),
                                                             make_bot("greedy")])
        finally:
            bot.close()
        msgs = [json.loads(x) for x in log.read_text().splitlines()]
        hello = msgs[0]
        assert set(hello) == {n for n, _ in _doc_tables()["`hello`"][0]} and hello["rules"]["family"] == "beijing"
        for x in msgs:
            if x["type"] in documented:
                assert documented[x["type"]] - optional.get(x["type"], set()) <= set(x) <= documented[x["type"]], x
                seen.add(x["type"])
        requests = [x for x in msgs if x["type"] == "request"]
        assert requests and bot.errors == {}
        for r in requests:
            obs = r["observation"]
            phases.add(obs["phase"])
            assert set(obs) == obs_fields, obs["phase"]
            assert all(set(st) == seat_fields for st in obs["seats"])
            assert {a.split()[0] for a in r["legal"]} <= verbs
            if obs["phase"] != "turn":
                assert obs["window"]["kind"] == ("rob" if obs["phase"] == "rob" else "discard")
                assert obs["window"]["waiting"][0] == obs["seat"] and "pass" in r["legal"]
    assert {"turn", "claim"} <= phases
    assert {"start_game", "start_kyoku", "tsumo", "dahai", "hora", "end_kyoku", "end_game"} <= seen


def _beijing(rules_kw: dict[str, Any] | None = None, **wall_kw: Any) -> Match:
    from tjmj.rules import Rules

    from .scripted import script_wall

    w = script_wall(wall_kw.pop("dealer", 0), wall_kw.pop("hands", {}), wild_method="tail",
                    indicator=wall_kw.pop("indicator", "7z"), **wall_kw)
    return Match(Rules.preset("beijing", match_hands=1, **(rules_kw or {})), 1, walls=[w])


def _safe_both(m: Match) -> tuple[str, str]:
    seat = m.to_act
    obs = json.loads(json.dumps(m.observation(seat)))
    legal = m.legal_actions(seat)
    return str(safe_default(legal, obs)), _simple_bot().safe([str(a) for a in legal], obs)


def test_safe_defaults_in_beijing_never_win_claim_or_declare() -> None:
    """docs/bot-protocol.md: in a Beijing claim or rob window the safe default (the engine's and the
    example bot's) passes; on a turn where 混杠, a win and 混儿悠 are legal it discards a plain tile."""
    from .scripted import draw_until
    from .scripted import play as play_steps

    # a claim window with win and chi on offer (seat 1 is the dealer's 下家)
    m = _beijing(hands={0: "3m", 1: "12m456p789p11s78s5z"}, avoid="3m")
    play_steps(m, "0 discard 3m")
    texts = [str(a) for a in m.legal_actions(1)]
    assert "win" in texts and "chi 1m" in texts
    assert _safe_both(m) == ("pass", "pass")
    # a rob window
    m = _beijing(hands={0: "7p", 1: "7p7p", 2: "123m456m789m1s1s8p9p"}, draws={3: "7p"}, avoid="7p")
    play_steps(m, "0 discard 7p", "1 pon 7p", "2 pass")
    play_steps(m, f"1 {next(a for a in map(str, m.legal_actions(1)) if a.startswith('discard') and a != 'discard 7p')}")
    draw_until(m, 4)
    play_steps(m, "1 added_kong 7p")
    assert m.phase == "rob" and _safe_both(m) == ("pass", "pass")
    # a turn with 混杠, a win and 混儿悠 legal: a plain discard (the drawn tile is a wild: not it)
    m = _beijing(hands={1: "123m456m789m1p5z5z5z"}, draws="5z")
    while m.to_act != 1 or m.phase != "turn":
        seat = m.to_act
        play_steps(m, f"{seat} {safe_default(m.legal_actions(seat), m.observation(seat))}")
    texts = [str(a) for a in m.legal_actions(1)]
    assert {"hungang", "win"} <= set(texts) and any(t.startswith("hunyou") for t in texts)
    engine, example = _safe_both(m)
    for choice in (engine, example):
        assert choice.startswith("discard ") and choice != "discard 5z", choice
    m.apply(1, engine)


def test_safe_default_discards_a_wild_in_beijing_when_nothing_else_is_left() -> None:
    """Where every discard is a wild, Beijing's safe default discards one (no penalty there, B2): never
    the win or the kong that comes first in the legal actions."""
    legal = [Action.parse(t) for t in ("win", "discard 5z")]
    obs = {"upstairs": False, "wilds": ["5z"], "hand": ["5z", "5z"], "drawn": "5z"}
    assert str(safe_default(legal, obs)) == "discard 5z"
    assert _simple_bot().safe(["win", "discard 5z"], obs) == "discard 5z"
    tianjin = {k: v for k, v in obs.items() if k != "upstairs"}
    assert str(safe_default(legal, tianjin)) == "win"  # Tianjin: unchanged (a wild discard is 小相公, R2)


@pytest.mark.parametrize("preset", ["beijing", "beijing_a"])
def test_simple_bot_plays_a_beijing_tournament_without_errors(preset: str) -> None:
    from tjmj.rules import Rules

    r = tournament([SIMPLE, "baseline", "random", "strong"], hands=16, seed=1, match_hands=4, workers=2,
                   rules=Rules.preset(preset))
    s = r.stats[SIMPLE].to_dict()
    assert r.family == "beijing" and s["hands"] == 16 and s["decisions"] > 50
    assert s["errors"] == 0 and s["defaults"] == 0 and s["claims"] == 0  # it never chis or pons
    assert sum(v.points for v in r.stats.values()) == 0
