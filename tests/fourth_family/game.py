"""The test family's match: Tianjin's table loop (R3–R9) under its own family name."""

from tjmj.families.tianjin.game import TianjinMatch


class OneWildMatch(TianjinMatch):
    family = "yihun"


MATCH = OneWildMatch
