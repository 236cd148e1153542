"""Chinese Official mahjong (国标麻将, MCR) on the shared engine: docs/rules/MCR.md (M1–M5)."""

from ...family import Family

FAMILY = Family("mcr", "国标麻将", "Chinese Official mahjong (MCR)", short="MCR", package=__name__, section="M",
                rules_page="docs/rules/MCR.md",
                compiled=("game", "score", "score_hand", "score_judge", "score_tables", "shapes"))
