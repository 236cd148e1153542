"""The Starlette application of the web table: pages, the JSON API, tile images and the WebSocket.

``create_app(store)`` returns the app; ``tjmj serve`` runs it with uvicorn.  Routes and the
WebSocket protocol are described in ``docs/web.md``, the defences in ``docs/security.md``; the
rooms themselves live in :mod:`tjmj.web.room` and :mod:`tjmj.web.lobby`.

The server trusts no client: every body and parameter is checked (a 4xx JSON error names what is
wrong), POSTs must be JSON from this site (or an allowed origin), WebSockets too, every address
is rate limited, every page carries a Content-Security-Policy and the usual hardening headers,
and a secret token is only ever sent inside a WebSocket message or a JSON body, never in a URL.

The pages name no rule family; the server tells them the families of its registry
(:mod:`tjmj.families`).  ``/static/registry.js``, an ES module made from the registry, gives each
family's presets, default preset, table capabilities and page strings (i18n.js reads them after its
own); ``/static/wins.js`` imports each family's settlement renderer, its package's ``static/win.js``
(served at ``/static/families/<name>/``); the lobby's family menus are written into index.html.

What a family gives the pages: its ``webpage`` part (``tjmj/families/<name>/webpage.py``) defines

* ``STRINGS``: ``{key: (中文, English)}``, its page strings: ``family_<name>`` (its name),
  ``preset_<preset>`` (the lobby's description) and ``preset_name_<preset>`` (the short name) for
  each of its presets, and any other key its ``win.js`` uses;
* ``CAPS``: ``{capability: value}``, what the table and the replay show differently for it
  (``wildCostsWin``, ``indicatorLabels``, ``reserve``, ``upstairsMarks``, ``passedWin``, ``winds``,
  ``flowers``: table.js says what each does);

and its package's ``static/win.js`` exports ``win(s, parts)``, which pushes the settlement dialog's
account of the win ``s.win`` (the ``settlement`` message) onto the list ``parts``.  A family without
them is named by its :class:`~tjmj.family.Family` names and drawn as the default family.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import html
import importlib.util
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import families
from ..bots import Bot
from ..family import Family
from ..record import ReplayError
from ..rules import FAMILIES, PRESETS, Rules, RulesError
from ..tiles import Flower, Tile
from .accounts import account_routes, identity
from .calc import calc_page_routes, score_routes
from .cluster import Cluster
from .connection import Connection
from .errors import StoreError
from .hints import HINT_SEARCH_MS
from .inputs import LobbyError, clean_name, player_id, room_bot
from .limits import MAX_NAME_LEN, Limits
from .listing import LobbyListing
from .lobby import Lobby, MatchFactory, StoreLike
from .practice import practice_routes
from .ranked import ranked_routes
from .ratings import rating_routes
from .review import review_routes
from .settlement import frames

__all__ = ["SECURITY_HEADERS", "create_app"]

log = logging.getLogger("tjmj.web")

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024
BODY_TIMEOUT = 10.0  # seconds to send a request body (a slow body holds a connection)
TILE_RE = re.compile(r"^(?:[1-9][mps]|[1-7]z|[1-8]f|back)$")  # 1f–8f: MCR's flowers (M1)
DIGITS = re.compile(r"^[0-9]{1,18}$")  # ASCII digits only: int() also reads '１' and '1_0'
ROOM_RE = re.compile(r"^[A-Za-z0-9]{1,12}$")
MAX_OFFSET = 10**9
TILE_CACHE = "public, max-age=86400"
FRAMES_CACHE = 16

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (pages, API, tiles, static files, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.raw = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in self.raw if h[0] not in have)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


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


def _err(status: int, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def client_address(conn: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded)."""
    return conn.client.host if conn.client else "unknown"


