"""tjmj.svg: tiles, rows, hands and arrangements drawn as SVG text."""

import re
import xml.etree.ElementTree as ET

import pytest

from tjmj import svg
from tjmj.families.tianjin.score import score
from tjmj.meld import Meld, MeldType
from tjmj.tiles import TILE_TEXT, Tile, TileError

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox"))
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def title(root: ET.Element) -> str:
    return root.find(f"{NS}title").text


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def texts(root: ET.Element) -> list[str]:
    return [e.text for e in root.iter(f"{NS}text")]


def width(text: str) -> float:
    return float(ET.fromstring(text).get("width"))


@pytest.mark.parametrize("kind", range(34))
def test_every_kind_renders_valid_xml_with_its_title(kind):
    t = Tile(kind)
    root = parse(svg.tile(kind))
    assert title(root) == f"{TILE_TEXT[kind]} {t.chinese}"
    (g,) = with_class(root, "tile")
    assert g.get("data-tile") == TILE_TEXT[kind]
    assert root.get("viewBox") == "0 0 60 80"
    assert float(root.get("width")) == 48 and float(root.get("height")) == 64
    # the three ways to name a tile draw the same
    assert svg.tile(t) == svg.tile(kind) == svg.tile(TILE_TEXT[kind]) == svg.tile(t.chinese)


@pytest.mark.parametrize("n", range(1, 10))
def test_dot_and_bamboo_pip_counts(n):
    dots = parse(svg.tile(f"{n}p"))
    sticks = parse(svg.tile(f"{n}s"))
    assert len(with_class(dots, "dot")) == n and not with_class(dots, "stick")
    assert len(with_class(sticks, "stick")) == n and not with_class(sticks, "dot")
    assert len(with_class(sticks, "bird")) == (n == 1)


@pytest.mark.parametrize("n", range(1, 10))
def test_character_faces_show_the_numeral_over_wan(n):
    root = parse(svg.tile(f"{n}m"))
    assert texts(root) == ["一二三四五六七八九"[n - 1], "萬"]
    assert with_class(root, "suit")[0].get("fill") == svg.RED


def test_honour_faces():
    faces = {"1z": "東", "2z": "南", "3z": "西", "4z": "北", "5z": "中", "6z": "發"}
    for t, ch in faces.items():
        assert texts(parse(svg.tile(t))) == [ch]
    assert with_class(parse(svg.tile("5z")), "honor")[0].get("fill") == svg.RED
    assert with_class(parse(svg.tile("6z")), "honor")[0].get("fill") == svg.GREEN
    white = parse(svg.tile("7z"))
    assert texts(white) == [] and len(with_class(white, "frame")) == 1


def test_wild_badge_and_plays_label():
    plain = parse(svg.tile("6z"))
    assert not with_class(plain, "badge") and not with_class(plain, "wild")
    root = parse(svg.tile("6z", wild=True, plays="7m"))
    (badge,) = with_class(root, "badge")
    assert [e.text for e in badge.iter(f"{NS}text")] == ["混"]
    (label,) = with_class(root, "plays")
    assert [e.text for e in label.iter(f"{NS}text")] == ["=7m"]
    assert with_class(root, "tile")[0].get("class") == "tile wild"
    assert title(root) == "6z 发 (wild 混, plays 7m 七万)"
    assert root.get("viewBox") == f"0 0 60 {80 + svg.LABEL_H}"  # the label sits under the tile
    assert not with_class(parse(svg.tile("6z", wild=True)), "plays")


def test_back_hides_the_face():
    text = svg.tile("5m", back=True)
    root = parse(text)
    assert title(root) == "back"
    assert svg.tile(None, back=True) == text
    assert texts(root) == [] and "5m" not in text and "五" not in text and "萬" not in text
    (g,) = with_class(root, "tile")
    assert g.get("data-tile") is None and "back" in g.get("class").split()
    assert not with_class(parse(svg.tile("5p", back=True)), "dot")
    assert "混" not in svg.tile("5p", back=True, wild=True, plays="6p")


def test_highlight_and_rotated():
    root = parse(svg.tile("3p", highlight=True))
    assert "highlight" in with_class(root, "tile")[0].get("class").split()
    side = parse(svg.tile("3p", rotated=True, size=60))
    assert side.get("viewBox") == "0 0 80 60" and float(side.get("width")) == 80
    assert len(with_class(side, "dot")) == 3 and with_class(side, "rotated")


def test_size_scales_pixels_not_units():
    small, big = parse(svg.tile("1m", size=30)), parse(svg.tile("1m", size=90))
    assert small.get("viewBox") == big.get("viewBox")
    assert float(big.get("width")) == 3 * float(small.get("width"))


def test_row_of_tiles():
    root = parse(svg.tiles("1123m55z", wilds="5z", highlight_index=-1))
    assert title(root) == "1123m55z"
    assert [g.get("data-tile") for g in with_class(root, "tile")] == ["1m", "1m", "2m", "3m", "5z", "5z"]
    assert len(with_class(root, "wild")) == 2 and len(with_class(root, "badge")) == 2
    assert [g.get("data-tile") for g in with_class(root, "highlight")] == ["5z"]
    assert [e.text for e in root.iter(f"{NS}title")][1] == "1m 一万"  # each tile has its own title
    assert width(svg.tiles("1123m55z", drawn_apart=True)) > width(svg.tiles("1123m55z"))
    assert width(svg.tiles("1123m55z", gap=10)) > width(svg.tiles("1123m55z", gap=2))
    assert title(parse(svg.tiles("1123m55z", drawn_apart=True))) == "1123m5z 5z"
    assert svg.tiles([0, 1, 2]) == svg.tiles("123m")
    assert title(parse(svg.tiles(""))) == "no tiles"


