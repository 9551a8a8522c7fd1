"""The archive's matches (a game's match, its length and the score before it) and a
migration of the explorer's counts on an archive that already holds games."""

from __future__ import annotations

import archive

from .archive_fixtures import db_path, fresh_db, generated  # noqa: F401


def test_match_game_and_score_columns(fresh_db):
    games = [generated("backgammon", 70 + i, White="Gnu", Black="Bot", Match="Final", MatchLength="7",
                       Game=str(i + 1), Score=score)
             for i, score in enumerate(("0-0", "2-0", "2-1"))]
    archive.import_games(fresh_db, games)
    rows, total = archive.search(fresh_db, archive.Query(match="Final"))
    assert total == 3
    assert [(r["match"], r["match_length"], r["game_number"], r["score_white"], r["score_black"])
            for r in rows] == [("Final", 7, 1, 0, 0), ("Final", 7, 2, 2, 0), ("Final", 7, 3, 2, 1)]
    assert fresh_db["matches"].count == 1
    assert archive.search(fresh_db, archive.Query(match="Semi-final"))[1] == 0


def test_two_matches_of_the_same_name_keep_their_own_length(fresh_db):
    seven = generated("backgammon", 75, White="A", Black="B", Match="Final", MatchLength="7", Game="1")
    five = generated("backgammon", 76, White="C", Black="D", Match="Final", MatchLength="5", Game="1")
    archive.import_games(fresh_db, [seven, five])
    rows, _ = archive.search(fresh_db, archive.Query(match="Final"))
    assert {(r["white"], r["match_length"]) for r in rows} == {("A", 7), ("C", 5)}


def test_an_archive_made_before_the_explorer_counts_gets_them_on_opening(db_path):
    """The ``position_plays`` migration on an archive that already holds games: its counts
    are those of the turns, and an import after it adds to them."""
    db = archive.open_archive(db_path)
    archive.import_games(db, [generated("jacquet", seed) for seed in range(3)] + [generated("backgammon", 7)])
    db.execute("DROP TABLE position_plays")  # as an archive made before the migration
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'position_plays'")
    db.conn.commit()
    db.close()
    db = archive.open_archive(db_path)
    expected = db.execute(
        "SELECT t.position_before, t.dice, t.play, count(*) FROM turns t "
        "WHERE t.kind IN ('roll', 'passed') GROUP BY 1, 2, 3 ORDER BY 1, 2, 3").fetchall()
    counted = db.execute("SELECT position, dice, play, sum(count) FROM position_plays "
                         "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3").fetchall()
    assert counted == expected and sum(row[3] for row in counted) > 100
    archive.import_games(db, [generated("jacquet", 11)])
    assert db.execute("SELECT sum(count) FROM position_plays").fetchone()[0] == db.execute(
        "SELECT count(*) FROM turns WHERE kind IN ('roll', 'passed')").fetchone()[0]
    db.close()
