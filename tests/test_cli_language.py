"""The command line's language: ``jacquet --lang``, else the environment's (LANGUAGE,
LC_ALL, LC_MESSAGES, LANG), else English; ``validate`` in French and Russian with the
rule id and the legal plays, and ``--json`` with the same ids and parameters in every
language."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from jacquet_cli import LANGUAGE_HELP, main
from notation import messages

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "errors" / "one-of-each.jqn"
CLEAN = {name: value for name, value in os.environ.items()
         if name not in messages.ENVIRONMENT}


INSTALLED = Path(sys.executable).parent / "jacquet"
"""The ``jacquet`` command the README's install puts beside the environment's python."""


def jacquet(*args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """The installed ``jacquet ARGS`` in a new process, with the language variables of
    ``environ`` only."""
    assert INSTALLED.exists(), f"{INSTALLED}: install the package first (README)"
    return subprocess.run([str(INSTALLED), *args], capture_output=True,
                          text=True, cwd=ROOT, env={**CLEAN, **environ}, timeout=300, check=False)


def courier_line(output: str) -> str:
    return next(line for line in output.splitlines() if "[R-COURIER]" in line)


def test_lang_fr_validates_in_french_with_the_rule_id_and_the_legal_plays():
    result = jacquet("validate", str(SAMPLE), LANG="fr_FR.UTF-8")
    assert result.returncode == 1
    assert courier_line(result.stdout).endswith(
        ": error: [R-COURIER] partie 11, tour 1. 53: 24/21 déplace une deuxième dame alors que "
        "le courrier, sur la 19, n’a pas atteint les flèches 6-1 ; légaux : 24/16")
    assert result.stderr.strip() == "32 parties, 32 erreurs"


def test_lang_ru_validates_in_russian_with_the_rule_id_and_the_legal_plays():
    result = jacquet("validate", str(SAMPLE), LANG="ru_RU.UTF-8")
    assert courier_line(result.stdout).endswith(
        ": error: [R-COURIER] партия 11, ход 1. 53: 24/21 ходит второй шашкой, пока курьер, на 19, "
        "не дошёл до лунок 6-1; правильные: 24/16")
    assert result.stderr.strip() == "32 партии, 32 ошибки"


def test_the_lang_option_wins_over_the_environment_and_english_is_the_default():
    assert "déplace une deuxième dame" in courier_line(
        jacquet("--lang", "fr", "validate", str(SAMPLE), LANG="ru_RU.UTF-8").stdout)
    english = jacquet("validate", str(SAMPLE))
    assert courier_line(english.stdout).endswith(
        ": error: [R-COURIER] game 11, turn 1. 53: 24/21 moves a second man while the courier, "
        "on 19, has not reached points 6-1; legal: 24/16")
    assert english.stderr.strip() == "32 games, 32 errors"


def test_an_unknown_language_is_a_usage_error_naming_the_known_ones():
    result = CliRunner().invoke(main, ["--lang", "de", "validate", str(SAMPLE)])
    assert result.exit_code == 2
    assert "unknown language 'de'; known: en, fr, ru" in result.output


def test_the_language_is_set_back_when_the_command_ends():
    result = CliRunner().invoke(main, ["--lang", "ru", "validate", str(SAMPLE)])
    assert result.exit_code == 1 and "партия 1" in result.output
    assert messages.language() == "en"


def test_json_carries_the_same_ids_and_params_in_every_language():
    seen = {}
    for language in messages.LANGUAGES:
        result = CliRunner().invoke(main, ["--lang", language, "validate", "--json", str(SAMPLE)])
        games = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        seen[language] = [error for game in games for error in game["errors"]]
    assert len(seen["en"]) == 32
    for language in ("fr", "ru"):
        for english, other in zip(seen["en"], seen[language], strict=True):
            assert {k: v for k, v in other.items() if k != "message"} == \
                {k: v for k, v in english.items() if k != "message"}
            assert other["message"] != english["message"] or other["id"] == "text"
    courier = next(error for error in seen["en"] if error["rule"] == "R-COURIER")
    assert courier["id"] == "rule.courier.not-passed"
    assert courier["params"] == {"step": "24/21", "point": "19"}
    assert courier["legal_plays"] == ["24/16"]


def test_the_help_of_lang_names_every_language():
    for language in messages.LANGUAGES:
        assert language in LANGUAGE_HELP
    assert CliRunner().invoke(main, ["--help"]).output.count("--lang") == 1


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_no_sample_error_is_left_in_english(language):
    """Every error of the sample of errors has its message in the catalog (none is the
    ``text`` message of a sentence not yet translated)."""
    result = CliRunner().invoke(main, ["--lang", language, "validate", "--json", str(SAMPLE)])
    games = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [error["id"] for game in games for error in game["errors"] if error["id"] == "text"] == []


# jacquet record: the refusal of a play the rules refuse (the first turn 64, two men off the
# talon while the courier has not reached home), then a take-back with nothing to take back
TYPED = "64\n24/20 24/18\nundo\nquit\n"
RECORD_LINES = {
    "en": [("refused: [R-COURIER] 24/18 moves a second man while the courier, on 20, has not reached "
            "points 6-1"), "legal plays: 24/14", "refused: [R-END] no turn to take back",
           "W is White, B is Black; the points numbered for White.",
           "W on roll: pips 360, off 0 | B: pips 360, off 0"],
    "fr": [("refusé : [R-COURIER] 24/18 déplace une deuxième dame alors que le courrier, sur la 20, "
            "n’a pas atteint les flèches 6-1"), "coups légaux : 24/14", "refusé : [R-END] aucun tour à reprendre",
           "W est Blanc, B est Noir ; les flèches numérotées pour Blanc.",
           "W au trait : pips 360, sorties 0 | B : pips 360, sorties 0"],
    "ru": ["отказано: [R-COURIER] 24/18 ходит второй шашкой, пока курьер, на 20, не дошёл до лунок 6-1",
           "правильные ходы: 24/14", "отказано: [R-END] нет хода, который можно взять назад",
           "W — белые, B — чёрные; лунки пронумерованы для стороны: Белые.",
           "W ходит: пунктов 360, выброшено 0 | B: пунктов 360, выброшено 0"],
}


@pytest.mark.parametrize("language", sorted(RECORD_LINES))
def test_record_refuses_in_the_language_with_the_rule_id_and_the_legal_plays(language, tmp_path):
    out = tmp_path / "game.jqn"
    result = CliRunner().invoke(main, ["--lang", language, "record", "--first", "White", "-o", str(out)],
                                input=TYPED)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for expected in RECORD_LINES[language]:
        assert any(line.endswith(expected) for line in lines), (expected, result.output)
    assert out.exists()  # the unfinished game is written whatever the language


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_record_and_play_say_no_english_line(language, tmp_path):
    """None of the English words of the session's lines is left (the commands typed, the
    notation and the board's letters are the same in every language)."""
    english = CliRunner().invoke(main, ["record", "--first", "White", "-o", str(tmp_path / "en.jqn")],
                                 input=TYPED).output
    other = CliRunner().invoke(main, ["--lang", language, "record", "--first", "White",
                                      "-o", str(tmp_path / "other.jqn")], input=TYPED).output
    for words in ("refused", "legal plays", "to roll", "plays 64", "points numbered", "on roll",
                  "unfinished game", "Commands:"):
        assert words in english
        assert words not in other, words


