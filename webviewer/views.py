"""What the game page and the game JSON need of a stored game, computed once per record.

Browsing never changes a stored game, so reading its record back (parsing and checking
every play), building its move list, its pip counts and its JSON is done once and kept,
keyed by the record itself: a game stored again under the same id with another record is
simply another key. The cache is bounded (least recently used games are dropped).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from archive import game_from_record
from notation.game import Game, GameNode
from notation.json_format import game_to_dict

from .tree import MoveItem, move_items

CACHED_GAMES = 256


@dataclass(frozen=True)
class GameView:
    game: Game
    mainline: tuple[GameNode, ...]
    """The start and every main-line node."""
    items: tuple[MoveItem, ...]
    pips: tuple[tuple[int, int], ...]
    """(White, Black) pip counts after each main-line ply."""


@lru_cache(maxsize=CACHED_GAMES)
def game_view(record: str, variant: str) -> GameView:
    game = game_from_record(record, variant)
    mainline = (game, *game.mainline())
    return GameView(game, mainline, tuple(move_items(game)),
                    tuple(node.state.white_view().pip_counts() for node in mainline))


@lru_cache(maxsize=CACHED_GAMES)
def game_json(record: str, variant: str) -> str:
    """The game as the API's JSON text."""
    return json.dumps(game_to_dict(game_view(record, variant).game), ensure_ascii=False)
