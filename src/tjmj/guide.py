"""A player's short guide per rule family — what wins, what scores, an example hand worked out — in
Chinese and English (issue 34 item 10).

The rules in docs/rules/ are specifications for implementers; these guides say the same for a
player, briefly, each point citing its section there (R…, B…, M…).  One source, two renderings: the
web table serves :func:`page` at ``/guide/FAMILY`` (``?lang=zh|en``), and docs/guide/ holds
:func:`markdown` and the example's picture (``python -m tjmj.guide docs/guide`` writes them;
tests/test_guide.py checks they are current, and that each example's score is what the family's
scorer gives).

Each family's guide is its part ``guide`` (``tjmj.families.<name>.guide``, found through the
registry), which defines ``GUIDE``, a :class:`Guide` (its ``family`` the family's name).  A family
without that module has no guide.  ``GUIDES`` (family name → guide) and ``FAMILIES`` (their names,
in the registry's order) are read from the registry when asked for.
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import families

__all__ = ["guides", "Guide", "Example", "page", "index_page", "markdown", "example_svg", "write_docs",
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


def guides() -> dict[str, Guide]:
    """Every registered family's guide, by family name, in the registry's order (a family whose
    package has no ``guide`` module is left out)."""
    out: dict[str, Guide] = {}
    for fam in families.all_families():
        try:
            part = fam.part("guide")
        except ModuleNotFoundError as e:
            if e.name != f"{fam.package}.guide":
                raise
            continue
        out[fam.name] = part.GUIDE
    return out


def __getattr__(name: str) -> Any:
    # GUIDES and FAMILIES as before, but read from the registry when asked for: a family's guide
    # module imports this one (Guide, Example), and a family registered later has its guide too
    if name == "GUIDES":
        return guides()
    if name == "FAMILIES":
        return tuple(guides())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _guide(family: str) -> Guide:
    return guides()[family]


def _name(family: str) -> Text:
    """The family's (Chinese, short English) name: (天津麻将, Tianjin)."""
    fam = families.get(family)
    return fam.chinese, fam.short


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

    ex = _guide(family).example
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
    for f in guides():
        name = html.escape(_t(_name(f), lang))
        cur = ' aria-current="page"' if f == current else ""
        links.append(f'<a href="/guide/{f}?lang={lang}"{cur}>{name}</a>')
    return f'<nav class="guide-families" aria-label="{_t(_WORDS["guides"], lang)}">{" · ".join(links)}</nav>\n'


def page(family: str, lang: str) -> str:
    """The guide of ``family`` as a whole HTML page in ``lang`` (``zh`` or ``en``)."""
    g = _guide(family)
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
    g = _guide(family)
    ex = g.example
    other = "zh" if lang == "en" else "en"
    lines = [f"# {_t(g.title, lang)}", "",
             f"[{_t(_WORDS['other'], lang)}]({_doc_name(family, other)}) · "
             + " · ".join(f"[{_t(_name(f), lang)}]({_doc_name(f, lang)})" for f in guides() if f != family), ""]
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
    for family in guides():
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
