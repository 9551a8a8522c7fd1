"""Heavy work of a request (checking a pasted or uploaded record, saving one, the legal
plays of a big doublet) done in a worker process, so that a game page answers promptly
whatever else runs: at most ``WORKERS`` at once, each given ``WORK_SECONDS`` and
``WORK_MEMORY_BYTES``, and at most ``WORK_QUEUE`` more requests waiting for a worker.

* A request that finds every worker busy and the queue full (or that waits longer than
  ``WORK_SECONDS`` for a worker), or whose client address already has
  ``WORK_PER_ADDRESS`` jobs running or waiting, is answered 503 with ``Retry-After``, in
  plain words without a page to render: a client looping on heavy requests gets a cheap
  refusal and takes no more than its share of the queue.
* A job over its time is killed (its process ends: nothing of it stays) and answered 413:
  the input is too big to handle within the budget. A job over its memory ends the same
  way.
* A worker that ends without a word and not by a signal (it could not start: the server's
  installation changed under it) is the server's failure, not the request's: logged, and
  answered 503.

Each job runs in a new process forked from a small server process that has imported the
viewer once (``multiprocessing``'s ``forkserver``): a fresh, single-threaded process per
job, killed whole on timeout, whatever the job was doing. A job imports what it runs by
name and never runs the launcher again (``multiprocessing`` would run the ``__main__``
script, ``.venv/bin/jacquet``, in every new process: a venv rebuilt under a running server
made every job fail). ``jacquet serve`` starts that
process as it starts (:func:`start_workers`); elsewhere the first job does. ``WORKERS = 0`` runs the work
in the request's own thread instead (no bound: for debugging and for tests that patch the
app in place).
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.spawn
import os
import re
import resource
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from flask import Flask, Response, current_app, has_request_context, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, gettext, lazy_gettext
from werkzeug.exceptions import RequestEntityTooLarge

from notation.messages import LANGUAGES, Message, render
from webviewer.plumbing.db import RETRY_SECONDS, unavailable
from webviewer.plumbing.headers import SECURITY_HEADERS
from webviewer.plumbing.language import COOKIE, VARY, best_language, page_language

WORK_DEFAULTS = {"WORKERS": 2, "WORK_SECONDS": 10.0, "WORK_QUEUE": 4,
                 "WORK_MEMORY_BYTES": 2 * 1024 ** 3, "WORK_PER_ADDRESS": 2}
"""Worker processes at once; seconds each job may take (and a request may wait for a
worker); requests that may wait; the address space a worker may use (beyond it the job
fails, the server is untouched); jobs running or waiting per client address (so that
one client cannot take every place). ``WORKERS + WORK_QUEUE`` stays below waitress's
threads (8), so that some are always free for browsing."""
NICENESS = 10
"""How much lower a job's CPU priority is than the server's: on a machine whose cores the
jobs keep busy, the threads answering pages still get the CPU at once."""
JOB_NAME = "jacquet-job"
"""The name of a worker process (see :func:`_job_preparation`)."""
PRELOAD = ["webviewer", "webviewer.pages.validation", "webviewer.blueprints.api",
           "webviewer.pages.analysis_job"]
"""What the process that forks the workers imports once."""
_EXTENSION = "jacquet.workers"
_HEAVY = "jacquet_heavy_work"
T = TypeVar("T")
V = TypeVar("V", bound=Callable[..., ResponseReturnValue])


class Busy(Exception):
    """Every worker busy and the queue full: try again soon."""


class OverBudget(Exception):
    """A job that took longer than its time, or more than its memory: ``reason`` is which
    (a key of :data:`BUDGETS`), ``params`` its figures; ``str()`` says it in the page's
    language (in English outside a request: the log)."""

    def __init__(self, reason: str, params: dict[str, object] | None = None) -> None:
        self.reason = reason
        self.params = params or {}
        super().__init__(reason, self.params)  # (pickled back from a worker as it was made)

    def __str__(self) -> str:
        return str(BUDGETS[self.reason] % self.params)


BUDGETS = {
    "time": lazy_gettext("it took longer than %(seconds)s s (WORK_SECONDS)"),
    "killed": lazy_gettext("its worker process was killed (signal %(signal)s): it may have needed more "
                           "memory than a request may use (WORK_MEMORY_BYTES)"),
    "memory": lazy_gettext("it needed more memory than a request may use (WORK_MEMORY_BYTES)"),
}
"""What each reason of :class:`OverBudget` says."""


class WorkerFailed(Exception):
    """A worker process that ended without a word, not killed: the server's failure."""


_preparation_data = multiprocessing.spawn.get_preparation_data


def _job_preparation(name: str) -> dict[str, Any]:
    """What a new process of ``multiprocessing`` is told to do before its target, for a
    worker without the ``__main__`` script to run again (its job is imported by name), so
    that the launcher need not still exist."""
    data: dict[str, Any] = _preparation_data(name)
    if name == JOB_NAME:
        for key in ("init_main_from_path", "init_main_from_name"):
            data.pop(key, None)
    return data


