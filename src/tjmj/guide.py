"""A player's short guide per rule family — what wins, what scores, an example hand worked out — in
Chinese and English (issue 34 item 10).

The rules in docs/rules/ are specifications for implementers; these guides say the same for a
player, briefly, each point citing its section there (R…, B…, M…).  One source, two renderings: the
web table serves :func:`page` at ``/guide/FAMILY`` (``?lang=zh|en``), and docs/guide/ holds
:func:`markdown` and the example's picture (``python -m tjmj.guide docs/guide`` writes them;
tests/test_guide.py checks they are current, and that each example's score is what the family's
scorer gives).
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FAMILIES", "GUIDES", "Guide", "Example", "page", "index_page", "markdown", "example_svg", "write_docs",
           "LANGS"]

LANGS = ("zh", "en")
Text = tuple[str, str]  # (Chinese, English)


@dataclass(frozen=True)
class Example:
    """An example win: ``hand`` (the concealed tiles before the winning tile, MPSZ), ``draw`` (the
    winning tile), ``wilds`` (marked on the picture), how it won (``how``), each scoring item as the
    guide states it (Chinese, English, value), the ``total`` (fan or value) and the working and the
    payments in words."""

    hand: str
    draw: str
    wilds: str
    indicator: str | None
    self_drawn: bool
    how: Text
    items: tuple[tuple[str, str, str], ...]
    working: Text
    total: int
    unit: Text
    payments: Text
    each_pays: int


@dataclass(frozen=True)
class Guide:
    family: str
    title: Text
    rules_file: str
    sections: tuple[tuple[Text, tuple[Text, ...]], ...]
    example: Example


TIANJIN = Guide(
    family="tianjin",
    title=("天津麻将怎么玩", "How to play Tianjin mahjong"),
    rules_file="RULES.md",
    sections=(
        (("牌和人", "Tiles and players"), (
            ("136 张牌，没有花牌：万、饼、条各 1–9，东南西北，中发白，每种 4 张（R1）。四个人，每人 13 张，庄家 14 张（R3）。",
             "136 tiles, no flowers: characters, dots and bamboo 1–9, the four winds and the three dragons, four "
             "of each (R1). Four players, 13 tiles each, the dealer 14 (R3)."),
        )),
        (("混儿（万能牌）", "Wilds (混儿)"), (
            ("每局翻开一张牌（混儿牌）：它和它的下一张（同花色 1→2 … 9→1，东→南→西→北→东，中→发→白→中）是混儿，和牌时可以当任何牌用（R2）。",
             "Each hand one tile is turned face up, the indicator: its kind and the next one (1→2 … 9→1 in a "
             "suit, East→South→West→North→East, 中→发→白→中) are wild, and at the win a wild stands for any "
             "tile (R2)."),
            ("打出混儿就成了“小相公”：这一局不能和（R2）。",
             "Discarding a wild makes you 小相公: you cannot win this hand (R2)."),
        )),
        (("怎么和", "What wins"), (
            ("摸一张，打一张。别人打的牌可以碰、杠，不能吃；只能自摸和（包括杠后补牌的杠开），不能和别人打的牌（R4）。",
             "Draw a tile, discard a tile. You may pon or kong another player's discard, never chi; you win "
             "only on your own draw (自摸, also on a kong's replacement draw, 杠开), never on a discard (R4)."),
            ("和牌要四组（顺子、刻子、杠）加一对将，而且至少 2 番：有混儿的普通和（提溜，1 番，“死提溜”）不能和（R5, R5.2）。",
             "A win is four sets (runs, triplets, kongs) and a pair, worth at least 2 fan: a plain hand with "
             "wilds (提溜, 1 fan, “死提溜”) cannot win (R5, R5.2)."),
        )),
        (("算番", "What scores"), (
            ("核心分：提溜 1，捉伍儿（和的那张是 5万或混儿，当 4万5万6万 的 5万）3，龙（同一花色的 123、456、789）4，捉伍儿龙 3 + 4 = 7（R5.1）。",
             "The core: a plain win 1, 捉伍儿 (the winning tile is 5m or a wild, playing the 5m of 4m5m6m) 3, "
             "a dragon 龙 (123, 456, 789 of one suit) 4, both 3 + 4 = 7 (R5.1)."),
            ("每个翻倍项 ×2：混儿吊（和的牌和手里的混儿凑成将或一组）、本混儿（龙的花色就是混儿的花色）、没混儿（整手没有混儿）、杠开（R5.1）。",
             "Each doubling element ×2: 混儿吊 (the winning tile and wilds from the hand make the pair or a "
             "set), 本混儿 (the dragon is in the wilds' suit), 没混儿 (no wild in the whole hand), 杠开 (won on "
             "a kong's replacement draw) (R5.1)."),
            ("番数 = 核心分 × 2^翻倍项数，取最好的组法（R5.2）。",
             "The fan = the core × 2 per doubling element, over the best way to arrange the hand (R5.2)."),
        )),
        (("给钱", "Payments"), (
            ("另外三家每家给和牌的人 番数 × 底（R8）。庄家可以“坐庄”：和庄家之间的输赢 ×2；闲家可以“拉庄”：和庄家之间再 ×2（R7）。",
             "Each of the three others pays the winner fan × base (R8). The dealer may sit (坐庄): every "
             "payment with the dealer ×2; a non-dealer may pull (拉庄): their payments with the dealer ×2 "
             "again (R7)."),
            ("杠另算：明杠每家 1，暗杠每家 2，和不和都给（R6）。",
             "Kongs score apart: each other player pays 1 for an exposed kong, 2 for a concealed one, win or "
             "not (R6)."),
        )),
    ),
    example=Example(
        hand="1p1p2p13s456s789s66z", draw="5m", wilds="1p2p", indicator="1p", self_drawn=True,
        how=("混儿牌 1p：1饼、2饼是混儿。自摸 5万。", "Indicator 1p: 1p and 2p are wild. Self-drawn 5m."),
        items=(("捉伍儿", "catching the five", "3"), ("龙", "dragon", "4"), ("混儿吊", "wild wait", "×2")),
        working=("条子龙：1条 2条(混) 3条、456条、789条；两个混儿当 4万、6万，摸到的 5万 在中间：双混儿捉伍儿龙，"
                 "(3 + 4) × 2 = 14 番。龙不是混儿的花色，所以没有本混儿。",
                 "A bamboo dragon: 1s (2s: a wild) 3s, 456s, 789s; two wilds play 4m and 6m around the drawn "
                 "5m: 双混儿捉伍儿龙, (3 + 4) × 2 = 14 fan. The dragon is not in the wilds' suit, so no 本混儿."),
        total=14, unit=("番", "fan"),
        payments=("没有坐庄、拉庄，底 1：另外三家每家给 14，和牌的人 +42。",
                  "No sitting or pulling, base 1: each of the three others pays 14, the winner +42."),
        each_pays=14,
    ),
)

BEIJING = Guide(
    family="beijing",
    title=("北京麻将怎么玩", "How to play Beijing mahjong"),
    rules_file="BEIJING.md",
    sections=(
        (("牌和人", "Tiles and players"), (
            ("136 张牌，没有花牌，每人 13 张，庄家 14 张；牌尾留 7 墩只给杠后补牌，摸到留牌就荒牌（B1）。",
             "136 tiles, no flowers, 13 each and the dealer 14; 7 stacks at the tail are kept for kong "
             "replacements, and the hand is drawn when only those are left (B1)."),
        )),
        (("混儿", "The wild"), (
            ("规则 beijing（B 版）：翻开的混坯的下一张是混儿（4 张），和牌时当任何牌；混儿可以随便打。四张混儿都在手里可以“混杠”：直接和，40 分（B2）。beijing_a（A 版）没有混儿。",
             "Preset beijing (version B): the kind after the face-up 混坯 is wild (4 tiles) and stands for "
             "any tile at the win; wilds may be discarded freely. All four in your hand: declare 混杠, an "
             "instant win worth 40 (B2). beijing_a (version A) has no wild."),
        )),
        (("怎么和", "What wins"), (
            ("可以吃（只吃上家）、碰、杠；可以自摸，也可以和别人打的牌（点炮）。B 版一局只能吃或碰一次，吃碰过以后只能自摸（B3）。",
             "You may chi (from the player before you only), pon and kong; you win on your own draw or on "
             "a discard (点炮). In version B you may chi or pon once a hand, and after that win only by "
             "self-draw (B3)."),
            ("和牌是四组加一对，或者七对子（要门清）（B4）。",
             "A win is four sets and a pair, or seven pairs (concealed) (B4)."),
        )),
        (("算分", "What scores"), (
            ("B 版：1 分乘以各项倍数：庄胡、门清、自摸、无混儿、一条龙、捉五魁、七对子、杠上开花、混一色各 ×2，清一色、海底捞月、本混儿龙、豪华七对子 ×4，字一色 ×8；混杠、天和、地和固定 40（B5）。",
             "Version B: 1 point times each element's multiplier: dealer wins, concealed hand, self-drawn, no "
             "wild, pure straight (一条龙), 捉五魁, seven pairs, win on a kong draw, half flush ×2 each; full "
             "flush, last tile, own-wild straight, luxury seven pairs ×4; all honours ×8; 混杠, 天和, 地和 a "
             "flat 40 (B5)."),
            ("A 版：各项番数相加，没有门清减半（B5）。",
             "Version A: the elements' fan add up, halved when the hand is not concealed (B5)."),
        )),
        (("给钱", "Payments"), (
            ("另外三家每家给 分数 × 底；点炮的人 ×2（B 版）。荒牌以后“上楼”：所有输赢 ×2，直到北家的庄结束（B6）。",
             "Each of the three others pays the value × base; the discarder of the winning tile pays ×2 "
             "(version B). After a drawn hand, 上楼: every payment ×2 until North's dealership ends (B6)."),
        )),
    ),
    example=Example(
        hand="123m46m789m123p55s", draw="5m", wilds="", indicator="1z", self_drawn=True,
        how=("闲家，混坯 东，混儿是 南（这手没有）。自摸 5万。",
             "A non-dealer; the 混坯 is East, so South is wild (none in this hand). Self-drawn 5m."),
        items=(("一条龙", "pure straight", "×2"), ("捉五魁", "catching the five", "×2"), ("门清", "concealed hand", "×2"),
               ("自摸", "self-drawn", "×2"), ("无混儿", "no wild", "×2")),
        working=("123万 456万 789万 是一条龙；5万 卡在 4万、6万 中间，而且只和这一张：捉五魁。1 × 2 × 2 × 2 × 2 × 2 = 32 分。",
                 "123m 456m 789m is a pure straight; the 5m fills 4m_6m and is the only winning tile: 捉五魁. "
                 "1 × 2 × 2 × 2 × 2 × 2 = 32 points."),
        total=32, unit=("分", "points"),
        payments=("自摸，底 1：另外三家每家给 32，和牌的人 +96。",
                  "Self-drawn, base 1: each of the three others pays 32, the winner +96."),
        each_pays=32,
    ),
)

MCR = Guide(
    family="mcr",
    title=("国标麻将怎么玩", "How to play MCR (Chinese Official) mahjong"),
    rules_file="MCR.md",
    sections=(
        (("牌和人", "Tiles and players"), (
            ("144 张牌：136 张加 8 张花牌（春夏秋冬梅兰竹菊），没有混儿。摸到花牌马上放在一边，从牌尾补一张（M1）。",
             "144 tiles: the 136 plus 8 flowers (春夏秋冬 梅兰竹菊), no wilds. A flower is laid aside as soon "
             "as it is drawn and replaced from the tail (M1)."),
            ("一场 16 局，每局庄家轮到下一家；圈风每 4 局换一次（M1）。",
             "A match is 16 hands; the deal passes to the next seat after every hand; the prevalent wind "
             "changes every 4 hands (M1)."),
        )),
        (("怎么和", "What wins"), (
            ("可以吃（只吃上家）、碰、杠，可以自摸或和别人打的牌，可以抢加杠（M2）。",
             "You may chi (from the player before you only), pon and kong, win on your own draw or on a "
             "discard, and rob an added kong (M2)."),
            ("和牌的形状：四组加一对、七对、十三幺、全不靠、组合龙（M3）。至少 8 番才能和，花牌不算（M2）。",
             "Winning shapes: four sets and a pair, seven pairs, thirteen orphans, knitted tiles, a knitted "
             "straight (M3). A win needs at least 8 fan, flowers not counted (M2)."),
        )),
        (("算番", "What scores"), (
            ("按国标规则书的 81 种番，取最好的合法组合（不重复、不拆移等原则）；每张花牌再加 1 番（M3）。",
             "The 81 fans of the rule book, the best legal combination (no fan counted twice or implied by "
             "another); each flower adds 1 fan after the 8-fan check (M3)."),
        )),
        (("给钱", "Payments"), (
            ("点炮：点炮的人给 8 + 番数，另外两家各给 8；自摸：三家各给 8 + 番数（M4）。",
             "On a discard: the discarder pays 8 + the fan, each of the other two 8; self-drawn: each of the "
             "three pays 8 + the fan (M4)."),
        )),
    ),
    example=Example(
        hand="123m456m789m123p5s", draw="5s", wilds="", indicator=None, self_drawn=True,
        how=("东风圈，坐东，没有花牌，门清自摸 5条。", "East round, East seat, no flowers; concealed, self-drawn 5s."),
        items=(("清龙", "Pure Straight", "16"), ("不求人", "Fully Concealed Hand", "4"), ("平和", "All Chows", "2"),
               ("喜相逢", "Mixed Double Chow", "1"), ("单钓将", "Single Wait", "1")),
        working=("16 + 4 + 2 + 1 + 1 = 24 番（不求人已经包括自摸）。",
                 "16 + 4 + 2 + 1 + 1 = 24 fan (Fully Concealed Hand includes the self-draw)."),
        total=24, unit=("番", "fan"),
        payments=("自摸：三家各给 8 + 24 = 32，和牌的人 +96。",
                  "Self-drawn: each of the three pays 8 + 24 = 32, the winner +96."),
        each_pays=32,
    ),
)

GUIDES: dict[str, Guide] = {g.family: g for g in (TIANJIN, BEIJING, MCR)}
FAMILIES = tuple(GUIDES)
_NAMES: dict[str, Text] = {"tianjin": ("天津麻将", "Tianjin"), "beijing": ("北京麻将", "Beijing"),
                           "mcr": ("国标麻将", "MCR")}
_WORDS: dict[str, Text] = {
    "example": ("例子", "An example hand"), "rules": ("完整规则", "The full rules"), "lobby": ("大厅", "Lobby"),
    "guides": ("怎么玩", "How to play"), "total": ("合计", "Total"), "other": ("English", "中文"),
    "rules_at": ("完整规则在项目的 docs/rules/{0}（各节编号就是上面括号里的）。",
                 "The full rules are the project's docs/rules/{0} (the sections cited above)."),
    "pick": ("选一种玩法：", "Pick a game:"),
}


def _t(pair: Text, lang: str) -> str:
    return pair[0] if lang == "zh" else pair[1]


def example_svg(family: str) -> str:
    """The example's winning hand as SVG (the winning tile apart, wilds marked)."""
    from . import svg

    ex = GUIDES[family].example
    return svg.hand(ex.hand, draw=ex.draw, wilds=ex.wilds, size=36)


