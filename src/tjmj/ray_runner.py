"""Self-play and tournaments on a Ray cluster: ``tjmj simulate … --ray [ADDRESS]`` and ``tjmj
tournament … --ray [ADDRESS]`` (docs/ray.md).  Needs the ``ray`` extra
(``pip install 'tianjin-mahjong[ray]'``).

The work is the same list of tasks as ``--workers`` (one match each, a pure function of its seed,
rules and bots), so the records and results are the same for a seed however it runs.  Each task
is a Ray task with ``max_retries``: a worker that dies (killed, out of memory, its node lost) has
its task run again from the start, and results are merged by task index, so nothing is lost or
counted twice.  An error raised by the task itself (a bot's bug) is not retried: it stops the run
with its message.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["RayUnavailable", "ordered_results", "RETRIES"]

T = TypeVar("T")
R = TypeVar("R")
RETRIES = 5  # runs of one task after its worker died, before the run fails


class RayUnavailable(RuntimeError):
    """Ray is not installed, the cluster cannot be reached, or it lost one task's workers more often
    than :data:`RETRIES`; the message says which."""


def _connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (None or "": start a local one); True when this call started
    Ray (and so should stop it)."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'tianjin-mahjong[ray]' "
                             "(in a clone: pip install -e '.[ray]')") from None
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if address:
        kwargs["address"] = address
    else:  # a local cluster of this machine's cores
        kwargs["num_cpus"] = os.cpu_count() or 1
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
        raise RayUnavailable(f"--ray: cannot start or reach {where}: {str(e).splitlines()[0]}") from None
    return True


def ordered_results(fn: Callable[[T], R], tasks: Sequence[T], address: str | None,
                    on_done: Callable[[int], None] | None = None) -> Iterator[R]:
    """``fn(task)`` for every task on Ray, yielded in task order (so merging never depends on which
    worker finished first); ``on_done(index)`` is called as each task finishes, in any order.

    A task whose worker died more than :data:`RETRIES` times stops the run (:class:`RayUnavailable`)."""
    started = _connect(address)
    import ray

    try:
        remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(fn)
        refs = [remote.remote(t) for t in tasks]
        index = {ref: i for i, ref in enumerate(refs)}
        ready: dict[int, Any] = {}
        pending = list(refs)
        nxt = 0
        while nxt < len(refs):
            if pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    ready[index[ref]] = ref
                    if on_done is not None:
                        on_done(index[ref])
            while nxt in ready:
                try:
                    result = ray.get(ready.pop(nxt))
                except ray.exceptions.RayTaskError as e:  # the task's own error: raise it as itself
                    raise e.as_instanceof_cause() from None
                except ray.exceptions.RayError as e:  # the worker died more often than retried
                    raise RayUnavailable(f"--ray: match task {nxt} failed on Ray {RETRIES + 1} times: {str(e).splitlines()[0]}") from None
                yield result
                nxt += 1
    finally:
        if started:
            ray.shutdown()
