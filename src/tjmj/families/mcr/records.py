"""MCR's records (docs/records.md, docs/rules/MCR.md): the ``records`` part of the family.

Its event fields (no wild; the prevalent wind, M1; flowers laid aside, M1; chi, M2; a win with its
fans, M3, the table's part of it and the claims of its melds), payment reasons and settlement
section; re-scoring a recorded win (M3); its words in the move list (圈风, 补花, 抢杠和, 和绝张); what
self-play, player statistics and tournaments count of its hands.  The protocol is in the docstrings
of :mod:`tjmj.record`, :mod:`tjmj.simulate`, :mod:`tjmj.stats` and :mod:`tjmj.tournament`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...record_base import BOOL, COMMON_FIELDS, INT, LIST, OBJ, SEAT_CN, SEAT_WINDS, STR, seat_text
from ...tiles import Tile, TileError, parse_tiles

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

HELP_LABEL = "Chinese Official, 国标"  # how a preset list in --help names the family: mcr (Chinese Official, 国标)

# ---- the record ----------------------------------------------------------------------------

EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": COMMON_FIELDS["start_game"],
    "start_kyoku": {
        "hand": INT, "round": INT, "dealer": INT, "dice": OBJ, "wall_break": OBJ, "prevalent_wind": INT,
        "scores": LIST, "tehais": LIST,
    },
    "tsumo": COMMON_FIELDS["tsumo"],
    "flower": {"actor": INT, "pai": STR},
    "dahai": COMMON_FIELDS["dahai"],
    "chi": {"actor": INT, "target": INT, "pai": STR, "consumed": LIST},
    "pon": COMMON_FIELDS["pon"],
    "daiminkan": COMMON_FIELDS["daiminkan"],
    "ankan": {"actor": INT, "consumed": LIST},
    "kakan": COMMON_FIELDS["kakan"],
    "hora": {
        "actor": INT, "target": INT, "pai": STR, "hand": LIST, "melds": LIST, "claims": LIST, "fan": INT,
        "flowers": INT, "total": INT, "fans": LIST, "elements": LIST, "name": STR, "self_drawn": BOOL,
        "rob_kong": BOOL, "about_kong": BOOL, "wall_last": BOOL, "fourth_tile": BOOL, "seat_wind": INT,
        "prevalent_wind": INT,
    },
    "ryukyoku": COMMON_FIELDS["ryukyoku"],
    "end_kyoku": COMMON_FIELDS["end_kyoku"],
    "end_game": COMMON_FIELDS["end_game"],
}
PAYMENT_REASONS = ("win",)  # M4: the win
SETTLEMENT_SECTION = "M4"


def check_hora(hora: dict[str, Any], indicator: str | None, rules: Rules, dealer: int | None,
               indicator_visible: bool) -> str | None:
    """M3: :func:`tjmj.families.mcr.score.score_mcr` of the hand, the winning tile, the melds with
    their ``claims`` (the claimed tile and whom from), and the situation the event records
    (``self_drawn``, ``fourth_tile``, ``about_kong``, ``wall_last``, the winds, ``flowers``); the
    win must reach ``min_fan`` with the recorded ``fan``, ``fans``, ``elements`` and ``name``, and
    ``total`` must be ``fan`` + ``flowers``; ``indicator`` is not used (MCR has none) and ``dealer``,
    when given, must make ``seat_wind``."""
    from ...meld import melds_of
    from .game import fan_list  # lazily: what only reads records does not load the calculator
    from .score import McrMeld, McrSituation, score_mcr

    min_fan: int = rules.min_fan  # type: ignore[attr-defined]
    try:
        actor, target, self_drawn = hora["actor"], hora["target"], hora["self_drawn"]
        if (target == actor) != bool(self_drawn):
            return (f"the win is {'self-drawn' if self_drawn else 'not self-drawn'} but its target is "
                    f"{'the winner' if target == actor else seat_text(target)} (M2: target is the discarder or the "
                    "robbed kong's declarer, the winner itself for a self-draw)")
        if dealer is not None and hora["seat_wind"] != (actor - dealer) % 4:
            return f"seat wind {hora['seat_wind']} is not the winner's: {(actor - dealer) % 4} with dealer {dealer} (M1)"
        melds = melds_of(list(hora["melds"]))
        claims = hora["claims"]
        if len(claims) != len(melds):
            return f"{len(claims)} claims for {len(melds)} melds"
        own_melds = [McrMeld(type=m.type.value, tile=m.tile,
                             claimed=Tile.parse(c["claimed"]) if c["claimed"] is not None else None,
                             offer=c["offer"]) for m, c in zip(melds, claims, strict=True)]
        sit = McrSituation(self_drawn=bool(self_drawn), fourth_tile=hora["fourth_tile"],
                           about_kong=hora["about_kong"], wall_last=hora["wall_last"], seat_wind=hora["seat_wind"],
                           prevalent_wind=hora["prevalent_wind"], flowers=hora["flowers"])
        r = score_mcr(parse_tiles("".join(hora["hand"])), Tile.parse(hora["pai"]), own_melds, sit, min_fan=min_fan)
    except (TileError, KeyError, TypeError, ValueError) as e:
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win of {min_fan} fan (M2): {r.fan} fan")
    if r.fan != hora.get("fan"):
        problems.append(f"fan {r.fan}, recorded {hora.get('fan')}")
    if fan_list(r) != hora.get("fans"):
        problems.append(f"fans {fan_list(r)}, recorded {hora.get('fans')}")
    if [f.code for f in r.fans] != hora.get("elements"):
        problems.append(f"elements {[f.code for f in r.fans]}, recorded {hora.get('elements')}")
    if r.names != hora.get("name"):
        problems.append(f"name {r.names}, recorded {hora.get('name')}")
    if hora.get("total") != r.total or r.total != r.fan + hora["flowers"]:
        problems.append(f"total {r.total} (fan {r.fan} + flowers {hora['flowers']}), recorded {hora.get('total')} (M3)")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


def hand_problem(hora: dict[str, Any], hand: Any, dealer: int) -> str | None:
    """The scorer judges the whole win from the event (its situation is recorded there)."""
    return None


# ---- the move list -------------------------------------------------------------------------

WILD_DISCARD_TEXT = " — a wild: 小相公, no more wins this hand (R2)"  # as the engine's other texts: MCR has no wild
DRAWN_TEXT = ""


def kyoku_text(ev: dict[str, Any]) -> str:
    """The start_kyoku line's part about the prevalent wind (M1)."""
    pw = ev.get("prevalent_wind")
    return (f"prevalent wind (圈风) {SEAT_WINDS[pw]} {SEAT_CN[pw]}" if isinstance(pw, int) and 0 <= pw < 4
            else "prevalent wind ?")


