"""R1: tiles, MPSZ and Chinese text, errors that name the character and position; melds."""

import pytest

from tjmj import Meld, MeldType, Tile, TileError, format_tiles, parse_melds, parse_tiles, wild_kinds


def test_kind_order_and_names_r1():
    tiles = parse_tiles("123456789m123456789p123456789s1234567z")
    assert [int(t) for t in tiles] == list(range(34))
    assert [t.chinese for t in tiles[27:]] == list("东南西北中发白")
    assert Tile.parse("5z").chinese == "中" and Tile.parse("6z").chinese == "发" and Tile.parse("7z").chinese == "白"
    assert str(Tile(4)) == "5m" and Tile(4).chinese == "五万"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("一万九万", "19m"),
        ("五饼 五筒", "55p"),
        ("九条 一索", "91s"),
        ("东南西北中发白", "1234567z"),
        ("红中 發 白板", "567z"),
        ("12m 五万, 中", "125m5z"),
    ],
)
def test_chinese_names(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("12x4m", "invalid character 'x' at position 2"),
        ("0m", "invalid digit '0' at position 0"),
        ("8z", "invalid honour '8z' at position 0"),
        ("m12", "suit letter 'm' at position 0"),
        ("123", "no suit letter"),
        ("五", "must be followed by a suit"),
        ("1m 2", "position 3-3"),
    ],
)
def test_parse_errors_name_character_and_position(text, fragment):
    with pytest.raises(TileError, match=fragment.replace("(", r"\(")):
        parse_tiles(text)


def test_format_round_trip():
    text = "123m456p789s1234567z"
    assert format_tiles(parse_tiles(text)) == text
    assert format_tiles(parse_tiles("9m1m5z1p"), sort=True) == "19m1p5z"


def test_wild_kinds_r2():
    w = lambda ind, n=2: format_tiles(wild_kinds(Tile.parse(ind), n))  # noqa: E731
    assert w("4p") == "45p"
    assert w("9s") == "91s"  # 9 → 1 within a suit
    assert w("4z") == "41z"  # 北 → 东
    assert w("7z") == "75z"  # 白 → 中
    assert w("3z", 3) == "341z"
    assert w("8m", 3) == "891m"
    assert w("5m", 1) == "5m"
    with pytest.raises(TileError):
        wild_kinds(Tile(0), 4)


@pytest.mark.parametrize(
    ("text", "mtype", "tile", "size"),
    [
        ("[777m]", MeldType.PON, "7m", 3),
        ("[7777m]", MeldType.KONG, "7m", 4),
        ("[7777m+]", MeldType.ADDED_KONG, "7m", 4),
        ("(1111z)", MeldType.CONCEALED_KONG, "1z", 4),
        ("[中中中]", MeldType.PON, "5z", 3),
    ],
)
def test_meld_notation(text, mtype, tile, size):
    m = Meld.parse(text)
    assert m.type is mtype and m.tile == Tile.parse(tile) and m.size == size
    assert Meld.parse(str(m)) == m
    assert Meld.from_dict(m.to_dict()) == m


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("777m", "must be written"),
        ("[778m]", "one kind of tile"),
        ("[77m]", "found 2"),
        ("(777m)", "concealed kong has 4 tiles"),
        ("(7777m+)", "cannot be an added kong"),
        ("[7x7m]", "invalid character 'x'"),
    ],
)
def test_meld_errors(text, fragment):
    with pytest.raises(TileError, match=fragment):
        Meld.parse(text)


def test_parse_several_melds():
    assert [str(m) for m in parse_melds("[777m] (1111z)")] == ["[777m]", "(1111z)"]
    with pytest.raises(TileError, match="unexpected text"):
        parse_melds("[777m] x [888m]")


def test_meld_from_dict_errors():
    with pytest.raises(TileError, match="not one of chi, pon"):
        Meld.from_dict({"type": "chow", "tile": "1m"})
    with pytest.raises(TileError, match="a chi is a sequence named by its lowest tile"):
        Meld.from_dict({"type": "chi", "tile": "8m"})  # 8m9m10m is no sequence
    assert Meld.from_dict({"type": "chi", "tile": "7s"}) == Meld.parse("[789s]")
    with pytest.raises(TileError, match="unknown key"):
        Meld.from_dict({"type": "pon", "tile": "1m", "x": 1})


def test_melds_of_accepts_every_form_once():
    """One coercion for the scorer and the SVG drawing: text, a Meld, Melds, strings, batch dicts."""
    from tjmj.meld import melds_of

    pon = Meld.parse("[777m]")
    assert melds_of("[777m]") == melds_of(pon) == melds_of([pon]) == melds_of(["[777m]"]) == [pon]
    assert melds_of([{"type": "pon", "tile": "7m"}]) == [pon]
    for bad in (5, {"type": "pon", "tile": "7m"}, [3]):
        with pytest.raises(TileError):
            melds_of(bad)
