"""The Starlette application of the web table: pages, the JSON API, tile images and the WebSocket.

``create_app(store)`` returns the app; ``tjmj serve`` runs it with uvicorn.  Routes and the
WebSocket protocol are described in ``docs/web.md``; the rooms themselves live in
:mod:`tjmj.web.rooms`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BOT_NAMES
from ..rules import PRESETS, Rules, RulesError
from ..tiles import Tile
from .rooms import BURST, RATE, Connection, Lobby, LobbyError, ResumeError, StoreLike, clean_name, frames

__all__ = ["create_app"]

log = logging.getLogger("tjmj.web")

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024
TILE_RE = re.compile(r"^(?:[1-9][mps]|[1-7]z|back)$")
TILE_CACHE = "public, max-age=86400"
FRAMES_CACHE = 16


class _Frames:
    """A few replays of stored matches, computed once each (finished matches never change)."""

    def __init__(self) -> None:
        self.cache: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()

    def get(self, match_id: int, events: list[dict[str, Any]], finished: bool) -> list[dict[str, Any]]:
        if match_id in self.cache:
            self.cache.move_to_end(match_id)
            return self.cache[match_id]
        out = frames(events)
        if finished:
            self.cache[match_id] = out
            while len(self.cache) > FRAMES_CACHE:
                self.cache.popitem(last=False)
        return out


def _err(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise LobbyError(413, "request body too large")
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise LobbyError(400, "the body must be JSON") from None
    if not isinstance(data, dict):
        raise LobbyError(400, "the body must be a JSON object")
    return data


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise LobbyError(400, f"'{what}' must be an integer from {lo} to {hi}")
    return value


def _room_settings(data: dict[str, Any], default_timer: float | None, default_hands: int | None
                   ) -> tuple[Rules, str, float | None]:
    """Rules, bot kind and turn timer from a create-room body; anything wrong is a 400."""
    preset = data.get("preset", "classic")
    if preset not in PRESETS:
        raise LobbyError(400, f"'preset' must be one of {', '.join(PRESETS)}")
    overrides = data.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise LobbyError(400, "'overrides' must be an object of rule option: value")
    overrides = dict(overrides)
    hands = data.get("match_hands", default_hands)
    if hands is not None:
        overrides["match_hands"] = _int(hands, "match_hands", 1, 64)
    try:
        rules = Rules.preset(preset, **overrides)
    except (RulesError, TypeError) as e:
        raise LobbyError(400, str(e)) from None
    bots = data.get("bots", "strong")  # the strongest by default: most games are one person against bots
    if bots not in BOT_NAMES:
        raise LobbyError(400, f"'bots' must be one of {', '.join(BOT_NAMES)}")
    timer: Any = data.get("timer_s", default_timer) if "timer_s" in data else default_timer
    if timer in (None, 0):
        timer = None
    elif isinstance(timer, bool) or not isinstance(timer, int | float) or not 5 <= timer <= 600:
        raise LobbyError(400, "'timer_s' must be null (no timer) or a number of seconds from 5 to 600")
    return rules, bots, float(timer) if timer is not None else None


def _match_id(request: Request) -> int:
    text = request.path_params["match_id"]
    if not text.isdigit() or len(text) > 18:
        raise LobbyError(404, f"no match {text!r}")
    return int(text)


def _fallback_tile(name: str, *, size: int, wild: bool, back: bool, highlight: bool, rotated: bool) -> str:
    """A plain tile, used only if :mod:`tjmj.svg` cannot be imported."""
    w, h = (80, 60) if rotated else (60, 80)
    fill = "#2d8a68" if back else "#fbf7ea"
    stroke = "#e8b10e" if highlight else "#a8976c"
    label = "" if back else name
    badge = '<circle cx="50" cy="12" r="8" fill="#e8b10e"/>' if wild and not back else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{size}" '
            f'height="{size * h // w}"><rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="7" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="2"/>{badge}<text x="{w / 2}" y="{h / 2 + 8}" font-size="24" '
            f'text-anchor="middle" font-family="sans-serif">{label}</text></svg>')


_tile_cache: dict[tuple[str, int, bool, bool, bool, bool], tuple[bytes, str]] = {}


def _tile_svg(name: str, *, size: int, wild: bool, back: bool, highlight: bool, rotated: bool) -> tuple[bytes, str]:
    key = (name, size, wild, back, highlight, rotated)
    hit = _tile_cache.get(key)
    if hit is not None:
        return hit
    is_back = back or name == "back"
    try:
        from .. import svg  # drawn by the project's own code; imported when first needed

        text = svg.tile(None if name == "back" else Tile.parse(name), size=size, wild=wild, back=is_back,
                        highlight=highlight, rotated=rotated)
    except ImportError:
        text = _fallback_tile(name, size=size, wild=wild, back=is_back, highlight=highlight, rotated=rotated)
    body = text.encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    if len(_tile_cache) < 4096:
        _tile_cache[key] = (body, etag)
    return body, etag


def create_app(store: StoreLike | None = None, *, bot_delay: float = 0.4, timer: float | None = None,
               next_delay: float = 8.0, rate_limit: tuple[int, float] = (BURST, RATE)) -> Starlette:
    """The web table.

    ``store``: a :class:`tjmj.web.store.Store` (or anything with its methods); None opens
    ``Store()`` (``$TJMJ_DATABASE_URL`` or the default SQLite file) and closes it on shutdown.
    ``bot_delay``: seconds between bot actions.  ``timer``: the default turn timer in seconds for
    rooms that do not set ``timer_s`` (None: no timer).  ``next_delay``: the pause after a hand
    before bots go on (ended early when every connected person sends ``next``).  ``rate_limit``:
    (burst, per second) of the messages one WebSocket may send.
    """
    own_store = store is None
    lobby_box: dict[str, Lobby] = {}
    frame_cache = _Frames()

    def lobby() -> Lobby:
        return lobby_box["lobby"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal store
        if store is None:
            from .store import Store

            store = Store()
        lb = Lobby(store, bot_delay=bot_delay, timer=timer, next_delay=next_delay, rate_limit=rate_limit)
        lobby_box["lobby"] = lb
        app.state.lobby = lb
        app.state.store = store
        resumed = lb.resume_all()
        if resumed:
            log.info("resumed %d unfinished match(es): rooms %s", len(resumed), ", ".join(resumed))
        lb.start_drivers()

        async def sweep() -> None:
            while True:
                await asyncio.sleep(60)
                lb.cleanup()

        sweeper = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await lb.shutdown()
            if own_store:
                store.close()  # type: ignore[attr-defined]

    # ---- pages ----------------------------------------------------------------------------

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return endpoint

    async def tiles(request: Request) -> Response:
        name = request.path_params["name"]
        if not TILE_RE.match(name):
            return _err(404, f"no tile {name!r}; tiles are 1m–9m, 1p–9p, 1s–9s, 1z–7z and back")
        q = request.query_params
        try:
            size = int(q.get("size", "48"))
        except ValueError:
            return _err(400, "'size' must be an integer")
        if not 12 <= size <= 256:
            return _err(400, "'size' must be from 12 to 256")

        def flag(key: str) -> bool:
            return q.get(key, "0") in ("1", "true", "yes")

        body, etag = _tile_svg(name, size=size, wild=flag("wild"), back=flag("back"), highlight=flag("highlight"),
                               rotated=flag("rotated"))
        headers = {"ETag": etag, "Cache-Control": TILE_CACHE}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="image/svg+xml", headers=headers)

    # ---- the API ---------------------------------------------------------------------------

    async def healthz(request: Request) -> Response:
        lb = lobby()
        playing = sum(1 for r in lb.rooms.values() if r.status == "playing")
        return JSONResponse({"ok": True, "rooms": len(lb.rooms), "playing": playing})

    async def create_room(request: Request) -> Response:
        data = await _body(request)
        name = clean_name(data.get("name"))
        rules, bots, timer_s = _room_settings(data, lobby().timer, None)
        room, token = lobby().create(name, rules, bots=bots, timer_s=timer_s)
        return JSONResponse({"room": room.id, "player": 0, "seat": None, "token": token, "host": True})

    async def quick(request: Request) -> Response:
        data = await _body(request)
        name = clean_name(data.get("name"))
        rules, bots, timer_s = _room_settings(data, lobby().timer, 4)
        room, token = lobby().create(name, rules, bots=bots, timer_s=timer_s)
        try:
            room.begin()
        except LobbyError:
            lobby().rooms.pop(room.id, None)
            raise
        return JSONResponse({"room": room.id, "player": 0, "seat": room.seat_of(0), "token": token, "host": True,
                             "match_id": room.match_id})

    async def join(request: Request) -> Response:
        data = await _body(request)
        name = clean_name(data.get("name"))
        room, player, token = lobby().join(request.path_params["room"], name)
        return JSONResponse({"room": room.id, "player": player, "seat": room.seat_of(player), "token": token,
                             "host": player == 0})

    async def start(request: Request) -> Response:
        data = await _body(request)
        room = lobby().start(request.path_params["room"], data.get("token"))
        return JSONResponse({"room": room.id, "status": room.status, "match_id": room.match_id})

    async def room_info(request: Request) -> Response:
        room = lobby().get(request.path_params["room"])
        info = room.info()
        info.pop("type")
        info.pop("you")
        info.pop("seat")
        return JSONResponse(info)

    async def list_matches(request: Request) -> Response:
        q = request.query_params
        try:
            limit = int(q.get("limit", "50"))
            offset = int(q.get("offset", "0"))
        except ValueError:
            return _err(400, "'limit' and 'offset' must be integers")
        status = q.get("status") or None
        if not 0 <= limit <= 200 or offset < 0:
            return _err(400, "'limit' must be from 0 to 200 and 'offset' at least 0")
        if status not in (None, "playing", "finished", "abandoned"):
            return _err(400, "'status' must be playing, finished or abandoned")
        matches = lobby().store.list_matches(limit, offset, status)  # type: ignore[attr-defined]
        return JSONResponse({"matches": matches, "limit": limit, "offset": offset})

    def stored_match(request: Request) -> tuple[int, dict[str, Any]]:
        mid = _match_id(request)
        m = lobby().store.get_match(mid)  # type: ignore[attr-defined]
        if m is None:
            raise LobbyError(404, f"no match {mid}")
        return mid, m

    async def get_match(request: Request) -> Response:
        _, m = stored_match(request)
        return JSONResponse(m)

    async def record(request: Request) -> Response:
        mid, _ = stored_match(request)
        body = lobby().store.record_jsonl(mid)  # type: ignore[attr-defined]
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="tjmj-match-{mid}.jsonl"'})

    async def match_frames(request: Request) -> Response:
        mid, m = stored_match(request)
        if m["status"] == "playing":
            return _err(409, "the match is still being played; watch it at its table")
        events = lobby().store.events(mid)
        if not events:
            return _err(409, "nothing of this match was stored (it ended during its first hand)")
        try:
            out = frame_cache.get(mid, events, m["status"] == "finished")
        except ResumeError as e:
            return _err(500, f"the stored match does not replay: {e}")
        return JSONResponse({"match": m, "names": events[0].get("names") if events else None, "frames": out})

    def api(fn: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)
            except LobbyError as e:
                return _err(e.status, e.message)

        return endpoint

    # ---- the WebSocket ---------------------------------------------------------------------

    async def ws_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            room = lobby().get(websocket.path_params["room"])
        except LobbyError as e:
            await websocket.send_text(orjson.dumps({"type": "error", "code": "no_room", "message": e.message}).decode())
            await websocket.close(code=4404)
            return
        token = websocket.query_params.get("token")
        player: int | None = None
        if token:
            player = room.find_token(token)
            if player is None:
                await websocket.send_text(orjson.dumps({"type": "error", "code": "bad_token",
                                                        "message": "unknown token for this room"}).decode())
                await websocket.close(code=4403)
                return
        elif websocket.query_params.get("spectate") not in ("1", "true"):
            await websocket.send_text(orjson.dumps({"type": "error", "code": "bad_token",
                                                    "message": "connect with ?token=… or ?spectate=1"}).decode())
            await websocket.close(code=4401)
            return
        burst, rate = lobby().rate_limit
        conn = Connection(websocket, player, burst=burst, rate=rate)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        room.attach(conn)
        try:
            while not conn.closed:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                room.handle(conn, text if isinstance(text, str) else None)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("room %s: websocket failed", room.id)
        finally:
            room.detach(conn)
            try:
                await asyncio.wait_for(writer, 2)
            except (TimeoutError, asyncio.CancelledError, Exception):
                writer.cancel()

    routes = [
        Route("/", page("index.html")),
        Route("/table/{room}", page("table.html")),
        Route("/history", page("history.html")),
        Route("/replay/{match_id}", page("replay.html")),
        Route("/tiles/{name}.svg", tiles),
        Route("/healthz", healthz),
        Route("/api/rooms", api(create_room), methods=["POST"]),
        Route("/api/quick", api(quick), methods=["POST"]),
        Route("/api/rooms/{room}", api(room_info)),
        Route("/api/rooms/{room}/join", api(join), methods=["POST"]),
        Route("/api/rooms/{room}/start", api(start), methods=["POST"]),
        Route("/api/matches", api(list_matches)),
        Route("/api/matches/{match_id}", api(get_match)),
        Route("/api/matches/{match_id}/record", api(record)),
        Route("/api/matches/{match_id}/frames", api(match_frames)),
        WebSocketRoute("/ws/{room}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
