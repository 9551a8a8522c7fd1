"""Issue 33, F3: connections sending one header line every 2 s were never closed, and with
the connection limit at 40, 45 of them made every visitor time out. The server ``jacquet
serve`` runs (:func:`webviewer.plumbing.serving.guarded_server`), on real sockets in a
thread: a request's headers have a time limit, and one client address holds at most so many
connections. What is asserted is the connection closed or the visitor answered, never a
time; the bounds on waiting are generous. Each test failed before the fix."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from waitress.channel import HTTPChannel

import archive
from webviewer import create_app
from webviewer.plumbing.serving import guarded_server

PATIENCE = 60
"""Seconds a test waits for what must happen (it happens within a few)."""


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "club.db"
    archive.open_archive(path).close()
    return path


@contextmanager
def serving(path, **config) -> Iterator[tuple[str, int]]:
    """The guarded server of the viewer over ``path`` on a free loopback port, in a thread."""
    app = create_app({"ARCHIVE": str(path), "WORKERS": 0, "CLEANUP_INTERVAL": 1,
                      "CHANNEL_TIMEOUT": 300, "HEADER_SECONDS": 2, **config})
    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    server = guarded_server(app, listening)
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    try:
        yield listening.getsockname()[:2]
    finally:  # every socket closed in the server's own loop, which then returns
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: _close_all(server))
        loop.join(timeout=PATIENCE)


def _close_all(server) -> None:
    for dispatcher in list(server._map.values()):
        if isinstance(dispatcher, HTTPChannel):
            dispatcher.handle_close()
    server.close()


def connect(address, source: str) -> socket.socket:
    """A connection to ``address`` from the loopback address ``source``."""
    return socket.create_connection(address, timeout=PATIENCE, source_address=(source, 0))


def closed_by_the_server(client: socket.socket) -> bool:
    """Whether the server has closed ``client`` (nothing more to read, or a reset)."""
    try:
        return client.recv(1024) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def test_headers_that_trickle_in_are_cut_off(path):
    with serving(path) as address, connect(address, "127.0.0.3") as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.settimeout(0.5)
        deadline = time.monotonic() + PATIENCE
        closed = False
        while not closed and time.monotonic() < deadline:  # a header line every half second
            try:
                slow.sendall(b"X-Slow: 1\r\n")
                closed = closed_by_the_server(slow)
            except TimeoutError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
        assert closed, "a request whose headers never end was kept open"


def test_a_browser_sending_its_headers_at_once_is_answered(path):
    with serving(path) as address:
        visitor = http.client.HTTPConnection(*address, timeout=PATIENCE, source_address=("127.0.0.2", 0))
        for _ in range(3):  # keep-alive: a connection idle between requests is no late request
            visitor.request("GET", "/")
            assert visitor.getresponse().read() and True
        visitor.close()


def test_one_address_cannot_take_every_connection(path):
    """45 slow connections from one address, the connection limit at 40: a visitor from
    another address is answered."""
    with serving(path, CONNECTION_LIMIT=40, CONNECTIONS_PER_ADDRESS=20,
                 HEADER_SECONDS=PATIENCE * 2) as address:
        held = [connect(address, "127.0.0.3") for _ in range(45)]
        try:
            for connection in held:
                connection.sendall(b"GET / HTTP/1.1\r\n")
            visitor = http.client.HTTPConnection(*address, timeout=PATIENCE,
                                                 source_address=("127.0.0.2", 0))
            visitor.request("GET", "/")
            assert visitor.getresponse().status == 200
            visitor.close()
            for connection in held:
                connection.settimeout(PATIENCE)
            assert sum(closed_by_the_server(connection) for connection in held[20:]) == 25
        finally:
            for connection in held:
                connection.close()
