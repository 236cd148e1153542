"""The ``tjmj`` command line (docs/cli.md): the Click group :func:`main`.

Each command lives in its own module of this package (``score``, ``waits``, ``rules``, ``advise``,
``play``, ``replay``, ``serve``, ``simulate``, ``stats``, ``tournament``), readable alone like
python-chess's; all but the calculator's three are imported only when used, so ``tjmj score``
starts without the web stack.
What they share (input errors, parsing, option decorators, Rich helpers) is :mod:`tjmj.cli.common`.

A thin client of the library: it parses text and hands the hand to the calculator of the rules'
family (``Family.calculator``: :mod:`tjmj.families.tianjin.calculator` for Tianjin, docs/rules/RULES.md,
sections R…; the Beijing one for ``--rules beijing|beijing_a``, BEIJING.md, B…; the MCR one for
``--rules mcr``, MCR.md, M…), which prints the answers; no rule is decided here, and no family is
named (:mod:`tjmj.cli.common` says what a calculator provides).  Rich is imported only by the
human-readable paths so that the batch path (benchmarked, JSON only) starts and runs without it,
and each family's scorer only for its rules.

Imports go one way: :mod:`tjmj.jsonlines` (the batch) ← ``common`` ← the command modules ← this
group (``score``, ``waits`` and ``rules`` at import, the others by name when used); the families'
calculators are found through the registry, and import ``common`` only inside their command-line
functions (the batch loads them without Click).  The console script (:func:`tjmj.batch.console`)
imports the batch and this group, and nothing imports it.
"""

from __future__ import annotations

import importlib

import click

from .. import __version__
from . import rules, score, waits

__all__ = ["main"]

# The calculator's commands (score, waits, rules: registered below, so Click suggests them for a
# misspelt command) load with the group; the others only when used (command name -> module, whose
# attribute of that name is the command), so that `tjmj score` starts without the web stack.
_COMMANDS = {
    "advise": "advise",
    "play": "play",
    "replay": "replay",
    "review": "review",
    "serve": "serve",
    "simulate": "simulate",
    "stats": "stats",
    "tournament": "tournament",
    "user": "user",
    "verify": "verify",
}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _COMMANDS:
            module = importlib.import_module(f"{__name__}.{_COMMANDS[name]}")
            return getattr(module, name)  # type: ignore[no-any-return]
        return super().get_command(ctx, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="tjmj", message="%(prog)s %(version)s")
def main() -> None:
    """Tianjin (天津), Beijing (北京) and MCR (国标) mahjong: the game in the terminal and the browser,
    the hand calculator, self-play and tools.

    Rules in the source tree: docs/rules/RULES.md (Tianjin, --rules classic|yiyou), BEIJING.md
    (--rules beijing|beijing_a), MCR.md (--rules mcr); `tjmj rules` lists the presets.  Tiles in
    MPSZ or Chinese."""


main.add_command(score.score)
main.add_command(waits.waits)
main.add_command(rules.rules_cmd)
