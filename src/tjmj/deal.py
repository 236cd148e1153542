"""Deals anyone can verify (docs/records.md, "A deal committed before it is dealt"; issue 31, part 5).

Before a web match deals its first hand, the server shows the table (and stores) a commitment to
the match seed: ``SHA-256("tjmj-deal:" + salt + ":" + seed)`` in hex, with a random 128-bit
``salt`` kept secret until the match ends (without it the 62-bit seed could be searched from the
commitment).  When the match is over, its record reveals the seed (``start_game.seed``) and the
match's details the salt, so anyone can check two things with :func:`verify` (``tjmj verify
RECORD``): that the commitment was to this seed, and that every wall of the record came from it
(the record replays: :func:`tjmj.record.replay` deals every hand again from the seed and compares
each tile drawn).  The server cannot then have arranged a deal once it saw how the match went.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from typing import Any

__all__ = ["commitment", "deal_settings", "new_salt", "salt_of", "valid_salt", "verify"]

_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    return secrets.token_hex(16)


def valid_salt(value: Any) -> bool:
    return isinstance(value, str) and _HEX32.fullmatch(value) is not None


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` shown before the first deal."""
    return hashlib.sha256(f"tjmj-deal:{salt}:{seed}".encode()).hexdigest()


def deal_settings(seed: int, salt: str | None) -> dict[str, Any]:
    """What a web match stores of its commitment (in its settings): ``{"deal": {"commitment",
    "salt"}}``; the store's public reads leave the salt out until the match is over."""
    return {"deal": {"commitment": commitment(seed, salt), "salt": salt}} if salt else {}


def salt_of(settings: Any) -> str | None:
    """The salt stored in a match's or a waiting room's settings (None: stored without one)."""
    deal = settings.get("deal") if isinstance(settings, dict) else None
    salt = deal.get("salt") if isinstance(deal, dict) else None
    return salt if valid_salt(salt) else None


def verify(events: Sequence[dict[str, Any]], commitment_hex: str | None = None, salt: str | None = None) -> list[str]:
    """What is wrong with a finished match's record and its commitment (``[]``: nothing): the
    record must replay (every wall from its seed), and with ``commitment_hex`` and ``salt`` the
    commitment must be to the record's seed."""
    from .record import replay

    problems: list[str] = []
    if not events or events[0].get("type") != "start_game":
        return ["the record does not open with start_game"]
    seed = events[0].get("seed")
    result = replay(events)
    if not result.ok:
        problems.append(f"the record does not replay from its seed: {result.summary()}")
    if (commitment_hex is None) != (salt is None):
        problems.append("give both the commitment and the salt, or neither")
    elif commitment_hex is not None and salt is not None:
        if not _HEX64.fullmatch(commitment_hex) or not valid_salt(salt):
            problems.append("the commitment is 64 hex digits and the salt 32")
        elif not isinstance(seed, int) or commitment(seed, salt) != commitment_hex:
            problems.append(f"the commitment is not to this record's seed ({seed}) with this salt")
    return problems
