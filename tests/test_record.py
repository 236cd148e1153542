"""Match records (docs/records.md): JSON-lines files, replay against the engine, the move list, ``tjmj replay``.

Records are generated here by playing matches with a small legal policy (the project's bots
live elsewhere): take ``win`` whenever legal so that hands end in wins (R5), otherwise discard
to lower shanten, follow the dealer's first discard (so that 铲 happens, R7), sometimes discard
at random (wild discards: 小相公 and its penalty, R2), kong often (R6) and claim at random (R4).
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tjmj import record as record_mod
from tjmj.cli.replay import replay as replay_cmd
from tjmj.families.tianjin.records import EVENT_FIELDS
from tjmj.game import Action, Match
from tjmj.hand import shanten_counts
from tjmj.record import (
    RecordError,
    RecordWriter,
    check_end_kyoku,
    check_hora,
    read_records,
    rebuild,
    replay,
    show,
    write_record,
)
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT, Tile
from tjmj.wall import Dice

Events = list[dict[str, Any]]

# The rule sets of the brief: yiyou, and classic with 锅牌, 翻混儿, two pulls and the wild penalty (R2, R3, R7, R8)
RULESETS: dict[str, Rules] = {
    "classic8": Rules.preset("classic", match_hands=8),
    "yiyou8": Rules.preset("yiyou", match_hands=8),
    "pot8": Rules.preset("classic", settlement="pot", wild_method="flip", max_pull=2, wild_discard_penalty=1,
                         match_hands=8),
}


def bot(m: Match, rng: random.Random) -> Action:
    """A cheap legal policy that reaches wins, kongs, claims, 铲 and wild discards."""
    seat = m.to_act
    legal = m.legal_actions(seat)
    for a in legal:
        if a.type == "win":
            return a
    if m.phase != "turn":
        return rng.choice(legal)  # sit / pull / claim choices at random
    kongs = [a for a in legal if a.type in ("ankong", "added_kong")]
    if kongs and rng.random() < 0.7:
        return rng.choice(kongs)
    discards = [a for a in legal if a.type == "discard"]
    if rng.random() < 0.03:
        return rng.choice(discards)  # now and then a careless discard, wilds included (R2)
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    wilds = {Tile.parse(t) for t in obs["wilds"]}
    seats = obs["seats"]
    first = seats[obs["dealer"]]["discards"]
    if seat != obs["dealer"] and len(first) == 1 and not seats[seat]["discards"]:
        follow = [a for a in discards if TILE_TEXT[a.tile] == first[0]]
        if follow:
            return follow[0]  # follow the dealer's first discard: 铲 (R7)
    best, cands = 99, []
    for a in discards:
        rest = list(hand)
        rest.remove(a.tile)
        counts = [0] * 34
        for t in rest:
            if t not in wilds:
                counts[t] += 1
        v = shanten_counts(counts, len(rest) - sum(counts), 4 - len(seats[seat]["melds"])) + 10 * (a.tile in wilds)
        if v < best:
            best, cands = v, [a]
        elif v == best:
            cands.append(a)
    return rng.choice(cands)


def random_policy(m: Match, rng: random.Random) -> Action:
    """Uniformly random legal actions, but ``win`` whenever legal (fast: for full-length matches)."""
    legal = m.legal_actions(m.to_act)
    return next((a for a in legal if a.type == "win"), None) or rng.choice(legal)


@cache
def _play(rules_name: str, seed: int, full: bool = False) -> tuple[dict[str, Any], ...]:
    rules = Rules.preset("yiyou") if full else RULESETS[rules_name]
    m = Match(rules, seed=seed)
    rng = random.Random(seed)
    policy = random_policy if full else bot
    while not m.is_over:
        m.apply(m.to_act, policy(m, rng))
    return tuple(m.events)


def play(rules_name: str, seed: int, full: bool = False) -> Events:
    """A fresh deep copy of a cached match, so that tests may tamper with it."""
    return copy.deepcopy(list(_play(rules_name, seed, full)))


# seeds picked so that together they hold a 天胡 (classic8 3), a 金杠 (pot8 6) and a 铲 (pot8 9)
CASES = [("classic8", 0), ("classic8", 1), ("classic8", 3), ("yiyou8", 0), ("yiyou8", 1), ("yiyou8", 2),
         ("pot8", 0), ("pot8", 1), ("pot8", 6), ("pot8", 9)]


def index_of(events: Events, type_: str, pred: Any = lambda ev: True, nth: int = 0) -> int:
    hits = [i for i, ev in enumerate(events) if ev["type"] == type_ and pred(ev)]
    assert len(hits) > nth, f"no {type_} event in the record"
    return hits[nth]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# ------------------------------------------------------------------------------------------
# round trip: write → read → replay
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules_name", "seed"), CASES)
def test_round_trip(tmp_path: Path, rules_name: str, seed: int) -> None:
    events = play(rules_name, seed)
    path = tmp_path / "match.jsonl"
    assert write_record(events, path) == len(events)
    assert len(lines_of(path)) == len(events)  # one event per line
    matches = list(read_records(path))
    assert matches == [events]
    res = replay(matches[0])
    assert res.ok, res.summary()
    assert res.events == res.compared == len(events)
    assert res.hands == 8 == sum(ev["type"] == "start_kyoku" for ev in events)
    assert res.wins == sum(ev["type"] == "hora" for ev in events)
    assert res.payments == sum(len(ev["payments"]) for ev in events if ev["type"] == "end_kyoku")
    assert res.summary().startswith(f"{len(events)} events, 8 hands — every event and payment matches")


def test_round_trip_full_length_yiyou(tmp_path: Path) -> None:
    """A whole match of the yiyou preset (4 rounds, R9), played at random: every event reproduces."""
    events = play("yiyou", 5, full=True)
    assert events[-1]["type"] == "end_game" and events[0]["rules"]["preset"] == "yiyou"
    path = tmp_path / "full.jsonl"
    write_record(events, path)
    (back,) = read_records(path)
    res = replay(back)
    assert res.ok, res.summary()
    assert res.hands >= 16  # at least 4 rounds of 4 dealers


def test_records_cover_every_event_type() -> None:
    """The generated records exercise every event type, 铲, 天胡, 金杠, replacement draws and wild penalties."""
    seen: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for name, seed in CASES:
        events = play(name, seed)
        seen.update(ev["type"] for ev in events)
        for ev in events:
            if ev["type"] == "end_kyoku":
                reasons.update(p["reason"] for p in ev["payments"])
            if ev["type"] == "tsumo" and ev["replacement"]:
                seen["replacement"] += 1
            seen.update(k for k in ("tianhu", "gold", "kong_draw") if ev.get(k))
    assert set(EVENT_FIELDS) <= set(seen), set(EVENT_FIELDS) - set(seen)
    assert {"win", "kong", "chan", "penalty"} <= set(reasons)
    assert seen["replacement"] and seen["tianhu"] and seen["gold"]


def test_unicode_names_round_trip(tmp_path: Path) -> None:
    """Player names are kept as UTF-8 text and the replay re-seats them (start_game lists them by seat)."""
    names = ["东家", "南家", "Wēi", "北"]
    m = Match(RULESETS["classic8"].replace(match_hands=1), seed=11, names=names)
    rng = random.Random(11)
    while not m.is_over:
        m.apply(m.to_act, random_policy(m, rng))
    path = tmp_path / "names.jsonl"
    write_record(m.events, path)
    assert "东家" in path.read_text(encoding="utf-8")
    (back,) = read_records(path)
    assert replay(back).ok


# ------------------------------------------------------------------------------------------
# files: several matches, the append writer, atomic writes
# ------------------------------------------------------------------------------------------


def test_several_matches_in_one_file(tmp_path: Path) -> None:
    a, b, c = play("classic8", 0), play("yiyou8", 1), play("pot8", 2)
    path = tmp_path / "three.jsonl"
    write_record(a + b + c, path)
    back = list(read_records(path))
    assert back == [a, b, c]
    assert all(replay(m).ok for m in back)


def test_record_writer_appends_complete_matches(tmp_path: Path) -> None:
    path = tmp_path / "stream.jsonl"
    a, b = play("classic8", 0), play("pot8", 1)
    with RecordWriter(path) as w:
        w.write_match(a)
    with RecordWriter(path) as w:  # a later run appends
        w.write_match(b)
        with pytest.raises(ValueError, match="complete match"):
            w.write_match(b[:-1])  # no end_game
        with pytest.raises(ValueError, match="one match"):
            w.write_match(a + b)
        bad = copy.deepcopy(a)
        bad[5]["oops"] = object()
        with pytest.raises(TypeError):
            w.write_match(bad)  # serialised before anything is written
        assert w.matches == 1
    assert list(read_records(path)) == [a, b]


def test_record_writer_cuts_back_a_torn_match(tmp_path: Path) -> None:
    """A crash in the middle of an append leaves a partial line: the next writer cuts back to the last end_game."""
    path = tmp_path / "torn.jsonl"
    a, b = play("classic8", 1), play("yiyou8", 0)
    with RecordWriter(path) as w:
        w.write_match(a)
    whole = path.read_bytes()
    torn = b"".join(json.dumps(ev, ensure_ascii=False).encode() + b"\n" for ev in b)[:70_000]  # mid-line
    assert not torn.endswith(b"\n")
    path.write_bytes(whole + torn)
    with pytest.raises(RecordError, match="not valid JSON"):
        list(read_records(path))
    with RecordWriter(path) as w:
        assert w.repaired == len(torn)
        w.write_match(b)
    assert [replay(m).ok for m in read_records(path)] == [True, True]


def test_record_writer_refuses_a_file_without_a_match(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(b"some notes\nno newline at the end")
    with pytest.raises(RecordError, match="no complete match"):
        RecordWriter(path).__enter__()
    assert path.read_bytes() == b"some notes\nno newline at the end"  # left alone


def test_atomic_write_leaves_no_partial_file(tmp_path: Path) -> None:
    """An error while serialising midway: no record file appears and no temp file is left behind."""
    events = play("classic8", 0)
    bad = copy.deepcopy(events)
    bad[len(bad) // 2]["oops"] = object()  # orjson cannot serialise it
    path = tmp_path / "new.jsonl"
    with pytest.raises(TypeError):
        write_record(bad, path)
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted midway (even by KeyboardInterrupt): the old record stays whole, nothing else remains."""
    old, new = play("classic8", 1), play("classic8", 2)
    path = tmp_path / "rec.jsonl"
    write_record(old, path)
    before = path.read_bytes()
    real = record_mod._dumps
    calls = 0

    def dumps_then_die(ev: dict[str, Any]) -> bytes:
        nonlocal calls
        calls += 1
        if calls > 100:
            raise KeyboardInterrupt
        return real(ev)

    monkeypatch.setattr(record_mod, "_dumps", dumps_then_die)
    with pytest.raises(KeyboardInterrupt):
        write_record(new, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["rec.jsonl"]


def test_atomic_write_keeps_permissions(tmp_path: Path) -> None:
    path = tmp_path / "rec.jsonl"
    write_record(play("classic8", 0), path)
    os.chmod(path, 0o640)
    write_record(play("classic8", 1), path)
    assert path.stat().st_mode & 0o777 == 0o640


def test_write_to_open_files() -> None:
    events = play("pot8", 0)
    bio = io.BytesIO()
    write_record(events, bio)
    sio = io.StringIO()
    write_record(events, sio)
    assert bio.getvalue().decode() == sio.getvalue()
    assert list(read_records(io.BytesIO(bio.getvalue()))) == [events]
    assert list(read_records(io.StringIO(sio.getvalue()))) == [events]


BAD_LINES = [
    ('{"type": "start_game"', "not valid JSON"),
    ("[1, 2]", "expected one event"),
    ('{"kind": "dahai"}', "string field 'type'"),
    ('{"type": "riichi"}', "unknown event type 'riichi'"),
    # Beijing's own events are not Tianjin's: a match is read with its family's schema
    ('{"type": "shaozhuang", "actor": 0, "pai": "7m", "rounds": 1}',
     "unknown event type 'shaozhuang' in a tianjin match; its types are start_game, start_kyoku, "),
    ('{"type": "dahai", "actor": 0, "tsumogiri": false, "wild": false}', "lacks the field 'pai'"),
    ('{"type": "dahai", "actor": "0", "pai": "5m", "tsumogiri": false, "wild": false}', "'actor' must be a JSON integer"),
    ('{"type": "dahai", "actor": true, "pai": "5m", "tsumogiri": false, "wild": false}', "'actor' must be a JSON integer"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_read_names_the_bad_line(tmp_path: Path, line: str, message: str) -> None:
    events = play("classic8", 0)
    text = [json.dumps(ev, ensure_ascii=False) for ev in events[:5]]
    text.insert(3, line)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=message) as e:
        list(read_records(path))
    assert e.value.line == 4
    assert str(e.value).startswith("line 4: ")


def test_read_checks_the_family_of_start_game(tmp_path: Path) -> None:
    """start_game.rules.family picks the schema; a family records do not know is refused on its line."""
    events = play("classic8", 0)
    assert events[0]["rules"]["family"] == "tianjin"
    bad = copy.deepcopy(events[:3])
    bad[0]["rules"]["family"] = "riichi"
    path = tmp_path / "family.jsonl"
    path.write_text("".join(json.dumps(ev) + "\n" for ev in bad), encoding="utf-8")
    with pytest.raises(RecordError, match='^line 1: start_game names the rule family "riichi"; record families are '
                                          "tianjin, beijing, mcr$"):
        list(read_records(path))


def test_read_requires_start_game_first(tmp_path: Path) -> None:
    path = tmp_path / "headless.jsonl"
    path.write_text("\n" + json.dumps(play("classic8", 0)[2]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="line 2: a match must open with start_game"):
        list(read_records(path))


# ------------------------------------------------------------------------------------------
# tampering: replay reports the first divergence at the right index
# ------------------------------------------------------------------------------------------


def test_changed_discard_to_a_tile_not_held_is_illegal() -> None:
    events = play("classic8", 0)
    k = index_of(events, "dahai")
    kyoku = events[index_of(events, "start_kyoku")]
    held = set(kyoku["tehais"][events[k]["actor"]])
    events[k]["pai"] = next(t for t in TILE_TEXT if t not in held)
    res = replay(events)
    d = res.divergence
    assert d is not None and (d.index, d.kind) == (k, "illegal")
    assert "not legal" in d.explanation and d.expected == events[k] and d.got is None


def test_changed_discard_to_another_held_tile_diverges_later() -> None:
    """Another legal discard is another game: the first event that differs afterwards is reported."""
    events = play("classic8", 1)
    k = index_of(events, "dahai")  # the dealer's first discard, from the 14 dealt tiles
    kyoku = events[index_of(events, "start_kyoku")]
    dealt = kyoku["tehais"][kyoku["dealer"]]
    events[k]["pai"] = next(t for t in dealt if t != events[k]["pai"] and t not in kyoku["wilds"])
    d = replay(events).divergence
    assert d is not None and d.index > k


def test_changed_payment_amount() -> None:
    events = play("yiyou8", 0)
    k = index_of(events, "end_kyoku", lambda ev: ev["payments"])
    events[k]["payments"][0]["amount"] += 1
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert "payments" in d.explanation and "deltas" in d.explanation  # the record's own deltas no longer add up
    assert d.got is not None and d.got["payments"][0]["amount"] == d.expected["payments"][0]["amount"] - 1


def test_changed_hora_fan() -> None:
    events = play("pot8", 1)
    k = index_of(events, "hora")
    events[k]["fan"] *= 2
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert d.explanation.startswith("the recorded hora differs from the engine's in fan")


@pytest.mark.parametrize("type_", ["tsumo", "dahai", "pon", "start_kyoku", "end_kyoku"])
def test_deleted_event(type_: str) -> None:
    events = play("classic8", 2)
    k = index_of(events, type_, nth=1)
    del events[k]
    d = replay(events).divergence
    assert d is not None and d.index == k, d


def test_deleted_end_game_and_truncated_record() -> None:
    """A record that stops early is incomplete, not a divergence (it used to be kind "missing")."""
    events = play("classic8", 0)
    r = replay(events[:-1])
    assert r.divergence is None and r.status == "incomplete" and not r.ok
    assert r.incomplete is not None and "end_game" in r.incomplete
    k = index_of(events, "dahai", nth=20)
    r = replay(events[:k])  # cut just before a discard: the engine waits for it
    assert r.divergence is None and r.status == "incomplete" and r.compared == k
    assert r.incomplete is not None and "waits for" in r.incomplete


def test_extra_events_after_the_end() -> None:
    events = play("classic8", 0)
    d = replay([*events, {"type": "end_game", "scores": [0, 0, 0, 0]}]).divergence
    assert d is not None and (d.index, d.kind) == (len(events), "extra")


def test_claim_not_taken_or_invented() -> None:
    """A pon recorded for a seat the engine does not offer it to: the engine's claimer passes."""
    events = play("yiyou8", 1)
    k = index_of(events, "pon")
    events[k]["actor"] = (events[k]["actor"] + 1) % 4  # the real claimer passes, the engine draws
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert d.got is not None and d.got["type"] == "tsumo"


def test_bad_start_game() -> None:
    events = play("classic8", 0)
    events[0]["rules"] = {"preset": "classic", "min_fan": 0}
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (0, "start") and "min_fan" in d.explanation
    assert replay(events[1:]).divergence.kind == "start"  # type: ignore[union-attr]


def test_changed_seed_diverges_at_once() -> None:
    events = play("classic8", 0)
    events[0]["seed"] += 1
    d = replay(events).divergence
    assert d is not None and d.index <= 1  # other seating (start_game) or another deal (start_kyoku)


def test_independent_checks() -> None:
    """check_hora re-scores a win (R5); check_end_kyoku checks the settlement adds up (R8)."""
    events = play("pot8", 1)
    rules = Rules.from_dict(events[0]["rules"])
    k = index_of(events, "hora")
    kyoku = events[max(i for i in range(k) if events[i]["type"] == "start_kyoku")]
    hora = events[k]
    assert check_hora(hora, kyoku["dora_marker"], rules) is None
    assert "fan" in (check_hora({**hora, "fan": hora["fan"] + 1}, kyoku["dora_marker"], rules) or "")
    assert "name" in (check_hora({**hora, "name": "龙"}, kyoku["dora_marker"], rules) or "")
    assert "cannot be scored" in (check_hora({**hora, "hand": hora["hand"][:-1]}, kyoku["dora_marker"], rules) or "")
    end = events[index_of(events, "end_kyoku", lambda ev: ev["payments"])]
    assert check_end_kyoku(end) is None
    assert "deltas" in (check_end_kyoku({**end, "deltas": [0, 0, 0, 0]}) or "")
    assert "scores" in (check_end_kyoku(end, [1, 0, 0, 0]) or "")
    bad = {**end, "payments": [{**end["payments"][0], "amount": -1}]}
    assert "positive transfer" in (check_end_kyoku(bad) or "")


# ------------------------------------------------------------------------------------------
# show
# ------------------------------------------------------------------------------------------


def test_show_moves() -> None:
    events = play("pot8", 9)
    text = "\n".join(show(events))
    hora = events[index_of(events, "hora")]
    assert f"WINS on {hora['pai']}" in text and f"{hora['name']}, {hora['fan']} fan" in text
    assert "(win)" in text and "→" in text and "payments:" in text
    assert "hand 1 (round 1): dealer" in text and "indicator" in text and "wilds (混儿)" in text
    assert "draws" in text and "discards" in text and "pons" in text
    assert "end of the match" in text
    assert "seed 9, rules classic (" in text and 'settlement="pot"' in text
    assert "铲" in text


# ------------------------------------------------------------------------------------------
# the command: tjmj replay FILE [--show] [--json]
# ------------------------------------------------------------------------------------------


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(replay_cmd, list(args), input=input)


def test_cli_all_match(tmp_path: Path) -> None:
    a, b = play("classic8", 0), play("yiyou8", 0)
    path = tmp_path / "two.jsonl"
    write_record(a + b, path)
    res = invoke(str(path))
    assert res.exit_code == 0, res.output
    out = res.stdout.splitlines()
    assert out[0].startswith(f"match 1: {len(a)} events, 8 hands — every event and payment matches")
    assert out[1].startswith(f"match 2: {len(b)} events, 8 hands — every event and payment matches")
    assert out[2] == "2 matches: 2 match, 0 diverge"


def test_cli_divergence(tmp_path: Path) -> None:
    a, b = play("classic8", 0), play("pot8", 1)
    k = index_of(b, "hora")
    b[k]["fan"] += 1
    path = tmp_path / "tampered.jsonl"
    write_record(a + b, path)
    res = invoke(str(path))
    assert res.exit_code == 1
    out = res.stdout
    assert "match 1: " in out and "every event and payment matches" in out
    assert f"match 2: diverges at event {k} (line {len(a) + k + 1}): the recorded hora differs" in out
    assert "  record: " in out and "  engine: " in out


def test_cli_json(tmp_path: Path) -> None:
    a = play("classic8", 1)
    b = copy.deepcopy(a)
    k = index_of(b, "dahai")
    b[k]["pai"] = next(t for t in TILE_TEXT if t not in b[index_of(b, "start_kyoku")]["tehais"][b[k]["actor"]])
    path = tmp_path / "j.jsonl"
    write_record(a + b, path)
    res = invoke(str(path), "--json")
    assert res.exit_code == 1
    first, second = (json.loads(line) for line in res.stdout.splitlines())
    assert first["ok"] and first["events"] == len(a) and first["line"] == 1
    assert not second["ok"] and second["divergence"]["index"] == k and second["divergence"]["kind"] == "illegal"
    assert second["divergence"]["line"] == len(a) + k + 1


def test_cli_show(tmp_path: Path) -> None:
    events = play("pot8", 1)
    path = tmp_path / "s.jsonl"
    write_record(events, path)
    res = invoke(str(path), "--show")
    assert res.exit_code == 0, res.output
    assert "WINS on" in res.stdout and "payments:" in res.stdout and "(win)" in res.stdout
    assert res.stdout.rstrip().splitlines()[-1].startswith("match 1: ")


def test_cli_stdin() -> None:
    events = play("classic8", 2)
    res = invoke("-", input="".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in events))
    assert res.exit_code == 0, res.output
    assert "every event and payment matches" in res.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{}\n", "line 1: an event needs a string field 'type'"),
        ("", "holds no events"),
        (None, "cannot read"),
    ],
)
def test_cli_unreadable(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "in.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    res = invoke(str(path))
    assert res.exit_code == 2
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]


