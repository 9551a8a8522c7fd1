"""The archive's schema, built and upgraded by sqlite-utils' ``Migrations``.

Tables (see ``docs/archive.md`` for every column):

* ``players``, ``events``: names, normalised (one row per name).
* ``matches``: a match (its name or source, its length).
* ``games``: one row per game: tags, rule set, result, points, turns, validity and the
  first error, where it came from, its content hash (unique: importing twice adds nothing),
  the match and the score before it, and ``record``, the game in canonical text notation,
  from which the whole tree (comments, NAGs, variations) is read back losslessly.
* ``turns``: the main line, one row per turn: ply, player, kind, dice, play, the position
  ID before and after, both pip counts. ``turns.position_before`` is the position index.
* ``annotations``: every comment and NAG of the main line and every variation, searchable.
* FTS5 over player names, event names and annotation text.
* ``position_plays``: the explorer's counts, per position, rule set, roll and play.
* ``game_count``: the number of games, and of hidden games, kept by triggers (the
  unfiltered list's total, for admins and for visitors).
* ``live_games``: games being recorded in the viewer (their record so far and the turn in
  progress, the account that records them, whether watchers see the engine's
  evaluation), until they are saved as games.
* ``users``, ``login_failures``, ``audit``: the viewer's accounts (names, roles, password
  hashes), the failed sign-ins counted against guessing, and who stored, hid or deleted
  which game, and when (:mod:`archive.accounts`, :mod:`archive.audit`).
* ``analyses``, ``analysis_turns``, ``analysis_players``: the engine's analyses of games
  (:mod:`archive.analyses`).
* ``played_games``: games played against the engine in the viewer, until they expire
  (:mod:`archive.played`).
* ``practice_cards``: when each position of a signed-in user's practice comes back
  (:mod:`archive.practice`).
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

from . import analyses as analysis_tables
from . import practice

migrations = Migrations("jacquet.archive")


@migrations()
def create_tables(db: Database) -> None:
    db.table("players").create({"id": int, "name": str}, pk="id", not_null={"name"})
    db.table("players").create_index(["name"], unique=True)
    db.table("events").create({"id": int, "name": str}, pk="id", not_null={"name"})
    db.table("events").create_index(["name"], unique=True)
    db.table("matches").create({"id": int, "name": str, "length": int}, pk="id", not_null={"name"})
    db.table("matches").create_index(["name"], unique=True)
    db.table("games").create(
        {
            "id": int, "hash": str, "variant": str, "options": str,
            "white_id": int, "black_id": int, "event_id": int, "match_id": int,
            "site": str, "date": str, "round": str, "game_number": int,
            "score_white": int, "score_black": int, "first": str,
            "result": str, "winner": str, "points": int, "turns": int,
            "valid": int, "error_rule": str, "error_message": str, "error_ply": int,
            "error_line": int, "source_file": str, "source_offset": int,
            "tags": str, "record": str, "imported_at": str,
        },
        pk="id",
        not_null={"hash", "variant", "result", "turns", "valid", "record"},
        foreign_keys=[("white_id", "players", "id"), ("black_id", "players", "id"),
                      ("event_id", "events", "id"), ("match_id", "matches", "id")],
    )
    db.table("games").create_index(["hash"], unique=True)
    for columns in (["white_id"], ["black_id"], ["event_id"], ["date"], ["variant"],
                    ["match_id", "game_number"]):
        db.table("games").create_index(columns)
    db.table("turns").create(
        {
            "game_id": int, "ply": int, "player": str, "kind": str, "dice": str, "play": str,
            "position_before": str, "position_after": str, "pips_white": int, "pips_black": int,
        },
        pk=("game_id", "ply"),
        not_null={"player", "kind", "position_before", "position_after"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("turns").create_index(["position_before"])
    db.table("annotations").create(
        {"id": int, "game_id": int, "ply": int, "kind": str, "text": str},
        pk="id", not_null={"kind", "text"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("annotations").create_index(["game_id", "ply"])
    db.table("players").enable_fts(["name"], create_triggers=True)
    db.table("events").enable_fts(["name"], create_triggers=True)
    db.table("annotations").enable_fts(["text"], create_triggers=True)


@migrations()
def case_blind_name_indexes(db: Database) -> None:
    """Names are searched without regard to case: index them so."""
    db.execute("CREATE INDEX IF NOT EXISTS idx_players_name_nocase ON players (name COLLATE NOCASE)")
    db.execute("CREATE INDEX IF NOT EXISTS idx_events_name_nocase ON events (name COLLATE NOCASE)")


@migrations()
def name_keys_and_match_lengths(db: Database) -> None:
    """Names are compared by their Unicode case fold (``key``), which SQLite's NOCASE does
    only for ASCII; a match is told by its name and its length."""
    for table in ("players", "events"):
        db.table(table).add_column("key", str)
        rows = db.execute(f"SELECT id, name FROM [{table}]").fetchall()
        db.conn.executemany(f"UPDATE [{table}] SET key = ? WHERE id = ?",
                            [(name.casefold(), row_id) for row_id, name in rows])
        db.table(table).create_index(["key"])
    db.execute("DROP INDEX IF EXISTS idx_matches_name")
    db.table("matches").create_index(["name", "length"])


def upgrade(db: Database) -> None:
    """Bring ``db`` to the current schema (a no-op when it is already there)."""
    migrations.apply(db)


@migrations()
def live_games(db: Database) -> None:
    """Games being recorded in the viewer, kept between requests and across restarts: the
    record so far (text notation), the turn in progress (JSON), and a version that every
    change moves on (two changes made at once cannot overwrite each other). The game's key
    is stored hashed, so reading the archive (Datasette) gives no access to the game."""
    db.table("live_games").create({"key_hash": str, "record": str, "pending": str, "version": int,
                             "created": str, "updated": str}, pk="key_hash",
                            not_null={"record", "pending", "version"})


PLAYS_FROM_TURNS = """
    SELECT t.position_before, g.variant, t.dice, t.play, count(*),
           sum(CASE WHEN g.winner = t.player THEN 1 ELSE 0 END)
    FROM turns t JOIN games g ON g.id = t.game_id
    WHERE t.kind IN ('roll', 'passed') {only}
    GROUP BY t.position_before, g.variant, t.dice, t.play"""


def add_position_plays(db: Database, game_id: int | None = None) -> None:
    """Count the plays of one game's turns (or of every game) into ``position_plays``."""
    only, params = ("AND t.game_id = ?", [game_id]) if game_id is not None else ("", [])
    db.execute("INSERT INTO position_plays (position, variant, dice, play, count, wins) "
               + PLAYS_FROM_TURNS.format(only=only)
               + " ON CONFLICT (position, variant, dice, play) DO UPDATE SET "
               "count = count + excluded.count, wins = wins + excluded.wins", params)


