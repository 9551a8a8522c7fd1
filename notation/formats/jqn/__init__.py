"""The text notation (``.jqn``): a PGN-like format for tables games. See
``docs/notation.md`` for the grammar."""

from notation.formats.jqn.builder import GameBuilder
from notation.formats.jqn.reader import (
           HeadersOnly,
           RawGame,
           index_games,
           read_games,
           read_headers,
           split_games,
)
from notation.formats.jqn.writer import write_game, write_games
from notation.tree.walk import SKIP, Visitor

__all__ = [
    "SKIP", "GameBuilder", "HeadersOnly", "RawGame", "Visitor", "index_games", "read_games",
    "read_headers", "split_games", "write_game", "write_games",
]
