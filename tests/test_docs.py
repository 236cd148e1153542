"""The documentation is true: its code blocks run, its links resolve, the rules it ships are the spec's.

Conventions for the Markdown files (README.md and docs/*.md):

* Every fenced block tagged ``python`` (or ``py``) is run, one pytest case per block, id
  ``FILE:LINE`` (the line of the opening fence), in a fresh namespace in a temporary directory.
* Every fenced block tagged ``sh``, ``shell``, ``bash`` or ``console`` is read as command lines
  (``\\``-continued lines joined, ``# comments`` dropped). In a block with ``$ `` prompts only the
  prompt lines are commands and the lines under a command are its output; without prompts every
  line is a command and no output is shown. A command is run when it is ``tjmj …`` or
  ``echo TEXT | tjmj …``: through Click's ``CliRunner`` against :func:`tjmj.cli.main`, in a
  temporary directory shared by the lines of the block (so ``simulate --out x.jsonl`` then
  ``replay x.jsonl`` works), with 80 columns and the repository's ``examples/`` linked in (outside
  bots such as ``cmd:python examples/bots/simple_bot.py`` run as written). Besides:
  - ``tjmj serve`` is never run (it does not return), nor is any other program;
  - a line that names a file (``*.jsonl``, ``*.json``, ``*.py``, …) which does not exist is skipped,
    unless an earlier line of the block made it; ``$ cat FILE`` with output shown, FILE missing,
    makes FILE from that output (so a block can show its input file and then use it);
  - ``| head -N``, ``| head -c N`` and ``| less`` after the command are applied to its output;
    ``> FILE`` writes the output to FILE; ``; echo TEXT`` appends TEXT (``$?``: the exit status);
  - the exit status must be 0, unless the output shown holds an ``Error:`` or ``Usage:`` line (then
    it must not be 0) or the line echoes ``$?`` (then the output says what it must be);
  - output shown is compared like a doctest with ELLIPSIS and NORMALIZE_WHITESPACE: ``…`` stands
    for any text (across lines too), runs of spaces count as one, as do runs of a table's rule
    characters (``━``, ``─``), so a column a few characters wider or narrower still matches.
  A block in which nothing could run is skipped, saying why.
* A block that must not run (a fragment, a sketch needing a live server) carries the HTML comment
  ``<!-- not-run: REASON -->`` on the line just before its opening fence (invisible on GitHub,
  visible in the source); REASON may not be empty. Keep these rare.
* An untagged block that holds ``$ tjmj`` prompt lines is an error: tag it ``console`` so it runs.
* Relative links (``[text](path)``, ``[text](path#anchor)``) must name a file or folder that exists
  and, for ``*.md#anchor``, a heading of that file (GitHub's anchors).

``PENDING`` lists the cases (block or link ids) of files that other work is rewriting at the moment:
they are expected to fail for now (``xfail``, not strict) and the list is to be emptied.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from tjmj.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "spec"  # the project's specification, beside the repository
RULES_COPIES = ROOT / "docs" / "rules"

# Cases expected to fail until their file is fixed (files others are rewriting): a case id
# (``FILE:LINE``, ``FILE:LINE:TARGET`` for a link) or FILE (all its code blocks: their lines move
# while the file is rewritten) -> why. Empty it as they are fixed.
PENDING: dict[str, str] = {}

DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(RULES_COPIES.glob("*.md")),
             *sorted((ROOT / "docs" / "guide").glob("*.md"))]
RUN_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]  # docs/rules/ is the spec: not run

PYTHON_TAGS = {"python", "py"}
SHELL_TAGS = {"sh", "shell", "bash", "console"}
NOT_RUN = re.compile(r"^\s*<!--\s*not-run:(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}(?=[^`]*$)|~{3,})\s*([\w+-]*)")  # CommonMark: no ` after a ``` fence


def closes(line: str, fence: str) -> bool:
    return re.fullmatch(rf"\s*{fence[0]}{{{len(fence)},}}\s*", line) is not None
NEEDS_FILE = re.compile(r"^[\w./-]+\.(jsonl|json|py|txt|csv|html|log|sqlite3?)$")
MAKES_FILE = {"--out", "--bot-log"}  # options whose value is a file the command writes


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@dataclass
class Block:
    file: Path
    line: int  # 1-based line of the opening fence
    tag: str
    text: str
    not_run: str | None  # the reason, when marked <!-- not-run: … -->

    @property
    def id(self) -> str:
        return f"{rel(self.file)}:{self.line}"


def blocks_of(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, tag = len(m.group(1)), m.group(2), m.group(3).lower()
        start, body = i, []
        i += 1
        while i < len(lines) and not closes(lines[i], fence):
            line = lines[i]
            body.append(line[indent:] if not line[:indent].strip() else line.lstrip())  # fences in a list item
            i += 1
        i += 1
        mark = NOT_RUN.match(lines[start - 1]) if start else None
        found.append(Block(path, start + 1, tag, "\n".join(body) + "\n", mark.group(1).strip() if mark else None))
    return found


ALL_BLOCKS = [b for f in RUN_FILES for b in blocks_of(f)]
PYTHON_BLOCKS = [b for b in ALL_BLOCKS if b.tag in PYTHON_TAGS]
SHELL_BLOCKS = [b for b in ALL_BLOCKS if b.tag in SHELL_TAGS]


def pending(case_id: str, *values: object, whole_file: bool = True) -> object:
    """The case, marked xfail when PENDING names it (or, for a code block, its file)."""
    key = next((k for k in (case_id, case_id.split(":")[0] if whole_file else None) if k in PENDING), None)
    marks = [pytest.mark.xfail(reason=f"PENDING: {PENDING[key]}", strict=False)] if key else []
    return pytest.param(*values, id=case_id, marks=marks)


def test_pending_names_real_cases() -> None:
    """Every PENDING id names a case that exists (a stale entry would hide nothing and mislead)."""
    ids = {b.id for b in ALL_BLOCKS} | {f"{rel(f)}:{n}:{t}" for f in DOC_FILES for n, t in links_of(f)}
    ids |= {rel(f) for f in DOC_FILES}
    assert set(PENDING) <= ids, sorted(set(PENDING) - ids)


def test_blocks_are_found() -> None:
    """The collection itself works: the README's own Python and console blocks are among the cases."""
    readme = [b for b in ALL_BLOCKS if b.file.name == "README.md"]
    assert {"python", "console"} <= {b.tag for b in readme}
    assert all(b.not_run is None or b.not_run for b in ALL_BLOCKS)  # a mark gives its reason


