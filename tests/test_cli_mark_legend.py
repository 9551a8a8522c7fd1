"""``jacquet analyse``'s table ends with what its marks mean: the thresholds they were given
by, the rule set's (Jacquet's 0.04, 0.08, 0.16 points: ``RuleSet.marks``) unless
``--marks`` says others, in the language asked; where a deeper level confirmed the marks
(the default), its ``?`` starts a margin above (``analysis.confirm.MARGIN``: 7/6 of 0.08
is 0.093); each turn judged again names the level that decided it."""

from __future__ import annotations

from click.testing import CliRunner

from jacquet_cli import main
from notation.messages import say

GAME = "samples/jacquet/annotated-game.jqn"


def test_the_legend_gives_the_rule_sets_thresholds():
    result = CliRunner().invoke(main, ["analyse", GAME, "--jobs", "1", "--confirm", "none"])
    assert result.exit_code == 0, result.output
    assert say("cli.analyse.marks", doubtful="0.040", bad="0.080", very_bad="0.160") in result.output


def test_the_legend_of_confirmed_marks_gives_the_margin_on_bad():
    result = CliRunner().invoke(main, ["analyse", GAME, "--jobs", "1", "--confirm", "1ply"])
    assert result.exit_code == 0, result.output
    assert say("cli.analyse.marks", doubtful="0.040", bad="0.093", very_bad="0.160") in result.output


def test_the_legend_gives_the_thresholds_asked_in_the_language_asked():
    result = CliRunner().invoke(main, ["--lang", "fr", "analyse", GAME, "--jobs", "1", "--marks", "0.05,0.1,0.3",
                                       "--confirm", "none"])
    assert result.exit_code == 0, result.output
    assert "?! douteux, 0.050 ou plus ; ? mauvais, 0.100 ou plus ; ?? très mauvais, 0.300 ou plus" in result.output


def test_each_turn_judged_again_names_the_level_that_decided_it():
    """With a confirmation, each unforced turn's row gives the key of the level that decided
    its figures and mark (the JSON's ``level``), and the keys are said after the table."""
    import json

    options = ["analyse", GAME, "--jobs", "1", "--confirm", "1ply"]
    table = CliRunner().invoke(main, options)
    assert table.exit_code == 0, table.output
    (record,) = [json.loads(line) for line in CliRunner().invoke(main, [*options, "--json"]).stdout.splitlines()]
    lines = table.output.splitlines()
    legend = dict(line.removeprefix("level ").split(": ", 1) for line in lines if line.startswith("level "))
    assert sorted(legend) == ["1", "2"] and legend["2"].endswith(", 1-ply")
    end = lines[1].index(" level") + len(" level")
    rows = {int(line[:4]): line for line in lines[2:] if line[:4].strip().isdigit()}
    judged = [turn for turn in record["turns"] if not turn["forced"]]
    assert {turn["level"] for turn in judged} == set(legend.values())
    for turn in judged:
        assert legend[rows[turn["ply"]][end - 1]] == turn["level"], rows[turn["ply"]]


def test_without_a_confirmation_the_table_has_no_level_column():
    result = CliRunner().invoke(main, ["analyse", GAME, "--jobs", "1", "--confirm", "none"])
    assert result.exit_code == 0, result.output
    assert " level " not in result.output.splitlines()[1]
    assert not [line for line in result.output.splitlines() if line.startswith("level ")]
