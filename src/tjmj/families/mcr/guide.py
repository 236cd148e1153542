"""The player's guide to MCR (part ``guide``; the contract is :mod:`tjmj.guide`'s docstring):
what wins, what scores and an example hand worked out, in Chinese and English, each point citing
its section of the rules (M…)."""

from __future__ import annotations

from ...guide import Example, Guide

__all__ = ["GUIDE"]

GUIDE = Guide(
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