@migrations()
def position_plays(db: Database) -> None:
    """The explorer's counts kept as the games come in: for each position (before a turn),
    rule set, roll and play, how often it was played and how often its player won. Asking
    what was played from the start position of a million games then reads a few rows
    instead of a million turns."""
    db.execute("""CREATE TABLE position_plays (
        position TEXT NOT NULL, variant TEXT NOT NULL, dice TEXT NOT NULL, play TEXT NOT NULL,
        count INTEGER NOT NULL, wins INTEGER NOT NULL,
        PRIMARY KEY (position, variant, dice, play)) WITHOUT ROWID""")
    add_position_plays(db)


@migrations()
def position_index_in_game_order(db: Database) -> None:
    """The position index ordered by game and ply too, so that the first games through a
    common position come straight from the index instead of sorting every turn through
    it (the start position is in every game)."""
    db.table("turns").create_index(["position_before", "game_id", "ply"])
    db.execute("DROP INDEX IF EXISTS idx_turns_position_before")


@migrations()
def accounts(db: Database) -> None:
    """Accounts for the viewer, a log of who changed which game, games hidden from
    visitors, and the account a live game is recorded by. A user's ``session_key`` names
    them in the session cookie: a new one (new password, account removed) ends every
    session of theirs. ``login_failures`` counts failed sign-ins per name and per address
    (``subject``). ``audit.user`` is a name, not a reference: the log outlives the account."""
    db.table("users").create({"id": int, "name": str, "key": str, "role": str, "password_hash": str,
                              "session_key": str, "created": str}, pk="id",
                             not_null={"name", "key", "role", "password_hash", "session_key"})
    db.table("users").create_index(["key"], unique=True)
    db.table("users").create_index(["session_key"], unique=True)
    db.table("login_failures").create({"subject": str, "failures": int, "last": float},
                                      pk="subject", not_null={"failures", "last"})
    db.table("audit").create({"id": int, "at": str, "user": str, "action": str, "game_id": int,
                              "detail": str}, pk="id", not_null={"at", "action"})
    db.table("audit").create_index(["game_id"])
    db.table("games").add_column("hidden", int, not_null_default=0)
    db.table("live_games").add_column("owner_id", int)
    db.table("live_games").create_index(["owner_id"])


