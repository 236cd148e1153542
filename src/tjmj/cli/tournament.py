"""``tjmj tournament``: a duplicate tournament between four bots (docs/tournament.md).

    tjmj tournament --bots baseline,random,baseline,random --hands 400
    tjmj tournament --bots "cmd:python3 examples/bots/simple_bot.py",baseline,baseline,baseline --hands 200 --json
    tjmj tournament --bots strong,baseline,baseline,baseline --hands 2000 --rules beijing_a --workers 2
    tjmj tournament --bots strong,baseline,baseline,baseline --hands 2000 --rules mcr --seed 1

Bad input exits with status 2 and one ``Error: …`` line; a ``--bot-log`` that cannot be written and
a ``cmd:`` bot whose program cannot be started are found before any hand is played.  The progress bar goes to stderr, only
when stderr is a terminal and without ``--json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import click

from .. import families
from ..bots import BOTS, bot_name, split_bot_names
from ..bots.external import BotStartError, is_external
from ..ray_runner import RayUnavailable
from ..rules import PRESETS, Rules, RulesError
from ..tournament import MATCH_HANDS, Report, check_bot
from ..tournament import tournament as run_tournament
from ..wall import SEATS
from .common import CliError, check_output_file, check_outside_bots, parse_overrides
from .simulate import preset_help

__all__ = ["tournament"]


def _parse_bots(text: str) -> tuple[str, ...]:
    names = tuple(bot_name(n) for n in split_bot_names(text))  # commas inside a bot's options (expert(a=1, b=2)) stay
    if len(names) != SEATS:
        raise click.BadParameter(f"give four bot names separated by commas, got {len(names)}: {text!r}",
                                 param_hint="'--bots'")
    check_outside_bots(names)  # one error line naming the command that cannot start
    for n in names:
        try:
            check_bot(n)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="'--bots'") from None
    return names


@click.command("tournament")
@click.option("--bots", required=True, metavar="A,B,C,D",
              help=f"Four bots, repeats allowed: {', '.join(BOTS)}, or cmd:COMMAND for an outside bot; a bot "
                   "may take options: 'expert(budget_ms=500, max_shanten=0)' (docs/bots.md).")
@click.option("--hands", type=click.IntRange(min=1), default=400, show_default=True,
              help="Hands played in all (rounded up to a multiple of 4: every deal is played 4 times).")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed; the same seed gives the same walls.")
@click.option("--rules", "preset", type=click.Choice(list(PRESETS)), default=families.default().default_preset,
              show_default=True, help=preset_help())
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
              help="Override one rule option (repeatable); VALUE is JSON or plain text: min_fan=1.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes; the results do not depend on it.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Run on a Ray cluster (needs the ray extra): --ray alone starts a local one, --ray ADDRESS "
                   "joins one (auto, HOST:6379, ray://HOST:10001); the records do not depend on it.")
@click.option("--match-hands", type=click.IntRange(min=1), default=MATCH_HANDS, show_default=True,
              help="Hands per deal set (one match, played once per rotation).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=2.0, show_default=True,
              help="Seconds an outside bot has per decision.")
@click.option("--bot-log", metavar="FILE",
              help="Append outside bots' stderr to FILE (default: discarded).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def tournament(bots: str, hands: int, seed: int, preset: str, sets: tuple[str, ...], workers: int,
               ray_address: str | None, match_hands: int, timeout: float, bot_log: str | None, as_json: bool) -> None:
    """Duplicate tournament: every deal is played four times with the bots rotated over the seats."""
    names = _parse_bots(bots)
    try:
        rules = Rules.preset(preset, **parse_overrides(sets))
    except (RulesError, ValueError) as e:
        raise click.BadParameter(str(e), param_hint="'--set'") from None
    check_output_file(bot_log, "--bot-log")
    if ray_address is not None and workers > 1:
        raise click.UsageError("give --workers N or --ray, not both")

    def run(progress: Callable[[int, int], None] | None) -> Report:
        return run_tournament(names, hands, seed, rules, workers, progress, match_hands=match_hands, timeout=timeout,
                              bot_log=bot_log, ray=ray_address)

    try:
        if not as_json and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn("[bold]hands"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("hands", total=None)
                report = run(lambda done, total: bar.update(task, completed=done, total=total))
        else:
            report = run(None)
    except BotStartError as e:  # found on PATH, yet the system refused to run it (e.g. no #! line)
        raise CliError(f"--bots: {e}") from None
    except RayUnavailable as e:
        raise CliError(str(e)) from None
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _show(report)


def _show(r: Report) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    d = r.to_dict()
    con = Console(highlight=False)
    own = families.get(r.family).records  # the family's own columns (tjmj.tournament's protocol)
    t = Table(title=f"Duplicate tournament — {escape(r.rules)}, seed {r.seed}: {d['deal_sets']} deal sets "
                    f"× 4 rotations × {r.match_hands} hands")
    outside = any(is_external(n) for n in d["results"])
    for c in own.tournament_columns(d["results"], outside):
        t.add_column(c, justify="left" if c == "bot" else "right", overflow="fold")
    ranked = sorted(d["results"].items(), key=lambda kv: -kv[1]["mean_points"])
    for name, s in ranked:
        ci = f"±{s['ci95_half_width']:.2f}" if s["ci95_half_width"] is not None else "—"
        errs = ", ".join(f"{k} {v}" for k, v in s["errors_by_kind"].items() if v) or "0"
        head = [escape(name), str(s["players"]), f"{s['mean_points']:+.3f}", ci, f"{s['win_rate']:.1%}"]
        t.add_row(*head, *own.tournament_row(s, d["results"], outside, escape(errs)))
    con.print(t)
    con.print(own.tournament_legend(d["results"]))
    for name, s in d["results"].items():  # bots that time their decisions (the expert bot)
        ms = s.get("decision_ms")
        if ms:
            con.print(f"{escape(name)}: {ms['decisions']} decisions, mean {ms['mean']:.1f} ms, median "
                      f"{ms['median']:.1f} ms, 99th percentile {ms['p99']:.1f} ms, max {ms['max']:.1f} ms")
    con.print(f"{d['hands']} hands in {d['seconds']:.2f} s ({d['hands_per_s']:.0f} hands/s)")
