"""Accounts of the web table (docs/web.md, "Accounts"; docs/security.md, "Accounts").

``POST /api/account/signup`` and ``/login`` (``{"name", "password"}``), ``/logout``,
``/password`` (``{"password", "new_password"}``), ``/delete`` (``{"password"}``), and
``GET /api/account/me``.  Passwords are hashed with Argon2id (argon2-cffi's RFC 9106 low-memory
profile), off the event loop and at most :data:`HASHING_AT_ONCE` at a time (each takes 64 MiB);
only the hash is stored.  A session is a random cookie (``tjmj_session``: HttpOnly, SameSite=Lax,
Secure over HTTPS), stored as its SHA-256, made anew at every login and sign-up (no fixation) and
ended by logout, a password change (every session of the account) or deletion.  A wrong name and a
wrong password get the same 401 after the same work; too many failures for one name or from one
address within :data:`FAILURE_WINDOW` get 429.  Every POST goes through the app's JSON-only,
same-origin check (``app.api``): with SameSite cookies, that is the defence against cross-site
requests.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .inputs import LobbyError, account_player_id, clean_name, is_account_id, player_id
from .store_accounts import NameTaken

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["COOKIE", "account_routes", "hash_password", "identity", "session_of"]

COOKIE = "tjmj_session"
SESSION_TTL = timedelta(days=30)
FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_NAME = 10
MAX_FAILURES_PER_ADDRESS = 50
PASSWORD_MIN, PASSWORD_MAX = 8, 200
HASHING_AT_ONCE = 2

_hasher = PasswordHasher()  # Argon2id with argon2-cffi's default parameters (RFC 9106, low memory)
_dummy: list[str] = []  # a hash to check a password against when the name has no account


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _account_name(value: Any) -> str:
    """A new account's name: a display name as the tables show it (:func:`clean_name`), given in full."""
    if not isinstance(value, str) or not value.strip():
        raise LobbyError(400, "'name' must be a name of 1 to 20 characters")
    name = clean_name(value)
    if name != value.strip():
        raise LobbyError(400, "'name' must be 1 to 20 printable characters, with no spaces at either end")
    return name


