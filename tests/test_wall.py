"""The wall, the dice and the deal (RULES.md R3), and the scripted-wall helper of the tests."""

import random
from collections import Counter

import pytest

from tjmj.tiles import TILE_TEXT
from tjmj.wall import Dice, Wall, seat_from

from .scripted import Layout, kinds, make_dice, script_wall

FULL = Counter({k: 4 for k in range(34)})


def shuffled_ring(seed: int) -> list[int]:
    ring = [k for k in range(34) for _ in range(4)]
    random.Random(seed).shuffle(ring)
    return ring


def dice_for(dealer: int, first: tuple[int, int], second: tuple[int, int],
             ind: tuple[int, int] | None = (3, 4)) -> Dice:
    return Dice(first, seat_from(dealer, sum(first)), second, ind)


def accounted(w: Wall, drawn: list[int]) -> None:
    """R3: the 136 tiles = the dealt hands + every tile drawn since + the untaken wall + the indicator."""
    untaken = [w.tiles[i] for i in range(136) if not w.taken[i]]
    dealt = [t for h in w.hands for t in h]
    assert len(dealt) == 53
    assert len(dealt) + len(drawn) + len(untaken) + 1 == 136
    assert w.remaining == len(untaken)
    assert Counter(map(int, dealt + drawn + untaken + [w.indicator])) == FULL


# ---- dice and the break ---------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_r3_second_roller_from_first_sum(dealer):
    """R3: counting the dealer as 1: 1/5/9 dealer, 2/6/10 next (下家), 3/7/11 opposite, 4/8/12 previous (上家)."""
    expected = {1: 0, 5: 0, 9: 0, 2: 1, 6: 1, 10: 1, 3: 2, 7: 2, 11: 2, 4: 3, 8: 3, 12: 3}
    for s, offset in expected.items():
        assert seat_from(dealer, s) == (dealer + offset) % 4
    for seed in range(40):
        w = Wall.build(random.Random(seed), dealer)
        assert w.dice.second_roller == (dealer + expected[sum(w.dice.first)]) % 4
        assert w.break_seat == w.dice.second_roller
        assert all(1 <= x <= 6 for x in w.dice.first + w.dice.second + w.dice.indicator)


@pytest.mark.parametrize(
    ("first", "second", "roller", "start", "wall_of"),
    [
        # roller East: its wall is ring stacks 0..16; 5+2 = 7 stacks counted, drawing starts at 7
        ((2, 3), (1, 1), 0, 7, 0),
        # roller South (下家 of East): ring stacks 51..67; 2+5 counted → 58
        ((1, 1), (2, 3), 1, 58, 1),
        # roller North: ring 17..33; 12+8 = 20 counted: past 17 into West's wall (North's 上家)
        ((6, 6), (4, 4), 3, 37, 2),
        # roller West: ring 34..50; 11+12 = 23 → 57, into South's wall
        ((5, 6), (6, 6), 2, 57, 1),
        # roller South; 10+10 = 20 → past the ring's end, into East's wall: 51+20-68 = 3
        ((5, 5), (5, 5), 1, 3, 0),
        # exactly 17 counted: the whole of East's wall, drawing starts at North's first stack
        ((4, 5), (4, 4), 0, 17, 3),
    ],
)
def test_r3_break_counted_clockwise_into_next_wall(first, second, roller, start, wall_of):
    """R3: from the roller's wall count s1+s2 stacks clockwise, past 17 into the next wall; drawing starts after."""
    dice = dice_for(0, first, second)
    assert dice.second_roller == roller
    ring = shuffled_ring(7)
    w = Wall.build(random.Random(0), 0, tiles=ring, dice=dice)
    assert w.break_stack == start
    assert w.break_seat == roller
    assert start // 17 == (-wall_of) % 4  # the wall (seat) where drawing starts
    # the line: stack j is ring stack start + j (clockwise), top then bottom
    for j in range(68):
        r = (start + j) % 68
        assert (w.tiles[2 * j], w.tiles[2 * j + 1]) == (ring[2 * r], ring[2 * r + 1])
    # the tail (the last stack) is the last counted stack
    last = (start - 1) % 68
    assert (w.tiles[134], w.tiles[135]) == (ring[2 * last], ring[2 * last + 1])


