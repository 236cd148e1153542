"""Practice (issue 32, part 3): "what would you discard" puzzles on the web (docs/practice.md).

``GET /practice`` is the page (practice.html, practice.js); the API serves the shipped puzzles of
:mod:`tjmj.puzzles` without their answers, and judges an answer on the server from the shipped
puzzle (the client is never trusted):

* ``GET /api/puzzles?family=F``: the family's puzzles (id, seat wind, tiles in hand);
* ``GET /api/puzzles/daily?family=F``: the day's puzzle, the same for everyone on a UTC date;
* ``GET /api/puzzles/{id}``: one puzzle, without its answer;
* ``POST /api/puzzles/{id}/answer`` ``{"tile": "5m"}``: the verdict (right or wrong, the best
  discard, the explanation in both languages, every discard's figures); signed in, the answer is
  kept (``puzzle_results``, :mod:`tjmj.web.store_puzzles`) and the verdict says ``"kept": true``;
* ``GET /api/puzzles/results``: the signed-in account's answers, newest first (401 signed out);
* fan-counting drills (:mod:`tjmj.drills`): ``GET /api/drills?family=F`` (the ids),
  ``GET /api/drills/{id}`` (the winning hand: one batch line), ``POST /api/drills/{id}/answer``
  ``{"fan": N}``: right or wrong, and ``POST /api/score``'s answer for the line with every element's
  names (the fan, the elements, the arrangement).

An unknown family or id is a 404 with a one-line JSON error.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from .. import drills as drill_store
from .. import families
from .. import puzzles as store
from ..tiles import Tile, wild_kinds
from .accounts import session_of
from .calc import _names
from .inputs import LobbyError

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["practice_routes", "today"]

STATIC = Path(__file__).with_name("static")


def today() -> dt.date:
    """The UTC date that picks the daily puzzle."""
    return dt.datetime.now(dt.UTC).date()


def _family(request: Request) -> str:
    family = request.query_params.get("family", families.default().name)
    if not store.puzzles(family):
        raise LobbyError(404, f"no puzzles for the family {family!r}")
    return family


def _puzzle(request: Request) -> dict[str, Any]:
    pid = str(request.path_params.get("pid", ""))
    p = store.by_id(pid) if len(pid) <= 40 else None
    if p is None:
        raise LobbyError(404, f"no puzzle {pid[:40]!r}")
    return p


def practice_routes(api: Callable[..., Any], body: Callable[[Request], Awaitable[dict[str, Any]]],
                    lobby: Callable[[], Lobby]) -> list[Route]:
    """The practice page and the puzzles' API, wrapped by the app's ``api`` (rate limit, origin
    check on the POST, JSON errors); a signed-in account's answers are kept in the store."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "practice.html", headers={"Cache-Control": "no-cache"})

    async def listing(request: Request) -> Response:
        family = _family(request)
        return JSONResponse({"family": family, "puzzles": [
            {"id": p["id"], "seat_wind": p["seat_wind"], "tiles": len(p["hand"])} for p in store.puzzles(family)]})

    async def daily(request: Request) -> Response:
        family = _family(request)
        day = today()
        p = store.daily(family, day)
        assert p is not None
        return JSONResponse({**store.public(p), "date": day.isoformat()})

    async def one(request: Request) -> Response:
        return JSONResponse(store.public(_puzzle(request)))

    async def answer(request: Request) -> Response:
        p = _puzzle(request)
        data = await body(request)
        tile = data.get("tile")
        if not isinstance(tile, str) or tile not in p["legal"]:
            raise LobbyError(400, f"'tile' must be one of the puzzle's discards: {' '.join(p['legal'])}")
        v = store.verdict(p, tile)
        lb = lobby()
        me = await session_of(lb, request)
        keep = getattr(lb.store, "puzzle_answer", None)
        if me is not None and keep is not None:
            await lb.db_answer(keep, me["id"], p["id"], v["correct"])
            v["kept"] = True
        return JSONResponse(v)

    async def results(request: Request) -> Response:
        lb = lobby()
        me = await session_of(lb, request)
        read = getattr(lb.store, "puzzle_results", None)
        if me is None or read is None:
            raise LobbyError(401, "log in to see your puzzle results")
        rows = await lb.db_read(read, me["id"])
        return JSONResponse({"account": me["name"], "answered": len(rows),
                             "solved": len({r["puzzle_id"] for r in rows if r["correct"]}), "results": rows})

    def _drill(request: Request) -> dict[str, Any]:
        did = str(request.path_params.get("did", ""))
        d = drill_store.by_id(did) if len(did) <= 40 else None
        if d is None:
            raise LobbyError(404, f"no drill {did[:40]!r}")
        return d

    async def drill_list(request: Request) -> Response:
        family = request.query_params.get("family", families.default().name)
        ds = drill_store.drills(family)
        if not ds:
            raise LobbyError(404, f"no fan drills for the family {family!r}")
        return JSONResponse({"family": family, "drills": [d["id"] for d in ds]})

    async def drill_one(request: Request) -> Response:
        d = _drill(request)  # with the wilds the indicator makes (R2), for drawing them
        return JSONResponse({**d, "wilds": [str(k) for k in wild_kinds(Tile.parse(d["line"]["indicator"]))]})

    async def drill_answer(request: Request) -> Response:
        d = _drill(request)
        fan = (await body(request)).get("fan")
        if type(fan) is not int or not 0 <= fan <= 100000:
            raise LobbyError(400, "'fan' must be a whole number")
        a = drill_store.answer(d["line"])
        raw = (orjson.dumps(d["line"]) + b"\n")
        return JSONResponse({"id": d["id"], "fan": fan, "correct": fan == a.get("fan"), "answer": a,
                             "names": _names(raw, a)})

    return [Route("/practice", page),
            Route("/api/drills", api(drill_list)),
            Route("/api/drills/{did}", api(drill_one)),
            Route("/api/drills/{did}/answer", api(drill_answer, post=True), methods=["POST"]),
            Route("/api/puzzles", api(listing)),
            Route("/api/puzzles/daily", api(daily)),
            Route("/api/puzzles/results", api(results)),
            Route("/api/puzzles/{pid}", api(one)),
            Route("/api/puzzles/{pid}/answer", api(answer, post=True), methods=["POST"])]
