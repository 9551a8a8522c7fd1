"""The archive commands: ``jacquet import``, ``search``, ``export`` and ``stats`` (exit codes,
what goes to stdout and stderr, the JSON shapes, exports that validate)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

import archive
from archive.search import public_row
from jacquet_cli import main
from notation.formats import read_file, write_file
from notation.messages import render, say
from tests.archive_fixtures import ERROR_GAMES
from tests.viewer_helpers import viewer_app

from .archive_fixtures import ERRORS_SAMPLE, db_path, generated  # noqa: F401


def run(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def ok(result, code=0):
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Record files: jacquet games, backgammon games of two matches, murray games."""
    folder = tmp_path_factory.mktemp("cli")
    jacquet = [generated("jacquet", 300 + i, White=("Marie", "Jean", "Anne")[i % 3],
                         Black=("Jean", "Anne", "Marie")[i % 3], Event="Club Night",
                         Date=f"2024.0{1 + i % 9}.1{i % 10}")
               for i in range(8)]
    matches = [generated("backgammon", 320 + i, White="Gnu", Black="Bot", Event="Cup",
                         Match="Final" if i < 3 else "Semi-final", MatchLength="5", Game=str(1 + i % 3))
               for i in range(5)]
    murray = [generated("hale", 340 + i, White="Marie", Black="Paul") for i in range(2)]
    paths = {}
    for name, games in (("jacquet.jqn", jacquet), ("matches.json", matches), ("hale.xml", murray)):
        paths[name] = folder / name
        write_file(games, paths[name])
    paths["errors"] = ERRORS_SAMPLE
    return paths


@pytest.fixture(scope="module")
def club(files, tmp_path_factory):
    """An archive made by ``jacquet import`` (invalid games kept)."""
    path = tmp_path_factory.mktemp("club") / "club.db"
    ok(run("import", files["jacquet.jqn"], files["matches.json"], files["hale.xml"], "--db", path))
    ok(run("import", files["errors"], "--keep-invalid", "--db", path))
    return path


# ------------------------------------------------------------------ import

def test_import_reports_on_stderr_and_exits_0(files, db_path):
    result = ok(run("import", files["jacquet.jqn"], files["matches.json"], "--db", db_path))
    assert result.stdout == ""
    summary = result.stderr.strip().splitlines()[-1]
    assert summary.startswith(say("cli.import.summary", count=13, duplicates=0, refused=0))
    assert summary.endswith(str(db_path))
    again = ok(run("import", files["jacquet.jqn"], "--db", db_path))
    assert say("cli.import.summary", count=0, duplicates=8, refused=0) in again.stderr
    assert sqlite_utils.Database(db_path).table_names()  # a plain SQLite file
    connection = sqlite3.connect(db_path)
    try:
        assert connection.execute("SELECT count(*) FROM games").fetchone()[0] == 13
    finally:
        connection.close()


def test_import_exits_1_when_a_game_is_refused_and_lists_the_errors(files, db_path):
    result = ok(run("import", files["errors"], files["jacquet.jqn"], "--db", db_path), 1)
    assert say("cli.import.summary", count=8, duplicates=0, refused=ERROR_GAMES) in result.stderr
    expected = [str(e) for g in read_file(ERRORS_SAMPLE) for e in g.errors]
    lines = result.stderr.splitlines()
    for line in expected:
        assert line in lines
        assert line.startswith(f"{ERRORS_SAMPLE}:") and ": error: [" in line
    assert result.stdout == ""


def test_import_keep_invalid_exits_0(files, db_path):
    result = ok(run("import", files["errors"], "--keep-invalid", "--db", db_path))
    assert say("cli.import.summary", count=ERROR_GAMES, duplicates=0, refused=0) in result.stderr
    assert say("cli.import.kept-invalid", count=ERROR_GAMES) in result.stderr
    rows = json.loads(ok(run("search", "--invalid", "--json", "--limit", 100, "--db", db_path)).stdout)
    assert rows["total"] == ERROR_GAMES
    assert all(not g["valid"] and g["error_rule"] and g["error_ply"] for g in rows["games"])


