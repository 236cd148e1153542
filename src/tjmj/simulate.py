"""Self-play: bots play whole matches on the engine (R3–R9); records and a summary.

>>> s = simulate(hands=3, seed=1)
>>> s.hands, s.wins + s.draws
(3, 3)

Two ways to size a run:

* ``matches=N``: N full matches under ``rules`` (their length is R9's: ``match_rounds``, or
  ``match_hands`` if set).
* ``hands=N``: exactly N hands, played as consecutive matches of ``hands_per_match`` hands each
  (the last one shorter): match *i* uses ``rules.replace(match_hands=...)``, so R9's dealer
  rotation, sitting and scores run on within each match and restart at the next.  The split
  depends only on N and ``hands_per_match``, never on ``workers``.

Determinism: match *i* has seed ``match_seed(seed, i)`` and each player's bot its own
``random.Random`` derived from that, so a given (seed, rules, bots, size) gives the same
records and summary with any number of workers (matches run in a process pool and are merged
in index order).

What a family counts of its own: its ``records`` part (:mod:`tjmj.family`) defines

* ``summary_win(summary, hora) -> int``: count the win's own figures on the :class:`Summary`
  (天胡; how it came, 混儿悠, elements; fan and flowers, fans) and return its worth (fan or value)
  for the combination's mean;
* ``summary_hand_end(summary, end_kyoku)``: count what the settlement shows (烧庄 paid), or nothing;
* ``summary_dict(summary) -> dict``: :meth:`Summary.to_dict` (the common keys are
  :meth:`Summary.common_dict`); ``KONG_TYPES``: the kinds of kong it shows;
* for ``tjmj simulate``'s table: ``summary_rows(d, hands)`` (its rows of figures),
  ``show_summary(console, d)`` (its table after the bots'), and ``HELP_LABEL`` (how ``--rules``'s
  help names it after its presets).
"""

from __future__ import annotations

import gc
import hashlib
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from . import families
from .bots import Bot, bot_name, make_bot, split_bot_names
from .families import match_type
from .game import Match
from .rules import Rules
from .wall import SEATS

__all__ = ["simulate", "Summary", "match_seed", "play_match", "output_file_problem", "HANDS_PER_MATCH", "KONG_TYPES"]

