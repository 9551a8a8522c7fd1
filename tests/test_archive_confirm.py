"""Confirmed marks in the archive: the level that decided every turn is stored beside its
figures and shown (game page, player page, `jacquet stats`), each error rate with its
label; an archive analysed before confirmation existed is migrated with nothing lost."""

from __future__ import annotations

import json
import re
import sqlite3
from html import unescape

import pytest
from click.testing import CliRunner

from archive import import_files, open_archive
from archive.analyses import latest_analysis
from jacquet_cli import main
from notation import rule_set
from notation.messages import say
from tests.viewer_helpers import shown

ZERO = "jacquet-td jacquet v2, 0-ply"
ONE = "jacquet-td jacquet v2, 1-ply"
CONFIRMED = f"{ZERO}, marks confirmed at 1-ply"
"""The level of an analysis whose marks were confirmed at 1-ply, as the archive labels it
(``archive.analyses``, in English: ``stats --json``'s ``level`` and the pages show it as it is)."""
JACQUET = rule_set("jacquet")


@pytest.fixture(scope="module")
def confirmed(tmp_path_factory, two_games) -> tuple[str, list[dict]]:
    """An archive of the two games analysed with --confirm 1ply, and what --json gives."""
    sample, net = two_games
    path = tmp_path_factory.mktemp("archive") / "club.db"
    with open_archive(path) as db:
        import_files(db, [sample])
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--net", net, "--confirm", "1ply"])
    assert result.exit_code == 0, result.output
    printed = CliRunner().invoke(main, ["analyse", sample, "--net", net, "--json", "--confirm", "1ply"]).stdout
    return str(path), [json.loads(line) for line in printed.splitlines()]


def _ids(path: str) -> list[int]:
    with open_archive(path, readonly=True) as db:
        return [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]


def test_every_turn_keeps_the_level_that_decided_it(confirmed):
    path, printed = confirmed
    with open_archive(path, readonly=True) as db:
        for game_id, expected in zip(_ids(path), printed, strict=True):
            stored = latest_analysis(db, game_id)
            assert stored is not None and stored["confirm"] == "1-ply"
            for turn in expected["turns"]:
                row = stored["turns"][turn["ply"]]
                assert (row["level"], row["loss"], row["mark"]) == (turn["level"], turn["loss"], turn["mark"])
                assert row["level"] in (ZERO, ONE)
                if row["mark"]:
                    assert row["level"] == ONE  # every mark is the confirming level's
            for colour, title in (("W", "White"), ("B", "Black")):
                assert stored["players"][colour]["confirmed"] == expected["players"][title]["confirmed"] > 0


def test_another_confirmation_is_another_analysis_and_the_same_is_skipped(confirmed, two_games, tmp_path):
    path, _ = confirmed
    _, net = two_games
    copy = tmp_path / "copy.db"
    source, target = sqlite3.connect(path), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.close()
    again = CliRunner().invoke(main, ["analyse", "--db", str(copy), "--net", net, "--confirm", "1ply"])
    assert again.exit_code == 0 and say("cli.analyse.stored", count=0, skipped=2, path=str(copy)) in again.output
    plain = CliRunner().invoke(main, ["analyse", "--db", str(copy), "--net", net, "--confirm", "none"])
    assert plain.exit_code == 0 and say("cli.analyse.stored", count=2, skipped=0, path=str(copy)) in plain.output
    with open_archive(copy, readonly=True) as db:
        rows = db.execute("SELECT confirm, count(*) FROM analyses GROUP BY confirm ORDER BY confirm").fetchall()
    assert rows == [("", 2), ("1-ply", 2)]


def test_the_game_page_names_the_level_of_the_summary_and_of_each_turn(confirmed, make_app):
    path, printed = confirmed
    game_id, expected = _ids(path)[0], printed[0]
    marked = next(turn for turn in expected["turns"] if turn["mark"])
    plain = next(turn for turn in expected["turns"] if turn["level"] == ZERO and not turn["forced"])
    client = make_app(path).test_client()
    text = client.get(f"/game/{game_id}?ply={marked['ply']}").get_data(as_text=True)
    summary = re.search(r'<section class="analysis-summary".*?</section>', text, re.S).group(0)
    assert CONFIRMED in summary
    for title in ("White", "Black"):
        player = expected["players"][title]
        row = re.search(rf'<th scope="row">{title}[^<]*</th>(.*?)</tr>', summary).group(1)
        assert f'<td class="skill">{JACQUET.skill_label(player["error_rate"])}</td>' in row
        assert f'<td class="confirmed">{player["confirmed"]}</td>' in row
    candidates = re.search(r'<section class="candidates".*?</section>', text, re.S).group(0)
    assert f"{marked['dice']} — {ONE}</h2>" in unescape(candidates)
    text = client.get(f"/game/{game_id}?ply={plain['ply']}").get_data(as_text=True)
    candidates = re.search(r'<section class="candidates".*?</section>', text, re.S).group(0)
    assert f"{plain['dice']} — {ZERO}</h2>" in unescape(candidates)
    data = json.loads(re.search(r'<script type="application/json" id="analysis-data">(.*?)</script>',
                                text, re.S).group(1))
    assert data["turns"][str(marked["ply"])]["level"] == ONE