@pytest.mark.parametrize("bad", ["missing.jqn", "notes.docx"])
def test_import_exits_2_when_a_file_cannot_be_read(files, db_path, tmp_path, bad):
    result = ok(run("import", tmp_path / bad, files["jacquet.jqn"], files["errors"], "--db", db_path), 2)
    assert f"{tmp_path / bad}: " in result.stderr
    assert say("cli.import.summary", count=8, duplicates=0, refused=ERROR_GAMES) in result.stderr
    assert say("cli.import.unreadable", count=1) in result.stderr
    assert archive.open_archive(db_path)["games"].count == 8


def test_import_uses_jacquet_db_from_the_environment(files, tmp_path):
    path = tmp_path / "env.db"
    ok(run("import", files["hale.xml"], env={"JACQUET_DB": str(path)}))
    assert json.loads(ok(run("search", "--json", env={"JACQUET_DB": str(path)})).stdout)["total"] == 2


def test_import_variant_applies_to_records_without_a_variant_tag(db_path, tmp_path):
    path = tmp_path / "bg.jqn"
    path.write_text("1. 31: 8/5 6/5 *\n", encoding="utf-8")
    ok(run("import", path, "--db", db_path), 1)
    ok(run("import", path, "--db", db_path, "--variant", "backgammon"))
    found = json.loads(ok(run("search", "--json", "--db", db_path)).stdout)
    assert [(g["variant"], g["turns"]) for g in found["games"]] == [("backgammon", 1)]


# ------------------------------------------------------------------ search

COLUMNS = {"id", "variant", "date", "round", "site", "event", "white", "black", "result", "winner",
           "points", "turns", "valid", "error_rule", "error_message", "error_ply", "game_number",
           "score_white", "score_black", "match", "match_length", "source_file", "error"}


@pytest.mark.parametrize("args, query", [
    ((), {}),
    (("--player", "marie"), {"player": "marie"}),
    (("--white", "JEAN", "--result", "W"), {"white": "JEAN", "result": "W"}),
    (("--variant", "backgammon", "--sort", "turns", "--desc"),
     {"variant": "backgammon", "sort": "turns", "descending": True}),
    (("--from", "2024.03.01", "--to", "2024.06.30", "--valid"),
     {"date_from": "2024.03.01", "date_to": "2024.06.30", "valid": True}),
    (("--result", "*", "--turns-max", 5), {"result": "*", "turns_max": 5}),
    (("--points-min", 2, "--points-max", 3, "--sort", "points"),
     {"points_min": 2, "points_max": 3, "sort": "points"}),
    (("--match", "Final", "--event", "cup"), {"match": "Final", "event": "cup"}),
    (("--text", "24/13"), {"text": "24/13"}),
    (("--text", "Deliberate error", "--invalid"), {"text": "Deliberate error", "valid": False}),
    (("--text", "NEAR("), {"text": "NEAR("}),
    (("--limit", 4, "--offset", 3, "--sort", "white"), {"limit": 4, "offset": 3, "sort": "white"}),
])
def test_search_json(club, args, query):
    result = ok(run("search", "--db", club, "--json", *args))
    found = json.loads(result.stdout)
    assert set(found) == {"total", "offset", "games"}
    db = archive.open_archive(club, readonly=True)
    try:
        rows, total = archive.search(db, archive.Query(**{"limit": 50, **query}))
    finally:
        db.close()
    assert found["total"] == total and found["offset"] == query.get("offset", 0)
    assert found["games"] == [public_row(row, render) for row in rows]
    assert all(set(game) == COLUMNS for game in found["games"])


def test_search_filters_do_filter(club):
    def total(*args):
        return json.loads(ok(run("search", "--db", club, "--json", *args)).stdout)["total"]

    everything = total()
    assert everything == 8 + 5 + 2 + ERROR_GAMES
    assert total("--invalid") == ERROR_GAMES and total("--valid") == everything - ERROR_GAMES
    assert total("--variant", "backgammon", "--valid") == 5 and total("--match", "Final") == 3
    assert 0 < total("--player", "MARIE") < everything


