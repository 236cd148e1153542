"""``tjmj play``: a match against bots in the terminal, or a seat at a running ``tjmj serve``.

    tjmj play
    tjmj play --rules beijing --bots strong --hands 4
    tjmj play --rules mcr --ascii --record mcr.jsonl
    tjmj play --connect http://127.0.0.1:8000/table/743Q3N

Registered on the ``tjmj`` group by :mod:`tjmj.cli` (loaded lazily: Textual is imported only here).
Bad input (an unknown preset, a bad ``--bots``, an unwritable ``--record``, an unreachable
``--connect`` server, a full or started room) is one ``Error: …`` line and exit status 2, before
the screen opens.  docs/terminal.md describes the screen and the keys.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import click

from .. import families
from ..rules import PRESETS, Rules, RulesError
from .common import CliError, check_output_file, check_outside_bots, parse_overrides

__all__ = ["play", "default_record_path", "parse_bots"]

APP_NAME = "tianjin-mahjong"  # the user data directory of the web store too (tjmj.web.store.APP_NAME)


def default_record_path() -> str:
    """A new file in the user data directory: ``…/tianjin-mahjong/records/play-YYYYmmdd-HHMMSS.jsonl``."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir(APP_NAME)) / "records"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"play-{stamp}.jsonl"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"play-{stamp}-{n}.jsonl"
    return str(path)


def parse_bots(text: str) -> tuple[str, str, str]:
    """``KIND`` for the three others, or ``KIND,KIND,KIND``; each must be a known bot (or ``cmd:…``)."""
    from ..bots import UnknownBot, bot_name, make_bot, split_bot_names

    names = tuple(bot_name(n) for n in split_bot_names(text))
    if len(names) not in (1, 3) or not all(names):
        raise CliError(f"--bots: give one bot kind for the three others or three separated by commas, got {text!r}")
    check_outside_bots(names)
    for n in dict.fromkeys(names):
        try:
            bot = make_bot(n)
        except (UnknownBot, ValueError) as e:
            raise CliError(f"--bots: {e}") from None
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    full = names * 3 if len(names) == 1 else names
    return full[0], full[1], full[2]


def presets_help() -> str:
    """``--rules``'s help: every family's presets, named after the family where it has several."""
    parts = []
    for fam in families.all_families():
        names = ", ".join(fam.presets)
        parts.append(f"{names} ({fam.short})" if len(fam.presets) > 1 else names)
    return f"Rule preset (see `tjmj rules`): {', '.join(parts)}."


@click.command("play")
@click.option("--rules", "preset", default=families.default().default_preset, show_default=True, metavar="PRESET",
              help=presets_help())
@click.option("--bots", default="baseline", show_default=True, metavar="KIND[,KIND,KIND]",
              help="The bots of the three other seats: random, greedy, baseline, strong, with options if any "
                   "(strong(revive=0)), or cmd:COMMAND.")
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
              help="Override one rule option (repeatable; `tjmj rules --rules PRESET` lists them): min_fan=1.")
@click.option("--seed", type=int, default=None, help="The match seed (default: a random one); it deals every hand.")
@click.option("--hands", type=click.IntRange(1, 64), default=None,
              help="Play this many hands (default: the preset's match length).")
@click.option("--name", default="You", show_default=True, help="Your name at the table (at most 20 characters).")
@click.option("--ascii", "ascii_", is_flag=True, help="Tiles as MPSZ text (5m, [777m]) instead of Unicode glyphs.")
@click.option("--record", metavar="PATH",
              help="Write the match's record here (JSON lines, after each hand); default: a new file in the "
                   "user data directory, printed on exit.")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.3, show_default=True,
              help="Seconds before each bot action, so you can follow the play.")
@click.option("--connect", metavar="URL",
              help="Play a seat at a running `tjmj serve`: http://HOST:PORT/table/ROOM joins that room, "
                   "http://HOST:PORT starts a quick room against three bots.")
