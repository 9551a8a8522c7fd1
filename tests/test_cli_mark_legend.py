"""``jacquet analyse``'s table ends with what its marks mean: the thresholds they were given
by, the rule set's (Jacquet's 0.04, 0.08, 0.16 points: ``RuleSet.marks``) unless
``--marks`` says others, in the language asked; where a deeper level confirmed the marks
(the default), its ``?`` starts a margin above (``analysis.confirm.MARGIN``: 7/6 of 0.08
is 0.093)."""

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