# ---- the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_r3_deal_two_stacks_three_times_then_tiaopai(dealer):
    """R3: 2 stacks (4 tiles) each from the dealer in play order, three times; then 跳牌."""
    w = Wall.build(random.Random(3), dealer, tiles=shuffled_ring(dealer), dice=dice_for(dealer, (2, 3), (1, 2)))
    line = w.tiles
    for j in range(4):
        seat = (dealer + j) % 4
        expected = []
        for rnd in range(3):
            pick = 4 * rnd + j  # line stacks 2·pick and 2·pick+1
            expected += [line[4 * pick + i] for i in range(4)]
        assert w.hands[seat][:12] == expected
    # 跳牌 on line stacks 24, 25, 26: the dealer the tops of the 1st and 3rd
    assert w.hands[dealer][12:] == [line[48], line[52]]
    # the others: bottom of the 1st, top of the 2nd, bottom of the 2nd, in play order
    assert w.hands[(dealer + 1) % 4][12:] == [line[49]]
    assert w.hands[(dealer + 2) % 4][12:] == [line[50]]
    assert w.hands[(dealer + 3) % 4][12:] == [line[51]]
    assert [len(h) for h in w.hands] == [14 if s == dealer else 13 for s in range(4)]
    assert all(w.taken[i] for i in range(53))
    assert not w.taken[53] or w.wild_method == "flip"
    accounted(w, [])


# ---- the indicator and the reserve -------------------------------------------------------


@pytest.mark.parametrize("ind", [(1, 1), (1, 2), (3, 4), (2, 6), (4, 5), (5, 6), (6, 6)])
def test_r3_dice_indicator_and_reserve(ind):
    """R3 打混儿: the top of stack d from the tail (last = 1); head draws stop before that stack."""
    d = sum(ind)
    w = Wall.build(random.Random(0), 0, "dice", tiles=shuffled_ring(d), dice=dice_for(0, (1, 4), (2, 2), ind))
    assert w.indicator_index == 2 * (68 - d)  # the top of line stack 68 − d
    assert w.indicator == w.tiles[2 * (68 - d)]
    assert w.taken[w.indicator_index]
    drawn: list[int] = []
    while w.can_draw():
        before = list(w.taken)
        drawn.append(w.draw())
        (i,) = [i for i in range(136) if w.taken[i] != before[i]]
        assert i == 53 + len(drawn) - 1  # the lowest free tile: the 跳牌 leftover first, then on
        accounted(w, drawn)
    # the head stops before the indicator's stack: tiles 53 .. 2(68−d)−1
    assert len(drawn) == 2 * (68 - d) - 53
    with pytest.raises(IndexError):
        w.draw()
    assert w.live_count == 0
    # the reserve (the indicator's stack to the tail) is untouched: 2d tiles less the indicator
    assert w.remaining == 2 * d - 1
    assert all(not w.taken[i] for i in range(2 * (68 - d), 136) if i != w.indicator_index)


def test_r3_flip_indicator_is_tiaopai_leftover():
    """R3 翻混儿: the tile left without its partner by the 跳牌 (bottom of the 3rd stack) is turned up."""
    for dealer in range(4):
        dice = Dice((2, 3), seat_from(dealer, 5), (1, 2), None)
        w = Wall.build(random.Random(0), dealer, "flip", tiles=shuffled_ring(dealer), dice=dice)
        assert w.indicator_index == 53 and w.indicator == w.tiles[53]
        # the 跳牌 took 48..52: 53 is the only tile of line stacks 24..26 not dealt
        assert all(w.taken[i] for i in range(53))
        drawn = []
        while w.can_draw():
            drawn.append(w.draw())
        # no reserve: every tile but the indicator is drawn, from 54 to the tail end
        assert len(drawn) == 136 - 54
        assert w.remaining == 0
        accounted(w, drawn)
    w = Wall.build(random.Random(5), 0, "flip")
    assert w.dice.indicator is None and w.indicator_index == 53


# ---- replacement draws -------------------------------------------------------------------


