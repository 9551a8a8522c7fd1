"""The viewer as the tests make it: :func:`viewer_app`, the one place that says how a test's
app is configured (the fixtures of ``tests/conftest.py`` and the modules that keep one app
for a module's read-only archive build theirs with it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from webviewer import create_app


def viewer_app(path: str | Path, **config: Any) -> Flask:
    """The viewer over the archive at ``path``, with Flask's ``TESTING`` on (an error in a
    view fails the test rather than becoming a 500 page), then ``config``."""
    return create_app({"ARCHIVE": str(path), "TESTING": True, **config})


def client_at(app: Flask, address: str) -> FlaskClient:
    """A new browser (no cookie) of ``app`` at the client address ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client
