"""``GET /api/matches/{match_id}/review?seat=N`` (issue 32, part 1): the review (复盘) of one seat of a
stored match, in the browser's replay viewer.

The answer streams NDJSON (``application/x-ndjson``): ``{"type": "progress", "done": k, "total": n}``
lines while the search runs (``"queued": q`` with done and total 0 while it waits behind ``q``
other reviews), then one ``{"type": "review", …}`` line — :meth:`tjmj.review.Review.to_dict` — or
``{"type": "error", "error": "…"}``.  Everything refused before the stream starts is the app's
one-line JSON error: 400 for a seat that is not exactly one ASCII digit 0–3 (the record's actor),
404 for an unknown match, 409 for a match still playing (its seed would deal the hands to come) or
one with nothing stored, 503 when too many reviews already wait.

A review is CPU-bound for seconds (the expert's search at every decision), so it runs in a worker
thread, one at a time per process (the others queue: a review already uses a whole core, and
several would slow every table), within :data:`REVIEW_BUDGET` seconds of search.  A finished match
never changes, so its reviews are kept in a small LRU cache by (match, seat): a second request is
answered at once.  A client that goes away does not stop a review already running (a thread cannot
be interrupted; the budget bounds it), and its result still fills the cache.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..record import ReplayError
from ..review import review
from .inputs import LobbyError

__all__ = ["review_routes", "REVIEW_BUDGET", "REVIEW_ROUNDS", "REVIEW_CACHE", "REVIEW_QUEUE"]

REVIEW_BUDGET = 20.0  # seconds of search for one review, whatever the match's length
# a fixed number of worlds per decision instead of the budget (the same review on every machine):
# None in service; the tests set it to compare the API's figures with tjmj.review.review's
REVIEW_ROUNDS: int | None = None
REVIEW_SEED = 0  # the search's seed: the CLI's default, so `tjmj review --rounds N` gives the same figures
REVIEW_CACHE = 32  # finished reviews kept (one is a few tens of KiB)
REVIEW_QUEUE = 8  # reviews waiting for the one running; more are refused (503) rather than held open
SEAT = re.compile(r"^[0-3]$")  # ASCII only: int() also reads '０' and ' 1'

NDJSON = "application/x-ndjson"
StoredMatch = Callable[[Request], Awaitable[tuple[int, dict[str, Any]]]]


def _line(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj) + b"\n"


def _seat(request: Request) -> int:
    """The seat reviewed: exactly one of the digits 0–3 (the record's ``actor``), else 400."""
    values = request.query_params.getlist("seat")
    if len(values) != 1 or not SEAT.match(values[0]):
        raise LobbyError(400, "'seat' must be one of 0, 1, 2, 3 (the seat as the record numbers it)")
    return int(values[0])


def review_routes(api: Callable[..., Any], stored_match: StoredMatch, lobby: Callable[[], Any]) -> list[Route]:
    """The review's route, wrapped by the app's ``api`` (rate limit, JSON errors); ``stored_match``
    is the app's reader of a stored match (its id checked, 404 if unknown), ``lobby`` the app's lobby."""
    cache: OrderedDict[tuple[int, int], bytes] = OrderedDict()
    # made on first use, inside the server's event loop (a semaphore belongs to the loop it first waits in)
    gate: dict[str, asyncio.Semaphore] = {}
    waiting = [0]  # requests queued behind the running review

    def remember(key: tuple[int, int], line: bytes) -> None:
        cache[key] = line
        cache.move_to_end(key)
        while len(cache) > REVIEW_CACHE:
            cache.popitem(last=False)

    def cached(key: tuple[int, int]) -> bytes | None:
        line = cache.get(key)
        if line is not None:
            cache.move_to_end(key)
        return line

    tasks: set[asyncio.Task[None]] = set()  # the running review's: the loop holds tasks weakly only

    async def lines(key: tuple[int, int], events: list[dict[str, Any]], keep: bool) -> AsyncIterator[bytes]:
        sem = gate.setdefault("sem", asyncio.Semaphore(1))
        if sem.locked():
            yield _line({"type": "progress", "done": 0, "total": 0, "queued": waiting[0] + 1})
        waiting[0] += 1
        try:
            await sem.acquire()
        finally:
            waiting[0] -= 1
        done = cached(key) if keep else None  # another request may have reviewed it while this one waited
        if done is not None:
            sem.release()
            yield done
            return
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()

        def progress(k: int, n: int) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, _line({"type": "progress", "done": k, "total": n}))

        def run() -> bytes:
            try:
                r = review(events, key[1], budget=REVIEW_BUDGET, rounds=REVIEW_ROUNDS, seed=REVIEW_SEED,
                           progress=progress)
            except ReplayError as e:
                return _line({"type": "error", "error": f"the stored match does not replay: {e}"})
            return _line({"type": "review", **r.to_dict()})

        async def work() -> None:
            # the semaphore is released here, when the thread ends, not when the client leaves: a
            # review left running must not let a second one start beside it
            try:
                line = await asyncio.to_thread(run)
                if keep and line.startswith(b'{"type":"review"'):
                    remember(key, line)
            except Exception as e:  # a bug: said to the client, not a broken stream
                line = _line({"type": "error", "error": f"the review failed: {type(e).__name__}"})
            finally:
                sem.release()
            queue.put_nowait(line)
            queue.put_nowait(None)

        try:
            task = asyncio.create_task(work())
        except BaseException:
            sem.release()
            raise
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        while (item := await queue.get()) is not None:
            yield item

    async def match_review(request: Request) -> Response:
        seat = _seat(request)
        mid, m = await stored_match(request)
        if m["status"] == "playing":
            raise LobbyError(409, "the match is still being played; it can be reviewed when it ends")
        key = (mid, seat)
        done = cached(key)
        if done is not None:
            return Response(done, media_type=NDJSON)
        if waiting[0] >= REVIEW_QUEUE:
            raise LobbyError(503, "too many reviews are waiting; try again shortly", retry_after=10)
        lb = lobby()
        events = await lb.db_read(lb.store.events, mid)
        if not events:
            raise LobbyError(409, "nothing of this match was stored (it ended during its first hand)")
        # an abandoned match is reviewed but not kept (as its frames are not)
        return StreamingResponse(lines(key, events, m["status"] == "finished"), media_type=NDJSON,
                                 headers={"Cache-Control": "no-store"})

    return [Route("/api/matches/{match_id}/review", api(match_review))]
