"""Bots that play the engine's decisions (Tianjin R3–R9, Beijing B1–B7, MCR M1–M4) from a seat's
observation only.

One name plays every rule family: a bot reads the family from the observation (its ``family``
field, :func:`tjmj.bots.baseline.family_of`) and plays that family's way, which the family's part
``bots`` holds (``tjmj.families.<name>.bots``).  A driver that knows the match's rules passes them
with ``bot.set_rules(rules)`` where a bot has it (:func:`tjmj.simulate.play_with` does); otherwise
the family infers them (Beijing: from the observation; MCR: the preset ``mcr``).

What is the same in every family is here: the registry (:func:`make_bot`, :data:`BOTS`), the
random bots (:mod:`tjmj.bots.random_bot`), :class:`~tjmj.bots.baseline.BaselineBot` and
:class:`~tjmj.bots.strong.StrongBot` (which ask the family for their choice), the search
(:mod:`tjmj.bots.expert`) and its beliefs (:mod:`tjmj.bots.belief`), outside bots
(:mod:`tjmj.bots.external`) and what the families' bots share (:mod:`tjmj.bots.common`: shanten
with wilds, the discard tie-break).

**The part ``bots`` of a family** (``families.get(name).bots``; the built-in ones are packages with
a ``baseline`` and a ``strong`` module) defines:

* ``baseline_choose(obs, legal, bot) -> Action`` and ``strong_choose(obs, legal, bot) -> Action``:
  the choice of the ``baseline`` and ``strong`` bots; ``bot`` is the calling
  :class:`~tjmj.bots.baseline.BaselineBot` / :class:`~tjmj.bots.strong.StrongBot`, for the rules a
  driver gave it (``bot.rules``, or ``None``), its options (``sit_threshold``, ``revive``) and its
  record of hand results (``StrongBot.track``);
* ``recognises(obs) -> bool``: whether an observation without a ``family`` field (made by hand, or by
  an older driver) is of this family, by a field only its observations have (``False`` for the
  default family, which plays any other);
* ``SEVEN_PAIRS: bool``: 七对 is a winning shape (the ``expert`` bot's rollouts count its shanten);
* ``hundiao_rollouts(rules) -> bool``: the rollouts' seats holding wilds aim at a 混儿吊 ready hand
  (a plain ready hand with wilds cannot win under these rules);
* ``claims_limited(rules) -> bool``: chi and pon are limited in a hand (the rollouts then claim only
  to get closer to ready);
* ``FREE_WILD_DISCARD: bool``: a wild may be discarded without penalty (an outside bot's safe
  default then discards one when nothing else is left: :func:`tjmj.bots.external.safe_default`);
* ``BELIEF: tuple[float, ...]``: the coefficients of :data:`tjmj.bots.belief.FEATURES` fitted to
  ``strong``'s play in this family.

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
import __future__

import ast
import inspect
import json
import random
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..game import Action
from .baseline import BaselineBot
from .random_bot import GreedyRandomBot, RandomBot

__all__ = ["Bot", "BaselineBot", "GreedyRandomBot", "RandomBot", "BOTS", "BOT_NAMES", "make_bot", "UnknownBot",
           "BotOptionError", "bot_name", "bot_options", "split_bot_names"]


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: a name and a choice among the legal actions."""

    name: str

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action: ...


class UnknownBot(ValueError):
    """A bot name that is not in the registry; the message lists the known names."""


class BotOptionError(ValueError):
    """A bot's options (``expert(budget_ms=500)``) that it does not take: an unknown name, a value of
    the wrong kind or out of range, or text that is not ``name(option=value, ...)``; the message names
    the bot, the option and what it takes."""


def _strong() -> Bot:
    from .strong import StrongBot  # imported when first asked for, as the families' play it asks for

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


def split_bot_names(text: str) -> list[str]:
    """Split a ``--bots`` list on the commas outside parentheses, so that a bot's options stay whole:

    >>> split_bot_names("expert(budget_ms=500,max_shanten=0),strong, strong,strong")
    ['expert(budget_ms=500,max_shanten=0)', 'strong', 'strong', 'strong']

    Drivers name each bot by :func:`bot_name`, so that one setting has one spelling in reports.
    """
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return out


def _parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name(option=value, ...)``: the registry name and the options, each value read as
    JSON (``500``, ``true``, ``null``, ``"strong"``) or else as the text itself (``own=strong``)."""
    name, paren, rest = spec.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.rstrip().endswith(")"):
        raise BotOptionError(f"bot {spec!r}: the options must end with ')', e.g. expert(budget_ms=500)")
    opts: dict[str, Any] = {}
    body = rest.rstrip()[:-1]
    for item in split_bot_names(body):  # a bot as a value keeps its options
        if not item:
            continue  # expert() and a trailing comma
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BotOptionError(f"bot {spec!r}: {item.strip()!r} is not option=value, e.g. expert(budget_ms=500)")
        if key in opts:
            raise BotOptionError(f"bot {spec!r}: option {key!r} is given twice")
        try:
            opts[key] = json.loads(raw)
        except ValueError:
            opts[key] = raw.strip()
    return name, opts


def _kinds(hint: Any) -> tuple[Any, ...]:
    """The plain types an annotation allows: ``int | None`` -> (int, NoneType)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(k for h in typing.get_args(hint) for k in _kinds(h))
    return (hint,)


