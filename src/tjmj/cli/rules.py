"""``tjmj rules``: every rule option of a preset, its value, allowed values and rules section, then
the families (docs/cli.md).
"""

from __future__ import annotations

import json
from typing import Any

import click

from .common import _console, _esc, _json_line, _rules, _rules_label, _rules_options

__all__ = ["rules_cmd"]


@click.command("rules")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the options as one JSON object.")
def rules_cmd(preset: str | None, sets: tuple[str, ...], as_json: bool) -> None:
    """List every rule option: its value in the preset, allowed values and rules section (R… for
    Tianjin, B… for Beijing, M… for MCR); without --rules, the default preset classic, then the
    families."""
    from ..families import all_families, get

    rules = _rules(preset, sets)
    desc = type(rules).describe()
    if as_json:
        options = {}
        for name, (spec, section, text) in desc.items():
            options[name] = {"value": getattr(rules, name), "allowed": _allowed(spec)[1], "section": section,
                             "description": text}
        click.echo(_json_line({"preset": rules.name.split("+")[0], "options": options, "family": rules.family}))
        return
    page = get(rules.family).rules_page.rsplit("/", 1)[-1]
    # one block per option rather than a table: the descriptions stay readable at 80 columns
    con = _console()
    con.print(f"[bold]Rule options — {_esc(_rules_label(rules))}[/bold]  (option = value, {page} section, allowed)")
    for name, (spec, section, text) in desc.items():
        head = f"{name} = {json.dumps(getattr(rules, name))}"
        con.print(f"{_esc(head):<30} {section:<5} {_esc(_allowed(spec)[0])}")
        con.print(f"    [dim]{_esc(text)}[/dim]")
    if preset is None:
        con.print()
        con.print("[bold]Rule families[/bold]  (`tjmj rules --rules PRESET` lists a preset's options)")
        for fam in all_families():
            con.print(f"{fam.name:<8} {fam.chinese}  presets {', '.join(fam.presets)}  ({fam.rules_page})")


def _allowed(spec: Any) -> tuple[str, object]:
    """Rules.describe()'s allowed values as text and as JSON: choices, or an int range (min, max)."""
    nullable = spec[0] is None
    vals = spec[1:] if nullable else spec
    if isinstance(vals[0], (bool, str)) or len(vals) != 2:
        choices = list(spec)
        return " | ".join(json.dumps(v) for v in choices), choices
    lo, hi = vals
    data: dict[str, object] = {"min": lo, "max": hi}
    text = f"{lo}..{hi}"
    if nullable:
        data["null"] = True
        text += " | null"
    return text, data
