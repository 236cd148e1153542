"""Properties of the engine over many hands of random legal play (RULES.md R2–R9).

A random-legal policy plays whole matches under both presets and several options; it takes a
win with some probability when one is legal, so both wins and drawn hands occur.  Checked:
tile conservation at every step (R1/R3), settlements (R6–R8, zero-sum, recomputed from the
events), dealer rotation (R7/R9), every win re-scored by :func:`tjmj.families.tianjin.score.score` (R5), illegal
actions refused without a change of state, and observations that hide other seats' tiles.
"""

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from tjmj.families.tianjin.score import score
from tjmj.game import Action, IllegalAction, Match
from tjmj.rules import CLASSIC, YIYOU, Rules
from tjmj.tiles import TILE_TEXT, TILES, Tile

CONFIGS = {
    "classic": CLASSIC,
    "yiyou": YIYOU,
    "classic-flip-min1-wk3": CLASSIC.replace(wild_method="flip", min_fan=1, wild_kinds=3, forced_sit=True),
    "classic-wk1-penalty-base2": CLASSIC.replace(wild_kinds=1, wild_discard_penalty=1, base=2, max_pull=2,
                                                 kong_pay_on_draw=False, chan_units=3),
    "yiyou-pot-flip": YIYOU.replace(settlement="pot", pot_stake=12, wild_method="flip", hundiao_alone_wins=False),
    "classic-pot-min1": CLASSIC.replace(settlement="pot", pot_stake=6, min_fan=1, tianhu="best_x4"),
}
IDS = list(CONFIGS)
FOUR = [4] * 34


def choose(m: Match, rng: random.Random, p_win: float) -> Action:
    """A random legal action: a legal win with probability ``p_win``, claims and kongs often, and
    mostly non-wild discards (a wild discard makes the seat 小相公)."""
    seat = m.to_act
    acts = m.legal_actions(seat)
    wins = [a for a in acts if a.type == "win"]
    if wins and rng.random() < p_win:
        return wins[0]
    rest = [a for a in acts if a.type != "win"]
    melds = [a for a in rest if a.type in ("pon", "kong", "ankong", "added_kong")]
    if melds and rng.random() < 0.6:
        return rng.choice(melds)
    if m.phase == "turn":
        # follow the dealer's first discard when possible, so that 铲 (R7) happens now and then
        firsts = [t for st in m.seats for t in st.discards]
        st = m.seats[seat]
        follow = firsts and len(firsts) < 4 and not st.discards and len(set(firsts)) == 1 and firsts[0] in st.hand
        if follow and rng.random() < 0.9:
            return Action("discard", firsts[0])
    if m.phase == "turn" and rng.random() < 0.93:
        plain = [a for a in rest if a.type == "discard" and a.tile not in m.wilds]
        if plain:
            return rng.choice(plain)
    return rng.choice(rest)


def play(rules: Rules, seed: int, hands: int, p_win: float = 0.7,
         hook: Callable[[Match, Action], Callable[[], None] | None] | None = None) -> Iterator[Match]:
    """Play one match of ``hands`` hands; yields the match before every decision and once at the end.
    ``hook(m, action)`` is called before each action is applied; what it returns, after."""
    rng = random.Random(seed * 7919 + 1)
    m = Match(rules.replace(match_hands=hands), seed)
    while not m.is_over:
        yield m
        action = choose(m, rng, p_win)
        after = hook(m, action) if hook else None
        m.apply(m.to_act, action)
        if after:
            after()
    yield m


