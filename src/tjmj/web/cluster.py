"""Several ``tjmj serve`` processes behind one address, on one PostgreSQL (docs/web.md, "Several processes").

A room lives in one process, its *owner* (the store's lease and fence on its match stay the
authority).  Any process takes any request: one for a room it does not hold is served through the
room's owner, which it finds by asking its peers (:meth:`Cluster.find`), and then

* a WebSocket is piped to the owner's own WebSocket (:meth:`Cluster.pipe`), frame by frame both
  ways, so that every seat's messages reach the one process that plays the match and its views
  come back; the owner therefore still sees every socket of its rooms, and "one live socket per
  seat" and the per-seat rate limits hold whichever process a page landed on;
* a room's HTTP call (its info, join, start) is sent on to the owner (:meth:`Cluster.forward`).

The peers are the rows of the ``nodes`` table whose heartbeat is fresh (written by a thread of its
own every ``Limits.node_beat`` seconds); a process that stops beating is dead after ``node_timeout`` seconds
and its matches are free for the others to take over at once.  What a process sends another is
signed with the cluster's secret (kept in the database): HMAC-SHA256 over the time, the client's
address, the method and the path.  The owner takes the client's address from a signed request only,
so a forged forward (from anyone without the secret) is an ordinary request from its real sender.

Why direct process-to-process connections and not PostgreSQL ``LISTEN/NOTIFY``: a table's views
are up to tens of kB (NOTIFY payloads stop at 8,000 bytes), every message would cost a database
round trip and a commit, and the owner would have to track sockets it cannot see.  The database
keeps what must survive a process (leases, heartbeats, records); the traffic goes peer to peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import threading
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import orjson
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from .limits import CLOSE_TRY_AGAIN

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["Cluster", "SIGNED_WITHIN"]

log = logging.getLogger("tjmj.web")

SIGNED_WITHIN = 30.0  # seconds a signed forward stays valid (the peers' clocks may differ a little)
H_TIME, H_CLIENT, H_SIGN = "x-tjmj-time", "x-tjmj-client", "x-tjmj-sign"
CLOSE_RESTART = 1012  # "service restart": the owner went away; the page reconnects, maybe elsewhere


class Cluster:
    """This process's part of a cluster: its address, its peers, and the forwarding to them.

    ``url``: where the peers reach this process directly (``http://10.0.0.5:8100``).  ``exempt``:
    the set of addresses the HTTP guard does not cap per address (:func:`tjmj.web.server.guarded_protocol`):
    the peers' hosts are added to it, since every forward comes from them."""

    def __init__(self, url: str, *, exempt: set[str] | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not a node url like http://10.0.0.5:8100")
        self.url = url.rstrip("/")
        self.peers: dict[str, str] = {}  # node id -> url, the live ones but this process
        self.exempt = exempt if exempt is not None else set()
        self._secret = b""
        self._client: httpx.AsyncClient | None = None
        self._found: dict[str, tuple[float, str]] = {}  # room code -> (when, its owner's url)
        self._lists: tuple[float, list[tuple[list[Any], list[Any]]]] = (-1e9, [])
        self._pipes: dict[str, set[Any]] = {}  # peer url -> the open connections piped to it
        self.beat_failed = False  # the last heartbeat did not reach the database
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # ---- membership -------------------------------------------------------------------------

    async def start(self, lobby: Lobby) -> None:
        """Join: the shared secret, a first heartbeat (the peers known before any request), then a
        thread that beats every ``Limits.node_beat`` seconds."""
        store: Any = lobby.store
        self._secret = await lobby.db_call(store.cluster_secret)
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(5.0, connect=2.0),
                                         limits=httpx.Limits(max_connections=200, max_keepalive_connections=50))
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._beat, store)
        # A thread of its own, not the event loop or the database pool: a busy loop (many tables on
        # a loaded core) or a queue of hand writes must not delay the beat past node_timeout, or
        # the peers would take this live process's matches over
        self._thread = threading.Thread(target=self._beating, args=(store, lobby.limits.node_beat),
                                        name="tjmj-heartbeat", daemon=True)
        self._thread.start()

    def _beating(self, store: Any, every: float) -> None:
        while not self._stopping.wait(every):
            self._beat(store)

    def _beat(self, store: Any) -> None:
        """Say this process is alive; learn who else is.  While the database does not answer, the
        peers are kept as they were (logged once): the others find this one dead meanwhile and
        take its matches over, and it lets its rooms go at its next renewal."""
        try:
            rows = store.heartbeat(self.url)
        except Exception as e:
            if not self.beat_failed:
                log.warning("cluster heartbeat failed (%s); the other processes may take this one's matches over",
                            str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
            self.beat_failed = True
            return
        if self.beat_failed:
            log.warning("cluster heartbeat works again")
            self.beat_failed = False
        peers = {r["id"]: r["url"].rstrip("/") for r in rows}
        for u in peers.values():
            host = urlsplit(u).hostname
            if host:
                self.exempt.add(host)
        self.peers = peers  # one assignment: the event loop sees the old dict or the new one
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed (shutting down)
                self._loop.call_soon_threadsafe(self._cut, set(peers.values()))

    def _cut(self, alive: set[str]) -> None:
        """On the event loop: a peer that stopped beating (frozen, its host lost) may never close
        its sockets; cut the pipes to it, so that the pages reconnect to whoever takes over."""
        for url in [u for u in self._pipes if u not in alive]:
            for peer in self._pipes.pop(url):
                peer.transport.abort()

    async def stop(self, lobby: Lobby) -> None:
        self._stopping.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 5)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(lobby.db_call(lobby.store.leave), lobby.limits.db_timeout)  # type: ignore[attr-defined]
        if self._client is not None:
            await self._client.aclose()

    # ---- signing ------------------------------------------------------------------------------

    def _mac(self, stamp: str, address: str, method: str, path: str) -> str:
        text = f"{stamp}\n{address}\n{method}\n{path}".encode()
        return hmac.new(self._secret, text, hashlib.sha256).hexdigest()

    def sign(self, method: str, path: str, address: str) -> dict[str, str]:
        """The headers of a forward of a ``method`` call on ``path`` from a client at ``address``."""
        stamp = f"{time.time():.3f}"
        return {H_TIME: stamp, H_CLIENT: address, H_SIGN: self._mac(stamp, address, method, path)}

    def verified(self, conn: HTTPConnection) -> str | None:
        """The client's address if ``conn`` is a forward signed by a peer, else None."""
        if not self._secret:
            return None
        h = conn.headers
        stamp, address, sign = h.get(H_TIME), h.get(H_CLIENT), h.get(H_SIGN)
        if not stamp or address is None or not sign or len(address) > 100:
            return None
        try:
            age = abs(time.time() - float(stamp))
        except ValueError:
            return None
        method = "WS" if conn.scope["type"] == "websocket" else conn.scope.get("method", "")
        if age > SIGNED_WITHIN or not hmac.compare_digest(sign, self._mac(stamp, address, method, conn.url.path)):
            return None
        return address

    # ---- finding a room's owner -------------------------------------------------------------

    async def find(self, code: str) -> str | None:
        """The url of the peer that holds room ``code`` now, or None if none does."""
        if self._client is None or not self.peers:
            return None
        hit = self._found.get(code)
        if hit is not None and time.monotonic() - hit[0] < 2.0 and hit[1] in self.peers.values():
            return hit[1]
        async def ask(url: str) -> tuple[str, bool] | None:
            # 5 s: a loaded peer answers late (a shorter wait made a room look ownerless: 503)
            data = await self._ask(url, f"/internal/rooms/{code}", 5.0)
            return None if data is None else (url, data.get("status") in ("waiting", "playing", "starting"))

        answers = [a for a in await asyncio.gather(*(ask(u) for u in self.peers.values())) if a is not None]
        # a process that lost the room (its lease ended) may still show it stopped: the one playing it first
        answers.sort(key=lambda a: not a[1])
        owner = answers[0][0] if answers else None
        if owner is not None:
            if len(self._found) > 10_000:
                self._found.clear()
            self._found[code] = (time.monotonic(), owner)
        return owner

    async def _ask(self, url: str, path: str, timeout: float) -> dict[str, Any] | None:
        """A signed GET of ``path`` on the peer at ``url``: its JSON object, or None (no answer in
        ``timeout`` seconds, not 200, not an object)."""
        assert self._client is not None
        try:
            r = await self._client.get(url + path, headers=self.sign("GET", path, ""), timeout=timeout)
            data = orjson.loads(r.content) if r.status_code == 200 else None
        except (httpx.HTTPError, orjson.JSONDecodeError):
            return None
        return data if isinstance(data, dict) else None

    def forget(self, code: str) -> None:
        self._found.pop(code, None)

    # ---- HTTP ---------------------------------------------------------------------------------

    async def forward(self, request: Request, url: str, address: str, body: bytes | None) -> Response:
        """Send ``request`` on to the peer at ``url``; its answer is this one's."""
        assert self._client is not None
        path = request.url.path
        # the cookie too: a signed-in person joins as their account whichever process they reached
        headers = {k: v for k, v in request.headers.items()
                   if k in ("content-type", "accept", "if-none-match", "cookie")}
        headers.update(self.sign(request.method, path, address))
        try:
            r = await self._client.request(request.method, url + path, params=request.query_params,
                                           content=body, headers=headers)
        except httpx.HTTPError as e:
            self.forget(path.split("/")[3] if path.count("/") >= 3 else "")
            log.warning("forwarding %s %s to %s failed: %s", request.method, path, url, e)
            body_out = orjson.dumps({"error": "the server playing this room did not answer; try again"})
            return Response(body_out, status_code=503, media_type="application/json", headers={"Retry-After": "2"})
        keep = {k: v for k, v in r.headers.items() if k in ("content-type", "etag", "cache-control", "retry-after")}
        return Response(r.content, status_code=r.status_code, headers=keep)

    async def peer_lists(self, lobby: Lobby) -> list[tuple[list[Any], list[Any]]]:
        """Every peer's (open, live) lobby lists, asked at most every ``Limits.lobby_rebuild`` seconds."""
        if self._client is None or not self.peers:
            return []
        when, lists = self._lists
        if time.monotonic() - when < lobby.limits.lobby_rebuild:
            return lists
        async def ask(url: str) -> tuple[list[Any], list[Any]] | None:
            data = await self._ask(url, "/internal/lobby", 2.0)
            return None if data is None else (list(data.get("open") or []), list(data.get("live") or []))

        got = [x for x in await asyncio.gather(*(ask(u) for u in self.peers.values())) if x is not None]
        self._lists = (time.monotonic(), got)
        return got

    # ---- WebSockets ----------------------------------------------------------------------------

    async def pipe(self, websocket: WebSocket, url: str, address: str) -> None:
        """Pipe the accepted ``websocket`` to the same path on the peer at ``url`` until either
        side closes.  The owner's close code is passed on; if the owner goes away without one the
        page is told to reconnect (1012), and it lands on whichever process plays the room next."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        path = websocket.url.path
        target = "ws" + url[4:] + path
        code, reason = CLOSE_RESTART, "the server playing this room went away; reconnecting"
        try:
            # no permessage-deflate between processes: the hop is local, and compressing every view
            # twice more would cost the owner's CPU for nothing
            async with connect(target, additional_headers=self.sign("WS", path, address), open_timeout=3,
                               max_size=1 << 20, ping_interval=20, ping_timeout=20, compression=None,
                               proxy=None) as peer:
                self._pipes.setdefault(url, set()).add(peer)

                async def upstream() -> None:  # the page's messages to the owner, until the page leaves
                    while True:
                        msg = await websocket.receive()
                        if msg["type"] == "websocket.disconnect":
                            return
                        text = msg.get("text")
                        if isinstance(text, str):
                            await peer.send(text)

                async def downstream() -> None:  # the owner's views to the page, until the owner closes
                    async for frame in peer:
                        await websocket.send_text(frame if isinstance(frame, str) else frame.decode(errors="replace"))

                up, down = asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())
                try:
                    done, _ = await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    self._pipes.get(url, set()).discard(peer)
                    for task in (up, down):
                        task.cancel()
                    await asyncio.gather(up, down, return_exceptions=True)
                if up in done:
                    # the page left: so does its socket at the owner at once (its seat shows away, its
                    # grace starts), rather than when the owner next sends it something
                    await peer.close()
                    return
                rcvd = peer.close_code
                if rcvd == 4404:  # it held the room a moment ago: the room moved; the page asks again
                    code, reason = CLOSE_TRY_AGAIN, "the room is moving between servers; reconnecting"
                elif rcvd is not None and rcvd not in (1006, 1011, 1001):
                    code, reason = rcvd, peer.close_reason or ""
        except InvalidStatus:
            code, reason = CLOSE_TRY_AGAIN, "the room is moving between servers; reconnecting"
        except (OSError, TimeoutError, ConnectionClosed, WebSocketDisconnect):
            pass  # the owner is unreachable or went away: the page is told 1012 below and reconnects
        self.forget(path.rsplit("/", 1)[-1].upper())
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason[:120])

