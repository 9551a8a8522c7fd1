"""Bounded HTTP load on loopback, shared by ``bench/viewer_speed.py`` and
``tests/test_viewer_load.py``.

``serving(app)`` runs a WSGI app under waitress on a free loopback port in a thread and
shuts it down cleanly; ``serving_in_process(factory)`` does the same in a child process, so
that the load's clients do not share the server's interpreter lock, with the garbage
collector set as ``jacquet serve`` sets it (:mod:`jacquet_cli.collector`). ``run_load`` sends a
fixed list of requests from a few concurrent keep-alive clients, stopping by itself at a
deadline, and tallies every status that was not the one expected and every connection error.
"""

from __future__ import annotations

import http.client
import multiprocessing
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import Flask
from waitress import create_server
from waitress.channel import HTTPChannel

from jacquet_cli.collector import settle_for_serving

HOST = "127.0.0.1"
SERVER_THREADS = 8  # as ``jacquet serve``
Address = tuple[str, int]


@dataclass(frozen=True)
class Probe:
    """One request to send: a path (with its query string) and the status it must get."""

    path: str
    expected: int = 200


@dataclass
class LoadResult:
    """What a load run did: the latency (seconds) of every request that got an answer, each
    unexpected status or connection error, the wall time."""

    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def rate(self) -> float:
        """Answered requests per second of wall time."""
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def percentile_ms(self, share: float) -> float:
        """The latency below which ``share`` of the answered requests fell, in ms."""
        if len(self.latencies) < 2:
            return 1e3 * sum(self.latencies)
        cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
        return 1e3 * cuts[round(share * 100) - 1]

    def summary(self) -> str:
        """One line: requests, rate, p50, p95, failures."""
        return (f"{len(self.latencies)} requests in {self.elapsed:.2f} s: "
                f"{self.rate:.0f} req/s, p50 {self.percentile_ms(0.5):.1f} ms, "
                f"p95 {self.percentile_ms(0.95):.1f} ms, {len(self.failures)} failure(s)")


def _close_connections(server) -> None:
    """Close every client channel, then the listening socket and the trigger; run in the
    server's own loop thread, after which its loop has nothing left and returns."""
    for dispatcher in list(server._map.values()):  # waitress keeps its sockets in ``_map``
        if isinstance(dispatcher, HTTPChannel):
            dispatcher.handle_close()
    server.close()


@contextmanager
def serving(app, threads: int = SERVER_THREADS) -> Iterator[Address]:
    """Serve ``app`` under waitress on a free loopback port, in a thread; yields the
    address. On exit the worker threads finish their requests and stop (a worker ends each
    request by pulling the loop's trigger, so it must still be open), then the loop closes
    every socket and returns."""
    server = create_server(app, host=HOST, port=0, threads=threads)
    loop = threading.Thread(target=server.run, name="waitress-loop", daemon=True)
    loop.start()
    try:
        yield HOST, server.effective_port
    finally:
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: _close_connections(server))
        loop.join(timeout=10)
        if loop.is_alive():
            raise RuntimeError("the waitress loop did not stop")


def _serve_child(factory: Callable[[], Flask], threads: int, pipe) -> None:
    """In the child process: serve ``factory()`` (the collector set as ``jacquet serve``
    sets it), send the address, wait for a word."""
    app = factory()
    settle_for_serving()
    with serving(app, threads) as address:
        pipe.send(address)
        pipe.recv()
    pipe.close()


@contextmanager
def serving_in_process(factory: Callable[[], Flask], threads: int = SERVER_THREADS) -> Iterator[Address]:
    """As ``serving``, in a child process (started by spawning, so ``factory`` must be a
    picklable callable, e.g. a module-level function or a ``functools.partial`` of one)."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    child = context.Process(target=_serve_child, args=(factory, threads, theirs), name="waitress")
    child.start()
    theirs.close()
    try:
        if not ours.poll(60):
            raise RuntimeError("the server process did not start")
        yield ours.recv()
    finally:
        if child.is_alive():
            ours.send("stop")
        ours.close()
        child.join(timeout=15)
        if child.is_alive():
            child.kill()
            child.join()
            raise RuntimeError("the server process did not stop")


def trivial_app() -> Flask:
    """The baseline: a Flask app whose one page answers ``ok``."""
    app = Flask("trivial")
    app.add_url_rule("/", "ok", lambda: "ok")
    return app


def _client(address: Address, take: Callable[[], Probe | None], deadline: float,
            timeout: float, result: LoadResult) -> None:
    """One client: send probes over one keep-alive connection (reopened after an error or a
    ``Connection: close``) until none is left or the deadline has passed."""
    latencies, failures = [], []
    connection: http.client.HTTPConnection | None = None
    try:
        while time.perf_counter() < deadline and (probe := take()) is not None:
            if connection is None:
                connection = http.client.HTTPConnection(*address, timeout=timeout)
            start = time.perf_counter()
            try:
                connection.request("GET", probe.path)
                with connection.getresponse() as response:
                    response.read()
                    status, closing = response.status, response.will_close
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"connection error on {probe.path}: {error!r}")
                connection.close()
                connection = None
                continue
            latencies.append(time.perf_counter() - start)
            if status != probe.expected:
                failures.append(f"{probe.path}: status {status}, expected {probe.expected}")
            if closing:
                connection.close()
                connection = None
    finally:
        if connection is not None:
            connection.close()
        result.latencies.extend(latencies)  # list.extend holds the interpreter lock
        result.failures.extend(failures)


def run_load(address: Address, probes: Iterable[Probe], concurrency: int, seconds: float,
             timeout: float = 10.0) -> LoadResult:
    """Send ``probes`` (in order; an endless iterator is fine) from ``concurrency`` clients
    at once; stop when all are sent or after ``seconds`` (a request under way then finishes
    or times out after ``timeout`` seconds)."""
    result = LoadResult()
    pending = iter(probes)
    lock = threading.Lock()

    def take() -> Probe | None:
        with lock:
            return next(pending, None)

    start = time.perf_counter()
    deadline = start + seconds
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="load") as pool:
        clients = [pool.submit(_client, address, take, deadline, timeout, result)
                   for _ in range(concurrency)]
        for client in clients:
            client.result()
    result.elapsed = time.perf_counter() - start
    return result
