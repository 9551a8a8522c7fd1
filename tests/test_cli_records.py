"""The record commands: validate, show, convert, generate (exit codes and outputs)."""

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation.engine.rules import NAMES
from notation.formats import read_file
from notation.messages import say

GOOD = '[Event "good"]\n[Result "*"]\n\n1. 55: 24/19/14/9/4 66: 24/18 2. 21: 4/1 *\n'
BAD = '[Event "bad"]\n\n1. 63: 24/18 24/21 *\n'


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "good.jqn"
    good.write_text(GOOD, encoding="utf-8")
    bad = tmp_path / "bad.jqn"
    bad.write_text(GOOD + "\n" + BAD, encoding="utf-8")
    return good, bad


def test_validate_exit_codes(files, tmp_path):
    good, bad = files
    assert run("validate", good).exit_code == 0
    result = run("validate", bad)
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    assert line.startswith(f"{bad}:8:14: error: [R-COURIER] ") and line.endswith(" 24/15")
    checked = run("validate", "--json", bad)
    [error] = [e for game in checked.stdout.splitlines() for e in json.loads(game)["errors"]]
    assert (error["line"], error["column"], error["game"], error["turn"], error["rule"]) == \
        (8, 14, 2, "1. 63", "R-COURIER")
    # the courier's rule, with the hint that backgammon allows the play
    assert error["id"] == "reader.backgammon-hint" and error["params"] == {
        "reason": {"id": "rule.courier.not-passed", "params": {"step": "24/21", "point": "18"}}}
    assert error["legal_plays"] == ["24/15"] and error["message"] in line
    assert run("validate", tmp_path / "missing.jqn").exit_code == 2
    assert run("validate", tmp_path / "game.unknown").exit_code == 2
    assert run("validate").exit_code == 2


def test_validate_json_gives_one_object_per_game(files):
    _, bad = files
    result = run("validate", "--json", bad)
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["valid"] for o in objects] == [True, False]
    assert objects[1]["errors"][0]["rule"] == "R-COURIER"
    assert objects[1]["errors"][0]["line"] == 8


def test_validate_variant_applies_to_records_without_a_variant_tag(tmp_path):
    path = tmp_path / "bg.jqn"
    path.write_text("1. 31: 8/5 6/5 *\n", encoding="utf-8")
    assert run("validate", path).exit_code == 1
    assert run("validate", "--variant", "backgammon", path).exit_code == 0


def test_show_text_svg_json(files):
    good, _ = files
    text = run("show", good, "--ply", 1)
    assert text.exit_code == 0 and say("cli.show.to-play", player=say("colour.black")) in text.stdout
    svg = run("show", good, "--format", "svg")
    assert svg.exit_code == 0 and svg.stdout.startswith("<svg")
    data = json.loads(run("show", good, "--ply", 2, "--format", "json").stdout)
    assert data["play"] == "24/18" and data["to_play"] == "W"
    assert run("show", good, "--ply", 99).exit_code == 2
    assert run("show", good, "--game", 2).exit_code == 2


def test_show_labels_the_sides_w_and_b_as_record_and_play_do(files):
    good, _ = files
    lines = run("show", good, "--ply", 1).stdout.splitlines()  # Black on roll, after 1. 55
    assert "B15" in lines[2] and "W14" in lines[4]  # Black's talon top right, White's men
    assert lines[6] == say("diagram.sides", x=f"B ({say('colour.black')})", y="W", mover=360, mover_off=0,
                           opponent=340, opponent_off=0)
    lines = run("show", good, "--ply", 2).stdout.splitlines()  # White on roll, after 1... 66
    assert lines[6] == say("diagram.sides", x=f"W ({say('colour.white')})", y="B", mover=340, mover_off=0,
                           opponent=354, opponent_off=0)
    assert not any("X" in line or " O" in line for line in lines[1:])


def test_show_names_the_cube_owner_by_his_letter(tmp_path):
    path = tmp_path / "cube.jqn"
    path.write_text('[Variant "backgammon"]\n\n1. 31: 8/5 6/5 double take *\n', encoding="utf-8")
    result = run("show", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == say("diagram.cube.owned", cube=2, owner="W")


def test_show_exits_1_for_a_game_with_errors(files):
    _, bad = files
    assert run("show", bad, "--game", 2).exit_code == 1


def test_convert_text_json_text_is_lossless(files, tmp_path):
    good, _ = files
    as_json = tmp_path / "g.json"
    back = tmp_path / "g.jqn"
    assert run("convert", good, as_json).exit_code == 0
    assert run("convert", as_json, back).exit_code == 0
    first = (tmp_path / "first.jqn")
    assert run("convert", good, first, "--to", "jqn").exit_code == 0
    assert back.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")


def test_convert_refuses_a_file_with_errors_and_writes_nothing(files, tmp_path):
    _, bad = files
    target = tmp_path / "out.json"
    result = run("convert", bad, target)
    assert result.exit_code == 1
    assert not target.exists()
    assert run("convert", bad, tmp_path / "out.xyz").exit_code == 2


def test_convert_bad_json_reports_line_and_column(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"headers": {}\n  "turns": []}]', encoding="utf-8")
    result = run("convert", broken, tmp_path / "x.jqn")
    assert result.exit_code == 1
    assert f"{broken}:2:3: error: [SYNTAX]" in result.stderr


