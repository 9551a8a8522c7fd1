"""The game archive: one SQLite file built with sqlite-utils (it opens in Datasette as it
is). All SQL of the project lives in this package.

>>> from archive import open_archive, import_files, search, Query   # doctest: +SKIP

The names below are loaded from their modules when first asked for, so that a command
which only declares the archive's options (``jacquet analyse`` of files) does not pay for
sqlite-utils' import (a third of a second).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlite_utils import Database

    from notation.tree.game import Game

    from .explorer import PlayStats, games_through, plays_from
    from .importer import ImportSummary, import_files, import_games
    from .live import LiveRecord, TooManyLiveGames, create_live, delete_live, load_live, save_live
    from .rows import game_from_record, game_rows
    from .stats import chi_square_p, dice_fairness, opening_plays, player_results, results_per_player
    from .store import ArchiveError, default_path, open_archive

# Imported at once: the module is light (no sqlite-utils), and its function ``search`` must
# be bound over the submodule of the same name, which importing it binds on the package.
from .search import Query, game_ids, record, search, stored_id

_HOMES = {
    ".explorer": ("PlayStats", "games_through", "plays_from"),
    ".importer": ("ImportSummary", "import_files", "import_games"),
    ".live": ("LiveRecord", "TooManyLiveGames", "create_live", "delete_live", "load_live", "save_live"),
    ".rows": ("game_from_record", "game_rows"),
    ".stats": ("chi_square_p", "dice_fairness", "opening_plays", "player_results", "results_per_player"),
    ".store": ("ArchiveError", "default_path", "open_archive"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A name of the archive's API, imported from its module at first use."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def load_game(db: Database, game_id: int) -> Game | None:
    """The game stored under ``game_id``, read back from its record (``None`` if absent)."""
    from .rows import game_from_record

    row = record(db, game_id)
    if row is None:
        return None
    return game_from_record(row["record"], row["variant"], bool(row["valid"]))


__all__ = ["ArchiveError", "ImportSummary", "LiveRecord", "PlayStats", "Query", "TooManyLiveGames",
           "chi_square_p", "create_live", "default_path", "delete_live", "dice_fairness", "game_from_record",
           "game_ids", "game_rows", "games_through", "import_files", "import_games", "load_game",
           "load_live", "open_archive", "opening_plays", "player_results", "plays_from", "record",
           "results_per_player", "save_live", "search", "stored_id"]
