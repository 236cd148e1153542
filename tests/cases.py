"""The worked cases of docs/rules/RULES.md: R5.4 and the 21 example hands of seed 000 (R10).

Each row: (section, name, hand before the draw, draw, indicator, melds, kong_draw, fan, win).
"""

R5_4 = [
    ("R5.4", "死提溜", "123m678p999p3s4p22z", "2s", "4p", "", False, 1, False),
    ("R5.4", "杠开", "123m678p3s4p22z", "2s", "4p", "[9999p]", True, 2, True),
    ("R5.4", "混儿吊", "123m678p999p234s4p", "7z", "4p", "", False, 2, True),
    ("R5.4", "龙", "1234679m999p4p22z", "8m", "4p", "", False, 4, True),
    ("R5.4", "捉伍儿龙", "1234679m999p4p22z", "5m", "4p", "", False, 7, True),
    ("R5.4", "提溜", "123m456p789s111s9s", "4p", "4p", "", False, 1, False),
    ("R5.4", "混儿吊", "123m456p789s111s4p", "9s", "4p", "", False, 2, True),
    ("R5.4", "双混儿捉伍儿龙", "1p1p2p13s456s789s66z", "5m", "1p", "", False, 14, True),
    ("R5.4", "双混儿捉伍儿本混儿龙", "1p1p1p2p3p456p789p66z", "5m", "1p", "", False, 28, True),
]

R10 = [
    ("R10", "混儿吊", "1p2p123m678p68s222z", "6m", "1p", "", False, 2, True),
    ("R10", "混儿吊", "1p2p123m678p66s222z", "6m", "1p", "", False, 2, True),  # 双混儿吊 in seed 000
    ("R10", "没混儿", "333p888m23m66m678s", "1m", "7z", "", False, 2, True),
    ("R10", "杠开", "3m3m66m7z35s678s", "4s", "3m", "[5555p]", True, 2, True),
    ("R10", "捉伍儿", "8p567p678m789m4m44z", "5m", "8p", "", False, 3, True),
    ("R10", "龙", "8p9p9p123m45m7m33s68s", "9m", "8p", "", False, 4, True),
    ("R10", "双混儿伍儿", "8p9p9p123s567m9m555z", "5m", "8p", "", False, 6, True),
    ("R10", "没混儿伍儿", "123s46m77m333p567p", "5m", "7z", "", False, 6, True),
    ("R10", "捉伍儿龙", "5s6s123m6m78m11s222s", "5m", "5s", "", False, 7, True),
    ("R10", "捉伍儿龙", "5s5s123m456m78m11s4m", "5m", "5s", "", False, 7, True),
    ("R10", "捉伍儿龙", "5s6s6s123p45p89p11s4m", "5m", "5s", "", False, 7, True),
    ("R10", "本混儿龙", "5p5p6p123p4p78p1s222s", "1s", "5p", "", False, 8, True),
    ("R10", "混儿吊龙", "5m6m6m123s46s89s234p", "3z", "5m", "", False, 8, True),
    ("R10", "没混儿龙", "123456789s23p11z", "4p", "7z", "", False, 8, True),
    ("R10", "双混儿捉伍儿龙", "1p1p2p13s456s789s66z", "5m", "1p", "", False, 14, True),
    ("R10", "没混儿捉伍儿龙", "123456789p22z46m", "5m", "7z", "", False, 14, True),
    ("R10", "没混儿捉伍儿龙", "12346789m333z44s", "5m", "7z", "", False, 14, True),
    ("R10", "捉伍儿本混儿龙", "1s1s2s3s456s789s55z4m", "1s", "1s", "", False, 14, True),
    ("R10", "捉伍儿本混儿龙", "9m9m123m46m7m333z44s", "5m", "8m", "", False, 14, True),
    ("R10", "混儿吊本混儿龙", "1s1s2s3s456s789s555z", "7z", "1s", "", False, 16, True),
    ("R10", "双混儿捉伍儿本混儿龙", "1p1p1p2p3p456p789p66z", "5m", "1p", "", False, 28, True),
]

ALL = R5_4 + R10


def case_id(row: tuple) -> str:
    return f"{row[0]}-{row[1]}-{row[2]}+{row[3]}"
