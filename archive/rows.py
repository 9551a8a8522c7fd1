"""A game as archive rows, and back.

The ``record`` column keeps the game in canonical text notation, so the whole tree
(comments, NAGs, nested variations) is read back exactly; the other columns and tables are
what search needs.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, NamedTuple

from notation.engine.position_id import position_ids
from notation.engine.rules import DEFAULT
from notation.engine.state import Colour
from notation.errors import IllegalPlayError, NotationError, RecordError
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.formats.jqn.writer import line_text
from notation.tree.game import Game

STANDARD = {"Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Options",
            "Match", "MatchLength", "Game", "Score"}


TURN_COLUMNS = ("ply", "player", "kind", "dice", "play", "position_before", "position_after",
                "pips_white", "pips_black")
"""The columns of a turn row, in the order of :attr:`GameRows.turns`' tuples."""

ANNOTATION_COLUMNS = ("ply", "kind", "text")
"""The columns of an annotation row, in the order of :attr:`GameRows.annotations`' tuples."""


@dataclass
class GameRows:
    """Everything one game puts in the archive (ids of players, events and the match are
    looked up by name when it is stored). Turns and annotations are tuples in the order of
    ``TURN_COLUMNS`` and ``ANNOTATION_COLUMNS``, ready for ``executemany``."""

    game: dict[str, Any]
    white: str | None
    black: str | None
    event: str | None
    match: tuple[str, int | None] | None
    turns: list[tuple[Any, ...]] = field(default_factory=list)
    annotations: list[tuple[Any, ...]] = field(default_factory=list)


FILE_RULES = ("R-MATCH",)
"""Rules broken by a game among the games of its file, not at one of its turns (no
``error_ply``)."""


def content_hash(record: str) -> str:
    return hashlib.sha256(record.encode("utf-8")).hexdigest()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def game_hash(game: Game, record: str) -> str:
    """The hash under which ``game`` (whose :func:`record_text` is ``record``) is stored:
    its record's :func:`content_hash`, except for an invalid game stored as the moves
    before its error (read from another format than the text notation): that record does
    not say where and why reading stopped, so the error is hashed with it (two games cut
    short alike by different errors are two games). A game whole but for a rule of its
    file (:data:`FILE_RULES`) is its record's: the same game as when it is valid."""
    error = _said(game.errors[0]) if game.errors else None
    if error is not None and not game.source_text and error.rule_id not in FILE_RULES:
        # what the error says, not where in its file it stands
        return content_hash(f"{record}\n{error.rule_id or ''} {error.message}")
    return content_hash(record)


class _Said(NamedTuple):
    """What the archive keeps of a game's error: its rule id, its message (in English),
    its line, and the message as data (:meth:`~notation.messages.Message.stored`)."""

    rule_id: str | None
    message: str
    line: int | None
    stored: str


def _said(error: NotationError) -> _Said:
    """The rule id, message and line of ``error``: a reader's :class:`RecordError` says all
    three; a broken rule its rule id (its text is the message); other errors only a text."""
    stored = error.msg.stored()
    if isinstance(error, RecordError):
        return _Said(error.rule_id, error.message, error.line, stored)
    if isinstance(error, IllegalPlayError):
        return _Said(error.rule_id, str(error), None, stored)
    return _Said(None, str(error), None, stored)


def record_text(game: Game) -> str:
    """What the archive keeps of a game: its canonical text, or for an invalid game the text
    it was read from, when the reader had it, so nothing after its error is lost."""
    return game.source_text if game.errors and game.source_text else write_game(game)