def test_search_table(club):
    result = ok(run("search", "--db", club, "--invalid", "--limit", 3))
    lines = result.stdout.splitlines()
    assert lines[0] == say("cli.search.found", count=ERROR_GAMES) + say("cli.search.showing", first=1, last=3)
    assert len(lines) == 4 and all("INVALID [" in line and "at ply" in line for line in lines[1:])
    assert ok(run("search", "--db", club, "--player", "nobody")).stdout.splitlines() == [say("cli.search.found", count=0)]


def test_search_refuses_a_missing_archive(tmp_path):
    result = run("search", "--db", tmp_path / "none.db")
    assert result.exit_code != 0 and "no archive" in result.output
    assert not (tmp_path / "none.db").exists()


def test_a_missing_archive_exits_2(tmp_path):
    assert run("search", "--db", tmp_path / "none.db").exit_code == 2


def test_search_text_of_a_lone_double_quote_does_not_crash(club):
    result = run("search", "--db", club, "--text", '"', "--json")
    assert result.exit_code == 0, result.exception
    assert json.loads(result.stdout)["total"] in (0, 42)


def test_search_position(club):
    db = archive.open_archive(club, readonly=True)
    try:
        start = db.execute("SELECT position_before FROM turns t JOIN games g ON g.id = t.game_id "
                           "WHERE g.variant = 'jacquet' AND t.ply = 1").fetchone()[0]
        games = archive.games_through(db, start, "jacquet", 5)
        everything = archive.games_through(db, start, "jacquet", 10**6)
        plays = archive.plays_from(db, start, "jacquet")
    finally:
        db.close()
    result = ok(run("search", "--db", club, "--position", start, "--variant", "jacquet", "--json",
                    "--limit", 5))
    found = json.loads(result.stdout)
    assert set(found) == {"position", "games", "plays"}
    assert found["position"] == start
    assert found["games"] == games and len(games) == 5
    assert found["plays"] == [{"dice": p.dice, "play": p.play, "count": p.count, "wins": p.wins,
                               "share_won": round(p.share_won, 4)} for p in plays]
    assert sum(p["count"] for p in found["plays"]) >= 8
    text = ok(run("search", "--db", club, "--position", start, "--variant", "jacquet",
                  "--limit", len(everything))).stdout
    assert text.splitlines()[0] == say("cli.explore.games", count=len(everything), position=start)
    first = everything[0]
    assert text.splitlines()[1] == "  " + say("cli.explore.game", game=first["game_id"], ply=first["ply"],
                                              variant="jacquet", result=first["result"],
                                              date=first["date"] or say("cli.explore.no-date"))
    fewer = ok(run("search", "--db", club, "--position", start, "--variant", "jacquet", "--limit", 2)).stdout
    assert fewer.splitlines()[0] == say("cli.explore.first", games=2, position=start)
    nowhere = json.loads(ok(run("search", "--db", club, "--position", "AAAAAAAAAAAAAA", "--json")).stdout)
    assert nowhere["games"] == [] and nowhere["plays"] == []


# ------------------------------------------------------------------ export

@pytest.mark.parametrize("ext", ["jqn", "xml", "json"])
def test_export_validates_and_reimports_as_duplicates(club, tmp_path, ext):
    out = tmp_path / f"valid.{ext}"
    result = ok(run("export", "--db", club, "--valid", "-o", out))
    assert say("cli.write.written", count=15, path=out) in result.stderr
    ok(run("validate", out))
    assert len(list(read_file(out))) == 15
    check = ok(run("import", out, "--db", club))
    assert say("cli.import.summary", count=0, duplicates=15, refused=0) in check.stderr


def test_exported_invalid_games_are_still_invalid(club, tmp_path):
    out = tmp_path / "invalid.jqn"
    ok(run("export", "--db", club, "--invalid", "-o", out))
    games = list(read_file(out))
    assert len(games) == ERROR_GAMES
    assert sum(1 for g in games if g.errors) == ERROR_GAMES