def _password(value: Any, what: str = "password") -> str:
    if not isinstance(value, str) or not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise LobbyError(400, f"'{what}' must be {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return value


async def session_of(lobby: Lobby, conn: HTTPConnection) -> dict[str, Any] | None:
    """The account signed in on this request (its session cookie), or None."""
    token = conn.cookies.get(COOKIE)
    find = getattr(lobby.store, "session", None)  # None: a store without accounts (the tests' fakes)
    if not token or len(token) > 100 or find is None:
        return None
    return await lobby.db_answer(find, _token_hash(token))  # type: ignore[no-any-return]


async def identity(lobby: Lobby, request: HTTPConnection, data: dict[str, Any]) -> tuple[str, str | None]:
    """Who takes a place at a table: (name, player id).  Signed in: the account's name and its
    player id, whatever the body says.  A guest: the name and browser id the body gives (issue 31,
    part 2): a name that belongs to an account is refused (409), and so is an account's id."""
    me = await session_of(lobby, request)
    if me is not None:
        return me["name"], account_player_id(me["id"])
    name = clean_name(data.get("name"))
    pid = player_id(data.get("player_id"))
    if is_account_id(pid):
        raise LobbyError(400, "'player_id' must not be an account's: log in instead")
    account = getattr(lobby.store, "account", None)
    if account is not None and await lobby.db_answer(account, name) is not None:
        raise LobbyError(409, f"the name {name!r} belongs to an account: log in to play as {name}, "
                              "or choose another name")
    return name, pid


def account_routes(lobby: Callable[[], Lobby], address: Callable[[HTTPConnection], str],
                   api: Callable[..., Any], body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list[Route]:
    """The account routes, each wrapped by the app's ``api`` (rate limit, origin, JSON errors)."""
    hashing: dict[str, asyncio.Semaphore] = {}

    async def work(fn: Callable[..., Any], *args: Any) -> Any:
        """Hashing in a thread, a few at a time (CPU and 64 MiB each)."""
        sem = hashing.setdefault("sem", asyncio.Semaphore(HASHING_AT_ONCE))
        async with sem:
            return await asyncio.to_thread(fn, *args)

    async def dummy() -> str:
        if not _dummy:
            _dummy.append(await work(hash_password, secrets.token_urlsafe(16)))
        return _dummy[0]

    async def begin(request: Request, account_id: int, name: str) -> Response:
        """A new session (the request's old one, if any, ends): the answer with its cookie."""
        lb = lobby()
        old = request.cookies.get(COOKIE)
        if old and len(old) <= 100:
            await lb.db_answer(lb.store.end_session, _token_hash(old))  # type: ignore[attr-defined]
        token = secrets.token_urlsafe(32)
        await lb.db_answer(lb.store.start_session, account_id, _token_hash(token), SESSION_TTL)  # type: ignore[attr-defined]
        response = JSONResponse({"name": name})
        response.set_cookie(COOKIE, token, max_age=int(SESSION_TTL.total_seconds()), path="/", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
        return response

    async def check_password(request: Request, name: str, password: str) -> dict[str, Any]:
        """The account if ``password`` is its; else 401 (the same for an unknown name), 429 when
        this name or this address failed too often lately."""
        lb = lobby()
        store: Any = lb.store
        by_name, by_address = await lb.db_answer(store.login_failures, name, address(request), FAILURE_WINDOW)
        if by_name >= MAX_FAILURES_PER_NAME or by_address >= MAX_FAILURES_PER_ADDRESS:
            raise LobbyError(429, "too many failed logins; try again later",
                             retry_after=FAILURE_WINDOW.total_seconds() / 3)
        acct = await lb.db_answer(store.account, name)
        ok = await work(_verify, acct["password_hash"] if acct else await dummy(), password)
        if not ok or acct is None:
            await lb.db_answer(store.note_login_failure, name, address(request))
            raise LobbyError(401, "wrong name or password")
        if _hasher.check_needs_rehash(acct["password_hash"]):
            await lb.db_answer(store.set_password, acct["id"], await work(hash_password, password))
        return acct  # type: ignore[no-any-return]

    async def me_or_401(request: Request) -> dict[str, Any]:
        me = await session_of(lobby(), request)
        if me is None:
            raise LobbyError(401, "not signed in")
        return me

    async def signup(request: Request) -> Response:
        data = await body(request)
        name = _account_name(data.get("name"))
        password = _password(data.get("password"))
        lb = lobby()
        guest = player_id(data.get("player_id"))  # this browser's id as a guest: its matches come along
        try:
            account_id = await lb.db_answer(lb.store.create_account, name, await work(hash_password, password))  # type: ignore[attr-defined]
        except NameTaken:
            raise LobbyError(409, "that name is taken; choose another, or log in") from None
        if guest is not None and not is_account_id(guest):
            await lb.db_answer(lb.store.adopt_guest_matches, guest, account_player_id(account_id), name)  # type: ignore[attr-defined]
        return await begin(request, account_id, name)

    async def login(request: Request) -> Response:
        data = await body(request)
        name, password = data.get("name"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or not name or len(name) > 100 \
                or len(password) > PASSWORD_MAX:
            raise LobbyError(400, "'name' and 'password' must be strings")
        acct = await check_password(request, name, password)
        return await begin(request, acct["id"], acct["name"])

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        lb = lobby()
        if token and len(token) <= 100:
            await lb.db_answer(lb.store.end_session, _token_hash(token))  # type: ignore[attr-defined]
        response = JSONResponse({})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    async def me(request: Request) -> Response:
        acct = await me_or_401(request)
        return JSONResponse({"name": acct["name"], "created": acct["created_at"].isoformat(),
                             "player_id": account_player_id(acct["id"])})

    async def change_password(request: Request) -> Response:
        data = await body(request)
        acct = await me_or_401(request)
        old = data.get("password")
        new = _password(data.get("new_password"), "new_password")
        if not isinstance(old, str) or len(old) > PASSWORD_MAX:
            raise LobbyError(400, "'password' must be a string")
        await check_password(request, acct["name"], old)
        lb = lobby()
        await lb.db_answer(lb.store.set_password, acct["id"], await work(hash_password, new))  # type: ignore[attr-defined]
        return await begin(request, acct["id"], acct["name"])  # every other session has ended

    async def delete(request: Request) -> Response:
        data = await body(request)
        acct = await me_or_401(request)
        password = data.get("password")
        if not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise LobbyError(400, "'password' must be a string")
        await check_password(request, acct["name"], password)
        lb = lobby()
        await lb.db_answer(lb.store.delete_account, acct["id"], account_player_id(acct["id"]))  # type: ignore[attr-defined]
        response = JSONResponse({"deleted": acct["name"]})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    return [
        Route("/api/account/signup", api(signup, post=True), methods=["POST"]),
        Route("/api/account/login", api(login, post=True), methods=["POST"]),
        Route("/api/account/logout", api(logout, post=True), methods=["POST"]),
        Route("/api/account/password", api(change_password, post=True), methods=["POST"]),
        Route("/api/account/delete", api(delete, post=True), methods=["POST"]),
        Route("/api/account/me", api(me)),
    ]
