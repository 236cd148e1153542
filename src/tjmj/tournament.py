"""Duplicate tournaments: bots compared on the same walls from every seat (docs/tournament.md).

>>> r = tournament(["baseline", "random", "baseline", "random"], hands=8, seed=1, match_hands=2)
>>> r.hands, r.deal_sets, sorted(r.stats)
(8, 1, ['baseline', 'random'])

A run is a sequence of **deal sets**: deal set *i* is a match seed (``match_seed(seed, i)``, as in
:mod:`tjmj.simulate`) of ``match_hands`` hands.  Each deal set is played four times, rotating the
bots over the four players: rotation *r* gives player *p* the bot ``bots[(p + r) % 4]``.  The seed
fixes the seating and every wall whatever the players are called, so every wall is played once by
each bot from each seat and the luck of the deal cancels out.

``hands`` is the number of hands played in all: a multiple of four (rounded up), split into deal
sets of ``match_hands`` hands each (the last one shorter).

Per bot entry (a name given twice is one pooled entry): mean points per hand with a 95%
confidence interval over the deal sets (each deal set gives one value: the bot's points over its
hands in the four rotations divided by those hands; Student's t interval over those values), win
rate, kongs made, the family's own figures (Tianjin: mean fan of wins, 铲 paid; Beijing: mean
value of wins, self-drawn and discard wins, deals-in, claims, 烧庄 paid, 混儿悠, 混杠; MCR: mean fan
of wins without and with flowers, self-drawn and discard wins, deals-in, claims), and for outside
bots (``cmd:...``) their errors.

Deterministic for a seed whatever ``workers`` is: the matches run in a process pool and are merged
in order.

What a family counts of its own: its ``records`` part (:mod:`tjmj.family`) defines ``COUNTS`` (the
per-player counts besides points, wins and kongs: fields of :class:`BotStats`), ``match_win(out,
seating, hora)`` (count a win into the players' counts; ``wins`` is counted here),
``DEALER_PAYMENT`` (the payment reason the dealer pays once per hand that is counted, 铲 or 烧庄;
None: none), ``bot_figures(bot_stats)`` (its keys of :meth:`BotStats.to_dict`), and for ``tjmj
tournament``'s table ``tournament_columns(results, outside)``, ``tournament_row(result, results,
outside, errors)`` (the cells after bot, n, pts/hand, CI, win) and ``tournament_legend(results)``.
A family whose records count chi and pon has ``claims`` among its ``COUNTS``.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from . import families
from .bots import Bot, bot_name, make_bot
from .bots.external import DEFAULT_TIMEOUT, ERROR_KINDS, ExternalBot, check_command, is_external
from .game import Match
from .rules import Rules
from .simulate import match_seed, output_file_problem, play_with
from .wall import SEATS

__all__ = ["tournament", "Report", "BotStats", "MATCH_HANDS", "check_bot", "mean_ci", "t_quantile", "match_counts",
           "decision_ms", "paired"]

MATCH_HANDS = 8  # hands per deal set

# Student's t 0.975 quantiles for 1..30 degrees of freedom; above, a Cornish–Fisher expansion
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975 = 1.959963984540054


def t_quantile(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (two-sided 95%)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_ci(values: Sequence[float]) -> tuple[float, float | None]:
    """(mean, half-width of the 95% t interval); the half-width is None with fewer than two values."""
    n = len(values)
    if n == 0:
        return 0.0, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, t_quantile(n - 1) * math.sqrt(var / n)


def paired(a: dict[str, Any], bot_a: str, b: dict[str, Any], bot_b: str) -> tuple[float, float | None, int]:
    """Two runs on the same deals compared deal set by deal set: ``bot_a`` of report ``a`` against
    ``bot_b`` of report ``b`` (``Report.to_dict()`` forms, e.g. two versions of a bot, each against
    the same opponents).  The same seed, rules and deal sets give the same walls and seating, so the
    luck of the deal cancels from the differences: returns (mean difference of points per hand, the
    half-width of its 95% t interval, deal sets).  ``ValueError`` when the runs are not on the same
    deals or a bot is missing."""
    for key in ("seed", "rules", "match_hands", "deal_sets", "hands"):
        if a.get(key) != b.get(key):
            raise ValueError(f"not the same deals: {key} is {a.get(key)!r} in one report, {b.get(key)!r} in the other")
    try:
        xs, ys = a["results"][bot_a]["set_means"], b["results"][bot_b]["set_means"]
    except KeyError as e:
        raise ValueError(f"no set_means for {e.args[0]!r} in the report (a bot name, or a report before set_means)") from None
    if len(xs) != len(ys):
        raise ValueError(f"not the same deals: {len(xs)} deal sets against {len(ys)}")
    mean, half = mean_ci([x - y for x, y in zip(xs, ys, strict=True)])
    return mean, half, len(xs)


def decision_ms(times: Sequence[float]) -> dict[str, Any]:
    """Per-decision times (seconds) summed up in milliseconds: count, mean, median, 99th percentile, max."""
    ts = sorted(times)
    n = len(ts)

    def at(q: float) -> float:
        return 1000 * ts[min(n - 1, int(q * n))]

    return {"decisions": n, "mean": 1000 * math.fsum(ts) / n, "median": at(0.5), "p99": at(0.99), "max": 1000 * ts[-1]}


def check_bot(name: str) -> None:
    """Raise ValueError (UnknownBot for a registry name; BotStartError, also an OSError, for a ``cmd:``
    bot whose program cannot be found) if ``name`` is not a bot that can play; starts nothing."""
    if is_external(name):
        check_command(name)
    else:
        make_bot(name)


def _make(name: str, timeout: float, log: str | None) -> Bot:
    if is_external(name):
        return ExternalBot(name[4:], name=name, timeout=timeout, stderr=log)
    return make_bot(name)


# the per-player counts of one match every family has; each adds its own (its records.COUNTS:
# Tianjin's fan and 铲, Beijing's value, 烧庄, claims, 混儿悠 ..., MCR's fan and flowers ...)
_COMMON = ("points", "wins", "kongs")


def _default_family() -> str:
    return families.default().name


@dataclass
class BotStats:
    """One bot entry's counts over a run (figures by hand played by that bot); ``family`` decides
    which of the family's own figures ``to_dict`` shows."""

    name: str
    players: int = 0  # how many of the four places it holds
    hands: int = 0  # player-hands played
    points: int = 0
    wins: int = 0
    fan: int = 0  # sum of the fan of its wins (Tianjin; MCR: without flowers)
    flowers: int = 0  # sum of the flowers of its wins (MCR, M3)
    kongs: int = 0
    chan: int = 0  # 铲 paid (R7)
    decisions: int = 0
    defaults: int = 0  # decisions taken by the safe default (outside bots)
    errors: Counter[str] = field(default_factory=Counter)
    set_means: list[float] = field(default_factory=list)  # points per hand, one per deal set
    family: str = field(default_factory=_default_family)
    value: int = 0  # sum of the value of its wins (Beijing B5)
    self_drawn: int = 0  # its self-drawn wins (a robbed kong included: it scores as one, B3)
    discard_wins: int = 0  # its wins on a discard
    dealt_in: int = 0  # its discards another player won on (点炮)
    shaozhuang: int = 0  # 烧庄 paid, as the dealer (B6)
    claims: int = 0  # chi and pon it made (B3)
    hunyou: int = 0  # 混儿悠 it declared (B3)
    hungang: int = 0  # 混杠 it won (B2)
    times: list[float] = field(default_factory=list)  # seconds per decision, for bots that record them

    def add(self, counts: dict[str, int]) -> None:
        for k, v in counts.items():
            setattr(self, k, getattr(self, k) + v)

    def to_dict(self) -> dict[str, Any]:
        mean, half = mean_ci(self.set_means)
        hands = self.hands or 1
        d: dict[str, Any] = {
            "players": self.players,
            "hands": self.hands,
            "points": self.points,
            "mean_points": mean,
            "ci95": [mean - half, mean + half] if half is not None else None,
            "ci95_half_width": half,
            "set_means": list(self.set_means),
            "wins": self.wins,
            "win_rate": self.wins / hands,
        }
        d.update(families.get(self.family).records.bot_figures(self))  # the family's own figures
        d.update({
            "decisions": self.decisions,
            "defaults": self.defaults,
            "errors": sum(self.errors.values()),
            "errors_by_kind": {k: self.errors.get(k, 0) for k in ERROR_KINDS},
        })
        if self.times:
            d["decision_ms"] = decision_ms(self.times)
        return d