def test_export_takes_the_search_filters(club, tmp_path):
    out = tmp_path / "marie.jqn"
    ok(run("export", "--db", club, "--player", "marie", "--sort", "turns", "--desc", "-o", out))
    games = list(read_file(out))
    expected = json.loads(ok(run("search", "--db", club, "--player", "marie", "--sort", "turns",
                                 "--desc", "--json", "--limit", 100)).stdout)["games"]
    assert [g.end().ply for g in games] == [row["turns"] for row in expected]
    assert all("Marie" in (g.headers.get("White"), g.headers.get("Black")) for g in games)


def test_export_one_match_to_mat(club, tmp_path):
    out = tmp_path / "final.mat"
    ok(run("export", "--db", club, "--match", "Final", "-o", out))
    ok(run("validate", out))
    assert len(list(read_file(out))) == 3


def test_export_of_several_matches_to_mat_is_a_clear_error(club, tmp_path):
    out = tmp_path / "all.mat"
    result = ok(run("export", "--db", club, "--variant", "backgammon", "-o", out), 1)
    assert result.stderr.startswith(say("cli.write.nothing", reason="")) and "one match" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_export_of_other_rule_sets_to_mat_is_a_clear_error(club, tmp_path):
    result = ok(run("export", "--db", club, "--variant", "jacquet", "-o", tmp_path / "j.mat"), 1)
    assert "backgammon only" in result.stderr


def test_export_to_an_unknown_format_is_a_usage_error(club, tmp_path):
    result = ok(run("export", "--db", club, "-o", tmp_path / "games.docx"), 2)
    assert "games.docx: cannot tell its format" in result.stderr


# ------------------------------------------------------------------ stats

@pytest.mark.parametrize("variant", [None, "jacquet", "backgammon"])
def test_stats_json(club, variant):
    args = ["--variant", variant] if variant else []
    found = json.loads(ok(run("stats", "--db", club, "--json", *args)).stdout)
    assert set(found) == {"results", "dice", "openings", "analysed"}
    assert found["analysed"] == []  # nothing analysed yet (tests/test_cli_stats_analysed.py)
    db = archive.open_archive(club, readonly=True)
    try:
        assert found["results"] == archive.results_per_player(db, variant)
        dice = archive.dice_fairness(db, variant)
        assert found["dice"] == [{"player": d.player, "faces": d.faces, "chi_square": d.chi_square,
                                  "p_value": d.p_value} for d in dice]
        assert found["openings"] == {roll: [list(p) for p in plays]
                                     for roll, plays in archive.opening_plays(db, variant).items()}
    finally:
        db.close()
    players = {row["player"] for row in found["results"]}
    if variant == "backgammon":
        assert {"Gnu", "Bot"} <= players and "Marie" not in players
    else:
        assert {"Marie", "Jean", "Anne"} <= players
    for row in found["dice"]:
        assert len(row["faces"]) == 6 and 0 <= row["p_value"] <= 1


def test_stats_table(club):
    text = ok(run("stats", "--db", club)).stdout
    assert text.splitlines()[0] == say("cli.stats.results")
    assert say("cli.stats.dice") in text and say("cli.stats.openings") in text
    assert "Marie" in text


def test_tags_with_line_breaks_are_stored_and_read_back(db_path, tmp_path):
    """A tag value holding a line break (SGF's GC[...] gives some) is stored in a record
    that reads back as one game: its page, its JSON and the export all work."""
    game = {"headers": {"White": "Line1\nLine2", "GameComment": '[ClockType "Live8"]\n'},
            "variant": "backgammon", "turns": []}
    source = tmp_path / "breaks.json"
    source.write_text(json.dumps([game]), encoding="utf-8")
    ok(run("import", source, "--db", db_path))
    out = tmp_path / "all.jqn"
    ok(run("export", "--db", db_path, "-o", out))
    [back] = read_file(out)
    assert back.headers["White"] == "Line1\nLine2" and not back.errors
    client = viewer_app(db_path).test_client()
    assert client.get("/game/1").status_code == 200
    assert client.get("/api/games/1").get_json()["headers"]["White"] == "Line1\nLine2"


