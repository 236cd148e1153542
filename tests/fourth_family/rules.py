"""The test family's rules: Tianjin's options (R2–R9), one wild kind only, and its one preset."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from tjmj.families.tianjin.rules import CHOICES, TianjinRules
from tjmj.rules import Choices, register_presets


@dataclasses.dataclass(frozen=True)
class OneWildRules(TianjinRules):
    """一混: Tianjin with the indicator's kind as the only wild (R2 with ``wild_kinds`` 1)."""

    family: ClassVar[str] = "yihun"
    default_preset: ClassVar[str] = "yihun"
    choices: ClassVar[Choices] = {**CHOICES, "wild_kinds": ((1,), "R2", "one wild kind: the indicator's")}

    wild_kinds: int = 1
    match_rounds: int = 1
    name: str = "yihun"


YIHUN = OneWildRules()
register_presets(OneWildRules, YIHUN)
