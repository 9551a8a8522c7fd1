"""The game archive: one SQLite file built with sqlite-utils (it opens in Datasette as it
is). All SQL of the project lives in this package.

>>> from archive import open_archive, import_files, search, Query   # doctest: +SKIP
"""

from sqlite_utils import Database

from notation.tree.game import Game

from .explorer import PlayStats, games_through, plays_from
from .importer import ImportSummary, import_files, import_games
from .live import LiveRecord, TooManyLiveGames, create_live, delete_live, load_live, save_live
from .rows import game_from_record, game_rows
from .search import Query, game_ids, record, search, stored_id
from .stats import chi_square_p, dice_fairness, opening_plays, player_results, results_per_player
from .store import ArchiveError, default_path, open_archive


def load_game(db: Database, game_id: int) -> Game | None:
    """The game stored under ``game_id``, read back from its record (``None`` if absent)."""
    row = record(db, game_id)
    if row is None:
        return None
    return game_from_record(row["record"], row["variant"], bool(row["valid"]))


__all__ = ["ArchiveError", "ImportSummary", "LiveRecord", "PlayStats", "Query", "TooManyLiveGames",
           "chi_square_p", "create_live", "default_path", "delete_live", "dice_fairness", "game_from_record",
           "game_ids", "game_rows", "games_through", "import_files", "import_games", "load_game",
           "load_live", "open_archive", "opening_plays", "player_results", "plays_from", "record",
           "results_per_player", "save_live", "search", "stored_id"]
