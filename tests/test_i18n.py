"""Issue 11 (c): every string of every page in both languages; a test fails on any key missing.

The table of strings is read from ``src/tjmj/web/static/i18n.js`` without a JS engine: the object
literal ``const STRINGS = { key: ["中文", "English"], … }`` is parsed by :func:`parse_strings` (keys
bare or quoted, strings in any JS quotes, ``+`` between strings, comments, trailing commas; a value
may also be an object of plural forms, ``{one: …, other: …}`` per language).  Plural forms are
separate keys ``key_one`` / ``key_other`` read by ``tn("key", n)``.

Static checks (no browser):

* no key is defined twice (a JS object keeps the last silently), none has an empty or missing side;
* the placeholders ``{0}``, ``{1}`` … are the same in both languages (a ``_one`` form may leave the
  count ``{0}`` out in one of them: "a hand");
* every key the pages use exists: ``t("key")`` / ``tn("key", n)`` literals in every static .js file
  (``tn`` needs ``key_other``, and ``key_one`` with it), ``data-i18n*="key"`` in HTML and JS; for a
  template key (``t(`why_${f.key}`)``) some key has its prefix, and each value the Python side can
  produce for the known prefixes (rule families, presets, payment factors ``why_*``) has its key.

Browser checks (Chromium, the desktop viewport): the lobby, the table at the player's turn, the
settlement, the history and the replay, opened in English then in Chinese; the text a person sees
or hears (visible text nodes, the ``<title>`` of tile images, ``aria-label``, ``title``,
``placeholder``, ``alt`` of visible elements, ``<option>`` texts, the document title) must be in that
language.  In English no CJK character may appear, except: inside an element marked
``lang="zh…"`` (language of parts: the Chinese names of the elements, a 中文 switch), a Chinese
term the English table itself uses (``Sit (坐庄)``: the terms of art are allowed where the English
strings spell them), the Chinese name of a scoring element (or a combination of them, 捉伍儿龙) where
the element's English name shows on the same page (the settlement's 中文 / English columns), and
the brand ``天津麻将``/``北京麻将``.  In Chinese no Latin word (two letters
or more) may appear, except: inside ``lang="en…"``, words the Chinese table itself uses, codes in
capitals or digits (the room code, element codes such as ``QYS``), tile codes such as ``5m`` (one
letter: not a word), the preset identifiers (``classic``, ``beijing_a``), the English names of the
scoring elements whose Chinese name shows on the same page, and the brand.  The text
drawn inside tile images (the glyphs of the sprite's symbols) is not read.  And no text that looks
like a raw key (``wind_0``: what ``t`` shows for a missing key) appears in either language.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.ui_helpers import SETTLEMENT, VIEWPORTS, Session, serve
from tjmj.rules import FAMILIES, PRESETS

STATIC = Path(__file__).resolve().parents[1] / "src" / "tjmj" / "web" / "static"
SETTLEMENT_PY = STATIC.parent / "settlement.py"
LANGS = ("zh", "en")
PLACEHOLDER = re.compile(r"\{(\d+)\}")

# ---- reading i18n.js ------------------------------------------------------------------------------


@dataclass
class Entry:
    key: str
    line: int
    values: dict[str, list[str]] = field(default_factory=dict)  # lang -> its texts (one, or the plural forms)


class JSLiteral:
    """A small reader of a JS object literal of strings, arrays and objects (no expressions beyond
    ``"a" + "b"``)."""

    TOKEN = re.compile(r"""
        (?P<space>\s+|//[^\n]*|/\*.*?\*/)
      | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.|\$(?!\{))*`)
      | (?P<name>[A-Za-z_$][\w$]*|\d+)
      | (?P<punct>[{}\[\]:,+])
    """, re.VERBOSE | re.DOTALL)

    def __init__(self, text: str, start: int) -> None:
        self.tokens: list[tuple[str, str, int]] = []
        pos, line, depth = start, text.count("\n", 0, start) + 1, 0
        while pos < len(text):
            m = self.TOKEN.match(text, pos)
            if not m:
                raise ValueError(f"i18n.js line {line}: cannot read {text[pos:pos + 40]!r}")
            kind, tok = m.lastgroup or "", m.group()
            if kind != "space":
                self.tokens.append((kind, tok, line))
            line += tok.count("\n")
            pos = m.end()
            if kind == "punct" and tok in "{[":
                depth += 1
            elif kind == "punct" and tok in "}]":
                depth -= 1
                if depth == 0:
                    break
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self, expected: str | None = None) -> tuple[str, str, int]:
        tok = self.tokens[self.i]
        if expected is not None and tok[1] != expected:
            raise ValueError(f"i18n.js line {tok[2]}: expected {expected!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def value(self) -> Any:
        kind, tok, line = self.peek()
        if tok == "[":
            self.take("[")
            items = []
            while self.peek()[1] != "]":
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("]")
            return items
        if tok == "{":
            return {k: v for k, v, _ in self.members()}
        if kind == "string":
            s = self._string(self.take()[1])
            while self.peek()[1] == "+":
                self.take("+")
                s += self._string(self.take()[1])
            return s
        raise ValueError(f"i18n.js line {line}: unexpected {tok!r}")

    def members(self) -> list[tuple[str, Any, int]]:
        """The members of an object, in order, duplicates kept: (key, value, line)."""
        self.take("{")
        out = []
        while self.peek()[1] != "}":
            kind, tok, line = self.take()
            key = self._string(tok) if kind == "string" else tok
            self.take(":")
            out.append((key, self.value(), line))
            if self.peek()[1] == ",":
                self.take(",")
        self.take("}")
        return out

    @staticmethod
    def _string(tok: str) -> str:
        body = tok[1:-1]
        return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)", lambda m: _unescape(m.group(1)), body)


def _unescape(esc: str) -> str:
    if esc.startswith("u{"):
        return chr(int(esc[2:-1], 16))
    if esc.startswith("u") and len(esc) == 5:
        return chr(int(esc[1:], 16))
    return {"n": "\n", "t": "\t"}.get(esc, esc)


def parse_strings(text: str) -> list[Entry]:
    """The entries of ``const STRINGS = {…}`` in order (a key defined twice appears twice)."""
    m = re.search(r"\bconst\s+STRINGS\s*=\s*\{", text)
    assert m, "i18n.js has no `const STRINGS = {` literal"
    reader = JSLiteral(text, m.end() - 1)
    entries = []
    for key, value, line in reader.members():
        entry = Entry(key, line)
        if isinstance(value, list):
            for lang, v in zip(LANGS, value):
                entry.values[lang] = _texts(v)
        elif isinstance(value, dict) and set(value) >= set(LANGS):  # {zh: …, en: …}
            for lang in LANGS:
                entry.values[lang] = _texts(value[lang])
        else:
            raise AssertionError(f"i18n.js line {line}: {key} is neither [zh, en] nor {{zh, en}}")
        entries.append(entry)
    return entries


def _texts(v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):  # plural forms {one: …, other: …}
        return [x for val in v.values() for x in _texts(val)]
    raise AssertionError(f"not a string nor plural forms: {v!r}")


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    return parse_strings((STATIC / "i18n.js").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def strings(entries: list[Entry]) -> dict[str, Entry]:
    return {e.key: e for e in entries}


# ---- the table itself -----------------------------------------------------------------------------


def test_the_parser_reads_every_entry(entries: list[Entry]) -> None:
    """As many entries as lines that open one (`  key: [`), so a shape the parser misreads shows."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    block = text[text.index("const STRINGS"):]
    block = block[:block.index("\n};") + 3]
    opened = re.findall(r"^\s*(?:[A-Za-z_$][\w$]*|\"[^\"]+\"|'[^']+')\s*:\s*[\[{]", block, re.MULTILINE)
    assert len(entries) == len(opened) > 100, (len(entries), len(opened))


def test_no_key_is_defined_twice(entries: list[Entry]) -> None:
    twice = {k: [e.line for e in entries if e.key == k] for k, n in Counter(e.key for e in entries).items() if n > 1}
    assert not twice, f"keys defined more than once (JS keeps the last): {twice}"


def test_every_key_has_both_languages_and_no_empty_text(entries: list[Entry]) -> None:
    bad = [f"{e.key} (line {e.line}): {lang} is {'missing' if lang not in e.values else 'empty'}"
           for e in entries for lang in LANGS if not e.values.get(lang) or not all(x.strip() for x in e.values[lang])]
    assert not bad, "\n".join(bad)


def test_placeholders_match_between_the_languages(entries: list[Entry]) -> None:
    bad = []
    for e in entries:
        found = {lang: {p for x in e.values.get(lang, []) for p in PLACEHOLDER.findall(x)} for lang in LANGS}
        zh, en = found["zh"], found["en"]
        if e.key.endswith("_one"):  # "a hand": the count may go unsaid in one language
            zh, en = zh - {"0"}, en - {"0"}
        if zh != en:
            bad.append(f"{e.key} (line {e.line}): zh has {sorted(found['zh'])}, en has {sorted(found['en'])}")
    assert not bad, "\n".join(bad)


# ---- the keys the pages use -----------------------------------------------------------------------

CALL = re.compile(r"""(?<![\w$.])(tn?)\(\s*(["'`])((?:(?!\2)[^\\]|\\.)*)\2""")
ATTR = re.compile(r"""data-i18n(?:-[a-z-]+)?\s*=\s*["']([^"']+)["']|["']data-i18n(?:-[a-z-]+)?["']\s*:\s*["']([^"']+)["']""")


JS_SKIP = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|//[^\n]*|/\*.*?\*/""", re.DOTALL)


def code_only(js: str) -> str:
    """The JS without its comments (a comment may quote ``t("key", a)`` as an example)."""
    return JS_SKIP.sub(lambda m: m.group(1) or "", js)


def uses() -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """(t keys, tn keys, template prefixes), each key → the files using it."""
    plain: dict[str, set[str]] = {}
    plural: dict[str, set[str]] = {}
    prefixes: dict[str, set[str]] = {}
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".js":
            text = code_only(text)
            for fn, quote, key in CALL.findall(text):
                if quote == "`" and "${" in key:
                    prefixes.setdefault(key.split("${")[0], set()).add(path.name)
                else:
                    (plural if fn == "tn" else plain).setdefault(key, set()).add(path.name)
        for a, b in ATTR.findall(text):
            plain.setdefault(a or b, set()).add(path.name)
    return plain, plural, prefixes


def python_values() -> dict[str, set[str]]:
    """The values the server may send for the template keys' prefixes."""
    why = set(re.findall(r"""["']key["']\s*:\s*["'](\w+)["']""", SETTLEMENT_PY.read_text(encoding="utf-8")))
    return {"family_": set(FAMILIES), "why_": why}


def test_every_key_the_pages_use_exists(strings: dict[str, Entry]) -> None:
    plain, plural, prefixes = uses()
    assert len(plain) > 50, "the scan found too few t(\"key\") calls: has the calling convention changed?"
    missing = [f"{k} (used in {', '.join(sorted(f))})" for k, f in plain.items() if k not in strings]
    for k, f in plural.items():
        missing += [f"{k}{form} (tn in {', '.join(sorted(f))})" for form in ("_one", "_other") if k + form not in strings]
    for prefix, f in prefixes.items():
        if prefix and not any(k.startswith(prefix) for k in strings):
            missing.append(f"{prefix}… (a template key in {', '.join(sorted(f))}): no key has that prefix")
    for prefix, values in python_values().items():
        if prefix in prefixes:
            missing += [f"{prefix}{v} (a value the server sends)" for v in sorted(values) if prefix + v not in strings]
    for prefix in (p for p in prefixes if p.startswith("preset_")):
        missing += [f"{prefix}{p} (a preset)" for p in PRESETS if prefix + p not in strings]
    assert not missing, "keys used but not in i18n.js:\n" + "\n".join(missing)


# ---- what each page shows, in each language -------------------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
CODE = re.compile(r"^[A-Z0-9_]+$")
RAW_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
BRAND = {"天津麻将", "北京麻将", "Tianjin", "Mahjong", "Beijing"}
NAMES = {"en": "Ada", "zh": "阿达"}

TEXTS_JS = r"""
() => {
  const out = [];
  const shown = (el) => el && el.checkVisibility({visibilityProperty: true});
  const langOf = (el) => { const x = el && el.closest('[lang]'); return x ? x.getAttribute('lang').toLowerCase() : ''; };
  const drawn = (el) => el.closest('symbol, defs, text, script, style, noscript, template');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.replace(/\s+/g, ' ').trim();
    if (!text || !el || drawn(el)) continue;
    if (el.tagName.toLowerCase() === 'title' && el.closest('svg')) {  // a tile's name
      if (shown(el.closest('svg'))) out.push([text, langOf(el), 'tile title']);
      continue;
    }
    if (el.tagName.toLowerCase() === 'option' ? shown(el.closest('select')) : shown(el)) out.push([text, langOf(el), 'text']);
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description]')) {
    if (drawn(el) || !shown(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
      const v = (el.getAttribute(a) || '').trim();
      if (v) out.push([v, langOf(el), a]);
    }
  }
  out.push([document.title, document.documentElement.lang.toLowerCase(), 'document title']);
  return out;
}
"""


def element_names() -> list[tuple[str, str]]:
    """(Chinese, English) names of the scoring elements of every family."""
    from tjmj.families.beijing import elements as beijing
    from tjmj.families.tianjin import elements as tianjin
    return [(e.chinese, e.english) for e in (*tianjin.ELEMENTS, *beijing.ELEMENTS)]


def _segments(run: str, names: set[str]) -> list[str] | None:
    """``run`` cut into names (a combination such as 捉伍儿龙), or None."""
    best: list[list[str] | None] = [[]] + [None] * len(run)
    for i in range(len(run)):
        if best[i] is None:
            continue
        for n in names:
            if run.startswith(n, i) and best[i + len(n)] is None:
                best[i + len(n)] = [*best[i], n]  # type: ignore[misc]
    return best[-1]


def foreign(texts: list[list[str]], lang: str, strings: dict[str, Entry], allowed_extra: set[str]) -> list[str]:
    """The texts of a page in the other language, less what the allow-lists of the docstring allow."""
    en_terms = {run for e in strings.values() for x in e.values.get("en", []) for run in CJK.findall(x)}
    zh_words = {w.lower() for e in strings.values() for x in e.values.get("zh", []) for w in LATIN_WORD.findall(x)}
    presets = {p.lower() for p in PRESETS}
    page = " ".join(t[0] for t in texts).lower()
    elements = element_names()
    english_of: dict[str, set[str]] = {}
    for zh, en in elements:
        english_of.setdefault(zh, set()).add(en.lower())
    # an element's name in the other language, where its name in the page's language also shows
    shown_zh = {w.lower() for zh, en in elements if zh in page for w in LATIN_WORD.findall(en)}

    def element_ok(run: str) -> bool:
        parts = _segments(run, set(english_of))
        return bool(parts) and all(any(en in page for en in english_of[p]) for p in parts or [])

    problems = []
    for text, part_lang, where in texts:
        if lang == "en":
            if part_lang.startswith("zh"):
                continue
            bad = [r for r in CJK.findall(text)
                   if not any(r in t for t in en_terms) and r not in BRAND and r not in allowed_extra
                   and not element_ok(r)]
        else:
            if part_lang.startswith("en"):
                continue
            bad = [w for w in LATIN_WORD.findall(text)
                   if w.lower() not in zh_words and w.lower() not in presets and not CODE.match(w)
                   and w not in BRAND and w not in allowed_extra and w.lower() not in shown_zh]
        raw = [k for k in RAW_KEY.findall(text) if k not in presets]
        if bad:
            problems.append(f"{where}: {text[:90]!r} — {', '.join(dict.fromkeys(bad))}")
        if raw:
            problems.append(f"{where}: {text[:90]!r} looks like an untranslated key: {', '.join(raw)}")
    return list(dict.fromkeys(problems))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("i18n") / "i18n.sqlite3") as base:
        yield base


@pytest.fixture(scope="module")
def shown(server: str, browser: Browser) -> Iterator[dict[str, dict[str, tuple[list[list[str]], set[str]]]]]:
    """What each page shows in each language: {lang: {page: (texts, allowed extras)}} (made on demand)."""
    cache: dict[str, dict[str, tuple[list[list[str]], set[str]]]] = {}
    yield cache


def collect(cache: dict[str, dict[str, tuple[list[list[str]], set[str]]]], server: str, browser: Browser,
            lang: str) -> dict[str, tuple[list[list[str]], set[str]]]:
    """One room per language, played from the turn to the settlement; then the history, the replay."""
    if lang in cache:
        return cache[lang]
    got = cache[lang] = {}
    s = Session(browser, server, VIEWPORTS[3], lang, name=NAMES[lang])
    try:
        page = s.new_page("/")
        expect(page.locator("main")).to_be_visible()
        got["lobby"] = (page.evaluate(TEXTS_JS), set())
        page.close()
        page = s.new_page("/calc")  # the calculator with a scored hand: its names in both languages
        page.locator("[data-testid=calc-text]").fill("123m678p999p234s4p")
        page.locator("[data-target=indicator]").click()
        page.locator("#palette button[data-tile='4p']").click()
        page.locator("[data-target=win]").click()
        page.locator("#palette button[data-tile='5m']").click()
        expect(page.locator("[data-testid=calc-names] li").first).to_be_visible()
        got["calc"] = (page.evaluate(TEXTS_JS), set())
        page.close()
        page = s.turn()
        assert s.seat is not None
        extra = {*NAMES.values(), s.seat.room}  # the history lists both languages' matches
        got["table"] = (page.evaluate(TEXTS_JS), extra)
        s.settle()
        with contextlib.suppress(AssertionError):  # (test_ui_layout.py fails on a missing dialog)
            expect(page.locator(SETTLEMENT)).to_be_visible(timeout=5000)
        got["settlement"] = (page.evaluate(TEXTS_JS), extra)
        page = s.new_page("/history")
        expect(page.locator(f"a[href='/replay/{s.seat.match_id}']").first).to_be_attached()
        got["history"] = (page.evaluate(TEXTS_JS), extra)
        page = s.new_page(f"/replay/{s.seat.match_id}")
        expect(page.locator("main")).to_contain_text(NAMES[lang])
        got["replay"] = (page.evaluate(TEXTS_JS), extra)
    finally:
        s.close()
    return got


PAGES = ["lobby", "calc", "table", "settlement", "history", "replay"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", PAGES)
def test_each_page_speaks_one_language(shown: dict[str, Any], server: str, browser: Browser,
                                       strings: dict[str, Entry], lang: str, where: str) -> None:
    pages = collect(shown, server, browser, lang)
    assert where in pages, f"the {where} page could not be reached in {lang} (an earlier step failed)"
    texts, extra = pages[where]
    assert len(texts) > 5, f"the {where} page shows almost no text: {texts}"
    problems = foreign(texts, lang, strings, extra)
    other = "Chinese" if lang == "en" else "English"
    assert not problems, f"{where} in {lang}: {len(problems)} text(s) in {other}\n  " + "\n  ".join(problems)


def test_the_page_language_follows_the_choice(shown: dict[str, Any], server: str, browser: Browser) -> None:
    """``<html lang>`` says the language shown (screen readers pick their voice by it)."""
    for lang, want in (("en", "en"), ("zh", "zh")):
        pages = collect(shown, server, browser, lang)
        for where, (texts, _) in pages.items():
            title_lang = next(x[1] for x in texts if x[2] == "document title")
            assert title_lang.startswith(want), f"{where} in {lang}: <html lang={title_lang!r}>"
