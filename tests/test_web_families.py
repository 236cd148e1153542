"""Issue 29: the browser pages name no rule family; the server tells them its families.

``/static/registry.js`` (made by :mod:`tjmj.web.app` from the registry and each family's
``webpage`` part) gives each family's presets, capabilities and page strings; ``/static/wins.js``
imports each family's settlement renderer (``tjmj/families/<name>/static/win.js``); the lobby's
family menus are written into index.html.  These checks stand beside test_i18n.py's, which reads
i18n.js only: the family strings and the families' scripts are checked here the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from tests.test_i18n import CALL, LANGS, PLACEHOLDER, code_only, parse_strings
from tests.test_web import store  # noqa: F401  (the fixture)
from tjmj import families
from tjmj.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "tjmj" / "web" / "static"
NAMES = re.compile(r"tianjin|beijing|mcr|classic|yiyou")


@pytest.fixture
def client(store: Any) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(store, bot_delay=0)) as c:
        yield c


def _module(text: str) -> dict[str, Any]:
    """The ``export const NAME = <JSON>;`` lines of a made module."""
    return {m.group(1): orjson.loads(m.group(2)) for m in re.finditer(r"^export const (\w+) = (.*);$", text, re.M)}


def test_the_page_scripts_name_no_family() -> None:
    named = [f"{p.name}:{n}: {line.strip()}" for p in sorted(STATIC.glob("*.js"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if NAMES.search(line)]
    assert not named, "\n".join(named)


def test_the_registry_lists_every_family_its_presets_and_strings(client: TestClient) -> None:
    r = client.get("/static/registry.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    made = _module(r.text)
    fams = families.all_families()
    assert [f["name"] for f in made["FAMILIES"]] == [f.name for f in fams]  # the default first
    strings = made["STRINGS"]
    for listed, fam in zip(made["FAMILIES"], fams, strict=True):
        assert listed["presets"] == fam.presets and listed["default_preset"] == fam.default_preset
        assert isinstance(listed["caps"], dict)
        keys = [f"family_{fam.name}"] + [f"{k}{p}" for p in fam.presets for k in ("preset_", "preset_name_")]
        for key in keys:
            assert key in strings, key
    for key, pair in strings.items():
        assert len(pair) == len(LANGS) and all(x.strip() for x in pair), key
        assert {p for p in PLACEHOLDER.findall(pair[0])} == {p for p in PLACEHOLDER.findall(pair[1])}, key


def test_the_lobby_menus_offer_each_family(client: TestClient) -> None:
    page = client.get("/").text
    strings = _module(client.get("/static/registry.js").text)["STRINGS"]
    for menu in ("quick_family", "family"):
        select = re.search(rf'<select[^>]* id="{menu}">(.*?)</select>', page, re.S)
        assert select, menu
        options = re.findall(r'<option value="([^"]+)" data-i18n="family_\1">([^<]+)</option>', select.group(1))
        assert options == [(f.name, strings[f"family_{f.name}"][0]) for f in families.all_families()]
    assert "<!-- family options" not in page


def test_each_family_s_win_renderer_is_served_and_its_keys_exist(client: TestClient) -> None:
    wins = client.get("/static/wins.js").text
    strings = {e.key for e in parse_strings((STATIC / "i18n.js").read_text(encoding="utf-8"))}
    strings |= set(_module(client.get("/static/registry.js").text)["STRINGS"])
    for fam in families.all_families():
        url = f"/static/families/{fam.name}/win.js"
        assert f'"{url}"' in wins, url
        r = client.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript"), url
        assert "export { " in r.text and " as win };" in r.text
        used = {key for fn, quote, key in CALL.findall(code_only(r.text)) if "${" not in key}
        assert used and not used - strings, (url, sorted(used - strings))
    assert client.get("/static/families/nosuch/win.js").status_code == 404