def test_cli_unreadable_after_a_good_match(tmp_path: Path) -> None:
    a = play("classic8", 0)
    path = tmp_path / "half.jsonl"
    write_record(a, path)
    with path.open("a", encoding="utf-8") as f:
        f.write('{"type": "start_game", "names": [], "seating": [], "seed": 1, "rules": {}}\n{"type": "dahai"\n')
    res = invoke(str(path))
    assert res.exit_code == 2
    assert res.stdout.startswith("match 1: ")  # the verdicts before the bad line are kept
    assert f"line {len(a) + 2}: not valid JSON" in res.stderr


def test_scripted_walls_replay_from_the_record() -> None:
    """Walls given to Match(walls=...) do not follow from the seed, so start_kyoku carries them."""
    tiles = [k for k in range(34) for _ in range(4)]
    walls = [(tiles, Dice((1, 2), 2, (3, 4), (5, 6)))]
    m = Match(Rules.preset("classic", match_hands=1, max_pull=0), seed=0, walls=walls)
    rng = random.Random(0)
    while not m.is_over:
        m.apply(m.to_act, random_policy(m, rng))
    assert m.events[1]["wall"] == [TILE_TEXT[k] for k in tiles]
    assert replay(m.events).ok
    assert replay(m.events, walls=walls).ok
    # without the carried wall the seed's own wall is dealt, and replay says where it parts
    stripped = [dict(e) for e in m.events]
    del stripped[1]["wall"]
    d = replay(stripped).divergence
    assert d is not None and (d.index, d.kind) == (1, "mismatch") and "dice" in d.explanation


