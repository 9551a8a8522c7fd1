"""Paging a search by keys (the page after or before a named game, however deep), its
counts (kept, and bounded for filtered lists; hidden games left out of a visitor's), and
the filters by the engine's analyses: each checked against the brute-force order of
``test_archive_search`` or against figures stored by hand."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import archive
from archive import Query
from archive.analyses import store_analysis
from archive.audit import delete_game, set_hidden
from archive.search import SORTS, search_page
from jacquet_cli import main

from .archive_fixtures import generated, varied  # noqa: F401
from .test_archive_search import brute


@pytest.fixture
def vdb(varied):
    db = varied.open()
    yield db
    db.close()


@pytest.fixture
def copy_path(varied, tmp_path) -> Path:
    """A copy of the varied archive, to change."""
    path = tmp_path / "copy.db"
    with sqlite3.connect(varied.path) as source, sqlite3.connect(path) as target:
        source.backup(target)
    return path


@pytest.fixture
def copy(copy_path):
    db = archive.open_archive(copy_path)
    yield db
    db.close()


def walk(db, query: Query) -> list[list[int]]:
    """Every page of ``query``, first to last, each reached from the one before by its
    last game (``after``)."""
    pages = []
    found = search_page(db, query)
    assert not found.more_before
    while True:
        pages.append([row["id"] for row in found.rows])
        if not found.more_after:
            return pages
        found = search_page(db, Query(**{**vars(query), "after": found.rows[-1]["id"]}))
        assert found.more_before


@pytest.mark.parametrize("sort", sorted(SORTS))
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("filters", [{}, {"valid": True}, {"player": "a"}])
def test_pages_by_key_cover_the_results_once_both_ways(vdb, varied, sort, descending, filters):
    """Forward by each page's last game and back by each page's first, every sort (those
    whose value a game may lack too) with and without filters, counted up to a bound
    small enough that the filtered pages are read in the sort's order."""
    query = Query(sort=sort, descending=descending, limit=6, count_limit=5, **filters)
    everything = brute(varied.games, query)
    pages = walk(vdb, query)
    assert [game for page in pages for game in page] == everything
    assert all(len(page) == 6 for page in pages[:-1]) and pages[-1]
    back = [pages[-1]]
    while len(back) < len(pages):
        found = search_page(vdb, Query(**{**vars(query), "before": back[-1][0]}))
        assert found.more_after
        back.append([row["id"] for row in found.rows])
    assert back[::-1] == pages
    assert not found.more_before


def test_a_page_after_a_game_that_is_gone_is_found_by_its_offset(vdb, varied):
    everything = brute(varied.games, Query())
    gone = max(everything) + 1000
    found = search_page(vdb, Query(limit=5, offset=10, after=gone))
    assert [row["id"] for row in found.rows] == everything[10:15]
    assert found.more_before and found.more_after


def test_filtered_totals_are_counted_up_to_the_bound(vdb, varied):
    valid = len(brute(varied.games, Query(valid=True)))
    bounded = search_page(vdb, Query(valid=True, count_limit=valid - 1))
    assert (bounded.total, bounded.exact) == (valid, False)
    exact = search_page(vdb, Query(valid=True, count_limit=valid))
    assert (exact.total, exact.exact) == (valid, True)
    assert archive.search(vdb, Query(valid=True))[1] == valid  # no bound: every match counted


def test_the_kept_count_leaves_hidden_games_out_for_visitors(copy, varied):
    every = len(varied.games)
    assert set_hidden(copy, varied.games[0].id, True, "admin")
    assert set_hidden(copy, varied.games[1].id, True, "admin")
    assert not set_hidden(copy, varied.games[1].id, True, "admin")  # hidden already: no change

    def totals() -> tuple[int, int]:
        visitor, admin = search_page(copy, Query()), search_page(copy, Query(with_hidden=True))
        assert visitor.exact and admin.exact
        assert visitor.total == copy.execute("SELECT count(*) FROM games WHERE hidden = 0").fetchone()[0]
        return visitor.total, admin.total

    assert totals() == (every - 2, every)
    assert set_hidden(copy, varied.games[1].id, False, "admin")
    assert totals() == (every - 1, every)
    assert delete_game(copy, varied.games[0].id, "admin")  # the hidden one
    assert totals() == (every - 1, every - 1)
    archive.import_games(copy, [generated("jacquet", 4242)])
    assert totals() == (every, every)


def _analysis(white: tuple[float, int, int], black: tuple[float, int, int]) -> dict:
    """An analysis as ``jacquet analyse --json`` gives one, with each side's (error rate,
    decisions, ??s)."""
    def side(figures: tuple[float, int, int]) -> dict:
        rate, decisions, very_bad = figures
        return {"decisions": decisions, "marks": {"?!": 0, "?": 0, "??": very_bad},
                "error_rate": rate, "luck": 0.0, "result": None, "luck_adjusted": None}
    return {"engine": "test-engine, 0-ply", "stopped": None, "turns": [],
            "players": {"White": side(white), "Black": side(black)}}


