"""Beijing's records (docs/records.md, docs/rules/BEIJING.md): the ``records`` part of the family.

Its event fields (no 坐庄/拉庄 and no 金杠; the 混坯 is null without wilds, B2; chi, B3; 烧庄, B6; a
win on a discard or a robbed kong, worth a value, B5), payment reasons and settlement section;
re-scoring a recorded win (B5) and the 天和/地和 check on the hand's events; its words in the move
list (点炮, 抢杠, 混儿悠, 混杠, 烧庄, 上楼); what self-play, player statistics and tournaments count of
its hands.  The protocol is in the docstrings of :mod:`tjmj.record`, :mod:`tjmj.simulate`,
:mod:`tjmj.stats` and :mod:`tjmj.tournament`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...record_base import BOOL, COMMON_FIELDS, INT, LIST, OBJ, STR, STR_OR_NULL, brief, seat_text
from ...tiles import TileError

if TYPE_CHECKING:
    from ...rules import Rules
    from ...simulate import Summary
    from ...stats import FamilyStats
    from ...tournament import BotStats

__all__ = [
    "COUNTS", "DEALER_PAYMENT", "DRAWN_TEXT", "EVENT_FIELDS", "HELP_LABEL", "KONG_TYPES", "PAYMENT_REASONS", "POINTS",
    "SETTLEMENT_SECTION", "WILD_DISCARD_TEXT", "bot_figures", "check_hora", "element_names", "hand_problem",
    "kyoku_text", "match_win", "player_figures", "show_summary", "summary_dict", "summary_hand_end", "summary_rows",
    "summary_win", "tournament_columns", "tournament_legend", "tournament_row", "win_text",
]

HELP_LABEL = "Beijing"  # how a preset list in --help names the family: beijing, beijing_a (Beijing)

# ---- the record ----------------------------------------------------------------------------

EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": COMMON_FIELDS["start_game"],
    "start_kyoku": {
        "hand": INT, "round": INT, "dealer": INT, "dice": OBJ, "wall_break": OBJ, "dora_marker": STR_OR_NULL,
        "wilds": LIST, "upstairs": BOOL, "scores": LIST, "tehais": LIST,
    },
    "tsumo": COMMON_FIELDS["tsumo"],
    "dahai": COMMON_FIELDS["dahai"],
    "chi": {"actor": INT, "target": INT, "pai": STR, "consumed": LIST},
    "pon": COMMON_FIELDS["pon"],
    "daiminkan": COMMON_FIELDS["daiminkan"],
    "ankan": {"actor": INT, "consumed": LIST},
    "kakan": COMMON_FIELDS["kakan"],
    "shaozhuang": {"actor": INT, "pai": STR, "rounds": INT},
    "hora": {
        "actor": INT, "target": INT, "pai": STR, "hand": LIST, "melds": LIST, "value": INT,
        "elements": LIST, "name": STR, "self_drawn": BOOL, "rob_kong": BOOL, "kong_draw": BOOL,
        "last_tile": BOOL, "hunyou": BOOL,
    },
    "ryukyoku": COMMON_FIELDS["ryukyoku"],
    "end_kyoku": COMMON_FIELDS["end_kyoku"],
    "end_game": COMMON_FIELDS["end_game"],
}
PAYMENT_REASONS = ("win", "shaozhuang")  # B6: the win and 烧庄
SETTLEMENT_SECTION = "B6"

_FLAT_FLAGS = {"HUNGANG": "hungang", "TIANHE": "tianhe", "DIHE": "dihe"}  # B5: declared or situational


def check_hora(hora: dict[str, Any], indicator: str | None, rules: Rules, dealer: int | None,
               indicator_visible: bool) -> str | None:
    """B5: :func:`tjmj.families.beijing.score.score_beijing` of the hand, the winning tile, the
    melds, the 混坯 (``indicator``, None without wilds) and a
    :class:`~tjmj.families.beijing.elements.WinContext` built from the event's flags
    (``self_drawn``, ``rob_kong``, ``kong_draw``, ``last_tile``, ``hunyou``), ``dealer`` (the hand's
    dealer: required) and the flat hands 混杠/天和/地和 of the recorded elements (they are declared
    or situational, not shapes); the win must be legal with the recorded ``value``, ``elements`` and
    ``name``.  ``indicator_visible``: the face-up 混坯 is still in the wall (B2)."""
    from .elements import WinContext  # lazily: what only reads records does not load the scorer
    from .score import score_beijing

    if dealer is None:
        raise TypeError("check_hora of a Beijing win needs the hand's dealer (dealer=start_kyoku.dealer)")
    try:
        actor, target, self_drawn = hora["actor"], hora["target"], hora["self_drawn"]
        recorded = hora["elements"]
        flats = {flag: True for code, flag in _FLAT_FLAGS.items() if code in recorded}
        ctx = WinContext(self_drawn=self_drawn, dealer=actor == dealer, last_tile=hora["last_tile"],
                         kong_draw=hora["kong_draw"], rob_kong=hora["rob_kong"], hunyou=hora["hunyou"], **flats)
        if (target == actor) != bool(self_drawn):
            return (f"the win is {'self-drawn' if self_drawn else 'not self-drawn'} but its target is "
                    f"{'the winner' if target == actor else seat_text(target)} (B3: target is the discarder or the "
                    "robbed kong's declarer, the winner itself for a self-draw)")
        r = score_beijing("".join(hora["hand"]), hora["pai"], melds=list(hora["melds"]), indicator=indicator,
                          rules=rules, context=ctx, indicator_visible=indicator_visible)  # type: ignore[arg-type]
    except (TileError, KeyError, TypeError, ValueError) as e:  # InvalidBeijingHand and RulesError included
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win ({r.reason or 'incomplete'})")
    if r.value != hora.get("value"):
        problems.append(f"value {r.value}, recorded {hora.get('value')}")
    if r.codes != recorded:
        problems.append(f"elements {r.codes}, recorded {recorded}")
    if r.name != hora.get("name"):
        problems.append(f"name {r.name}, recorded {hora.get('name')}")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


def hand_problem(hora: dict[str, Any], hand: Sequence[dict[str, Any]], dealer: int) -> str | None:
    """天和 / 地和 (B5) need the first turn of an untouched hand: ``hand`` is the hand's events from
    its start_kyoku up to the win.  (混杠's four wilds are checked by the scorer.)"""
    codes = hora.get("elements") or ()
    actor = hora.get("actor")
    before = hand[1:]
    if "TIANHE" in codes and before:
        return f"天和 (TIANHE) is the dealer's win on the dealt 14 tiles, but {brief(before[0])} came first (B5)"
    if "DIHE" in codes:
        if any(e.get("type") in ("chi", "pon", "daiminkan", "ankan", "kakan") for e in before):
            return "地和 (DIHE) comes before any claim or kong, but the hand has one (B5)"
        own = [e.get("type") for e in before if e.get("actor") == actor]
        if own != ["tsumo"] or actor == dealer:
            return "地和 (DIHE) is a non-dealer's win on their first draw, before any discard of theirs (B5)"
    return None


# ---- the move list -------------------------------------------------------------------------

WILD_DISCARD_TEXT = " — a wild (混儿), discarded without penalty (B2)"
DRAWN_TEXT = "; no 烧庄 is paid (B6)"


def kyoku_text(ev: dict[str, Any]) -> str:
    """The start_kyoku line's part about the 混坯 and the wild (B2)."""
    marker = ev.get("dora_marker")
    wilds = " ".join(ev.get("wilds", []))
    return f"混坯 (indicator) {marker}, wild (混儿) {wilds}" if marker is not None else "no wilds (混儿)"


def win_text(ev: dict[str, Any], dealer: int) -> str:
    """The rest of the line ``[i] E WINS on 5p``: how, name, value, elements."""
    return (f" ({_how(ev, dealer)}): {ev.get('name')}, "
            f"value {ev.get('value')} [{' '.join(ev.get('elements', []))}]")


def _how(ev: dict[str, Any], dealer: int) -> str:
    """How a win came (B2, B3, B5): 点炮 from whom, 抢杠, 自摸 and its kinds, 混儿悠, 混杠."""
    codes = ev.get("elements") or ()
    target = seat_text(ev.get("target"))
    if ev.get("rob_kong"):
        how = [f"robbing {target}'s kong (抢杠), {target} pays"]
    elif not ev.get("self_drawn"):
        how = [f"on {target}'s discard (点炮 by {target})"]
    elif "HUNGANG" in codes:
        how = ["混杠 declared: the four wilds"]
    else:
        how = ["self-drawn (自摸)"]
    if ev.get("hunyou"):
        how.append("混儿悠 succeeded")
    if ev.get("kong_draw"):
        how.append("on a kong replacement (杠上开花)")
    if ev.get("last_tile"):
        how.append("the last tile (海底)")
    if "TIANHE" in codes:
        how.append("天和")
    if "DIHE" in codes:
        how.append("地和")
    if ev.get("actor") == dealer:
        how.append("the dealer (庄)")
    return ", ".join(how)


# ---- self-play (tjmj.simulate) -------------------------------------------------------------

KONG_TYPES = ("daiminkan", "ankan", "kakan")  # no 金杠: four wilds are 混杠 (B2)


def summary_win(s: Summary, ev: dict[str, Any]) -> int:
    """Count a win: how it came (B3), 混儿悠, its elements (B5), 混杠; its worth (value)."""
    worth: int = ev["value"]
    if ev["rob_kong"]:
        s.rob_kong_wins += 1
    elif ev["self_drawn"]:
        s.self_drawn += 1
    else:
        s.discard_wins += 1
    if ev.get("hunyou"):
        s.hunyou_won += 1
    for code in ev["elements"]:
        e = s.elements.setdefault(code, [0, 0])
        e[0] += 1
        e[1] += worth
    if ev["elements"] == ["HUNGANG"]:
        s.hungang += 1
    return worth


def summary_hand_end(s: Summary, ev: dict[str, Any]) -> None:
    """A hand whose settlement paid a 烧庄 (B6; not paid in a drawn hand)."""
    if any(p["reason"] == "shaozhuang" for p in ev["payments"]):
        s.shaozhuang_paid += 1


def summary_dict(s: Summary) -> dict[str, Any]:
    """The JSON form: ``family``, the common keys, the wins by how they were won, ``mean_value``
    (and per combination), ``elements`` (B5), ``kongs``, ``chis``, ``pons``, 烧庄, 上楼, 混儿悠, 混杠."""
    from .elements import ELEMENTS

    hands = s.hands or 1
    wins = s.wins or 1
    combos = sorted(s.combinations.items(), key=lambda kv: (-kv[1][0], kv[0]))
    order = [e.code for e in ELEMENTS]
    elements = sorted(s.elements.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
    return {
        "family": s.family,
        **s.common_dict(),
        "self_drawn": s.self_drawn,
        "discard_wins": s.discard_wins,
        "rob_kong_wins": s.rob_kong_wins,
        "mean_value": sum(v for _, v in s.combinations.values()) / wins,
        "elements": {
            code: {"count": n, "frequency": n / wins, "mean_value": v / n} for code, (n, v) in elements
        },
        "combinations": {
            name: {"count": n, "frequency": n / wins, "mean_value": v / n} for name, (n, v) in combos
        },
        "kongs": {k: s.kongs.get(k, 0) for k in KONG_TYPES},
        "chis": s.chis,
        "pons": s.pons,
        "shaozhuang": s.shaozhuang,
        "shaozhuang_paid": s.shaozhuang_paid,
        "upstairs": s.upstairs,
        "hunyou_declared": s.hunyou_declared,
        "hunyou_won": s.hunyou_won,
        "hungang": s.hungang,
        "mean_turns": s.discards / hands,
        "seconds": s.seconds,
        "hands_per_s": s.hands_per_s,
    }


def summary_rows(d: dict[str, Any], hands: int) -> list[tuple[str, str]]:
    """``tjmj simulate``'s rows of the family's own figures."""
    wins = d["wins"] or 1
    return [
        ("wins: self-drawn / on a discard / 抢杠",
         f"{d['self_drawn']} / {d['discard_wins']} / {d['rob_kong_wins']} ({d['discard_wins'] / wins:.0%} on a discard)"),
        ("mean value of a win (B5)", f"{d['mean_value']:.2f}"),
        ("kongs: 明杠 / 暗杠 / 加杠", " / ".join(str(d["kongs"][k]) for k in ("daiminkan", "ankan", "kakan"))),
        ("chi / pon", f"{d['chis']} / {d['pons']}"),
        ("烧庄 (B6): declared / paid", f"{d['shaozhuang']} / {d['shaozhuang_paid']}"),
        ("上楼 hands (B6)", f"{d['upstairs']} ({d['upstairs'] / hands:.1%})"),
        ("混儿悠 (B3): declared / won", f"{d['hunyou_declared']} / {d['hunyou_won']}"),
        ("混杠 (B2)", str(d["hungang"])),
    ]


def show_summary(con: Any, d: dict[str, Any]) -> None:
    """``tjmj simulate``'s table after the bots': the elements of the wins (B5)."""
    from rich.markup import escape
    from rich.table import Table

    from .elements import ELEMENT_BY_CODE

    if not d["elements"]:
        return
    c = Table(title="Elements of the wins (B5)")
    for col in ("element", "wins", "share of wins", "mean value"):
        c.add_column(col, justify="left" if col == "element" else "right")
    for code, v in d["elements"].items():
        e = ELEMENT_BY_CODE.get(code)
        label = f"{e.chinese} {code}" if e is not None else code
        c.add_row(escape(label), str(v["count"]), f"{v['frequency']:.1%}", f"{v['mean_value']:.1f}")
    con.print(c)


# ---- player statistics (tjmj.stats) --------------------------------------------------------

POINTS = "value"  # what a win is worth (B5)


def element_names() -> dict[str, tuple[str, str]]:
    """Element code -> (Chinese, English)."""
    from .elements import ELEMENT_BY_CODE

    return {code: (e.chinese, e.english) for code, e in ELEMENT_BY_CODE.items()}


def player_figures(st: FamilyStats) -> dict[str, Any]:
    return {}


# ---- tournaments (tjmj.tournament) ---------------------------------------------------------

# the value, and the rest of what B3–B6 make of a hand (wins by self-draw or on a discard, deals-in,
# 烧庄, claims, 混儿悠, 混杠)
COUNTS = ("value", "self_drawn", "discard_wins", "dealt_in", "shaozhuang", "claims", "hunyou", "hungang")
DEALER_PAYMENT: str | None = "shaozhuang"  # 烧庄 (B6): the dealer pays it, counted once per hand


def match_win(out: list[dict[str, int]], seating: list[int], ev: dict[str, Any]) -> None:
    """Count a win (its ``wins`` is the core's): value, how it came (a robbed kong scores as a
    self-draw, B3), the discarder's deal-in, 混杠."""
    c = out[seating[ev["actor"]]]
    c["value"] += ev["value"]
    if ev["self_drawn"] or ev["rob_kong"]:
        c["self_drawn"] += 1
    else:
        c["discard_wins"] += 1
        out[seating[ev["target"]]]["dealt_in"] += 1
    if ev["elements"] == ["HUNGANG"]:
        c["hungang"] += 1


def bot_figures(s: BotStats) -> dict[str, Any]:
    hands = s.hands or 1
    return {
        "mean_value": s.value / s.wins if s.wins else 0.0,
        "self_drawn": s.self_drawn,
        "discard_wins": s.discard_wins,
        "dealt_in": s.dealt_in,
        "deal_in_rate": s.dealt_in / hands,
        "kongs": s.kongs,
        "claims": s.claims,
        "shaozhuang": s.shaozhuang,
        "hunyou": s.hunyou,
        "hungang": s.hungang,
    }


def _shao(results: dict[str, dict[str, Any]]) -> bool:
    """烧庄 is shown where some bot paid one (--json has all)."""
    return any(s.get("shaozhuang") for s in results.values())


def tournament_columns(results: dict[str, dict[str, Any]], outside: bool) -> tuple[str, ...]:
    return ("bot", "n", "pts/hand", "95% CI", "win", "自摸", "value", "点炮", "吃碰", *(("烧庄",) if _shao(results) else ()),
            *(("errors",) if outside else ()))


def tournament_row(s: dict[str, Any], results: dict[str, dict[str, Any]], outside: bool, errs: str) -> list[str]:
    """The cells after the common ones (bot, n, pts/hand, CI, win); ``errs`` is already escaped."""
    drawn = f"{s['self_drawn'] / s['wins']:.0%}" if s["wins"] else "—"
    return [drawn, f"{s['mean_value']:.2f}", f"{s['deal_in_rate']:.1%}", str(s["claims"]),
            *((str(s["shaozhuang"]),) if _shao(results) else ()), *((errs,) if outside else ())]


def tournament_legend(results: dict[str, dict[str, Any]]) -> str:
    return ("n: places held · pts/hand: mean points per hand played · 自摸: share of its wins self-drawn · "
            "value: mean value of a win (B5) · 点炮: share of its hands dealt in (another player won on its "
            "discard) · 吃碰: chi and pon made" + (" · 烧庄: times paid (B6)" if _shao(results) else ""))
