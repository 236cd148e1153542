"""Running the web table with uvicorn, hardened against idle and slow connections (docs/security.md).

uvicorn closes a kept-alive connection that idles between requests, but not one that never sends
a request or sends its headers a byte at a time (slowloris): :func:`guarded_protocol` makes an
HTTP protocol class that closes a connection whose request headers are not complete within
``header_timeout`` seconds, refuses connections beyond ``max_connections`` in all (WebSockets
included) and beyond ``per_address`` from one address, and :func:`serve` binds the socket itself
so that a port in use is one clear error and the ready line is printed only once it listens.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

import uvicorn

__all__ = ["RedactTokens", "bind", "guarded_protocol", "make_server", "serve"]

LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "tjmj")

HEADER_TIMEOUT = 10.0
MAX_CONNECTIONS = 2000
PER_ADDRESS = 64


def _base_protocol() -> type[Any]:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        return HttpToolsProtocol
    except ImportError:  # httptools is part of uvicorn[standard]; h11 is the fallback
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol


def guarded_protocol(header_timeout: float = HEADER_TIMEOUT, max_connections: int = MAX_CONNECTIONS,
                     per_address: int = PER_ADDRESS, exempt: AbstractSet[str] = frozenset()) -> type[Any]:
    """An uvicorn HTTP protocol class with a header deadline and connection caps.

    ``exempt``: addresses the per-address cap does not apply to (a reverse proxy in front, the
    peers of a cluster); a set that may grow while the server runs."""
    base = _base_protocol()
    per: dict[str, int] = {}  # open HTTP connections per address (shared by the class's instances)

    class GuardedProtocol(base):  # type: ignore[misc, valid-type]
        """Closes a connection that has not sent a whole request head in time; caps connections."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._guard: asyncio.TimerHandle | None = None
            self._addr = self.client[0] if self.client else ""
            self._counted = False
            if len(self.connections) > max_connections:
                transport.abort()  # over the server's cap: no answer at all, costs nothing
                return
            if self._addr not in exempt:
                if per.get(self._addr, 0) >= per_address:
                    transport.abort()
                    return
                per[self._addr] = per.get(self._addr, 0) + 1
                self._counted = True
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._guard = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if getattr(self, "_guard", None) is not None:
                self._guard.cancel()  # type: ignore[union-attr]
                self._guard = None

        def _too_slow(self) -> None:
            self._guard = None
            self.transport.close()

        def _uncount(self) -> None:
            if getattr(self, "_counted", False):
                self._counted = False
                n = per.get(self._addr, 1) - 1
                if n > 0:
                    per[self._addr] = n
                else:
                    per.pop(self._addr, None)

        def on_message_begin(self) -> None:  # a new request on a kept-alive connection: a new deadline
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()
            self._uncount()  # the WebSocket is counted by the app (sockets per address)
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

    if base.__name__ == "H11Protocol":  # h11 has no parser callbacks: guard the whole first request
        def handle_events(self: Any) -> None:
            base.handle_events(self)
            if self.scope is not None:
                self._disarm()

        GuardedProtocol.handle_events = handle_events
    return GuardedProtocol


class RedactTokens(logging.Filter):
    """Blanks secrets out of log records: at debug level the WebSocket library logs every frame
    (the ``hello`` with its token), and an old client may still put ``?token=`` in a URL."""

    PATTERNS = (re.compile(r'("token"\s*:\s*")[^"]*(")'), re.compile(r"(token=)[^&\s\"']+()"))

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token" in text:
            for pattern in self.PATTERNS:
                text = pattern.sub(r"\1[redacted]\2", text)
            record.msg, record.args = text, None
        return True


def redact_logs() -> None:
    """Install :class:`RedactTokens` on the server's loggers (after uvicorn configured them)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; OSError (port in use, no such address) as is."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def make_server(app: Any, *, on_ready: Callable[[], None] | None = None, log_level: str = "info",
                header_timeout: float = HEADER_TIMEOUT, max_connections: int = MAX_CONNECTIONS,
                per_address: int = PER_ADDRESS, forwarded_allow_ips: str | None = None,
                keep_alive: int = 5, exempt: set[str] | None = None) -> uvicorn.Server:
    """The uvicorn server of ``tjmj serve``: guarded connections, tokens kept out of the logs, and
    ``on_ready()`` once it accepts connections.  Run it with ``server.run(sockets=[bind(...)])``.
    ``exempt``: more addresses not capped per address (the cluster's peers; the set may grow)."""
    exempt = exempt if exempt is not None else set()
    exempt.update(a.strip() for a in (forwarded_allow_ips or "").split(",") if a.strip() and a.strip() != "*")
    config = uvicorn.Config(
        app, log_level=log_level, ws_max_size=64 * 1024, timeout_keep_alive=keep_alive,
        http=guarded_protocol(header_timeout, max_connections, per_address, exempt),
        proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips, server_header=False,
        timeout_graceful_shutdown=10,
    )
    redact_logs()  # uvicorn.Config has just configured its loggers

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started and on_ready is not None:
                on_ready()

    return Server(config)


def serve(app: Any, sock: socket.socket | list[socket.socket], *, on_ready: Callable[[], None],
          **options: Any) -> None:
    """Serve ``app`` on the bound socket(s) until interrupted (options as :func:`make_server`)."""
    make_server(app, on_ready=on_ready, **options).run(sockets=sock if isinstance(sock, list) else [sock])
