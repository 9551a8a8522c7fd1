"""How ``jacquet serve`` runs the app under waitress, set for a public server: waitress's
defaults let one client hold the server (bodies up to 1 GiB spooled to disk before the
app can refuse them; 100 connections at most, an idle one kept for two minutes, so 105
idle connections lock every visitor out), and waitress itself has no bound on the time a
request's headers take (one line every 2 s kept a connection forever) nor on the
connections of one client. :func:`guarded_server` adds both: a request whose headers are
not all in within ``HEADER_SECONDS`` is closed, and a client address holds at most
``CONNECTIONS_PER_ADDRESS`` connections (none of this behind a reverse proxy, whose address
every connection has: there the proxy bounds its clients, ``docs/server.md``). Each
setting may be changed in the app's configuration under the name given
(``docs/server-limits.md``)."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

WAITRESS_DEFAULTS = {
    "CONNECTION_LIMIT": 1000,
    "CHANNEL_TIMEOUT": 15,
    "CLEANUP_INTERVAL": 2,
    "THREADS": 8,
}
"""Open connections waitress keeps at most (beyond them it stops accepting: well above
the idle connections a few clients can hold open while they last);
seconds a connection may stay silent before it is closed (``CHANNEL_TIMEOUT``) (a slow upload that keeps
sending is not silent); how often, in seconds, silent connections are looked for; the
threads that answer requests."""
GUARD_DEFAULTS = {"HEADER_SECONDS": 10.0, "CONNECTIONS_PER_ADDRESS": 50}
"""The seconds a request's headers may take to arrive, from its first byte (a browser
sends them at once); the connections one client address may hold open (a browser opens
six or so per site; a club behind one address shares them)."""


def waitress_options(app: Flask) -> dict[str, Any]:
    """The keyword arguments of waitress's ``create_server`` for ``app``: the settings
    above from its configuration, and no request body larger than the app takes
    (``MAX_CONTENT_LENGTH``), refused with 413 before it is read."""
    config = {name: app.config.get(name, default) for name, default in WAITRESS_DEFAULTS.items()}
    return {"threads": config["THREADS"], "connection_limit": config["CONNECTION_LIMIT"],
            "channel_timeout": config["CHANNEL_TIMEOUT"],
            "cleanup_interval": config["CLEANUP_INTERVAL"],
            "max_request_body_size": app.config["MAX_CONTENT_LENGTH"], "recv_bytes": RECV_BYTES}


QUEUE_LOG_SECONDS = 60.0
"""Waitress logs "Task queue depth is N" for every request that waits for a thread: at
most one such line per this many seconds (:class:`SeldomLog`)."""
RECV_BYTES = 65_536
"""Bytes read from a connection at a time (waitress's 8,192 took four turns of its serving
loop for a 25 kB record, each turn asking every connection whether it reads or writes)."""


class SeldomLog:
    """Waitress's task queue logger with one warning let through per ``seconds``: with
    clients looping on requests (each waiting for a thread while the others are busy) its
    serving loop wrote a warning per request, hundreds a second, while holding the
    interpreter lock."""

    def __init__(self, logger: logging.Logger, seconds: float) -> None:
        self.logger = logger
        self.seconds = seconds
        self.last = -seconds

    def warning(self, message: str, *args: Any) -> None:
        """The warning, unless one was written less than ``seconds`` ago."""
        now = time.monotonic()
        if now - self.last >= self.seconds:
            self.last = now
            self.logger.warning(f"{message} (one such line per {self.seconds:g} s at most)", *args)


class TimedChannel(HTTPChannel):  # type: ignore[misc]
    """A connection that knows when the request it is reading began (its first bytes)."""

    request_began = 0.0

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_began = time.monotonic()
        return bool(super().received(data))

    def headers_late(self, cutoff: float) -> bool:
        """Whether the request being read began before ``cutoff`` and its headers are not
        all in yet."""
        request = self.request
        return request is not None and not request.headers_finished and self.request_began < cutoff


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress's server with the bounds of the module: headers on time, connections per
    address (``per_address`` 0: none)."""

    channel_class = TimedChannel
    header_seconds = GUARD_DEFAULTS["HEADER_SECONDS"]
    per_address = 0

    def maintenance(self, now: float) -> None:
        """Waitress's (silent connections closed), and each connection whose request's
        headers are late closed too."""
        super().maintenance(now)
        cutoff = time.monotonic() - self.header_seconds
        for channel in list(self.active_channels.values()):
            if isinstance(channel, TimedChannel) and channel.headers_late(cutoff):
                channel.will_close = True

    def handle_accept(self) -> None:
        """Waitress's, then the new connection closed at once if its address holds
        ``per_address`` others."""
        before = set(self._map)
        super().handle_accept()
        if not self.per_address:
            return
        for number in set(self._map) - before:
            channel = self._map[number]
            address = channel.addr[0] if isinstance(channel, HTTPChannel) and channel.addr else None
            if address is None:
                continue
            held = sum(1 for other in self._map.values()
                       if isinstance(other, HTTPChannel) and other is not channel
                       and other.addr and other.addr[0] == address)
            if held >= self.per_address:
                channel.handle_close()


def guarded_server(app: Flask, listening: socket.socket) -> GuardedServer:
    """A :class:`GuardedServer` of ``app`` on the bound socket ``listening``, set by
    :func:`waitress_options` and :data:`GUARD_DEFAULTS` from the app's configuration (no
    bound per address with ``PROXIES`` set: every connection comes from the proxy)."""
    adjustments = Adjustments(sockets=[listening], **waitress_options(app))
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.queue_logger = SeldomLog(logging.getLogger("waitress.queue"), QUEUE_LOG_SECONDS)
    dispatcher.set_thread_count(adjustments.threads)
    server = GuardedServer(app, {}, True, listening, dispatcher=dispatcher, adj=adjustments,
                           bind_socket=False, sockinfo=(listening.family, listening.type,
                                                        listening.proto, listening.getsockname()))
    config = {name: app.config.get(name, default) for name, default in GUARD_DEFAULTS.items()}
    server.header_seconds = float(config["HEADER_SECONDS"])
    server.per_address = 0 if app.config.get("PROXIES") else int(config["CONNECTIONS_PER_ADDRESS"])
    return server