class Tracker:
    """Follows a match's events: per hand, the claimed discards, each seat's draws, whether anyone
    has melded, and who has discarded a wild (小相公)."""

    def __init__(self, m: Match) -> None:
        self.m = m
        self.pos = 0

    def update(self) -> "Tracker":
        ev = self.m.events
        for i in range(self.pos, len(ev)):
            e = ev[i]
            t = e["type"]
            if t == "start_kyoku":
                self.start = e
                self.claimed = [0] * 34
                self.draws = [0] * 4
                self.melded = False
                self.wild_discard = [False] * 4
            elif t in ("pon", "daiminkan"):
                self.claimed[Tile.parse(e["pai"])] += 1
                self.melded = True
            elif t in ("ankan", "kakan"):
                self.melded = True
            elif t == "tsumo":
                self.draws[e["actor"]] += 1
            elif t == "dahai" and e["wild"]:
                self.wild_discard[e["actor"]] = True
        self.pos = len(ev)
        return self


def hands_of(events: list[dict]) -> Iterator[list[dict]]:
    """Split a match's events into hands (start_kyoku … end_kyoku)."""
    cur: list[dict] | None = None
    for e in events:
        if e["type"] == "start_kyoku":
            cur = [e]
        elif cur is not None:
            cur.append(e)
            if e["type"] == "end_kyoku":
                yield cur
                cur = None


# ---- tile conservation ---------------------------------------------------------------------


def check_conservation(m: Match, tr: Tracker) -> None:
    """R1/R3: the 136 tiles = hands + melds + discards (less claimed ones, which live in a meld) +
    the wall's untaken tiles + the face-up indicator, four of each kind."""
    c = [-n for n in tr.update().claimed]  # a claimed discard is counted in its meld
    for st in m.seats:
        for t in st.hand:
            c[t] += 1
        for meld in st.melds:
            c[meld.tile] += meld.size
        for t in st.discards:
            c[t] += 1
    w = m.wall
    for t, taken in zip(w.tiles, w.taken):
        if not taken:
            c[t] += 1
    c[w.indicator] += 1
    assert c == FOUR, {TILE_TEXT[k]: n for k, n in enumerate(c) if n != 4}
    assert w.remaining == w.taken.count(False)  # the wall's running count (Beijing's wall_left reads it)


# ---- what is offered: claims (R2/R4), kongs (R4), wins (R2/R5) ----------------------------------


def claim_hook(m: Match, action: Action) -> Callable[[], None] | None:
    """R4: after a discard, the claim goes to the first seat after the discarder holding two of that
    (non-wild, R2) kind, unless `last_tiles_no_claim` forbids it; otherwise the next seat draws."""
    if action.type != "discard":
        return None
    seat, x = m.to_act, action.tile
    holders = [(seat + i) % 4 for i in (1, 2, 3) if m.seats[(seat + i) % 4].hand.count(x) >= 2]
    limit = m.rules.last_tiles_no_claim
    if x in m.wilds or (limit and m.wall.live_count <= limit):
        holders = []
    hand_number = m.hand_number

    def after() -> None:
        if holders:
            assert (m.phase, m.to_act) == ("claim", holders[0])
            n = m.seats[holders[0]].hand.count(x)
            expected = [f"pon {x}"] + ([f"kong {x}"] if n >= 3 and m.wall.can_replace() else []) + ["pass"]
            assert [str(a) for a in m.legal_actions(m.to_act)] == expected
        else:
            assert m.phase != "claim"
            if m.hand_number == hand_number:  # not exhausted: the next seat has drawn
                assert m.events[-1]["type"] == "tsumo" and m.events[-1]["actor"] == (seat + 1) % 4

    return after


