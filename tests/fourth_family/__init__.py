"""A fourth rule family defined in the test tree only (issue 29, item 4): 一混天津麻将, Tianjin with one
wild kind and short matches.  It proves the seam: nothing in ``src/`` knows it, yet it plays through
simulate, replay, the RL environment, the web table and the terminal table once registered (in this
process by importing it with :func:`tjmj.families.register`; in a child process through
``TJMJ_FAMILIES=tests.fourth_family``).

Its own modules are its rules and its ``Match`` subclass; every other part is borrowed from Tianjin
(``parts``), as a family that shares a neighbour's scorer would.
"""

from tjmj.family import Family

# the parts a Tianjin-shaped family can borrow whole
BORROWED = ("calculator", "webview", "termview", "bots", "records", "env", "guide", "score", "elements", "waits",
            "advise", "arrange", "reference", "samples")

FAMILY = Family("yihun", "一混天津麻将", "One-wild Tianjin (a test family)", short="One-wild", package=__name__,
                section="R", rules_page="docs/rules/RULES.md",
                parts={p: f"tjmj.families.tianjin.{p}" for p in BORROWED})