@pytest.mark.parametrize("document", ["{}", '{"games": 5}', '[{"varient": "jacquet"}]',
                                      '[{"start": "garbage"}]', '[{"start": "garbage", "turns": []}]',
                                      '[{"first": "X", "turns": []}]'])
def test_validate_refuses_json_nonsense_as_a_located_error(tmp_path, document):
    """Each of these was one legal game (the last a raw Python message): now an error of
    form, at the file and game."""
    path = tmp_path / "nonsense.json"
    path.write_text(document, encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stdout.startswith(f"{path}:0:0: error: [SYNTAX] game 1: ")
    assert "1 game, 1 error" in result.stderr


def test_generate_is_reproducible_and_valid(tmp_path):
    first = run("generate", "--variant", "murray", "--games", 2, "--seed", 7, "--annotate")
    second = run("generate", "--variant", "murray", "--games", 2, "--seed", 7, "--annotate")
    assert first.exit_code == 0 and first.stdout == second.stdout
    assert first.stdout != run("generate", "--variant", "murray", "--games", 2, "--seed", 8).stdout
    path = tmp_path / "gen.jqn"
    path.write_text(first.stdout, encoding="utf-8")
    assert run("validate", path).exit_code == 0


@pytest.mark.parametrize("variant", NAMES)
def test_generate_every_rule_set_to_a_file(variant, tmp_path):
    path = tmp_path / f"{variant}.jqn"
    assert run("generate", "--variant", variant, "--games", 1, "--seed", 3, "-o", path).exit_code == 0
    result = run("validate", "--json", path)
    [summary] = [json.loads(line) for line in result.stdout.splitlines()]
    assert summary["valid"] and summary["variant"] == variant and summary["result"] != "*"


def test_written_files_get_the_umasks_permissions_and_links_are_followed(files, tmp_path):
    good, _ = files
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        assert run("convert", good, fresh).exit_code == 0
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        real = tmp_path / "real.json"
        real.write_text("old", encoding="utf-8")
        real.chmod(0o640)
        link = tmp_path / "link.json"
        link.symlink_to(real)
        assert run("convert", good, link).exit_code == 0
        assert link.is_symlink()
        assert json.loads(real.read_text(encoding="utf-8"))[0]["headers"]["Event"] == "good"
        assert stat.S_IMODE(real.stat().st_mode) == 0o640
    finally:
        os.umask(old)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary left


def test_a_file_that_cannot_be_written_in_a_format_is_refused(files, tmp_path):
    good, _ = files
    result = run("convert", good, tmp_path / "out.sgf")
    assert result.exit_code == 2 and not (tmp_path / "out.sgf").exists()


def test_games_a_format_cannot_hold_are_refused_whole_by_convert_and_export(tmp_path):
    """A hale game written to .mat (backgammon only): nothing written, exit 1, as for a
    game in error, by convert and by export alike."""
    sample = Path(__file__).resolve().parents[1] / "samples" / "hale" / "annotated-game.jqn"
    converted = run("convert", sample, tmp_path / "hale.mat")
    db = tmp_path / "hale.db"
    assert run("import", sample, "--db", db).exit_code == 0
    exported = run("export", "--db", db, "-o", tmp_path / "exported.mat")
    for result in (converted, exported):
        assert result.exit_code == 1, result.output
        assert say("cli.write.nothing", reason=say("format.rule-sets", format="mat", variants="backgammon",
                                                   variant="hale")) in result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "hale.mat").exists() and not (tmp_path / "exported.mat").exists()


def test_writing_mat_says_what_it_leaves_out(tmp_path):
    sample = Path(__file__).resolve().parents[1] / "samples" / "backgammon" / "annotated-game.jqn"
    result = run("convert", sample, tmp_path / "bg.mat")
    assert result.exit_code == 0
    assert ("note: .mat holds the main line's moves only: 12 comments, 3 NAGs, 3 variations left out"
            in result.stderr)
    plain = run("convert", tmp_path / "bg.mat", tmp_path / "again.mat")
    assert plain.exit_code == 0 and "note:" not in plain.stderr


