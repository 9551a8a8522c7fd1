"""Bounded HTTP load on loopback, shared by ``bench/viewer_speed.py`` and
``tests/test_viewer_load.py``.

``serving(app)`` runs a WSGI app under waitress on a free loopback port in a thread and
shuts it down cleanly; ``serving_in_process(factory)`` does the same in a child process, so
that the load's clients do not share the server's interpreter lock, with the garbage
collector set as ``jacquet serve`` sets it (:mod:`jacquet_cli.collector`). ``run_load`` sends a
fixed list of requests from a few concurrent keep-alive clients, stopping by itself at a
deadline, and tallies every status that was not the one expected and every connection error.

Run as a script, it measures a visitor browsing beside clients looping on heavy requests
(issue 33): ``python bench/load.py`` serves the demo archive with this checkout's ``jacquet
serve`` (``--checkout DIR``: another's, with its own packages first on the path; ``--against
DIR``: a second checkout, e.g. ``main``'s, measured in turn with this one in the same run),
and prints the visitor's latencies alone and beside 20 heavy clients, and how the heavy
requests were answered, for each checkout side by side.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from urllib.parse import urlencode

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


# ---------------------------------------------------------------- heavy clients beside a visitor

VISITOR_PAGES = ("/", "/game/1", "/game/2?ply=5", "/?variant=jacquet&sort=turns&desc=1", "/api/games/3")
"""What the visitor browses, in turn."""
HEAVY_RECORD = Path(__file__).resolve().parents[1] / "samples" / "generated" / "jacquet-10.jqn"
"""What each heavy client checks, again and again (``POST /validate``: ten games, in the
worker pool)."""


def _served(checkout: Path, db: Path) -> tuple[subprocess.Popen[bytes], Address]:
    """``jacquet serve`` of ``checkout`` (its own packages first on the path) over ``db``
    on a free loopback port, as a user starts it; the process and its address."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "jacquet_cli", "serve", "--db", str(db), "--port", str(port)],
        cwd=checkout, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(checkout), "JACQUET_SECRET_KEY": "bench" * 8})
    deadline = time.monotonic() + 300  # the demo archive is built first
    while True:
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        try:
            connection.request("GET", "/")
            if connection.getresponse().status == 200:
                return server, (HOST, port)
        except OSError:
            pass
        finally:
            connection.close()
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise RuntimeError("the server did not start")
        time.sleep(0.5)


def _visitor(address: Address, until: float, result: LoadResult) -> None:
    """Browse :data:`VISITOR_PAGES` in turn, one request at a time, from 127.0.0.2."""
    connection = http.client.HTTPConnection(*address, timeout=60, source_address=("127.0.0.2", 0))
    number = 0
    while time.perf_counter() < until:
        path = VISITOR_PAGES[number % len(VISITOR_PAGES)]
        number += 1
        start = time.perf_counter()
        try:
            connection.request("GET", path)
            with connection.getresponse() as response:
                response.read()
                status = response.status
        except (OSError, http.client.HTTPException) as error:
            result.failures.append(f"{path}: {error!r}")
            connection.close()
            continue
        result.latencies.append(time.perf_counter() - start)
        if status != 200:
            result.failures.append(f"{path}: status {status}")
    connection.close()


def _heavy(address: Address, source: str, until: float, statuses: Counter[int]) -> None:
    """Check :data:`HEAVY_RECORD` again and again from ``source`` (the form's CSRF token
    and session cookie taken first, as a browser does), answered or refused."""
    record = HEAVY_RECORD.read_text(encoding="utf-8")
    connection = http.client.HTTPConnection(*address, timeout=60, source_address=(source, 0))
    connection.request("GET", "/validate")
    with connection.getresponse() as page:
        text = page.read().decode("utf-8")
        cookie = (page.getheader("Set-Cookie") or "").split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', text)
    body = urlencode({"record": record, "format": "jqn", "variant": "jacquet",
                      "csrf_token": token.group(1) if token else ""})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    while time.perf_counter() < until:
        try:
            connection.request("POST", "/validate", body, headers)
            with connection.getresponse() as response:
                response.read()
                statuses[response.status] += 1
        except (OSError, http.client.HTTPException):
            statuses[0] += 1
            connection.close()


