"""The fixed words of the node's part of the game page (the ``node_view`` macro of
``templates/games/pieces.html``) and of the data the script steps through, in one
language: looked up in the catalog once per game and language (kept with the game's
parts, :meth:`~webviewer.pages.kept_games.GameView.part`), not once per request (issue 36:
a dozen catalog lookups through Flask's request globals on every page made it slower)."""

from __future__ import annotations

from typing import NamedTuple

from flask_babel import gettext
from markupsafe import Markup


class NodeWords(NamedTuple):
    """The node part's words in one language: those the page shows as they are (the
    catalog's text, trusted: ``Markup``), and the sentences with numbers to fill in
    (``pips``, ``ply_of``, ``position_after``: the catalog's text, placeholders kept; and
    ``labelled``, how the language joins a label to what it labels)."""

    in_variation: Markup
    position: Markup
    steps: Markup
    start: Markup
    back: Markup
    forward: Markup
    end: Markup
    autoplay: Markup
    flip: Markup
    numbers_shown: Markup
    numbers_on_roll: Markup
    leave: Markup
    edit: Markup
    hide_arrows: Markup
    show_arrows: Markup
    labelled: Markup
    pips: str
    ply_of: str
    position_after: str

    def label(self, label: Markup, value: Markup) -> Markup:
        """``label: value`` as the language joins them (French: ``label : value``)."""
        return self.labelled % {"label": label, "value": value}

    def pip_counts(self, white: int, black: int) -> Markup:
        """"Pips: White 120, Black 98." """
        return Markup(self.pips % {"white": white, "black": black})

    def where(self, ply: int, last: int) -> str:
        """"Ply 3 of 80"."""
        return self.ply_of % {"ply": ply, "last": last}

    def title(self, ply: int) -> str:
        """The board's title (read by screen readers) after ``ply``."""
        return self.position_after % {"ply": ply}


def node_words() -> NodeWords:
    """The node part's words in this request's language (Flask-Babel's ``gettext``
    without values gives the catalog's text, placeholders kept)."""
    return NodeWords(
        Markup(gettext("(in a variation)")), Markup(gettext("Position")),
        Markup(gettext("Step through the game")), Markup(gettext("« Start")),
        Markup(gettext("◀ Back")), Markup(gettext("Forward ▶")), Markup(gettext("End »")),
        Markup(gettext("Autoplay")), Markup(gettext("Flip board (f)")),
        Markup(gettext("Number the points for the player whose turn is shown")),
        Markup(gettext("Number the points for the player on roll")),
        Markup(gettext("Back to the main line (↑)")), Markup(gettext("Edit this position")),
        Markup(gettext("Hide the arrows")), Markup(gettext("Show the arrows")),
        Markup(gettext("%(label)s: %(value)s")), gettext("Pips: White %(white)s, Black %(black)s."),
        gettext("Ply %(ply)s of %(last)s"), gettext("Position after ply %(ply)s"))
