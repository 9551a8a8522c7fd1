"""The game archive: one SQLite file built with sqlite-utils (it opens in Datasette as it
is). All SQL of the project lives in this package.

>>> from archive import open_archive, import_files, search, Query   # doctest: +SKIP
"""

from .explorer import PlayStats, games_through, plays_from
from .live import create_live, delete_live, load_live, save_live
from .importer import ImportSummary, import_files, import_games
from .rows import content_hash, game_from_record, game_rows, record_text
from .search import Query, game_ids, record, search
from .stats import chi_square_p, dice_fairness, opening_plays, player_results, results_per_player
from .store import ArchiveError, default_path, open_archive


def load_game(db, game_id: int):
    """The game stored under ``game_id``, read back from its record (``None`` if absent)."""
    row = record(db, game_id)
    if row is None:
        return None
    return game_from_record(row["record"], row["variant"])


def stored_id(db, game) -> int | None:
    """The id under which ``game`` is stored (found by its content hash), or ``None``."""
    row = db.execute("SELECT id FROM games WHERE hash = ?", [content_hash(record_text(game))]).fetchone()
    return None if row is None else row[0]


__all__ = ["ArchiveError", "create_live", "delete_live", "load_live", "save_live", "ImportSummary", "PlayStats", "Query", "chi_square_p", "default_path",
           "dice_fairness", "game_from_record", "game_ids", "game_rows", "games_through",
           "import_files", "import_games", "load_game", "open_archive", "opening_plays",
           "player_results", "plays_from", "record", "results_per_player", "search", "stored_id"]
