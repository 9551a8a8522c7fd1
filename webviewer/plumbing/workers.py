"""Heavy work of a request (checking a pasted or uploaded record, saving one, the legal
plays of a big doublet) done in a worker process, so that a game page answers promptly
whatever else runs: at most ``WORKERS`` at once, each given ``WORK_SECONDS`` and
``WORK_MEMORY_BYTES``, and at most ``WORK_QUEUE`` more requests waiting for a worker.

* A request that finds every worker busy and the queue full (or that waits longer than
  ``WORK_SECONDS`` for a worker) is answered 503 with ``Retry-After``.
* A job over its time is killed (its process ends: nothing of it stays) and answered 413:
  the input is too big to handle within the budget. A job over its memory ends the same
  way.

Each job runs in a new process forked from a small server process that has imported the
viewer once (``multiprocessing``'s ``forkserver``): a fresh, single-threaded process per
job, killed whole on timeout, whatever the job was doing. ``jacquet serve`` starts that
process as it starts (:func:`start_workers`); elsewhere the first job does. ``WORKERS = 0`` runs the work
in the request's own thread instead (no bound: for debugging and for tests that patch the
app in place).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import resource
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from flask import Flask, current_app
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from webviewer.plumbing.db import unavailable

WORK_DEFAULTS = {"WORKERS": 2, "WORK_SECONDS": 10.0, "WORK_QUEUE": 4,
                 "WORK_MEMORY_BYTES": 2 * 1024 ** 3}
"""Worker processes at once; seconds each job may take (and a request may wait for a
worker); requests that may wait; the address space a worker may use (beyond it the job
fails, the server is untouched). ``WORKERS + WORK_QUEUE`` stays below waitress's threads
(8), so that some are always free for browsing."""
PRELOAD = ["webviewer", "webviewer.pages.validation", "webviewer.blueprints.api",
           "webviewer.pages.analysis_job"]
"""What the process that forks the workers imports once."""
_EXTENSION = "jacquet.workers"
T = TypeVar("T")


class Busy(Exception):
    """Every worker busy and the queue full: try again soon."""


class OverBudget(Exception):
    """A job that took longer than its time, or more than its memory."""


class Workers:
    """The bound on the heavy work of one app: ``workers`` jobs at once, ``queue`` more
    waiting, each job given ``seconds`` and ``memory`` bytes."""

    def __init__(self, workers: int, seconds: float, queue: int, memory: int) -> None:
        self.workers = workers
        self.seconds = seconds
        self.memory = memory
        self.admitted = 0
        """Jobs running or waiting now."""
        self._running = threading.BoundedSemaphore(max(1, workers))
        self._admitted = threading.BoundedSemaphore(max(1, workers + queue))
        self._count = threading.Lock()
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)

    def start(self) -> None:
        """Start the process the workers are forked from now, so that it has imported
        :data:`PRELOAD` (some seconds) before the first heavy request comes, instead of
        making that request wait; nothing to start with ``WORKERS = 0``."""
        if self.workers:
            multiprocessing.forkserver.ensure_running()

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process (``function`` importable, its
        arguments and its result picklable); what it raises is raised here. :class:`Busy`
        if no worker is free in time, :class:`OverBudget` if it is killed."""
        if self.workers == 0:
            return function(*args)
        if not self._admitted.acquire(blocking=False):
            raise Busy
        with self._count:
            self.admitted += 1
        try:
            if not self._running.acquire(timeout=self.seconds):
                raise Busy
            try:
                return self._in_process(function, args)
            finally:
                self._running.release()
        finally:
            with self._count:
                self.admitted -= 1
            self._admitted.release()

    def _in_process(self, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        receiving, sending = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(sending, self.memory, function, args),
                                        daemon=True)
        process.start()
        sending.close()
        try:
            if not receiving.poll(self.seconds):
                raise OverBudget(f"it took longer than {self.seconds:g} s (WORK_SECONDS)")
            try:
                done, value = receiving.recv()
            except EOFError:  # the process died without a word: killed (memory), or crashed
                process.join()
                raise OverBudget(f"its worker process stopped (exit code {process.exitcode}): "
                                 "it may have needed more memory than a request may use "
                                 "(WORK_MEMORY_BYTES)") from None
        finally:
            receiving.close()
            if process.is_alive():
                process.kill()
            process.join()
        if not done:
            raise value
        return value  # type: ignore[no-any-return]


def _work(sending: Connection, memory: int, function: Callable[..., Any],
          args: tuple[Any, ...]) -> None:
    """In the worker: the job run within its memory, its result or its exception sent
    back (an exception that cannot be sent is sent as a :class:`RuntimeError`)."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        answer: tuple[bool, Any] = (True, function(*args))
    except MemoryError:
        answer = (False, OverBudget("it needed more memory than a request may use "
                                    "(WORK_MEMORY_BYTES)"))
    except Exception as error:  # noqa: BLE001 (everything goes back to the request, which raises it)
        answer = (False, error)
    try:
        sending.send(answer)
    except Exception as error:  # noqa: BLE001 (a result or exception that does not pickle)
        sending.send((False, RuntimeError(f"the worker's answer could not be sent: {error}")))
    finally:
        sending.close()


def run_work(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in the app's workers (see :class:`Workers`)."""
    workers: Workers = current_app.extensions[_EXTENSION]
    return workers.run(function, *args)


def start_workers(app: Flask) -> None:
    """Start ``app``'s workers' forking process now (``jacquet serve`` does, as it starts)."""
    workers: Workers = app.extensions[_EXTENSION]
    workers.start()


def _busy(error: Busy) -> ResponseReturnValue:
    return unavailable("The server is busy checking other records: try again in a few seconds.")


def _over_budget(error: OverBudget) -> ResponseReturnValue:
    return current_app.handle_user_exception(RequestEntityTooLarge(
        description=f"This request was stopped: {error}. Send a smaller record (split it), "
                    "or fewer games at once."))


def init_app(app: Flask) -> None:
    """Give ``app`` its workers, sized by its configuration (:data:`WORK_DEFAULTS` where
    it says nothing), and its answers to :class:`Busy` and :class:`OverBudget`."""
    for name, default in WORK_DEFAULTS.items():
        app.config.setdefault(name, default)
    app.extensions[_EXTENSION] = Workers(int(app.config["WORKERS"]), float(app.config["WORK_SECONDS"]),
                                         int(app.config["WORK_QUEUE"]),
                                         int(app.config["WORK_MEMORY_BYTES"]))
    app.register_error_handler(Busy, _busy)
    app.register_error_handler(OverBudget, _over_budget)
