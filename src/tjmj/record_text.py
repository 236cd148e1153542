"""The readable move list of a match record (:func:`show`, ``tjmj replay --show``).

Each family's own events and fields read in its words, from its ``records`` part
(:func:`tjmj.record.records_of`): ``kyoku_text`` (the wilds or the prevalent wind of a hand),
``win_text`` (how a win came and what it is worth), ``WILD_DISCARD_TEXT`` and ``DRAWN_TEXT``.
:mod:`tjmj.record` re-exports :func:`show`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import families
from .record import records_of
from .record_base import SEAT_CN, SEAT_WINDS, RecordError, json_text, seat_text
from .rules import FAMILIES, PRESETS
from .tiles import Flower, Tile, TileError, format_tiles

__all__ = ["show"]

_SEAT_CN = SEAT_CN
_seat = seat_text
_json_text = json_text


def _tile_or_flower(text: str) -> Tile:
    return Flower.parse(text) if isinstance(text, str) and text.endswith("f") else Tile.parse(text)


def _tiles(names: Iterable[str]) -> str:
    try:
        return format_tiles([_tile_or_flower(t) for t in names], sort=True)
    except (TileError, TypeError):
        return " ".join(map(str, names))


def _rules_text(d: dict[str, Any]) -> str:
    """The preset of the family and the options that differ from it; a family other than the
    default one is named: ``beijing_a [北京麻将 Beijing mahjong] (base=2)``."""
    raw = d.get("family")
    family = raw if isinstance(raw, str) and raw in FAMILIES else None
    preset = d.get("preset", FAMILIES[family].default_preset if family else families.default().default_preset)
    base = PRESETS[preset].to_dict() if preset in PRESETS else {}
    diff = [f"{k}={json_text(v)}" for k, v in d.items() if k != "preset" and base.get(k, ...) != v]
    name = str(preset)
    if family is not None and family != families.default().name:
        f = families.get(family)
        name += f" [{f.chinese} {f.english}]"
    return name + (f" ({', '.join(diff)})" if diff else "")


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _scores(values: Sequence[int], signed: bool = False) -> str:
    return "  ".join(f"{SEAT_WINDS[s]} {_signed(v) if signed else v}" for s, v in enumerate(values))


def show(events: Sequence[dict[str, Any]]) -> list[str]:
    """A readable move-by-move text of a match; ``[n]`` is the event's index (as replay reports it).
    Tianjin's and Beijing's own events read in their family's words (坐庄/拉庄, 铲, 金杠; chi,
    点炮, 抢杠, 混儿悠, 混杠, 烧庄, 上楼)."""
    out: list[str] = []
    names = ["?"] * 4
    default = families.default().name
    family = default
    own = base = records_of(family)
    dealer = 0
    i = 0
    while i < len(events):
        ev = events[i]
        t = ev.get("type")
        tag = f"[{i}]"
        who = _seat(ev.get("actor"))
        if t == "start_game":
            names = list(ev.get("names", names))
            rules = ev.get("rules", {})
            family = rules.get("family", default) if isinstance(rules, dict) else default
            own = _records_or_default(family)
            seats = ", ".join(f"{SEAT_WINDS[s]} {_SEAT_CN[s]} {n}" for s, n in enumerate(names))
            out.append(f"{tag} match: seed {ev.get('seed')}, rules {_rules_text(rules if isinstance(rules, dict) else {})}")
            out.append(f"    seats: {seats}")
        elif t == "start_kyoku":
            d = dealer = ev["dealer"]
            dice = ev.get("dice", {})
            head = f"{tag} hand {ev['hand'] + 1} (round {ev['round'] + 1}): dealer {SEAT_WINDS[d]} {names[d]}"
            if "sit" in ev or "pulls" in ev:  # Tianjin's choices (R7)
                pulls = [f"{SEAT_WINDS[s]} ×{n}" for s, n in enumerate(ev.get("pulls", [])) if n]
                head += (f", {'sat (坐庄)' if ev.get('sit') else 'did not sit'}; "
                         f"pulls (拉庄): {', '.join(pulls) or 'none'}")
            if ev.get("upstairs"):
                head += "; 上楼 (upstairs): every payment doubled after a drawn hand (B6)"
            if "resume" in ev:
                head += f"; dealt again after a restart (resume {ev['resume']}), from a fresh wall"
            out.append("")
            out.append(head)
            first, second = dice.get("first", []), dice.get("second", [])
            line = (f"    dice: {SEAT_WINDS[d]} rolled {'+'.join(map(str, first))}, "
                    f"{_seat(dice.get('second_roller'))} rolled {'+'.join(map(str, second))}; "
                    f"wall broken at {_seat(ev.get('wall_break', {}).get('seat'))}'s wall")
            if dice.get("indicator"):
                line += f"; {SEAT_WINDS[(d + 2) % 4]} rolled {'+'.join(map(str, dice['indicator']))} for the indicator"
            out.append(line)
            out.append(f"    {own.kyoku_text(ev)}; scores {_scores(ev.get('scores', [0] * 4))}")
            for s, hand in enumerate(ev.get("tehais", [])):
                out.append(f"    {SEAT_WINDS[s]} dealt {_tiles(hand)}")
        elif t == "tsumo":
            src = "from the tail (补牌)" if ev.get("replacement") else ""
            if src and i > 0 and events[i - 1].get("type") == "flower":
                src = "from the tail for the flower (补花)"
            text = f"{tag} {who} draws {ev.get('pai')}" + (f" {src}" if src else "")
            nx = events[i + 1] if i + 1 < len(events) else None
            if nx is not None and nx.get("type") == "dahai" and nx.get("actor") == ev.get("actor"):
                text += f", {_discard_text(nx, own)}"  # the usual draw-discard pair on one line
                i += 1
            out.append(text)
        elif t == "dahai":
            out.append(f"{tag} {who} {_discard_text(ev, own)}")
        elif t == "flower":
            out.append(f"{tag} {who} lays aside the flower {ev.get('pai')} and draws its replacement (补花, M1)")
        elif t == "chi":
            seq = _tiles([str(ev.get("pai")), *ev.get("consumed", [])])
            out.append(f"{tag} {who} chis {ev.get('pai')} from {_seat(ev.get('target'))} (吃): {seq}")
        elif t == "pon":
            out.append(f"{tag} {who} pons {ev.get('pai')} from {_seat(ev.get('target'))} (碰)")
        elif t == "daiminkan":
            out.append(f"{tag} {who} kongs {ev.get('pai')} from {_seat(ev.get('target'))} (明杠)")
        elif t == "ankan":
            tile = (ev.get("consumed") or ["?"])[0]
            kind = "gold kong (金杠)" if ev.get("gold") else "concealed kong (暗杠)"
            out.append(f"{tag} {who} declares a {kind} of {tile}")
        elif t == "kakan":
            out.append(f"{tag} {who} adds {ev.get('pai')} to the pon (加杠)")
        elif t == "chan":
            out.append(f"{tag} 铲: the dealer's first discard {ev.get('pai')} was followed by each other seat (R7)")
        elif t == "shaozhuang":
            rounds = ev.get("rounds")
            again = f", round {rounds}" if rounds != 1 else ""
            out.append(f"{tag} 烧庄{again}: the dealer {who}'s first discard {ev.get('pai')} was followed by each "
                       "other seat; the dealer pays each other seat at the end of the hand unless it is drawn (B6)")
        elif t == "hora":
            shown = own
            if "value" in ev and own is base and "value" not in own.EVENT_FIELDS["hora"]:
                shown = _valued_records(own)  # a win worth a value in the default family's record: read as one
            out.append(f"{tag} {who} WINS on {ev.get('pai')}" + shown.win_text(ev, dealer))
            melds = " ".join(ev.get("melds", []))
            out.append(f"    hand {_tiles(ev.get('hand', []))} + {ev.get('pai')}" + (f"  melds {melds}" if melds else ""))
        elif t == "ryukyoku":
            out.append(f"{tag} drawn hand: {ev.get('reason')} (荒牌)" + own.DRAWN_TEXT)
        elif t == "end_kyoku":
            pays = ev.get("payments", [])
            if pays:
                out.append(f"{tag} payments:")
                for p in pays:
                    out.append(f"    {_seat(p.get('payer'))} → {_seat(p.get('payee'))} {p.get('amount')} "
                               f"({p.get('reason')})")
            else:
                out.append(f"{tag} no payments")
            out.append(f"    deltas {_scores(ev.get('deltas', []), signed=True)}; "
                       f"scores {_scores(ev.get('scores', []))}")
        elif t == "end_game":
            out.append("")
            out.append(f"{tag} end of the match: "
                       + ", ".join(f"{SEAT_WINDS[s]} {names[s]} {v}" for s, v in enumerate(ev.get("scores", []))))
        else:
            out.append(f"{tag} {_json_text(ev, 200)}")
        i += 1
    return out


def _discard_text(ev: dict[str, Any], own: Any) -> str:
    """``discards 7m (the drawn tile)``; Beijing's 混儿悠 and wilds (B2, B3), Tianjin's 小相公 (R2):
    ``own`` is the family's ``records`` part (its ``WILD_DISCARD_TEXT``)."""
    text = f"discards {ev.get('pai')}"
    if ev.get("hunyou"):
        text = f"declares 混儿悠 (hunyou): discards {ev.get('pai')} and waits on any tile"
    if ev.get("tsumogiri"):
        text += " (the drawn tile)"
    if ev.get("wild"):
        text += own.WILD_DISCARD_TEXT
    return text


def _records_or_default(family: Any) -> Any:
    """The family's ``records`` part; the default family's for a family records do not know (the
    move list shows what it can of any record)."""
    try:
        return records_of(family)
    except RecordError:
        return records_of(families.default().name)


def _valued_records(own: Any) -> Any:
    """The ``records`` part of the first family whose wins are worth a ``value`` (else ``own``)."""
    for f in families.all_families():
        rec = _records_or_default(f.name)
        if "value" in rec.EVENT_FIELDS["hora"]:
            return rec
    return own