@dataclass
class Report:
    """A tournament's results; ``to_dict()`` is the JSON form (``seconds``/``hands_per_s`` vary by machine)."""

    bots: tuple[str, ...]
    seed: int
    rules: str
    match_hands: int
    family: str = field(default_factory=_default_family)
    deal_sets: int = 0
    hands: int = 0  # hands played, all rotations
    seconds: float = 0.0
    stats: dict[str, BotStats] = field(default_factory=dict)

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "seed": self.seed,
            "rules": self.rules,
            "family": self.family,
            "match_hands": self.match_hands,
            "deal_sets": self.deal_sets,
            "hands": self.hands,
            "results": {name: s.to_dict() for name, s in self.stats.items()},
            "seconds": self.seconds,
            "hands_per_s": self.hands_per_s,
        }


# ---- one match ----------------------------------------------------------------------------

# what one match returns, by player: its counts (see _COMMON, _FAMILY_COUNTS), decisions, defaults, errors,
# and the seconds of its decisions (bots that record them: ``decision_times``, the expert bot)
_PlayerResult = tuple[dict[str, int], int, int, dict[str, int], list[float]]
_Task = tuple[int, int, Rules, int, tuple[str, ...], float, str | None, bool]


@dataclass
class _MatchResult:
    set_index: int
    rotation: int
    hands: int
    players: list[_PlayerResult]
    events: list[dict[str, Any]] | None


