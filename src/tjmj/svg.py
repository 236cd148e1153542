"""Mahjong tiles drawn as SVG text by the project's own code (in the spirit of ``chess.svg``).

Pure functions, standard library only; every function returns a complete ``<svg>`` document as a
string, deterministic (the same input gives the same bytes), valid XML, with a ``viewBox``, a
``width``/``height`` in pixels and a ``<title>`` holding the MPSZ text (``"5m 五万"``).

* :func:`tile` — one tile: face, back, wild badge 混, what the wild plays, highlight, sideways.
* :func:`tiles` — a row of tiles (a hand), wilds marked, the drawn tile optionally set apart.
* :func:`hand` — concealed tiles, the drawn tile apart, then the exposed melds as at a table.
* :func:`arrangement` — the groups of an :class:`~tjmj.families.tianjin.elements.Arrangement` (the
  default family's, :func:`tjmj.families.default`: its part ``elements`` defines ``Arrangement``),
  wilds labelled with what they play, the winning tile highlighted, the 龙 groups underlined.
* :func:`sprite` — every face (the 34 kinds and MCR's eight flowers), the back and the wild badge
  as ``<symbol>``s of one document, so a page loads all its tiles with one request
  (``<use href="#t-5m"/>``).
* :func:`render_sample` — an HTML page with all 34 tiles, the flowers and sample hands, for eyeballing.

Every tile is a ``<g class="tile">`` (plus ``wild``, ``highlight``, ``winning``, ``back``,
``rotated`` where they apply) with its own ``<title>`` and a ``data-tile="5m"`` attribute (absent on
backs), so a web page can style and query them.  The drawing is done in tile units (an upright tile
is 60 × 80, of which the bottom 6 are the tile's edge); ``size`` is an upright tile's width in pixels.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, Protocol
from xml.sax.saxutils import escape, quoteattr

from .hand import Group
from .meld import MeldType, melds_of
from .tiles import FLOWER_TEXT, NUM_KINDS, TILE_TEXT, Flower, Tile, TileError, format_tiles, parse_tiles

__all__ = ["tile", "tiles", "hand", "arrangement", "sprite", "render_sample"]

# geometry, in tile units
TILE_W = 60  # an upright tile's width
TILE_H = 80  # its height, edge included
EDGE = 6  # the visible thickness at the bottom
FACE_H = TILE_H - EDGE
LABEL_H = 17  # the band under a tile holding what a wild plays
TILE_GAP = 2  # between tiles of one group / meld
GROUP_GAP = 16  # between groups and melds
APART_GAP = 20  # before the drawn tile
DRAGON_H = 22  # the band under the 龙 groups
PAD = 2  # around a composite drawing

# colours
IVORY = "#fbf7ea"
FACE_STROKE = "#c9bb95"
EDGE_FILL = "#ddcfa8"
EDGE_STROKE = "#a8976c"
BACK_FILL = "#2d8a68"
BACK_EDGE = "#1c6149"
BACK_LINE = "#6cc29f"
RED = "#c8102e"
GREEN = "#17804a"
BLUE = "#1f4e9c"
BLACK = "#1b1b1b"
GOLD = "#e8b10e"
HIGHLIGHT = "#ff6a00"
WIN_HIGHLIGHT = "#e0001b"

_SERIF = "'Noto Serif CJK SC','Noto Serif CJK','Source Han Serif SC','Songti SC','SimSun',serif"
_SANS = "'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',sans-serif"
_NUMERALS = "一二三四五六七八九"
# faces use the characters printed on real sets (traditional forms); titles use Tile.chinese
_HONOR_FACE = (("東", BLACK), ("南", BLACK), ("西", BLACK), ("北", BLACK), ("中", RED), ("發", GREEN))
# MCR's flowers (M1), 1f–8f: 春夏秋冬 梅蘭竹菊, each in its own colour, with its number
_FLOWER_FACE = (("春", GREEN), ("夏", RED), ("秋", "#b85c00"), ("冬", BLUE),
                ("梅", "#c2185b"), ("蘭", "#6a3d9a"), ("竹", "#0f7b6c"), ("菊", "#a87400"))
_SVG_NS = "http://www.w3.org/2000/svg"


def _n(x: float) -> str:
    """A coordinate as short deterministic text: at most 2 decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _attrs(**kw: object) -> str:
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        text = _n(v) if isinstance(v, float | int) and not isinstance(v, bool) else str(v)
        out.append(f" {name}={quoteattr(text)}")
    return "".join(out)


