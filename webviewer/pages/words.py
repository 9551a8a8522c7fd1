"""The game's words that the pages show and the engine gives in English (a player's colour,
``Colour.title``; how a game ended, ``GameState.ended_by``; the engine's outputs, named by
the rule set's outcomes), in the page's language: the template filters ``colour``
(``{{ state.player | colour }}``), ``ended`` (``{{ state.ended_by | ended }}``) and
``headings`` (``{{ ranked.outputs | headings(variant) }}``); ``said``, a message kept
as data in the page's language (``{{ row.error_msg | said(row.error_message) }}``); and
``titled``, a rule set's name shown to people from its message id
(``{{ title | titled }}``: ``Long nardy``, ``Длинные нарды``); ``stamped``, a moment
stored as ISO 8601 as the page's language writes it (``{{ user.created | stamped }}``); ``level``,
the level an analysis's figure was decided at (``{{ turn.level | level }}``: a rollout's
settings in the page's language, :func:`archive.levels.level_words`)."""

from __future__ import annotations

from datetime import datetime

from flask import Flask
from flask_babel import format_datetime, gettext, lazy_gettext

from archive.levels import level_words
from notation.engine.rules import rule_set
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


def outcome(name: str) -> str:
    """An outcome of a rule set (``Outcome.name``: ``double game``, ``gammon``) in the
    page's language."""
    return render(Message.of("outcome." + name.replace(" ", "-")), page_language())


def headings(outputs: list[str], variant: str) -> list[tuple[str, str, bool]]:
    """The engine's outputs (``win``, then each outcome's ``win`` and ``lose`` names, as
    ``jacquet analyse --json`` and the API name them) as the pages head them, each
    (output, heading, whether it is a chance, shown in percent): Win, Win gammon,
    Win backgammon, Lose gammon... from the rule set's outcomes; a rule set of penalties
    (hale) has the points won and lost expected, over its most (not chances)."""
    named: dict[str, tuple[str, bool]] = {"win": (gettext("Win"), True),
                                          "won": (gettext("Points won"), False),
                                          "lost": (gettext("Points lost"), False)}
    for found in rule_set(variant).outcomes:
        named[found.win] = (gettext("Win %(outcome)s", outcome=outcome(found.name)), True)
        named[found.lose] = (gettext("Lose %(outcome)s", outcome=outcome(found.name)), True)
    return [(name, *named.get(name, (name, False))) for name in outputs]


def said(stored: str | None, text: str | None = None) -> str:
    """A message kept as data (:meth:`Message.stored`: an invalid game's error) in the
    page's language; ``text``, as it was kept, when there is none or it cannot be read
    (a game stored before its messages were)."""
    if stored:
        try:
            return render(Message.from_stored(stored), page_language())
        except (ValueError, KeyError, TypeError):
            pass
    return text or ""


def titled(title: str) -> str:
    """A rule set's :attr:`~notation.RuleSet.title` (a message id) in the page's language."""
    return render(Message.of(title), page_language())


def stamped(stamp: str) -> str:
    """A moment stored as ISO 8601 (``2026-12-04T17:34:05+00:00``: when an analysis was
    made, an account added, a line of the audit log written) as the page's language writes
    a date and time (Babel's medium form, in the viewer's time zone: ``Dec 4, 2026, 5:34:05
    PM``, ``4 déc. 2026, 17:34:05``); a stamp that does not read is shown as stored."""
    try:
        return str(format_datetime(datetime.fromisoformat(stamp), "medium"))
    except (TypeError, ValueError):
        return str(stamp)


def level(text: str | None) -> str | None:
    """A level an analysis names (``jacquet-td jacquet v2, 2-ply, marks under 0.32 checked by
    a rollout of ...``) in the page's language; none stays none."""
    return level_words(text, page_language()) if text else text


def init_app(app: Flask) -> None:
    """The filters ``colour``, ``ended``, ``headings``, ``level``, ``said``, ``stamped`` and
    ``titled`` in ``app``'s templates."""
    app.jinja_env.filters["colour"] = colour
    app.jinja_env.filters["said"] = said
    app.jinja_env.filters["ended"] = ended
    app.jinja_env.filters["headings"] = headings
    app.jinja_env.filters["titled"] = titled
    app.jinja_env.filters["stamped"] = stamped
    app.jinja_env.filters["level"] = level
