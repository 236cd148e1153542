"""What the ``tjmj`` commands share: the input errors, the parsing of melds, rules and ``--set``
(the hand text itself is read by :mod:`tjmj.jsonlines`, the batch's parser, so that the command
line and the batch read tiles alike), the option decorators, the request a command hands to its
family, and the small pieces of Rich output.  Imports nothing of :mod:`tjmj.cli`'s group or commands.

``score``, ``waits`` and ``advise`` read the options every family shares (``--draw``,
``--indicator``, ``--meld``, ``--kong-draw``, ``--rules``, ``--set``, ``--json`` ...) and hand the
rest to the calculator of the family of ``--rules`` (``Family.calculator``, the module
``tjmj/families/<name>/calculator.py``).  Its command-line side (the batch side is in
:mod:`tjmj.jsonlines`):

``HELP_NOTES: dict[str, str]``
    The family's words in the help of a shared option: ``"--indicator"`` (``"R2"``), ``"--draw"``,
    ``"--kong-draw"``, and ``"--meld"`` (its short name when its melds include chi).
``OPTIONS: dict[str, str]``
    Its own options: parameter name (its batch key) -> option (``"dealer": "--dealer"``), in the
    order an error lists them.
``CLI_OPTIONS: dict[str, tuple[(decls, kwargs), ...]]``
    Per command (``"score"``, ``"waits"``, ``"advise"``), its own options as Click declares them
    (``click.option(*decls, **kwargs)``, the parameter name given in ``decls``), in help order;
    the command shows every family's, in registry order, where :func:`family_options` stands.
``foreign_error(given, receiver, why) -> str``
    The error when its options (``given``, spelt as options) come with another family's rules
    (``receiver``, a :class:`~tjmj.family.Family`); ``why`` is the receiver's reason, when it has one.
``score_cli(request)``, ``waits_cli(request)``, ``advise_cli(request)``
    Run the command for a :class:`Request` whose rules are the family's: check the inputs (raising
    :class:`InputError` or ``click.UsageError``) and print the answer.  A family without
    ``advise_cli`` (MCR) is answered by the default family's, which checks its inputs and then
    refuses the rules (:func:`family_rules`).
``waits_json(request) -> dict``
    What ``waits_cli`` prints with ``--json`` (the same checks, the same errors), as a dict: the web
    calculator's ``POST /api/waits`` (:mod:`tjmj.web.calc`) answers it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from .. import families
from ..jsonlines import named_tiles
from ..meld import Meld, parse_melds
from ..rules import PRESETS, Rules, RulesError
from ..tiles import Tile, TileError

if TYPE_CHECKING:
    from rich.console import Console

    from ..family import Family

__all__ = ["CliError", "InputError", "Request", "check_output_file", "check_outside_bots", "family_options",
           "family_rules", "parse_overrides", "refuse_foreign"]


class CliError(click.ClickException):
    """A user mistake found before any work: one ``Error: …`` line on stderr and exit status 2
    (no usage text, no traceback), like the other commands' input errors."""

    exit_code = 2


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """``--set option=value``: the value is JSON (``1``, ``true``, ``"flat"``) or else the raw text.

    Raises ValueError naming the item when it is not ``option=value``.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{item!r}: expected option=value, e.g. --set min_fan=1")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw  # so that tianhu=best_x4 works without shell-quoted JSON
    return out


def check_output_file(path: str | None, option: str) -> None:
    """Raise :class:`CliError` naming ``option``, the path and the problem if no file can be written
    there (missing directory, a directory, no permission); creates nothing."""
    from ..simulate import output_file_problem  # the library's check: the Python API applies it too

    if path is None:
        return
    problem = output_file_problem(path)
    if problem is not None:
        raise CliError(f"{option} {path}: cannot write there: {problem}")


def check_outside_bots(names: Iterable[str], option: str = "--bots") -> None:
    """Raise :class:`CliError` naming the bot if a ``cmd:`` bot has no command or its program cannot be
    started (not on PATH, no such file, not executable), before any match is played; starts nothing."""
    from ..bots.external import check_command, is_external

    for name in dict.fromkeys(names):
        if is_external(name):
            try:
                check_command(name)
            except ValueError as e:  # BotStartError, or no command / bad quoting after "cmd:"
                raise CliError(f"{option}: {e}") from None


class InputError(click.ClickException):
    """Bad input: one ``Error: …`` line on stderr and exit status 2, like Click's usage errors."""

    exit_code = 2


