"""Beijing mahjong (北京麻将) on the shared engine: docs/rules/BEIJING.md (B1–B8)."""

from ...family import Family

FAMILY = Family("beijing", "北京麻将", "Beijing mahjong", short="Beijing", package=__name__, section="B",
                rules_page="docs/rules/BEIJING.md",
                compiled=("game", "score", "bots.baseline"))