# ------------------------------------------------------------------------------------------
# Python blocks
# ------------------------------------------------------------------------------------------


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    # `python` in a doc (e.g. an outside bot's command) is this interpreter, as in an activated venv
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return tmp_path


@pytest.mark.parametrize("block", [pending(b.id, b) for b in PYTHON_BLOCKS])
def test_python_block(block: Block, in_tmp: Path) -> None:
    if block.not_run is not None:
        pytest.skip(f"marked not-run: {block.not_run}")
    code = compile(block.text, block.id, "exec")
    exec(code, {"__name__": "__doc_block__"})


# ------------------------------------------------------------------------------------------
# Shell and console blocks
# ------------------------------------------------------------------------------------------


@dataclass
class Command:
    line: str  # as written, without the prompt
    output: str | None  # the output shown under it (console blocks with prompts), else None


def commands_of(block: Block) -> list[Command]:
    raw = block.text.splitlines()
    joined: list[str] = []
    for line in raw:  # join backslash-continued lines
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + line.strip()
        else:
            joined.append(line)
    if not any(line.startswith("$ ") for line in joined):
        return [Command(line.strip(), None) for line in joined if line.strip() and not line.lstrip().startswith("#")]
    cmds: list[Command] = []
    out: list[str] = []
    for line in [*joined, "$ "]:
        if line.startswith("$ "):
            if cmds:
                text = "\n".join(out).strip("\n")
                cmds[-1].output = text or None
            out = []
            if line[2:].strip():
                cmds.append(Command(line[2:].strip(), None))
        else:
            out.append(line)
    return cmds


def tokens(line: str) -> list[str]:
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def pipelines(toks: list[str]) -> list[list[list[str]]]:
    """The command line as a sequence (split at ; and &&) of pipelines (split at |) of commands."""
    seq: list[list[list[str]]] = [[[]]]
    for t in toks:
        if t in (";", "&&"):
            seq.append([[]])
        elif t == "|":
            seq[-1].append([])
        else:
            seq[-1][-1].append(t)
    return seq