def check_turn_offer(m: Match, tr: Tracker) -> None:
    """At a turn: kongs offered exactly when R4 allows them, a win exactly when the scorer says the
    hand wins (R5, 天胡 by R5.5) and the seat is not 小相公 (R2); never after a pon."""
    seat = m.to_act
    legal = [str(a) for a in m.legal_actions(seat)]
    tr.update()
    last = m.events[-1]
    st = m.seats[seat]
    discards = sorted({f"discard {TILE_TEXT[t]}" for t in st.hand})
    if last["type"] == "pon":
        assert last["actor"] == seat and sorted(legal) == discards
        return
    counts = Counter(st.hand)
    kongs = set()
    if m.wall.can_replace():
        kongs = {f"ankong {TILE_TEXT[k]}" for k, n in counts.items() if n == 4}
        kongs |= {f"added_kong {TILE_TEXT[md.tile]}" for md in st.melds if md.type.value == "pon" and counts[md.tile]}
    assert {a for a in legal if "kong" in a} == kongs
    dealer = tr.start["dealer"]
    if last["type"] == "start_kyoku":
        assert seat == dealer
        draw, kong_draw, tianhu = sorted(st.hand)[-1], False, True
    else:
        assert last["type"] == "tsumo" and last["actor"] == seat
        draw, kong_draw = Tile.parse(last["pai"]), last["replacement"]
        tianhu = seat != dealer and tr.draws[seat] == 1 and not kong_draw and not tr.melded
    xiaoxianggong = tr.wild_discard[seat]
    concealed = list(st.hand)
    concealed.remove(draw)
    r = score(concealed, draw, tr.start["dora_marker"], [str(md) for md in st.melds], kong_draw=kong_draw,
              tianhu=tianhu, rules=m.rules)
    assert ("win" in legal) == (r.win and not xiaoxianggong), (seat, legal, r, tianhu, xiaoxianggong)
    assert sorted(a for a in legal if a.startswith("discard")) == discards


# ---- settlement recomputed from the events (open settlement), R6–R8 --------------------------


def expected_payments(hand: list[dict], rules: Rules) -> list[tuple[str, int, int, int]]:
    start = hand[0]
    dealer, sit, pulls = start["dealer"], start["sit"], start["pulls"]
    wilds = set(start["wilds"])

    def mult(a: int, b: int) -> int:
        if dealer not in (a, b):
            return 1
        other = b if a == dealer else a
        return (2 if sit else 1) * 2 ** pulls[other]

    out = []

    def each_other(payee: int, units: int, reason: str) -> None:
        for p in range(4):
            if p != payee and units:
                out.append((reason, p, payee, units * rules.base * mult(p, payee)))

    hora = [e for e in hand if e["type"] == "hora"]
    won = bool(hora)
    if won:
        each_other(hora[0]["actor"], hora[0]["fan"], "win")
    if won or rules.kong_pay_on_draw:
        for e in hand:
            if e["type"] == "ankan":
                gold = e["consumed"][0] in wilds
                assert e["gold"] == gold
                each_other(e["actor"], rules.gold_kong_points if gold else 2, "kong")  # R6: 暗杠 2, 金杠
            elif e["type"] in ("daiminkan", "kakan"):
                each_other(e["actor"], 1, "kong")  # R6: 明杠 1
    if any(e["type"] == "chan" for e in hand):
        for p in range(4):
            if p != dealer:
                out.append(("chan", dealer, p, rules.chan_units * rules.base * mult(dealer, p)))
    if rules.wild_discard_penalty:
        for e in hand:
            if e["type"] == "dahai" and e["wild"]:
                for p in range(4):
                    if p != e["actor"]:
                        out.append(("penalty", e["actor"], p, rules.wild_discard_penalty * rules.base
                                    * mult(e["actor"], p)))
    return out


def is_chan(hand: list[dict]) -> bool:
    """R7: the first four discards are the dealer's and then each other seat's, one kind, no claim between."""
    dealer = hand[0]["dealer"]
    seen: list[tuple[int, str]] = []
    for e in hand:
        if e["type"] in ("pon", "daiminkan"):
            return False
        if e["type"] == "dahai":
            seen.append((e["actor"], e["pai"]))
            if len(seen) == 4:
                return [s for s, _ in seen] == [(dealer + i) % 4 for i in range(4)] and len({t for _, t in seen}) == 1
    return False


