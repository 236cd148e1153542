"""``POST /api/score`` (issue 32, part 2): one line of the batch format (docs/cli.md, ``tjmj score
--batch``) in, exactly the batch's answer for it out, for every family.

The body is the JSON object of one batch line; the answer is what :func:`tjmj.jsonlines.batch_answer`
gives for it (the score, the elements or fan, the arrangement), or its one-line ``{"error": …}``
with status 400.  ``?arrangement=false`` leaves the arrangement out, as ``--no-arrangement`` does.
Scoring changes nothing, so the route is limited as a read (the per-address GET budget) and needs
no same-site check; the body must still be JSON (``Content-Type: application/json``), at most
16 KiB, and it is scored off the event loop.  ``?names=true`` adds ``names``: each element or fan
with its Chinese and English names (the family's ``webview.win_names``), for the calculator page.

``POST /api/waits``: what ``tjmj waits --json`` answers for a 13-tile hand (each family's
``calculator.waits_json``), the body a JSON object of the command's inputs: ``hand``, and as the
family takes them ``indicator``, ``melds`` (the command's meld texts, ``"[777m]"``, ``"(1111z)"``),
``ruleset``, ``rules`` (overrides), ``dealer``, ``seat_wind`` and ``prevalent_wind``.

``GET /calc`` is the calculator page (算番器, calc.html), ``/manifest.webmanifest`` its web app
manifest and ``/sw.js`` the service worker that keeps the page and its files for offline use
(docs/web.md, "Calculator").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from .. import families
from ..jsonlines import RulesCache, batch_answer, show_value
from ..rules import PRESETS
from .inputs import LobbyError

__all__ = ["calc_page_routes", "score_routes", "waits_answer"]

STATIC = Path(__file__).with_name("static")
WAITS_KEYS = ("hand", "indicator", "melds", "ruleset", "rules", "dealer", "seat_wind", "prevalent_wind")


def _family_of(obj: object) -> families.Family:
    """The family whose calculator answers a line (as :mod:`tjmj.jsonlines` chooses it)."""
    ruleset = obj.get("ruleset") if isinstance(obj, dict) else None
    preset = PRESETS.get(ruleset) if isinstance(ruleset, str) else None
    return families.get(preset.family) if preset is not None else families.default()


def _names(raw: bytes, answer: dict[str, object]) -> list[dict[str, Any]] | None:
    """The answer's elements or fans by name (code, Chinese, English), as the settlement shows them."""
    try:
        fam = _family_of(orjson.loads(raw))
        # the answer's parts may be orjson fragments: read back as plain JSON for the family's namer
        return fam.webview.win_names(orjson.loads(orjson.dumps(answer)))  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - names are a courtesy: the answer stands without them
        return None


def waits_answer(raw: bytes) -> dict[str, Any]:
    """``tjmj waits --json``'s answer for one JSON request (the module docstring), or ``{"error": …}``."""
    import click

    from ..cli.common import Request
    from ..tiles import TileError

    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        return {"error": f"invalid JSON: {e}"}
    if type(obj) is not dict:
        return {"error": "the body must be a JSON object"}
    unknown = [k for k in obj if k not in WAITS_KEYS]
    if unknown:
        return {"error": f"unknown key(s) {', '.join(map(repr, unknown))}; the keys are {', '.join(WAITS_KEYS)}"}
    texts = {k: obj.get(k) for k in ("hand", "indicator", "ruleset", "seat_wind", "prevalent_wind")}
    for k, v in texts.items():
        if v is not None and not isinstance(v, str):
            return {"error": f"'{k}' must be a string, got {show_value(v)}"}
    if not texts["hand"]:
        return {"error": "missing key 'hand'"}
    melds, overrides = obj.get("melds") or [], obj.get("rules") or {}
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        return {"error": f"'melds' must be an array of meld texts like \"[777m]\", got {show_value(melds)}"}
    if not isinstance(overrides, dict):
        return {"error": f"'rules' must be an object of option: value, got {show_value(overrides)}"}
    if type(obj.get("dealer", False)) is not bool:
        return {"error": f"'dealer' must be true or false, got {show_value(obj['dealer'])}"}
    ruleset = texts["ruleset"]
    if ruleset is not None and ruleset not in PRESETS:
        return {"error": f"unknown ruleset {ruleset!r}; the rulesets are {', '.join(PRESETS)}"}
    fam = _family_of(obj)
    sets = tuple(f"{k}={orjson.dumps(v).decode()}" for k, v in overrides.items())
    options = {"dealer": obj.get("dealer", False), "seat_wind": texts["seat_wind"],
               "prevalent_wind": texts["prevalent_wind"]}
    req = Request("waits", str(texts["hand"]), None, texts["indicator"], tuple(melds), ruleset, sets, True, options)
    run = getattr(fam.calculator, "waits_json", None)
    if run is None:
        return {"error": f"{fam.short} has no waits calculator"}
    try:
        return run(req)  # type: ignore[no-any-return]
    except click.ClickException as e:  # InputError: the command's one-line message
        return {"error": e.format_message()}
    except (TileError, ValueError) as e:  # InvalidHand included
        return {"error": str(e)}
    except Exception as e:  # noqa: BLE001 - a bug costs this request, not the server
        return {"error": f"internal error: {type(e).__name__}: {e}"}