# --------------------------------------------------------------------------------------
# Parsing shared by the commands and the batch: every error names the input it came from.
# --------------------------------------------------------------------------------------


def _melds_text(values: Iterable[str]) -> list[Meld]:
    out: list[Meld] = []
    for v in values:
        try:
            out.extend(parse_melds(v))  # one --meld may also hold several: "[777m](1111z)"
        except TileError as e:
            raise TileError(f"--meld: {e}") from None
    return out


def _overrides(items: Iterable[str]) -> dict[str, Any]:
    try:
        return parse_overrides(items)
    except ValueError as e:
        raise InputError(f"--set {e}") from None


def _rules(preset: str | None, sets: Iterable[str]) -> Rules:
    """The preset (default: the default family's) with the ``--set`` overrides."""
    try:
        return Rules.preset(preset or families.default().default_preset, **_overrides(sets))
    except RulesError as e:
        raise InputError(str(e)) from None


def _family(preset: str | None) -> Family:
    """The family of ``--rules`` (a click.Choice of PRESETS: always known)."""
    return families.find_family(preset or families.default().default_preset)


def family_rules(preset: str | None, sets: Iterable[str], family: Family) -> Any:
    """``_rules(preset, sets)``, which must be ``family``'s (else :func:`_other_rules`'s error)."""
    rules = _rules(preset, sets)
    if not isinstance(rules, family.rules_type):
        raise _other_rules(rules)
    return rules


def _other_rules(rules: Rules) -> InputError:
    """A command that does not take this family's rules (``tjmj advise --rules mcr``): one line."""
    ctx = click.get_current_context(silent=True)
    command = f"tjmj {ctx.info_name}" if ctx is not None and ctx.info_name else "this command"
    return InputError(f"--rules {rules.name.split('+')[0]}: {command} does not take "
                      f"{families.get(rules.family).english} rules")


def _json_line(d: object) -> str:
    return json.dumps(d, ensure_ascii=False)


# --------------------------------------------------------------------------------------
# What a command hands to the family of its rules.
# --------------------------------------------------------------------------------------


@dataclass
class Request:
    """One ``tjmj score`` / ``waits`` / ``advise`` command line: the shared options, and in
    ``options`` every family's own (by parameter name; None or False when not given)."""

    command: str
    hand: str
    draw: str | None
    indicator: str | None
    melds: tuple[str, ...]
    preset: str | None
    sets: tuple[str, ...]
    as_json: bool
    options: dict[str, Any] = field(default_factory=dict)
    kong_draw: bool = False  # score
    svg_path: str | None = None  # score
    seen: tuple[str, ...] = ()  # advise
    wall_left: int | None = None  # advise
    top: int | None = None  # advise

    def foreign(self, receiver: Family) -> list[tuple[Family, list[str]]]:
        """The other families' options given (each family's, registry order), for ``receiver``'s rules."""
        out = []
        for fam in families.all_families():
            given = _given(fam, self.command, self.options) if fam is not receiver else []
            if given:
                out.append((fam, given))
        return out


def _params(family: Family, command: str) -> set[str]:
    """The parameter names of ``family``'s own options of ``command``."""
    return {decls[-1] for decls, _ in family.calculator.CLI_OPTIONS.get(command, ())}


def _given(family: Family, command: str, values: dict[str, Any]) -> list[str]:
    params = _params(family, command)
    return [o for k, o in family.calculator.OPTIONS.items() if k in params and values.get(k) not in (None, False)]


def given_options(command: str, values: dict[str, Any]) -> list[str]:
    """Every family's own options of ``command`` given, spelt as options (registry order)."""
    return [o for fam in families.all_families() for o in _given(fam, command, values)]


def refuse_foreign(request: Request, receiver: Family, why: str = "", *, skip: Iterable[str] = (),
                   reverse: bool = False) -> None:
    """Raise :class:`InputError` if another family's options were given with ``receiver``'s rules:
    the first such family's (registry order; ``reverse``: the last's first, the order some commands
    have always checked in) :func:`foreign_error`.  ``skip``: parameters the receiver words itself."""
    groups = request.foreign(receiver)
    for fam, given in reversed(groups) if reverse else groups:
        spelt = {fam.calculator.OPTIONS[k] for k in skip if k in fam.calculator.OPTIONS}
        given = [o for o in given if o not in spelt]
        if given:
            raise InputError(fam.calculator.foreign_error(given, receiver, why))