def successor(kind: str) -> str:
    """R2: 1→2 … 9→1 within a suit; 东→南→西→北→东; 中→发→白→中 (5z 6z 7z)."""
    n, suit = int(kind[0]), kind[1]
    if suit != "z":
        return f"{n % 9 + 1}{suit}"
    return f"{n % 4 + 1}z" if n <= 4 else f"{(n - 4) % 3 + 5}z"


def check_hand_record(hand: list[dict], rules: Rules, nxt: dict | None) -> None:
    """One finished hand: wilds, payments, zero-sum, 铲, turn order, the next dealer (R9), sitting (R7)."""
    start, end = hand[0], hand[-1]
    wilds = [start["dora_marker"]]
    while len(wilds) < rules.wild_kinds:
        wilds.append(successor(wilds[-1]))
    assert start["wilds"] == wilds  # R2 (`wild_kinds`)
    pays = [(p["reason"], p["payer"], p["payee"], p["amount"]) for p in end["payments"]]
    deltas = [0] * 4
    for _, payer, payee, amount in pays:
        assert amount > 0 and payer != payee
        deltas[payer] -= amount
        deltas[payee] += amount
    assert deltas == end["deltas"] and sum(deltas) == 0  # R8: zero-sum
    assert [a + d for a, d in zip(start["scores"], deltas)] == end["scores"]
    assert any(e["type"] == "chan" for e in hand) == is_chan(hand)
    expected = expected_payments(hand, rules)
    if rules.settlement == "open":
        assert sorted(pays) == sorted(expected)
    else:  # R8 pot: each payment is the open one, cut to what the payer has left
        owed_n: Counter = Counter()
        owed: Counter = Counter()
        paid_n: Counter = Counter()
        paid: Counter = Counter()
        for r, a, b, n in expected:
            owed_n[(r, a, b)] += 1
            owed[(r, a, b)] += n
        for r, a, b, n in pays:
            paid_n[(r, a, b)] += 1
            paid[(r, a, b)] += n
        assert all(paid_n[k] <= owed_n[k] and paid[k] <= owed[k] for k in paid_n)
    hora = [e for e in hand if e["type"] == "hora"]
    assert len(hora) + sum(e["type"] == "ryukyoku" for e in hand) == 1
    # R3/R4: a head draw is made by the seat after the last discarder (the dealer starts); a
    # replacement draw by the seat that has just konged
    last_discarder = None
    plays = [e for e in hand if e["type"] != "chan"]  # the chan event follows the 4th discard
    for prev, e in zip(plays, plays[1:]):
        if e["type"] == "dahai":
            last_discarder = e["actor"]
        if e["type"] == "tsumo":
            if e["replacement"]:
                assert prev["type"] in ("ankan", "kakan", "daiminkan") and prev["actor"] == e["actor"]
            else:
                assert prev["type"] == "dahai" and e["actor"] == (last_discarder + 1) % 4
        if prev["type"] == "start_kyoku" and e["type"] != "end_kyoku":
            assert e.get("actor") == start["dealer"]
    if nxt is None:
        return
    dealer = start["dealer"]
    if hora:
        keeps = hora[0]["actor"] == dealer
    else:
        kongs = [e["actor"] for e in hand if e["type"] in ("ankan", "daiminkan", "kakan")]
        keeps = all(a == dealer for a in kongs)
    assert nxt["dealer"] == (dealer if keeps else (dealer + 1) % 4)  # R9
    if keeps and start["sit"]:
        assert nxt["sit"] is True  # R7: a dealer who sat and kept the deal sits again
    if rules.forced_sit:
        assert nxt["sit"] is True


def check_hora(e: dict, indicator: str, rules: Rules) -> None:
    """R5: the recorded win re-scored by the scorer gives the same fan, elements and name."""
    r = score(" ".join(e["hand"]), e["pai"], indicator, list(e["melds"]), kong_draw=e["kong_draw"],
              tianhu=e["tianhu"], rules=rules)
    assert r.win, (e, r.reason)
    assert (r.fan, r.codes, r.name) == (e["fan"], e["elements"], e["name"])