def needed_files(args: list[str]) -> list[str]:
    needed = []
    for i, a in enumerate(args):
        if i and args[i - 1] in MAKES_FILE or a.startswith("-") and "=" not in a:
            continue
        for word in re.split(r"[\s,=]+", a.removeprefix("cmd:")):
            if NEEDS_FILE.match(word):
                needed.append(word)
    return needed


def normalize(text: str) -> str:
    lines = [re.sub(r"━+", "━", re.sub(r"─+", "─", re.sub(r"[ \t]+", " ", ln))).strip() for ln in text.splitlines()]
    return "\n".join(lines).strip("\n")


def matches(expected: str, actual: str) -> bool:
    """``…`` is any text; a line holding only ``…`` is any number of lines, none included."""
    lines = normalize(expected).split("\n")
    pattern = ""
    for i, line in enumerate(lines):
        if line == "…":  # its own line break goes with it: before it, or after it when it comes first
            pattern += "(?:\n.*?)?" if i else ".*" if len(lines) == 1 else "(?:.*?\n)?"
        else:
            newline = "\n" if i > 1 or i == 1 and lines[0] != "…" else ""
            pattern += newline + ".*?".join(re.escape(p) for p in line.split("…"))
    return re.fullmatch(pattern, normalize(actual), re.DOTALL) is not None


class NotRun(Exception):
    """This line is not run (with the reason)."""


def run_line(cmd: Command, cwd: Path) -> str | None:
    """Run one command line; returns what to compare with the output shown, or raises NotRun."""
    toks = tokens(cmd.line)
    seq = pipelines(toks)
    first = seq[0]
    if first[0][:1] == ["cat"] and len(first) == 1 and len(first[0]) == 2 and len(seq) == 1:
        target = cwd / first[0][1]
        if target.exists() or cmd.output is None:
            raise NotRun(f"cat {first[0][1]}: nothing to check")
        target.write_text(cmd.output + "\n", encoding="utf-8")
        return None
    stdin = None
    if first[0][:1] == ["echo"] and len(first) >= 2:
        stdin = " ".join(first[0][1:]) + "\n"
        first = first[1:]
    if first[0][:1] != ["tjmj"]:
        raise NotRun(f"not a tjmj command: {cmd.line}")
    args = first[0][1:]
    if args[:1] == ["serve"]:
        raise NotRun("tjmj serve does not return")
    redirect = None
    if ">" in args:
        at = args.index(">")
        assert len(args) == at + 2, f"{cmd.line!r}: '> FILE' must end the command"
        args, redirect = args[:at], args[at + 1]
    missing = [f for f in needed_files(args) if not (cwd / f).exists()]
    if missing:
        raise NotRun(f"needs {', '.join(missing)}, which does not exist here")
    env = {"COLUMNS": "80", "LINES": "25", "NO_COLOR": "1", "TERM": "dumb"}
    res = CliRunner().invoke(main, args, input=stdin, env=env, catch_exceptions=False)
    out = res.output
    for stage in first[1:]:  # filters after the command
        if stage[:2] == ["head", "-c"]:
            out = out.encode()[: int(stage[2])].decode(errors="ignore")
        elif stage[:1] == ["head"]:
            n = int(stage[1].lstrip("-n")) if len(stage) > 1 else 10
            out = "".join(out.splitlines(keepends=True)[:n])
        elif stage == ["less"]:
            pass
        else:
            raise AssertionError(f"{cmd.line!r}: the test cannot run '| {' '.join(stage)}'")
    echoes_status = False
    for pipeline in seq[1:]:
        assert len(pipeline) == 1 and pipeline[0][:1] == ["echo"], f"{cmd.line!r}: only '; echo …' may follow"
        text = " ".join(pipeline[0][1:])
        echoes_status |= "$?" in text
        out += text.replace("$?", str(res.exit_code)) + "\n"  # as a shell would: right after the output
    if redirect is not None:
        (cwd / redirect).write_text(out, encoding="utf-8")
        out = ""
    shown = cmd.output or ""
    error_shown = re.search(r"^(Error|Usage):", shown, re.MULTILINE) is not None
    if not echoes_status:
        if error_shown:
            assert res.exit_code != 0, f"{cmd.line!r}: the doc shows an error, the command exited 0:\n{out}"
        else:
            assert res.exit_code == 0, f"{cmd.line!r}: exit status {res.exit_code}\n{out}"
    return out