def win_text(ev: dict[str, Any], dealer: int) -> str:
    """The rest of the line ``[i] E WINS on 5p``: how, fan, flowers, total and the fans."""
    fans = ", ".join(f"{f.get('name')} {f.get('fan')}" + (f"×{f.get('count')}" if f.get("count", 1) != 1 else "")
                     for f in ev.get("fans", []) if isinstance(f, dict))
    flowers = f" + {ev.get('flowers')} flowers" if ev.get("flowers") else ""
    return f" ({_how(ev)}): {ev.get('fan')} fan{flowers} = {ev.get('total')} [{fans}]"


def _how(ev: dict[str, Any]) -> str:
    """How a win came (M2, M3): on whose discard, 抢杠和, 自摸, and the table's part of it."""
    target = seat_text(ev.get("target"))
    if ev.get("rob_kong"):
        how = [f"robbing {target}'s added kong (抢杠和)"]
    elif not ev.get("self_drawn"):
        how = [f"on {target}'s discard"]
    else:
        how = ["self-drawn (自摸)"]
    if ev.get("about_kong") and not ev.get("rob_kong"):
        how.append("on a kong replacement (杠上开花)")
    if ev.get("wall_last"):
        how.append("the last tile (妙手回春)" if ev.get("self_drawn") else "the last discard (海底捞月)")
    if ev.get("fourth_tile"):
        how.append("the last copy (和绝张)")
    return ", ".join(how)


