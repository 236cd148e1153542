"""What the pages show of a finished hand and of a stored match, whatever the family.

:func:`settlement_message`: a hand's settlement, the win explained element by element (or fan by
fan) and every payment with its formula; :func:`named`: events with their elements' names;
:func:`frames`: a stored match step by step, for the replay page.  What differs between families
is asked of the family's ``webview`` part (:attr:`tjmj.family.Family.webview`, the module
``tjmj/families/<name>/webview.py``), which defines for this module:

* ``settlement_message(m, rules, hand_events, names, *, next_delay, where) -> dict``: the
  ``settlement`` message of one finished hand (docs/web.md), built with the helpers here
  (:func:`hand_parts`, :func:`revealed`, :func:`add_standings`, :func:`payment_formula`,
  :func:`rescored_arrangement`);
* ``win_names(hora) -> list[dict] | None``: a ``hora`` event's elements (or fans) by name, each
  ``code``, ``chinese``, ``english``; None: the event is shown as it is;
* ``win_arrangement(hora, kyoku, hand_events, rules) -> dict | None``: the win's arrangement,
  re-scored from its ``hora`` event (None when there is none, or re-scoring disagrees: logged);

and what :mod:`tjmj.web.hints` and :mod:`tjmj.web.room` ask of it (listed in :mod:`tjmj.web.hints`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import families
from ..game import Action, Match
from ..record import rebuild
from ..rules import Rules
from ..wall import SEATS

__all__ = [
    "FACTOR_NAMES",
    "WINDS",
    "WINDS_CN",
    "add_standings",
    "frames",
    "hand_parts",
    "named",
    "payment_formula",
    "rescored_arrangement",
    "revealed",
    "settlement_message",
    "win_arrangement",
]

log = logging.getLogger("tjmj.web")

WINDS = ("E", "S", "W", "N")
WINDS_CN = ("东", "南", "西", "北")


def frames(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One frame per step of a stored match: the events of that step, the index in the match's events
    of the first of them (``event``: the review's decisions name the event their action made) and
    the whole state after it."""
    out: list[dict[str, Any]] = []
    seen = [0]

    def step(m: Match, action: Action | None, new: list[dict[str, Any]]) -> None:
        if new:
            out.append({"events": named(new, m.rules.family), "event": seen[0], "state": m.full_view()})
        seen[0] += len(new)

    rebuild(events, step)
    return out


