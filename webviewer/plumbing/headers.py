"""The headers every answer of the viewer carries (the pages' through an after-request
hook of the app, the busy refusals given before the app through
:class:`webviewer.plumbing.workers.EarlyRefusal`)."""

from __future__ import annotations

SECURITY_HEADERS = (
    ("Content-Security-Policy",
     ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
      "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"))
"""Sent with every response that does not set them itself."""
