"""Bots that play the engine's decisions (Tianjin R3–R9, Beijing B1–B7, MCR M1–M4) from a seat's
observation only.

One name plays every rule family: a bot reads the family from the observation (Beijing's carries
``upstairs``, B6; MCR's ``prevalent_wind``, M1) and plays that family's way (:mod:`tjmj.bots.beijing`,
:mod:`tjmj.bots.beijing_strong` for Beijing; :mod:`tjmj.bots.mcr`, :mod:`tjmj.bots.mcr_strong` for
MCR).  A driver that knows the match's rules passes them with ``bot.set_rules(rules)`` where a bot
has it (:func:`tjmj.simulate.play_with` does); otherwise a Beijing bot infers the preset and an MCR
bot plays by the preset ``mcr``.

A bot is anything with a ``name`` and ``choose(obs, legal, rng) -> Action``:

* ``obs`` is :meth:`tjmj.game.Match.observation` for the bot's seat (never the engine's hidden
  state: other hands, the wall order);
* ``legal`` is :meth:`tjmj.game.Match.legal_actions` for that seat, never empty;
* ``rng`` is the bot's own :class:`random.Random`; a bot's choice depends only on
  (obs, legal, rng state), so a match is reproducible from its seed.

A bot may set ``uses_observation = False`` when it decides from ``legal`` alone (the random bots):
the driver then passes an empty dict and skips building the observation, which is most of the
per-decision cost of a random game.

A bot may also have ``bind(match, seat)``, which drivers that own the match call before it starts
(:func:`tjmj.simulate.play_with`): the ``expert`` bot (:mod:`tjmj.bots.expert`) searches on copies of
that match in which what its seat cannot see is dealt again (:meth:`tjmj.game.Match.determinize`).
It is in :data:`BOTS` but not in :data:`BOT_NAMES`, the bots that play from the observation alone and
that every driver can offer (a driver that only calls ``choose`` gets ``strong``'s play from it).

>>> [type(make_bot(n)).__name__ for n in BOT_NAMES]
['RandomBot', 'GreedyRandomBot', 'BaselineBot', 'StrongBot']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..game import Action
from .baseline import BaselineBot
from .random_bot import GreedyRandomBot, RandomBot

__all__ = ["Bot", "BaselineBot", "GreedyRandomBot", "RandomBot", "BOTS", "BOT_NAMES", "make_bot", "UnknownBot"]


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: a name and a choice among the legal actions."""

    name: str

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action: ...


class UnknownBot(ValueError):
    """A bot name that is not in the registry; the message lists the known names."""


def _strong() -> Bot:
    from .strong import StrongBot  # strong.py imports this package: import it when first asked for

    return StrongBot()


def _expert() -> Bot:
    from .expert import ExpertBot  # expert.py imports strong.py: likewise

    return ExpertBot()


# name -> factory; the names are what `tjmj simulate --bots` and records use
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyRandomBot,
    "baseline": BaselineBot,
    "strong": _strong,
    "expert": _expert,
}
# the bots that decide from the observation alone, which every driver can offer; ``expert`` searches on
# the match it is bound to (``bind``: tjmj.simulate.play_with, tjmj.tournament): without it it plays as ``strong``
BOT_NAMES: tuple[str, ...] = tuple(n for n in BOTS if n != "expert")


def make_bot(name: str) -> Bot:
    """A new bot by registry name, for every rule family: ``random`` (uniform legal, for fuzzing),
    ``greedy`` (random but wins when it can), ``baseline`` (plays sensibly: see :class:`BaselineBot`,
    :mod:`tjmj.bots.beijing` and :mod:`tjmj.bots.mcr`), ``strong`` (plays for value:
    :mod:`tjmj.bots.strong` in Tianjin, :mod:`tjmj.bots.beijing_strong` in Beijing,
    :mod:`tjmj.bots.mcr_strong` in MCR), ``expert`` (searches: sampled worlds played to the end of the
    hand, :mod:`tjmj.bots.expert`; it needs ``bind(match, seat)``); ``cmd:COMMAND`` runs an outside bot
    over the JSON-lines protocol (:mod:`tjmj.bots.external`)."""
    if name.startswith("cmd:"):  # an outside bot (docs/bot-protocol.md); its process starts on first use
        from .external import ExternalBot

        return ExternalBot(name[4:], name=name)
    try:
        factory = BOTS[name]
    except KeyError:
        raise UnknownBot(f"unknown bot {name!r}; bots are {', '.join(BOTS)}, or cmd:COMMAND") from None
    return factory()
