"""Outside bots: a program that plays over a JSON-lines protocol on stdin/stdout (docs/bot-protocol.md).

The engine side starts the command (``cmd:python3 examples/bots/simple_bot.py`` is the bot name
``cmd:`` followed by a command line, split with :func:`shlex.split`), sends it a ``hello``, then at
each of its seat's decisions the events that seat may see since the last message (others' dealt
tiles and draws hidden, as on the web table) and a ``request``; the bot answers one line, an
``action`` or ``none``.

Anything else costs the bot nothing but the choice: garbage, an illegal action, no answer within
``timeout`` seconds, or a process that has exited are all replaced by the **safe default**
(:func:`safe_default`: never a kong, a win, a sit or pull above 0 or a wild discard while a plain
choice exists) and counted in :attr:`ExternalBot.errors`.  After a crash the bot is not
restarted: the safe default plays for it until the match ends.

A program that cannot be started at all is not a crash but a mistake in the bot's name:
:class:`ExternalBot` checks at construction that the program is found (on ``PATH``, or an
existing executable file) and raises :class:`BotStartError` otherwise, and so does a start that
the operating system refuses.

:class:`ExternalBot` follows the :class:`tjmj.bots.Bot` protocol, so any driver can use it; a driver
that calls :meth:`ExternalBot.bind` at the start of a match (the tournament does) also gets the
``hello`` with the rules and the event stream; without it the bot sees only the ``request``\\ s.
Call :meth:`ExternalBot.close` (or use it as a context manager) to end the process.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shlex
import shutil
import subprocess
import threading
import time
from collections import Counter
from typing import IO, TYPE_CHECKING, Any

import orjson

from ..game import Action, visible_event
from .baseline import family_of

if TYPE_CHECKING:
    from ..game import Match

__all__ = ["ExternalBot", "BotStartError", "CMD_PREFIX", "DEFAULT_TIMEOUT", "ERROR_KINDS", "PROTOCOL_VERSION",
           "safe_default", "is_external", "command_of", "check_command"]

CMD_PREFIX = "cmd:"
DEFAULT_TIMEOUT = 2.0  # seconds per decision
ERROR_KINDS = ("garbage", "illegal", "timeout", "crash")
PROTOCOL_VERSION = 1
START_GRACE = 5.0  # extra seconds for the first request of a process (interpreter start-up)
_CLOSE_WAIT = 1.0


def is_external(name: str) -> bool:
    return name.startswith(CMD_PREFIX)


def command_of(name: str) -> list[str]:
    """The argv of a ``cmd:...`` bot name; ValueError if there is no command."""
    text = name[len(CMD_PREFIX):] if is_external(name) else name
    try:
        argv = shlex.split(text)
    except ValueError as e:
        raise ValueError(f"bot {name!r}: {e}") from None
    if not argv:
        raise ValueError(f"bot {name!r}: no command after {CMD_PREFIX!r}")
    return argv


class BotStartError(ValueError, OSError):
    """An outside bot's program cannot be started (not found, not executable, refused by the OS).

    Both a ValueError (a bad bot name, like an unknown one) and an OSError (what starting it
    raised); the message names the bot and the problem.
    """


def _program_problem(program: str) -> str | None:
    """Why ``program`` (argv[0]) cannot be started, or None.  Without a shell, a bare name is looked
    up on PATH only and a name with a directory part is a file (relative to the current directory)."""
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.exists(program):
            return f"{program!r}: no such file"
        if os.path.isdir(program):
            return f"{program!r} is a directory"
        if not os.access(program, os.X_OK):
            return f"{program!r} is not executable (run it with its interpreter, e.g. cmd:python3 {program})"
        return None
    if shutil.which(program) is None:
        hint = " (did you mean python3?)" if program == "python" and shutil.which("python3") else ""
        return f"the program {program!r} is not found on PATH{hint}"
    return None


def check_command(name: str | list[str]) -> list[str]:
    """The argv of a ``cmd:`` bot name (or an argv), checked to be startable; starts nothing.

    Raises :class:`BotStartError` naming the bot when its program cannot be found, ValueError when
    there is no command."""
    argv = command_of(name) if isinstance(name, str) else list(name)
    if not argv:
        raise ValueError("outside bot: empty command")
    problem = _program_problem(argv[0])
    if problem is not None:
        label = name if isinstance(name, str) else CMD_PREFIX + shlex.join(argv)
        raise BotStartError(f"cannot start the outside bot {label!r}: {problem}")
    return argv


_ISOLATION_STEPS = ((1, 3), (2, 1))  # neighbour distance, weight: a touching tile counts more


def _isolation(tile: str, counts: Counter[str]) -> int:
    """How connected a tile is in the hand (pairs, neighbours); the lowest is discarded first."""
    num, suit = tile[:-1], tile[-1]
    score = 4 * (counts[tile] - 1)
    if suit == "z" or not num.isdigit():
        return score
    n = int(num)
    for d, w in _ISOLATION_STEPS:
        for k in (n - d, n + d):
            if 1 <= k <= 9 and counts[f"{k}{suit}"]:
                score += w
    return score - (n in (1, 9))  # terminals make fewer sequences


def safe_default(legal: list[Action], obs: dict[str, Any]) -> Action:
    """The choice made for a bot that gave none: a plain one, never a decision taken in its name.

    Pass if legal (a claim window, a rob window); ``sit 0`` / ``pull 0`` (never sit or pull above 0,
    R7); else discard the drawn tile if it is not a wild; else discard the most isolated non-wild
    tile (``drawn`` is null on the dealer's first turn and after a pon or chi); else, only when every
    discard is a wild, a wild discard in Beijing (no penalty there, B2) and the first legal action in
    Tianjin.  So it never declares a win, 混儿悠 or 混杠, never a kong in Beijing, and never discards
    a wild (小相公, R2) while a plain discard or a pass exists.
    """
    by_text = {str(a): a for a in legal}
    for text in ("pass", "sit 0", "pull 0"):
        if text in by_text:
            return by_text[text]
    wilds = set(obs.get("wilds") or ())
    plain = [a for a in legal if a.type == "discard" and str(a).split()[1] not in wilds]
    drawn = obs.get("drawn")
    if drawn is not None and drawn not in wilds and f"discard {drawn}" in by_text:
        return by_text[f"discard {drawn}"]
    if plain:
        counts = Counter(t for t in obs.get("hand") or () if t not in wilds)
        # honours before suited tiles on a tie (they never make sequences), then the text order
        return min(plain, key=lambda a: (_isolation(str(a).split()[1], counts), not str(a).endswith("z"), str(a)))
    if family_of(obs).bots.FREE_WILD_DISCARD:  # Beijing: a wild may be discarded freely (B2)
        for a in legal:
            if a.type == "discard":
                return a
    return legal[0]


class ExternalBot:
    """A bot played by an outside program (see the module docstring).

    ``errors`` counts ``garbage``, ``illegal``, ``timeout`` and ``crash``; ``decisions`` counts
    requests, ``defaults`` the decisions the safe default took (errors, ``none`` answers, and every
    decision after a crash).
    """

    uses_observation = True

    def __init__(self, command: str | list[str], *, timeout: float = DEFAULT_TIMEOUT, name: str | None = None,
                 stderr: str | os.PathLike[str] | None = None, start_grace: float = START_GRACE) -> None:
        self.argv = command_of(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("ExternalBot: empty command")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        self.name = name or CMD_PREFIX + (command if isinstance(command, str) else shlex.join(self.argv))
        # a program that cannot start is a wrong name, not a bot that crashed: say so now
        problem = _program_problem(self.argv[0])
        if problem is not None:
            raise BotStartError(f"cannot start the outside bot {self.name!r}: {problem}")
        self.timeout = timeout
        self.start_grace = start_grace
        self.stderr_path = stderr
        self.errors: Counter[str] = Counter()
        self.decisions = 0
        self.defaults = 0
        self.dead = False
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._err: IO[bytes] | None = None
        self._match: Match | None = None
        self._seat: int | None = None
        self._sent = 0  # events of the bound match already sent
        self._hello = False
        self._req = 0

    # ---- process ------------------------------------------------------------------------

    def _start(self) -> None:
        if self._proc is not None or self.dead:
            return
        if self.stderr_path is not None:
            self._err = open(self.stderr_path, "ab")  # noqa: SIM115 - closed in close()
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._err if self._err is not None else subprocess.DEVNULL)
        except OSError as e:  # e.g. a script without a #! line: the program never ran, so no crash
            if self._err is not None:
                self._err.close()
                self._err = None
            self.dead = True
            raise BotStartError(f"cannot start the outside bot {self.name!r}: {e.strerror or e}") from e
        threading.Thread(target=self._read, args=(self._proc.stdout, self._lines), daemon=True).start()

    @staticmethod
    def _read(stream: IO[bytes], out: queue.Queue[bytes | None]) -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under us: same as the end
            for line in stream:
                out.put(line)
        out.put(None)  # end of output: the process has exited (or closed stdout)

    def _crashed(self) -> None:
        if not self.dead:
            self.dead = True
            self.errors["crash"] += 1

    def _send(self, messages: list[dict[str, Any]]) -> bool:
        self._start()
        if self.dead or self._proc is None or self._proc.stdin is None:
            return False
        try:
            self._proc.stdin.write(b"".join(orjson.dumps(m) + b"\n" for m in messages))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._crashed()
            return False
        return True

    def close(self) -> None:
        """Send ``end`` (with the last events, when bound), close stdin and end the process."""
        proc, self._proc = self._proc, None
        if proc is not None:
            msgs = self._pending_events()
            msgs.append({"type": "end"})
            with contextlib.suppress(OSError, ValueError):
                if proc.stdin is not None and not self.dead:
                    proc.stdin.write(b"".join(orjson.dumps(m) + b"\n" for m in msgs))
                    proc.stdin.flush()
            with contextlib.suppress(OSError, ValueError):
                if proc.stdin is not None:
                    proc.stdin.close()
            try:
                proc.wait(_CLOSE_WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                with contextlib.suppress(OSError, ValueError):
                    proc.stdout.close()
        if self._err is not None:
            self._err.close()
            self._err = None
        self._match = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if self._proc is not None and self._proc.poll() is None:
                self._proc.kill()

    # ---- protocol -----------------------------------------------------------------------

    def bind(self, match: Match, seat: int) -> None:
        """Play ``seat`` of ``match``: send ``hello`` (seat, rules) and, later, the events it may see."""
        self._match, self._seat, self._sent = match, seat, 0
        self._hello = True
        self._send([{"type": "hello", "protocol": PROTOCOL_VERSION, "seat": seat, "name": self.name,
                     "rules": match.rules.to_dict(), "timeout": self.timeout}])

    def _pending_events(self) -> list[dict[str, Any]]:
        if self._match is None:
            return []
        evs = self._match.events[self._sent:]
        self._sent = len(self._match.events)
        return [visible_event(ev, self._seat) for ev in evs]  # the engine decides what a seat may see

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        self.decisions += 1
        answer = self._ask(obs, legal)
        if answer is None:
            self.defaults += 1
            return safe_default(legal, obs)
        return answer

    def _ask(self, obs: dict[str, Any], legal: list[Action]) -> Action | None:
        if self.dead:
            return None
        msgs: list[dict[str, Any]] = []
        if not self._hello:  # an unbound driver: say hello with what the observation tells
            self._hello = True
            msgs.append({"type": "hello", "protocol": PROTOCOL_VERSION, "seat": obs.get("seat"), "name": self.name,
                         "rules": None, "timeout": self.timeout})
        msgs.extend(self._pending_events())
        self._req += 1
        by_text = {str(a): a for a in legal}
        msgs.append({"type": "request", "id": self._req, "legal": list(by_text), "observation": obs})
        self._drain()
        if not self._send(msgs):
            return None
        deadline = time.monotonic() + self.timeout + (self.start_grace if self._req == 1 else 0.0)
        while True:
            line = self._answer(deadline)
            if line is None:
                return None
            try:
                msg = orjson.loads(line)
            except orjson.JSONDecodeError:
                self.errors["garbage"] += 1
                return None
            if isinstance(msg, dict) and "id" in msg and msg["id"] != self._req:
                continue  # a late answer to an earlier request
            break
        if not isinstance(msg, dict) or msg.get("type") not in ("action", "none"):
            self.errors["garbage"] += 1
            return None
        if msg["type"] == "none":
            return None
        text = msg.get("action")
        action = by_text.get(" ".join(text.split())) if isinstance(text, str) else None
        if action is None:
            self.errors["illegal"] += 1
        return action

    def _drain(self) -> None:
        """Drop lines left from an earlier request (a late answer after a time-out)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)  # keep the end-of-output mark for _answer
                return

    def _answer(self, deadline: float) -> bytes | None:
        """The next non-blank line before ``deadline``; None after a time-out or a crash."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.errors["timeout"] += 1
                return None
            if line is None:
                self._crashed()
                return None
            if line.strip():
                return line