@pytest.mark.parametrize("block", [pending(b.id, b) for b in SHELL_BLOCKS])
def test_shell_block(block: Block, in_tmp: Path) -> None:
    if block.not_run is not None:
        pytest.skip(f"marked not-run: {block.not_run}")
    ran, skipped = 0, []
    for cmd in commands_of(block):
        try:
            out = run_line(cmd, in_tmp)
        except NotRun as why:
            skipped.append(str(why))
            continue
        ran += 1
        if cmd.output is not None and out is not None:
            assert matches(cmd.output, out), (
                f"{block.id}: the output of {cmd.line!r} differs from the doc.\n"
                f"--- shown ---\n{cmd.output}\n--- actual ---\n{out}"
            )
    if not ran:
        pytest.skip("; ".join(skipped) or "no command lines")


def test_doc_output_matching() -> None:
    """The matcher itself: ellipsis, spacing and rule lengths are loose; anything else is not."""
    assert matches("a … d\n│ x │", "a b c d\n│   x  │")
    assert matches("┏━━┓\n…", "┏━━━━━┓\nmore\nlines")
    assert matches("a\n…\nb", "a\nb") and matches("a\n…\nb", "a\nx\ny\nb") and matches("…\nb", "b")
    assert matches("a\n…", "a") and not matches("a\n…\nb", "a\nc") and matches("…", "x\ny")
    assert not matches("fan 28", "fan 27")
    assert not matches("WIN", "WIN\nand more")


def test_console_lines_are_parsed() -> None:
    """Prompts, output, continuations and pipes are read as the module docstring says."""
    block = Block(ROOT, 1, "console", "$ tjmj a \\\n  b   # note\nout 1\n\n$ echo '{\"k\": 1}' | tjmj c | head -2\n", None)
    cmds = commands_of(block)
    assert [c.output for c in cmds] == ["out 1", None]
    assert tokens(cmds[0].line) == ["tjmj", "a", "b"]
    assert pipelines(tokens(cmds[1].line)) == [[["echo", '{"k": 1}'], ["tjmj", "c"], ["head", "-2"]]]
    assert needed_files(["tournament", "--bots", "cmd:python examples/x.py,baseline", "--out", "o.jsonl"]) == [
        "examples/x.py"
    ]


# ------------------------------------------------------------------------------------------
# Untagged transcripts, links
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in RUN_FILES])
def test_transcripts_are_tagged(path: Path) -> None:
    """A block showing ``$ tjmj`` lines is a transcript: tagged ``console`` it is run and checked."""
    untagged = [b.id for b in blocks_of(path) if not b.tag and re.search(r"^\$ tjmj ", b.text, re.MULTILINE)]
    assert not untagged, f"tag these blocks ```console so that they are tested: {untagged}"


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def links_of(path: Path) -> list[tuple[int, str]]:
    """(line, target) of every relative link outside code blocks and code spans."""
    found, fence = [], None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if m:
            fence = None if fence and closes(line, fence) else (fence or m.group(2))
            continue
        if fence:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "``", line)):
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: …
                found.append((n, target))
    return found