def play(preset: str, bots: str, sets: tuple[str, ...], seed: int | None, hands: int | None, name: str,
         ascii_: bool, record: str | None, bot_delay: float, connect: str | None) -> None:
    """Play mahjong in the terminal: Tianjin (天津), Beijing (北京) or MCR (国标) against three bots.

    Keys: ← → choose a tile, Enter discards it; w win, p pon, k kong, c chi, h 混儿悠, g 混杠,
    s sit (坐庄), l pull (拉庄), space or n pass; ? hints; q quits.  See docs/terminal.md.
    """
    if preset not in PRESETS:
        raise CliError(f"--rules: unknown preset {preset!r}; presets are {', '.join(PRESETS)}")
    name = name.strip()[:20] or "You"
    check_output_file(record, "--record")
    if connect is not None:
        if sets:  # the room's rules are the server's: a preset and the lobby's choices
            raise CliError("--set: a room at a server plays its preset's rules; --set is for local play")
        result = _play_remote(connect, name, preset, hands, bots, record, ascii_)
    else:
        result = _play_local(preset, bots, sets, seed, hands, name, record, bot_delay, ascii_)
    _report(result)


def _play_local(preset: str, bots: str, sets: tuple[str, ...], seed: int | None, hands: int | None, name: str,
                record: str | None, bot_delay: float, ascii_: bool) -> dict[str, Any]:
    kinds = parse_bots(bots)
    try:
        overrides = parse_overrides(sets)
    except ValueError as e:
        raise CliError(f"--set {e}") from None
    if hands is not None:
        overrides["match_hands"] = hands
    try:
        rules = Rules.preset(preset, **overrides)
    except RulesError as e:
        raise CliError(f"--set: {e}" if sets else f"--hands: {e}") from None
    from ..record import RecordError
    from ..tui.app import TableApp
    from ..tui.source import LocalTable

    path = record or default_record_path()
    try:
        source = LocalTable(rules, bots=kinds, seed=secrets.randbelow(2**31) if seed is None else seed, name=name,
                            record=path, bot_delay=bot_delay)
    except RecordError as e:
        raise CliError(f"--record {path}: holds no readable record to add to: {e}") from None
    app = TableApp(source, ascii=ascii_ or not _tiles_fit())  # measured once the input is known good
    return app.run() or {"record": path, "error": None}


def _play_remote(url: str, name: str, preset: str, hands: int | None, bots: str, record: str | None,
                 ascii_: bool) -> dict[str, Any]:
    from ..tui.app import TableApp
    from ..tui.source import ConnectError, RemoteTable, join_remote

    ctx = click.get_current_context()
    def given(option: str) -> bool:  # a quick room takes the options given, the server's defaults otherwise
        return ctx.get_parameter_source(option) is not click.core.ParameterSource.DEFAULT

    if given("bots") and "," in bots:
        raise CliError("--bots: a room at a server has one bot kind for every bot seat")
    try:
        joined = join_remote(url, name, preset=preset if given("preset") else None, hands=hands,
                             bots=bots if given("bots") else None)
    except ConnectError as e:
        raise CliError(str(e)) from None
    source = RemoteTable(joined, record=record or default_record_path())
    app = TableApp(source, ascii=ascii_ or not _tiles_fit())  # measured once the input is known good
    return app.run() or {"record": None, "error": None}


def _tiles_fit() -> bool:
    """Whether the glyphs will line up in this terminal (tjmj.tui.cellwidth measures it); if not,
    the tiles are drawn as MPSZ text, as --ascii does, rather than a screen that is out of line."""
    from ..tui.cellwidth import fit_to_terminal

    if fit_to_terminal():
        return True
    click.echo("tjmj play: this terminal draws mahjong glyphs at a width the screen cannot follow; "
               "showing tiles as text (--ascii)", err=True)
    return False


def _report(result: dict[str, Any]) -> None:
    names, scores = result.get("names"), result.get("scores")
    if names and scores:
        click.echo("scores: " + ", ".join(f"{n} {s:+d}" if s else f"{n} 0" for n, s in zip(names, scores)))
    if result.get("record"):
        click.echo(f"record: {result['record']}")
    if result.get("error"):
        raise CliError(str(result["error"]))