multiprocessing.spawn.get_preparation_data = _job_preparation


class Workers:
    """The bound on the heavy work of one app: ``workers`` jobs at once, ``queue`` more
    waiting, at most ``per_address`` of them from one client address, each job given
    ``seconds`` and ``memory`` bytes."""

    def __init__(self, workers: int, seconds: float, queue: int, memory: int,
                 per_address: int = 2) -> None:
        self.workers = workers
        self.seconds = seconds
        self.memory = memory
        self.per_address = per_address
        self.queue = queue
        self.admitted = 0
        """Jobs running or waiting now."""
        self._by_address: dict[str | None, int] = {}
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

    def full(self, address: str | None) -> bool:
        """Whether a job for ``address`` would be refused now (every place taken, or the
        address's share)."""
        with self._count:
            return (self.admitted >= self.workers + self.queue
                    or self._by_address.get(address, 0) >= self.per_address)

    def run(self, function: Callable[..., T], *args: Any, address: str | None = None) -> T:
        """``function(*args)`` in a worker process (``function`` importable, its
        arguments and its result picklable) for the client at ``address``; what it raises
        is raised here. :class:`Busy` if no worker is free in time or the address has its
        share already, :class:`OverBudget` if it is killed, :class:`WorkerFailed` if its
        process could not do it."""
        if self.workers == 0:
            return function(*args)
        with self._count:
            if self._by_address.get(address, 0) >= self.per_address:
                raise Busy
            if not self._admitted.acquire(blocking=False):
                raise Busy
            self.admitted += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
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
                left = self._by_address.pop(address) - 1
                if left:
                    self._by_address[address] = left
            self._admitted.release()

    def _in_process(self, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        receiving, sending = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(sending, self.memory, function, args),
                                        name=JOB_NAME, daemon=True)
        process.start()
        sending.close()
        try:
            if not receiving.poll(self.seconds):
                raise OverBudget("time", {"seconds": f"{self.seconds:g}"})
            try:
                done, value = receiving.recv()
            except EOFError:  # the process died without a word: killed (memory), or failed
                process.join()
                if process.exitcode is not None and process.exitcode >= 0:
                    raise WorkerFailed(f"a worker process ended with exit code {process.exitcode} "
                                       "before its job was done") from None
                raise OverBudget("killed", {"signal": -(process.exitcode or 0)}) from None
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
    """In the worker: the job run within its memory, at a lower priority than the server
    (:data:`NICENESS`), its result or its exception sent back (an exception that cannot be
    sent is sent as a :class:`RuntimeError`)."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    os.nice(NICENESS)
    try:
        answer: tuple[bool, Any] = (True, function(*args))
    except MemoryError:
        answer = (False, OverBudget("memory"))
    except Exception as error:  # noqa: BLE001 (everything goes back to the request, which raises it)
        answer = (False, error)
    try:
        sending.send(answer)
    except Exception as error:  # noqa: BLE001 (a result or exception that does not pickle)
        sending.send((False, RuntimeError(f"the worker's answer could not be sent: {error}")))
    finally:
        sending.close()


def heavy(view: V) -> V:
    """Mark ``view`` as one that runs its work in the workers: while a job of its client
    could not be admitted, the request is refused (503) before the app does anything with
    it (:class:`EarlyRefusal`): a client looping on heavy requests costs the server as
    little as possible."""
    setattr(view, _HEAVY, True)
    return view


class EarlyRefusal:
    """The app's WSGI callable wrapped so that a request for a :func:`heavy` view whose
    client could not have a job admitted now is answered the plain 503 before Flask sees
    it: no request context, session, form, CSRF token or before-request check (0.7 ms of
    the serving process's interpreter lock per refusal through Flask, which 20 clients
    looping on heavy requests turned into 300 refusals a second; 0.01 ms here). The job
    is still admitted or refused when it comes: this only spares the work before it.
    Under ``PROXIES`` it must be inside the proxy fix, which gives it the client's
    address."""

    def __init__(self, app: Flask, inner: Callable[..., Any]) -> None:
        self.app = app
        self.inner = inner
        self._paths: dict[str, frozenset[str]] | None = None
        """The heavy views' paths, with their methods (read from the app's rules at the
        first request: its blueprints are registered after this)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        workers: Workers = self.app.extensions[_EXTENSION]
        paths = self._paths if self._paths is not None else self._heavy_paths()
        path = str(environ.get("PATH_INFO", ""))
        if (workers.workers and environ.get("REQUEST_METHOD") in paths.get(path, ())
                and workers.full(environ.get("REMOTE_ADDR"))):
            body, content_type = _busy_answer(self.app, path, _early_language(environ))
            start_response("503 SERVICE UNAVAILABLE", [
                ("Content-Type", content_type), ("Content-Length", str(len(body))),
                ("Retry-After", str(RETRY_SECONDS)), ("Vary", VARY), *SECURITY_HEADERS])
            return [body]
        return self.inner(environ, start_response)

    def _heavy_paths(self) -> dict[str, frozenset[str]]:
        """The paths of the :func:`heavy` views, with their methods, read from the app's
        rules once. A heavy view's path has no variables (one that has is refused, at the
        first request, rather than looked up rule by rule at each)."""
        paths: dict[str, frozenset[str]] = {}
        for rule in self.app.url_map.iter_rules():
            if getattr(self.app.view_functions.get(rule.endpoint), _HEAVY, False):
                if rule.arguments:
                    raise TypeError(f"@heavy view {rule.endpoint} has a path with variables")
                paths[rule.rule] = frozenset(rule.methods or ())
        self._paths = paths
        return paths


