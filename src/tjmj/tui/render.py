"""The terminal table's text: pure functions from the web protocol's messages to Rich text.

Each takes what a ``state``, ``settlement`` or ``hint`` message holds (docs/web.md) and ``ascii``
(MPSZ text instead of glyphs), so the screen, the tests and ``tjmj replay`` can share them.

What differs from family to family the table asks the family's ``termview`` part
(``tjmj.families.<name>.termview``, :attr:`tjmj.family.Family.termview`), which defines:

* ``PREVALENT_WIND``: bool, the info line shows the prevalent wind (圈风) in place of the round;
* ``CONFIRM_WILD_DISCARD``: bool, the table asks before a wild is discarded (Tianjin's 小相公);
* ``rules_brief(rules) -> dict``: the family's own options in ``state["rules"]``, after the shared
  ones (:func:`tjmj.tui.source.rules_brief`);
* ``win_how(win, names) -> str | None``: how the winner won, in the settlement's words; None for
  the shared wording (self-drawn, on the discard of …, robbing the kong of …);
* ``win_lines(text, win) -> None``: append the win's scoring (elements or fans, the total and how
  it is made) to the settlement's :class:`~rich.text.Text`;
* ``stake_line(msg) -> str | None``: a line (newline included) on what multiplied the payments
  (坐庄, 上楼), or None.

The family's name on the info line is its :class:`~tjmj.family.Family`'s Chinese and short names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from .. import families
from ..rules import RulesError
from .glyphs import meld_text, tile_text, tiles_text

__all__ = ["WIND_NAMES", "seat_wind", "info_line", "seat_block", "hand_line", "window_line", "action_choices",
           "settlement_text", "hint_text", "event_line", "stake_lines", "family_title", "termview"]

WIND_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}
_WINDS = ("E", "S", "W", "N")
_ROUND_CN = "东南西北"


def termview(family: str) -> Any:
    """The ``termview`` part of the family named ``family`` (None for a name no family has: a state
    without rules)."""
    try:
        fam = families.get(family)
    except RulesError:
        return None
    return fam.termview


def family_title(family: str) -> str:
    """The family as the info line names it: ``天津麻将 Tianjin`` (the name itself when unknown)."""
    try:
        fam = families.get(family)
    except RulesError:
        return family
    return f"{fam.chinese} {fam.short}"


def seat_wind(state: dict[str, Any], seat: int) -> str:
    """The seat's wind letter: MCR's 门风 moves with the deal; Tianjin and Beijing seats keep theirs."""
    winds = state["obs"].get("seat_winds")
    return str(winds[seat]) if winds else _WINDS[seat]


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def info_line(state: dict[str, Any], ascii: bool = False) -> Text:
    """The top line: game and preset, hand and round, tiles left, the indicator and wilds (Tianjin,
    Beijing) or the prevalent wind (MCR), Beijing's 上楼."""
    obs = state["obs"]
    rules = state.get("rules") or {}
    fam = rules.get("family", "")
    t = Text()
    t.append(family_title(fam), "bold")
    t.append(f" {rules.get('preset', '')}")
    hands = rules.get("match_hands")
    t.append(f" · hand {obs.get('hand_number', 0) + 1}" + (f"/{hands}" if hands else ""))
    view = termview(fam)
    if view is not None and view.PREVALENT_WIND and obs.get("prevalent_wind"):
        pw = obs["prevalent_wind"]
        t.append(f" · 圈风 {tile_text(f'{_WINDS.index(pw) + 1}z', ascii)}")
    else:
        t.append(f" · {_ROUND_CN[obs.get('round', 0) % 4]}圈")
    if obs.get("wall_left") is not None:
        t.append(f" · left {obs['wall_left']}")
    if obs.get("indicator"):
        t.append(" · 混 ")
        t.append(tile_text(obs["indicator"], ascii))
    if obs.get("wilds"):
        t.append("→")
        t.append(tiles_text(obs["wilds"], ascii), "bold yellow")
    if obs.get("upstairs"):
        t.append(" · 上楼×2", "bold red")
    if obs.get("phase") in ("sit", "pull"):
        t.append(" · 坐庄/拉庄")
    return t


def _discard_cells(discards: Sequence[str], claimed: Sequence[int], last: bool, ascii: bool) -> Text:
    t = Text()
    taken = set(claimed)
    for i, tile in enumerate(discards):
        if i:
            t.append(" ")
        if i in taken:  # claimed by another seat: it stays in the pond, marked
            t.append(f"({tile})" if ascii else tile_text(tile, ascii), "dim strike")
        elif last and i == len(discards) - 1:
            t.append(tile_text(tile, ascii), "bold reverse")
        else:
            t.append(tile_text(tile, ascii))
    return t


