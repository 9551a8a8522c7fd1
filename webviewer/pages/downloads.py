"""A game as a file to download: the formats offered and the response that carries one."""

from __future__ import annotations

from flask import Response, abort

from notation.formats import WRITABLE
from notation.formats.registry import BY_NAME

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
        abort(404, description=f"no format {fmt!r}")


def attachment(text: str, fmt: str, filename: str) -> Response:
    """``text`` as the file ``filename`` in ``fmt``."""
    return Response(text, mimetype=DOWNLOADS[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