@pytest.mark.parametrize(("language", "heading", "pips"), [
    ("fr", "partie 1, demi-coup 1 : Noir au trait (jacquet), position CAAA/z8AAID/Pw",
     "B (Noir) au trait : pips 360, sorties 0 | W : pips 340, sorties 0"),
    ("ru", "партия 1, полуход 1: Чёрные: ход (jacquet), позиция CAAA/z8AAID/Pw",
     "B (Чёрные) ходит: пунктов 360, выброшено 0 | W: пунктов 340, выброшено 0"),
])
def test_show_draws_the_board_in_the_language(language, heading, pips):
    sample = ROOT / "samples" / "openings" / "jacquet-opening-5-5.jqn"
    result = CliRunner().invoke(main, ["--lang", language, "show", str(sample), "--ply", "1"])
    assert result.exit_code == 0, result.output
    first, *_, last = result.output.splitlines()
    assert first == f"{sample}, {heading}"
    assert last == pips


@pytest.mark.parametrize(("language", "said"), [
    ("en", "1 game written to "), ("fr", "1 partie écrite dans "), ("ru", "1 партия записана в ")])
def test_convert_says_what_it_wrote_in_the_language(language, said, tmp_path):
    sample = ROOT / "samples" / "openings" / "jacquet-opening-5-5.jqn"
    target = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["--lang", language, "convert", str(sample), str(target)])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(said + str(target))
