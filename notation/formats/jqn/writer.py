"""Writing games in the text notation, canonically.

Tags in a fixed order (the standard ones first), then the movetext: turn numbers, rolls
higher die first, plays in the engine's canonical notation, NAGs as ``$n``, comments in
braces (``\\``, ``{`` and ``}`` escaped), variations in parentheses, the result, lines
wrapped at 80 columns. Writing what was read gives the same tree; writing a canonical
file again gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from notation.engine.state import RESIGN, ROLL, Colour
from notation.errors import FormatError
from notation.formats.jqn.lexer import escape_comment
from notation.tree.game import STANDARD_TAGS, Game, GameNode
from notation.tree.numbering import MOVE_STARTS, move_number
from notation.tree.tags import TAG_NAME
from notation.tree.walk import Visitor

WIDTH = 80


def header_lines(game: Game) -> list[str]:
    headers = dict(game.headers)
    headers["Result"] = headers.get("Result") or game.result
    headers["Variant"] = game.rules.name  # the rules the game was read under, options too
    if game.rules.options:
        headers["Options"] = game.rules.options_text
    if game.first is Colour.BLACK and "Lead" not in headers and "LeadRoll" not in headers:
        headers["Lead"] = "Black"
    ordered = [name for name in STANDARD_TAGS if name in headers]
    ordered += [name for name in headers if name not in STANDARD_TAGS]
    for name in ordered:
        if not TAG_NAME.fullmatch(name):
            raise FormatError(f"cannot write the tag {name!r}: a tag name is a letter, then "
                             "letters, digits or _")
    return [f'[{name} "{_escape_tag(headers[name])}"]' for name in ordered]


def _escape_tag(value: str) -> str:
    """A tag value between double quotes: ``\\`` and ``"`` escaped, and line breaks
    written ``\\n`` and ``\\r`` (a tag is one line)."""
    return (value.replace("\\", "\\\\").replace('"', '\\"')
            .replace("\n", "\\n").replace("\r", "\\r"))


def turn_text(node: GameNode) -> str:
    """A turn as the notation writes it: ``53: 24/16``, ``>3: 13/10``, ``double``;
    ``resign`` when the player to act resigns, ``Black resigns`` when the other does."""
    turn = node.turn
    assert turn is not None, "the game's root is no turn"
    if turn.kind == RESIGN and node.parent is not None and node.parent.state.player is not turn.player:
        return f"{turn.player.title} resigns"
    return str(turn)


def line_text(node: GameNode) -> str:
    """The turns from ``node`` on along its main line, as text (a variation's moves)."""
    texts = [turn_text(node)]
    texts += [turn_text(following) for following in node.mainline()]
    return " ".join(texts)


class _Movetext(Visitor[str]):
    """Writes the movetext as unbreakable words, a visitor of the game
    (:meth:`~notation.tree.game.Game.accept`). Numbers are PGN's: White's move opens
    ``N.``; Black's move is ``N...`` only after a comment or at the start of a line; if
    Black started, his first move is ``1...`` and White's first ``2.``. Along a line it
    follows White's rolls so far and whose move is in progress (``owner``), numbered by
    :func:`~notation.tree.numbering.move_number`; a variation
    starts from what they were before the turn it is an alternative to. (Its
    :meth:`visit_node` runs for every turn of every game written, so it is kept lean.)"""

    def __init__(self, black_first: bool) -> None:
        self.words: list[str] = []
        self.black_first = black_first
        self.white_rolls = 0
        self.owner: Colour | None = None
        self.before: tuple[int, Colour | None] = (0, None)
        """``white_rolls`` and ``owner`` before the turn visited last."""
        self.need_number = True
        self.lines: list[tuple[int, Colour | None, tuple[int, Colour | None]]] = []
        """The lines left for a variation: their ``white_rolls``, ``owner`` and ``before``."""

    def visit_comment(self, text: str) -> None:
        self.words.append("{" + escape_comment(text) + "}")
        self.need_number = True

    def visit_nag(self, number: int, line: int = 0, column: int = 0) -> None:
        self.words.append(f"${number}")

    def visit_node(self, node: GameNode) -> None:
        turn = node.turn
        assert turn is not None
        add = self.words.append
        kind, player, owner, white_rolls = turn.kind, turn.player, self.owner, self.white_rolls
        self.before = (white_rolls, owner)
        starts = kind in MOVE_STARTS and player is not owner
        if starts:
            self.owner = owner = player
        if (owner is Colour.WHITE and starts) or (owner is not None and self.need_number):
            add(move_number(owner, white_rolls, self.black_first))
        add(turn_text(node))
        if player is Colour.WHITE and kind == ROLL:
            self.white_rolls = white_rolls + 1
        self.need_number = False

    def begin_variation(self) -> None:
        self.lines.append((self.white_rolls, self.owner, self.before))
        self.white_rolls, self.owner = self.before
        self.words.append("(")
        self.need_number = True

    def end_variation(self) -> None:
        self.white_rolls, self.owner, self.before = self.lines.pop()
        self.words.append(")")
        self.need_number = True

    def visit_result(self, text: str, line: int = 0, column: int = 0) -> None:
        self.words.append(text)

    def result(self) -> str:
        return _wrap(_glue(self.words))


def movetext(game: Game) -> str:
    """The movetext of ``game``, wrapped."""
    written = game.accept(_Movetext(game.first is Colour.BLACK))
    assert isinstance(written, str)
    return written


def _glue(words: list[str]) -> list[str]:
    """Attach '(' and turn numbers to the word after them, ')' to the word before."""
    glued: list[str] = []
    opening = ""
    for word in words:
        if word == "(":
            opening += "("
        elif word == ")":
            glued[-1] += ")"
        elif word.endswith("."):
            opening += word + " "
        else:
            glued.append(opening + word)
            opening = ""
    return glued


def _wrap(words: list[str]) -> str:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return "\n".join(lines)


def write_game(game: Game) -> str:
    """One game as text: headers, a blank line, the movetext, a newline. A game read with
    errors is written as the text it was read from, when the reader kept it: nothing after
    its first error is lost."""
    if game.errors and game.source_text:
        return game.source_text.rstrip("\n") + "\n"
    return "\n".join(header_lines(game)) + "\n\n" + movetext(game) + "\n"


def write_games(games: Iterable[Game], out: TextIO) -> None:
    """Several games, separated by blank lines."""
    for index, game in enumerate(games):
        if index:
            out.write("\n")
        out.write(write_game(game))