# ---- self-play (tjmj.simulate) -------------------------------------------------------------

KONG_TYPES = ("daiminkan", "ankan", "kakan")  # no wilds, so no 金杠 (M1)


def summary_win(s: Summary, ev: dict[str, Any]) -> int:
    """Count a win: fan without and with flowers, how it came, the fans (M3); its worth (fan)."""
    worth: int = ev["fan"]
    s.fan_sum += worth
    s.flower_sum += ev["flowers"]
    if ev["rob_kong"]:
        s.rob_kong_wins += 1
    elif ev["self_drawn"]:
        s.self_drawn += 1
    else:
        s.discard_wins += 1
    for f in ev["fans"]:
        e = s.elements.setdefault(f["code"], [0, 0])
        e[0] += 1
        e[1] += f["fan"] * f["count"]
    return worth


def summary_hand_end(s: Summary, ev: dict[str, Any]) -> None:
    """Nothing of the settlement is counted apart."""


def summary_dict(s: Summary) -> dict[str, Any]:
    """The JSON form: ``family``, the common keys, the wins by how they were won, ``mean_fan``
    (without flowers, M2), ``mean_flowers`` and ``mean_total``, ``fans`` (M3), ``kongs``, ``chis``, ``pons``."""
    hands = s.hands or 1
    wins = s.wins or 1
    return {
        "family": s.family,
        **s.common_dict(),
        "self_drawn": s.self_drawn,
        "discard_wins": s.discard_wins,
        "rob_kong_wins": s.rob_kong_wins,
        "mean_fan": s.fan_sum / wins,
        "mean_flowers": s.flower_sum / wins,
        "mean_total": (s.fan_sum + s.flower_sum) / wins,
        "fans": _fans(s.elements, wins),
        "kongs": {k: s.kongs.get(k, 0) for k in KONG_TYPES},
        "chis": s.chis,
        "pons": s.pons,
        "mean_turns": s.discards / hands,
        "seconds": s.seconds,
        "hands_per_s": s.hands_per_s,
    }


def _fans(elements: dict[str, list[int]], wins: int) -> dict[str, dict[str, Any]]:
    """Per fan code (commonest first): its Chinese name and value, the wins holding it, their share
    of the wins and the mean fan it brought to them (its value × times counted)."""
    from .fans import FAN_BY_CODE

    out: dict[str, dict[str, Any]] = {}
    for code, (n, fan) in sorted(elements.items(), key=lambda kv: (-kv[1][0], kv[0])):
        f = FAN_BY_CODE.get(code)
        out[code] = {"name": f.chinese if f is not None else code, "value": f.value if f is not None else None,
                     "count": n, "frequency": n / wins, "mean_fan": fan / n}
    return out


def summary_rows(d: dict[str, Any], hands: int) -> list[tuple[str, str]]:
    """``tjmj simulate``'s rows of the family's own figures."""
    wins = d["wins"] or 1
    return [
        ("wins: self-drawn / on a discard / 抢杠和",
         f"{d['self_drawn']} / {d['discard_wins']} / {d['rob_kong_wins']} ({d['discard_wins'] / wins:.0%} on a discard)"),
        ("mean fan of a win (M2: without flowers)", f"{d['mean_fan']:.2f}"),
        ("mean fan of a win with flowers (M3)", f"{d['mean_total']:.2f} ({d['mean_flowers']:.2f} flowers)"),
        ("kongs: 明杠 / 暗杠 / 加杠", " / ".join(str(d["kongs"][k]) for k in ("daiminkan", "ankan", "kakan"))),
        ("chi / pon", f"{d['chis']} / {d['pons']}"),
    ]