# ---- the web page -----------------------------------------------------------------------------


def _head(title: str, lang: str) -> str:
    return (f'<!doctype html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            '<link rel="stylesheet" href="/static/app.css">\n<link rel="icon" href="/tiles/5z.svg">\n</head>\n')


def _topbar(path: str, lang: str) -> str:
    other = "en" if lang == "zh" else "zh"
    return ('<header class="topbar">\n'
            f'  <a class="brand" href="/?lang={lang}"><img src="/tiles/5z.svg?wild=1" alt="" class="tile t-xs"> '
            f'<span>{_t(("麻将", "Mahjong"), lang)}</span></a>\n'
            f'  <nav><a href="/?lang={lang}">{_t(_WORDS["lobby"], lang)}</a> '
            f'<a href="{path}?lang={other}" lang="{"en" if other == "en" else "zh-CN"}" data-testid="guide-lang">'
            f'{_t(_WORDS["other"], lang)}</a></nav>\n</header>\n')


def _family_nav(current: str | None, lang: str) -> str:
    links = []
    for f in FAMILIES:
        name = html.escape(_t(_NAMES[f], lang))
        cur = ' aria-current="page"' if f == current else ""
        links.append(f'<a href="/guide/{f}?lang={lang}"{cur}>{name}</a>')
    return f'<nav class="guide-families" aria-label="{_t(_WORDS["guides"], lang)}">{" · ".join(links)}</nav>\n'


def page(family: str, lang: str) -> str:
    """The guide of ``family`` as a whole HTML page in ``lang`` (``zh`` or ``en``)."""
    g = GUIDES[family]
    ex = g.example
    esc = html.escape
    out = [_head(_t(g.title, lang), lang), '<body class="page-guide">\n', _topbar(f"/guide/{family}", lang),
           '<main class="pagewrap guide" data-testid="guide">\n', f"<h1>{esc(_t(g.title, lang))}</h1>\n",
           _family_nav(family, lang)]
    for heading, paragraphs in g.sections:
        out.append(f"<section>\n<h2>{esc(_t(heading, lang))}</h2>\n")
        out += [f"<p>{esc(_t(p, lang))}</p>\n" for p in paragraphs]
        out.append("</section>\n")
    out.append(f'<section class="guide-example" data-testid="guide-example">\n<h2>{esc(_t(_WORDS["example"], lang))}</h2>\n')
    out.append(f"<p>{esc(_t(ex.how, lang))}</p>\n")
    out.append(f'<figure class="guide-hand">{example_svg(family)}</figure>\n')
    out.append('<table class="elements">\n')
    for zh, en, value in ex.items:
        out.append(f"<tr><td>{esc(zh if lang == 'zh' else f'{en} ({zh})')}</td><td class=\"num\">{esc(value)}</td></tr>\n")
    out.append(f'<tr class="total"><th scope="row">{esc(_t(_WORDS["total"], lang))}</th>'
               f'<td class="num" data-testid="guide-total">{ex.total} {esc(_t(ex.unit, lang))}</td></tr>\n</table>\n')
    out.append(f"<p>{esc(_t(ex.working, lang))}</p>\n<p>{esc(_t(ex.payments, lang))}</p>\n</section>\n")
    out.append(f'<p class="muted small">{esc(_t(_WORDS["rules_at"], lang).format(g.rules_file))}</p>\n')
    out.append('</main>\n<script type="module" src="/static/guide.js"></script>\n</body>\n</html>\n')
    return "".join(out)


def index_page(lang: str) -> str:
    """``/guide``: the three guides."""
    title = _t(_WORDS["guides"], lang)
    return (_head(title, lang) + '<body class="page-guide">\n' + _topbar("/guide", lang)
            + f'<main class="pagewrap guide" data-testid="guide">\n<h1>{html.escape(title)}</h1>\n'
            + f"<p>{html.escape(_t(_WORDS['pick'], lang))}</p>\n" + _family_nav(None, lang)
            + '</main>\n<script type="module" src="/static/guide.js"></script>\n</body>\n</html>\n')


# ---- the docs ---------------------------------------------------------------------------------


def _doc_name(family: str, lang: str) -> str:
    return f"{family}.md" if lang == "en" else f"{family}.zh.md"


def markdown(family: str, lang: str) -> str:
    """The guide as Markdown for docs/guide/ (generated: edit this module, then write them)."""
    g = GUIDES[family]
    ex = g.example
    other = "zh" if lang == "en" else "en"
    lines = [f"# {_t(g.title, lang)}", "",
             f"[{_t(_WORDS['other'], lang)}]({_doc_name(family, other)}) · "
             + " · ".join(f"[{_t(_NAMES[f], lang)}]({_doc_name(f, lang)})" for f in FAMILIES if f != family), ""]
    for heading, paragraphs in g.sections:
        lines += [f"## {_t(heading, lang)}", ""]
        for p in paragraphs:
            lines += [_t(p, lang), ""]
    lines += [f"## {_t(_WORDS['example'], lang)}", "", _t(ex.how, lang), "",
              f"![{ex.hand} + {ex.draw}](img/{family}-example.svg)", "",
              f"| {_t(('项', 'item'), lang)} | {_t(('值', 'value'), lang)} |", "|---|---|"]
    lines += [f"| {zh if lang == 'zh' else f'{en} ({zh})'} | {value} |" for zh, en, value in ex.items]
    lines += [f"| **{_t(_WORDS['total'], lang)}** | **{ex.total} {_t(ex.unit, lang)}** |", "",
              _t(ex.working, lang), "", _t(ex.payments, lang), "",
              _t(_WORDS["rules_at"], lang).replace("docs/rules/{0}", f"[docs/rules/{g.rules_file}]"
                                                    f"(../rules/{g.rules_file})"), ""]
    return "\n".join(lines)


def write_docs(folder: str | Path) -> list[Path]:
    """Write docs/guide/: each family's guide in both languages and its example's picture."""
    root = Path(folder)
    (root / "img").mkdir(parents=True, exist_ok=True)
    written = []
    for family in FAMILIES:
        for lang in LANGS:
            path = root / _doc_name(family, lang)
            path.write_text(markdown(family, lang), encoding="utf-8")
            written.append(path)
        path = root / "img" / f"{family}-example.svg"
        path.write_text(example_svg(family) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_docs(sys.argv[1] if len(sys.argv) > 1 else "docs/guide"):
        print(p)
