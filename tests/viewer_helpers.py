"""The viewer as the tests make it: :func:`viewer_app`, the one place that says how a test's
app is configured (the fixtures of ``tests/conftest.py`` and the modules that keep one app
for a module's read-only archive build theirs with it), and what its pages say as the
viewer's catalog gives it in a language (:func:`shown`), not as English words."""

from __future__ import annotations

import re
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

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


TRANSLATIONS = Path(__file__).resolve().parents[1] / "webviewer" / "translations"
"""The viewer's catalogs (the gettext domain ``messages``)."""


@cache
def _translations(language: str) -> NullTranslations:
    return Translations.load(str(TRANSLATIONS), [language], "messages")


def shown(text: str, language: str = "en", /, **params: object) -> str:
    """What a page in ``language`` shows for the viewer catalog's entry ``text`` (its id, the
    English ``_()`` is given) with its ``%(placeholders)s`` filled in from ``params``,
    escaped as a template escapes them: a test asserts that a page says this entry, not
    its English words (``shown("%(player)s to roll.", player=shown("White"))``)."""
    return str(Markup(_translations(language).gettext(text)) % params)


def shown_count(singular: str, plural: str, num: int, language: str = "en", /, **params: object) -> str:
    """:func:`shown` for an entry that counts (``ngettext``): its form for ``num``."""
    return str(Markup(_translations(language).ngettext(singular, plural, num)) % {"num": num, **params})


def shown_pattern(text: str, language: str = "en", /, **patterns: str) -> re.Pattern[str]:
    """:func:`shown` as a regular expression, each parameter given as the pattern it
    matches (``shown_pattern("%(count)s valid", count=r"\\d+")``)."""
    markers = {name: f"\x00{number}\x00" for number, name in enumerate(patterns)}
    pattern = re.escape(shown(text, language, **markers))
    for name, marker in markers.items():
        pattern = pattern.replace(re.escape(marker), f"(?:{patterns[name]})")
    return re.compile(pattern)
