"""The ratings' routes (docs/web.md, "Ratings and the leaderboard"): the leaderboard of a family and
an account's ratings with their history.  Read only: ratings are written by the store alone, when
a ranked match finishes (:mod:`tjmj.web.store_ratings`); no request can set one.

| ``GET /api/leaderboard?family=F[&limit=N&offset=K]`` | ``{"family", "players": [{"rank", "name",
  "rating", "matches", "mu", "sigma"}], "bots": [{"name": level, "bot", "rating", "mu", "sigma"}]}`` |
| ``GET /api/players/{name}/ratings`` | ``{"name", "account": true, "ratings": [{"family", "rating",
  "matches", "mu", "sigma", "updated_at", "history": [{"match_id", "rating", "at"}]}], "bots":
  {family: [...]}}``; ``"account": false`` and no ratings when no account has the name |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import families
from ..ratings import Rating, bot_ratings
from .inputs import LEVELS, LobbyError, account_player_id, clean_name

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["bots_of", "rating_routes"]

PAGE = 100  # leaderboard rows per request, at most
MAX_NAME_LEN = 20  # the lobby's display names (tjmj.web.inputs.clean_name)


def bots_of(family: str) -> list[dict[str, Any]]:
    """The lobby's bot levels with their fixed ratings in ``family``, best first (none measured: [])."""
    measured = bot_ratings().get("families", {}).get(family, {}).get("bots", {})
    out = []
    for level, bot in LEVELS.items():
        entry = measured.get(bot)
        if entry is not None:
            r = Rating(float(entry["mu"]), float(entry["sigma"]))
            out.append({"name": level, "bot": bot, "rating": r.display, "mu": round(r.mu, 4),
                        "sigma": round(r.sigma, 4)})
    return sorted(out, key=lambda b: -b["rating"])


def _family(value: str | None) -> str:
    names = [f.name for f in families.all_families()]
    if value not in names:
        shown = repr(value) if value is None or len(value) <= 40 else repr(value[:37] + "...")
        raise LobbyError(400, f"'family' must be one of {', '.join(names)}, not {shown}")
    return value


def _count(request: Request, what: str, default: int, top: int) -> int:
    raw = request.query_params.get(what)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) > top:
        raise LobbyError(400, f"'{what}' must be a whole number from 0 to {top}")
    return int(raw)


def rating_routes(lobby: Callable[[], Lobby], api: Callable[..., Any], page: Callable[[str], Any]) -> list[Route]:
    """The ratings' routes, each wrapped by the app's ``api`` (rate limit, JSON errors, 503 on a
    failing database); ``page`` serves a static page (the app's)."""

    async def leaderboard(request: Request) -> Response:
        family = _family(request.query_params.get("family"))
        limit = _count(request, "limit", PAGE, PAGE)
        offset = _count(request, "offset", 0, 1_000_000)
        lb = lobby()
        players = await lb.db_read(lb.store.leaderboard, family, limit, offset)  # type: ignore[attr-defined]
        return JSONResponse({"family": family, "players": players, "bots": bots_of(family)})

    async def player_ratings(request: Request) -> Response:
        name = request.path_params["name"]
        if not 1 <= len(name) <= MAX_NAME_LEN or clean_name(name, "") != name:
            raise LobbyError(400, f"a player's name has 1 to {MAX_NAME_LEN} printable characters, "
                                  "without spaces at either end")
        lb = lobby()
        store: Any = lb.store
        acct = await lb.db_read(store.account, name)
        if acct is None:  # a guest's name: nothing rated to show (an answer, not a 404 on every guest's page)
            return JSONResponse({"name": name, "account": False, "ratings": [], "bots": {}})
        pid = account_player_id(acct["id"])
        rated = await lb.db_read(store.ratings, pid)
        for r in rated:
            history = await lb.db_read(store.rating_history, pid, r["family"])
            r["history"] = [{"match_id": h["match_id"], "rating": h["rating"], "at": h["at"]} for h in history]
        return JSONResponse({"name": acct["name"], "account": True, "ratings": rated,
                             "bots": {r["family"]: bots_of(r["family"]) for r in rated}})

    return [
        Route("/leaderboard", page("leaderboard.html")),
        Route("/api/leaderboard", api(leaderboard)),
        Route("/api/players/{name}/ratings", api(player_ratings)),
    ]

