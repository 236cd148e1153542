"""Tianjin's records (docs/records.md, docs/rules/RULES.md): the ``records`` part of the family.

Its event fields, payment reasons and settlement section; re-scoring a recorded win (R5); its words
in the move list (坐庄/拉庄 are the core's, 铲, 小相公, 天胡); what self-play, player statistics and
tournaments count of its hands (天胡, 铲, 坐庄/拉庄, fan).  The protocol every family's ``records``
part follows is in the docstrings of :mod:`tjmj.record`, :mod:`tjmj.simulate`, :mod:`tjmj.stats`
and :mod:`tjmj.tournament`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...record_base import BOOL, COMMON_FIELDS, INT, LIST, OBJ, STR
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

HELP_LABEL = "Tianjin"  # how a preset list in --help names the family: classic, yiyou (Tianjin)

# ---- the record ----------------------------------------------------------------------------

# every event type with its required fields and their JSON types (docs/rules/RULES.md)
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": COMMON_FIELDS["start_game"],
    "start_kyoku": {
        "hand": INT, "round": INT, "dealer": INT, "dice": OBJ, "wall_break": OBJ, "dora_marker": STR,
        "wilds": LIST, "sit": BOOL, "pulls": LIST, "scores": LIST, "tehais": LIST,
    },
    "tsumo": COMMON_FIELDS["tsumo"],
    "dahai": COMMON_FIELDS["dahai"],
    "pon": COMMON_FIELDS["pon"],
    "daiminkan": COMMON_FIELDS["daiminkan"],
    "ankan": {"actor": INT, "consumed": LIST, "gold": BOOL},
    "kakan": COMMON_FIELDS["kakan"],
    "chan": {"actor": INT, "pai": STR},
    "hora": {
        "actor": INT, "target": INT, "pai": STR, "hand": LIST, "melds": LIST, "kong_draw": BOOL,
        "tianhu": BOOL, "fan": INT, "elements": LIST, "name": STR,
    },
    "ryukyoku": COMMON_FIELDS["ryukyoku"],
    "end_kyoku": COMMON_FIELDS["end_kyoku"],
    "end_game": COMMON_FIELDS["end_game"],
}
PAYMENT_REASONS = ("win", "kong", "chan", "penalty")  # R8: the kinds a settlement lists
SETTLEMENT_SECTION = "R8"


def check_hora(hora: dict[str, Any], indicator: str | None, rules: Rules, dealer: int | None,
               indicator_visible: bool) -> str | None:
    """R5: :func:`tjmj.families.tianjin.score.score` of the hand, the winning tile, the indicator,
    the melds, ``kong_draw`` and ``tianhu``; the win must be legal with the recorded ``fan``,
    ``elements`` and ``name``.  ``dealer`` and ``indicator_visible`` are not used."""
    from .score import score  # lazily: what only reads records does not load the scorer

    if indicator is None:
        return "the winning hand cannot be scored: the hand has no indicator (R2)"
    try:
        r = score("".join(hora["hand"]), hora["pai"], indicator, hora["melds"], kong_draw=hora["kong_draw"],
                  tianhu=hora["tianhu"], rules=rules)  # type: ignore[arg-type]
    except (TileError, KeyError, TypeError, ValueError) as e:
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win ({r.reason or 'incomplete'})")
    if r.fan != hora.get("fan"):
        problems.append(f"fan {r.fan}, recorded {hora.get('fan')}")
    if r.codes != hora.get("elements"):
        problems.append(f"elements {r.codes}, recorded {hora.get('elements')}")
    if r.name != hora.get("name"):
        problems.append(f"name {r.name}, recorded {hora.get('name')}")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


def hand_problem(hora: dict[str, Any], hand: Any, dealer: int) -> str | None:
    """Nothing of a Tianjin win depends on the hand's earlier events beyond what the engine replays."""
    return None


# ---- the move list -------------------------------------------------------------------------

WILD_DISCARD_TEXT = " — a wild: 小相公, no more wins this hand (R2)"
DRAWN_TEXT = ""  # a drawn hand settles nothing more


def kyoku_text(ev: dict[str, Any]) -> str:
    """The start_kyoku line's part about the wilds (R2)."""
    return f"indicator {ev.get('dora_marker')}, wilds (混儿) {' '.join(ev.get('wilds', []))}"


def win_text(ev: dict[str, Any], dealer: int) -> str:
    """The rest of the line ``[i] E WINS on 5p``: how (天胡, a kong replacement), name, fan, elements."""
    how = []
    if ev.get("tianhu"):
        how.append("天胡")
    if ev.get("kong_draw"):
        how.append("on a kong replacement")
    return (f"{' (' + ', '.join(how) + ')' if how else ''}: "
            f"{ev.get('name')}, {ev.get('fan')} fan [{' '.join(ev.get('elements', []))}]")


# ---- self-play (tjmj.simulate) -------------------------------------------------------------

KONG_TYPES = ("daiminkan", "ankan", "gold_ankan", "kakan")  # 明杠, 暗杠, 金杠, 加杠 (R4, R6)