@pytest.fixture
def analysed(copy, varied):
    """Three games between six different players, analysed by hand: (game, its White, its
    Black); the first analysed twice, the newer analysis giving other figures."""
    rows, names = [], set()
    for row in copy.execute("SELECT g.id, w.name, b.name FROM games g JOIN players w ON w.id = g.white_id "
                            "JOIN players b ON b.id = g.black_id ORDER BY g.id"):
        keys = {row[1].casefold(), row[2].casefold()}  # a name is searched case blind
        if len(rows) < 3 and len(keys) == 2 and not names & keys:
            rows.append(row)
            names |= keys
    first, second, third = rows
    store_analysis(copy, first[0], _analysis((4.0, 10, 0), (30.0, 12, 2)), "old", 0, stopped=None)
    store_analysis(copy, first[0], _analysis((25.0, 10, 1), (8.0, 12, 0)), "new", 0, stopped=None)  # the newest
    store_analysis(copy, second[0], _analysis((12.0, 9, 0), (0.0, 0, 0)), "old", 0, stopped=None)
    store_analysis(copy, third[0], _analysis((2.0, 20, 0), (40.0, 20, 3)), "old", 0, stopped=None)
    return rows


def _ids(db, **filters) -> list[int]:
    return [row["id"] for row in archive.search(db, Query(limit=100, **filters))[0]]


def test_games_by_a_players_error_rate_in_the_newest_analysis(copy, analysed):
    (first, white1, black1), (second, white2, black2), (third, _, _) = analysed
    assert _ids(copy, player=f'"{white1}"', error_rate_max=10) == []  # 25 now, 4 before
    assert _ids(copy, player=f'"{black1}"', error_rate_max=10) == [first]  # 8 now, 30 before
    assert _ids(copy, player=f'"{white2}"', error_rate_min=12) == [second]
    assert _ids(copy, player=f'"{white2}"', error_rate_min=12.5) == []
    assert _ids(copy, player=f'"{black2}"', error_rate_max=10) == []  # no decisions: no rate
    # either side without a player
    assert _ids(copy, error_rate_max=3) == [third]
    assert _ids(copy, error_rate_min=26) == [third]
    assert _ids(copy, error_rate_max=100) == [first, second, third]
    assert _ids(copy, error_rate_max=10, variant="no such rule set") == []


def test_games_holding_a_very_bad_play_by_a_player(copy, analysed):
    (first, white1, black1), (_, white2, _), (third, _, black3) = analysed
    assert _ids(copy, very_bad_by=f'"{white1}"') == [first]  # the newest analysis
    assert _ids(copy, very_bad_by=f'"{black1}"') == []  # only the older one has it
    assert _ids(copy, very_bad_by=f'"{black3}"') == [third]
    assert _ids(copy, very_bad_by=f'"{white2}"') == []


def test_the_analysis_filters_on_the_command_line(copy_path, analysed):
    (first, _, black1), _, (third, _, black3) = analysed
    run = CliRunner().invoke
    result = run(main, ["search", "--db", str(copy_path), "--player", f'"{black1}"',
                        "--max-error-rate", "10", "--json"])
    assert result.exit_code == 0, result.output
    assert [game["id"] for game in json.loads(result.stdout)["games"]] == [first]
    result = run(main, ["search", "--db", str(copy_path), "--very-bad-by", f'"{black3}"', "--json"])
    assert [game["id"] for game in json.loads(result.stdout)["games"]] == [third]
    result = run(main, ["search", "--db", str(copy_path), "--min-error-rate", "-1"])
    assert result.exit_code == 2 and "--min-error-rate" in result.output


def test_an_archive_with_hidden_games_gets_them_counted_when_upgraded(copy_path, varied):
    """The migration counts the games hidden before it (the triggers count them after)."""
    with archive.open_archive(copy_path) as db:
        for game in varied.games[:2]:
            set_hidden(db, game.id, True, "admin")
        for trigger in ("game_counted", "game_uncounted", "game_hidden_counted"):
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute("ALTER TABLE game_count DROP COLUMN hidden")  # as before the migration
        db.execute("CREATE TRIGGER game_counted AFTER INSERT ON games "
                   "BEGIN UPDATE game_count SET n = n + 1; END")
        db.execute("CREATE TRIGGER game_uncounted AFTER DELETE ON games "
                   "BEGIN UPDATE game_count SET n = n - 1; END")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'hidden_games_counted'")
        db.conn.commit()
    with archive.open_archive(copy_path) as db:
        assert search_page(db, Query()).total == len(varied.games) - 2
        set_hidden(db, varied.games[0].id, False, "admin")
        assert search_page(db, Query()).total == len(varied.games) - 1