def origin_allowed(headers: Headers, allowed: frozenset[str]) -> bool:
    """A browser's ``Origin`` must be this site's own (its host equals the ``Host`` header) or one
    of ``allowed``; no ``Origin`` at all is a program (a bot, curl), not a page on another site."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    if origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc == headers.get("host")


async def _body(request: Request) -> dict[str, Any]:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise LobbyError(415, "the body must be JSON with 'Content-Type: application/json'")
    try:
        raw = await asyncio.wait_for(_read_limited(request), BODY_TIMEOUT)
    except TimeoutError:
        raise LobbyError(408, "the request body took too long") from None
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise LobbyError(400, "the body must be JSON") from None
    if not isinstance(data, dict):
        raise LobbyError(400, "the body must be a JSON object")
    return data


async def _read_limited(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not DIGITS.match(declared) or int(declared) > MAX_BODY):
        raise LobbyError(413, "request body too large")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise LobbyError(413, "request body too large")
        chunks.append(chunk)
    return b"".join(chunks)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise LobbyError(400, f"'{what}' must be an integer from {lo} to {hi}")
    return value


def _choice(value: Any, what: str, options: Iterable[str]) -> str:
    opts = list(options)
    if not isinstance(value, str) or value not in opts:
        raise LobbyError(400, f"'{what}' must be one of {', '.join(opts)}")
    return value


def _room_settings(data: dict[str, Any], default_timer: float | None, default_hands: int | None
                   ) -> tuple[Rules, str, float | None]:
    """Rules, bot kind and turn timer from a create-room body; anything wrong is a 400.

    ``family`` (optional: ``tianjin``, ``beijing``, ``mcr``) and ``preset`` (any family's; the family's
    default when only the family is given, the default family's default, ``classic``, when neither)
    choose the rules; ``overrides``
    are checked by that family's rules."""
    family = data.get("family")
    if family is not None:
        family = _choice(family, "family", FAMILIES)
    preset = _choice(data.get("preset", (families.get(family) if family else families.default()).default_preset),
                     "preset", PRESETS)
    if family is not None and PRESETS[preset].family != family:
        raise LobbyError(400, f"preset {preset!r} is of the {PRESETS[preset].family} family, not {family}; "
                              f"{family} presets are {', '.join(n for n, r in PRESETS.items() if r.family == family)}")
    overrides = data.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise LobbyError(400, "'overrides' must be an object of rule option: value")
    overrides = dict(overrides)
    hands = data.get("match_hands", default_hands)
    if hands is not None:
        overrides["match_hands"] = _int(hands, "match_hands", 1, 64)
    try:
        rules = Rules.preset(preset, **overrides)
    except (RulesError, TypeError, ValueError) as e:
        raise LobbyError(400, str(e)) from None
    # a level (easy … expert) or a bot name; the ``hard`` level's strong bot by default: most games
    # are one person against bots, and it gives a good game at once (expert thinks longer)
    bots = room_bot(data.get("bots", "strong"))
    timer: Any = data.get("timer_s", default_timer) if "timer_s" in data else default_timer
    if timer in (None, 0):
        timer = None
    elif isinstance(timer, bool) or not isinstance(timer, int | float) or not 5 <= timer <= 600:
        raise LobbyError(400, "'timer_s' must be null (no timer) or a number of seconds from 5 to 600")
    return rules, bots, float(timer) if timer is not None else None


def _private(data: dict[str, Any]) -> bool:
    """``private`` of a create-room body: true keeps the room out of the lobby's lists; only a JSON
    boolean is accepted (``"false"`` or ``0`` would be read the wrong way by someone)."""
    value = data.get("private", False)
    if not isinstance(value, bool):
        raise LobbyError(400, "'private' must be true or false")
    return value


def _etag_matches(header: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weak comparison, as RFC 9110 asks for GETs)."""
    bare = etag.removeprefix("W/")
    return any(t.strip() == "*" or t.strip().removeprefix("W/") == bare for t in header.split(","))


def _public_match(m: dict[str, Any]) -> dict[str, Any]:
    """A stored match as the API shows it: while it is being played its seed is hidden, since the
    seed deals every hand (R3, B1) and would show everyone's tiles and the wall."""
    return {**m, "seed": None} if m.get("status") == "playing" else m


def _match_id(request: Request) -> int:
    text = request.path_params["match_id"]
    if not DIGITS.match(text):
        raise LobbyError(404, f"no match {text[:20]!r}")
    return int(text)


def _room_code(request: HTTPConnection) -> str:
    code = request.path_params["room"]
    if not ROOM_RE.match(code):
        raise LobbyError(404, f"no room {code[:20]!r}")
    return str(code)


def _player_query(request: Request) -> tuple[str, str | None, str | None]:
    """The name (a display name as the lobby keeps it: 1 to 20 printable characters, no spaces at
    either end), the optional ``id`` and ``family`` of a player statistics request; else a 400."""
    name = request.path_params["name"]
    if not 1 <= len(name) <= MAX_NAME_LEN or clean_name(name, "") != name:
        raise LobbyError(400, f"a player's name has 1 to {MAX_NAME_LEN} printable characters, "
                              "without spaces at either end")
    q = request.query_params
    pid = player_id(q.get("id") or None)
    family = q.get("family") or None
    if family is not None:
        family = _choice(family, "family", FAMILIES)
    return name, pid, family


# ---- what the pages are told of the rule families (the module docstring) ----------------------

FAMILY_OPTIONS = re.compile(r"^( *)<!-- family options: [^\n]*-->\n", re.MULTILINE)


def _webpage(fam: Family) -> Any:
    """The family's ``webpage`` part, or None when it has none."""
    try:
        return fam.part("webpage")
    except ModuleNotFoundError as e:
        if e.name != f"{fam.package}.webpage":
            raise
        return None


def family_static(fam: Family) -> Path | None:
    """The folder of the family's page scripts (its package's ``static``), if it has one."""
    spec = importlib.util.find_spec(fam.package)
    for where in (spec.submodule_search_locations or []) if spec else []:
        folder = Path(where) / "static"
        if folder.is_dir():
            return folder
    return None


def family_strings(fams: list[Family]) -> dict[str, list[str]]:
    """Every family's page strings, ``{key: [中文, English]}``."""
    out: dict[str, list[str]] = {}
    for fam in fams:
        out[f"family_{fam.name}"] = [fam.chinese, fam.english]  # unless the part says otherwise
        out.update({k: list(v) for k, v in getattr(_webpage(fam), "STRINGS", {}).items()})
    return out


def registry_js(fams: list[Family]) -> bytes:
    """``/static/registry.js``: the families (the default first) and their page strings."""
    listed = [{"name": f.name, "presets": f.presets, "default_preset": f.default_preset,
               "caps": dict(getattr(_webpage(f), "CAPS", {}))} for f in fams]
    return (b"// The rule families this server plays (its registry, tjmj.families), made by tjmj.web.app:\n"
            b"// each one's presets, table capabilities and page strings. The first is the default.\n"
            b"export const FAMILIES = " + orjson.dumps(listed) + b";\n"
            b"export const STRINGS = " + orjson.dumps(family_strings(fams)) + b";\n")


def wins_js(fams: list[Family]) -> bytes:
    """``/static/wins.js``: each family's settlement renderer (its ``static/win.js``), by family name."""
    drawn = [f for f in fams if (folder := family_static(f)) is not None and (folder / "win.js").is_file()]
    lines = ["// Each rule family's settlement renderer (its package's static/win.js), made by tjmj.web.app."]
    lines += [f'import {{ win as win{i} }} from "/static/families/{f.name}/win.js";' for i, f in enumerate(drawn)]
    entries = ", ".join(f"{orjson.dumps(f.name).decode()}: win{i}" for i, f in enumerate(drawn))
    lines.append(f"export const WINS = {{ {entries} }};" if entries else "export const WINS = {};")
    return ("\n".join(lines) + "\n").encode()


def lobby_html(text: str, fams: list[Family]) -> str:
    """index.html with an ``<option>`` per family in each family menu (named in the page's first language)."""
    strings = family_strings(fams)

    def options(m: re.Match[str]) -> str:
        return "".join(f'{m.group(1)}<option value="{html.escape(f.name)}" data-i18n="family_{html.escape(f.name)}">'
                       f"{html.escape(strings[f'family_{f.name}'][0])}</option>\n" for f in fams)

    return FAMILY_OPTIONS.sub(options, text)


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


@functools.cache
def _sprite() -> tuple[bytes, str]:
    from .. import svg

    body = svg.sprite().encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def _tile_svg(name: str, *, size: int, wild: bool, back: bool, highlight: bool, rotated: bool) -> tuple[bytes, str]:
    key = (name, size, wild, back, highlight, rotated)
    hit = _tile_cache.get(key)
    if hit is not None:
        return hit
    is_back = back or name == "back"
    try:
        from .. import svg  # drawn by the project's own code; imported when first needed

        kind = None if name == "back" else Flower.parse(name) if name.endswith("f") else Tile.parse(name)
        text = svg.tile(kind, size=size, wild=wild, back=is_back,
                        highlight=highlight, rotated=rotated)
    except ImportError:
        text = _fallback_tile(name, size=size, wild=wild, back=is_back, highlight=highlight, rotated=rotated)
    body = text.encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    if len(_tile_cache) < 4096:
        _tile_cache[key] = (body, etag)
    return body, etag


def create_app(store: StoreLike | None = None, *, bot_delay: float = 0.4, timer: float | None = None,
               next_delay: float = 8.0, rate_limit: tuple[int, float] | None = None,
               limits: Limits | None = None, allowed_origins: Iterable[str] = (),
               trusted_proxies: Iterable[str] | None = None, match_factory: MatchFactory | None = None,
               bot_factory: Callable[[str], Bot] | None = None,
               hint_search_ms: float | None = HINT_SEARCH_MS, cluster: Cluster | None = None) -> Starlette:
    """The web table.

    ``store``: a :class:`tjmj.web.store.Store` (or anything with its methods); None opens
    ``Store()`` (``$TJMJ_DATABASE_URL`` or the default SQLite file) and closes it on shutdown.
    ``bot_delay``: seconds between bot actions.  ``timer``: the default turn timer in seconds for
    rooms that do not set ``timer_s`` (None: no timer).  ``next_delay``: the pause after a hand
    before bots go on (ended early when every connected person sends ``next``).  ``rate_limit``:
    (burst, per second) of the messages one seat may send (a shortcut for those two ``limits``).
    ``limits``: every other limit (:class:`tjmj.web.limits.Limits`).  ``allowed_origins``: other
    sites (``https://example.com``) whose pages may use this server; its own always may.
    ``trusted_proxies``: addresses of reverse proxies whose ``X-Forwarded-For`` names the client
    (``tjmj serve`` leaves this to uvicorn's ``--forwarded-allow-ips``).  ``match_factory(rules,
    seed, names)`` and ``bot_factory(name)``: how rooms make their match and their bots, for tests
    that script a game (a scripted wall, bots that play a plan); the defaults are
    ``Match(rules, seed=seed, names=names)`` and :func:`tjmj.bots.make_bot`.  ``hint_search_ms``:
    the budget of the expert search a hint carries besides the advisor's figures (None: no search).
    ``cluster``: this process's part of several on one database (:mod:`tjmj.web.cluster`).
    """
    own_store = store is None
    lobby_box: dict[str, Lobby] = {}
    frame_cache = _Frames()
    listing = LobbyListing()
    origins = frozenset(o.rstrip("/") for o in allowed_origins)

    def lobby() -> Lobby:
        return lobby_box["lobby"]

    def address(conn: HTTPConnection) -> str:
        """The client's address; for a request a peer forwarded (signed), the client it names."""
        forwarded = cluster.verified(conn) if cluster is not None else None
        return forwarded if forwarded is not None else client_address(conn)

    def elsewhere(code: str) -> bool:
        """Whether room ``code`` is not in this process while it runs as one of a cluster."""
        return cluster is not None and code.upper() not in lobby().rooms

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal store
        if store is None:
            from .store import Store

            store = Store()
        lb = Lobby(store, bot_delay=bot_delay, timer=timer, next_delay=next_delay, rate_limit=rate_limit,
                   limits=limits, match_factory=match_factory, bot_factory=bot_factory,
                   hint_search_ms=hint_search_ms)
        lobby_box["lobby"] = lb
        app.state.lobby = lb
        app.state.store = store
        if cluster is not None:
            lb.clustered = True
            await cluster.start(lb)
        try:
            resumed = await lb.resume_all()
        except Exception as e:  # the database is down: serve anyway; the maintenance loop adopts them later
            log.warning("resuming the unfinished matches failed (%s); trying again every %.0f s", e,
                        lb.limits.adopt_every)
            resumed = []
        if resumed:
            log.info("resumed %d unfinished match(es) and waiting room(s): %s", len(resumed), ", ".join(resumed))
        lb.start_drivers()
        keeper = asyncio.get_running_loop().create_task(maintain(lb))
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            await lb.shutdown()
            if cluster is not None:
                await cluster.stop(lb)
            if own_store:
                store.close()  # type: ignore[union-attr]

    async def maintain(lb: Lobby) -> None:
        """Expire rooms, renew this process's leases, take over matches a stopped process left."""
        loop = asyncio.get_running_loop()
        renew_at = adopt_at = loop.time()
        # in a cluster a process (its heartbeat thread) beats every node_beat seconds, and looks
        # for the matches of dead ones as often: a match is played again within node_timeout +
        # node_beat of a crash
        tick = min(5.0, lb.limits.lease_renew) if cluster is None else lb.limits.node_beat
        adopt_every = lb.limits.adopt_every if cluster is None else lb.limits.node_beat
        # and renews as often: a process that was frozen learns at once that its rooms moved
        renew_every = lb.limits.lease_renew if cluster is None else lb.limits.node_beat
        while True:
            await asyncio.sleep(tick)
            try:
                lb.cleanup()
                now = loop.time()
                if now >= renew_at:
                    renew_at = now + renew_every
                    await lb.renew()
                if now >= adopt_at + adopt_every:
                    adopt_at = now
                    await lb.adopt()
            except Exception:
                log.exception("room maintenance failed")

    # ---- pages ----------------------------------------------------------------------------

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return endpoint

    fams = families.all_families()  # as registered when the app is made (its routes serve their scripts)
    made: dict[str, tuple[bytes, str]] = {}  # what is made from them, made on first use

    def made_body(name: str) -> tuple[bytes, str]:
        if name not in made:
            if name == "index.html":
                body = lobby_html((STATIC / name).read_text(encoding="utf-8"), fams).encode()
            else:
                body = registry_js(fams) if name == "registry.js" else wins_js(fams)
            made[name] = body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        return made[name]

    def made_page(name: str, media_type: str) -> Any:
        """A page or script made from the family registry (the module docstring)."""

        async def endpoint(request: Request) -> Response:
            body, etag = made_body(name)
            return Response(body, media_type=media_type, headers={"Cache-Control": "no-cache", "ETag": etag})

        return endpoint

    async def tiles(request: Request) -> Response:
        name = request.path_params["name"]
        if not TILE_RE.match(name):
            return _err(404, f"no tile {name[:20]!r}; tiles are 1m–9m, 1p–9p, 1s–9s, 1z–7z, 1f–8f and back")
        q = request.query_params
        size_text = q.get("size", "48")
        if not DIGITS.match(size_text) or not 12 <= int(size_text) <= 256:
            return _err(400, "'size' must be an integer from 12 to 256")

        def flag(key: str) -> bool:
            return q.get(key, "0") in ("1", "true", "yes")

        body, etag = _tile_svg(name, size=int(size_text), wild=flag("wild"), back=flag("back"),
                               highlight=flag("highlight"), rotated=flag("rotated"))
        headers = {"ETag": etag, "Cache-Control": TILE_CACHE}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="image/svg+xml", headers=headers)

    async def tile_sprite(request: Request) -> Response:
        """Every tile as a symbol of one document: a page draws its whole table from one request."""
        body, etag = _sprite()
        headers = {"ETag": etag, "Cache-Control": TILE_CACHE}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="image/svg+xml", headers=headers)

    async def guide(request: Request) -> Response:
        """A player's guide to a family (tjmj.guide), in ``?lang=zh|en`` or the browser's language
        (guide.js then follows the language chosen in the other pages)."""
        from ..guide import FAMILIES, index_page, page

        family = request.path_params.get("family")
        lang = request.query_params.get("lang")
        if lang not in ("zh", "en"):
            lang = "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"
        if family is None:
            body = index_page(lang)
        elif family in FAMILIES:
            body = page(family, lang)
        else:
            return _err(404, f"no guide {family[:20]!r}; guides are {', '.join(FAMILIES)}")
        return Response(body, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})

    # ---- the API ---------------------------------------------------------------------------

    async def healthz(request: Request) -> Response:
        """For a load balancer: 503 while the database cannot take writes (checked, within a
        bounded time, at most every ``health_every`` seconds), so no new room is sent here."""
        lb = lobby()
        down = await lb.database_down()
        playing = sum(1 for r in lb.rooms.values() if r.status == "playing")
        body: dict[str, Any] = {"ok": down is None, "rooms": len(lb.rooms), "playing": playing,
                                "database": "ok" if down is None else "down"}
        if down is not None:
            body["reason"] = down
        return JSONResponse(body, status_code=200 if down is None else 503, headers={"Cache-Control": "no-store"})

    async def create_room(request: Request) -> Response:
        data = await _body(request)
        rules, bots, timer_s = _room_settings(data, lobby().timer, None)
        private = _private(data)
        name, pid = await identity(lobby(), request, data)  # a signed-in person plays as their account
        room, token = lobby().create(name, rules, bots=bots, timer_s=timer_s, address=address(request), player_id=pid)
        room.private = private  # before anyone connects: stored with the room's settings from then on
        return JSONResponse({"room": room.id, "player": 0, "seat": None, "token": token, "host": True, "name": name})

    async def quick(request: Request) -> Response:
        data = await _body(request)
        rules, bots, timer_s = _room_settings(data, lobby().timer, 4)
        private = _private(data)
        lb = lobby()
        name, pid = await identity(lb, request, data)
        room, token = lb.create(name, rules, bots=bots, timer_s=timer_s, address=address(request), player_id=pid)
        room.private = private  # a quick match is listed to watch unless private
        try:
            await room.begin()
        except LobbyError:
            lb.rooms.pop(room.id, None)
            raise
        return JSONResponse({"room": room.id, "player": 0, "seat": room.seat_of(0), "token": token, "host": True,
                             "match_id": room.match_id, "name": name})

    async def join(request: Request) -> Response:
        data = await _body(request)
        name, pid = await identity(lobby(), request, data)
        room, player, token = await lobby().join(_room_code(request), name, pid)
        return JSONResponse({"room": room.id, "player": player, "seat": room.seat_of(player), "token": token,
                             "host": player == 0, "name": name})

    async def start(request: Request) -> Response:
        data = await _body(request)
        room = await lobby().start(_room_code(request), data.get("token"))
        return JSONResponse({"room": room.id, "status": room.status, "match_id": room.match_id})

    async def room_info(request: Request) -> Response:
        room = lobby().get(_room_code(request))
        info = room.info()
        for key in ("type", "you", "seat"):
            info.pop(key)
        return JSONResponse(info)

    async def internal_room(request: Request) -> Response:
        """For a peer of the cluster (signed): whether this process holds the room, and its status."""
        if cluster is None or cluster.verified(request) is None:
            return _err(404, "not found")
        room = lobby().rooms.get(str(request.path_params["room"]).upper())
        if room is None:
            return _err(404, "no such room here")
        return JSONResponse({"room": room.id, "status": room.status})

    async def internal_lobby(request: Request) -> Response:
        """For a peer of the cluster (signed): this process's own lobby lists."""
        if cluster is None or cluster.verified(request) is None:
            return _err(404, "not found")
        opened, live = LobbyListing.lists(lobby())
        return JSONResponse({"open": opened, "live": live})

    async def lobby_list(request: Request) -> Response:
        """The open rooms and live tables (:mod:`tjmj.web.listing`): rebuilt at most twice a second
        however many pages poll, and 304 with no body when the page already has this version.  In
        a cluster, every process's rooms (its peers' lists asked at most as often)."""
        peers = await cluster.peer_lists(lobby()) if cluster is not None else []
        _, body = listing.current(lobby(), peers)
        etag = listing.etag()
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if _etag_matches(request.headers.get("if-none-match", ""), etag):
            return Response(status_code=304, headers=headers)
        # the server's clock, so that a page shows rooms' ages whatever its own clock says
        now = orjson.dumps({"now": round(time.time(), 3)})
        return Response(now[:-1] + b"," + body[1:], media_type="application/json", headers=headers)

    async def list_matches(request: Request) -> Response:
        q = request.query_params
        limit_text, offset_text = q.get("limit", "50"), q.get("offset", "0")
        if not DIGITS.match(limit_text) or not DIGITS.match(offset_text):
            return _err(400, "'limit' and 'offset' must be non-negative integers")
        limit, offset = int(limit_text), int(offset_text)
        if limit > 200 or offset > MAX_OFFSET:
            return _err(400, f"'limit' must be from 0 to 200 and 'offset' from 0 to {MAX_OFFSET}")
        status = q.get("status") or None
        if status not in (None, "playing", "finished", "abandoned"):
            return _err(400, "'status' must be playing, finished or abandoned")
        lb = lobby()
        matches = await lb.db_read(lb.store.list_matches, limit, offset, status)  # type: ignore[attr-defined]
        return JSONResponse({"matches": [_public_match(m) for m in matches], "limit": limit, "offset": offset})

    async def stored_match(request: Request) -> tuple[int, dict[str, Any]]:
        mid = _match_id(request)
        lb = lobby()
        m = await lb.db_read(lb.store.get_match, mid)  # type: ignore[attr-defined]
        if m is None:
            raise LobbyError(404, f"no match {mid}")
        return mid, m

    async def get_match(request: Request) -> Response:
        _, m = await stored_match(request)
        return JSONResponse(_public_match(m))

    async def record(request: Request) -> Response:
        mid, m = await stored_match(request)
        if m["status"] == "playing":  # its start_game holds the seed, which deals the hands still to come
            return _err(409, "the match is still being played; its record can be downloaded when it ends")
        lb = lobby()
        body = await lb.db_read(lb.store.record_jsonl, mid)  # type: ignore[attr-defined]
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="tjmj-match-{mid}.jsonl"'})

    async def match_frames(request: Request) -> Response:
        mid, m = await stored_match(request)
        if m["status"] == "playing":
            return _err(409, "the match is still being played; watch it at its table")
        lb = lobby()
        events = await lb.db_read(lb.store.events, mid)
        if not events:
            return _err(409, "nothing of this match was stored (it ended during its first hand)")
        try:
            out = frame_cache.get(mid, events, m["status"] == "finished")
        except ReplayError as e:
            return _err(500, f"the stored match does not replay: {e}")
        return JSONResponse({"match": m, "names": events[0].get("names") if events else None, "frames": out})

    async def player_statistics(request: Request) -> Response:
        """``GET /api/players/{name}?id=&family=``: a person's statistics from the stored matches (tjmj.stats)."""
        from .. import stats

        name, pid, family = _player_query(request)
        lb = lobby()
        try:
            body = await lb.db_read(stats.load_player, lb.store, name, pid, family)
        except stats.PlayerNotFound as e:
            raise LobbyError(404, str(e)) from None
        except ValueError as e:  # the store's own check of the name or id
            raise LobbyError(400, str(e)) from None
        return JSONResponse(body)

    def api(fn: Callable[[Request], Awaitable[Response]], *, post: bool = False, room: bool = False) -> Any:
        """A JSON route: rate limited per address, POSTs only as JSON from an allowed origin, and
        every failure a JSON error (4xx for the client's mistakes, 503 when the database fails).
        ``room``: a call on one room, sent on to the process that holds it (in a cluster)."""

        async def endpoint(request: Request) -> Response:
            lb = lobby()
            buckets = lb.post_buckets if post else lb.get_buckets
            bucket = buckets.get(address(request))
            if not bucket.allow():
                return _err(429, "too many requests; slow down", retry_after=bucket.wait())
            forwarded = cluster is not None and cluster.verified(request) is not None
            if post and not forwarded and not origin_allowed(request.headers, origins):
                return _err(403, "requests from other sites are not accepted")
            try:
                code = str(request.path_params.get("room", "")) if room else ""
                if code and not forwarded and ROOM_RE.match(code) and elsewhere(code):
                    assert cluster is not None
                    owner = await cluster.find(code.upper())
                    if owner is not None:
                        body = await _read_limited(request) if post else None
                        return await cluster.forward(request, owner, address(request), body)
                    if await lb.db_read(lb.store.room_known, code.upper()):  # type: ignore[attr-defined]
                        raise LobbyError(503, "the room is moving to another server; try again", retry_after=2)
                return await fn(request)
            except LobbyError as e:
                return _err(e.status, e.message, e.retry_after)
            except (StoreError, OSError, TimeoutError) as e:
                log.warning("%s %s: the database failed: %s", request.method, request.url.path, e)
                return _err(503, "the database is unavailable; try again shortly", retry_after=5)
            except Exception as e:
                if _is_db_error(e):
                    log.warning("%s %s: the database failed: %s", request.method, request.url.path, e)
                    return _err(503, "the database is unavailable; try again shortly", retry_after=5)
                raise

        return endpoint

    # ---- the WebSocket ---------------------------------------------------------------------

    async def ws_endpoint(websocket: WebSocket) -> None:
        lb = lobby()
        forwarded = cluster.verified(websocket) if cluster is not None else None
        address = forwarded if forwarded is not None else client_address(websocket)
        if forwarded is None and not origin_allowed(websocket.headers, origins):
            await websocket.close(code=4403, reason="cross-site WebSocket refused")  # before accept: HTTP 403
            return
        lim = lb.limits
        if lb.sockets.get(address, 0) >= lim.sockets_per_address or sum(lb.sockets.values()) >= lim.max_sockets:
            await websocket.close(code=1013, reason="too many connections")
            return
        lb.sockets[address] = lb.sockets.get(address, 0) + 1
        try:
            await websocket.accept()
            code = str(websocket.path_params.get("room", ""))
            if forwarded is None and ROOM_RE.match(code) and elsewhere(code):
                assert cluster is not None
                owner = await cluster.find(code.upper())
                if owner is not None:  # played by another process: this socket is piped to it
                    await cluster.pipe(websocket, owner, address)
                    return
                if await lb.db_read(lb.store.room_known, code.upper()):  # type: ignore[attr-defined]
                    # its process died and no other has taken it yet (within seconds): the page retries
                    await _refuse(websocket, "moving", "the room is moving to another server; reconnecting", 1013)
                    return
            await _session(websocket, lb, address)
        finally:
            n = lb.sockets.get(address, 1) - 1
            if n > 0:
                lb.sockets[address] = n
            else:
                lb.sockets.pop(address, None)

    async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_text(orjson.dumps({"type": "error", "code": code, "message": message}).decode())
            await websocket.close(code=close)

    async def _session(websocket: WebSocket, lb: Lobby, address: str) -> None:
        try:
            room = lb.get(_room_code(websocket))
        except LobbyError as e:
            await _refuse(websocket, "no_room", e.message, 4404)
            return
        if "token" in websocket.query_params:
            await _refuse(websocket, "bad_request", "never put the token in the URL (it would be logged): "
                          'send {"type": "hello", "token": "…"} as the first message', 4400)
            return
        try:  # the first message says who this is: {"type": "hello", "token": …} or {"type": "hello", "spectate": true}
            first = await asyncio.wait_for(websocket.receive(), lb.limits.auth_timeout)
        except TimeoutError:
            await _refuse(websocket, "bad_token", "no hello within the time limit", 4408)
            return
        if first["type"] == "websocket.disconnect":
            return
        hello: Any = None
        with contextlib.suppress(orjson.JSONDecodeError, TypeError):
            text = first.get("text")
            hello = orjson.loads(text) if isinstance(text, str) and len(text) <= 1000 else None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await _refuse(websocket, "bad_token",
                          'the first message must be {"type": "hello", "token": "…"} or '
                          '{"type": "hello", "spectate": true}', 4401)
            return
        token = hello.get("token")
        player: int | None = None
        if isinstance(token, str) and token:
            player = room.find_token(token)
            if player is None:
                await _refuse(websocket, "bad_token", "unknown token for this room", 4403)
                return
            if room.players[player].left:  # left a ranked match: the bot has the seat; they may watch
                player = None
        elif hello.get("spectate") is not True:
            await _refuse(websocket, "bad_token", "hello needs a 'token', or 'spectate': true", 4401)
            return
        lim = lb.limits
        conn = Connection(websocket, player, address=address, address_bucket=lb.ws_buckets.get(address),
                          burst=lim.ws_burst, rate=lim.ws_rate, error_burst=lim.error_burst,
                          error_rate=lim.error_rate)
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
            pass  # the client went away: detaching below is all there is to do
        except Exception:
            log.exception("room %s: websocket failed", room.id)
        finally:
            room.detach(conn)
            try:
                await asyncio.wait_for(writer, 2)
            except (TimeoutError, asyncio.CancelledError, Exception):
                writer.cancel()

    async def server_error(request: Request, exc: Exception) -> Response:
        return _err(500, "internal error")

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own 404 (no such route) and 405 (wrong method), as JSON like every other error."""
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": f"{exc.detail}: {request.method} {request.url.path[:100]}"},
                            status_code=exc.status_code, headers=exc.headers)

    routes = [
        Route("/", made_page("index.html", "text/html")),
        Route("/table/{room}", page("table.html")),
        Route("/history", page("history.html")),
        Route("/replay/{match_id}", page("replay.html")),
        Route("/player/{name}", page("player.html")),
        Route("/account", page("account.html")),
        Route("/guide", guide),
        Route("/guide/{family}", guide),
        Route("/tiles/sprite.svg", tile_sprite),
        Route("/tiles/{name}.svg", tiles),
        Route("/healthz", healthz),
        Route("/api/rooms", api(create_room, post=True), methods=["POST"]),
        Route("/api/quick", api(quick, post=True), methods=["POST"]),
        Route("/api/rooms/{room}", api(room_info, room=True)),
        Route("/api/rooms/{room}/join", api(join, post=True, room=True), methods=["POST"]),
        Route("/api/rooms/{room}/start", api(start, post=True, room=True), methods=["POST"]),
        *account_routes(lobby, address, api, _body),
        *rating_routes(lobby, api, page),
        *ranked_routes(lobby, api, _body),
        *score_routes(api, _read_limited),
        *calc_page_routes(),
        *practice_routes(api, _body, lobby),
        *review_routes(api, stored_match, lobby),
        Route("/internal/rooms/{room}", internal_room),
        Route("/internal/lobby", internal_lobby),
        Route("/api/lobby", api(lobby_list)),
        Route("/api/matches", api(list_matches)),
        Route("/api/matches/{match_id}", api(get_match)),
        Route("/api/matches/{match_id}/record", api(record)),
        Route("/api/matches/{match_id}/frames", api(match_frames)),
        Route("/api/players/{name}", api(player_statistics)),
        WebSocketRoute("/ws/{room}", ws_endpoint),
        Route("/static/registry.js", made_page("registry.js", "text/javascript")),
        Route("/static/wins.js", made_page("wins.js", "text/javascript")),
        *(Mount(f"/static/families/{f.name}", StaticFiles(directory=folder))
          for f in fams if (folder := family_static(f)) is not None),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={500: server_error, HTTPException: http_error})
    app.add_middleware(SecurityHeaders)
    if trusted_proxies is not None:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))
    return app


def _is_db_error(e: Exception) -> bool:
    """A SQLAlchemy error (the database is down or refused): checked by module, not imported."""
    return type(e).__module__.startswith("sqlalchemy")