def play(rules: Rules, seed: int, players: Sequence[Bot]) -> Match:
    """Play one match: player ``p`` (engine seating, R3) is ``players[p]``; outside bots are bound to
    their seat (``hello``).  Closing the players is the caller's."""
    return play_with(Match(rules, seed, names=[b.name for b in players]), players, seed)


def match_counts(events: Sequence[dict[str, Any]], family: str) -> tuple[int, list[dict[str, int]]]:
    """(hands, per player the counts of :data:`_COMMON` and the family's own) of one match's events."""
    own = families.get(family).records
    seating: list[int] = list(range(SEATS))
    keys = _COMMON + own.COUNTS
    claims = "claims" in keys  # chi and pon made, where the family counts them
    out = [dict.fromkeys(keys, 0) for _ in range(SEATS)]
    hands = 0
    for ev in events:
        t = ev["type"]
        if t == "hora":
            out[seating[ev["actor"]]]["wins"] += 1
            own.match_win(out, seating, ev)
        elif t in ("daiminkan", "ankan", "kakan"):
            out[seating[ev["actor"]]]["kongs"] += 1
        elif t in ("chi", "pon") and claims:
            out[seating[ev["actor"]]]["claims"] += 1
        elif t == "dahai" and ev.get("hunyou"):
            out[seating[ev["actor"]]]["hunyou"] += 1
        elif t == "end_kyoku":
            hands += 1
            # 铲 (R7) and 烧庄 (B6) paid: their payments, so that one worth 0 (chan_units 0, a 锅牌
            # payer at zero) is not counted, as no payment of 0 is listed; the dealer pays, once per hand
            reason = own.DEALER_PAYMENT
            if reason is not None and reason in out[0]:
                payer = next((p["payer"] for p in ev["payments"] if p["reason"] == reason), None)
                if payer is not None:
                    out[seating[payer]][reason] += 1
        elif t == "end_game":
            for seat, v in enumerate(ev["scores"]):
                out[seating[seat]]["points"] += v
        elif t == "start_game":
            seating = list(ev["seating"])
    return hands, out


def _run(task: _Task) -> _MatchResult:
    index, rotation, rules, seed, bots, timeout, log, keep = task
    players = [_make(name, timeout, log) for name in bots]
    try:
        m = play(rules, seed, players)
    finally:
        for b in players:
            if isinstance(b, ExternalBot):
                b.close()
    hands, counts = match_counts(m.events, rules.family)
    out: list[_PlayerResult] = []
    for p, b in enumerate(players):
        ext = b if isinstance(b, ExternalBot) else None
        times = getattr(b, "decision_times", None)
        out.append((counts[p], ext.decisions if ext else 0, ext.defaults if ext else 0, dict(ext.errors) if ext else {},
                    list(times) if times else []))
    return _MatchResult(index, rotation, hands, out, m.events if keep else None)


