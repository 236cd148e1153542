"""Beijing match records (docs/records.md, "Beijing"): read, replay, show and ``tjmj replay``.

Issue 10, item 5: records and ``tjmj replay`` work for Beijing everywhere they work for Tianjin.
Records are made here by playing ``Match(Rules.preset("beijing" | "beijing_a"), seed)`` with a
small legal policy (:func:`bot`): 混杠 and wins whenever legal (混儿悠 instead, half the time),
kongs always, claims (chi, pon, kong) at random, the dealer's first discard followed (烧庄, B6),
otherwise a discard that lowers shanten.  The rare hands (天和, 地和, 混杠, 杠上开花 on the 混坯)
are dealt from scripted walls, which the record carries (``start_kyoku.wall``).
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tjmj.cli.replay import replay as replay_cmd
from tjmj.families.beijing import records as beijing_records
from tjmj.families.beijing.records import EVENT_FIELDS as BEIJING_EVENT_FIELDS
from tjmj.families.tianjin.records import EVENT_FIELDS
from tjmj.game import PASS, Action, Match
from tjmj.hand import shanten_counts
from tjmj.record import (
    FAMILY_EVENT_FIELDS,
    FAMILY_PAYMENT_REASONS,
    RecordError,
    check_end_kyoku,
    check_hora,
    read_records,
    record_family,
    replay,
    show,
    write_record,
)
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT, parse_tiles
from tjmj.wall import Dice

Events = list[dict[str, Any]]
ROOT = Path(__file__).resolve().parent.parent
OLD_TIANJIN = Path(__file__).with_name("data") / "tianjin_before_families.jsonl"
PRESETS = ("beijing", "beijing_a")
HANDS = 8  # hands per generated match


# ------------------------------------------------------------------------------------------
# making records
# ------------------------------------------------------------------------------------------


def bot(m: Match, rng: random.Random) -> Action:
    """A cheap legal policy that reaches every Beijing event: wins, 混儿悠, 混杠, claims, kongs, 烧庄."""
    seat = m.to_act
    legal = m.legal_actions(seat)
    types = {a.type for a in legal}
    for a in legal:
        if a.type == "hungang":
            return a
    if "win" in types:
        if "hunyou" in types and rng.random() < 0.5:
            return rng.choice([a for a in legal if a.type == "hunyou"])
        return Action("win")
    if m.phase != "turn":
        claims = [a for a in legal if a.type != "pass"]
        if claims and rng.random() < 0.4:
            return rng.choice(claims)
        return PASS
    kongs = [a for a in legal if a.type in ("ankong", "added_kong")]
    if kongs:
        return rng.choice(kongs)
    discards = [a for a in legal if a.type == "discard"]
    st = m.seats[seat]
    first = m.seats[m.dealer].discards
    if seat != m.dealer and not st.discards and len(first) == 1:
        follow = [a for a in discards if a.tile == first[0]]
        if follow and rng.random() < 0.9:
            return follow[0]  # 烧庄 (B6)
    if rng.random() < 0.05:
        return rng.choice(discards)  # now and then a careless discard, wilds included (B2)
    wild = m.wilds[0] if m.wilds else None
    best, cands = 99, []
    for a in discards:
        counts = list(st.counts)
        counts[a.tile] -= 1
        w = 0
        if wild is not None:
            w, counts[wild] = counts[wild], 0
        v = shanten_counts(counts, w, 4 - len(st.melds)) + 10 * (a.tile == wild)
        if v < best:
            best, cands = v, [a]
        elif v == best:
            cands.append(a)
    return rng.choice(cands)


def random_policy(m: Match, rng: random.Random) -> Action:
    """Uniformly random legal actions, but 混杠 or ``win`` whenever legal."""
    legal = m.legal_actions(m.to_act)
    return next((a for a in legal if a.type in ("hungang", "win")), None) or rng.choice(legal)


POLICIES: dict[str, Callable[[Match, random.Random], Action]] = {"bot": bot, "random": random_policy}


@cache
def _play(preset: str, seed: int, policy: str = "bot", hands: int = HANDS) -> tuple[dict[str, Any], ...]:
    m = Match(Rules.preset(preset, match_hands=hands), seed=seed)
    rng = random.Random(seed)
    choose = POLICIES[policy]
    while not m.is_over:
        m.apply(m.to_act, choose(m, rng))
    return tuple(m.events)


def play(preset: str, seed: int, policy: str = "bot", hands: int = HANDS) -> Events:
    """A fresh deep copy of a cached match, so that tests may tamper with it."""
    return copy.deepcopy(list(_play(preset, seed, policy, hands)))


SCAN = range(60)  # seeds searched for a match that shows a rare event


def find(preset: str, pred: Callable[[dict[str, Any]], bool]) -> tuple[Events, int]:
    """The first generated match (seed order) with an event that ``pred`` accepts, and its index."""
    for seed in SCAN:
        events = _play(preset, seed)
        for i, ev in enumerate(events):
            if pred(ev):
                return copy.deepcopy(list(events)), i
    raise AssertionError(f"no {preset} match of seeds {SCAN} has such an event")


def is_type(t: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda ev: ev["type"] == t and all(ev.get(k) == v for k, v in fields.items())


def kyoku_of(events: Events, k: int) -> dict[str, Any]:
    return events[max(i for i in range(k) if events[i]["type"] == "start_kyoku")]


# ---- scripted walls: the rare hands ------------------------------------------------------

DICE = Dice((1, 1), 0, (1, 1), None)


def wall_for(hands: dict[int, str], draws: str = "", indicator: str | None = None) -> list[tuple[list[int], Dice]]:
    """A scripted wall for hand 0 (dealer East): ``hands`` the dealt tiles by seat (the dealer's 14
    first), ``draws`` the first head draws, ``indicator`` the 混坯 (the first replacement tile, B2);
    the rest shuffled.  Built backwards through the deal of :class:`tjmj.wall.Wall` (R3, B1)."""
    pos: dict[int, list[int]] = {s: [] for s in range(4)}
    for pick in range(12):  # three rounds of 2-stack picks, dealer first
        pos[pick % 4] += range(4 * pick, 4 * pick + 4)
    pos[0] += [48, 52]  # 跳牌
    for s in (1, 2, 3):
        pos[s].append(48 + s)
    line: list[int | None] = [None] * 136
    left = [k for k in range(34) for _ in range(4)]

    def put(i: int, t: int) -> None:
        line[i] = t
        left.remove(t)

    for s, text in hands.items():
        for i, t in zip(pos[s], parse_tiles(text), strict=False):
            put(i, int(t))
    for i, t in enumerate(parse_tiles(draws)):
        put(53 + i, int(t))
    if indicator:
        put(134, int(parse_tiles(indicator)[0]))  # the top of the last stack
    random.Random(0).shuffle(left)
    filled = [t if t is not None else left.pop() for t in line]
    start = (17 * ((-DICE.second_roller) % 4) + DICE.break_count) % 68
    ring = [0] * 136
    for j, t in enumerate(filled):
        ring[2 * ((start + j // 2) % 68) + j % 2] = t
    return [(ring, DICE)]


def scripted(hands: dict[int, str], draws: str = "", indicator: str | None = "1z", preset: str = "beijing") -> Events:
    """One hand dealt from a scripted wall; wins, 混杠 and kongs taken, claims passed."""
    m = Match(Rules.preset(preset, match_hands=1), seed=1, walls=wall_for(hands, draws, indicator))
    rng = random.Random(1)
    while not m.is_over:
        legal = m.legal_actions(m.to_act)
        a = next((a for t in ("hungang", "win", "ankong", "added_kong") for a in legal if a.type == t), None)
        m.apply(m.to_act, a or (rng.choice(legal) if m.phase == "turn" else PASS))
    return m.events


SCRIPTED: dict[str, tuple[dict[int, str], str, str]] = {
    # 天和: the dealer's 14 dealt tiles win (B5)
    "TIANHE": ({0: "123m456m789m123p55s"}, "", "1z"),
    # 地和: South's first draw completes its 13 dealt tiles
    "DIHE": ({0: "1m3m5m7m9m2p4p6p8p1s3s5s7s9s", 1: "123m456m789m12p55s"}, "3p", "1z"),
    # 混杠: four wilds (2z, the 混坯 being 1z) in the dealt hand (B2)
    "HUNGANG": ({0: "2222z1m3m5m7m9m2p4p6p8p1s"}, "", "1z"),
    # a concealed kong, then the replacement draw is the 混坯 5p itself: the hand holds all four 5p
    "GANGKAI": ({0: "1111m555p46p789s22z"}, "", "5p"),
}


@cache
def _scripted(name: str) -> tuple[dict[str, Any], ...]:
    hands, draws, indicator = SCRIPTED[name]
    return tuple(scripted(hands, draws, indicator))


# ------------------------------------------------------------------------------------------
# replay: many matches, both presets
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(12))
def test_bot_matches_replay(preset: str, seed: int) -> None:
    events = play(preset, seed)
    assert events[0]["rules"]["family"] == "beijing" and events[0]["rules"]["preset"] == preset
    buf = io.BytesIO()
    write_record(events, buf)
    assert list(read_records(io.BytesIO(buf.getvalue()))) == [events]  # every line passes Beijing's schema
    res = replay(events)
    assert res.ok, res.summary()
    assert res.events == res.compared == len(events)
    assert res.hands == HANDS == sum(ev["type"] == "start_kyoku" for ev in events)
    assert res.wins == sum(ev["type"] == "hora" for ev in events)
    assert res.payments == sum(len(ev["payments"]) for ev in events if ev["type"] == "end_kyoku")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_random_matches_replay(preset: str, seed: int) -> None:
    """Uniformly random play (claims of every kind, wild discards, long hands) replays too."""
    res = replay(play(preset, seed, "random"))
    assert res.ok, res.summary()


@pytest.mark.parametrize("preset", PRESETS)
def test_full_length_match_replays(preset: str) -> None:
    """A whole match (4 rounds, B7; 上楼 comes and goes under ``beijing``)."""
    events = list(_play_full(preset))
    assert events[-1]["type"] == "end_game"
    res = replay(events)
    assert res.ok, res.summary()
    assert res.hands >= 16


@cache
def _play_full(preset: str) -> tuple[dict[str, Any], ...]:
    m = Match(Rules.preset(preset), seed=5)
    rng = random.Random(5)
    while not m.is_over:
        m.apply(m.to_act, bot(m, rng))
    return tuple(m.events)


@pytest.mark.parametrize(
    "overrides",
    [
        {"max_claims": 0, "claimed_self_draw_only": False, "shaozhuang_doubling": True, "mutual_liability": 2,
         "base": 2, "cap": 16, "shaozhuang_follow_wind": True},
        {"preset": "beijing_a", "wilds": True, "hunyou": True, "upstairs": True, "discard_pays": "all"},
    ],
    ids=["beijing-custom", "beijing_a-with-wilds"],
)
def test_custom_rules_replay(overrides: dict[str, Any]) -> None:
    """Options off their presets (互包, 烧庄 doubling, cap, base, wilds in version A …) replay, and
    the move list names the preset with the options that differ."""
    opts = dict(overrides)
    rules = Rules.preset(opts.pop("preset", "beijing"), match_hands=6, **opts)
    for seed in range(3):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            m.apply(m.to_act, bot(m, rng))
        res = replay(m.events)
        assert res.ok, res.summary()
    head = show(m.events)[0]
    assert "[北京麻将 Beijing mahjong]" in head and "match_hands=6" in head


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_scripted_rare_hands_replay(name: str) -> None:
    """天和, 地和, 混杠 and a 杠上开花 on the drawn 混坯 replay from the wall the record carries."""
    events = list(_scripted(name))
    assert "wall" in events[1]
    (hora,) = [ev for ev in events if ev["type"] == "hora"]
    assert name in hora["elements"]
    if name != "GANGKAI":
        assert hora["elements"] == [name] and hora["value"] == 40  # flat (B5)
    res = replay(events)
    assert res.ok and res.wins == 1, res.summary()


COVERAGE: dict[str, Callable[[dict[str, Any]], bool]] = {
    **{t: is_type(t) for t in BEIJING_EVENT_FIELDS},
    "discard win": is_type("hora", self_drawn=False, rob_kong=False),
    "self-drawn win": is_type("hora", self_drawn=True),
    "qianggang": is_type("hora", rob_kong=True),
    "gangkai": is_type("hora", kong_draw=True),
    "haidi": is_type("hora", last_tile=True),
    "hunyou declared": is_type("dahai", hunyou=True),
    "hunyou won": is_type("hora", hunyou=True),
    "hungang": lambda ev: ev["type"] == "hora" and "HUNGANG" in ev["elements"],
    "a wild discarded": is_type("dahai", wild=True),
    "upstairs": is_type("start_kyoku", upstairs=True),
    "replacement draw": is_type("tsumo", replacement=True),
    "shaozhuang paid": lambda ev: ev["type"] == "end_kyoku" and any(p["reason"] == "shaozhuang" for p in ev["payments"]),
}


@pytest.mark.parametrize("what", list(COVERAGE))
def test_generated_records_cover_beijing(what: str) -> None:
    """The records these tests make hold every Beijing event type and every way to win (the
    corruption and show tests below take their cases from them)."""
    find("beijing", COVERAGE[what])


@pytest.mark.parametrize("what", ["chi", "pon", "shaozhuang", "discard win", "self-drawn win", "qianggang", "haidi"])
def test_generated_records_cover_beijing_a(what: str) -> None:
    events, _ = find("beijing_a", COVERAGE[what])
    assert events[1]["dora_marker"] is None and events[1]["wilds"] == []  # no wilds in version A (B2)


# ------------------------------------------------------------------------------------------
# reading: per-family schemas
# ------------------------------------------------------------------------------------------


def test_schemas_by_family() -> None:
    assert FAMILY_EVENT_FIELDS["tianjin"] is EVENT_FIELDS and FAMILY_EVENT_FIELDS["beijing"] is BEIJING_EVENT_FIELDS
    assert set(BEIJING_EVENT_FIELDS) - set(EVENT_FIELDS) == {"chi", "shaozhuang"}
    assert set(EVENT_FIELDS) - set(BEIJING_EVENT_FIELDS) == {"chan"}
    assert FAMILY_PAYMENT_REASONS == {"tianjin": ("win", "kong", "chan", "penalty"), "beijing": ("win", "shaozhuang"),
                                      "mcr": ("win",)}
    # Tianjin's own fields are not asked of a Beijing record
    assert not {"sit", "pulls"} & set(BEIJING_EVENT_FIELDS["start_kyoku"])
    assert "gold" not in BEIJING_EVENT_FIELDS["ankan"]
    assert not {"fan", "tianhu"} & set(BEIJING_EVENT_FIELDS["hora"])
    assert record_family({"type": "start_game", "rules": {"preset": "classic"}}) == "tianjin"  # before families
    assert record_family({"type": "start_game", "rules": {"family": "beijing"}}) == "beijing"
    assert record_family({"type": "start_game", "rules": {"family": "mcr"}}) == "mcr"
    with pytest.raises(RecordError, match='rule family "riichi"; record families are tianjin, beijing, mcr'):
        record_family({"type": "start_game", "rules": {"family": "riichi"}})
    with pytest.raises(RecordError, match=r'rule family \["beijing"\]'):
        record_family({"type": "start_game", "rules": {"family": ["beijing"]}})


@pytest.mark.parametrize("preset", PRESETS)
def test_write_read_round_trip(tmp_path: Path, preset: str) -> None:
    events = play(preset, 3)
    path = tmp_path / "bj.jsonl"
    assert write_record(events, path) == len(events)
    (back,) = read_records(path)
    assert back == events
    assert replay(back).ok
    # nothing of Tianjin's is in it, and nothing of it is asked
    kyoku = back[1]
    assert "sit" not in kyoku and "pulls" not in kyoku and "upstairs" in kyoku
    assert all("fan" not in ev and "tianhu" not in ev for ev in back if ev["type"] == "hora")
    assert all("gold" not in ev for ev in back if ev["type"] == "ankan")


def test_several_families_in_one_file(tmp_path: Path) -> None:
    """Each match is read with the schema of its own family: a Tianjin match between two Beijing ones."""
    old = next(iter(read_records(OLD_TIANJIN)))
    a, b = play("beijing", 1), play("beijing_a", 2)
    path = tmp_path / "mixed.jsonl"
    write_record(a + old + b, path)
    back = list(read_records(path))
    assert back == [a, old, b]
    assert [replay(m).ok for m in back] == [True, True, True]


def lines_with(events: Events, k: int, change: Callable[[dict[str, Any]], None]) -> str:
    """The record as JSON lines with event ``k`` changed."""
    events = copy.deepcopy(events)
    change(events[k])
    return "".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in events)


def becomes(new: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """A change that replaces the event by ``new``."""

    def change(ev: dict[str, Any]) -> None:
        ev.clear()
        ev.update(new)

    return change


def read_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as e:
        list(read_records(io.StringIO(text)))
    return e.value


@pytest.mark.parametrize(
    ("type_", "field"),
    [("start_kyoku", "upstairs"), ("start_kyoku", "dora_marker"), ("chi", "consumed"), ("hora", "value"),
     ("hora", "rob_kong"), ("hora", "self_drawn"), ("hora", "hunyou"), ("shaozhuang", "rounds")],
)
def test_a_missing_beijing_field_names_the_line(type_: str, field: str) -> None:
    events, k = find("beijing", is_type(type_))
    err = read_error(lines_with(events, k, lambda ev: ev.pop(field)))
    assert err.line == k + 1 and str(err) == f"line {k + 1}: {type_} event lacks the field {field!r}"


def test_field_types_in_a_beijing_record() -> None:
    events, k = find("beijing", is_type("hora"))
    err = read_error(lines_with(events, k, lambda ev: ev.update(value="16")))
    assert str(err) == f'line {k + 1}: hora field \'value\' must be a JSON integer, got "16"'
    err = read_error(lines_with(events, 1, lambda ev: ev.update(dora_marker=5)))
    assert str(err) == "line 2: start_kyoku field 'dora_marker' must be a JSON string or null, got 5"
    # null is the 混坯 of a rule set without wilds (beijing_a), read as such
    a = play("beijing_a", 0)
    assert a[1]["dora_marker"] is None and a[1]["wilds"] == []
    assert list(read_records(io.StringIO(lines_with(a, 1, lambda ev: None)))) == [a]
    # ... but not in Tianjin, where the indicator is always face up (R2)
    old = next(iter(read_records(OLD_TIANJIN)))
    err = read_error(lines_with(old, 1, lambda ev: ev.update(dora_marker=None)))
    assert "start_kyoku field 'dora_marker' must be a JSON string, got null" in str(err)


def test_tianjin_only_fields_are_not_required() -> None:
    """A Beijing record with Tianjin's extra fields is still read (more fields are allowed), and one
    without them is complete."""
    events = play("beijing", 2)
    text = lines_with(events, 1, lambda ev: ev.update(sit=False, pulls=[0, 0, 0, 0]))
    assert len(list(read_records(io.StringIO(text)))) == 1
    assert "sit" not in events[1]
    assert list(read_records(io.StringIO(lines_with(events, 1, lambda ev: None)))) == [events]


def test_event_types_are_the_familys() -> None:
    """铲 is Tianjin's, chi and 烧庄 Beijing's: each is an unknown type in the other family's match."""
    events, k = find("beijing", is_type("dahai"))
    err = read_error(lines_with(events, k, becomes({"type": "chan", "actor": 0, "pai": "7m"})))
    assert err.line == k + 1
    assert err.message == ("unknown event type 'chan' in a beijing match; its types are "
                           + ", ".join(BEIJING_EVENT_FIELDS))
    old = next(iter(read_records(OLD_TIANJIN)))
    chi = {"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["1m", "2m"]}
    err = read_error(lines_with(old, 3, becomes(chi)))
    assert err.message.startswith("unknown event type 'chi' in a tianjin match; its types are start_game, ")
    assert "chan" in err.message and "shaozhuang" not in err.message


def test_unknown_family_in_start_game() -> None:
    events = play("beijing", 0)
    err = read_error(lines_with(events, 0, lambda ev: ev["rules"].update(family="shanghai")))
    assert err.line == 1 and "rule family \"shanghai\"; record families are tianjin, beijing" in str(err)
    d = replay(lines_and_back(lines_with(events, 0, lambda ev: ev["rules"].update(family="shanghai")))).divergence
    assert d is not None and d.kind == "start" and "shanghai" in d.explanation


def lines_and_back(text: str) -> Events:
    return [json.loads(line) for line in text.splitlines()]


# ------------------------------------------------------------------------------------------
# corruptions: replay and the independent checks catch each one
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_changed_hora_value(preset: str) -> None:
    events, k = find(preset, is_type("hora"))
    hora = events[k]
    kyoku = kyoku_of(events, k)
    rules = Rules.from_dict(events[0]["rules"])
    assert check_hora(hora, kyoku["dora_marker"], rules, dealer=kyoku["dealer"]) is None
    bad = {**hora, "value": hora["value"] + 1}
    assert (check_hora(bad, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
            == f"re-scoring the win gives value {hora['value']}, recorded {hora['value'] + 1}")
    events[k] = bad
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert d.explanation.startswith("the recorded hora differs from the engine's in value")


def test_changed_hora_elements_and_name() -> None:
    events, k = find("beijing", is_type("hora", self_drawn=True))
    hora, kyoku = events[k], kyoku_of(events, k)
    rules = Rules.from_dict(events[0]["rules"])
    problem = check_hora({**hora, "elements": [*hora["elements"], "LONG"]}, kyoku["dora_marker"], rules,
                         dealer=kyoku["dealer"])
    assert problem is not None and f"elements {hora['elements']}, recorded " in problem
    problem = check_hora({**hora, "name": "一条龙"}, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
    assert problem == f"re-scoring the win gives name {hora['name']}, recorded 一条龙"
    # the dealer flag is the hand's: another dealer scores 庄胡 differently (B5)
    other = (kyoku["dealer"] + 1) % 4 if hora["actor"] == kyoku["dealer"] else hora["actor"]
    problem = check_hora(hora, kyoku["dora_marker"], rules, dealer=other)
    assert problem is not None and "value" in problem and "DEALER" in problem
    with pytest.raises(TypeError, match="needs the hand's dealer"):
        check_hora(hora, kyoku["dora_marker"], rules)
    # a winning hand that is not one
    problem = check_hora({**hora, "hand": hora["hand"][:-1]}, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
    assert problem is not None and problem.startswith("the winning hand cannot be scored: ")


def test_changed_win_flags() -> None:
    """A self-drawn win must name the winner as target, a discard win another seat (B3)."""
    events, k = find("beijing", is_type("hora", self_drawn=False, rob_kong=False))
    hora, kyoku = events[k], kyoku_of(events, k)
    rules = Rules.from_dict(events[0]["rules"])
    assert "DIANPAO" in hora["elements"] and hora["target"] != hora["actor"]
    problem = check_hora({**hora, "self_drawn": True}, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
    assert problem is not None and "self-drawn but its target is" in problem
    problem = check_hora({**hora, "target": hora["actor"]}, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
    assert problem is not None and "not self-drawn but its target is the winner" in problem
    # 杠上开花 on a discard cannot be (B5)
    problem = check_hora({**hora, "kong_draw": True}, kyoku["dora_marker"], rules, dealer=kyoku["dealer"])
    assert problem is not None and "cannot be scored" in problem and "kong_draw" in problem


def test_the_drawn_indicator_is_an_ordinary_tile() -> None:
    """The 混坯 is the first replacement tile (B2): once drawn, a hand may hold all four of its kind,
    and replay re-scores it so; while it is face up it is one of the four."""
    events = list(_scripted("GANGKAI"))
    k = next(i for i, ev in enumerate(events) if ev["type"] == "hora")
    hora, kyoku = events[k], events[1]
    assert events[k - 1] == {"type": "tsumo", "actor": 0, "pai": "5p", "replacement": True}
    assert kyoku["dora_marker"] == "5p" and (hora["hand"] + [hora["pai"]]).count("5p") == 4
    rules = Rules.from_dict(events[0]["rules"])
    assert check_hora(hora, "5p", rules, dealer=0, indicator_visible=False) is None
    problem = check_hora(hora, "5p", rules, dealer=0)
    assert problem is not None and "5 copies of 5p" in problem
    assert replay(events).ok


def test_flat_hands_need_their_moment() -> None:
    """天和 and 地和 are checked against the hand so far (B5), beyond the scorer."""
    tianhe = list(_scripted("TIANHE"))
    dihe = list(_scripted("DIHE"))
    check = beijing_records.hand_problem
    assert check(tianhe[2], tianhe[1:2], 0) is None
    early = {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False, "wild": False}
    assert "天和 (TIANHE)" in (check(tianhe[2], [tianhe[1], early], 0) or "")
    k = next(i for i, ev in enumerate(dihe) if ev["type"] == "hora")
    assert check(dihe[k], dihe[1:k], 0) is None
    pon = {"type": "pon", "actor": 2, "target": 0, "pai": "1m", "consumed": ["1m", "1m"]}
    assert "before any claim or kong" in (check(dihe[k], [*dihe[1:k], pon], 0) or "")
    assert "first draw" in (check(dihe[k], dihe[1:k], 1) or "")  # the winner was the dealer
    # and the scorer itself: 天和 is the dealer's
    rules = Rules.preset("beijing")
    problem = check_hora(tianhe[2], "1z", rules, dealer=1)
    assert problem is not None and "tianhe (天和) is won by the dealer" in problem


def test_payment_reasons_of_the_family() -> None:
    events, k = find("beijing", lambda ev: ev["type"] == "end_kyoku"
                     and any(p["reason"] == "shaozhuang" for p in ev["payments"]))
    end = events[k]
    assert check_end_kyoku(end, family="beijing") is None
    # 烧庄 is no Tianjin payment, nor 铲 a Beijing one
    assert check_end_kyoku(end) == ("payment {} has the reason \"shaozhuang\"; tianjin reasons are win, kong, "
                                    "chan, penalty (R8)").format(
        next(i for i, p in enumerate(end["payments"]) if p["reason"] == "shaozhuang"))
    odd = {**end, "payments": [{**p, "reason": "chan"} for p in end["payments"]]}
    assert check_end_kyoku(odd, family="beijing") == 'payment 0 has the reason "chan"; beijing reasons are win, shaozhuang (B6)'
    zero = {**end, "payments": [*end["payments"], {"reason": "win", "payer": 0, "payee": 1, "amount": 0}]}
    assert "(win) is 0, but a payment of 0 is not listed (B6)" in (check_end_kyoku(zero, family="beijing") or "")
    assert "deltas" in (check_end_kyoku({**end, "deltas": [0, 0, 0, 0]}, family="beijing") or "")
    assert "scores" in (check_end_kyoku(end, [1, 0, 0, 0], family="beijing") or "")
    # in a replay: the engine's settlement differs, and the record is inconsistent in itself
    events[k] = odd
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert "beijing reasons are win, shaozhuang (B6)" in d.explanation


def test_changed_payment_amount() -> None:
    events, k = find("beijing", lambda ev: ev["type"] == "end_kyoku" and ev["payments"])
    events[k]["payments"][0]["amount"] += 1
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "mismatch")
    assert "payments" in d.explanation and "deltas" in d.explanation


@pytest.mark.parametrize("corruption", ["dahai not held", "hunyou not ready", "hungang without wilds", "chi"])
def test_actions_the_engine_refuses(corruption: str) -> None:
    if corruption == "dahai not held":
        events, k = find("beijing", is_type("dahai"))
        held = set(kyoku_of(events, k)["tehais"][events[k]["actor"]])
        events[k]["pai"] = next(t for t in TILE_TEXT if t not in held)
        want = f"discard {events[k]['pai']} is not legal"
    elif corruption == "hunyou not ready":  # 混儿悠 only with a hand that may win with a wild (B3)
        events, k = find("beijing", is_type("dahai"))
        events[k]["hunyou"] = True
        want = f"hunyou {events[k]['pai']} is not legal"
    elif corruption == "hungang without wilds":  # 混杠 needs all four wilds (B2)
        events, k = find("beijing", lambda ev: ev["type"] == "hora" and ev["self_drawn"]
                         and "HUNGANG" not in ev["elements"])
        events[k]["elements"] = ["HUNGANG"]
        want = "hungang is not legal"
    else:  # a chi of 8s9s + 9s: no sequence starts at 8 (B3)
        events, k = find("beijing", is_type("chi"))
        events[k].update(pai="9s", consumed=["8s", "9s"])
        want = "chi 8s is not legal"
    d = replay(events).divergence
    assert d is not None and (d.index, d.kind) == (k, "illegal"), d
    assert d.explanation.startswith("the engine refuses") and want in d.explanation


def test_claim_by_the_wrong_seat() -> None:
    """Chi is the discarder's next seat's only (B3): a chi recorded for another seat is a pass there."""
    events, k = find("beijing", is_type("chi"))
    events[k]["actor"] = (events[k]["actor"] + 1) % 4
    d = replay(events).divergence
    assert d is not None and d.index == k and d.kind == "mismatch"


def test_cut_in_a_rob_window_is_incomplete() -> None:
    """Cut right after an added kong that others may rob (抢杠): the engine waits for the robber."""
    events, k = find("beijing", is_type("hora", rob_kong=True))
    assert events[k - 1]["type"] == "kakan"
    r = replay(events[:k])
    assert r.status == "incomplete" and r.divergence is None, r.summary()
    assert r.incomplete is not None and "to rob the kong (抢杠) or pass" in r.incomplete


# ------------------------------------------------------------------------------------------
# show
# ------------------------------------------------------------------------------------------


def shown(events: Events) -> str:
    return "\n".join(show(events))


def test_show_beijing() -> None:
    events = play("beijing", 1)
    text = shown(events)
    assert "[0] match: seed 1, rules beijing [北京麻将 Beijing mahjong] (match_hands=8)" in text
    assert "混坯 (indicator) " in text and "wild (混儿) " in text
    assert "sat (坐庄)" not in text and "did not sit" not in text and "拉庄" not in text
    hora = next(ev for ev in events if ev["type"] == "hora")
    assert f"WINS on {hora['pai']}" in text and f"{hora['name']}, value {hora['value']} [" in text
    assert "payments:" in text and "(win)" in text and "end of the match" in text


SHOW_CASES: list[tuple[str, Callable[[dict[str, Any]], bool], str]] = [
    ('chi', is_type("chi"), " chis {pai} from {target} (吃): "),
    ('dianpao', is_type("hora", self_drawn=False, rob_kong=False), "WINS on {pai} (on {target}'s discard (点炮 by {target})"),
    ('qianggang', is_type("hora", rob_kong=True), "WINS on {pai} (robbing {target}'s kong (抢杠), {target} pays"),
    ('zimo', is_type("hora", self_drawn=True, hunyou=False), "WINS on {pai} (self-drawn (自摸)"),
    ('hunyou', lambda ev: ev["type"] == "dahai" and ev.get("hunyou"), "declares 混儿悠 (hunyou): discards {pai} and waits on any tile"),
    ('hunyou-won', is_type("hora", hunyou=True), "混儿悠 succeeded"),
    ('hungang', lambda ev: ev["type"] == "hora" and "HUNGANG" in ev["elements"], "WINS on {pai} (混杠 declared: the four wilds)"),
    ('shaozhuang', is_type("shaozhuang"), "烧庄: the dealer {actor}'s first discard {pai} was followed by each other seat"),
    ('shaozhuang-paid', lambda ev: ev["type"] == "end_kyoku" and any(p["reason"] == "shaozhuang" for p in ev["payments"]), "(shaozhuang)"),
    ('upstairs', is_type("start_kyoku", upstairs=True), "上楼 (upstairs): every payment doubled"),
    ('haidi', is_type("hora", last_tile=True), "the last tile (海底)"),
    ('gangkai', is_type("hora", kong_draw=True), "on a kong replacement (杠上开花)"),
]


@pytest.mark.parametrize(("what", "pred", "needle"), SHOW_CASES, ids=[c[0] for c in SHOW_CASES])
def test_show_mentions(what: str, pred: Callable[[dict[str, Any]], bool], needle: str) -> None:
    """The move list says each Beijing happening in words, on the line of its event."""
    events, k = find("beijing", pred)
    ev = events[k]
    seat = "ESWN"
    expected = needle.format(pai=ev.get("pai"), target=seat[ev.get("target", 0)], actor=seat[ev.get("actor", 0)])
    lines = show(events)
    # the event's own line, or the draw before it (a draw and its discard share one line)
    at = [i for i, line in enumerate(lines) if line.startswith(f"[{k}] ")]
    at = at or [i for i, line in enumerate(lines) if line.startswith(f"[{k - 1}] ")]
    assert any(expected in line for line in lines[at[0]:at[0] + 8]), (what, expected)


def test_show_beijing_a_and_flat_hands() -> None:
    text = shown(play("beijing_a", 0))
    assert "rules beijing_a [北京麻将 Beijing mahjong] (match_hands=8)" in text and "no wilds (混儿)" in text
    assert "a wild" not in text
    for name, words in (("TIANHE", "天和"), ("DIHE", "地和"), ("HUNGANG", "混杠 declared")):
        text = shown(list(_scripted(name)))
        assert words in text and "value 40" in text


def test_show_beijing_wild_discard_is_no_penalty() -> None:
    events, _ = find("beijing", is_type("dahai", wild=True))
    text = shown(events)
    assert "a wild (混儿), discarded without penalty (B2)" in text and "小相公" not in text


# ------------------------------------------------------------------------------------------
# the command: tjmj replay
# ------------------------------------------------------------------------------------------


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(replay_cmd, list(args), input=input)


def test_cli_replays_beijing_records(tmp_path: Path) -> None:
    a, b = play("beijing", 4), play("beijing_a", 4)
    old = next(iter(read_records(OLD_TIANJIN)))
    path = tmp_path / "bj.jsonl"
    write_record(a + b + old, path)
    res = invoke(str(path))
    assert res.exit_code == 0, res.output
    out = res.stdout.splitlines()
    for n, events in enumerate((a, b), 1):
        wins = sum(ev["type"] == "hora" for ev in events)
        pays = sum(len(ev["payments"]) for ev in events if ev["type"] == "end_kyoku")
        assert out[n - 1] == (f"match {n}: {len(events)} events, {HANDS} hands — every event and payment matches "
                              f"({pays} payments, {wins} wins re-scored)")
    assert out[2].startswith("match 3: ") and out[-1] == "3 matches: 3 match, 0 diverge"
    res = invoke(str(path), "--json")
    assert res.exit_code == 0
    objs = [json.loads(line) for line in res.stdout.splitlines()]
    assert [o["status"] for o in objs] == ["ok", "ok", "ok"] and objs[0]["wins"] == sum(
        ev["type"] == "hora" for ev in a)
    res = invoke(str(path), "--show")
    assert res.exit_code == 0 and "rules beijing [北京麻将 Beijing mahjong]" in res.stdout
    assert "rules beijing_a [北京麻将 Beijing mahjong]" in res.stdout and " chis " in res.stdout


def test_cli_beijing_divergence_and_unreadable(tmp_path: Path) -> None:
    events, k = find("beijing", is_type("hora"))
    events[k]["value"] += 1
    path = tmp_path / "bad.jsonl"
    write_record(events, path)
    res = invoke(str(path))
    assert res.exit_code == 1
    assert f"match 1: diverges at event {k} (line {k + 1}): the recorded hora differs from the engine's in value" \
        in res.stdout
    del events[k]["rob_kong"]
    write_record(events, path)
    res = invoke(str(path))
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.strip() == f"Error: {path}: line {k + 1}: hora event lacks the field 'rob_kong'"


def test_cli_beijing_incomplete(tmp_path: Path) -> None:
    events = play("beijing", 6)
    k = next(i for i, ev in enumerate(events) if ev["type"] == "end_kyoku")
    path = tmp_path / "cut.jsonl"
    write_record(events[: k + 1], path)
    res = invoke(str(path))
    assert res.exit_code == 3 and res.stdout.startswith(f"match 1: incomplete record (ends at line {k + 1}): ")
    assert invoke(str(path), "--allow-incomplete").exit_code == 0


def test_old_tianjin_records_still_replay(tmp_path: Path) -> None:
    matches = list(read_records(OLD_TIANJIN))
    assert len(matches) == 8 and all(record_family(m[0]) == "tianjin" for m in matches)
    assert all(replay(m).ok for m in matches)
    res = invoke(str(OLD_TIANJIN))
    assert res.exit_code == 0 and res.stdout.splitlines()[-1] == "8 matches: 8 match, 0 diverge"


# ------------------------------------------------------------------------------------------
# docs/records.md: the Beijing examples are real events
# ------------------------------------------------------------------------------------------


def beijing_examples() -> list[dict[str, Any]]:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Beijing records"):]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    out = []
    for block in re.findall(r"```json\n(.*?)```", section, re.S):
        out.extend(json.loads(line) for line in block.splitlines() if line.strip())
    return out


def test_doc_examples_are_generated_events() -> None:
    """Every example line of the Beijing section is an event of a record these tests make (the
    preset and seed the doc names), so the doc shows the engine's events exactly."""
    examples = beijing_examples()
    assert len(examples) >= 20
    made = [ev for preset, seed in DOC_SOURCES for ev in _play(preset, seed)]
    missing = [ev for ev in examples if ev not in made]
    assert not missing, missing[:3]
    documented = {ev["type"] for ev in examples}
    assert set(BEIJING_EVENT_FIELDS) <= documented
    for ev in examples:  # the documented lines are read as Beijing events
        for name in BEIJING_EVENT_FIELDS[ev["type"]]:
            assert name in ev


DOC_SOURCES = [("beijing", 1), ("beijing", 10), ("beijing", 9), ("beijing", 3), ("beijing_a", 26)]
