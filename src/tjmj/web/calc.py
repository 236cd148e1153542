"""``POST /api/score`` (issue 32, part 2): one line of the batch format (docs/cli.md, ``tjmj score
--batch``) in, exactly the batch's answer for it out, for every family.

The body is the JSON object of one batch line; the answer is what :func:`tjmj.jsonlines.batch_answer`
gives for it (the score, the elements or fan, the arrangement), or its one-line ``{"error": …}``
with status 400.  ``?arrangement=false`` leaves the arrangement out, as ``--no-arrangement`` does.
Scoring changes nothing, so the route is limited as a read (the per-address GET budget) and needs
no same-site check; the body must still be JSON (``Content-Type: application/json``), at most
16 KiB, and it is scored off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..jsonlines import RulesCache, batch_answer
from .inputs import LobbyError

__all__ = ["score_routes"]

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
        raw = await read(request)
        if not raw.endswith(b"\n"):  # as a line of a batch file: an error's position reads the same
            raw += b"\n"
        sem = gate.setdefault("sem", asyncio.Semaphore(SCORING_AT_ONCE))
        async with sem:
            # a cache of its own: one shared by every request would grow with whatever rules clients send
            answer = await asyncio.to_thread(batch_answer, raw, RulesCache(), flag in ("true", "1"))
        # orjson: the answer holds pre-serialized parts (orjson.Fragment), written as the batch writes them
        return Response(orjson.dumps(answer), media_type="application/json",
                        status_code=400 if "error" in answer else 200)

    return [Route("/api/score", api(score), methods=["POST"])]
