"""The game's words that the pages show and the engine gives in English (a player's colour,
``Colour.title``; how a game ended, ``GameState.ended_by``), in the page's language: the
template filters ``colour`` (``{{ state.player | colour }}``) and ``ended``
(``{{ state.ended_by | ended }}``)."""

from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext

from notation.engine.state import Colour
from notation.messages import CATALOG, Message, render
from webviewer.plumbing.language import page_language

COLOURS = {Colour.WHITE: lazy_gettext("White"), Colour.BLACK: lazy_gettext("Black")}
"""Each player by his colour, as the pages name him."""


BY_NAME = {name: player for player in Colour for name in (player.value, player.title)}
"""Each player by his value (``W``) and his title (``White``)."""


def colour(player: Colour | str) -> str:
    """``player`` (a :class:`Colour`, its value ``W``/``B`` or its title ``White``/``Black``)
    named in the page's language; anything else as it is."""
    found = player if isinstance(player, Colour) else BY_NAME.get(player)
    return str(player) if found is None else str(COLOURS[found])


def ended(how: str | None) -> str:
    """How a game ended (``bear-off``, ``drop``, ``resign``: the message ``ended.*``) in
    the page's language; anything else as it is."""
    said = f"ended.{how}"
    return render(Message.of(said), page_language()) if said in CATALOG else str(how or "")


def init_app(app: Flask) -> None:
    """The filters ``colour`` and ``ended`` in ``app``'s templates."""
    app.jinja_env.filters["colour"] = colour
    app.jinja_env.filters["ended"] = ended
