"""``tjmj stats``: player statistics from the web table's database (docs/cli.md, :mod:`tjmj.stats`).

Registered lazily in :mod:`tjmj.cli` (``_COMMANDS``).  ``--json`` prints exactly what
``GET /api/players/{name}`` answers (both call :func:`tjmj.stats.load_player`).
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import TYPE_CHECKING, Any

import click

from .. import families
from .common import CliError

if TYPE_CHECKING:
    from rich.console import Console

    from ..web.store import Store

__all__ = ["stats"]

def _title(family: str) -> str:
    """A family as the tables head it: 天津麻将 Tianjin."""
    f = families.get(family)
    return f"{f.chinese} {f.short}"


def _one_line(e: BaseException) -> str:
    orig = getattr(e, "orig", None)
    text = str(orig if orig is not None else e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _open(db: str | None) -> Store:
    """The store at ``db`` (default: ``$TJMJ_DATABASE_URL``, else the server's default SQLite file);
    a SQLite file that does not exist is an error here (a report must not create an empty database)."""
    import sqlalchemy as sa

    from ..web.store import ENV_URL, Store, _sqlite_file, default_url

    url = db or os.environ.get(ENV_URL) or default_url()
    try:
        path = _sqlite_file(url)
    except Exception as e:  # not a URL at all
        raise CliError(f"--db {url!r}: not a database URL: {_one_line(e)}") from None
    if path is not None and not os.path.isfile(path):
        raise CliError(f"no database at {path} (tjmj serve creates it)")
    try:
        return Store(url)
    except Exception as e:  # a bad URL, an unreachable server, a file that is not a database
        shown = url  # kept as given when it does not parse as a URL
        with contextlib.suppress(Exception):
            shown = sa.make_url(url).render_as_string(hide_password=True)
        raise CliError(f"cannot open the database {shown}: {_one_line(e)}") from None


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:g}"


def _player_tables(console: Console, report: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    console.print(f"[bold]{escape(report['name'])}[/]: {report['matches']} matches, {report['hands']} hands, "
                  f"{report['wins']} wins ({_pct(report['win_rate'])})")
    fams = report["families"]
    summary = Table(title="By game")  # one column per game: fits 80 columns
    summary.add_column("figure")
    for fam in fams:
        summary.add_column(_title(fam), justify="right")
    rows: list[tuple[str, Any]] = [
        ("matches", lambda f: f["matches"]), ("hands", lambda f: f["hands"]), ("wins", lambda f: f["wins"]),
        ("win rate", lambda f: _pct(f["win_rate"])), ("self-drawn", lambda f: f["self_drawn"]),
        ("deal-ins", lambda f: f["deal_ins"]), ("mean fan / value", lambda f: f"{_num(f['mean_points'])} {f['points']}"),
        ("total score", lambda f: f["score"]["total"]), ("mean score", lambda f: _num(f["score"]["mean"])),
        ("placed 1st–4th", lambda f: " / ".join(map(str, f["placements"]))),
    ]
    for label, get in rows:
        summary.add_row(label, *(str(get(f)) for f in fams.values()))
    console.print(summary)
    for fam, f in report["families"].items():
        k = f["kongs"]
        console.print(f"\n[bold]{_title(fam)}[/]  kongs {k['total']} (暗杠 {k['ankan']}"
                      + (f", 金杠 {k['gold']}" if k["gold"] else "") + f", 明杠 {k['daiminkan']}, 加杠 {k['kakan']})")
        if "chan" in f:
            c, sp = f["chan"], f["sit_pull"]
            console.print(f"铲 chan: paid {c['paid']} as dealer, received {c['received']}, net {c['net']}")
            console.print(f"坐庄 sat {sp['sat']} of {sp['dealer_hands']} dealer hands, net {sp['sat_net']}; "
                          f"拉庄 pulled in {sp['pulled']} hands ({sp['pulls']} pulls), net {sp['pulled_net']}")
        running = [str(p["total"]) for p in f["timeline"]]
        console.print("score over time: " + " → ".join(running[-20:]) + (" (last 20)" if len(running) > 20 else ""))
        if f["elements"]:
            table = Table(title=f"{_title(fam)}: scoring elements in {f['wins']} wins")
            for col in ("code", "中文", "English", "wins", "share"):
                table.add_column(col, justify="right" if col in ("wins", "share") else "left")
            for e in f["elements"]:
                table.add_row(e["code"], e["chinese"], e["english"], str(e["count"]), _pct(e["rate"]))
            console.print(table)


@click.command("stats")
@click.option("--db", "db", envvar="TJMJ_DATABASE_URL", default=None, metavar="URL",
              help="SQLAlchemy database URL [env TJMJ_DATABASE_URL; default: the SQLite file tjmj serve uses].")
@click.option("--player", "name", default=None, metavar="NAME", help="One player's figures (a person's name).")
@click.option("--id", "player_id", default=None, metavar="ID",
              help="With --player: only the seats of that player id (the browser's, see docs/web.md).")
@click.option("--family", type=click.Choice([f.name for f in families.all_families()]), default=None,
              help="Only the matches of this game.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with --player: what GET /api/players/NAME answers).")
def stats(db: str | None, name: str | None, player_id: str | None, family: str | None, as_json: bool) -> None:
    """Player statistics from the stored matches of the web table (tjmj serve's database)."""
    from .. import stats as st
    from ..web.errors import PLAYER_ID_RE
    from .common import _console

    if player_id is not None and name is None:
        raise CliError("--id needs --player NAME")
    if player_id is not None and not PLAYER_ID_RE.match(player_id):
        raise CliError(f"--id {player_id!r}: a player id is 16 to 32 of A-Z a-z 0-9 _ -")
    if name is not None and not 1 <= len(name) <= 100:
        raise CliError("--player: a name has 1 to 100 characters")
    store = _open(db)
    try:
        if name is not None:
            try:
                report: Any = st.load_player(store, name, player_id, family)
            except st.PlayerNotFound as e:
                raise CliError(str(e)) from None
        else:
            report = {"players": st.all_players(store.player_matches(None, event_types=st.EVENT_TYPES), family)}
    except CliError:
        raise
    except Exception as e:  # the database failed while reading
        raise CliError(f"reading the database failed: {_one_line(e)}") from None
    finally:
        store.close()
    if as_json:
        # as Starlette's JSONResponse writes it: the same bytes as the API
        click.echo(json.dumps(report, ensure_ascii=False, allow_nan=False, separators=(",", ":")))
        return
    console = _console()
    if name is not None:
        _player_tables(console, report)
        return
    from rich.markup import escape
    from rich.table import Table

    if not report["players"]:
        console.print("no finished matches with a person in them")
        return
    table = Table(title="Players" + (f" ({_title(family)})" if family else ""))
    for col in ("player", "matches", "hands", "wins", "win rate", "mean score"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in report["players"]:
        table.add_row(escape(r["name"]), str(r["matches"]), str(r["hands"]), str(r["wins"]), _pct(r["win_rate"]),
                      _num(r["mean_score"]))
    console.print(table)