def _tasks(bots: tuple[str, ...], hands: int, seed: int, rules: Rules, match_hands: int, timeout: float,
           log: str | None, keep: bool) -> list[_Task]:
    deals = -(-hands // SEATS)
    out: list[_Task] = []
    i = 0
    while deals > 0:
        n = min(match_hands, deals)
        r_rules = rules.replace(match_hands=n)
        mseed = match_seed(seed, i)
        for r in range(SEATS):
            rotated = tuple(bots[(p + r) % SEATS] for p in range(SEATS))
            out.append((i, r, r_rules, mseed, rotated, timeout, log, keep))
        deals -= n
        i += 1
    return out


def _results(tasks: list[_Task], workers: int, ray: str | None = None,
             on_done: Callable[[int], None] | None = None) -> Iterator[_MatchResult]:
    if ray is not None:
        from .ray_runner import ordered_results

        yield from ordered_results(_run, tasks, ray, on_done)
        return
    if workers == 1 or len(tasks) == 1:
        for t in tasks:
            yield _run(t)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as ex:
        yield from ex.map(_run, tasks, chunksize=1)  # in task order: the merge does not depend on workers


def tournament(
    bots: Sequence[str],
    hands: int = 400,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    *,
    match_hands: int = MATCH_HANDS,
    timeout: float = DEFAULT_TIMEOUT,
    bot_log: str | os.PathLike[str] | None = None,
    on_match: Callable[[int, int, list[dict[str, Any]]], None] | None = None,
    ray: str | None = None,
) -> Report:
    """Play a duplicate tournament (see the module docstring) and return its :class:`Report`.

    ``bots``: four names (registry names or ``cmd:COMMAND``), repeats allowed.  ``progress(done,
    total)`` is called after each match with hands played.  ``timeout``: seconds per decision for
    outside bots; ``bot_log``: a file their stderr is appended to (default: discarded).
    ``on_match(set_index, rotation, events)``, if given, gets every match's events, in order.
    ``ray``: play the matches on the Ray cluster at this address ("": a local one) instead of
    ``workers`` processes (:mod:`tjmj.ray_runner`); the report is the same.  ``rules``: the
    default family's default preset when None.
    """
    if rules is None:
        rules = families.default().default_rules
    names = tuple(bot_name(n) for n in bots)  # one spelling of a bot's options
    if len(names) != SEATS:
        raise ValueError(f"bots: give four names, got {len(names)}: {', '.join(names)}")
    for n in names:
        check_bot(n)
    if not isinstance(hands, int) or hands < 1:
        raise ValueError(f"hands must be a positive integer, got {hands!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if match_hands < 1:
        raise ValueError(f"match_hands must be at least 1, got {match_hands}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    log = os.fspath(bot_log) if bot_log is not None else None
    problem = output_file_problem(log) if log is not None else None
    if problem is not None:  # found now, not when the first outside bot starts
        raise ValueError(f"bot_log {log}: cannot write there: {problem}")
    tasks = _tasks(names, hands, seed, rules, match_hands, timeout, log, on_match is not None)
    total = SEATS * -(-hands // SEATS)
    report = Report(bots=names, seed=seed, rules=rules.name, match_hands=match_hands, family=rules.family)
    for n in dict.fromkeys(names):
        report.stats[n] = BotStats(n, players=names.count(n), family=rules.family)
    set_pts: Counter[str] = Counter()
    set_hands: Counter[str] = Counter()
    start = time.perf_counter()
    finished = [0]

    def on_done(i: int) -> None:  # Ray: progress as matches finish, in any order
        finished[0] += tasks[i][2].match_hands or 0
        if progress is not None:
            progress(finished[0], total)

    for res in _results(tasks, workers, ray, on_done):
        if on_match is not None and res.events is not None:
            on_match(res.set_index, res.rotation, res.events)
        rotated = [names[(p + res.rotation) % SEATS] for p in range(SEATS)]
        report.hands += res.hands
        for name, (counts, dec, dflt, errs, times) in zip(rotated, res.players, strict=True):
            s = report.stats[name]
            s.hands += res.hands
            s.add(counts)
            s.times += times
            s.decisions += dec
            s.defaults += dflt
            s.errors.update(errs)
            set_pts[name] += counts["points"]
            set_hands[name] += res.hands
        if res.rotation == SEATS - 1:  # the deal set is complete
            report.deal_sets += 1
            for name, s in report.stats.items():
                s.set_means.append(set_pts[name] / set_hands[name] if set_hands[name] else 0.0)
            set_pts.clear()
            set_hands.clear()
        if progress is not None and ray is None:
            progress(report.hands, total)
    report.seconds = time.perf_counter() - start
    return report