def test_a_json_header_that_is_no_tag_name_is_refused(tmp_path):
    source = tmp_path / "bad-tag.json"
    source.write_text(json.dumps([{"headers": {"two words": "x"}, "turns": []}]), encoding="utf-8")
    result = run("validate", source)
    assert result.exit_code == 1 and "[TAG]" in result.output and "'two words'" in result.output


@pytest.mark.parametrize("args", [("search", "--points-min", "99999999999999999999999"),
                                  ("search", "--limit", "99999999999999999999"),
                                  ("export", "--turns-max", "-99999999999999999999", "-o", "x.jqn"),
                                  ("search", "--from", "garbage"), ("search", "--to", "2024/01"),
                                  ("search", "--position", "XXXX"), ("export", "-o", "out.sgf")])
def test_bad_filters_are_usage_errors(club, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args, "--db", club)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_stored_record_that_reads_back_as_two_games_is_reported_not_a_traceback(db_path, tmp_path):
    """An archive written before tag values had their line breaks escaped may hold such a
    record: export stops with a message, the viewer answers 500 with the reason."""
    source = tmp_path / "one.jqn"
    source.write_text('[White "A"]\n\n1. 55: 24/4 *\n', encoding="utf-8")
    ok(run("import", source, "--db", db_path))
    db = sqlite_utils.Database(db_path)
    db.execute("UPDATE games SET record = "
               "replace(record, '[White \"A\"]', '[White \"A' || char(10) || '\"]')")
    db.conn.commit()
    db.close()
    result = run("export", "--db", db_path, "-o", tmp_path / "out.jqn")
    assert result.exit_code == 1 and "game 1 cannot be read back" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out.jqn").exists()
    page = viewer_app(db_path).test_client().get("/game/1")
    assert page.status_code == 500 and b"cannot be read back" in page.data


def test_games_kept_invalid_that_stop_alike_for_different_errors_are_two_games(db_path):
    """Two .mat games refused at the same turn for different reasons keep the same moves
    before their errors; both are kept (the error is part of what tells them apart), and
    importing them again adds nothing."""
    data = Path(__file__).resolve().parent / "data" / "mat"
    files = [data / "illegal_dice_mismatch_13-10_with_21.mat",
             data / "illegal_not_maximal_21_played_as_13-11.mat"]
    ok(run("import", *files, "--keep-invalid", "--db", db_path))
    def kept() -> list[str]:
        db = archive.open_archive(db_path, readonly=True)
        try:
            return sorted(row[0] for row in db.execute("SELECT error_rule FROM games WHERE NOT valid"))
        finally:
            db.close()

    assert kept() == ["R-DICE", "R-MAX"]
    ok(run("import", *files, "--keep-invalid", "--db", db_path))
    assert kept() == ["R-DICE", "R-MAX"]


def test_a_game_that_breaks_r_match_in_one_file_is_the_same_game_as_elsewhere(db_path, tmp_path):
    """R-MATCH is about a game's place in its file, not about the game: imported valid
    from one file, the same game from a file where its score does not add up is a
    duplicate, not a second game."""
    sample = Path(__file__).resolve().parents[1] / "samples" / "matches" / "jacquet-match.jqn"
    games = list(read_file(sample))
    alone = tmp_path / "alone.jqn"
    write_file(games[1:2], alone)
    ok(run("import", alone, "--db", db_path))
    games[0].headers["Score"] = "1-0"  # game 1 said to start at 1-0: game 2's 1-0 no longer adds up
    wrong = tmp_path / "wrong.jqn"
    write_file(games[:2], wrong)
    assert [[e.rule_id for e in g.errors] for g in read_file(wrong)] == [[], ["R-MATCH"]]
    ok(run("import", wrong, "--db", db_path, "--keep-invalid"))
    db = archive.open_archive(db_path, readonly=True)
    try:  # game 1 added; game 2 the one stored already, valid
        assert db.execute("SELECT count(*), sum(valid) FROM games").fetchone() == (2, 2)
    finally:
        db.close()
