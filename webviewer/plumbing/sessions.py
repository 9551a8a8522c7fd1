"""Flask's signed-cookie sessions, the signing serializer made once per secret key.

Flask's own interface builds a new serializer for every request that opens or saves a
session, which every request does, whether it has a cookie or not; the serializer holds
nothing but its keys and settings, so one per key serves every request and thread.
"""

from __future__ import annotations

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer

from .cache import BoundedCache

KEYS = 4
"""Serializers kept (one per set of keys: one, unless the app's key is changed)."""


class SessionInterface(SecureCookieSessionInterface):
    """:class:`~flask.sessions.SecureCookieSessionInterface`, its serializer kept."""

    def __init__(self) -> None:
        self._serializers: BoundedCache[tuple[object, ...], URLSafeTimedSerializer | None] = \
            BoundedCache(KEYS)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        return self._serializers.get(
            keys, lambda: SecureCookieSessionInterface.get_signing_serializer(self, app))
