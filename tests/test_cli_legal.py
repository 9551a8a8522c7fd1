"""`jacquet legal`: the command-line contract of the brief."""

import json

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation import Position

JACQUET_START = "AACA/z8AAID/Pw"
BACKGAMMON_START = "4HPwATDgc/ABMA"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_opening_five_five_prints_the_courier_run():
    result = run("legal", "--variant", "jacquet", "--position", JACQUET_START, "--dice", "55")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["24/19/14/9/4"]


def test_plays_are_one_per_line_sorted_from_the_rear():
    result = run("legal", "--variant", "backgammon", "--position", BACKGAMMON_START, "--dice", "31")
    lines = result.output.splitlines()
    assert result.exit_code == 0 and len(lines) == 16
    assert lines[0].startswith("24/")
    assert "8/5 6/5" in lines


def test_json_gives_play_steps_and_the_position_seen_by_the_next_player():
    result = run("legal", "--variant", "jacquet", "--position", JACQUET_START, "--dice", "65", "--json")
    assert result.exit_code == 0
    [play] = json.loads(result.stdout)
    assert play["play"] == "24/13"
    assert play["steps"] in ([[24, 18], [18, 13]], [[24, 19], [19, 13]])
    after = Position.from_id(play["position"])
    # Seen by the next player: his men are untouched, the mover's are the opponent now.
    assert after.mover[24] == 15
    assert after.opponent[24] == 14 and after.opponent[13] == 1


def test_courier_release_option_changes_the_answer():
    position = Position.from_points({9: 1, 24: 14}, {24: 15}).position_id()
    both = run("legal", "--position", position, "--dice", "63").output.splitlines()
    assert sorted(both) == ["9/3 24/21", "9/6 24/18"]
    courier = run("legal", "--position", position, "--dice", "63", "-O", "courier_release=next-turn")
    assert courier.output.splitlines() == ["9/3"]


def test_bad_position_id_exits_2():
    result = run("legal", "--position", "not-an-id", "--dice", "65")
    assert result.exit_code == 2
    assert "position ID" in result.output


def test_bad_dice_exit_2():
    for dice in ("70", "abc", "123", "", "6"):  # one die is a roll in versailles only (R-PASS)
        result = run("legal", "--dice", dice)
        assert result.exit_code == 2, dice


def test_a_position_impossible_in_the_rule_set_exits_2():
    on_bar = Position.from_points({25: 1, 24: 14}, {24: 15}).position_id()
    result = run("legal", "--variant", "jacquet", "--position", on_bar, "--dice", "65")
    assert result.exit_code == 2
    assert "no bar" in result.output


def test_unknown_option_exits_2():
    assert run("legal", "--dice", "65", "-O", "colour=red").exit_code == 2


def test_batch_answers_every_line_in_order_and_goes_on_after_a_bad_query():
    queries = "\n".join([
        json.dumps({"variant": "backgammon", "position": BACKGAMMON_START, "dice": "65"}),
        json.dumps({"variant": "jacquet", "position": JACQUET_START, "dice": "77"}),
        "not json",
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"variant": "backgammon", "dice": "6"}),
        json.dumps({"variant": "jacquet", "position": JACQUET_START, "dice": "66"}),
    ]) + "\n"
    result = run("legal", "--batch", input=queries)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 6
    assert len(lines[0]) == 7
    assert all("error" in line for line in lines[1:5])
    assert "nests too deeply" in lines[3]["error"] and "one die" in lines[4]["error"]
    assert [play["play"] for play in lines[5]] == ["24/18"]


def test_batch_answers_a_blank_line_so_that_answers_pair_with_lines():
    query = json.dumps({"variant": "backgammon", "position": BACKGAMMON_START, "dice": "65"})
    result = run("legal", "--batch", input=f"{query}\n\n{query}\n")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0 and len(lines) == 3
    assert lines[0] == lines[2] and lines[1] == {"error": "an empty line is no query",
                                                  "id": "cli.legal.empty", "params": {}}


@pytest.mark.parametrize("dice", ["65", 65, [6, 5]])
def test_batch_reads_the_dice_as_text_number_or_list(dice):
    query = {"variant": "backgammon", "position": BACKGAMMON_START, "dice": dice}
    answer = json.loads(run("legal", "--batch", input=json.dumps(query) + "\n").stdout)
    assert len(answer) == 7 and "error" not in answer


@pytest.mark.parametrize("dice, message", [(None, 'a query needs "dice"'),
                                           (True, '"dice" is a roll'),
                                           ({"a": 6}, '"dice" is a roll')])
def test_batch_says_what_is_wrong_with_the_dice(dice, message):
    query = {"variant": "backgammon"} | ({} if dice is None else {"dice": dice})
    answer = json.loads(run("legal", "--batch", input=json.dumps(query) + "\n").stdout)
    assert message in answer["error"]


def test_batch_answer_equals_the_json_answer():
    query = {"variant": "backgammon", "position": BACKGAMMON_START, "dice": "11"}
    batch = run("legal", "--batch", input=json.dumps(query) + "\n").output.strip()
    single = run("legal", "--variant", "backgammon", "--position", BACKGAMMON_START, "--dice", "11",
                 "--json").output
    assert json.loads(batch) == json.loads(single)


def test_one_passed_die_is_a_roll_in_versailles():
    result = run("legal", "--variant", "versailles", "--dice", "6")
    assert result.exit_code == 0 and result.output.splitlines() == ["24/18"]