def named(events: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    """Events as the pages show them: a win also carries its elements' names (``elements_detail``:
    code, Chinese, English; written once, in the element classes), so a log line or a replay reads in
    either language.  The record itself keeps the codes only."""
    if not any(e.get("type") == "hora" for e in events):
        return events
    win_names = families.get(family).webview.win_names
    out = []
    for e in events:
        if e.get("type") == "hora":
            detail = win_names(e)
            if detail is not None:
                e = {**e, "elements_detail": detail}
        out.append(e)
    return out


def win_arrangement(hora: dict[str, Any], kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    rules: Rules) -> dict[str, Any] | None:
    """The win's best arrangement, re-scored from its ``hora`` event under the hand's rules, in the
    form of ``tjmj score --batch``: ``groups`` (each ``kind``, ``tiles``, ``plays`` — the kind each
    tile plays, a wild the kind it stands for —, ``wild``, and ``winning``: the winning tile's index
    in that group, or null) and ``winning_group`` (the index of the group holding the winning
    tile); Tianjin adds ``dragon`` (the 龙's three groups), Beijing ``shape`` and ``wild``, MCR
    ``shape`` and its own groups.  None for a win without an arrangement (混杠), or when re-scoring
    does not give the engine's result (logged: the engine is the authority)."""
    return families.get(rules.family).webview.win_arrangement(hora, kyoku, hand_events, rules)  # type: ignore[no-any-return]


def rescored_arrangement(hora: dict[str, Any], rescore: Callable[[], tuple[bool, Any]]) -> dict[str, Any] | None:
    """:func:`win_arrangement` from a family's re-scoring: ``rescore()`` gives whether the scorer
    agrees with the engine and the scorer's arrangement (an object with ``to_dict()`` and ``groups``
    whose ``winning`` is set in the group holding the winning tile)."""
    try:
        same, a = rescore()
    except (ValueError, KeyError, TypeError) as e:  # TileError is a ValueError
        log.warning("the win %s cannot be re-scored: %s", hora, e)
        return None
    if not same:
        log.warning("re-scoring the win %s does not give the engine's result", hora)
        return None
    if a is None:
        return None
    d: dict[str, Any] = a.to_dict()
    d["winning_group"] = next((i for i, g in enumerate(a.groups) if g.winning is not None), None)
    return d


# How each factor of a payment's ``why`` reads in its formula, (Chinese, English): Tianjin's (R6–R8)
# and Beijing's (B6).  ``fan`` reads "2番" / "2 fan"; the others name then number, "坐庄2" / "sit 2".
FACTOR_NAMES: dict[str, tuple[str, str]] = {
    "fan": ("番", "fan"),
    "kong": ("明杠", "discard kong"),
    "added_kong": ("加杠", "added kong"),
    "ankong": ("暗杠", "concealed kong"),
    "gold_kong": ("金杠", "gold kong"),
    "chan": ("铲", "chan"),
    "penalty": ("打混罚", "wild discard"),
    "sit": ("坐庄", "sit"),
    "pull": ("拉庄", "pull"),
    "base": ("底分", "base"),
    "value": ("点数", "value"),
    "dianpao": ("点炮", "dealt in"),
    "discarder": ("包三家", "discarder pays all"),
    "rob_kong": ("抢杠包三家", "robbed kong pays all"),
    "mutual": ("互包", "tied"),
    "hunyou": ("混儿悠被截", "混儿悠 cut short"),
    "shaozhuang": ("烧庄", "烧庄"),
    "shaozhuang_rounds": ("连烧", "烧庄 again"),
    "upstairs": ("上楼", "upstairs"),
}


def payment_formula(why: Sequence[dict[str, Any]], amount: int) -> tuple[str, str]:
    """A payment's factors as a product, Chinese and English: ``2番 × 坐庄2 × 拉庄2 = 8``; when the
    product is more than the amount, the pot (锅牌, R8) held less: ``…= 8；锅里只剩5 → 5``.  No
    factors: the amount alone."""
    if not why:
        return str(amount), str(amount)
    zh, en = [], []
    product = 1
    for f in why:
        n = f["times"]
        product *= n
        name_zh, name_en = FACTOR_NAMES.get(f["key"], (f["key"], f["key"]))
        if f["key"] == "fan":
            zh.append(f"{n}番")
            en.append(f"{n} fan")
        else:
            zh.append(f"{name_zh}{n}")
            en.append(f"{name_en} {n}")
    formula, formula_en = " × ".join(zh) + f" = {product}", " × ".join(en) + f" = {product}"
    if product != amount:
        formula += f"；锅里只剩{amount} → {amount}"
        formula_en += f"; only {amount} left in the pot → {amount}"
    return formula, formula_en


def settlement_message(m: Match, rules: Rules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None = None, where: str = "match") -> dict[str, Any]:
    """The settlement of one finished hand (``hand_events``: its ``start_kyoku`` … ``end_kyoku``) as
    the web table's ``settlement`` message (docs/web.md): the win explained element by element (or
    fan by fan), every payment with its formula, every hand face up (``Match.revealed_hands``), the
    scores and, once the match is over, the standings; what each family shows is its webview's.
    ``m`` is the match just after that hand (the engine keeps its hands); ``names`` by seat;
    ``next_delay`` the pause before the next hand.  The web room and the terminal table (``tjmj
    play``) both show this."""
    view = families.get(rules.family).webview
    return view.settlement_message(m, rules, hand_events, names,  # type: ignore[no-any-return]
                                   next_delay=next_delay, where=where)


def hand_parts(hand_events: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """A finished hand's ``start_kyoku``, ``end_kyoku`` and ``hora`` (None: no win) events."""
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    return kyoku, end, hora


def revealed(m: Match, kyoku: dict[str, Any], where: str) -> list[dict[str, Any]] | None:
    """Every seat's hand in the hand that just ended, face up (the engine says they are public
    now).  The settlement is built after the engine has moved on to the next hand (or ended the
    match), so the hand is named; while it is stored nothing else can end."""
    try:
        return m.revealed_hands(kyoku["hand"])
    except ValueError as e:  # not expected: the engine keeps the last hand that ended
        log.error("%s: the hands of hand %s cannot be shown: %s", where, kyoku["hand"], e)
        return None


def add_standings(m: Match, msg: dict[str, Any], names: list[str]) -> None:
    """Once the match is over, ``msg`` gets ``standings``: every seat ranked by its score."""
    if m.is_over:
        order = sorted(range(SEATS), key=lambda s: -m.scores[s])
        msg["standings"] = [{"rank": r + 1, "seat": s, "name": names[s], "score": m.scores[s]}
                            for r, s in enumerate(order)]


def element_names(hora: dict[str, Any], table: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """A win's ``elements`` codes by name (code, Chinese, English), read from a family's element
    table (code -> element with ``chinese`` and ``english``); a code it lacks is shown as itself."""
    if not isinstance(hora.get("elements"), list):
        return None
    detail = []
    for c in hora["elements"]:
        el = table.get(c)
        detail.append({"code": c, "chinese": el.chinese if el else c, "english": el.english if el else c})
    return detail
