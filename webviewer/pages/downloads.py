"""A game as a file to download: the formats offered and the response that carries one."""

from __future__ import annotations

from typing import NoReturn

from flask import Response, abort
from flask_babel import gettext

from notation.formats import WRITABLE
from notation.formats.registry import BY_NAME
from notation.messages import Message
from webviewer.plumbing.language import said

DOWNLOADS = {"jqn": "text/plain", "xml": "application/xml", "json": "application/json",
             "mat": "text/plain"}
"""The formats offered, with their media types (a game's page offers those that hold its
rule set: :func:`holds`)."""


def holds(fmt: str, variant: str) -> bool:
    """Whether the format ``fmt`` can hold a game of the rule set ``variant``
    (``.mat``: backgammon only, as the format registry says)."""
    return BY_NAME[fmt].holds(variant)


def require_format(fmt: str) -> None:
    """Nothing if ``fmt`` is offered, else a 404."""
    if fmt not in DOWNLOADS or fmt not in WRITABLE:
        abort(404, description=gettext("no format “%(format)s”", format=fmt))


def unwritable(error: ValueError, fmt: str) -> NoReturn:
    """A 404 saying, in the page's language, why the game cannot be written as ``fmt``: the
    engine's message (``.mat`` holds backgammon only: ``format.rule-sets``), or the
    viewer's own words for a refusal the engine keeps in English (a writer's, ``text``: a
    tag name the format cannot write)."""
    msg = getattr(error, "msg", None)
    if isinstance(msg, Message) and msg.id != "text":
        abort(404, description=said(msg))
    abort(404, description=gettext("The format .%(format)s cannot hold this game.", format=fmt))


def attachment(text: str, fmt: str, filename: str) -> Response:
    """``text`` as the file ``filename`` in ``fmt``."""
    return Response(text, mimetype=DOWNLOADS[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