def anchors_of(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1 -2 on repeats."""
    seen: dict[str, int] = {}
    fence = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = FENCE.match(line)
        if m:
            fence = None if fence and closes(line, fence) else (fence or m.group(2))
            continue
        h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fence or not h:
            continue
        # an underscore inside a word (`belief_fit.py`) stays, as on GitHub; one that marks emphasis goes
        text = re.sub(r"[`*]|<[^>]+>|(?<!\w)_+|_+(?!\w)", "", h.group(1)).lower()
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        slug = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        if n:
            seen[f"{slug}-{n}"] = 1
    return set(seen)


LINK_CASES = [(f, n, t) for f in DOC_FILES for n, t in links_of(f)]


@pytest.mark.parametrize("path, line, target", [pending(f"{rel(f)}:{n}:{t}", f, n, t, whole_file=False) for f, n, t in LINK_CASES])
def test_relative_link(path: Path, line: int, target: str) -> None:
    file_part, _, anchor = target.partition("#")
    dest = (path.parent / file_part).resolve() if file_part else path
    assert dest.exists(), f"{rel(path)}:{line}: {target} — no such file"
    assert ROOT in dest.parents or dest == ROOT, f"{rel(path)}:{line}: {target} points outside the repository"
    if anchor and dest.suffix == ".md":
        assert anchor in anchors_of(dest), f"{rel(path)}:{line}: {target} — no heading with that anchor"


def test_links_are_found() -> None:
    """The link check sees the README's links (the checker itself works)."""
    targets = {t for f, _, t in LINK_CASES if f.name == "README.md"}
    assert "docs/cli.md" in targets and "docs/rules/RULES.md" in targets
    assert anchors_of(ROOT / "docs" / "cli.md") >= {"tjmj-score", "tjmj---version", "the-batch-tjmj-score---batch-file"}


# ------------------------------------------------------------------------------------------
# The rules shipped in docs/rules/
# ------------------------------------------------------------------------------------------

RULE_FILES = ["RULES.md", "BEIJING.md", "MCR.md"]


def need_spec() -> None:
    if not SPEC.is_dir():
        pytest.skip(f"no specification folder at {SPEC} (../shared/spec beside the repository): nothing to compare")


@pytest.mark.parametrize("name", RULE_FILES)
def test_rules_copy_is_the_spec(name: str) -> None:
    """docs/rules/NAME is a byte-for-byte copy of ../shared/spec/NAME."""
    copy = RULES_COPIES / name
    assert copy.is_file(), f"docs/rules/{name} is missing"
    need_spec()
    assert copy.read_bytes() == (SPEC / name).read_bytes(), f"docs/rules/{name} differs from {SPEC / name}: copy it over"


def test_rules_copies_are_complete() -> None:
    """Every file of the spec has its copy (a new spec file is not forgotten)."""
    need_spec()
    assert {p.name for p in SPEC.glob("*.md")} == set(RULE_FILES)


SPEC_REFERENCE = re.compile(r"shared/spec|(?<![\w/])spec/(RULES|BEIJING|MCR)\.md")


def test_no_reference_outside_the_project() -> None:
    """Nothing points a reader at the spec outside the repository: the rules are docs/rules/."""
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "src").rglob("*.py"),
             *(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.*"), *(ROOT / "examples").rglob("*.py")]
    here = Path(__file__).resolve()
    bad = [
        f"{rel(f)}:{n}"
        for f in files
        if f.resolve() != here and f.is_file() and f.suffix in {".md", ".py"}
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if SPEC_REFERENCE.search(line)
    ]
    assert not bad, f"these point at the spec outside the project; point them at docs/rules/ instead: {bad}"


# ------------------------------------------------------------------------------------------
# The README's layout
# ------------------------------------------------------------------------------------------


def test_readme_layout_is_complete_and_true() -> None:
    """The README's Layout block names every module and package of src/tjmj, and only real ones."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("```", 2)[1]
    pkg = ROOT / "src" / "tjmj"
    named = set(re.findall(r"[\w.]+\.(?:py|bin)|\w+/(?=\s)", layout))
    modules = {p.name for p in pkg.iterdir() if p.suffix in {".py", ".bin"} and p.name != "__init__.py"}
    packages = {f"{p.name}/" for p in pkg.iterdir() if (p / "__init__.py").is_file()}
    assert not (modules | packages) - named, f"missing from the README's layout: {sorted((modules | packages) - named)}"
    real = modules | packages | {"tests/", "benchmarks/", "docs/", "rules/", "guide/", "examples/", "bots/", "src/", "tjmj/"}
    real |= {p.name for p in (ROOT / "tests").glob("*.py")} | {p.name for p in (ROOT / "src/tjmj/bots").glob("*.py")}
    real |= {f"{p.name}/" for p in (pkg / "families").iterdir() if (p / "__init__.py").is_file()}
    real |= {p.name for p in (pkg / "families").rglob("*.py")}  # a family's modules (tianjin/: score.py, …)
    real |= {p.name for p in (pkg / "cli").glob("*.py")}  # the command modules (cli/: common.py, …)
    assert named <= real, f"the README's layout names what does not exist: {sorted(named - real)}"
