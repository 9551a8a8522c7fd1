"""How ``jacquet serve`` runs the app under waitress, set for a public server: waitress's
defaults let one client hold the server (bodies up to 1 GiB spooled to disk before the
app can refuse them; 100 connections at most, an idle one kept for two minutes, so 105
idle connections lock every visitor out). Each setting may be changed in the app's
configuration under the name given (``docs/server-limits.md``)."""

from __future__ import annotations

from typing import Any

from flask import Flask

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


def waitress_options(app: Flask) -> dict[str, Any]:
    """The keyword arguments of waitress's ``create_server`` for ``app``: the settings
    above from its configuration, and no request body larger than the app takes
    (``MAX_CONTENT_LENGTH``), refused with 413 before it is read."""
    config = {name: app.config.get(name, default) for name, default in WAITRESS_DEFAULTS.items()}
    return {"threads": config["THREADS"], "connection_limit": config["CONNECTION_LIMIT"],
            "channel_timeout": config["CHANNEL_TIMEOUT"],
            "cleanup_interval": config["CLEANUP_INTERVAL"],
            "max_request_body_size": app.config["MAX_CONTENT_LENGTH"]}
