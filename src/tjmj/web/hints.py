"""The web table's hint (the terminal table shows it too): for each legal discard, what is left
to ready, the tiles that improve, and the win it may lead to, best first, by the family's advisor,
and the expert search a hint may carry (:func:`hint_search_bot`, :data:`HINT_SEARCH_MS`).

The advisor's part is asked of the family's ``webview`` part (:attr:`tjmj.family.Family.webview`,
the module ``tjmj/families/<name>/webview.py``; what :mod:`tjmj.web.settlement` asks of it is
listed there), which defines for the hint:

* ``HINT_OFF_THREAD: bool``: whether ``hint_compute`` runs in a worker thread (the room then sends
  the hint when it is ready; the table goes on meanwhile); if False it runs on the event loop;
* ``hint_available() -> bool``: whether its advisor is installed (else the table says hints are
  not available);
* ``hint_inputs(m, seat) -> Any | None``: what ``hint_compute`` needs, taken from the match on the
  event loop (a copy when ``HINT_OFF_THREAD``); None: no hint (the advisor is missing);
* ``hint_compute(inputs) -> list[dict]``: the hint's entries, one per legal discard, ranked
  (:func:`hint` says what an entry holds);
* ``rules_brief(rules) -> dict``: what the table shows of the rules besides the fields every
  family has (:meth:`tjmj.web.room.Room._rules_brief`).

The helpers here (:func:`visible_counts`, :func:`meld_tiles`, :func:`split_draw`,
:func:`hint_outlook`) are shared by the families' hints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import families
from ..game import Match
from ..meld import Meld
from ..rules import Rules
from ..tiles import Tile

if TYPE_CHECKING:
    from ..bots.expert import ExpertBot

__all__ = [
    "HINT_SEARCH_MS",
    "hint",
    "hint_available",
    "hint_outlook",
    "hint_search_bot",
    "meld_tiles",
    "split_draw",
    "visible_counts",
]

# the time the expert search behind a hint may take (ms): shorter than a bot seat's 200 ms, since a
# person is waiting for it; Lobby(hint_search_ms=None) gives hints without the search part
HINT_SEARCH_MS = 100.0


def meld_tiles(melds: Sequence[str]) -> list[list[int]]:
    """The kinds of the tiles of each meld text (a chi is three kinds, a kong four)."""
    return [[int(t) for t in Meld.parse(text).tiles] for text in melds]


def visible_counts(m: Match, obs: dict[str, Any]) -> list[int]:
    """Copies of each kind the seat of ``obs`` sees: its hand, every meld and every discard.  A
    claimed tile lies in a meld and in its discarder's list too; the claims of the hand (public
    events) say which tile that was, so it is counted once."""
    visible = [0] * 34
    for t in obs["hand"]:
        visible[Tile.parse(t)] += 1
    for st in obs["seats"]:
        for t in st["discards"]:
            visible[Tile.parse(t)] += 1
        for tiles in meld_tiles(st["melds"]):
            for k in tiles:
                visible[k] += 1
    for ev in reversed(m.events):
        if ev["type"] == "start_kyoku":
            break
        if ev["type"] in ("pon", "chi", "daiminkan"):
            visible[Tile.parse(ev["pai"])] -= 1
    return visible


def hint(m: Match, seat: int) -> list[dict[str, Any]]:
    """For each discard the seat may make now, ranked by the family's advisor
    (:mod:`tjmj.families.tianjin.advise`, :mod:`tjmj.families.beijing.advise`,
    :mod:`tjmj.families.mcr.waits`): shanten, live improving tiles and, when ready, what the 13
    tiles left wait on, with fan (Tianjin, MCR) or value (Beijing) and live copies; no advisor: [].

    ``live`` counts copies not visible to this seat: its hand, every meld, every discard and the
    indicator (Beijing's 混坯 while it lies face up).  Each entry also has ``rank`` (1 = best: by the
    expected value of a legal win, docs/advise.md), ``improving`` (live tiles that lower the shanten),
    ``improving_tiles``, ``win_chance`` and ``expected`` (the chance of a legal win within the draws
    the wall leaves, and that times its fan or points), ``legal_shanten``, ``dead`` (ready, no live
    legal win: 死提溜), ``any_tile`` (wins on any tile: 混儿吊 / 混儿悠), ``summary`` and
    ``summary_zh`` (one line each) and, when ready, ``ev`` (Σ live × fan, or × value, over the
    winning draws).
    """
    view = families.get(m.rules.family).webview
    inputs = view.hint_inputs(m, seat)
    return [] if inputs is None else view.hint_compute(inputs)  # type: ignore[no-any-return]


def hint_outlook(o: Any) -> dict[str, Any]:
    """The advisor's figures of one option for a hint entry (either family's ``Option``)."""
    d: dict[str, Any] = {
        "win_chance": round(o.win_chance, 3), "expected": round(o.expected, 2), "legal_shanten": o.legal_shanten,
        "dead": o.dead, "any_tile": o.any_tile, "summary": o.summary, "summary_zh": o.summary_zh,
    }
    if o.legal_improving is not None:
        d["legal_improving"] = o.legal_improving
    return d


def split_draw(obs: dict[str, Any], hand: list[Tile]) -> tuple[list[Tile], Tile]:
    """The 14 tiles of a turn as the hand before the draw and the draw (after a claim, or the
    dealer's first turn, any tile stands for the draw: the discards are judged the same)."""
    drawn = obs.get("drawn")
    rest = list(hand)
    draw = Tile.parse(drawn) if drawn and Tile.parse(drawn) in rest else rest[-1]
    rest.remove(draw)
    return rest, draw


def hint_search_bot(budget_ms: float) -> ExpertBot:
    """The searching bot behind a hint's search part: a fresh :class:`tjmj.bots.expert.ExpertBot` per
    search (two searches of one seat may overlap in the worker threads, and a bot holds its match)."""
    from ..bots.expert import ExpertBot  # the search is only needed when someone asks

    return ExpertBot(budget_ms=budget_ms)


def hint_available(rules: Rules) -> bool:
    """Whether the family of ``rules`` has an advisor the hint can use (its webview says; a family
    without a webview has none)."""
    try:
        return bool(families.get(rules.family).webview.hint_available())
    except ImportError:
        return False