@migrations()
def sort_indexes_and_kept_count(db: Database) -> None:
    """The list pages of a large archive: the columns they sort by indexed (an unindexed
    sort read every game of 200,000 for each page), and the number of games kept in
    ``game_count`` by triggers, so that the unfiltered list does not count every game for
    each page."""
    for column in ("turns", "points"):
        db.table("games").create_index([column], if_not_exists=True)
    db.execute("CREATE TABLE game_count (n INTEGER NOT NULL)")
    db.execute("INSERT INTO game_count SELECT count(*) FROM games")
    db.execute("CREATE TRIGGER game_counted AFTER INSERT ON games "
               "BEGIN UPDATE game_count SET n = n + 1; END")
    db.execute("CREATE TRIGGER game_uncounted AFTER DELETE ON games "
               "BEGIN UPDATE game_count SET n = n - 1; END")


@migrations()
def analyses(db: Database) -> None:
    """The engine's analyses beside the games (:mod:`archive.analyses`)."""
    analysis_tables.create_tables(db)


@migrations()
def live_evaluation(db: Database) -> None:
    """Whether the watchers of a live game see the engine's evaluation: its scorer's
    choice, off by default (:func:`archive.live.show_evaluation`)."""
    db.table("live_games").add_column("evaluation", int, not_null_default=0)


@migrations()
def hidden_games_counted(db: Database) -> None:
    """``game_count.hidden``: how many games are hidden, kept by triggers too, so that the
    list a visitor sees (hidden games left out) has its total without counting every game."""
    db.execute("ALTER TABLE game_count ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE game_count SET hidden = (SELECT count(*) FROM games WHERE hidden != 0)")
    db.execute("DROP TRIGGER IF EXISTS game_counted")
    db.execute("DROP TRIGGER IF EXISTS game_uncounted")
    db.execute("CREATE TRIGGER game_counted AFTER INSERT ON games BEGIN UPDATE game_count "
               "SET n = n + 1, hidden = hidden + (new.hidden != 0); END")
    db.execute("CREATE TRIGGER game_uncounted AFTER DELETE ON games BEGIN UPDATE game_count "
               "SET n = n - 1, hidden = hidden - (old.hidden != 0); END")
    db.execute("CREATE TRIGGER game_hidden_counted AFTER UPDATE OF hidden ON games BEGIN "
               "UPDATE game_count SET hidden = hidden + (new.hidden != 0) - (old.hidden != 0); END")


def player_indexes(db: Database) -> None:
    """Each colour's games by player, with what the player page reads of them, in place of
    the index by player alone (the ``player_page_indexes`` migration)."""
    for side in ("white", "black"):
        db.execute(f"CREATE INDEX IF NOT EXISTS idx_games_{side}_player ON games "
                   f"({side}_id, hidden, date, variant, valid, winner, points)")
        db.execute(f"DROP INDEX IF EXISTS idx_games_{side}_id")