def _el(tag: str, **kw: object) -> str:
    return f"<{tag}{_attrs(**kw)}/>"


def _text(x: float, y: float, s: str, *, size: float, fill: str, family: str = _SERIF, weight: str = "bold",
          cls: str | None = None) -> str:
    return (f"<text{_attrs(class_=cls, x=x, y=y, font_size=size, font_family=family, font_weight=weight, fill=fill)}"
            f' text-anchor="middle" dominant-baseline="central">{escape(s)}</text>')


# --------------------------------------------------------------------------- faces (60 × 74 face units)


def _dot(cx: float, cy: float, r: float, colour: str) -> str:
    """One dot (饼) pip: a coloured disc with an ivory ring and a coloured centre."""
    return (
        '<g class="dot">'
        + _el("circle", cx=cx, cy=cy, r=r, fill=colour)
        + _el("circle", cx=cx, cy=cy, r=r * 0.7, fill=IVORY)
        + _el("circle", cx=cx, cy=cy, r=r * 0.5, fill=colour)
        + _el("circle", cx=cx, cy=cy, r=r * 0.17, fill=IVORY)
        + "</g>"
    )


def _big_dot() -> str:
    """The 1饼: one large ornamented disc."""
    cx, cy = 30, 37
    parts = [_el("circle", cx=cx, cy=cy, r=24, fill=GREEN), _el("circle", cx=cx, cy=cy, r=21, fill=IVORY)]
    for i in range(16):
        a = 2 * math.pi * i / 16
        parts.append(_el("circle", cx=cx + 17.5 * math.cos(a), cy=cy + 17.5 * math.sin(a), r=2.2,
                         fill=BLUE if i % 2 else GREEN))
    parts += [
        _el("circle", cx=cx, cy=cy, r=13.5, fill=RED),
        _el("circle", cx=cx, cy=cy, r=10, fill=IVORY),
        _el("circle", cx=cx, cy=cy, r=7, fill=GREEN),
        _el("circle", cx=cx, cy=cy, r=2.5, fill=IVORY),
    ]
    return '<g class="dot">' + "".join(parts) + "</g>"


_G, _R, _B = GREEN, RED, BLUE
# (cx, cy, r, colour) per pip, as the dots stand on real tiles
_DOTS: dict[int, tuple[tuple[float, float, float, str], ...]] = {
    2: ((30, 19, 12, _G), (30, 55, 12, _B)),
    3: ((14, 14, 9.5, _B), (30, 37, 9.5, _R), (46, 60, 9.5, _G)),
    4: ((17, 19, 10.5, _B), (43, 19, 10.5, _G), (17, 55, 10.5, _G), (43, 55, 10.5, _B)),
    5: ((15, 15, 9.5, _B), (45, 15, 9.5, _G), (30, 37, 9.5, _R), (15, 59, 9.5, _G), (45, 59, 9.5, _B)),
    6: ((17, 13, 9, _G), (43, 13, 9, _G), (17, 42, 9, _R), (43, 42, 9, _R), (17, 62, 9, _R), (43, 62, 9, _R)),
    7: ((12, 10, 7.5, _G), (30, 17, 7.5, _G), (48, 24, 7.5, _G),
        (17, 44, 8.5, _R), (43, 44, 8.5, _R), (17, 63, 8.5, _R), (43, 63, 8.5, _R)),
    8: tuple((x, y, 8, _B) for y in (10.5, 28, 46, 63.5) for x in (17, 43)),
    9: tuple((x, y, 8.6, c) for y, c in ((14, _B), (37, _R), (60, _G)) for x in (12, 30, 48)),
}


def _stick(cx: float, cy: float, h: float, colour: str, angle: float = 0, w: float = 7) -> str:
    """One bamboo (条) pip: a stalk with a joint in the middle and swollen ends."""
    top, bot = cy - h / 2, cy + h / 2
    parts = [
        _el("rect", x=cx - w / 2, y=top, width=w, height=h, rx=w / 2.4, fill=colour),
        _el("rect", x=cx - w / 2 - 0.9, y=top, width=w + 1.8, height=2.2, rx=1.1, fill=colour),
        _el("rect", x=cx - w / 2 - 0.9, y=bot - 2.2, width=w + 1.8, height=2.2, rx=1.1, fill=colour),
        _el("rect", x=cx - w / 2 - 0.9, y=cy - 1.2, width=w + 1.8, height=2.4, rx=1.2, fill=colour),
        _el("line", x1=cx, y1=top + 3, x2=cx, y2=cy - 2.2, stroke=IVORY, stroke_width=1.3, stroke_linecap="round"),
        _el("line", x1=cx, y1=cy + 2.2, x2=cx, y2=bot - 3, stroke=IVORY, stroke_width=1.3, stroke_linecap="round"),
    ]
    rot = f' transform="rotate({_n(angle)} {_n(cx)} {_n(cy)})"' if angle else ""
    return f'<g class="stick"{rot}>' + "".join(parts) + "</g>"


