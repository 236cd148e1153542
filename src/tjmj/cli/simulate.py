"""``tjmj simulate``: bots play hands or matches on the engine; a summary, optionally the records.

    tjmj simulate --hands 2000 --seed 1
    tjmj simulate --matches 10 --rules yiyou --bots baseline,baseline,random,baseline --out rec.jsonl
    tjmj simulate --hands 500 --set min_fan=1 --workers 4 --json
    tjmj simulate --hands 2000 --rules beijing --bots strong,baseline,baseline,baseline
    tjmj simulate --hands 2000 --rules mcr --seed 1

Registered on the ``tjmj`` group by :mod:`tjmj.cli`.  Bad input exits with status 2 and one
``Error: …`` line, like the other commands; an ``--out`` that cannot be written and a ``cmd:`` bot
whose program cannot be started are found before any hand is played.  The progress bar goes to stderr, only when stderr is
a terminal and without ``--json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import click

from .. import families
from ..bots import BOTS, UnknownBot, bot_name, make_bot, split_bot_names
from ..bots.external import BotStartError
from ..ray_runner import RayUnavailable
from ..rules import PRESETS, Rules, RulesError
from ..simulate import HANDS_PER_MATCH, Summary
from ..simulate import simulate as run_simulation
from ..wall import SEATS
from .common import CliError, check_output_file, check_outside_bots, parse_overrides

__all__ = ["simulate", "preset_help"]


def preset_help() -> str:
    """``--rules``'s help: every family's presets, named as its records part says (``HELP_LABEL``)."""
    groups = ", ".join(f"{', '.join(f.presets)} ({f.records.HELP_LABEL})" for f in families.all_families())
    return f"Rule preset (see `tjmj rules`): {groups}."


def _overrides(items: Iterable[str]) -> dict[str, Any]:
    try:
        return parse_overrides(items)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--set'") from None


def _parse_bots(text: str) -> tuple[str, ...]:
    names = tuple(bot_name(n) for n in split_bot_names(text))
    if len(names) not in (1, SEATS):
        raise click.BadParameter(
            f"give one bot name (for all four players) or four separated by commas, got {len(names)}: {text!r}",
            param_hint="'--bots'",
        )
    check_outside_bots(names)  # one error line naming the command, before make_bot below
    for n in names:
        try:
            make_bot(n)
        except (UnknownBot, ValueError) as e:  # ValueError: "cmd:" with no command
            raise click.BadParameter(str(e), param_hint="'--bots'") from None
    return names * SEATS if len(names) == 1 else names


@click.command("simulate")
@click.option("--hands", type=click.IntRange(min=1), help=f"Play this many hands (matches of {HANDS_PER_MATCH} hands).")
@click.option("--matches", type=click.IntRange(min=1), help="Play this many full matches (R9 length).")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed; the same seed gives the same records.")
@click.option("--rules", "preset", type=click.Choice(list(PRESETS)), default=families.default().default_preset,
              show_default=True, help=preset_help())
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
              help="Override one rule option (repeatable); VALUE is JSON or plain text: min_fan=1, suben=true.")
@click.option("--bots", default="baseline", show_default=True, metavar="NAMES",
              help=f"One bot for all four players, or four comma-separated ({', '.join(BOTS)}); a bot may take "
                   "options: 'strong(revive=0)' (docs/bots.md).")
@click.option("--out", metavar="FILE",
              help="Write every event as JSON lines, match by match.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes; the records do not depend on it.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Run on a Ray cluster (needs the ray extra): --ray alone starts a local one, --ray ADDRESS "
                   "joins one (auto, HOST:6379, ray://HOST:10001); the records do not depend on it.")
@click.option("--hands-per-match", type=click.IntRange(min=1), default=HANDS_PER_MATCH, show_default=True,
              help="With --hands: the length of each match (R9 match_hands).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def simulate(hands: int | None, matches: int | None, seed: int, preset: str, sets: tuple[str, ...], bots: str,
             out: str | None, workers: int, ray_address: str | None, hands_per_match: int, as_json: bool) -> None:
    """Self-play: bots play HANDS hands or MATCHES matches; print a summary (wins, fan or value, kongs, speed)."""
    if (hands is None) == (matches is None):
        raise click.UsageError("give exactly one of --hands N or --matches N")
    names = _parse_bots(bots)
    try:
        rules = Rules.preset(preset, **_overrides(sets))
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="'--set'") from None
    check_output_file(out, "--out")
    if ray_address is not None and workers > 1:
        raise click.UsageError("give --workers N or --ray, not both")
    show_bar = not as_json and sys.stderr.isatty()
    try:
        if show_bar:
            summary = _with_bar(hands, matches, seed, rules, names, out, workers, hands_per_match, ray_address)
        else:
            summary = run_simulation(hands, matches, seed, rules, names, out, workers, hands_per_match=hands_per_match,
                                     ray=ray_address)
    except BotStartError as e:  # found on PATH, yet the system refused to run it (e.g. no #! line)
        raise CliError(f"--bots: {e}") from None
    except RayUnavailable as e:
        raise CliError(str(e)) from None
    if as_json:
        click.echo(json.dumps(summary.to_dict(), ensure_ascii=False))
    else:
        _show(summary, rules, seed)


def _with_bar(hands: int | None, matches: int | None, seed: int, rules: Rules, names: tuple[str, ...],
              out: str | None, workers: int, hands_per_match: int, ray_address: str | None = None) -> Summary:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    unit = "hands" if hands is not None else "matches"
    with Progress(TextColumn(f"[bold]{unit}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(unit, total=hands if hands is not None else matches)
        return run_simulation(hands, matches, seed, rules, names, out, workers,
                              lambda done, total: bar.update(task, completed=done), hands_per_match=hands_per_match,
                              ray=ray_address)


def _show(s: Summary, rules: Rules, seed: int) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    d = s.to_dict()
    con = Console(highlight=False)
    hands = d["hands"] or 1
    bots = f"4 × {d['bots'][0]}" if len(set(d["bots"])) == 1 else ", ".join(d["bots"])
    t = Table(title=f"Self-play — {escape(rules.name)}, seed {seed}, bots {escape(bots)}")
    t.add_column("figure")
    t.add_column("value", justify="right")
    head = [
        ("hands / matches", f"{d['hands']} / {d['matches']}"),
        ("wins", f"{d['wins']} ({d['win_rate']:.1%})"),
        ("draws (荒牌)", f"{d['draws']} ({d['draw_rate']:.1%})"),
        ("wins by seat (E S W N)", " ".join(map(str, d["wins_by_seat"]))),
    ]
    tail = [
        ("mean turns (discards per hand)", f"{d['mean_turns']:.1f}"),
        ("time", f"{d['seconds']:.2f} s ({d['hands_per_s']:.0f} hands/s)"),
    ]
    own = families.get(s.family).records  # the family's own figures (tjmj.simulate's protocol)
    rows = head + own.summary_rows(d, hands) + tail
    for k, v in rows:
        t.add_row(escape(k), escape(v))
    con.print(t)
    b = Table(title="By bot")
    for col in ("bot", "players", "wins", "points"):
        b.add_column(col, justify="left" if col == "bot" else "right")
    for name in d["wins_by_bot"]:
        b.add_row(escape(name), str(d["bots"].count(name)), str(d["wins_by_bot"][name]), str(d["points_by_bot"][name]))
    con.print(b)
    own.show_summary(con, d)
