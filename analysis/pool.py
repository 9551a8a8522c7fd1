"""A pool of worker processes for the engine's work on every core (rollouts, ``jacquet
analyse --jobs``, ``jacquet import --analyse --jobs``).

- Workers are *spawned* (a fresh interpreter each), hold BLAS to one thread
  (:mod:`analysis.threads`) and ignore SIGINT: Ctrl-C reaches the parent alone, which stops
  the pool and keeps what it has. A caller that knows its process is safe to copy may ask
  for *forked* workers instead (``method="fork"``: the analysis of games,
  :func:`analysis.analyse_jobs.analyser`, says when), which share the parent's imported
  modules and loaded kernels instead of loading their own.
- Each worker runs ``initializer(*initargs)`` once (load the net, build the rule set), then
  the tasks it is given. A task's result depends on the task alone, never on which worker
  ran it or in what order, so a pool gives exactly what one process gives.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import Any, TypeVar

from analysis.threads import limit_blas_threads

T = TypeVar("T")
R = TypeVar("R")


def all_cores() -> int:
    """The cores this process may run on (the default of ``--jobs``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover (not Linux)
        return os.cpu_count() or 1


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit_blas_threads(1)
    if initializer is not None:
        initializer(*initargs)


@contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = (), method: str = "spawn") -> Iterator[Pool]:
    """``jobs`` workers started by ``method`` (``spawn``, or ``fork``: see the module
    docstring). Leaving the block normally waits for them; leaving it by an exception
    (Ctrl-C in the parent) stops them at once."""
    context = multiprocessing.get_context(method)
    pool = context.Pool(jobs, _start_worker, (initializer, initargs))
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()


def ordered_map(function: Callable[[T], R], items: Iterable[T], jobs: int,
                initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[R]:
    """``function`` of each item, in the items' order: in this process when ``jobs`` is 1
    (after ``initializer``), else over a pool of ``jobs`` workers, one item a task."""
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            yield function(item)
        return
    with worker_pool(jobs, initializer, initargs) as pool:
        yield from pool.imap(function, items)