def test_the_player_page_gives_the_level_and_the_label_of_his_error_rate(confirmed, make_app):
    path, printed = confirmed
    page = make_app(path).test_client().get("/player/Random White").get_data(as_text=True)
    assert shown("Analysed by %(engine)s", engine=CONFIRMED) in page
    decisions = sum(game["players"]["White"]["decisions"] for game in printed)
    lost = sum(game["players"]["White"]["error_rate"] * game["players"]["White"]["decisions"] for game in printed)
    rate = round(lost / decisions, 1)
    skill = re.search(r'<p class="skill">(.*?)</p>', page, re.S).group(1)
    assert f"<strong>{rate:.1f}</strong>" in skill
    assert f'<strong class="skill-label">{JACQUET.skill_label(rate)}</strong>' in skill
    confirmed_count = sum(game["players"]["White"]["confirmed"] for game in printed)
    assert shown(": of %(decisions)s decisions, %(confirmed)s (those that would be marked at %(depth)s-ply, and "
                 "those whose best two plays were close) were judged again at %(level)s, which decided their loss "
                 "and mark", decisions=decisions, confirmed=confirmed_count, depth=0, level="1-ply") in page
    levels = re.findall(r'<td class="level">([^<]+)</td>', page)
    assert levels and set(levels) <= {ZERO, ONE}


def test_stats_give_the_level_and_the_label(confirmed):
    path, printed = confirmed
    result = CliRunner().invoke(main, ["stats", "--db", path, "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row for row in json.loads(result.stdout)["analysed"]}
    white = rows["Random White"]
    assert white["level"] == CONFIRMED and white["confirm"] == "1-ply"
    assert white["confirmed"] == sum(game["players"]["White"]["confirmed"] for game in printed)
    assert white["skill"] == JACQUET.skill_label(white["error_rate"])
    text = CliRunner().invoke(main, ["stats", "--db", path]).output
    line = next(line for line in text.splitlines() if line.strip().startswith("Random White") and "ply" in line)
    assert CONFIRMED in line and f"{white['error_rate']:.1f} ({white['skill']})" in line
    assert say("cli.stats.confirmed", count=white["confirmed"], level="1-ply") in line


def test_the_skill_scale_is_gnubgs_in_backgammon_and_eight_times_it_in_hale():
    backgammon, hale = rule_set("backgammon"), rule_set("hale")
    assert [backgammon.skill_label(rate) for rate in (1.9, 2.0, 4.9, 7.9, 11.9, 17.9, 25.9, 34.9, 35.0)] == [
        "Supernatural", "World class", "World class", "Expert", "Advanced", "Intermediate", "Casual player",
        "Beginner", "Awful"]
    assert hale.skill_label(8 * 4.9) == "World class" and hale.skill_label(8 * 35.0) == "Awful"


OLD_ANALYSES = """CREATE TABLE analyses_old (
    id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
    engine TEXT NOT NULL, depth INTEGER NOT NULL, digest TEXT NOT NULL,
    analysed_at TEXT NOT NULL, stopped TEXT,
    UNIQUE (game_id, engine, digest, depth))"""
"""The ``analyses`` table as archives made before confirmation have it."""


def test_an_archive_analysed_before_confirmation_is_migrated_with_nothing_lost(two_games, tmp_path, make_app):
    sample, net = two_games
    path = tmp_path / "old.db"
    with open_archive(path) as db:
        import_files(db, [sample])
    assert CliRunner().invoke(main, ["analyse", "--db", str(path), "--net", net, "--confirm", "none"]).exit_code == 0
    connection = sqlite3.connect(path)  # back to the schema before: foreign keys off, as SQLite opens
    connection.executescript(OLD_ANALYSES + """;
        INSERT INTO analyses_old SELECT id, game_id, engine, depth, digest, analysed_at, stopped FROM analyses;
        DROP TABLE analyses;
        ALTER TABLE analyses_old RENAME TO analyses;
        CREATE INDEX idx_analyses_game ON analyses (game_id);
        ALTER TABLE analysis_turns DROP COLUMN level;
        ALTER TABLE analysis_players DROP COLUMN confirmed;
        DELETE FROM _sqlite_migrations WHERE name = 'analysis_levels';""")
    before = {
        "analyses": connection.execute("SELECT * FROM analyses ORDER BY id").fetchall(),
        "turns": connection.execute("SELECT * FROM analysis_turns ORDER BY analysis_id, ply").fetchall(),
        "players": connection.execute("SELECT * FROM analysis_players ORDER BY analysis_id, player").fetchall(),
    }
    connection.close()
    assert before["turns"] and len(before["analyses"]) == 2
    with open_archive(path) as db:  # the migration runs
        analyses = db.execute("SELECT id, game_id, engine, depth, digest, analysed_at, stopped, confirm "
                              "FROM analyses ORDER BY id").fetchall()
        assert [row[:7] for row in analyses] == before["analyses"] and {row[7] for row in analyses} == {""}
        turns = db.execute("SELECT * FROM analysis_turns ORDER BY analysis_id, ply").fetchall()
        assert [row[:-1] for row in turns] == before["turns"]
        assert {row[-1] for row in turns} == {ZERO}  # judged by their engine at their depth
        players = db.execute("SELECT * FROM analysis_players ORDER BY analysis_id, player").fetchall()
        assert [row[:-1] for row in players] == before["players"] and {row[-1] for row in players} == {0}
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--net", net, "--confirm", "1ply"])
    assert result.exit_code == 0  # beside the old ones
    assert say("cli.analyse.stored", count=2, skipped=0, path=str(path)) in result.output
    page = make_app(str(path)).test_client().get("/player/Random White").get_data(as_text=True)
    assert f"{shown('Analysed by %(engine)s', engine=ZERO)}</h2>" in page
    assert f"{shown('Analysed by %(engine)s', engine=CONFIRMED)}</h2>" in page