def show_summary(con: Any, d: dict[str, Any]) -> None:
    """``tjmj simulate``'s table after the bots': the fans of the wins (M3)."""
    from rich.markup import escape
    from rich.table import Table

    if not d["fans"]:
        return
    c = Table(title="Fans of the wins (M3)")
    for col in ("fan", "value", "wins", "share of wins"):
        c.add_column(col, justify="left" if col == "fan" else "right")
    for code, v in d["fans"].items():
        c.add_row(escape(f"{v['name']} {code}"), str(v["value"]), str(v["count"]), f"{v['frequency']:.1%}")
    con.print(c)


# ---- player statistics (tjmj.stats) --------------------------------------------------------

POINTS = "fan"  # what a win is worth: without the flowers, as the 8-fan minimum judges it (M2)


def element_names() -> dict[str, tuple[str, str]]:
    """Fan code -> (Chinese, English)."""
    from .fans import FAN_BY_CODE

    return {code: (e.chinese, e.english) for code, e in FAN_BY_CODE.items()}


def player_figures(st: FamilyStats) -> dict[str, Any]:
    return {}


# ---- tournaments (tjmj.tournament) ---------------------------------------------------------

# fan without and with the flowers (M2, M3), the wins by how they came, deals-in and claims
COUNTS = ("fan", "flowers", "self_drawn", "discard_wins", "dealt_in", "claims")
DEALER_PAYMENT: str | None = None  # no payment of the dealer's is counted apart


def match_win(out: list[dict[str, int]], seating: list[int], ev: dict[str, Any]) -> None:
    """Count a win (its ``wins`` is the core's): fan, flowers, how it came; a robbed kong is paid as
    a discard win (M4): its declarer dealt in."""
    c = out[seating[ev["actor"]]]
    c["fan"] += ev["fan"]
    c["flowers"] += ev["flowers"]
    if ev["self_drawn"]:
        c["self_drawn"] += 1
    else:
        c["discard_wins"] += 1
        out[seating[ev["target"]]]["dealt_in"] += 1


def bot_figures(s: BotStats) -> dict[str, Any]:
    hands = s.hands or 1
    return {
        "mean_fan": s.fan / s.wins if s.wins else 0.0,
        "mean_total": (s.fan + s.flowers) / s.wins if s.wins else 0.0,
        "self_drawn": s.self_drawn,
        "discard_wins": s.discard_wins,
        "dealt_in": s.dealt_in,
        "deal_in_rate": s.dealt_in / hands,
        "kongs": s.kongs,
        "claims": s.claims,
    }


def tournament_columns(results: dict[str, dict[str, Any]], outside: bool) -> tuple[str, ...]:
    return ("bot", "n", "pts/hand", "95% CI", "win", "自摸", "fan", "点炮", "吃碰", *(("errors",) if outside else ()))


def tournament_row(s: dict[str, Any], results: dict[str, dict[str, Any]], outside: bool, errs: str) -> list[str]:
    """The cells after the common ones (bot, n, pts/hand, CI, win); ``errs`` is already escaped."""
    drawn = f"{s['self_drawn'] / s['wins']:.0%}" if s["wins"] else "—"
    return [drawn, f"{s['mean_fan']:.2f}", f"{s['deal_in_rate']:.1%}", str(s["claims"]), *((errs,) if outside else ())]


def tournament_legend(results: dict[str, dict[str, Any]]) -> str:
    return ("n: places held · pts/hand: mean points per hand played · 自摸: share of its wins self-drawn · "
            "fan: mean fan of a win without flowers (M2; --json has mean_total, with them) · 点炮: share of its "
            "hands dealt in (another player won on its discard or robbed its kong) · 吃碰: chi and pon made")
