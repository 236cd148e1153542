"""Chinese Official mahjong (国标麻将, MCR) on the shared engine: docs/rules/MCR.md (M1–M5)."""