@migrations()
def player_page_indexes(db: Database) -> None:
    """The player page of a large archive (1.6 s on 200,000 games): each colour's games by
    player in an index that holds what the page reads of them (hidden, date, rule set,
    validity, winner, points), so that counting a player's games, his results and his
    newest games read that index instead of every game's row (it replaces the index by
    player alone); and each analysed player's largest loss in a game (``worst``), indexed
    by player, so that his worst plays are looked for in his worst games only."""
    player_indexes(db)
    db.execute("ALTER TABLE analysis_players ADD COLUMN worst REAL")
    db.execute("UPDATE analysis_players SET worst = (SELECT max(t.loss) FROM analysis_turns t "
               "WHERE t.analysis_id = analysis_players.analysis_id AND t.player = analysis_players.player)")
    db.execute("CREATE INDEX idx_analysis_players_worst ON analysis_players (player_id, worst)")


@migrations()
def played_games(db: Database) -> None:
    """Games played against the engine in the viewer (``/play/``, :mod:`archive.played`):
    the record so far, the turn in progress, the player's side and the engine's strength,
    the analysis once the game is over; the game's key and the visitor's token stored
    hashed."""
    db.table("played_games").create({"key_hash": str, "visitor_hash": str, "record": str,
                                     "pending": str, "version": int, "side": str, "strength": str,
                                     "analysis": str, "created": str, "updated": str},
                                    pk="key_hash",
                                    not_null={"visitor_hash", "record", "pending", "version",
                                              "side", "strength"})
    db.table("played_games").create_index(["visitor_hash"])
    db.table("played_games").create_index(["updated"])


@migrations()
def server_sessions_and_played_addresses(db: Database) -> None:
    """``sessions``: each signed-in session, by the SHA-256 of the random id its cookie
    carries, so that signing out ends that session on the server (a copied cookie stops
    working); and for each game against the engine the client address that started it
    (hashed), whether a signed-in member did, and how many actions its player has made,
    so that the server's room is shared per address, a game never played goes first and
    visitors cannot shut a member out (:mod:`archive.played`)."""
    db.table("sessions").create({"id_hash": str, "user_id": int, "created": str}, pk="id_hash",
                                not_null={"user_id", "created"})
    db.table("sessions").create_index(["user_id"])
    db.table("sessions").create_index(["created"])
    db.table("played_games").add_column("address_hash", str)
    db.table("played_games").add_column("member", int, not_null_default=0)
    db.table("played_games").add_column("actions", int, not_null_default=0)
    db.table("played_games").create_index(["address_hash"])


@migrations()
def analysis_levels(db: Database) -> None:
    """Who decided each figure of an analysis: the judge that confirmed its marks in the
    key of ``analyses``, the engine and level of each turn, and how many of each
    player's decisions the confirming judge decided (:func:`archive.analyses.add_levels`;
    the analyses stored before keep every row, judged by their engine at their depth)."""
    analysis_tables.add_levels(db)


@migrations()
def users_language(db: Database) -> None:
    """Each account's language for the viewer's pages (``NULL``: not chosen, the browser's
    is used); every account is kept as it was."""
    db.table("users").add_column("language", str)


@migrations()
def practice_cards(db: Database) -> None:
    """Each signed-in user's practice from a player's mistakes: when each position comes
    back (:mod:`archive.practice`); an archive made before gets the table empty."""
    practice.create_table(db)


@migrations()
def error_messages(db: Database) -> None:
    """An invalid game's first error as a message (its id and parameters, JSON:
    :meth:`notation.messages.Message.stored`) beside its English text, so that the viewer
    says it in each page's language; the games stored before keep their text alone."""
    db.table("games").add_column("error_msg", str)


@migrations()
def audit_messages(db: Database) -> None:
    """Each audit line's detail as a message (its id and parameters, JSON) beside its
    English text, so that the viewer says it in the reader's language; the lines logged
    before keep their text alone."""
    db.table("audit").add_column("detail_msg", str)