def seat_block(state: dict[str, Any], seat: int, last_discarder: int | None, ascii: bool = False) -> Text:
    """One seat: wind, name, dealer, score, tiles held, melds and flowers, then its pond."""
    obs = state["obs"]
    st = obs["seats"][seat] if obs.get("seats") else None
    names = state.get("names") or [f"seat {s}" for s in range(4)]
    you = state.get("you")
    t = Text()
    wind = seat_wind(state, seat)
    t.append(f"{wind}{WIND_NAMES.get(wind, '')} ", "bold")
    t.append(names[seat], "bold cyan" if seat == you else "bold")
    if seat == you:
        t.append(" (you)")
    if obs.get("dealer") == seat:
        t.append(" 庄dealer", "yellow")
        if obs.get("sit") and obs.get("phase") != "sit":  # R7: all hand long, as the web's seat marks
            t.append(" 坐庄 sat", "bold yellow")
    pulls = obs.get("pulls")
    if pulls and pulls[seat]:  # 拉庄 (R7): from the pull on, not only before the deal
        t.append(f" 拉庄×{pulls[seat]} pulled", "bold blue")
    t.append(f"  {_signed(obs['scores'][seat])}")
    to_act = state.get("to_act")
    if to_act == seat:
        t.append("  ◀ to act" if not ascii else "  <- to act", "bold green")
    if st is not None:
        if seat != you:
            t.append(f"  {st['hand_size']} tiles")
        for meld in st["melds"]:
            t.append("  ")
            t.append(meld_text(meld, ascii), "magenta")
        if st.get("flowers"):
            t.append("  花 ")
            t.append(tiles_text(st["flowers"], ascii), "green")
        if st.get("hunyou"):
            t.append("  混儿悠", "bold red")
        if st.get("xiaoxianggong"):
            t.append("  小相公", "red")
        t.append("\n  ")
        if st["discards"]:
            t.append_text(_discard_cells(st["discards"], st.get("claimed") or [], last_discarder == seat, ascii))
        else:
            t.append("·", "dim")
    return t


def hand_order(obs: dict[str, Any]) -> list[str]:
    """The hand as shown: sorted, the drawn tile last (set apart)."""
    hand = list(obs.get("hand") or [])
    drawn = obs.get("drawn")
    if drawn and drawn in hand:
        hand.remove(drawn)
        hand.append(drawn)
    return hand


def hand_line(obs: dict[str, Any], cursor: int | None, legal_discards: set[str], ascii: bool = False) -> Text:
    """The hand, sorted, with the drawn tile set apart, wilds marked (``*`` in ASCII), the selected
    tile reversed and the tiles that may not be discarded now dimmed."""
    tiles = hand_order(obs)
    drawn = obs.get("drawn")
    wilds = set(obs.get("wilds") or [])
    t = Text()
    for i, tile in enumerate(tiles):
        if drawn and i == len(tiles) - 1:
            t.append("  ")
        elif i:
            t.append(" ")
        style = ""
        if tile in wilds:
            style = "bold yellow underline"
        if legal_discards and tile not in legal_discards:
            style += " dim"
        if cursor == i:
            style += " reverse"
        text = tile_text(tile, ascii) + ("*" if ascii and tile in wilds else "")
        t.append(text, style.strip())
    return t


def window_line(state: dict[str, Any], ascii: bool = False) -> Text:
    """Whose decision it is: your turn, a claim window asking you (the tile on offer and from whom),
    or the others."""
    obs = state["obs"]
    names = state.get("names") or []
    you = state.get("you")
    w = obs.get("window")
    t = Text()
    if state.get("status") == "over":
        t.append("The match is over.", "bold")
        return t
    if state.get("paused"):
        t.append("The hand is over.", "bold")
        return t
    phase = obs.get("phase")
    if w is not None:
        who = names[w["from"]] if w["from"] < len(names) else str(w["from"])
        kind = "declares a kong of" if w["kind"] == "rob" else "discarded"
        t.append(f"{who} {kind} ")
        t.append(tile_text(w["tile"], ascii), "bold reverse")
        if you is not None and you in w["waiting"]:
            t.append(" — your claim?", "bold green")
        else:
            t.append(" — waiting for the others to answer", "dim")
        return t
    to_act = state.get("to_act")
    if phase == "sit" and to_act == you:
        t.append("You deal: sit (坐庄, payments ×2)?", "bold green")
    elif phase == "pull" and to_act == you:
        t.append("Pull (拉庄) against the dealer?", "bold green")
    elif to_act == you and you is not None:
        t.append("Your turn: ← → choose a tile, Enter discards", "bold green")
    elif to_act is not None and to_act < len(names):
        t.append(f"{names[to_act]} to act…", "dim")
    return t