def game_rows(game: Game, source_file: str | None = None, source_offset: int | None = None,
              record: str | None = None, digest: str | None = None) -> GameRows:
    """The rows of ``game`` (with its first error, if any). ``record`` is its
    :func:`record_text` and ``digest`` its :func:`game_hash`, when the caller has them
    already."""
    record = record if record is not None else record_text(game)
    headers = game.headers
    result = headers.get("Result") or game.result
    score = (headers.get("Score") or "").split("-")
    error = _said(game.errors[0]) if game.errors else None
    turns = _turn_rows(game)
    row = {
        "hash": digest or game_hash(game, record), "variant": game.rules.name,
        "options": game.rules.options_text or None,
        "site": headers.get("Site"), "date": headers.get("Date"), "round": headers.get("Round"),
        "game_number": _int(headers.get("Game")),
        "score_white": _int(score[0]) if len(score) == 2 else None,
        "score_black": _int(score[1]) if len(score) == 2 else None,
        "first": game.first.value, "result": result,
        "winner": result[0] if result[:1] in ("W", "B") else None,
        "points": _int(result[2:]) if result[:1] in ("W", "B") else None,
        "turns": len(turns), "valid": int(not game.errors),
        "error_rule": error.rule_id if error else None,
        "error_message": error.message if error else None,
        "error_msg": error.stored if error else None,
        "error_ply": len(turns) + 1 if error and error.rule_id not in FILE_RULES else None,
        "error_line": error.line if error else None,
        "source_file": source_file, "source_offset": source_offset,
        "tags": json.dumps({k: v for k, v in headers.items() if k not in STANDARD}, ensure_ascii=False),
        "record": record, "imported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    match_name = headers.get("Match")
    match = (match_name, _int(headers.get("MatchLength"))) if match_name else None
    return GameRows(row, headers.get("White") or None, headers.get("Black") or None,
                    headers.get("Event") or None, match, turns, _annotation_rows(game))


_PLAYERS = {colour: colour.value for colour in Colour}


def _turn_rows(game: Game) -> list[tuple[Any, ...]]:
    """The main line's turns (``TURN_COLUMNS``). Run for every turn of every imported game,
    so written for speed: the game's position IDs worked out together
    (:func:`~notation.engine.position_id.position_ids`), a turn's position after reused as the next
    one's before; the last turn's position after is the one the next player sees (at the
    end of a game, the loser: :meth:`~notation.engine.state.GameState.seen_next`)."""
    nodes = list(game.mainline())
    # a finished game's last position as the loser sees it, as every output gives it
    last = [nodes[-1].state.seen_next()[0]] if nodes else []
    ids = position_ids([game.state.position, *(node.state.position for node in nodes[:-1]), *last])
    turns = []
    for node, before, after in zip(nodes, ids, ids[1:], strict=False):
        turn = node.turn
        assert turn is not None, "the game's root is no turn"
        kind, player, dice, play = turn
        white, black = node.state.pips()
        turns.append((node.ply, _PLAYERS[player], kind, None if dice is None else str(dice),
                      play.notation if play is not None else None, before, after, white, black))
    return turns


def _annotation_rows(game: Game) -> list[tuple[Any, ...]]:
    """Every comment and NAG of the tree, and each variation's moves (``ANNOTATION_COLUMNS``),
    in the order the archive has always stored them (row ids, and the order searches list
    them in): the game's comments, then node by node as :meth:`Game.descendants` goes.

    A lean loop, not a visitor of :meth:`Game.accept`: the visitor goes in the text
    notation's order, and sorting its rows into this one cost a climb to the root for each
    annotated node; importing 500 random games took 4.50 s of CPU instead of 3.40
    (``bench/archive_speed.py --import-games 500 --games 0``, both in one run)."""
    rows: list[tuple[Any, ...]] = [(0, "comment", text) for text in game.comments]
    for node in game.descendants():
        ply = node.ply
        starting, comments, nags = node.annotations()
        if starting or comments or nags:
            rows += [(ply, "comment", text) for text in (*starting, *comments)]
            rows += [(ply, "nag", f"${nag}") for nag in nags]
        parent = node.parent
        if parent is not None and node is not parent.variations[0]:
            rows.append((ply, "variation", line_text(node)))
    return rows


def game_from_record(record: str, default_variant: str = DEFAULT, valid: bool = False) -> Game:
    """Read back the game of an archive ``record``; :class:`RecordError` if it does not
    read back as one game (a record stored by a version that wrote a line break in a tag
    unescaped reads as two). ``valid``: the game was stored valid, so its record is the
    canonical text (:func:`record_text`), and each play keeps the text read as its
    notation instead of having it written again (every play is still checked)."""
    games = list(read_games(io.BytesIO(record.encode("utf-8")),
                            lambda: GameBuilder(default_variant, canonical=valid)))
    if len(games) != 1:
        raise RecordError(f"the stored record reads back as {len(games)} games, not one: "
                          "import the game again from its file", "SYNTAX")
    game = games[0]
    assert isinstance(game, Game)
    return game


__all__ = [
    "ANNOTATION_COLUMNS",
    "TURN_COLUMNS",
    "GameRows",
    "RecordError",
    "content_hash",
    "game_from_record",
    "game_hash",
    "game_rows",
    "record_text",
]