def replacement_positions(w: Wall, n: int, drawn: list[int]) -> list[int]:
    out = []
    for _ in range(n):
        before = list(w.taken)
        drawn.append(w.draw_replacement())
        (i,) = [i for i in range(136) if w.taken[i] != before[i]]
        assert w.tiles[i] == drawn[-1]
        out.append(i)
        accounted(w, drawn)
    return out


def test_r3_replacements_from_the_tail_skipping_indicator():
    """R3: top of the last stack, then its bottom, then the stack before it, skipping the indicator."""
    # d = 2: the indicator is the top of line stack 66
    w = Wall.build(random.Random(0), 0, "dice", tiles=shuffled_ring(1), dice=dice_for(0, (1, 4), (2, 2), (1, 1)))
    assert w.indicator_index == 132
    drawn: list[int] = []
    assert replacement_positions(w, 7, drawn) == [134, 135, 133, 130, 131, 128, 129]
    # d = 5: the indicator (top of line stack 63) is skipped when the tail gets there
    w = Wall.build(random.Random(0), 0, "dice", tiles=shuffled_ring(2), dice=dice_for(0, (1, 4), (2, 2), (2, 3)))
    assert w.indicator_index == 126
    assert replacement_positions(w, 10, [])[-4:] == [128, 129, 127, 124]
    # flip: from the very end
    w = Wall.build(random.Random(0), 0, "flip", tiles=shuffled_ring(3), dice=Dice((1, 4), 0, (2, 2), None))
    assert replacement_positions(w, 4, []) == [134, 135, 132, 133]


def test_r3_replacements_eat_live_wall_after_reserve():
    """R3: if replacement draws use up the reserve, they continue from the end of the live wall."""
    w = Wall.build(random.Random(0), 0, "dice", tiles=shuffled_ring(4), dice=dice_for(0, (1, 4), (2, 2), (1, 1)))
    drawn: list[int] = []
    live = w.live_count
    assert live == 132 - 53
    # the reserve: line stacks 66 and 67 less the indicator = 3 tiles, the live wall untouched
    assert replacement_positions(w, 3, drawn) == [134, 135, 133]
    assert w.live_count == live
    # the next ones come from the end of the live wall, which shrinks by one tile per replacement
    for n, pos in enumerate([130, 131, 128], 1):
        assert replacement_positions(w, 1, drawn) == [pos]
        assert w.live_count == live - n, f"after {n} replacement(s) from the live wall"
    heads = []
    while w.can_draw():
        before = list(w.taken)
        drawn.append(w.draw())
        heads += [i for i in range(136) if w.taken[i] != before[i]]
        accounted(w, drawn)
    # the live wall lost one tile per replacement: the bottom left under the eaten top (129) is still
    # the live wall's last tile
    assert heads == list(range(53, 128)) + [129]
    assert len(heads) == live - 3
    # whatever is left is for replacement draws; then nothing
    while w.can_replace():
        drawn.append(w.draw_replacement())
    with pytest.raises(IndexError):
        w.draw_replacement()
    assert w.remaining == 0
    accounted(w, drawn)


def test_r3_flip_replacements_and_head_meet():
    """R3 flip mode: the hand is exhausted only when no tile is left (head and tail draws meet)."""
    w = Wall.build(random.Random(0), 0, "flip", tiles=shuffled_ring(5), dice=Dice((1, 4), 0, (2, 2), None))
    drawn: list[int] = []
    n = 0
    while w.can_draw():
        drawn.append(w.draw())
        if n % 5 == 0 and w.can_replace():
            drawn.append(w.draw_replacement())
        n += 1
        accounted(w, drawn)
    assert len(drawn) == 136 - 54 and w.remaining == 0
    assert not w.can_replace()


def test_r3_accounted_at_every_step_random_play():
    """R3: the 136 tiles are accounted for at every head or replacement draw, both methods."""
    for seed in range(30):
        rng = random.Random(seed)
        method = "dice" if seed % 2 else "flip"
        w = Wall.build(random.Random(seed), seed % 4, method)
        drawn: list[int] = []
        accounted(w, drawn)
        while True:
            if rng.random() < 0.15 and w.can_replace():
                drawn.append(w.draw_replacement())
            elif w.can_draw():
                drawn.append(w.draw())
            else:
                break
            accounted(w, drawn)
        assert w.live_count == 0