@pytest.mark.parametrize("name", IDS)
def test_conservation_settlement_rotation_and_wins(name):
    """Over 400 hands per configuration: conservation at every step, each hand's record checked."""
    rules = CONFIGS[name]
    wins = draws = 0
    for seed in range(8):
        m = None
        tr = None
        for m in play(rules, seed, 50, hook=claim_hook):
            tr = tr or Tracker(m)
            if m.phase in ("turn", "claim"):
                check_conservation(m, tr)
            if m.phase == "turn":
                check_turn_offer(m, tr)
                if m.rules.settlement == "pot":
                    assert min(m.pot_left) >= 0 and sum(m.pot_left) == 4 * rules.pot_stake
        assert m is not None and m.is_over
        hands = list(hands_of(m.events))
        assert len(hands) == 50
        starts = [e for e in m.events if e["type"] == "start_kyoku"]
        for i, hand in enumerate(hands):
            check_hand_record(hand, m.rules, starts[i + 1] if i + 1 < len(starts) else None)
            for e in hand:
                if e["type"] == "hora":
                    check_hora(e, hand[0]["dora_marker"], m.rules)
                    wins += 1
            draws += any(e["type"] == "ryukyoku" for e in hand)
        assert sum(m.scores) == 0
        assert m.events[-1]["type"] == "end_game" and m.events[-1]["scores"] == m.scores
    assert wins >= 3 and draws >= 100  # both outcomes were exercised


# ---- illegal actions -----------------------------------------------------------------------------


def snapshot(m: Match) -> tuple:
    return (len(m.events), m.phase, m.to_act, list(m.scores), m.dealer, m.hand_number,
            [json.dumps(m.observation(s), sort_keys=True, default=str) for s in range(4)],
            [str(a) for a in m.legal_actions(m.to_act)] if not m.is_over else [])


def illegal_candidates(m: Match, rng: random.Random) -> list[str | Action]:
    seat = m.to_act
    legal = set(m.legal_actions(seat))
    held = set(m.seats[seat].hand) if m.phase in ("turn", "claim") else set()
    cands: list[str | Action] = [
        "sit 1", "sit 0",  # sit twice / out of phase
        "pull 1", f"pull {m.rules.max_pull + 1}", "pull 9",
        "win", "pass", "pon", "kong",  # win when not winning, pass with no claim, a claim out of phase
        "", "fly", "discard", "discard 0m", "discard 8z", "discard 5m 6m", "sit x",
    ]
    not_held = [k for k in range(34) if k not in held]
    for k in rng.sample(not_held, min(3, len(not_held))):
        cands.append(Action("discard", TILES[k]))  # a tile not held
    for k in rng.sample(range(34), 4):
        for t in ("pon", "kong", "ankong", "added_kong"):
            cands.append(Action(t, TILES[k]))
    if m.phase == "claim":  # a bare "pon"/"kong" names the discard on offer: legal when that claim is
        offered = {a.type for a in legal}
        cands = [a for a in cands if not (isinstance(a, str) and a in ("pon", "kong") and a in offered)]
    return [a for a in cands if not isinstance(a, Action) or a not in legal]