def _coerce(bot: str, key: str, value: Any, hint: Any) -> Any:
    kinds = _kinds(hint)
    if value is None and type(None) in kinds:
        return None
    if isinstance(value, bool):  # before int: JSON true is a bool, and bool is an int in Python
        if bool in kinds:
            return value
    elif isinstance(value, int) and (int in kinds or float in kinds):
        return value if int in kinds else float(value)
    elif isinstance(value, float) and float in kinds or isinstance(value, str) and str in kinds:
        return value
    wanted = " or ".join({bool: "true/false", int: "a whole number", float: "a number", str: "text",
                          type(None): "null"}.get(k, getattr(k, "__name__", str(k))) for k in kinds)
    raise BotOptionError(f"bot {bot}: option {key} must be {wanted}, got {json.dumps(value)}")


def bot_name(spec: str) -> str:
    """The one spelling of a bot with options, as its ``name`` and in reports: ``expert( budget_ms=500 )``
    -> ``expert(budget_ms=500)``; ``expert()`` -> ``expert``; anything else as it is."""
    if spec.startswith("cmd:") or "(" not in spec:
        return spec.strip()
    base, opts = _parse_spec(spec)
    return f"{base}({', '.join(f'{k}={_show(v)}' for k, v in opts.items())})" if opts else base


def _constructor(cls: type) -> Callable[..., Any]:
    """``cls.__init__`` as a function whose signature and type hints Python can read.  A class compiled
    by mypyc (``python -m tjmj.build_compiled``) has none at run time: its ``__init__`` is then read
    again from the module's source beside the compiled file, without its body, so that one
    constructor stays the only place an option is written."""
    init = cls.__init__  # type: ignore[misc]
    if inspect.isfunction(init):  # plain Python: a compiled one is a slot wrapper, (*args, **kwargs)
        return init  # type: ignore[no-any-return]
    module = sys.modules[cls.__module__]
    source = Path(module.__file__ or "").with_name(cls.__module__.rpartition(".")[2] + ".py")
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    item.body, item.decorator_list = [ast.copy_location(ast.Pass(), item)], []
                    code = compile(ast.Module([item], []), str(source), "exec",
                                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
                    space = dict(vars(module))
                    exec(code, space)  # only the def: its defaults are the module's constants
                    return space["__init__"]  # type: ignore[no-any-return]
    return lambda self: None  # no __init__ of its own: it takes no options


def _parameters(cls: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keyword parameters of ``cls``'s constructor with their defaults, and their type hints."""
    init = _constructor(cls)
    sig = inspect.signature(init)
    defaults = {p.name: p.default for p in list(sig.parameters.values())[1:]
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty}
    return defaults, typing.get_type_hints(init, globalns=vars(sys.modules[cls.__module__]))


def bot_options(name: str) -> dict[str, Any]:
    """The options a registry bot takes in ``name(option=value, ...)``, with their defaults: the
    keyword parameters of its class.

    >>> bot_options("strong")
    {'revive': 0.5}
    """
    return _parameters(type(make_bot(name.partition("(")[0].strip())))[0]


def make_bot(name: str) -> Bot:
    """A new bot by registry name, for every rule family: ``random`` (uniform legal, for fuzzing),
    ``greedy`` (random but wins when it can), ``baseline`` (plays sensibly: see :class:`BaselineBot`
    and the family's ``bots.baseline``), ``strong`` (plays for value: :class:`~tjmj.bots.strong.StrongBot`
    and the family's ``bots.strong``), ``expert`` (searches: sampled worlds played to the end of the
    hand, :mod:`tjmj.bots.expert`; it needs ``bind(match, seat)``); ``cmd:COMMAND`` runs an outside bot
    over the JSON-lines protocol (:mod:`tjmj.bots.external`).

    A registry name may carry options for the bot's constructor, ``expert(budget_ms=500, max_shanten=0)``
    (:func:`bot_options` lists them); the bot's ``name`` is then the whole text, so that records and
    tournament reports tell two settings apart.  A bad option raises :class:`BotOptionError`:

    >>> make_bot("expert(budget_ms=500)").budget_ms
    500.0
    >>> make_bot("expert(budget=500)")
    Traceback (most recent call last):
    ...
    tjmj.bots.BotOptionError: bot expert(budget=500): unknown option 'budget'; expert takes budget_ms, \
rollouts, discards, z, min_rounds, bank, race, own, max_shanten, worlds
    """
    if name.startswith("cmd:"):  # an outside bot (docs/bot-protocol.md); its process starts on first use
        from .external import ExternalBot

        return ExternalBot(name[4:], name=name)
    base, opts = _parse_spec(name)
    try:
        factory = BOTS[base]
    except KeyError:
        raise UnknownBot(f"unknown bot {base!r}; bots are {', '.join(BOTS)}, or cmd:COMMAND") from None
    bot = factory()
    if not opts:
        return bot
    spec = bot_name(name)
    cls = type(bot)
    known, hints = _parameters(cls)
    kwargs = {}
    for key, value in opts.items():
        if key not in known:
            takes = f"{base} takes {', '.join(known)}" if known else f"{base} takes no options"
            raise BotOptionError(f"bot {spec}: unknown option {key!r}; {takes}")
        kwargs[key] = _coerce(spec, key, value, hints.get(key, type(known[key])))
    try:
        made = cls(**kwargs)
    except ValueError as e:  # the constructor's own range checks (budget_ms must be positive, ...)
        raise BotOptionError(f"bot {spec}: {e}") from None
    made.name = spec
    return made


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
