"""Player statistics from stored matches (docs/web.md, "Player statistics"; ``tjmj stats``).

Everything here is computed from the stored matches and their events (docs/records.md), so it
works the same on every database the store supports.  :func:`player_stats` takes the matches a
player sat in (:meth:`tjmj.web.store.Store.player_matches`, oldest first, each with its
``players`` and ``events``) and returns a JSON-ready dict, per rule family (``tianjin``,
``beijing``, ``mcr``; a match whose rules name no family is Tianjin's):

* ``matches``, ``hands``, ``wins`` (hands won), ``win_rate`` (wins / hands), ``self_drawn``,
  ``deal_ins`` (wins of others on this player's discard; Tianjin wins are self-drawn only, R4, so
  there it is always 0; a robbed kong is not a discard and is not counted);
* ``points`` (``fan`` for Tianjin and MCR — MCR's without the flowers, as the 8-fan minimum judges
  it —, ``value`` for Beijing) and ``mean_points``: the mean over the player's wins;
* ``elements``: how many of the wins held each scoring element or fan (code, Chinese, English);
* ``kongs`` made: ``ankan`` (暗杠, of which ``gold``: 金杠), ``daiminkan`` (明杠), ``kakan`` (加杠;
  one robbed, 抢杠, was never made);
* Tianjin only: ``chan`` (铲, R7: ``paid`` as the dealer, ``received`` as a non-dealer, ``net`` of
  the 铲 payments) and ``sit_pull`` (坐庄/拉庄, R7: ``dealer_hands``, ``sat`` hands and their net
  score ``sat_net``, ``pulled`` hands, total ``pulls`` and ``pulled_net``);
* ``score`` (``total`` and ``mean`` of the final scores), ``placements`` (how often 1st..4th; a tie
  shares the better place) and ``timeline``: the score after each match and the running total.

What a family shows of its own: its ``records`` part (:mod:`tjmj.family`) defines ``POINTS`` (the
field a win's worth is in: ``fan`` or ``value``), ``element_names()`` (element or fan code ->
(Chinese, English)) and ``player_figures(family_stats)`` (its own keys of the figures: Tianjin's
``chan`` and ``sit_pull``; none elsewhere).

A player is a person's seat: bots are not players here.  A name picks every person's seat of that
name; a name and a player id only the seats of that id (docs/web.md).  A match in which the name
held two seats counts twice (each seat is a participation).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import families

__all__ = [
    "EVENT_TYPES",
    "FamilyStats",
    "PlayerNotFound",
    "all_players",
    "family_of",
    "load_player",
    "player_stats",
    "seats_of",
]

# the event types the figures come from: the store reads only these (a record is mostly draws and discards)
EVENT_TYPES = ("start_kyoku", "chan", "ankan", "daiminkan", "kakan", "hora", "end_kyoku", "end_game")


class PlayerNotFound(LookupError):
    """No finished match of that player (name, and id when given)."""


def _family_names() -> list[str]:
    return [f.name for f in families.all_families()]


def family_of(match: dict[str, Any]) -> str:
    """The match's rule family; records from before families are the default family's (Tianjin's)."""
    family = (match.get("rules") or {}).get("family")
    return family if family in _family_names() else families.default().name


def seats_of(match: dict[str, Any], name: str, player_id: str | None = None) -> list[int]:
    """The seats a person named ``name`` (and with ``player_id``, when given) held in ``match``."""
    return [p["seat"] for p in match.get("players") or []
            if p.get("kind") == "human" and p.get("name") == name
            and (player_id is None or p.get("player_id") == player_id)]


def _rate(n: int, d: int, digits: int = 4) -> float | None:
    return round(n / d, digits) if d else None


@dataclass
class FamilyStats:
    """The figures of one player in one rule family, added to match by match (:meth:`add`)."""

    family: str
    matches: int = 0
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    points: int = 0  # sum of the wins' fan or value
    elements: Counter[str] = field(default_factory=Counter)
    kongs: Counter[str] = field(default_factory=Counter)
    chan_paid: int = 0
    chan_received: int = 0
    chan_net: int = 0
    dealer_hands: int = 0
    sat: int = 0
    sat_net: int = 0
    pulled: int = 0
    pulls: int = 0
    pulled_net: int = 0
    total: int = 0
    placements: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    timeline: list[dict[str, Any]] = field(default_factory=list)

    @property
    def _points(self) -> str:
        """The field a win's worth is in (the family's ``records.POINTS``: fan or value)."""
        points: str = families.get(self.family).records.POINTS
        return points

    def add(self, match: dict[str, Any], seat: int) -> None:
        """Count one match from the player's seat ``seat``."""
        events: Sequence[dict[str, Any]] = match.get("events") or []
        kyoku: dict[str, Any] | None = None
        for i, e in enumerate(events):
            kind = e.get("type")
            if kind == "start_kyoku":
                kyoku = e
                if e.get("dealer") == seat:
                    self.dealer_hands += 1
            elif kind == "hora":
                self._hora(e, seat)
            elif kind in ("ankan", "daiminkan") and e.get("actor") == seat:
                self.kongs[kind] += 1
                if e.get("gold"):
                    self.kongs["gold"] += 1
            elif kind == "kakan" and e.get("actor") == seat:
                nxt = events[i + 1] if i + 1 < len(events) else {}
                if not (nxt.get("type") == "hora" and nxt.get("rob_kong")):  # robbed (抢杠): never made
                    self.kongs["kakan"] += 1
            elif kind == "chan":
                if e.get("actor") == seat:
                    self.chan_paid += 1
                else:
                    self.chan_received += 1
            elif kind == "end_kyoku":
                self._end_kyoku(e, kyoku, seat)
                kyoku = None
        scores = match.get("scores") or []
        score = int(scores[seat]) if len(scores) > seat else 0
        self.matches += 1
        self.total += score
        self.placements[sum(1 for s in scores if s > score)] += 1
        self.timeline.append({"match_id": match.get("id"), "finished_at": match.get("finished_at"),
                              "score": score, "total": self.total})

    def _hora(self, e: dict[str, Any], seat: int) -> None:
        actor, target = e.get("actor"), e.get("target")
        self_drawn = bool(e.get("self_drawn", actor == target))  # Tianjin's hora: self-drawn only (R4)
        if actor == seat:
            self.wins += 1
            self.self_drawn += self_drawn
            self.points += int(e.get(self._points) or 0)
            self.elements.update(set(e.get("elements") or []))  # once per win (MCR's flowers: ×n once)
        elif target == seat and not self_drawn and not e.get("rob_kong"):
            self.deal_ins += 1

    def _end_kyoku(self, e: dict[str, Any], kyoku: dict[str, Any] | None, seat: int) -> None:
        self.hands += 1
        deltas = e.get("deltas") or []
        delta = int(deltas[seat]) if len(deltas) > seat else 0
        for pay in e.get("payments") or []:
            if pay.get("reason") == "chan":
                self.chan_net += pay["amount"] * ((pay.get("payee") == seat) - (pay.get("payer") == seat))
        if kyoku is None:
            return
        if kyoku.get("sit") and kyoku.get("dealer") == seat:  # 坐庄
            self.sat += 1
            self.sat_net += delta
        pulls = kyoku.get("pulls") or []
        if len(pulls) > seat and pulls[seat]:  # 拉庄
            self.pulled += 1
            self.pulls += pulls[seat]
            self.pulled_net += delta

    def to_dict(self) -> dict[str, Any]:
        own = families.get(self.family).records
        names: dict[str, tuple[str, str]] = own.element_names()
        elements = [{"code": code, "chinese": names.get(code, (code, code))[0],
                     "english": names.get(code, (code, code))[1], "count": n, "rate": _rate(n, self.wins)}
                    for code, n in sorted(self.elements.items(), key=lambda kv: (-kv[1], kv[0]))]
        out: dict[str, Any] = {
            "family": self.family,
            "matches": self.matches,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": _rate(self.wins, self.hands),
            "self_drawn": self.self_drawn,
            "deal_ins": self.deal_ins,
            "points": own.POINTS,
            "mean_points": _rate(self.points, self.wins, 2),
            "elements": elements,
            "kongs": {k: self.kongs[k] for k in ("ankan", "gold", "daiminkan", "kakan")}
            | {"total": self.kongs["ankan"] + self.kongs["daiminkan"] + self.kongs["kakan"]},
        }
        out.update(own.player_figures(self))  # the family's own figures (Tianjin's 铲 and 坐庄/拉庄)
        out["score"] = {"total": self.total, "mean": _rate(self.total, self.matches, 2)}
        out["placements"] = list(self.placements)
        out["timeline"] = list(self.timeline)
        return out


def player_stats(matches: Iterable[dict[str, Any]], name: str, player_id: str | None = None,
                 family: str | None = None) -> dict[str, Any]:
    """The statistics of the person ``name`` (only the seats of ``player_id`` when given) over
    ``matches`` (oldest first; each with ``players``, ``scores`` and ``events``), optionally only
    those of ``family``.  :class:`PlayerNotFound` when no seat matches."""
    per: dict[str, FamilyStats] = {}
    for match in matches:
        fam = family_of(match)
        if family is not None and fam != family:
            continue
        for seat in seats_of(match, name, player_id):
            per.setdefault(fam, FamilyStats(fam)).add(match, seat)
    if not per:
        who = f"{name!r}" + (" with that id" if player_id is not None else "")
        raise PlayerNotFound(f"no finished matches of player {who}" + (f" in {family}" if family else ""))
    by_family = {f: per[f].to_dict() for f in _family_names() if f in per}
    hands = sum(s.hands for s in per.values())
    wins = sum(s.wins for s in per.values())
    return {
        "name": name,
        "player_id": player_id,  # only ever the one asked for: never another person's
        "matches": sum(s.matches for s in per.values()),
        "hands": hands,
        "wins": wins,
        "win_rate": _rate(wins, hands),
        "families": by_family,
    }


def all_players(matches: Iterable[dict[str, Any]], family: str | None = None) -> list[dict[str, Any]]:
    """Every person's name with ``matches``, ``hands``, ``wins``, ``win_rate`` and ``mean_score``
    (over every family, or only ``family``), most matches first.  By name: ids are not shown."""
    per: dict[str, FamilyStats] = {}
    for match in matches:
        fam = family_of(match)
        if family is not None and fam != family:
            continue
        for p in match.get("players") or []:
            if p.get("kind") == "human" and isinstance(p.get("name"), str):
                per.setdefault(p["name"], FamilyStats(fam)).add(match, p["seat"])
    rows = [{"name": n, "matches": s.matches, "hands": s.hands, "wins": s.wins, "win_rate": _rate(s.wins, s.hands),
             "mean_score": _rate(s.total, s.matches, 2)} for n, s in per.items()]
    return sorted(rows, key=lambda r: (-r["matches"], r["name"]))


class _Reader(Protocol):
    def player_matches(self, name: str | None = None, player_id: str | None = None, *,
                       event_types: Sequence[str] | None = None) -> list[dict[str, Any]]: ...


def load_player(store: _Reader, name: str, player_id: str | None = None,
                family: str | None = None) -> dict[str, Any]:
    """:func:`player_stats` of the matches ``store`` holds: what ``GET /api/players/{name}`` and
    ``tjmj stats --json`` both answer."""
    return player_stats(store.player_matches(name, player_id, event_types=EVENT_TYPES), name, player_id, family)
