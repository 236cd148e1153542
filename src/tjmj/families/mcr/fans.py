"""The 81 fans of Chinese Official mahjong (国标麻将, docs/rules/MCR.md M3), one small class each.

Each class carries what the 2006 rule book (the "Green Book") says of its fan: the Chinese name,
the English name (PyMahjongGB's, so that outputs compare), the value, and the fans it *excludes*
(不计): the ones its own tiles already imply (不重复原则) or that would split it apart
(不拆移原则).  The docstring is the rule book's definition.  Detection lives in :mod:`.score`,
which finds every fan of one arrangement and then applies these exclusions; the principles the
exclusion table cannot express (不得相同, 套算一次 for the chow and pung combinations, and the
幺九刻 a bigger fan claims) are implemented there and described in docs/scoring-mcr.md.

The classes are declared highest value first, in PyMahjongGB's order (the MIL supplement's 明暗杠
last, as there); ``Fan.id`` is the position in :data:`FANS` and results list fans in that order.
How an exclusion applies: fans are visited highest value first (:data:`ORDER`) and a fan that is
still counted strikes out everything in its ``excludes``; a fan that was struck out strikes
nothing (so 四暗刻 striking 不求人 leaves 自摸 counted, as the rule book's "不求人 = 门前清 + 自摸"
reading gives).

>>> FAN_BY_CODE["pure_straight"].chinese, FAN_BY_CODE["pure_straight"].value
('清龙', 16)
>>> len(BOOK_FANS), len(FANS)  # the rule book's 81 (花牌 included) and the supplement's 明暗杠
(81, 82)
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "Fan",
    "FANS",
    "BOOK_FANS",
    "ORDER",
    "RANK",
    "FAN_BY_CODE",
    "FAN_BY_CHINESE",
    "FAN_BY_ENGLISH",
    "EXCLUDES",
    "VALUES",
]


class Fan:
    """One fan (番种): the rule book's name, value and exclusions.  Not instantiated."""

    code: ClassVar[str]
    chinese: ClassVar[str]
    english: ClassVar[str]
    value: ClassVar[int]
    excludes: ClassVar[tuple[str, ...]] = ()
    book: ClassVar[bool] = True  # one of the rule book's 81 (明暗杠 is the supplement's)
    id: ClassVar[int]
    registry: ClassVar[list[type[Fan]]] = []

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.id = len(Fan.registry)
        Fan.registry.append(cls)

    def __new__(cls) -> Fan:  # pragma: no cover - the classes are records, never instances
        raise TypeError("fan classes are not instantiated")


# --- 88 fan -----------------------------------------------------------------------------------


class BigFourWinds(Fan):
    """大四喜: four pungs (or kongs) of the four winds.  不计圈风刻、门风刻、三风刻、碰碰和 (nor
    幺九刻: the wind pungs are the fan)."""

    code, chinese, english, value = "big_four_winds", "大四喜", "Big Four Winds", 88
    excludes = ("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors")


class BigThreeDragons(Fan):
    """大三元: pungs (or kongs) of all three dragons.  不计箭刻、双箭刻."""

    code, chinese, english, value = "big_three_dragons", "大三元", "Big Three Dragons", 88
    excludes = ("two_dragons_pungs", "dragon_pung")


class AllGreen(Fan):
    """绿一色: only 23468 of bamboo and 发.  不计混一色 (without 发 it may count 清一色)."""

    code, chinese, english, value = "all_green", "绿一色", "All Green", 88
    excludes = ("half_flush", "one_voided_suit")


class NineGates(Fan):
    """九莲宝灯: 1112345678999 of one suit concealed, winning on any tile of that suit.
    不计清一色、门前清 (不求人: 自摸 stays), 无字、缺一门, and one 幺九刻 (the 111 or 999)."""

    code, chinese, english, value = "nine_gates", "九莲宝灯", "Nine Gates", 88
    excludes = ("full_flush", "concealed_hand", "fully_concealed_hand", "one_voided_suit", "no_honors")


class FourKongs(Fan):
    """四杠: four kongs.  不计三杠、双明杠、双暗杠、明杠、暗杠、碰碰和、单钓将."""

    code, chinese, english, value = "four_kongs", "四杠", "Four Kongs", 88
    excludes = ("three_kongs", "two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong",
                "all_pungs", "single_wait")