_LABELS = {
    "win": ("w", "和 win"), "pon": ("p", "碰 pon"), "kong": ("k", "杠 kong"), "ankong": ("k", "暗杠 kong"),
    "added_kong": ("k", "加杠 kong"), "chi": ("c", "吃 chi"), "hungang": ("g", "混杠 four wilds"),
    "hunyou": ("h", "混儿悠 hunyou"), "pass": ("space", "过 pass"),
}


def action_choices(legal: Sequence[str]) -> dict[str, list[str]]:
    """The legal actions by key: ``w`` win, ``p`` pon, ``k`` every kong, ``c`` every chi, ``g`` 混杠,
    ``h`` 混儿悠, ``s`` sit (坐庄), ``l`` every pull level above 0 (拉庄), ``space`` pass (or not
    sitting, pulling 0); discards are chosen on the hand (``enter``)."""
    out: dict[str, list[str]] = {}
    for a in legal:
        kind, _, arg = a.partition(" ")
        if kind == "discard":
            key = "enter"
        elif kind == "sit":
            key = "s" if arg != "0" else "space"
        elif kind == "pull":
            key = "l" if arg != "0" else "space"
        else:
            key = _LABELS.get(kind, ("", ""))[0]
        if key:
            out.setdefault(key, []).append(a)
    return out


def action_label(key: str, actions: Sequence[str], preview: dict[str, Any] | None = None) -> str:
    first = actions[0].split()[0]
    if first == "sit":
        label = "坐庄 sit" if key == "s" else "不坐 don't sit"
    elif first == "pull":
        label = "拉庄 pull" if key == "l" else "不拉 no pull"
    else:
        label = _LABELS.get(first, (key, first))[1]
    if first == "win" and preview:
        worth = preview.get("total", preview.get("fan", preview.get("value")))
        unit = "" if "value" in preview and "fan" not in preview else " fan"
        label += f" ({preview.get('name', '')} {worth}{unit})"
    if len(actions) > 1:
        label += f" ×{len(actions)}"
    return f"[{'␣' if key == 'space' else key}] {label}"


def action_text(action: str, ascii: bool = False) -> str:
    """One action for a choice list: ``chi 3m`` shows the sequence it makes."""
    kind, _, arg = action.partition(" ")
    if kind == "chi" and len(arg) == 2 and arg[0].isdigit():
        n, suit = int(arg[0]), arg[1]
        return f"吃 chi {tiles_text([f'{n + i}{suit}' for i in range(3)], ascii)}"
    if kind in ("ankong", "added_kong", "hunyou", "pon", "kong") and arg:
        return f"{_LABELS[kind][1]} {tile_text(arg, ascii)}"
    return action


# ---- the settlement --------------------------------------------------------------------------


def _hand_tiles(h: dict[str, Any], ascii: bool) -> str:
    parts = [tiles_text(h.get("tiles") or h.get("hand") or [], ascii)]
    parts += [meld_text(m, ascii) for m in h.get("melds") or []]
    if h.get("flowers"):
        parts.append("花 " + tiles_text(h["flowers"], ascii))
    return "  ".join(p for p in parts if p)


def settlement_text(msg: dict[str, Any], ascii: bool = False, you: int | None = None) -> Text:
    """A ``settlement`` message (docs/web.md) as the web table explains it: the winner and the
    winning tile, each element or fan with its Chinese and English names and value, how the value
    is made, every payment with its formula, every hand face up, the scores, and the standings
    when the match is over."""
    names = msg.get("names") or [f"seat {s}" for s in range(4)]
    view = termview(msg.get("family", families.default().name))
    t = Text()
    t.append(f"Hand {msg['hand'] + 1} · {_ROUND_CN[msg.get('round', 0) % 4]}圈 · dealer {names[msg['dealer']]}\n",
             "bold")
    win = msg.get("win")
    if win is None:
        t.append("荒牌 Drawn hand: nobody won.\n", "bold")
    else:
        winner = names[win["seat"]]
        how = "self-drawn 自摸" if win.get("self_drawn") or win.get("from") is None else ""
        own = view.win_how(win, names) if view is not None else None
        if own is not None:  # the family's own words (every Tianjin win is self-drawn, R5)
            how = own
        elif win.get("from") is not None:
            how = ("robbing the kong of " if win.get("rob_kong") else "on the discard of ") + names[win["from"]]
        t.append(f"{winner} wins", "bold green")
        t.append(f" {how}" if how else "")
        t.append(" on ")
        t.append(tile_text(win["tile"], ascii), "bold reverse")
        t.append("\n  ")
        t.append(tiles_text(win.get("hand") or [], ascii))
        t.append("  + ")
        t.append(tile_text(win["tile"], ascii), "bold")
        for meld in win.get("melds") or []:
            t.append("  " + meld_text(meld, ascii))
        t.append("\n")
        (view or termview(families.default().name)).win_lines(t, win)
    if msg.get("chan"):
        t.append("铲 chan: ")
        t.append(tile_text(msg["chan"], ascii))
        t.append("\n")
    stake = view.stake_line(msg) if view is not None else None
    if stake:
        t.append(stake)
    t.append("Payments\n", "bold")
    payments = msg.get("payments") or []
    if not payments:
        t.append("  none\n")
    for p in payments:
        formula = p.get("formula_en") or ""
        zh = p.get("formula") or ""
        extra = f"  {formula}" + (f"  ({zh})" if zh and zh != formula else "") if formula else ""
        t.append(f"  {names[p['payer']]} → {names[p['payee']]}: {p['amount']} ({p['reason']}){extra}\n")
    t.append("Scores\n", "bold")
    for s in range(len(names)):
        mark = " (you)" if s == you else ""
        t.append(f"  {names[s]}{mark}: {_signed(msg['deltas'][s])} → {msg['scores'][s]}\n")
    hands = msg.get("hands")
    if hands:
        t.append("Hands\n", "bold")
        for s, h in enumerate(hands):
            t.append(f"  {names[s]}: {_hand_tiles(h, ascii)}\n")
    if msg.get("standings"):
        t.append("Final standings\n", "bold")
        for row in msg["standings"]:
            t.append(f"  {row['rank']}. {row['name']} {row['score']}\n")
    return t