def test_r3_reproducible_from_seed():
    """R3: every draw is reproducible from the seed."""
    for seed in (0, 1, 99):
        a = Wall.build(random.Random(seed), 2, "dice")
        b = Wall.build(random.Random(seed), 2, "dice")
        assert a.tiles == b.tiles and a.dice == b.dice and a.hands == b.hands
        assert a.indicator_index == b.indicator_index
        seq_a = [a.draw() for _ in range(10)] + [a.draw_replacement() for _ in range(3)]
        seq_b = [b.draw() for _ in range(10)] + [b.draw_replacement() for _ in range(3)]
        assert seq_a == seq_b
    assert Wall.build(random.Random(0), 0).tiles != Wall.build(random.Random(1), 0).tiles


def test_r3_scripted_wall_must_hold_136():
    ring = shuffled_ring(0)
    ring[0] = ring[1] = ring[2] = ring[3] = ring[4] = 0
    with pytest.raises(ValueError):
        Wall.build(random.Random(0), 0, tiles=ring, dice=dice_for(0, (1, 1), (1, 1)))


# ---- the helper tests/scripted.py --------------------------------------------------------


def texts(ts) -> list[str]:
    return [TILE_TEXT[t] for t in ts]


@pytest.mark.parametrize("method", ["dice", "flip"])
@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("first", [(1, 1), (2, 3), (3, 3), (6, 6)])
def test_script_wall_places_hands_draws_replacements_indicator(method, dealer, first):
    hands = {s: "" for s in range(4)}
    hands[dealer] = "1111m234p567s11z22z"
    hands[(dealer + 1) % 4] = "999p123s4s5s6s77s"
    hands[(dealer + 2) % 4] = "333z"
    draws = "9m8m7m6m"
    reps = "1z2z3z"
    dice = make_dice(dealer, first=first, second=(4, 5), wild_method=method)
    tiles, d = script_wall(dealer, hands, draws=draws, replacements=reps, indicator="4p", wild_method=method,
                           dice=dice, seed=dealer)
    assert d == dice and sorted(tiles) == [k for k in range(34) for _ in range(4)]
    w = Wall.build(random.Random(0), dealer, method, tiles=tiles, dice=d)
    assert texts([w.indicator]) == ["4p"]
    assert sorted(w.hands[dealer]) == sorted(kinds(hands[dealer]))
    second = Counter(texts(w.hands[(dealer + 1) % 4]))
    given = Counter(texts(kinds(hands[(dealer + 1) % 4])))
    extra = second - given  # 2 quiet tiles added: kinds the seat did not hold, no pair
    assert given <= second and extra.total() == 2 and set(extra.values()) == {1} and not set(extra) & set(given)
    third = w.hands[(dealer + 2) % 4]
    assert texts(third).count("3z") == 3
    # the quiet fill: no other pair, and no wild kind (4p 5p 6p at most)
    rest = Counter(texts(third))
    rest["3z"] -= 3
    assert max(rest.values()) <= 1 and not {"4p", "5p", "6p"} & set(rest)
    fourth = Counter(texts(w.hands[(dealer + 3) % 4]))
    assert max(fourth.values()) == 1
    assert texts(w.draw() for _ in range(4)) == ["9m", "8m", "7m", "6m"]
    assert texts(w.draw_replacement() for _ in range(3)) == ["1z", "2z", "3z"]


def test_script_wall_draw_numbers_and_errors():
    tiles, dice = script_wall(0, draws={0: "5m", 3: "5p", 66: "6s"})
    w = Wall.build(random.Random(0), 0, tiles=tiles, dice=dice)
    got = [w.draw() for _ in range(67)]
    assert (texts(got[:1]), texts(got[3:4]), texts(got[66:])) == (["5m"], ["5p"], ["6s"])
    assert not w.can_draw()  # d = 8 by default: 67 head draws
    assert len(Layout(0, dice).head) == 67
    with pytest.raises(ValueError, match="fifth"):
        script_wall(0, {0: "1111m"}, draws="1m")
    with pytest.raises(ValueError, match="dealt"):
        script_wall(0, {1: "11112222333344m"})