def _bird() -> str:
    """The 1条: a little bird (the usual sparrow/peacock of real sets); counts as one stick."""
    return (
        '<g class="stick bird">'
        # tail feathers fanned to the lower left
        + _el("path", d="M24 44 L5 64 Q10 68 14 66 Z", fill=BLUE)
        + _el("path", d="M25 46 L12 70 Q18 72 21 69 Z", fill=GREEN)
        + _el("path", d="M27 47 L22 72 Q28 73 30 70 Z", fill=BLUE)
        + _el("circle", cx=9, cy=64, r=2.2, fill=RED)
        + _el("circle", cx=16, cy=68, r=2.2, fill=RED)
        + _el("circle", cx=25, cy=70, r=2.2, fill=RED)
        # body, wing, breast
        + _el("ellipse", cx=32, cy=38, rx=12, ry=16, fill=GREEN, transform="rotate(30 32 38)")
        + _el("path", d="M27 32 Q36 36 34 50 Q26 46 27 32 Z", fill=BLUE)
        + _el("path", d="M38 28 Q46 38 40 50 Q44 38 36 30 Z", fill=RED)
        # legs
        + _el("path", d="M34 52 L33 60 M38 50 L39 59 M30 60 L36 60 M36 59 L42 59", stroke=BLACK,
              stroke_width=1.4, fill="none", stroke_linecap="round")
        # head, crest, eye, beak
        + _el("path", d="M38 10 Q40 3 44 7 Q42 5 41 11 Z", fill=RED)
        + _el("circle", cx=41, cy=17, r=7.5, fill=GREEN)
        + _el("circle", cx=43, cy=15.5, r=2, fill=IVORY)
        + _el("circle", cx=43.5, cy=15.5, r=1, fill=BLACK)
        + _el("path", d="M47.5 16 L55 19 L47.5 21 Z", fill="#d4791c")
        + "</g>"
    )


def _sticks(n: int) -> str:
    h2 = 29  # a stick's height when there are two rows
    y2 = (20, 54)
    if n == 1:
        return _bird()
    if n == 2:
        return _stick(30, y2[0], h2, _G) + _stick(30, y2[1], h2, _G)
    if n == 3:
        return _stick(30, y2[0], h2, _G) + _stick(18, y2[1], h2, _G) + _stick(42, y2[1], h2, _G)
    if n == 4:
        return "".join(_stick(x, y, h2, _B if x == 18 else _G) for y in y2 for x in (18, 42))
    if n == 5:
        return "".join(_stick(x, y, h2, _G if x == 13 else _B) for y in y2 for x in (13, 47)) + _stick(30, 37, h2, _R)
    if n == 6:
        return "".join(_stick(x, y, h2, _G if y == y2[1] else _B) for y in y2 for x in (13, 30, 47))
    if n == 7:
        h3, ys = 19, (13, 37, 61)
        return _stick(30, ys[0], h3, _R) + "".join(_stick(x, y, h3, _G) for y in ys[1:] for x in (13, 30, 47))
    if n == 8:  # an M over a W, as on real tiles
        out = []
        for y, tilt in ((y2[0], 1), (y2[1], -1)):
            out.append(_stick(10, y, h2, _G))
            out.append(_stick(23, y, h2, _G, angle=-16 * tilt))
            out.append(_stick(37, y, h2, _G, angle=16 * tilt))
            out.append(_stick(50, y, h2, _G))
        return "".join(out)
    # 9: three columns of three, the middle one red
    return "".join(_stick(x, y, 20, _R if x == 30 else _G) for y in (13, 37, 61) for x in (12, 30, 48))


def _flower_face(i: int) -> str:
    """A flower (MCR M1; ``i`` 0..7 = 1f–8f): its character large in its colour inside a thin frame
    of the same colour, its number in the top left corner, a small blossom in the bottom right."""
    ch, colour = _FLOWER_FACE[i]
    blossom = "".join(_el("circle", cx=47 + 3.2 * math.cos(2 * math.pi * k / 5 - math.pi / 2),
                          cy=62 + 3.2 * math.sin(2 * math.pi * k / 5 - math.pi / 2), r=2.3, fill=colour)
                      for k in range(5))
    return ('<g class="flower">'
            + _el("rect", x=5, y=5, width=50, height=64, rx=4, fill="none", stroke=colour, stroke_width=1.6)
            + _text(14.5, 15.5, str(i + 1), size=13, fill=colour, family=_SANS, cls="number")
            + _text(30, 39, ch, size=34, fill=colour, cls="flower-name")
            + blossom + _el("circle", cx=47, cy=62, r=1.5, fill=GOLD)
            + "</g>")