class SevenShiftedPairs(Fan):
    """连七对: seven pairs of one suit in seven consecutive numbers.  不计七对、清一色、门前清、
    不求人、单钓将 (nor 缺一门、无字)."""

    code, chinese, english, value = "seven_shifted_pairs", "连七对", "Seven Shifted Pairs", 88
    excludes = ("seven_pairs", "full_flush", "concealed_hand", "fully_concealed_hand", "single_wait",
                "one_voided_suit", "no_honors")


class ThirteenOrphans(Fan):
    """十三幺: one each of the 1 and 9 of every suit and of the seven honours, one of them paired.
    不计五门齐、门前清、不求人、单钓将."""

    code, chinese, english, value = "thirteen_orphans", "十三幺", "Thirteen Orphans", 88
    excludes = ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait")


# --- 64 fan -----------------------------------------------------------------------------------


class AllTerminals(Fan):
    """清幺九: only 1s and 9s (pungs and pair).  不计碰碰和、全带幺、幺九刻、无字、混幺九 and 同刻
    (PyMahjongGB's common reading: 双同刻 only; 三同刻 stays, see docs/scoring-mcr.md)."""

    code, chinese, english, value = "all_terminals", "清幺九", "All Terminals", 64
    excludes = ("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                "no_honors", "double_pung")


class LittleFourWinds(Fan):
    """小四喜: three wind pungs and a pair of the fourth wind.  不计三风刻 (nor 幺九刻)."""

    code, chinese, english, value = "little_four_winds", "小四喜", "Little Four Winds", 64
    excludes = ("big_three_winds", "pung_of_terminals_or_honors")


class LittleThreeDragons(Fan):
    """小三元: two dragon pungs and a pair of the third dragon.  不计箭刻、双箭刻."""

    code, chinese, english, value = "little_three_dragons", "小三元", "Little Three Dragons", 64
    excludes = ("two_dragons_pungs", "dragon_pung")


class AllHonors(Fan):
    """字一色: only honours.  不计碰碰和、全带幺、幺九刻、混幺九 (nor 缺一门)."""

    code, chinese, english, value = "all_honors", "字一色", "All Honors", 64
    excludes = ("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                "one_voided_suit")


class FourConcealedPungs(Fan):
    """四暗刻: four concealed pungs (or concealed kongs).  不计门前清、碰碰和 (不求人: 自摸 stays),
    三暗刻、双暗刻."""

    code, chinese, english, value = "four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 64
    excludes = ("all_pungs", "concealed_hand", "fully_concealed_hand", "three_concealed_pungs",
                "two_concealed_pungs")


class PureTerminalChows(Fan):
    """一色双龙会: 123 123 789 789 of one suit and a pair of its 5.  不计平和、七对、清一色、一般高、
    老少副 (nor 缺一门、无字)."""

    code, chinese, english, value = "pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 64
    excludes = ("seven_pairs", "full_flush", "all_chows", "pure_double_chow", "two_terminal_chows",
                "one_voided_suit", "no_honors")


# --- 48 fan -----------------------------------------------------------------------------------


class QuadrupleChow(Fan):
    """一色四同顺: four identical chows.  不计一色三同顺、一色三节高、一般高、四归一."""

    code, chinese, english, value = "quadruple_chow", "一色四同顺", "Quadruple Chow", 48
    excludes = ("pure_triple_chow", "pure_shifted_pungs", "tile_hog", "pure_double_chow")


class FourPureShiftedPungs(Fan):
    """一色四节高: four pungs of one suit in consecutive numbers.  不计一色三节高 (the book's text
    says 一色三同顺), 碰碰和."""

    code, chinese, english, value = "four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 48
    excludes = ("pure_shifted_pungs", "pure_triple_chow", "all_pungs")


# --- 32 fan -----------------------------------------------------------------------------------


class FourPureShiftedChows(Fan):
    """一色四步高: four chows of one suit each one (or each two) higher.  不计一色三步高、连六、
    老少副."""

    code, chinese, english, value = "four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 32
    excludes = ("pure_shifted_chows", "two_terminal_chows", "short_straight")


class ThreeKongs(Fan):
    """三杠: three kongs.  不计双明杠、双暗杠、明杠、暗杠."""

    code, chinese, english, value = "three_kongs", "三杠", "Three Kongs", 32
    excludes = ("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong")


class AllTerminalsAndHonors(Fan):
    """混幺九: only 1s, 9s and honours.  不计碰碰和、全带幺、幺九刻."""

    code, chinese, english, value = "all_terminals_and_honors", "混幺九", "All Terminals and Honors", 32
    excludes = ("all_pungs", "outside_hand", "pung_of_terminals_or_honors")


# --- 24 fan -----------------------------------------------------------------------------------


class SevenPairs(Fan):
    """七对: seven pairs (four of a kind counts as two).  不计门前清、不求人、单钓将."""

    code, chinese, english, value = "seven_pairs", "七对", "Seven Pairs", 24
    excludes = ("concealed_hand", "fully_concealed_hand", "single_wait")


class GreaterHonorsAndKnittedTiles(Fan):
    """七星不靠: all seven honours and seven knitted tiles (147, 258, 369 of different suits).
    不计全不靠、五门齐、门前清、不求人、单钓将."""

    code, chinese, english, value = ("greater_honors_and_knitted_tiles", "七星不靠",
                                     "Greater Honors and Knitted Tiles", 24)
    excludes = ("lesser_honors_and_knitted_tiles", "all_types", "concealed_hand", "fully_concealed_hand",
                "single_wait")


class AllEvenPungs(Fan):
    """全双刻: pungs and pair of the even numbers 2468 only.  不计碰碰和、断幺 (nor 无字)."""

    code, chinese, english, value = "all_even_pungs", "全双刻", "All Even Pungs", 24
    excludes = ("all_pungs", "all_simples", "no_honors")


class FullFlush(Fan):
    """清一色: one suit, no honours.  不计无字 (nor 缺一门)."""

    code, chinese, english, value = "full_flush", "清一色", "Full Flush", 24
    excludes = ("one_voided_suit", "no_honors")


class PureTripleChow(Fan):
    """一色三同顺: three identical chows.  不计一色三节高、一般高."""

    code, chinese, english, value = "pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24
    excludes = ("pure_shifted_pungs", "pure_double_chow")


class PureShiftedPungs(Fan):
    """一色三节高: three pungs of one suit in consecutive numbers.  不计一色三同顺."""

    code, chinese, english, value = "pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24
    excludes = ("pure_triple_chow",)


class UpperTiles(Fan):
    """全大: only 7, 8 and 9 of the suits.  不计大于五、无字."""

    code, chinese, english, value = "upper_tiles", "全大", "Upper Tiles", 24
    excludes = ("upper_four", "no_honors")


class MiddleTiles(Fan):
    """全中: only 4, 5 and 6 of the suits.  不计断幺 (nor 无字)."""

    code, chinese, english, value = "middle_tiles", "全中", "Middle Tiles", 24
    excludes = ("all_simples", "no_honors")


class LowerTiles(Fan):
    """全小: only 1, 2 and 3 of the suits.  不计小于五、无字."""

    code, chinese, english, value = "lower_tiles", "全小", "Lower Tiles", 24
    excludes = ("lower_four", "no_honors")


# --- 16 fan -----------------------------------------------------------------------------------


class PureStraight(Fan):
    """清龙: 123 456 789 of one suit.  不计连六、老少副 (its own parts, 不拆移)."""

    code, chinese, english, value = "pure_straight", "清龙", "Pure Straight", 16
    excludes = ("short_straight", "two_terminal_chows")


class ThreeSuitedTerminalChows(Fan):
    """三色双龙会: 123 and 789 of two suits and a pair of 5 of the third.  不计喜相逢、老少副、
    无字、平和."""

    code, chinese, english, value = ("three_suited_terminal_chows", "三色双龙会",
                                     "Three-Suited Terminal Chows", 16)
    excludes = ("all_chows", "no_honors", "mixed_double_chow", "two_terminal_chows")


class PureShiftedChows(Fan):
    """一色三步高: three chows of one suit each one (or each two) higher."""

    code, chinese, english, value = "pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16


class AllFive(Fan):
    """全带五: every meld and the pair contain a 5.  不计断幺 (nor 无字)."""

    code, chinese, english, value = "all_five", "全带五", "All Five", 16
    excludes = ("all_simples", "no_honors")


class TriplePung(Fan):
    """三同刻: pungs of the same number in the three suits.  不计双同刻."""

    code, chinese, english, value = "triple_pung", "三同刻", "Triple Pung", 16
    excludes = ("double_pung",)


class ThreeConcealedPungs(Fan):
    """三暗刻: three concealed pungs (or concealed kongs).  不计双暗刻."""

    code, chinese, english, value = "three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16
    excludes = ("two_concealed_pungs",)


# --- 12 fan -----------------------------------------------------------------------------------


class LesserHonorsAndKnittedTiles(Fan):
    """全不靠: fourteen singles of knitted tiles (147, 258, 369 of different suits) and honours.
    不计五门齐、门前清、不求人、单钓将."""

    code, chinese, english, value = ("lesser_honors_and_knitted_tiles", "全不靠",
                                     "Lesser Honors and Knitted Tiles", 12)
    excludes = ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait")


class KnittedStraight(Fan):
    """组合龙: 147, 258 and 369 each of a different suit (nine tiles)."""

    code, chinese, english, value = "knitted_straight", "组合龙", "Knitted Straight", 12


class UpperFour(Fan):
    """大于五: only 6, 7, 8 and 9 of the suits.  不计无字."""

    code, chinese, english, value = "upper_four", "大于五", "Upper Four", 12
    excludes = ("no_honors",)


class LowerFour(Fan):
    """小于五: only 1, 2, 3 and 4 of the suits.  不计无字."""

    code, chinese, english, value = "lower_four", "小于五", "Lower Four", 12
    excludes = ("no_honors",)


class BigThreeWinds(Fan):
    """三风刻: three wind pungs (or kongs).  不计 their three 幺九刻."""

    code, chinese, english, value = "big_three_winds", "三风刻", "Big Three Winds", 12


# --- 8 fan ------------------------------------------------------------------------------------


class MixedStraight(Fan):
    """花龙: 123, 456 and 789 each of a different suit."""

    code, chinese, english, value = "mixed_straight", "花龙", "Mixed Straight", 8


class ReversibleTiles(Fan):
    """推不倒: only tiles that look the same upside down (1234589 dots, 245689 bamboo, 白).
    不计缺一门."""

    code, chinese, english, value = "reversible_tiles", "推不倒", "Reversible Tiles", 8
    excludes = ("one_voided_suit",)


class MixedTripleChow(Fan):
    """三色三同顺: the same chow in the three suits.  不计喜相逢."""

    code, chinese, english, value = "mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8
    excludes = ("mixed_double_chow",)


class MixedShiftedPungs(Fan):
    """三色三节高: pungs of three consecutive numbers, each of a different suit."""

    code, chinese, english, value = "mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8


class ChickenHand(Fan):
    """无番和: a win with no other fan (flowers do not count)."""

    code, chinese, english, value = "chicken_hand", "无番和", "Chicken Hand", 8


class LastTileDraw(Fan):
    """妙手回春: self-drawing the last tile of the wall.  不计自摸."""

    code, chinese, english, value = "last_tile_draw", "妙手回春", "Last Tile Draw", 8
    excludes = ("self_drawn",)


class LastTileClaim(Fan):
    """海底捞月: winning on the last discard."""

    code, chinese, english, value = "last_tile_claim", "海底捞月", "Last Tile Claim", 8


class OutWithReplacementTile(Fan):
    """杠上开花: winning on the replacement tile drawn after a kong.  不计自摸."""

    code, chinese, english, value = "out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8
    excludes = ("self_drawn",)


class RobbingTheKong(Fan):
    """抢杠和: winning on the tile another player adds to a pung.  不计和绝张."""

    code, chinese, english, value = "robbing_the_kong", "抢杠和", "Robbing The Kong", 8
    excludes = ("last_tile",)


# --- 6 fan ------------------------------------------------------------------------------------


class AllPungs(Fan):
    """碰碰和: four pungs (or kongs) and a pair."""

    code, chinese, english, value = "all_pungs", "碰碰和", "All Pungs", 6


class HalfFlush(Fan):
    """混一色: one suit and honours.  (不计缺一门.)"""

    code, chinese, english, value = "half_flush", "混一色", "Half Flush", 6
    excludes = ("one_voided_suit",)


class MixedShiftedChows(Fan):
    """三色三步高: chows of three consecutive starting numbers, each of a different suit."""

    code, chinese, english, value = "mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6


class AllTypes(Fan):
    """五门齐: all three suits, winds and dragons."""

    code, chinese, english, value = "all_types", "五门齐", "All Types", 6


class MeldedHand(Fan):
    """全求人: four claimed melds and winning on a discard (a single wait).  不计单钓将."""

    code, chinese, english, value = "melded_hand", "全求人", "Melded Hand", 6
    excludes = ("single_wait",)


class TwoConcealedKongs(Fan):
    """双暗杠: two concealed kongs.  不计暗杠 and the 双暗刻 they are."""

    code, chinese, english, value = "two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 6
    excludes = ("concealed_kong", "two_concealed_pungs")


class TwoDragonsPungs(Fan):
    """双箭刻: two dragon pungs (or kongs).  不计箭刻."""

    code, chinese, english, value = "two_dragons_pungs", "双箭刻", "Two Dragons Pungs", 6
    excludes = ("dragon_pung",)


# --- 4 fan ------------------------------------------------------------------------------------


class OutsideHand(Fan):
    """全带幺: every meld and the pair contain a 1, a 9 or an honour."""

    code, chinese, english, value = "outside_hand", "全带幺", "Outside Hand", 4


class FullyConcealedHand(Fan):
    """不求人: nothing claimed (concealed kongs allowed) and self-drawn.  不计门前清、自摸."""

    code, chinese, english, value = "fully_concealed_hand", "不求人", "Fully Concealed Hand", 4
    excludes = ("self_drawn", "concealed_hand")


class TwoMeldedKongs(Fan):
    """双明杠: two melded kongs.  不计明杠."""

    code, chinese, english, value = "two_melded_kongs", "双明杠", "Two Melded Kongs", 4
    excludes = ("melded_kong",)


class LastTile(Fan):
    """和绝张: winning on the last tile of its kind (the other three are face up)."""

    code, chinese, english, value = "last_tile", "和绝张", "Last Tile", 4


# --- 2 fan ------------------------------------------------------------------------------------


class DragonPung(Fan):
    """箭刻: a pung (or kong) of a dragon."""

    code, chinese, english, value = "dragon_pung", "箭刻", "Dragon Pung", 2


class PrevalentWind(Fan):
    """圈风刻: a pung (or kong) of the prevalent wind (not also its 幺九刻)."""

    code, chinese, english, value = "prevalent_wind", "圈风刻", "Prevalent Wind", 2


class SeatWind(Fan):
    """门风刻: a pung (or kong) of the seat wind (not also its 幺九刻)."""

    code, chinese, english, value = "seat_wind", "门风刻", "Seat Wind", 2


class ConcealedHand(Fan):
    """门前清: nothing claimed (concealed kongs allowed), winning on a discard."""

    code, chinese, english, value = "concealed_hand", "门前清", "Concealed Hand", 2


class AllChows(Fan):
    """平和: four chows and a pair of a suit.  不计无字."""

    code, chinese, english, value = "all_chows", "平和", "All Chows", 2
    excludes = ("no_honors",)


class TileHog(Fan):
    """四归一: all four tiles of a kind in the hand, not as a kong (once per kind)."""

    code, chinese, english, value = "tile_hog", "四归一", "Tile Hog", 2


class DoublePung(Fan):
    """双同刻: two pungs of the same number in two suits."""

    code, chinese, english, value = "double_pung", "双同刻", "Double Pung", 2


class TwoConcealedPungs(Fan):
    """双暗刻: two concealed pungs (or concealed kongs)."""

    code, chinese, english, value = "two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2


class ConcealedKong(Fan):
    """暗杠: a concealed kong."""

    code, chinese, english, value = "concealed_kong", "暗杠", "Concealed Kong", 2


class AllSimples(Fan):
    """断幺: no 1, 9 or honour.  不计无字."""

    code, chinese, english, value = "all_simples", "断幺", "All Simples", 2
    excludes = ("no_honors",)


# --- 1 fan ------------------------------------------------------------------------------------


class PureDoubleChow(Fan):
    """一般高: two identical chows."""

    code, chinese, english, value = "pure_double_chow", "一般高", "Pure Double Chow", 1


class MixedDoubleChow(Fan):
    """喜相逢: the same chow in two suits."""

    code, chinese, english, value = "mixed_double_chow", "喜相逢", "Mixed Double Chow", 1


class ShortStraight(Fan):
    """连六: two chows of one suit making six consecutive numbers."""

    code, chinese, english, value = "short_straight", "连六", "Short Straight", 1


class TwoTerminalChows(Fan):
    """老少副: 123 and 789 of one suit."""

    code, chinese, english, value = "two_terminal_chows", "老少副", "Two Terminal Chows", 1


class PungOfTerminalsOrHonors(Fan):
    """幺九刻: a pung (or kong) of a 1, a 9 or a wind (a dragon pung is 箭刻)."""

    code, chinese, english, value = "pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1


class MeldedKong(Fan):
    """明杠: a claimed or added kong."""

    code, chinese, english, value = "melded_kong", "明杠", "Melded Kong", 1


class OneVoidedSuit(Fan):
    """缺一门: one of the three suits is missing."""

    code, chinese, english, value = "one_voided_suit", "缺一门", "One Voided Suit", 1


class NoHonors(Fan):
    """无字: no honours."""

    code, chinese, english, value = "no_honors", "无字", "No Honors", 1


class EdgeWait(Fan):
    """边张: winning on the 3 of 12 or the 7 of 89, the hand waiting on that tile only."""

    code, chinese, english, value = "edge_wait", "边张", "Edge Wait", 1


class ClosedWait(Fan):
    """嵌张 (坎张): winning on the middle tile of a chow, the hand waiting on that tile only."""

    code, chinese, english, value = "closed_wait", "嵌张", "Closed Wait", 1


class SingleWait(Fan):
    """单钓将: winning on the pair's tile, the hand waiting on that tile only."""

    code, chinese, english, value = "single_wait", "单钓将", "Single Wait", 1


class SelfDrawn(Fan):
    """自摸: winning on one's own draw."""

    code, chinese, english, value = "self_drawn", "自摸", "Self-Drawn", 1


class FlowerTiles(Fan):
    """花牌: each flower 1 fan, added after the 8-fan check (M3)."""

    code, chinese, english, value = "flower_tiles", "花牌", "Flower Tiles", 1


# --- the supplement's combination (not one of the rule book's 81) -------------------------------


class ConcealedKongAndMeldedKong(Fan):
    """明暗杠: one melded and one concealed kong count 5 fan together (the MIL rules committee's
    《国标麻将(MCR)规则补充细则》, which PyMahjongGB follows) instead of 明杠 1 + 暗杠 2.  不计明杠、
    暗杠."""

    code, chinese, english, value = ("concealed_kong_and_melded_kong", "明暗杠",
                                     "Concealed Kong and Melded Kong", 5)
    excludes = ("melded_kong", "concealed_kong")
    book = False


FANS: tuple[type[Fan], ...] = tuple(Fan.registry)
BOOK_FANS: tuple[type[Fan], ...] = tuple(f for f in FANS if f.book)
FAN_BY_CODE: dict[str, type[Fan]] = {f.code: f for f in FANS}
FAN_BY_CHINESE: dict[str, type[Fan]] = {f.chinese: f for f in FANS}
FAN_BY_ENGLISH: dict[str, type[Fan]] = {f.english: f for f in FANS}
VALUES: tuple[int, ...] = tuple(f.value for f in FANS)
# EXCLUDES[i]: the ids fan i strikes out
EXCLUDES: tuple[tuple[int, ...], ...] = tuple(tuple(FAN_BY_CODE[c].id for c in f.excludes) for f in FANS)
# the order exclusions are applied in: highest value first, then declaration order
ORDER: tuple[int, ...] = tuple(sorted(range(len(FANS)), key=lambda i: (-FANS[i].value, i)))
RANK: tuple[int, ...] = tuple(ORDER.index(i) for i in range(len(FANS)))


def _check() -> None:
    assert len(BOOK_FANS) == 81, len(BOOK_FANS)
    assert len(FAN_BY_CODE) == len(FAN_BY_CHINESE) == len(FAN_BY_ENGLISH) == len(FANS)
    for f in FANS:
        for j in EXCLUDES[f.id]:
            # an exclusion goes from a fan to one of lower or equal value, so one pass in ORDER
            # applies them all
            assert FANS[j].value <= f.value, (f.code, FANS[j].code)
    assert [f.value for f in BOOK_FANS[:-1]] == sorted((f.value for f in BOOK_FANS[:-1]), reverse=True)


_check()