HANDS_PER_MATCH = 50  # --hands: hands per match (R9 match_hands)
# every kind of kong a summary counts: 明杠, 暗杠, 金杠, 加杠 (R4, R6); a family shows those it has
# (its ``records.KONG_TYPES``)
KONG_TYPES = ("daiminkan", "ankan", "gold_ankan", "kakan")
_MAX_STEPS_PER_HAND = 10_000  # far above any real hand: a stuck engine fails loudly instead of hanging


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run: a hash, so runs with nearby seeds share no match."""
    digest = hashlib.blake2b(f"tjmj-simulate/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def output_file_problem(path: str | os.PathLike[str]) -> str | None:
    """Why a file cannot be written at ``path`` (in words, naming what is wrong), or None; creates nothing.

    Checked before a run starts, so that a mistyped output path fails at once, not after the work."""
    text = os.fspath(path)
    if not text:
        return "the path is empty"
    if os.path.isdir(text):
        return "it is a directory"
    parent = os.path.dirname(os.path.abspath(text))
    if not os.path.exists(parent):
        return f"the directory {parent} does not exist"
    if not os.path.isdir(parent):
        return f"{parent} is not a directory"
    if os.path.exists(text):
        if not os.access(text, os.W_OK):
            return "no permission to write it"
    elif not os.access(parent, os.W_OK | os.X_OK):
        return f"no permission to create files in {parent}"
    return None


def _bot_rng(mseed: int, player: int) -> random.Random:
    return random.Random(match_seed(mseed, 1000 + player))


@dataclass
class Summary:
    """Counts over a run; ``to_dict()`` gives the JSON form (means and rates computed there).

    Seats are the match's seats 0–3 (E S W N, R3); ``bots`` are per player (the order given),
    and the engine seats players at random, so per-bot figures follow the seating.

    ``family`` is the rule family played (``tianjin``, ``beijing``, ``mcr``): the figures common
    to all are counted for every match, and each family's own (Tianjin: 天胡, 铲, 小相公, 坐庄/拉庄,
    fan; Beijing: chi, wins on a discard, 烧庄, 上楼, 混儿悠, 混杠, value by element; MCR: chi,
    wins on a discard, fan with and without flowers, each fan's frequency) only in its
    ``to_dict()``.
    """

    bots: tuple[str, ...] = ()
    hands: int = 0
    matches: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0] * SEATS)
    wins_by_player: list[int] = field(default_factory=lambda: [0] * SEATS)
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    points_by_player: list[int] = field(default_factory=lambda: [0] * SEATS)
    points_by_bot: dict[str, int] = field(default_factory=dict)
    draws: int = 0  # 荒牌: ryukyoku events
    tianhu: int = 0
    combinations: dict[str, list[int]] = field(default_factory=dict)  # name -> [count, fan (value) sum]
    chan: int = 0  # 铲 (R7)
    kongs: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KONG_TYPES, 0))
    discards: int = 0
    wild_discards: int = 0  # each makes its discarder 小相公 (R2)
    pons: int = 0
    sits: int = 0
    pulls: int = 0
    seconds: float = 0.0
    family: str = field(default_factory=lambda: families.default().name)
    # Beijing (docs/rules/BEIJING.md)
    chis: int = 0  # 吃 (B3)
    self_drawn: int = 0  # wins by self-draw (replacement draws and 混儿悠 included)
    discard_wins: int = 0  # wins on a discard (点炮, B3)
    rob_kong_wins: int = 0  # 抢杠 (B3)
    shaozhuang: int = 0  # 烧庄 events (B6)
    shaozhuang_paid: int = 0  # hands whose settlement paid a 烧庄 (not paid in a drawn hand)
    upstairs: int = 0  # hands played 上楼 (B6)
    hunyou_declared: int = 0  # 混儿悠 discards (B3)
    hunyou_won: int = 0  # 混儿悠 that won on the next draw
    hungang: int = 0  # 混杠 wins (B2)
    elements: dict[str, list[int]] = field(default_factory=dict)  # element code -> [wins, value sum] (B5)
    # MCR (docs/rules/MCR.md): its fans are kept in ``elements`` (fan code -> [wins, fan sum], M3)
    fan_sum: int = 0  # fan of the wins, without flowers (the 8-fan minimum is judged on it, M2)
    flower_sum: int = 0  # flowers of the wins (1 fan each, added after the check, M3)

    @property
    def wins(self) -> int:
        return sum(self.wins_by_seat)

    def add_match(self, events: Sequence[dict[str, Any]], bots_by_player: Sequence[str]) -> None:
        """Count one complete match from its events (start_game … end_game)."""
        seating: list[int] = list(range(SEATS))
        self.matches += 1
        own = families.get(self.family).records
        for ev in events:
            t = ev["type"]
            if t == "tsumo":
                continue  # the commonest event, with dahai: nothing to count
            if t == "dahai":
                self.discards += 1
                if ev["wild"]:
                    self.wild_discards += 1
                if "hunyou" in ev:
                    self.hunyou_declared += 1
            elif t == "hora":
                seat = ev["actor"]
                player = seating[seat]
                self.wins_by_seat[seat] += 1
                self.wins_by_player[player] += 1
                name = bots_by_player[player]
                self.wins_by_bot[name] = self.wins_by_bot.get(name, 0) + 1
                worth = own.summary_win(self, ev)  # the family's own figures of the win
                c = self.combinations.setdefault(ev["name"], [0, 0])
                c[0] += 1
                c[1] += worth
            elif t == "pon":
                self.pons += 1
            elif t == "chi":
                self.chis += 1
            elif t == "daiminkan":
                self.kongs["daiminkan"] += 1
            elif t == "ankan":
                self.kongs["gold_ankan" if ev.get("gold") else "ankan"] += 1
            elif t == "kakan":
                self.kongs["kakan"] += 1
            elif t == "ryukyoku":
                self.draws += 1
            elif t == "chan":
                self.chan += 1
            elif t == "shaozhuang":
                self.shaozhuang += 1
            elif t == "end_kyoku":
                self.hands += 1
                own.summary_hand_end(self, ev)
            elif t == "start_kyoku":
                if "sit" in ev:
                    self.sits += bool(ev["sit"])
                    self.pulls += sum(ev["pulls"])
                if ev.get("upstairs"):
                    self.upstairs += 1
            elif t == "start_game":
                seating = list(ev["seating"])
                rules = ev.get("rules")
                default = families.default().name
                self.family = rules.get("family", default) if isinstance(rules, dict) else default
                own = families.get(self.family).records
            elif t == "end_game":
                for seat, pts in enumerate(ev["scores"]):
                    player = seating[seat]
                    self.points_by_player[player] += pts
                    name = bots_by_player[player]
                    self.points_by_bot[name] = self.points_by_bot.get(name, 0) + pts

    _COUNTS = ("hands", "matches", "draws", "tianhu", "chan", "discards", "wild_discards", "pons", "sits", "pulls",
               "chis", "self_drawn", "discard_wins", "rob_kong_wins", "shaozhuang", "shaozhuang_paid", "upstairs",
               "hunyou_declared", "hunyou_won", "hungang", "fan_sum", "flower_sum")

    def merge(self, other: Summary) -> None:
        """Add another run's counts (used to combine matches in index order)."""
        for attr in self._COUNTS:
            setattr(self, attr, getattr(self, attr) + getattr(other, attr))
        if other.matches:
            self.family = other.family
        for i in range(SEATS):
            self.wins_by_seat[i] += other.wins_by_seat[i]
            self.wins_by_player[i] += other.wins_by_player[i]
            self.points_by_player[i] += other.points_by_player[i]
        for d, o in ((self.wins_by_bot, other.wins_by_bot), (self.points_by_bot, other.points_by_bot),
                     (self.kongs, other.kongs)):
            for k, v in o.items():
                d[k] = d.get(k, 0) + v
        for table, theirs in ((self.combinations, other.combinations), (self.elements, other.elements)):
            for name, (n, worth) in theirs.items():
                c = table.setdefault(name, [0, 0])
                c[0] += n
                c[1] += worth

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; ``seconds`` and ``hands_per_s`` are the only machine-dependent keys.

        The keys common to every family come first; Tianjin adds ``tianhu``, ``mean_fan`` (and
        ``mean_fan`` per combination), ``chan``, ``pons``, ``wild_discards`` (小相公), ``sits`` and
        ``pulls``; Beijing adds ``family``, the wins by how they were won, ``mean_value`` (and per
        combination), ``chis``, ``pons``, ``shaozhuang``, ``upstairs``, 混儿悠, 混杠 and
        ``elements`` (B5: wins, share of wins and mean value of the wins holding each element);
        MCR adds ``family``, the wins by how they were won, ``mean_fan`` (without flowers, M2),
        ``mean_flowers`` and ``mean_total`` (with them), ``fans`` (M3: per fan its name and value,
        the wins holding it, their share and its mean fan in them), ``chis`` and ``pons``."""
        d: dict[str, Any] = families.get(self.family).records.summary_dict(self)
        return d

    def common_dict(self) -> dict[str, Any]:
        """The keys of :meth:`to_dict` every family has, in their order."""
        hands = self.hands or 1
        names = list(dict.fromkeys(self.bots))  # per-bot figures in the order the bots were given
        return {
            "hands": self.hands,
            "matches": self.matches,
            "bots": list(self.bots),
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.wins / hands,
            "draw_rate": self.draws / hands,
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_player": list(self.wins_by_player),
            "wins_by_bot": {n: self.wins_by_bot.get(n, 0) for n in names},
            "points_by_player": list(self.points_by_player),
            "points_by_bot": {n: self.points_by_bot.get(n, 0) for n in names},
        }


def play_match(rules: Rules, seed: int, bots: Sequence[str]) -> Match:
    """Play one match to its end: player ``p`` (engine seating, R3) is played by ``bots[p]``."""
    players = [make_bot(name) for name in bots]
    try:
        # the family's class itself: compiled by mypyc, Match(rules) would skip the subclass's __init__
        return play_with(match_type(rules.family)(rules, seed, names=list(bots)), players, seed)
    finally:
        for b in players:  # outside bots: end their processes with the match
            close = getattr(b, "close", None)
            if close is not None:
                close()


def play_with(m: Match, players: Sequence[Bot], seed: int) -> Match:
    """Drive a fresh match to its end with ready-made bots: player ``p`` is ``players[p]``, each with
    its own rng derived from (seed, p), so results do not depend on process or order."""
    rngs = [_bot_rng(seed, p) for p in range(SEATS)]
    by_seat = [players[m.seating[s]] for s in range(SEATS)]
    for s, b in enumerate(by_seat):
        bind = getattr(b, "bind", None)  # outside bots are told their seat and the rules (hello)
        if bind is not None:
            bind(m, s)
        set_rules = getattr(b, "set_rules", None)  # the rules are public: bots play by them (B3 options …)
        if set_rules is not None:
            set_rules(m.rules)
    rng_by_seat = [rngs[m.seating[s]] for s in range(SEATS)]
    wants_obs = [getattr(b, "uses_observation", True) for b in by_seat]
    steps = 0
    limit = _MAX_STEPS_PER_HAND
    last_hand = 0
    empty: dict[str, Any] = {}
    while not m.is_over:
        seat = m.to_act
        legal = m.legal_actions(seat)
        obs = m.observation(seat) if wants_obs[seat] else empty
        m.apply(seat, by_seat[seat].choose(obs, legal, rng_by_seat[seat]))
        steps += 1
        if m.hand_number != last_hand:
            last_hand, steps = m.hand_number, 0
        elif steps > limit:
            raise RuntimeError(f"match seed {seed}: hand {m.hand_number} did not end after {limit} decisions")
    if sum(m.scores) != 0:  # R8: every payment has a payer and a payee
        raise AssertionError(f"match seed {seed}: scores {m.scores} do not sum to zero")
    return m


# one task per match: (index, rules, seed, bots, keep the events?)
_Task = tuple[int, Rules, int, tuple[str, ...], bool]


def _run(task: _Task) -> tuple[Summary, list[dict[str, Any]] | None]:
    _, rules, seed, bots, keep = task
    # the cyclic collector paused for the match: its thousands of event dicts are new objects that
    # it would scan again and again, and a match makes no cycle worth collecting before it ends
    paused = gc.isenabled()
    gc.disable()
    try:
        m = play_match(rules, seed, bots)
    finally:
        if paused:
            gc.enable()
    s = Summary(bots=bots, family=rules.family)
    s.add_match(m.events, bots)
    return s, (m.events if keep else None)


def _tasks(hands: int | None, matches: int | None, seed: int, rules: Rules, bots: tuple[str, ...], keep: bool,
           hands_per_match: int) -> list[_Task]:
    if matches is not None:
        return [(i, rules, match_seed(seed, i), bots, keep) for i in range(matches)]
    assert hands is not None
    out: list[_Task] = []
    left, i = hands, 0
    while left > 0:
        n = min(hands_per_match, left)
        out.append((i, rules.replace(match_hands=n), match_seed(seed, i), bots, keep))
        left -= n
        i += 1
    return out


def _bots(bots: str | Sequence[str]) -> tuple[str, ...]:
    names = tuple(split_bot_names(bots)) if isinstance(bots, str) else tuple(bots)
    names = tuple(bot_name(n) for n in names)
    if len(names) == 1:
        names = names * SEATS
    if len(names) != SEATS:
        raise ValueError(f"bots: give one name (for all four players) or four, got {len(names)}: {', '.join(names)}")
    for n in names:
        make_bot(n)  # raises UnknownBot (a ValueError) naming the known bots
    return names


def simulate(
    hands: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    rules: Rules | None = None,
    bots: str | Sequence[str] = ("baseline",) * SEATS,
    out: str | os.PathLike[str] | IO[bytes] | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    *,
    hands_per_match: int = HANDS_PER_MATCH,
    ray: str | None = None,
) -> Summary:
    """Run self-play and return its :class:`Summary` (see the module docstring for sizing).

    ``out``: a path or binary file; every event is written as one JSON line, complete matches
    in index order (each from ``start_game`` to ``end_game``).  ``progress(done, total)`` is
    called after each match, counting hands with ``hands=`` and matches with ``matches=``.
    ``ray``: run the matches on the Ray cluster at this address ("": a local one) instead of
    ``workers`` processes (:mod:`tjmj.ray_runner`); the records are the same.  ``rules``: the
    default family's default preset when None.
    """
    if rules is None:
        rules = families.default().default_rules
    if (hands is None) == (matches is None):
        raise ValueError("give exactly one of hands= or matches=")
    size = hands if hands is not None else matches
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"hands/matches must be a positive integer, got {size!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if hands_per_match < 1:
        raise ValueError(f"hands_per_match must be at least 1, got {hands_per_match}")
    names = _bots(bots)
    tasks = _tasks(hands, matches, seed, rules, names, out is not None, hands_per_match)
    summary = Summary(bots=names, family=rules.family)
    sink, close = _open(out)
    start = time.perf_counter()
    sizes = [t[1].match_hands or 0 for t in tasks] if hands is not None else [1] * len(tasks)
    finished = [0]

    def on_done(i: int) -> None:  # Ray: progress as matches finish, in any order
        finished[0] += sizes[i]
        if progress is not None:
            progress(finished[0], size)

    try:
        for s, events in _results(tasks, workers, ray, on_done):
            summary.merge(s)
            if sink is not None and events is not None:
                sink.write(b"".join(orjson.dumps(ev) + b"\n" for ev in events))
            if progress is not None and ray is None:
                progress(summary.hands if hands is not None else summary.matches, size)
    finally:
        if close and sink is not None:
            sink.close()
    summary.seconds = time.perf_counter() - start
    if hands is not None and summary.hands != hands:
        raise AssertionError(f"played {summary.hands} hands, asked for {hands}")
    return summary


def _open(out: str | os.PathLike[str] | IO[bytes] | None) -> tuple[IO[bytes] | None, bool]:
    if out is None:
        return None, False
    if isinstance(out, str | os.PathLike):
        return open(out, "wb"), True  # noqa: SIM115 - closed in simulate's finally
    return out, False


def _results(tasks: list[_Task], workers: int, ray: str | None = None,
             on_done: Callable[[int], None] | None = None) -> Iterator[tuple[Summary, list[dict[str, Any]] | None]]:
    if ray is not None:
        from .ray_runner import ordered_results

        yield from ordered_results(_run, tasks, ray, on_done)
        return
    if workers == 1 or len(tasks) == 1:
        for t in tasks:
            yield _run(t)
        return
    # map() yields in task order, so merging and writing stay in index order
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as ex:
        yield from ex.map(_run, tasks, chunksize=1)