# ------------------------------------------------------------------------------------------
# incomplete records: cut off before the match ends
# ------------------------------------------------------------------------------------------


def test_cut_after_a_complete_hand_is_incomplete() -> None:
    """Cut just after a hand's end_kyoku: every event up to there is re-run, wins re-scored, payments checked."""
    events = play("pot8", 1)
    k = index_of(events, "end_kyoku", nth=2)
    cut = events[: k + 1]
    r = replay(cut)
    assert (r.status, r.ok, r.divergence) == ("incomplete", False, None)
    assert r.compared == len(cut) == r.events and r.hands == 3
    assert r.wins == sum(ev["type"] == "hora" for ev in cut)
    assert r.payments == sum(len(ev["payments"]) for ev in cut if ev["type"] == "end_kyoku") > 0
    assert r.incomplete is not None and f"after event {k} " in r.incomplete
    assert r.summary().startswith("incomplete record: ")
    d = r.to_dict()
    assert (d["ok"], d["status"], d["divergence"]) == (False, "incomplete", None) and d["incomplete"]


@pytest.mark.parametrize("after", ["tsumo", "dahai", "pon", "hora"])
def test_cut_mid_hand_is_incomplete(after: str) -> None:
    """Cut inside a hand, right after a draw, a discard (the draw it leads to is missing), a pon or a win
    (its end_kyoku is missing)."""
    for name, seed in CASES:
        events = play(name, seed)
        hits = [i for i, ev in enumerate(events) if ev["type"] == after]
        if hits:
            break
    k = hits[len(hits) // 2]
    r = replay(events[: k + 1])
    assert r.status == "incomplete" and r.divergence is None, r.summary()
    assert r.compared == k + 1
    assert r.wins == sum(ev["type"] == "hora" for ev in events[: k + 1])


def test_cut_record_that_diverges_earlier_reports_the_divergence() -> None:
    """A cut record with a real divergence before the cut: the divergence, as for a whole record."""
    events = play("pot8", 1)
    k = index_of(events, "hora")
    events[k]["fan"] += 1
    cut = events[: index_of(events, "end_kyoku", lambda ev: True, nth=2) + 1]
    r = replay(cut)
    assert r.status == "diverges" and r.incomplete is None
    assert r.divergence is not None and r.divergence.index == k


def test_cut_before_the_first_hand_is_incomplete() -> None:
    """Only start_game: the engine waits for the dealer's sit choice (R7)."""
    events = play("classic8", 0)
    r = replay(events[:1])
    assert r.status == "incomplete" and r.incomplete is not None and "sit" in r.incomplete


def test_cli_incomplete_record(tmp_path: Path) -> None:
    """`tjmj replay` of the first N lines of a record: "incomplete record", exit 3 (0 with --allow-incomplete)."""
    events = play("classic8", 1)
    k = index_of(events, "dahai", nth=30)
    path = tmp_path / "cut.jsonl"
    write_record(events[:k], path)
    res = invoke(str(path))
    assert res.exit_code == 3, res.output
    assert res.stdout.startswith(f"match 1: incomplete record (ends at line {k}): ")
    assert "diverges" not in res.stdout and "every event and payment up to the cut matches" in res.stdout
    res = invoke(str(path), "--allow-incomplete")
    assert res.exit_code == 0, res.output
    res = invoke(str(path), "--json")
    assert res.exit_code == 3
    obj = json.loads(res.stdout)
    assert (obj["ok"], obj["status"], obj["divergence"], obj["last_line"]) == (False, "incomplete", None, k)


def test_cli_incomplete_and_diverging_matches(tmp_path: Path) -> None:
    """Several matches: a divergence wins over an incomplete record (exit 1); the last line counts each."""
    a, b, c = play("classic8", 0), play("yiyou8", 0), play("pot8", 1)
    c[index_of(c, "hora")]["fan"] += 1
    path = tmp_path / "mixed.jsonl"
    write_record(a + b[:100] + c, path)
    res = invoke(str(path))
    assert res.exit_code == 1, res.output
    out = res.stdout.splitlines()
    assert out[1].startswith("match 2: incomplete record (ends at line ")
    assert out[-1] == "3 matches: 1 match, 1 incomplete, 1 diverge"
    write_record(a + b[:100], path)
    res = invoke(str(path), "--allow-incomplete")
    assert res.exit_code == 0 and res.stdout.splitlines()[-1] == "2 matches: 1 match, 1 incomplete, 0 diverge"


@pytest.mark.parametrize("reason", ["win", "kong", "chan", "penalty"])
def test_check_end_kyoku_rejects_a_zero_payment_of_any_kind(reason: str) -> None:
    """R8: "A payment of 0 is not listed" — replay's re-check refuses one, whatever its reason."""
    events = play("pot8", 1)
    end = events[index_of(events, "end_kyoku", lambda ev: ev["payments"])]
    zero = {**end, "payments": [*end["payments"], {"reason": reason, "payer": 0, "payee": 1, "amount": 0}]}
    problem = check_end_kyoku(zero) or ""
    assert f"({reason}) is 0" in problem and "R8" in problem
    odd = {**end, "payments": [{**end["payments"][0], "reason": "tip"}]}
    assert "reasons are win, kong, chan, penalty" in (check_end_kyoku(odd) or "")


# ---- a hand dealt again after a restart (issue 35, item 1) ---------------------------------------


def _played_to(preset: str, seed: int, hands: int, upto: int) -> Match:
    """A match of ``hands`` hands played at random until ``upto`` hands have ended."""
    m = Match(Rules.preset(preset, match_hands=hands), seed=seed)
    rng = random.Random(seed)
    while m.hand_number < upto and not m.is_over:
        m.apply(m.to_act, rng.choice(m.legal_actions(m.to_act)))
    return m


def _deals(m: Match) -> list[tuple[Any, Any]]:
    """Each hand's dealt tiles and dice, by hand."""
    return [(e["tehais"], e["dice"]) for e in m.events if e["type"] == "start_kyoku"]


def _dealt(m: Match) -> Match:
    """The hand in play dealt: Tianjin's choices before it (R7) made (they draw nothing from the rng)."""
    while m.phase in ("sit", "pull"):
        m.apply(m.to_act, m.legal_actions(m.to_act)[0])
    return m


def _finish(m: Match, seed: int) -> Match:
    rng = random.Random(seed + 1)
    while not m.is_over:
        m.apply(m.to_act, rng.choice(m.legal_actions(m.to_act)))
    return m


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_a_resumed_hand_is_dealt_from_a_fresh_wall_and_replays(preset: str) -> None:
    """The server rebuilds a match from its stored hands (up to an ``end_kyoku``) and deals the hand in
    play again with ``rebuild(..., resume=k)``: a wall none of the old hands had, this hand or
    later, different for another k; ``start_kyoku.resume`` records k, so the whole match replays.
    (A Beijing or MCR record cut at its ``end_kyoku`` did not rebuild at all: the engine deals the
    next hand in the same step.)"""
    original = _finish(_played_to(preset, 5, 4, 4), 5)
    stored = original.events[: next(i for i, e in enumerate(original.events) if e["type"] == "end_kyoku") + 1]
    plain = _dealt(rebuild(stored))  # no resume: the hand after is dealt as it was
    assert _deals(plain)[1] == _deals(original)[1]
    once, twice = _dealt(rebuild(stored, resume=2)), _dealt(rebuild(stored, resume=3))
    assert _deals(once)[0] == _deals(original)[0]
    first = [e for e in once.events if e["type"] == "start_kyoku"][1]
    assert first["hand"] == 1 and first["resume"] == 2
    assert _deals(once)[1] != _deals(original)[1] and _deals(twice)[1] not in (_deals(original)[1], _deals(once)[1])
    _finish(once, 7)
    assert not set(map(repr, _deals(once)[1:])) & set(map(repr, _deals(original)[1:]))  # no old wall comes back
    assert replay(once.events).ok, replay(once.events).summary()
    assert rebuild(once.events).events == once.events
    stored_again = once.events[: [i for i, e in enumerate(once.events) if e["type"] == "end_kyoku"][1] + 1]
    again = _finish(rebuild(stored_again, resume=5), 9)  # a second resume, in a later hand
    assert [e.get("resume") for e in again.events if e["type"] == "start_kyoku"] == [None, 2, 5, None]
    assert replay(again.events).ok
    assert any("dealt again after a restart (resume 5)" in line for line in show(again.events))


def test_a_resumed_first_hand_and_a_malformed_resume() -> None:
    m = _finish(Match(Rules.preset("beijing", match_hands=2), seed=4, resumes={0: 2}), 4)
    start = next(e for e in m.events if e["type"] == "start_kyoku")
    assert start["resume"] == 2 and _deals(m)[0] != _deals(Match(Rules.preset("beijing", match_hands=2), seed=4))[0]
    assert replay(m.events).ok
    for bad in (True, 0, "2", None):
        events = [dict(e, resume=bad) if e is start else e for e in m.events]
        res = replay(events)
        assert not res.ok and res.divergence is not None and res.divergence.kind == "start", bad
        with pytest.raises(record_mod.ReplayError, match="resume counter"):
            rebuild(events)
    without = [{k: v for k, v in e.items() if k != "resume"} if e is start else e for e in m.events]
    assert not replay(without).ok  # the resume is what deals that wall: leaving it out diverges
    later = Match(Rules.preset("beijing", match_hands=2), seed=4, resumes={1: 3})
    assert later.clone().resumes == {1: 3}
    assert later.determinize(0, random.Random(1)).resumes == {}  # a search's copy never deals from the seed