@cache
def _face(kind: int) -> str:
    """The printed face of a kind (or of a flower, 34..41), drawn in a 60 × 74 box."""
    if kind >= NUM_KINDS:
        return _flower_face(kind - NUM_KINDS)
    suit, num = divmod(kind, 9)
    if suit == 0:  # characters: the numeral above a red 萬
        return (_text(30, 21, _NUMERALS[num], size=27, fill=BLACK, cls="numeral")
                + _text(30, 54, "萬", size=31, fill=RED, cls="suit"))
    if suit == 1:
        return _big_dot() if num == 0 else "".join(_dot(*p) for p in _DOTS[num + 1])
    if suit == 2:
        return _sticks(num + 1)
    h = kind - 27
    if h == 6:  # 白: an empty blue frame
        return ('<g class="frame">' + _el("rect", x=10, y=10, width=40, height=54, rx=3, fill="none", stroke=BLUE,
                                          stroke_width=3.5)
                + _el("rect", x=15, y=15, width=30, height=44, rx=1.5, fill="none", stroke=BLUE, stroke_width=1.2)
                + "</g>")
    ch, colour = _HONOR_FACE[h]
    return _text(30, 37, ch, size=42, fill=colour, cls="honor")


# --------------------------------------------------------------------------- one tile


class _Spec(NamedTuple):
    """One tile to draw and how."""

    kind: Tile | None
    wild: bool = False
    plays: Tile | None = None
    highlight: bool = False
    back: bool = False
    rotated: bool = False
    winning: bool = False

    @property
    def body(self) -> tuple[int, int]:
        return (TILE_H, TILE_W) if self.rotated else (TILE_W, TILE_H)


def _code(kind: int) -> str:
    """The MPSZ text of a kind, or ``1f``–``8f`` for a flower."""
    return TILE_TEXT[kind] if kind < NUM_KINDS else FLOWER_TEXT[kind - NUM_KINDS]


def _describe(kind: Tile) -> str:
    return f"{_code(kind)} {kind.chinese}"


def _spec_title(s: _Spec) -> str:
    if s.back or s.kind is None:
        return "back"
    text = _describe(s.kind)
    notes = []
    if s.wild:
        notes.append("wild 混" + (f", plays {_describe(s.plays)}" if s.plays is not None else ""))
    if s.winning:
        notes.append("winning tile")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def _badge(w: float) -> str:
    """The gold 混 badge in the top right corner of a tile ``w`` wide: the mark of a wild."""
    return ('<g class="badge">' + _el("circle", cx=w - 9.5, cy=9.5, r=8.5, fill=GOLD, stroke="#8a6400", stroke_width=1)
            + _text(w - 9.5, 10, "混", size=11, fill="#7a1500", family=_SANS) + "</g>")


