"""Waits of a Beijing hand (docs/rules/BEIJING.md B4, B5): for 13 tiles (+ melds), every kind whose
arrival completes the hand, with the value it scores in the given win context.

>>> [(str(w.tile), w.value) for w in waits("123m46m789m123p55s", indicator="1z")]
[('5m', 32), ('2z', 8)]

(2z is the wild here: a drawn wild plays 5m, and the hand is no longer 无混儿 nor 捉五魁.)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...tiles import NUM_KINDS, TILES, Tile
from .elements import WinContext, elements_of, name_of
from .rules import BEIJING, BeijingRules
from .score import (
    BeijingHand,
    InvalidBeijingHand,
    MeldsLike,
    TileLike,
    TilesLike,
    prepare_beijing,
    scorer_for,
)

__all__ = ["BeijingWait", "waits", "waits_of"]


@dataclass(frozen=True)
class BeijingWait:
    """One winning tile: its value and elements in the context asked, and how many copies are
    still unseen from this seat (hand, melds, face-up 混坯)."""

    tile: Tile
    value: int
    flags: int
    win: bool
    live: int
    scoring: str
    reason: str = ""  # why this tile completes the hand but does not win (B3); '' if it wins

    @property
    def codes(self) -> list[str]:
        return [e.code for e in elements_of(self.flags, self.scoring)]

    @property
    def name(self) -> str:
        return name_of(self.flags, self.scoring)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "tile": str(self.tile),
            "value": self.value,
            "win": self.win,
            "elements": self.codes,
            "name": self.name,
            "live": self.live,
        }
        if self.reason:
            d["reason"] = self.reason
        return d


def waits(
    hand: TilesLike,
    melds: MeldsLike = (),
    indicator: TileLike | None = None,
    rules: BeijingRules = BEIJING,
    context: WinContext | dict | None = None,
    *,
    indicator_visible: bool = True,
) -> tuple[BeijingWait, ...]:
    """Every kind that completes a 13-tile hand (13 − 3 × melds concealed tiles), with its value
    as a win in ``context`` (self-drawn by default; ``WinContext(self_drawn=False)`` for a
    discard).  Kinds of which every copy is already seen (hand, melds, face-up 混坯) are left out.
    """
    h = prepare_beijing(hand, None, melds=melds, indicator=indicator, rules=rules, context=context,
                        indicator_visible=indicator_visible)
    return waits_of(h)


def waits_of(h: BeijingHand) -> tuple[BeijingWait, ...]:
    """:func:`waits` of a checked 13-tile hand."""
    if h.context.hungang:
        raise InvalidBeijingHand("hungang (混杠) is declared with the tiles in hand, not waited for (B2)")
    scorer = scorer_for(h.indicator, h.rules)
    seen = list(h.counts)
    for m in h.melds:
        for t in m.tiles:
            seen[t] += 1
    if h.indicator is not None and h.indicator_visible:
        seen[h.indicator] += 1
    counts = list(h.counts)
    n = len(h.melds)
    ok, reason = scorer._allowed(h.melds, h.context)
    out: list[BeijingWait] = []
    for k in range(NUM_KINDS):
        live = 4 - seen[k]
        if live <= 0:
            continue
        counts[k] += 1
        if scorer.is_complete(counts, n):
            best = scorer._best(counts, k, h.melds, h.context)
            assert best is not None
            out.append(BeijingWait(TILES[k], best[0], best[1], ok, live, h.rules.scoring, reason))
        counts[k] -= 1
    return tuple(out)