def summary_win(s: Summary, ev: dict[str, Any]) -> int:
    """Count a win's own figures (天胡); its worth (fan) for the combination's mean."""
    if ev.get("tianhu"):
        s.tianhu += 1
    worth: int = ev["fan"]
    return worth


def summary_hand_end(s: Summary, ev: dict[str, Any]) -> None:
    """Nothing of the settlement is counted apart (铲 has its own event)."""


def summary_dict(s: Summary) -> dict[str, Any]:
    """The JSON form: the common keys, then ``tianhu``, ``combinations`` (with ``mean_fan``),
    ``mean_fan``, ``chan``, ``kongs``, ``pons``, ``wild_discards`` (小相公), ``sits``, ``pulls``."""
    hands = s.hands or 1
    wins = s.wins or 1
    combos = sorted(s.combinations.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return {
        **s.common_dict(),
        "tianhu": s.tianhu,
        "combinations": {
            name: {"count": n, "frequency": n / wins, "mean_fan": fan / n} for name, (n, fan) in combos
        },
        "mean_fan": sum(f for _, f in s.combinations.values()) / wins,
        "chan": s.chan,
        "kongs": dict(s.kongs),
        "pons": s.pons,
        "wild_discards": s.wild_discards,
        "sits": s.sits,
        "pulls": s.pulls,
        "mean_turns": s.discards / hands,
        "seconds": s.seconds,
        "hands_per_s": s.hands_per_s,
    }


def summary_rows(d: dict[str, Any], hands: int) -> list[tuple[str, str]]:
    """``tjmj simulate``'s rows of the family's own figures."""
    return [
        ("mean fan of a win", f"{d['mean_fan']:.2f}"),
        ("天胡", str(d["tianhu"])),
        ("铲 (R7)", str(d["chan"])),
        ("kongs: 明杠 / 暗杠 / 金杠 / 加杠", " / ".join(str(d["kongs"][k]) for k in
                                                  ("daiminkan", "ankan", "gold_ankan", "kakan"))),
        ("pons", str(d["pons"])),
        ("wild discards (小相公)", str(d["wild_discards"])),
        ("sits / pulls per hand", f"{d['sits'] / hands:.2f} / {d['pulls'] / hands:.2f}"),
    ]


def show_summary(con: Any, d: dict[str, Any]) -> None:
    """``tjmj simulate``'s table after the bots': the winning combinations (R5.3)."""
    from rich.markup import escape
    from rich.table import Table

    if not d["combinations"]:
        return
    c = Table(title="Winning combinations (R5.3)")
    for col in ("combination", "count", "share", "mean fan"):
        c.add_column(col, justify="left" if col == "combination" else "right")
    for name, v in d["combinations"].items():
        c.add_row(escape(name), str(v["count"]), f"{v['frequency']:.1%}", f"{v['mean_fan']:.1f}")
    con.print(c)


# ---- player statistics (tjmj.stats) --------------------------------------------------------

POINTS = "fan"  # what a win is worth


def element_names() -> dict[str, tuple[str, str]]:
    """Element code -> (Chinese, English)."""
    from .elements import ELEMENT_BY_CODE

    return {code: (e.chinese, e.english) for code, e in ELEMENT_BY_CODE.items()}


def player_figures(st: FamilyStats) -> dict[str, Any]:
    """The family's own figures of a player: ``chan`` (铲, R7) and ``sit_pull`` (坐庄/拉庄, R7)."""
    return {
        "chan": {"paid": st.chan_paid, "received": st.chan_received, "net": st.chan_net},
        "sit_pull": {"dealer_hands": st.dealer_hands, "sat": st.sat, "sat_net": st.sat_net,
                     "pulled": st.pulled, "pulls": st.pulls, "pulled_net": st.pulled_net},
    }


# ---- tournaments (tjmj.tournament) ---------------------------------------------------------

COUNTS = ("fan", "chan")  # per player, besides the common points, wins and kongs
DEALER_PAYMENT: str | None = "chan"  # 铲 (R7): the dealer pays it, counted once per hand


def match_win(out: list[dict[str, int]], seating: list[int], ev: dict[str, Any]) -> None:
    """Count a win (its ``wins`` is the core's): its fan."""
    out[seating[ev["actor"]]]["fan"] += ev["fan"]


def bot_figures(s: BotStats) -> dict[str, Any]:
    return {"mean_fan": s.fan / s.wins if s.wins else 0.0, "kongs": s.kongs, "chan": s.chan}


def tournament_columns(results: dict[str, dict[str, Any]], outside: bool) -> tuple[str, ...]:
    return ("bot", "n", "pts/hand", "95% CI", "win", "fan", "kongs", "铲", "errors")


def tournament_row(s: dict[str, Any], results: dict[str, dict[str, Any]], outside: bool, errs: str) -> list[str]:
    """The cells after the common ones (bot, n, pts/hand, CI, win); ``errs`` is already escaped."""
    return [f"{s['mean_fan']:.2f}", str(s["kongs"]), str(s["chan"]), errs]


def tournament_legend(results: dict[str, dict[str, Any]]) -> str:
    return "n: places held · pts/hand: mean points per hand played · fan: mean fan of a win · 铲: times paid"

