"""The player's guide to Tianjin mahjong (part ``guide``; the contract is :mod:`tjmj.guide`'s docstring):
what wins, what scores and an example hand worked out, in Chinese and English, each point citing
its section of the rules (R…)."""

from __future__ import annotations

from ...guide import Example, Guide

__all__ = ["GUIDE"]

GUIDE = Guide(
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