def run_work(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in the app's workers (see :class:`Workers`)."""
    workers: Workers = current_app.extensions[_EXTENSION]
    return workers.run(function, *args, address=request.remote_addr if has_request_context() else None)


def start_workers(app: Flask) -> None:
    """Start ``app``'s workers' forking process now (``jacquet serve`` does, as it starts)."""
    workers: Workers = app.extensions[_EXTENSION]
    workers.start()


BUSY = Message.of("server.busy")
"""What a busy refusal says (under ``/api``, its id and parameters too, as the API's other
errors)."""
_BUSY_BODIES: dict[tuple[bool, str], tuple[bytes, str]] = {}
"""The busy refusal's body and content type, by (under ``/api``, language): rendered once."""
_COOKIE_LANGUAGE = re.compile(rf"(?:^|;)\s*{COOKIE}=({'|'.join(LANGUAGES)})\s*(?:;|$)")


def _busy_answer(app: Flask, path: str, language: str) -> tuple[bytes, str]:
    """The body and content type of a busy refusal of a request for ``path``, in
    ``language``: a few plain words (under ``/api``, JSON: ``error``, the words, beside
    :data:`BUSY`'s ``id`` and ``params``), no page rendered."""
    api = path == "/api" or path.startswith("/api/")
    found = _BUSY_BODIES.get((api, language))
    if found is None:
        text = render(BUSY, language)
        with app.app_context(), force_locale(language):
            said = gettext("%(label)s: %(value)s", label=gettext("Error %(code)s", code=503), value=text)
        found = _BUSY_BODIES[(api, language)] = (
            (json.dumps({"error": text, **BUSY.as_json()}).encode(), "application/json") if api
            else (f"{said}\n".encode(), "text/plain; charset=utf-8"))
    return found


def _early_language(environ: dict[str, Any]) -> str:
    """The language of a request refused before Flask sees it: the visitor's choice in his
    cookie, else his browser's (a signed-in visitor's account is not looked up)."""
    chosen = _COOKIE_LANGUAGE.search(str(environ.get("HTTP_COOKIE", "")))
    return chosen.group(1) if chosen else best_language(str(environ.get("HTTP_ACCEPT_LANGUAGE", "")))


def _busy(error: Busy) -> ResponseReturnValue:
    """503 with :func:`_busy_answer`: a client looping on heavy requests makes the server
    do as little as possible for each refusal."""
    body, content_type = _busy_answer(current_app._get_current_object(), request.path,  # type: ignore[attr-defined]
                                      page_language())
    return Response(body, 503, content_type=content_type, headers={"Retry-After": str(RETRY_SECONDS)})


def _failed(error: WorkerFailed) -> ResponseReturnValue:
    current_app.logger.error("the server failed: %s (was its installation changed while it "
                             "runs? restart it)", error)
    return unavailable(gettext("The server failed to start the work of this request: its log says why. "
                               "Try again later."))


def _over_budget(error: OverBudget) -> ResponseReturnValue:
    return current_app.handle_user_exception(RequestEntityTooLarge(
        description=gettext("This request was stopped: %(error)s. Send a smaller record (split it), "
                            "or fewer games at once.", error=str(error))))


def init_app(app: Flask) -> None:
    """Give ``app`` its workers, sized by its configuration (:data:`WORK_DEFAULTS` where
    it says nothing), its answers to :class:`Busy` and :class:`OverBudget`, and the
    :class:`EarlyRefusal` of heavy requests around its WSGI callable (before a proxy fix
    is put around that)."""
    for name, default in WORK_DEFAULTS.items():
        app.config.setdefault(name, default)
    app.extensions[_EXTENSION] = Workers(int(app.config["WORKERS"]), float(app.config["WORK_SECONDS"]),
                                         int(app.config["WORK_QUEUE"]),
                                         int(app.config["WORK_MEMORY_BYTES"]),
                                         int(app.config["WORK_PER_ADDRESS"]))
    app.register_error_handler(Busy, _busy)
    app.register_error_handler(WorkerFailed, _failed)
    app.wsgi_app = EarlyRefusal(app, app.wsgi_app)  # type: ignore[method-assign]
    app.register_error_handler(OverBudget, _over_budget)
