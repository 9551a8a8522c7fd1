"""Benchmark: what the worker pool costs a request under ``jacquet serve``, for one or more
source trees in one run (``--tree /tmp/old --tree .``: the code before and after a change):

* the first heavy request (the legal plays of a doublet, done in a worker) some seconds
  after the server started listening, when a visitor comes: it used to wait while the
  workers' forking process started and imported the viewer;
* ``/api/legal`` for a roll of two different dice (p50, p95): it used to go through a
  worker process too.

Each tree is served by ``python -m jacquet_cli serve`` run from that tree, over a copy of
the jacquet sample archive, on a free loopback port.

    python bench/server_pool.py [--tree PATH ...] [--wait 10] [--repeat 30]
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOUBLET = "/api/legal?variant=jacquet&dice=33"
CHEAP = "/api/legal?variant=jacquet&dice=31"


def _get(port: int, path: str) -> float:
    """Milliseconds to answer ``path`` (which must be a 200)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    if answer.status != 200:
        raise RuntimeError(f"{path}: {answer.status}")
    return 1e3 * (time.perf_counter() - started)


def measure(tree: Path, wait: float, repeat: int) -> None:
    """Serve from ``tree`` and print its figures."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "pool.db"
        subprocess.run([sys.executable, "-m", "jacquet_cli", "import", "--db", str(db),
                        str(ROOT / "samples" / "jacquet" / "annotated-game.jqn")],
                       cwd=tree, check=True, capture_output=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "jacquet_cli", "serve", "--db", str(db),
                                   "--port", str(port)], cwd=tree, stderr=subprocess.DEVNULL,
                                  env={**os.environ, "JACQUET_SECRET_KEY": "k" * 40})
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            time.sleep(wait)
            first = _get(port, DOUBLET)
            cheap = sorted(_get(port, CHEAP) for _ in range(repeat))
            p95 = statistics.quantiles(cheap, n=20, method="inclusive")[-1]
            print(f"{tree}: first doublet {wait:g} s after start {first:.0f} ms; "
                  f"/api/legal 31: p50 {statistics.median(cheap):.1f} ms, p95 {p95:.1f} ms")
        finally:
            server.terminate()
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", help="a source tree (default: this one)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds from start to the first request")
    parser.add_argument("--repeat", type=int, default=30)
    options = parser.parse_args()
    for tree in options.tree or [ROOT]:
        measure(tree.resolve(), options.wait, options.repeat)


if __name__ == "__main__":
    main()
