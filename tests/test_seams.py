"""The seam between the family-neutral core and the rule families (issue 29), checked on the source:

* code outside ``src/tjmj/families/`` names no family (identifiers and string literals; comments and
  docstrings may), but for the few lines listed in :data:`ALLOWED`: clients ask the registry;
* no import circle among the modules' top-level imports (a function-level import, made on first use,
  is how the core reaches a family's parts through the registry);
* no source module over 1,000 lines.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "tjmj"

# A word that names a family or one of its presets: tianjin, beijing, mcr, classic, yiyou, alone or
# inside an identifier (McrRules, is_beijing, _TIANJIN_ONLY); not the project's own name
# (tianjin-mahjong, the pip package and the data directory).
FAMILY_WORD = re.compile(r"tianjin(?!-mahjong)|beijing|mcr|yiyou|classic", re.IGNORECASE)

# The lines outside families/ that may name a family, and why.
ALLOWED = {
    # the registry: the built-in family packages, by name, in the order menus list them
    ("families/__init__.py", 'BUILT_IN = ("tianjin", "beijing", "mcr")'),
}


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def family_lines(root: Path = SRC) -> list[tuple[str, int, str]]:
    """(path under src/tjmj, line number, line) of every code line outside families/<name>/ that names
    a family: an identifier or a string (not a comment or docstring) containing one of the words."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("families/") and rel != "families/__init__.py":
            continue
        text = path.read_text(encoding="utf-8")
        docs = _docstring_lines(ast.parse(text))
        hit: set[int] = set()
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            code = tok.type in (tokenize.NAME, tokenize.STRING) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1)
            if code and tok.start[0] not in docs and FAMILY_WORD.search(tok.string):
                hit.update(range(tok.start[0], tok.end[0] + 1))
        lines = text.splitlines()
        out += [(rel, n, lines[n - 1].strip()) for n in sorted(hit)]
    return out


def test_code_outside_the_families_names_no_family() -> None:
    found = [(rel, n, line) for rel, n, line in family_lines() if (rel, line.split("  #")[0]) not in ALLOWED]
    assert not found, "lines outside families/ that name a family:\n" + "\n".join(
        f"src/tjmj/{rel}:{n}: {line}" for rel, n, line in found)
    assert len(ALLOWED) <= 10


def test_the_check_finds_a_family_named_in_code(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "client.py").write_text('"""Talks about Beijing in its docstring."""\n# and MCR in a comment\n'
                                   'x = 1\nif rules.family == "beijing":\n    pass\nfrom .bots.mcr_strong import y\n'
                                   'url = "https://example.org/tianjin-mahjong"\n', encoding="utf-8")
    assert [n for _, n, _ in family_lines(tmp_path)] == [4, 6]


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: at its top level, in top-level ``if``/``try``
    blocks, but not under ``if TYPE_CHECKING`` (types only) and not inside functions."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                out.append(node)
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for h in node.handlers:
                    visit(h.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    return out


def import_graph(root: Path = SRC) -> dict[str, set[str]]:
    """Module → the package's modules its top-level imports load (a submodule's packages too)."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in _top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.level and node.module else (base if node.level else node.module or "")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for t in targets:
                while t and t not in files:  # import a.b.c of a non-module name: the module a.b
                    t = t.rpartition(".")[0]
                while t:  # importing a.b.c runs a/__init__ and a/b/__init__ first
                    if t in files and t != mod and not mod.startswith(t + "."):
                        graph[mod].add(t)
                    t = t.rpartition(".")[0]
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_circle() -> None:
    cycles = import_cycles(import_graph())
    assert not cycles, "import circles (top-level imports): " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_circle_check_finds_a_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import c\n"
                                      "def f():\n    from .. import a\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert import_cycles(import_graph(pkg)) == []
    (pkg / "sub" / "b.py").write_text("from ..c import thing\n")
    assert import_cycles(import_graph(pkg)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_no_module_over_a_thousand_lines() -> None:
    big = {p.relative_to(SRC).as_posix(): n for p in SRC.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 1000}
    assert not big, f"modules over 1,000 lines: {big}"