def run_family(command: str, request: Request) -> None:
    """Hand ``request`` to the calculator of its rules' family (the default family's when that one has
    no such command: it checks the inputs, then refuses the rules)."""
    run = getattr(_family(request.preset).calculator, f"{command}_cli", None)
    if run is None:
        run = getattr(families.default().calculator, f"{command}_cli")
    run(request)


# --------------------------------------------------------------------------------------
# Human output (Rich).
# --------------------------------------------------------------------------------------


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _esc(s: object) -> str:
    from rich.markup import escape

    return escape(str(s))


def _names(tiles: Iterable[Tile]) -> str:
    return " ".join(t.chinese for t in tiles)


def _print_rows(con: Console, rows: Iterable[tuple[str, str]]) -> None:
    for label, text in rows:
        con.print(f"[bold]{label:<10}[/bold] {_esc(text)}")


def _rules_label(rules: Rules) -> str:
    """The preset's name and the options that differ from it (Rules.name says only "+custom")."""
    base_name = rules.name.split("+")[0]
    base = PRESETS.get(base_name)
    if base is None:
        return rules.name
    changed = [f"{k}={json.dumps(getattr(rules, k))}" for k in type(rules).describe()
               if getattr(base, k) != getattr(rules, k)]
    return base_name + (f" ({', '.join(changed)})" if changed else "")


def _write_text(text: str, path: str) -> None:
    """``--svg FILE``: write the drawing (one error line if it cannot)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"--svg: cannot write {path!r}: {e.strerror or e}") from None


def _pct(p: float) -> str:
    return f"{round(100 * p)}%" if p >= 0.005 or p <= 0 else "<1%"


def _model_line(con: Console, wall_left: int, estimated: bool, draws: int, unseen: int) -> None:
    how = " (estimated)" if estimated else ""
    con.print(f"[bold]{'Model':<10}[/bold] wall {wall_left}{how}, {draws} own draws left, {unseen} unseen tiles")


def _summaries(con: Console, shown: Iterable[Any]) -> None:
    """Each advice option's summary line (``o.rank``, ``o.label()``, ``o.summary``)."""
    con.print()
    for o in shown:
        con.print(f"{o.rank}. {_esc(o.label())}: {_esc(o.summary)}", overflow="fold")


def _seen_tiles(seen: Iterable[str]) -> list[Tile]:
    """``--seen``: every tile of every value (an error names the option)."""
    return [t for text in seen for t in named_tiles(text, "--seen")]


# --------------------------------------------------------------------------------------
# Options: the shared ones' help says what each family makes of them; each family adds its own.
# --------------------------------------------------------------------------------------


def _notes(option: str) -> list[str]:
    return [n for fam in families.all_families() if (n := fam.calculator.HELP_NOTES.get(option))]


def _in_parens(notes: list[str], sep: str = "; ") -> str:
    return f" ({sep.join(notes)})" if notes else ""


DRAW_HELP = "The drawn (winning) tile" + "".join(f"; {n}" for n in _notes("--draw")) + "."
INDICATOR_HELP = f"The face-up wild indicator{_in_parens(_notes('--indicator'))}."
_MELD_HELP = (f"Exposed meld (repeatable): [345m] chi{_in_parens(_notes('--meld'), ', ')}, [777m] pon, [7777m] kong, "
              "[7777m+] added kong, (7777m) concealed kong.")
KONG_DRAW_HELP = f"The draw is a kong replacement{_in_parens(_notes('--kong-draw'))}."


def _rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--set", "sets", multiple=True, metavar="OPTION=VALUE",
        help="Override one rule option (repeatable); VALUE is JSON or plain text: min_fan=1, suben=true.",
    )(f)
    by_family = "; ".join(f"{', '.join(fam.presets)}: {fam.short}" for fam in families.all_families())
    f = click.option(
        "--rules", "preset", type=click.Choice(list(PRESETS)), default=None,
        help=f"Rule preset (default {families.default().default_preset}; {by_family}; see `tjmj rules`).",
    )(f)
    return f


def family_options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Every family's own options of ``command`` (``CLI_OPTIONS``), in registry order, here."""
    def apply(f: Callable[..., Any]) -> Callable[..., Any]:
        specs = [spec for fam in families.all_families() for spec in fam.calculator.CLI_OPTIONS.get(command, ())]
        for decls, kwargs in reversed(specs):  # a decorator applied later is listed earlier
            f = click.option(*decls, **kwargs)(f)
        return f
    return apply