def test_widths_grow_with_tile_count():
    widths = [width(svg.tiles("1m" * n)) for n in range(1, 15)]
    assert widths == sorted(widths) and len(set(widths)) == len(widths)
    hands = [width(svg.hand("1123m456p" + "1s" * n)) for n in range(5)]
    assert hands == sorted(hands) and len(set(hands)) == len(hands)
    assert width(svg.hand("1123m", "4m")) > width(svg.hand("1123m"))
    assert width(svg.hand("1123m", "4m", "[777z]")) > width(svg.hand("1123m", "4m"))


def test_hand_melds_as_at_a_table():
    root = parse(svg.hand("1123m4p55z", draw="6z", melds="[777s](1111z)[2222p+][9999m]", wilds="5z6z"))
    assert title(root) == "1123m4p55z 6z [777s] (1111z) [2222p+] [9999m]"
    tiles = with_class(root, "tile")
    assert len(tiles) == 8 + 3 + 4 + 4 + 4
    assert [g.get("data-tile") for g in with_class(root, "highlight")] == ["6z"]  # the drawn tile
    assert len(with_class(root, "back")) == 2  # the concealed kong's outer tiles
    faced = [g.get("data-tile") for g in tiles]
    assert faced.count("1z") == 2 and faced.count(None) == 2
    # pon and discard kong: one tile sideways; added kong: two sideways, one on top of the other
    rotated = [g.get("data-tile") for g in with_class(root, "rotated")]
    assert rotated == ["7s", "2p", "2p", "9m"]
    assert len(with_class(root, "wild")) == 3
    assert svg.hand("1123m", melds=[Meld(MeldType.PON, Tile(31))]) == svg.hand("1123m", melds="[555z]")
    stacked = parse(svg.hand("", melds="[2222p+]"))
    assert float(stacked.get("height")) > float(parse(svg.hand("", melds="[2222p]")).get("height"))


def test_arrangement_marks_winning_tile_wilds_and_dragon():
    arr = score("123m456m8m23p55s56z", "9m", "5z").arrangement
    root = parse(svg.arrangement(arr))
    assert title(root) == str(arr)
    (win,) = with_class(root, "winning")
    assert win.get("data-tile") == "9m" and "highlight" in win.get("class").split()
    assert "winning tile" in win.find(f"{NS}title").text
    wilds = with_class(root, "wild")
    assert sorted(g.get("data-tile") for g in wilds) == ["5z", "6z"]
    labels = sorted(e.text for g in with_class(root, "plays") for e in g.iter(f"{NS}text"))
    assert labels == ["=4p", "=7m"]
    assert arr.dragon is not None
    (dragon,) = with_class(root, "dragon")
    assert len(list(dragon.iter(f"{NS}line"))) == 3 and "龙" in texts(dragon)
    assert len(with_class(root, "tile")) == 14


def test_arrangement_with_melds_and_no_dragon():
    arr = score("345m11p999s67p", "1s", "1s", "[7777z+]").arrangement
    root = parse(svg.arrangement(arr))
    assert not with_class(root, "dragon")
    assert [g.get("data-tile") for g in with_class(root, "winning")] == ["1s"]
    assert len(with_class(root, "rotated")) == 2 and len(with_class(root, "tile")) == 15
    plain = parse(svg.arrangement(score("123m456m789m3p", "3p", "1s", "[777z]").arrangement))
    assert not with_class(plain, "plays") and len(with_class(plain, "dragon")) == 1


def test_bad_input_raises_clear_errors():
    with pytest.raises(TileError, match=r"0\.\.33, got 34"):
        svg.tile(34)
    with pytest.raises(TileError, match=r"0\.\.33"):
        svg.tile(-1)
    with pytest.raises(TileError):
        svg.tile(True)
    with pytest.raises(TileError, match="'0'"):
        svg.tile("0m")
    with pytest.raises(TileError):
        svg.tile(None)  # only a back may have no kind
    with pytest.raises(TileError, match="plays"):
        svg.tile("5m", wild=True, plays=99)
    with pytest.raises(TileError, match=r"0\.\.33"):
        svg.tiles([1, 2, 40])
    with pytest.raises(TileError):
        svg.hand("123m", melds="[12m]")
    with pytest.raises(ValueError, match="size"):
        svg.tile("5m", size=0)
    with pytest.raises(ValueError, match="highlight_index"):
        svg.tiles("123m", highlight_index=3)
    with pytest.raises(TypeError, match="Arrangement"):
        svg.arrangement("123m")


def test_deterministic_and_escaped():
    arr = score("123m456m8m23p55s56z", "9m", "5z").arrangement
    assert svg.arrangement(arr) == svg.arrangement(arr)
    text = svg.arrangement(arr)
    assert "&lt;9m&gt;" in text and "<9m>" not in text  # the title's winning-tile marks are escaped


def test_render_sample(tmp_path):
    out = svg.render_sample(tmp_path / "sample.html")
    page = out.read_text(encoding="utf-8")
    docs = re.findall(r"<svg .*?</svg>", page)
    assert len(docs) >= 34 + 6 + 2 + 3
    roots = [parse(d) for d in docs]
    titles = [title(r) for r in roots]
    assert all(f"{TILE_TEXT[k]} {Tile(k).chinese}" in titles for k in range(34))
    assert any(r.get("class") == "tjmj-arrangement" for r in roots)