@pytest.mark.parametrize(("language", "note"), [
    ("fr", ("remarque : un .mat ne contient que les coups de la ligne principale ; non écrits : "
           "12 commentaires, 3 NAG, 3 variantes")),
    ("ru", ("примечание: .mat содержит только ходы главной линии; не записано: 12 комментариев, 3 NAG, "
           "3 варианта"))], ids=["fr", "ru"])
def test_what_a_mat_leaves_out_is_said_in_the_language(tmp_path, language, note):
    sample = Path(__file__).resolve().parents[1] / "samples" / "backgammon" / "annotated-game.jqn"
    result = run("--lang", language, "convert", sample, tmp_path / "bg.mat")
    assert result.exit_code == 0 and note in result.stderr


@pytest.mark.parametrize("fmt", ["jqn", "xml", "json"])
def test_a_match_score_that_does_not_add_up_is_r_match_in_every_format(tmp_path, fmt):
    """R-MATCH: each game's Score is the score after the games of the match before it."""
    sample = Path(__file__).resolve().parents[1] / "samples" / "matches" / "jacquet-match.jqn"
    assert run("validate", sample).exit_code == 0
    text = sample.read_text(encoding="utf-8")
    assert text.count('[Score "1-0"]') == 1
    wrong = tmp_path / "wrong.jqn"
    wrong.write_text(text.replace('[Score "1-0"]', '[Score "0-0"]'), encoding="utf-8")
    target = tmp_path / f"wrong.{fmt}"
    if fmt != "jqn":  # written as its own format (the writer keeps the Score tag as it is)
        from notation.formats import write_file
        games = list(read_file(wrong))
        for game in games:
            game.errors.clear()
        write_file(games, target)
    result = run("validate", target)
    assert result.exit_code == 1
    [line] = [line for line in result.stdout.splitlines() if "R-MATCH" in line]
    assert line.endswith(say("match.score.tag", score="0-0", before="1-0"))
    [game_error] = [e for game in read_file(target) for e in game.errors if e.rule_id == "R-MATCH"]
    assert game_error.game == 2 and game_error.msg.as_json() == {
        "id": "match.score.tag", "params": {"score": "0-0", "before": "1-0"}}
    if fmt != "json":  # JSON keeps no line numbers
        assert line.split(":")[1] != "0"


def test_a_whole_file_format_is_not_written_past_what_its_reader_takes(tmp_path, monkeypatch):
    import notation.formats.registry as formats
    good = tmp_path / "good.jqn"
    good.write_text(GOOD * 3, encoding="utf-8")
    monkeypatch.setattr(formats, "MAX_POSITIONS", 5)  # 3 games of 3 turns: 12 positions
    result = run("convert", good, tmp_path / "out.json")
    assert result.exit_code == 1 and "more than a file read whole may hold" in result.output
    assert f"({formats.MAX_FILE_BYTES:,} bytes" in result.output  # grouped as English writes it
    french = run("--lang", "fr", "convert", good, tmp_path / "out.json")
    assert french.exit_code == 1 and f"{formats.MAX_FILE_BYTES:,}".replace(",", "\u202f") in french.output
    assert not (tmp_path / "out.json").exists()
    assert run("convert", good, tmp_path / "out.jqn").exit_code == 0  # read game by game


def test_a_second_match_between_the_same_players_starts_its_score_anew(tmp_path):
    """A match ended (or a game numbered 1, or at 0-0 without numbers) starts another: no
    R-MATCH for the first game of a second match in the same file."""
    from notation.formats import read_file, write_file
    from notation.formats.mat import read_mat
    data = Path(__file__).resolve().parent / "data" / "mat"
    games = read_mat(data / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat")
    for without in ((), ("Game",), ("Game", "Match")):
        for game in games:
            for tag in without:
                game.headers.pop(tag, None)
        path = tmp_path / "two.jqn"
        write_file(games + games, path)
        assert not [e for g in read_file(path) for e in g.errors], without


@pytest.mark.parametrize("name, text", [
    ("long.jqn", '[Variant "jacquet"]\n\n1. 53: 24/16 ' + "x" * 500 + " *\n"),
    ("junk.mat", "\x1b[2J" + "\x00\x07" * 300 + "\n"),
], ids=["long-token", "binary-mat"])
def test_a_message_quotes_a_long_or_binary_word_escaped_and_cut_short(tmp_path, name, text):
    """A word that cannot be read is quoted escaped (no control character reaches the
    terminal) and cut after 40 characters, so that junk does not fill the screen."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1
    message = result.output.splitlines()[0]
    assert "'..." in message
    assert message.count("x") <= 45 and message.count("\\x00") <= 20  # 40 characters shown
    assert "\x1b" not in message and "\x00" not in message