def _tile_markup(s: _Spec, x: float, y: float, *, title: bool = True, label: bool = True) -> str:
    """A ``<g class="tile …">`` whose body's top left corner is at (x, y)."""
    w, h = s.body
    classes = ["tile"]
    if s.back:
        classes.append("back")
    if s.wild and not s.back:
        classes.append("wild")
    if s.highlight or s.winning:
        classes.append("highlight")
    if s.winning:
        classes.append("winning")
    if s.rotated:
        classes.append("rotated")
    data = None if s.back or s.kind is None else _code(s.kind)
    move = f"translate({_n(x)} {_n(y)})" if (x or y) else None
    out = [f"<g{_attrs(class_=' '.join(classes), data_tile=data, transform=move)}>"]
    if title:
        out.append(f"<title>{escape(_spec_title(s))}</title>")
    fh = h - EDGE
    if s.back:
        out.append(_el("rect", x=0.5, y=0.5, width=w - 1, height=h - 1, rx=7, fill=BACK_EDGE, stroke=BACK_EDGE))
        out.append(_el("rect", x=0.5, y=0.5, width=w - 1, height=fh, rx=6.5, fill=BACK_FILL, stroke=BACK_EDGE,
                       stroke_width=0.8))
        out.append(_el("rect", x=5, y=5, width=w - 10, height=fh - 9, rx=4, fill="none", stroke=BACK_LINE,
                       stroke_width=1.2))
    else:
        out.append(_el("rect", x=0.5, y=0.5, width=w - 1, height=h - 1, rx=7, fill=EDGE_FILL, stroke=EDGE_STROKE,
                       stroke_width=1))
        out.append(_el("rect", x=0.5, y=0.5, width=w - 1, height=fh, rx=6.5, fill=IVORY, stroke=FACE_STROKE,
                       stroke_width=0.8))
        assert s.kind is not None
        if s.rotated:  # the face turned a quarter left, scaled to the lower face
            out.append(f'<g transform="translate({_n(w / 2)} {_n(fh / 2)}) rotate(-90) scale(0.9) translate(-30 -37)">'
                       f"{_face(s.kind)}</g>")
        else:
            out.append(_face(s.kind))
        if s.wild:
            out.append(_badge(w))
    if s.highlight or s.winning:
        colour = WIN_HIGHLIGHT if s.winning else HIGHLIGHT
        out.append(_el("rect", x=1.75, y=1.75, width=w - 3.5, height=h - 3.5, rx=6, fill="none", stroke=colour,
                       stroke_width=3.5))
    if label and s.plays is not None and not s.back:
        out.append('<g class="plays">' + _el("rect", x=w / 2 - 19, y=h + 2, width=38, height=LABEL_H - 3, rx=7,
                                             fill="#fff3c4", stroke="#c99a00", stroke_width=1)
                   + _text(w / 2, h + 2 + (LABEL_H - 3) / 2, "=" + TILE_TEXT[s.plays], size=10.5, fill="#5a3b00",
                           family=_SANS)
                   + "</g>")
    out.append("</g>")
    return "".join(out)


# --------------------------------------------------------------------------- input checks


def _kind(t: object, what: str = "tile") -> Tile:
    if isinstance(t, Tile):
        return t
    if isinstance(t, bool):
        raise TileError(f"{what} must be a tile kind 0..33 or tile text like '5m', got {t!r}")
    if isinstance(t, int):
        try:
            return Tile(t)  # a flower is given as text or a Flower, never as a bare 34..41
        except TileError as e:
            raise TileError(f"{what}: {e}") from None
    if isinstance(t, str):
        if t.strip() in FLOWER_TEXT:  # MCR's flowers (M1): 1f–8f
            return Flower.parse(t)
        return Tile.parse(t)
    raise TileError(f"{what} must be a tile kind 0..33 or tile text like '5m', got {t!r}")


def _kinds(ts: object, what: str = "tiles") -> list[Tile]:
    if isinstance(ts, str):
        return parse_tiles(ts)
    if isinstance(ts, int) or not isinstance(ts, Iterable):
        raise TileError(f"{what} must be tile text like '123m' or a sequence of tile kinds, got {ts!r}")
    return [_kind(t, what) for t in ts]


def _scale(size: object) -> float:
    if isinstance(size, bool) or not isinstance(size, int | float) or not 0 < size < 10_000:
        raise ValueError(f"size must be a positive number of pixels (an upright tile's width), got {size!r}")
    return size / TILE_W


# --------------------------------------------------------------------------- layout


class _Column(NamedTuple):
    """Tiles stacked bottom up (one tile, or an added kong's two sideways tiles), in group ``group``."""

    specs: tuple[_Spec, ...]
    group: int | None = None


_Row = list[_Column | float]  # a float is a horizontal gap


