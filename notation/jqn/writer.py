"""Writing games in the text notation, canonically.

Tags in a fixed order (the standard ones first), then the movetext: turn numbers, rolls
higher die first, plays in the engine's canonical notation, NAGs as ``$n``, comments in
braces (``\\``, ``{`` and ``}`` escaped), variations in parentheses, the result, lines
wrapped at 80 columns. Writing what was read gives the same tree; writing a canonical
file again gives the same bytes.
"""

from __future__ import annotations

from typing import Iterable, TextIO

from ..game import STANDARD_TAGS, Game, GameNode
from ..state import PASSED, ROLL, Colour
from .lexer import escape_comment

WIDTH = 80


def header_lines(game: Game) -> list[str]:
    headers = dict(game.headers)
    headers["Result"] = headers.get("Result") or game.result
    if game.first is Colour.BLACK and "Lead" not in headers and "LeadRoll" not in headers:
        headers["Lead"] = "Black"
    ordered = [name for name in STANDARD_TAGS if name in headers]
    ordered += [name for name in headers if name not in STANDARD_TAGS]
    return [f'[{name} "{_escape_tag(headers[name])}"]' for name in ordered]


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _move_number(node: GameNode) -> int:
    """PGN-style numbers: White's turns open a number; if Black started, his first turn
    is ``1...`` and White's first ``2.``."""
    white_rolls = 0
    walker = node.parent
    while walker is not None and walker.turn is not None:
        if walker.turn.player is Colour.WHITE and walker.turn.kind == ROLL:
            white_rolls += 1
        walker = walker.parent
    first = node.root().first
    return white_rolls + (node.turn.player is Colour.WHITE) + (first is Colour.BLACK)


def _turn_text(node: GameNode) -> str:
    turn = node.turn
    if turn.kind in (ROLL, PASSED):
        return f"{'>' if turn.kind == PASSED else ''}{turn.dice}: {turn.play}"
    return turn.kind


class _Words:
    """The movetext as unbreakable words, and whether the next turn needs its number."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.need_number = True
        self.last_player: Colour | None = None

    def add(self, word: str) -> None:
        self.words.append(word)

    def comments(self, texts: Iterable[str]) -> None:
        for text in texts:
            self.add("{" + escape_comment(text) + "}")
            self.need_number = True

    def turn(self, node: GameNode) -> None:
        self.comments(node.starting_comments)
        player = node.turn.player
        number = _move_number(node)
        if player is Colour.WHITE and (self.need_number or self.last_player is not Colour.WHITE):
            self.add(f"{number}.")
        elif player is Colour.BLACK and self.need_number:
            self.add(f"{number}...")
        self.add(_turn_text(node))
        self.need_number = False
        self.last_player = player
        for nag in node.nags:
            self.add(f"${nag}")
        self.comments(node.comments)

    def line(self, parent: GameNode, start: GameNode) -> None:
        """``start`` (a child of ``parent``) and everything after it on its main line,
        with the variations met on the way."""
        node, parent_node = start, parent
        while True:
            self.turn(node)
            alternatives = parent_node.variations[1:] if node is parent_node.variations[0] else []
            for alternative in alternatives:
                self.add("(")
                self.need_number = True
                self.line(parent_node, alternative)
                self.add(")")
                self.need_number = True
            if not node.variations:
                return
            parent_node, node = node, node.variations[0]


def movetext(game: Game) -> str:
    """The movetext of ``game``, wrapped."""
    words = _Words()
    words.comments(game.comments)
    if game.variations:
        words.line(game, game.variations[0])
        # Alternatives to the very first turn come right after it.
    words.add(game.headers.get("Result") or game.result)
    return _wrap(_glue(words.words))


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
    """One game as text: headers, a blank line, the movetext, a newline."""
    return "\n".join(header_lines(game)) + "\n\n" + movetext(game) + "\n"


def write_games(games: Iterable[Game], out: TextIO) -> None:
    """Several games, separated by blank lines."""
    for index, game in enumerate(games):
        if index:
            out.write("\n")
        out.write(write_game(game))
