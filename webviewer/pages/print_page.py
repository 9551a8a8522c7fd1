"""The printed game (``/game/<id>/print``): a game for a club's files, on screen and on
paper (the print rules of ``static/style.css``): its tags, the main line's moves in columns
with their marks and comments, diagrams of the positions at the marked plays (the
analysis's marks and the record's ``?!``, ``?``, ``??``), or after every ``every``-th ply
when asked, and the game report (:mod:`webviewer.pages.report_view`) when the game is
analysed. Variations are left out, and the page says how many.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import render_template
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup

from notation import Dice
from notation.render.svg import board
from notation.tree.game import Game
from webviewer.pages.kept_games import GameView, PageNode
from webviewer.pages.report_view import report_html
from webviewer.pages.tree import Links
from webviewer.plumbing.language import page_language

MISTAKES = ("?!", "?", "??")
"""The marks a diagram is drawn at (the analysis's, or the record's own NAGs)."""
MOST_DIAGRAMS = 200
"""Diagrams a printed game draws at most (every ply of a long game at ``every=1``)."""
TAG_LABELS = {"Event": lazy_gettext("Event"), "Site": lazy_gettext("Site"), "Date": lazy_gettext("Date"),
              "Round": lazy_gettext("Round"), "White": lazy_gettext("White"), "Black": lazy_gettext("Black"),
              "Result": lazy_gettext("Result"), "Variant": lazy_gettext("Rule set"),
              "Options": lazy_gettext("Rule options"), "Match": lazy_gettext("Match"),
              "MatchLength": lazy_gettext("Match length"), "Game": lazy_gettext("Game"),
              "Score": lazy_gettext("Score"), "Annotator": lazy_gettext("Annotator"),
              "LeadRoll": lazy_gettext("Lead roll")}
"""The standard tags' labels on the printed game, in the page's language (a tag of the
record's own, and the tag's name in the page's ``data-tag``, as the record writes it)."""


class Move(NamedTuple):
    """One main-line turn of the printed move list."""

    label: str
    text: str
    marks: tuple[str, ...]
    comments: tuple[str, ...]
    href: str


class Diagram(NamedTuple):
    """A position drawn: its SVG, what the caption says of it, its position ID (written
    under it, to set it up again) and the link to its turn."""

    svg: Markup
    caption: str
    position_id: str
    href: str


def _svg(node: PageNode, view: GameView, dice: Dice | None, title: str) -> Markup:
    """``node``'s position seen by the player to act, numbered for him, with ``dice``."""
    return Markup(board(node.position(), view.rules, white_to_move=node.white_to_move, dice=dice,
                        black_numbers=not node.white_to_move, title=title, language=page_language()))


def _moves(view: GameView, marks: dict[int, str], links: Links) -> tuple[list[Move], int]:
    """The main line's turns as the printed list shows them, and the variations left out."""
    moves, variations = [], 0
    for item in view.items:
        variations += item.kind == "open"
        if item.kind != "move" or item.depth:
            continue
        ply = int(item.address.removeprefix("ply="))
        own = tuple(symbol for symbol, _ in item.nags)
        mark = marks.get(ply)
        shown = own + ((mark,) if mark and mark not in own else ())
        moves.append(Move(item.label, item.text, shown, item.comments, links.url(item.address)))
    return moves, variations


def _diagrams(view: GameView, moves: list[Move], turns: dict[int, dict[str, Any]], every: int,
              links: Links) -> list[Diagram]:
    """The positions drawn: after every ``every``-th ply, else before each marked play
    (the problem as the player faced it, with his roll)."""
    found = []
    nodes = [view.nodes[index] for index in view.mainline]
    if every:
        for ply in range(every, len(nodes), every)[:MOST_DIAGRAMS]:  # none drawn past the last kept
            title = gettext("After ply %(ply)s (%(move)s %(play)s)", ply=ply, move=moves[ply - 1].label,
                            play=moves[ply - 1].text)
            found.append(Diagram(_svg(nodes[ply], view, None, title), title,
                                 nodes[ply].position().position_id(), links.url(f"ply={ply}")))
    else:
        for ply, move in enumerate(moves, start=1):
            if len(found) == MOST_DIAGRAMS:
                break
            if ply >= len(nodes) or not any(mark in MISTAKES for mark in move.marks):
                continue
            roll = nodes[ply].dice
            dice = None if roll is None else Dice(*roll) if roll[1] is not None else Dice(roll[0])
            turn = turns.get(ply)
            title = gettext("Ply %(ply)s: %(move)s %(play)s", ply=ply, move=move.label, play=move.text)
            if turn is not None and turn["best"] != turn["played"]:
                title += " " + gettext("(best: %(play)s)", play=turn["best"])
            found.append(Diagram(_svg(nodes[ply - 1], view, dice, title), title,
                                 nodes[ply - 1].position().position_id(), links.url(f"ply={ply}")))
    return found


def print_page(view: GameView, game: Game, row: dict[str, Any], analysis: dict[str, Any] | None,
               links: Links, every: int) -> str:
    """The printed game of ``row`` (``game``: its record read back, for its tags;
    ``analysis``: its latest, if any; ``links``: the game page's; ``every``: a diagram
    after every ``every``-th ply, 0 for the marked plays)."""
    turns: dict[int, dict[str, Any]] = {} if analysis is None else analysis["turns"]
    marks = {ply: turn["mark"] for ply, turn in turns.items() if turn["mark"]}
    moves, variations = _moves(view, marks, links)
    names = {"White": row.get("white"), "Black": row.get("black")}
    report = None if analysis is None else Markup(report_html(view, analysis, names, links))
    tags = [(name, str(TAG_LABELS.get(name, name)), value) for name, value in game.headers.items()]
    return render_template("games/print.html", row=row, tags=tags,
                           comments=view.comments, moves=moves, variations=variations,
                           diagrams=_diagrams(view, moves, turns, every, links), every=every,
                           report=report, game_page=links.url("ply=0"))