def _svg(body: str, width: float, height: float, scale: float, title: str, cls: str) -> str:
    return (
        f'<svg xmlns="{_SVG_NS}"{_attrs(class_=cls, viewBox=f"0 0 {_n(width)} {_n(height)}")}'
        f'{_attrs(width=width * scale, height=height * scale)} role="img">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def _render_row(row: _Row, scale: float, title: str, cls: str, dragon: Sequence[int] = ()) -> str:
    base = max((sum(s.body[1] for s in c.specs) for c in row if isinstance(c, _Column)), default=TILE_H)
    labelled = any(c.specs[0].plays is not None and not c.specs[0].back for c in row if isinstance(c, _Column))
    label_h = LABEL_H if labelled else 0
    parts: list[str] = []
    spans: dict[int, tuple[float, float]] = {}
    x: float = PAD
    for item in row:
        if not isinstance(item, _Column):
            x += item
            continue
        width: float = max(s.body[0] for s in item.specs)  # float: reused below for the row's width
        bottom = PAD + base
        for i, s in enumerate(item.specs):
            w, h = s.body
            parts.append(_tile_markup(s, x + (width - w) / 2, bottom - h, label=i == 0))
            bottom -= h
        if item.group is not None:
            lo, hi = spans.get(item.group, (x, x + width))
            spans[item.group] = (min(lo, x), max(hi, x + width))
        x += width + TILE_GAP
    width = x - TILE_GAP + PAD if parts else 2 * PAD
    height = PAD + base + label_h + PAD
    marked = [spans[g] for g in dragon if g in spans]
    if marked:
        y = PAD + base + label_h + 4
        lines = [_el("line", x1=lo + 2, y1=y, x2=hi - 2, y2=y, stroke=RED, stroke_width=3, stroke_linecap="round")
                 for lo, hi in marked]
        mid_lo, mid_hi = marked[len(marked) // 2]
        mid = (mid_lo + mid_hi) / 2
        lines.append(_text(mid, y + 10, "龙", size=12, fill=RED, family=_SANS))
        parts.append('<g class="dragon"><title>龙 (1-9 straight)</title>' + "".join(lines) + "</g>")
        height += DRAGON_H
    return _svg("".join(parts), width, height, scale, title, cls)


def _meld_columns(mtype: MeldType, specs: Sequence[_Spec], group: int | None) -> list[_Column]:
    """A meld as at a table: the claimed tile sideways, an added kong's extra tile on top of it,
    a concealed kong's two outer tiles face down."""
    if mtype is MeldType.CONCEALED_KONG:
        a, b, c, d = specs
        return [_Column((a._replace(back=True),), group), _Column((b,), group), _Column((c,), group),
                _Column((d._replace(back=True),), group)]
    if mtype is MeldType.ADDED_KONG:
        a, b, c, d = specs
        return [_Column((a,), group), _Column((b._replace(rotated=True), d._replace(rotated=True)), group),
                _Column((c,), group)]
    cols = [_Column((s,), group) for s in specs]
    cols[1] = _Column((specs[1]._replace(rotated=True),), group)
    return cols


# --------------------------------------------------------------------------- public API


def tile(t: object = None, *, size: float = 48, wild: bool = False, plays: object = None, highlight: bool = False,
         back: bool = False, rotated: bool = False) -> str:
    """One tile as a standalone SVG.

    ``t``: a kind 0..33, a :class:`~tjmj.tiles.Tile` or text (``"5m"``, ``"五万"``), or one of
    MCR's flowers (``"1f"``–``"8f"`` or a :class:`~tjmj.tiles.Flower`); may be None only with
    ``back=True``.  ``size``: the upright tile's width in pixels (height is 4/3 of it).
    ``wild``: a gold 混 badge in the corner; ``plays``: a tile shown under the tile as ``=5m`` (what
    a wild plays); ``highlight``: a coloured outline (the winning or drawn tile); ``back``: the back
    (title ``"back"``, nothing of the face); ``rotated``: sideways, as the claimed tile of a meld.
    """
    scale = _scale(size)
    if t is None and not back:
        raise TileError("tile() needs a tile kind 0..33 or tile text like '5m' (None only with back=True)")
    kind = None if t is None else _kind(t)
    p = None if plays is None else _kind(plays, "plays")
    s = _Spec(kind, wild=bool(wild), plays=p, highlight=bool(highlight), back=bool(back), rotated=bool(rotated))
    w, h = s.body
    if p is not None and not back:
        h += LABEL_H
    cls = "tjmj-tile"
    return _svg(_tile_markup(s, 0, 0, title=False), w, h, scale, _spec_title(s), cls)


def tiles(ts: object, *, size: float = 48, gap: float = 2, wilds: object = (), drawn_apart: bool = False,
          highlight_index: int | None = None) -> str:
    """A row of tiles (a hand): ``ts`` as text (``"123m55z"``) or kinds, in the order given.

    ``gap``: pixels between tiles; ``wilds``: kinds that are wild (text or kinds), each marked with
    the 混 badge; ``drawn_apart``: the last tile set apart (the drawn tile); ``highlight_index``:
    the index (negative counts from the end) of a tile to outline.
    """
    scale = _scale(size)
    kinds = _kinds(ts)
    wild_set = set(_kinds(wilds, "wilds"))
    if isinstance(gap, bool) or not isinstance(gap, int | float) or gap < 0:
        raise ValueError(f"gap must be a non-negative number of pixels, got {gap!r}")
    hi = None
    if highlight_index is not None:
        if isinstance(highlight_index, bool) or not isinstance(highlight_index, int):
            raise ValueError(f"highlight_index must be an int, got {highlight_index!r}")
        if not -len(kinds) <= highlight_index < len(kinds):
            raise ValueError(f"highlight_index {highlight_index} is out of range for {len(kinds)} tiles")
        hi = highlight_index % len(kinds)
    row: _Row = []
    extra = gap / scale - TILE_GAP  # the row lays tiles TILE_GAP apart; widen or narrow to `gap` pixels
    for i, k in enumerate(kinds):
        if i:
            row.append(APART_GAP if drawn_apart and i == len(kinds) - 1 else extra)
        row.append(_Column((_Spec(k, wild=k in wild_set, highlight=i == hi),)))
    title = format_tiles(kinds[:-1]) + " " + format_tiles(kinds[-1:]) if drawn_apart and len(kinds) > 1 \
        else format_tiles(kinds)
    return _render_row(row, scale, title or "no tiles", "tjmj-tiles")


def hand(concealed: object, draw: object = None, melds: object = (), *, wilds: object = (), size: float = 48) -> str:
    """A player's hand: the concealed tiles, the drawn tile apart (outlined), then the exposed melds.

    ``melds``: bracket text (``"[777m](1111z)[2222p+]"``) or :class:`~tjmj.meld.Meld` objects.  A pon
    or kong shows its claimed tile sideways, an added kong its added tile sideways on top of it, a
    concealed kong its two outer tiles face down.  Tiles of a ``wilds`` kind carry the 混 badge.
    """
    scale = _scale(size)
    kinds = _kinds(concealed, "concealed")
    d = None if draw is None else _kind(draw, "draw")
    ms = melds_of(melds)
    wild_set = set(_kinds(wilds, "wilds"))
    row: _Row = []
    for k in kinds:
        row.append(_Column((_Spec(k, wild=k in wild_set),)))
    if d is not None:
        if row:
            row.append(APART_GAP - TILE_GAP)
        row.append(_Column((_Spec(d, wild=d in wild_set, highlight=True),)))
    for m in ms:
        if row:
            row.append(GROUP_GAP - TILE_GAP)
        specs = [_Spec(m.tile, wild=m.tile in wild_set)] * m.size
        row.extend(_meld_columns(m.type, specs, None))
    title = " ".join(
        [p for p in (format_tiles(kinds), TILE_TEXT[d] if d is not None else "") if p] + [str(m) for m in ms]
    )
    return _render_row(row, scale, title or "no tiles", "tjmj-hand")


class ArrangementLike(Protocol):
    """What :func:`arrangement` reads of an arrangement."""

    @property
    def groups(self) -> tuple[Group, ...]: ...

    @property
    def dragon(self) -> tuple[int, int, int] | None: ...


def arrangement_type() -> type[Any]:
    """The arrangement type :func:`arrangement` draws: the default family's (late: the drawing of
    tiles alone needs no family)."""
    from . import families

    cls: type[Any] = families.default().part("elements").Arrangement
    return cls


def arrangement(arr: ArrangementLike, *, size: float = 48) -> str:
    """The groups of an arrangement (:attr:`tjmj.families.tianjin.score.ScoreResult.arrangement`) side by side.

    Wild tiles carry the 混 badge and a label with the kind they play; the winning tile is
    outlined (class ``winning``); the three groups of a 龙 are underlined in red.  Exposed melds
    are drawn as in :func:`hand`.  The title is ``str(arr)``.
    """
    cls = arrangement_type()
    if not isinstance(arr, cls):
        raise TypeError(f"arrangement() needs a {cls.__module__}.{cls.__qualname__}, got {type(arr).__name__}")
    scale = _scale(size)
    row: _Row = []
    for gi, g in enumerate(arr.groups):
        if not isinstance(g, Group):
            raise TypeError(f"group {gi} of the arrangement is not a Group: {g!r}")
        if row:
            row.append(GROUP_GAP - TILE_GAP)
        specs = [
            _Spec(_kind(t), wild=bool(w), plays=_kind(p) if w else None, winning=i == g.winning)
            for i, (t, p, w) in enumerate(zip(g.tiles, g.plays, g.wild, strict=True))
        ]
        try:
            mtype = MeldType(g.kind)
        except ValueError:
            mtype = None
        if mtype is not None and len(specs) == mtype.size:
            row.extend(_meld_columns(mtype, specs, gi))
        else:
            row.extend(_Column((s,), gi) for s in specs)
    return _render_row(row, scale, str(arr) or "no groups", "tjmj-arrangement", dragon=arr.dragon or ())


@cache
def sprite() -> str:
    """Every tile as a ``<symbol>`` of one hidden SVG document, for pages that draw many tiles.

    Symbols (each ``viewBox="0 0 60 80"``, an upright tile): ``t-1m`` … ``t-7z`` (the 34 faces),
    ``t-1f`` … ``t-8f`` (MCR's flowers, 春夏秋冬梅兰竹菊), ``t-back`` (the back) and ``t-wild``
    (only the gold 混 badge, drawn over a face to mark a wild).
    One request draws a whole table at once (a slow link shows the whole hand together, not tile
    by tile); the symbols carry no ``<title>``: the page names each tile in words itself.
    """
    out = [f'<svg xmlns="{_SVG_NS}" aria-hidden="true" class="tjmj-sprite" width="0" height="0">']
    view = f"0 0 {TILE_W} {TILE_H}"
    for k in range(NUM_KINDS + len(FLOWER_TEXT)):
        kind = Tile(k) if k < NUM_KINDS else Flower(k)
        body = _tile_markup(_Spec(kind), 0, 0, title=False, label=False)
        out.append(f'<symbol id="t-{_code(kind)}" viewBox="{view}">{body}</symbol>')
    out.append(f'<symbol id="t-back" viewBox="{view}">{_tile_markup(_Spec(None, back=True), 0, 0, title=False)}</symbol>')
    out.append(f'<symbol id="t-wild" viewBox="{view}">{_badge(TILE_W)}</symbol>')
    out.append("</svg>")
    return "".join(out)


def render_sample(path: str | Path) -> Path:
    """Write an HTML page with all 34 tiles, the tile variants and sample hands; return its path."""
    from . import families  # late: only the sample needs a family

    default = families.default()
    score = default.part("score").score  # the default family's scorer explains the sample wins
    # the families whose rules deal the flowers, named after them
    with_flowers = ", ".join(f.short for f in families.all_families() if getattr(f.default_rules, "flowers", False))

    def section(name: str, items: Iterable[str]) -> str:
        return f"<h2>{html.escape(name)}</h2><div class=\"row\">{''.join(items)}</div>"

    parts = []
    for suit, name in zip("mpsz", ("万 characters", "饼 dots", "条 bamboo", "字 honours"), strict=True):
        n = 7 if suit == "z" else 9
        parts.append(section(name, (tile(f"{i}{suit}", size=56) for i in range(1, n + 1))))
    parts.append(section(f"花 flowers ({with_flowers})", (tile(f, size=56) for f in FLOWER_TEXT)))
    parts.append(section("wild, wild playing 7m, highlighted, back, sideways, sideways wild", [
        tile("5z", size=56, wild=True), tile("6z", size=56, wild=True, plays="7m"), tile("9m", size=56, highlight=True),
        tile(None, size=56, back=True), tile("3p", size=56, rotated=True),
        tile("6z", size=56, rotated=True, wild=True, plays="4p"),
    ]))
    parts.append(section("tiles('1123m456p789s55z6z', wilds='5z6z', drawn_apart=True, highlight_index=-1)", [
        tiles("1123m456p789s55z6z", wilds="5z6z", drawn_apart=True, highlight_index=-1)]))
    parts.append(section("hand('1123m4p55z', draw='6z', melds='[777s](1111z)[2222p+][9999m]', wilds='5z6z')", [
        hand("1123m4p55z", draw="6z", melds="[777s](1111z)[2222p+][9999m]", wilds="5z6z")]))
    samples = [
        ("123m456m8m23p55s56z", "9m", "5z", ""),
        ("123m456m789m3p", "3p", "1s", "[777z]"),
        ("345m11p999s67p", "1s", "1s", "[7777z+]"),
    ]
    for concealed, draw, indicator, melds in samples:
        r = score(concealed, draw, indicator, melds)
        if r.arrangement is not None:
            parts.append(section(f"arrangement: score({concealed!r}, draw={draw!r}, indicator={indicator!r}"
                                 f"{', melds=' + repr(melds) if melds else ''}) — {r.fan} fan",
                                 [arrangement(r.arrangement)]))
    page = (
        '<!DOCTYPE html>\n<html lang="zh"><head><meta charset="utf-8"><title>tjmj.svg sample</title><style>'
        "body{font-family:sans-serif;background:#efe9dc;margin:16px}h2{font-size:13px;font-weight:normal;"
        "color:#444;margin:10px 0 4px}.row{display:flex;gap:6px;flex-wrap:wrap;align-items:flex-end}"
        "</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n"
    )
    out = Path(path)
    out.write_text(page, encoding="utf-8")
    return out