def calc_page_routes() -> list[Route]:
    """The calculator page (算番器), its manifest and its service worker (served from the root, so
    its scope may be the whole site: the page at /calc and the files under /static)."""

    def serve(name: str, media_type: str | None = None, extra: dict[str, str] | None = None) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type=media_type,
                                headers={"Cache-Control": "no-cache", **(extra or {})})
        return endpoint

    keys: dict[str, bytes] = {}

    async def calc_keys(request: Request) -> Response:
        """``/static/calckeys.js``: each family's batch keys (its calculator's ``BATCH_KEYS``), from which
        the page knows which inputs a family's line takes (indicator, winds, flowers, its flags)."""
        if "js" not in keys:
            table: dict[str, list[str]] = {}
            for fam in families.all_families():
                try:
                    table[fam.name] = list(fam.calculator.BATCH_KEYS)
                except (ModuleNotFoundError, AttributeError):  # a family without a calculator: no line
                    continue
            keys["js"] = (b"// Each rule family's batch keys (docs/cli.md), made by tjmj.web.calc from the registry.\n"
                          b"export const KEYS = " + orjson.dumps(table) + b";\n")
        return Response(keys["js"], media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return [Route("/calc", serve("calc.html")),
            Route("/static/calckeys.js", calc_keys),
            Route("/manifest.webmanifest", serve("manifest.webmanifest", "application/manifest+json")),
            Route("/sw.js", serve("sw.js", "text/javascript"))]

SCORING_AT_ONCE = 2  # scorings in threads at a time: a flood queues instead of taking every core


def score_routes(api: Callable[..., Any], read: Callable[[Request], Awaitable[bytes]]) -> list[Route]:
    """The calculator's route, wrapped by the app's ``api`` (rate limit, JSON errors)."""
    gate: dict[str, asyncio.Semaphore] = {}

    async def score(request: Request) -> Response:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise LobbyError(415, "the body must be JSON with 'Content-Type: application/json'")
        flag = request.query_params.get("arrangement", "true").lower()
        if flag not in ("true", "false", "1", "0"):
            raise LobbyError(400, "'arrangement' must be true or false")
        names = request.query_params.get("names", "false").lower()
        if names not in ("true", "false", "1", "0"):
            raise LobbyError(400, "'names' must be true or false")
        raw = await read(request)
        if not raw.endswith(b"\n"):  # as a line of a batch file: an error's position reads the same
            raw += b"\n"
        sem = gate.setdefault("sem", asyncio.Semaphore(SCORING_AT_ONCE))
        async with sem:
            # a cache of its own: one shared by every request would grow with whatever rules clients send
            answer = await asyncio.to_thread(batch_answer, raw, RulesCache(), flag in ("true", "1"))
            if names in ("true", "1") and "error" not in answer:
                answer = {**answer, "names": _names(raw, answer)}
        # orjson: the answer holds pre-serialized parts (orjson.Fragment), written as the batch writes them
        return Response(orjson.dumps(answer), media_type="application/json",
                        status_code=400 if "error" in answer else 200)

    async def waits(request: Request) -> Response:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise LobbyError(415, "the body must be JSON with 'Content-Type: application/json'")
        raw = await read(request)
        sem = gate.setdefault("sem", asyncio.Semaphore(SCORING_AT_ONCE))
        async with sem:
            answer = await asyncio.to_thread(waits_answer, raw)
        return Response(orjson.dumps(answer), media_type="application/json",
                        status_code=400 if "error" in answer else 200)

    return [Route("/api/score", api(score), methods=["POST"]),
            Route("/api/waits", api(waits), methods=["POST"])]