def _heavy_clients(address: Address, heavy: int, until: float, answers: Connection) -> None:
    """In a process of their own (their work does not slow the visitor's own client):
    ``heavy`` clients, each from its own loopback address, until ``until`` (wall time,
    ``time.time``); the answers by status sent back."""
    statuses = Counter[int]()
    ends = time.perf_counter() + (until - time.time())
    threads = [threading.Thread(target=_heavy, args=(address, f"127.0.1.{n + 1}", ends, statuses))
               for n in range(heavy)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers.send(dict(statuses))
    answers.close()


def heavy_beside_visitor(address: Address, heavy: int, seconds: float) -> tuple[LoadResult, Counter[int]]:
    """One visitor browsing while ``heavy`` clients (each from its own loopback address, all
    in another process) loop on heavy requests, for ``seconds``: the visitor's latencies,
    the heavy answers by status (0: a connection error)."""
    visitor = LoadResult()
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    clients = context.Process(target=_heavy_clients, args=(address, heavy, time.time() + seconds, theirs))
    if heavy:
        clients.start()
        theirs.close()
    start = time.perf_counter()
    _visitor(address, start + seconds, visitor)
    visitor.elapsed = time.perf_counter() - start
    statuses = Counter[int]()
    if heavy:
        statuses.update(ours.recv())
        clients.join()
    return visitor, statuses


def _measure(checkout: Path, db: Path, heavy: int,
             seconds: float) -> tuple[LoadResult, LoadResult, Counter[int]]:
    """Serve ``db`` with ``checkout``'s ``jacquet serve``; the visitor alone, then beside
    ``heavy`` clients, and the heavy answers by status."""
    server, address = _served(checkout, db)
    try:
        alone, _ = heavy_beside_visitor(address, 0, seconds / 2)
        loaded, statuses = heavy_beside_visitor(address, heavy, seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return alone, loaded, statuses


def _pooled(results: list[LoadResult]) -> LoadResult:
    """The runs of one checkout as one: their latencies and failures together."""
    pooled = LoadResult()
    for result in results:
        pooled.latencies.extend(result.latencies)
        pooled.failures.extend(result.failures)
        pooled.elapsed += result.elapsed
    return pooled


def main() -> None:
    """``python bench/load.py [--checkout DIR] [--against DIR] [--rounds N] [--heavy 20]
    [--seconds 20]``: serve the demo archive with the checkout's ``jacquet serve``, measure
    the visitor alone, then beside the heavy clients; with ``--against`` (e.g. ``main``'s
    checkout), the other's the same way, the two taking turns for ``--rounds`` rounds (so
    that the machine's other load falls on both alike), and both printed side by side."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--heavy", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    options = parser.parse_args()
    checkouts = [options.checkout.resolve()]
    if options.against is not None:
        checkouts.append(options.against.resolve())
    runs: dict[Path, list[tuple[LoadResult, LoadResult, Counter[int]]]] = {c: [] for c in checkouts}
    with tempfile.TemporaryDirectory(prefix="jacquet-load-") as folder:
        for _ in range(options.rounds):
            for number, checkout in enumerate(checkouts):
                db = Path(folder) / f"demo-{number}.db"
                runs[checkout].append(_measure(checkout, db, options.heavy, options.seconds))
    for checkout, measured in runs.items():
        print(f"checkout {checkout} ({len(measured)} round(s), each line one round; the last, all together)")
        for alone, loaded, statuses in measured:
            heavy_total = sum(statuses.values())
            tally = ", ".join(f"{status or 'connection error'}: {count}"
                              for status, count in sorted(statuses.items()))
            print(f"  visitor alone:                  {alone.summary()}")
            print(f"  visitor beside {options.heavy} heavy clients: {loaded.summary()}")
            print(f"  heavy requests: {heavy_total} in {loaded.elapsed:.1f} s "
                  f"({heavy_total / loaded.elapsed:.0f}/s), {tally}")
        if len(measured) > 1:
            print(f"  all rounds, alone:              {_pooled([run[0] for run in measured]).summary()}")
            print(f"  all rounds, beside heavy:       {_pooled([run[1] for run in measured]).summary()}")


if __name__ == "__main__":
    main()