def hint_text(msg: dict[str, Any], ascii: bool = False) -> Text:
    """The advisor's ranking of the discards (``hint`` message): best first, one line each."""
    t = Text()
    t.append("Hints (the advisor's ranking)\n", "bold")
    if not msg.get("available", True):
        t.append("Hints are not available for this game.\n")
        return t
    entries = sorted(msg.get("discards") or [], key=lambda e: e.get("rank", 99))
    if not entries:
        t.append("No discard to rank now.\n")
    for e in entries:
        t.append(f"{e.get('rank', '?')}. discard ")
        t.append(tile_text(e["tile"], ascii), "bold")
        t.append(f": {e.get('summary') or ''}\n")
    return t


def event_line(ev: dict[str, Any], names: Sequence[str], ascii: bool = False, you: int | None = None) -> str | None:
    """A public event as a short log line (None for events not worth a line); ``you``'s own moves
    read "You discard", not "<name> discards"."""
    typ = ev.get("type")
    actor = ev.get("actor")
    me = isinstance(actor, int) and actor == you
    who = "You" if me else names[actor] if isinstance(actor, int) and actor < len(names) else ""
    pai = ev.get("pai")
    tile = tile_text(pai, ascii).rstrip() if isinstance(pai, str) else ""

    def said(seat_form: str, your_form: str) -> str:  # "Bot 1 discards", "You discard"
        return f"{who} {your_form if me else seat_form}"

    if typ == "dahai":
        return said("discards", "discard") + f" {tile}" + (" (混儿悠)" if ev.get("hunyou") else "")
    if typ in ("pon", "chi", "daiminkan"):
        verb = dict(pon="pon", chi="chi", daiminkan="kong")[typ]
        return said(verb + "s", verb) + f" {tile}"
    if typ in ("ankan", "kakan"):
        return said("declares", "declare") + " a kong"
    if typ == "flower":
        return said("sets", "set") + f" aside a flower {tile}"
    if typ == "hora":
        return said("wins", "win") + "!"
    if typ == "ryukyoku":
        return "drawn hand"
    if typ == "start_kyoku":
        return "a new hand is dealt"
    return None


def stake_lines(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """Log lines for the 坐庄 and 拉庄 decisions (R7) between two ``state`` messages of the same hand:
    they make no event, so they are read from the observation's ``sit`` and ``pulls``."""
    if before is None:
        return []
    old, new = before.get("obs") or {}, after.get("obs") or {}
    if old.get("hand_number") != new.get("hand_number") or "pulls" not in new:
        return []
    names = after.get("names") or [f"seat {s}" for s in range(4)]
    you = after.get("you")

    def who(seat: int) -> str:
        return "You" if seat == you else names[seat]

    out = []
    dealer = new.get("dealer")
    if new.get("sit") and not old.get("sit") and isinstance(dealer, int):
        out.append(f"{who(dealer)} {'sit' if dealer == you else 'sits'} (坐庄)")
    for seat, (a, b) in enumerate(zip(old.get("pulls") or [0] * 4, new["pulls"])):
        if b > a:
            out.append(f"{who(seat)} {'pull' if seat == you else 'pulls'} ×{b} (拉庄)")
    return out
