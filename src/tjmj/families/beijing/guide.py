"""The player's guide to Beijing mahjong (part ``guide``; the contract is :mod:`tjmj.guide`'s docstring):
what wins, what scores and an example hand worked out, in Chinese and English, each point citing
its section of the rules (B…)."""

from __future__ import annotations

from ...guide import Example, Guide

__all__ = ["GUIDE"]

GUIDE = Guide(
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
