"""Tianjin mahjong (天津麻将, docs/rules/RULES.md, sections R…), laid out as every family is.

* :mod:`~tjmj.families.tianjin.rules`: :class:`TianjinRules` and the presets ``classic`` and ``yiyou``;
* :mod:`~tjmj.families.tianjin.game`: :class:`TianjinMatch`, the engine's hooks for this family;
* :mod:`~tjmj.families.tianjin.score`: the fast scorer (``score``, ``Scorer``, ``ScoreResult``; R5),
  with :mod:`~tjmj.families.tianjin.elements` (the fan elements and the arrangement they are judged
  on) and :mod:`~tjmj.families.tianjin.arrange` (the arrangement behind a score);
* :mod:`~tjmj.families.tianjin.reference`: the slow exhaustive scorer, the tests' ground truth;
* :mod:`~tjmj.families.tianjin.waits`: waits and shanten; :mod:`~tjmj.families.tianjin.advise`:
  discard advice; :mod:`~tjmj.families.tianjin.samples`: random hands for benchmarks and tests.

What the families share lives outside ``families/``: :mod:`tjmj.hand` (groups, ``InvalidHand``,
shanten on counts), :mod:`tjmj.outlook` (the advisors' model of a win in the draws left) and
``tjmj._tables`` (the per-suit wild tables).  The package ``tjmj`` still exports the scorer's core
names (``from tjmj import score, ScoreResult, Flag``).
"""

from ...family import Family

FAMILY = Family("tianjin", "天津麻将", "Tianjin mahjong", short="Tianjin", package=__name__, section="R",
                rules_page="docs/rules/RULES.md",
                compiled=("game", "score", "bots.baseline"))