@pytest.mark.parametrize("name", IDS)
def test_illegal_actions_raise_and_change_nothing(name):
    """At every decision: another seat's action, or an action not in legal_actions, raises
    IllegalAction and leaves events, phase, scores and every observation unchanged."""
    rules = CONFIGS[name]
    rng = random.Random(5)
    checked = 0
    for seed in range(2):
        m = None
        for m in play(rules, 100 + seed, 5):
            if m.is_over:
                break
            before = snapshot(m)
            seat = m.to_act
            legal = m.legal_actions(seat)
            assert m.legal_view(seat) == legal and m.legal_view(seat) is m.legal_view(seat)  # no copy
            for other in range(4):
                if other != seat:
                    assert m.legal_actions(other) == []
                    assert m.legal_view(other) == []
                    with pytest.raises(IllegalAction):
                        m.apply(other, rng.choice(legal))
            for a in illegal_candidates(m, rng):
                if isinstance(a, str):
                    try:
                        parsed = Action.parse(a)
                    except IllegalAction:
                        parsed = None
                    if parsed is not None and parsed in legal:
                        continue
                with pytest.raises(IllegalAction):
                    m.apply(seat, a)
            assert snapshot(m) == before
            checked += 1
        assert m is not None and m.is_over
        with pytest.raises(IllegalAction):
            m.apply(0, "sit 0")
    assert checked > 500


# ---- what a seat may see ---------------------------------------------------------------------


def lists_in(obj: object, path: str = "") -> Iterator[tuple[str, list]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from lists_in(v, f"{path}.{k}")
    elif isinstance(obj, list):
        if all(isinstance(x, str) for x in obj):
            yield path, obj
        for i, v in enumerate(obj):
            yield from lists_in(v, f"{path}[{i}]")


def check_observations(m: Match) -> None:
    in_order = [[TILE_TEXT[t] for t in sorted(st.hand)] for st in m.seats]  # by kind, as 'hand' shows it
    hands = [sorted(h) for h in in_order]
    for s in range(4):
        obs = m.observation(s)
        text = json.dumps(obs, ensure_ascii=False)
        assert not {"tehais", "wall", "tiles", "hands"} & set(obs) and "tehais" not in text
        assert obs["hand"] == in_order[s]
        if obs["drawn"] is not None:
            assert s == m.to_act and obs["drawn"] in hands[s]
        for path, lst in lists_in(obs):
            key = sorted(lst)
            for o in range(4):
                if len(hands[o]) < 4 or key != hands[o]:
                    continue
                # the seat's own hand appears only as 'hand'; another's concealed tiles never
                assert o == s and path == ".hand", (s, o, path)
        flat = text.replace('", "', "").replace('"', "")
        for o in range(4):
            if o != s:
                assert obs["seats"][o]["hand_size"] == len(hands[o])
                if len(hands[o]) >= 7:
                    assert "".join(in_order[o]) not in flat


@pytest.mark.parametrize("name", ["classic", "yiyou", "classic-flip-min1-wk3"])
def test_observation_hides_other_hands(name):
    """An observation holds its own concealed tiles (as 'hand') and never another seat's."""
    rules = CONFIGS[name]
    steps = 0
    for seed in range(2):
        for m in play(rules, 200 + seed, 12):
            if m.phase in ("turn", "claim"):
                check_observations(m)
                steps += 1
    assert steps > 1500


def test_match_reproducible_from_seed_and_actions():
    """R3/engine: a match is determined by (rules, seed, the actions taken)."""
    def events(name: str, seed: int) -> list[dict]:
        *_, m = play(CONFIGS[name], seed, 6)
        return m.events

    for name in ("classic", "yiyou-pot-flip"):
        assert events(name, 9) == events(name, 9)
        assert events(name, 9) != events(name, 10)


def test_match_length_in_rounds_random_play():
    """R9: with match_rounds = 1 the match ends when the deal passes from the fourth dealer back to the first."""
    for seed in range(6):
        rng = random.Random(seed)
        m = Match(CLASSIC.replace(match_rounds=1, min_fan=1), seed)
        while not m.is_over:
            m.apply(m.to_act, choose(m, rng, 0.9))
        dealers = [e["dealer"] for e in m.events if e["type"] == "start_kyoku"]
        assert dealers[0] == 0 and dealers[-1] == 3 and dealers == sorted(dealers)
        assert set(dealers) == {0, 1, 2, 3}
        assert m.round == 1 and m.dealer == 0 and m.events[-1]["type"] == "end_game"

