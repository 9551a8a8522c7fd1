"""The command line's last English lines in French and Russian (issue 36): the
administration's (``users``, ``serve``'s exposure, ``check``), an archive's analysis
(``import --analyse``), the ``.mat`` writer's refusal, ``rollout``'s and ``legal``'s
refusals, ``train``'s and ``train-contact``'s usage errors. Each line is the message its id
names, with its parameters, in the language asked (``jacquet --lang``); the wording is
checked once, in ``test_the_wording_in_each_catalog``."""

from __future__ import annotations

import json

import pytest

from notation.messages import Message
from tests.cli_language_helpers import TRANSLATED, run, said

GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n[Variant "backgammon"]\n'
        '[Match "{match}"]\n[MatchLength "3"]\n\n1. 31: 8/5 6/5 *\n')


@pytest.mark.parametrize("language", TRANSLATED)
def test_users_speak_the_language_asked(tmp_path, language):
    db = str(tmp_path / "club.db")
    missing = run(language, "users", "list", "--db", db)
    assert missing.exit_code == 2
    assert said(language, "cli.users.no-archive", path=db) in missing.output
    assert run(language, "import", "samples/backgammon/annotated-game.jqn", "--db", db).exit_code == 0
    assert said(language, "cli.users.none") in run(language, "users", "list", "--db", db).output
    added = run(language, "users", "add", "Marie", "--role", "scorer", "--password-stdin", "--db", db,
                input="secret\n")
    assert added.exit_code == 0 and said(language, "cli.users.added", name="Marie", role=Message.of("account.role.scorer")) in added.output
    taken = run(language, "users", "add", "Marie", "--role", "scorer", "--password-stdin", "--db", db,
                input="secret\n")
    assert taken.exit_code == 1 and said(language, "account.taken", name="'Marie'") in taken.output
    renewed = run(language, "users", "passwd", "Marie", "--password-stdin", "--db", db, input="other\n")
    assert said(language, "cli.users.new-password", name="Marie") in renewed.output
    unknown = run(language, "users", "passwd", "Paul", "--password-stdin", "--db", db, input="x\n")
    assert unknown.exit_code == 1 and said(language, "account.unknown", name="'Paul'") in unknown.output
    removed = run(language, "users", "remove", "Marie", "--db", db)
    assert said(language, "cli.users.removed", name="Marie") in removed.output
    checked = run(language, "check", "--db", db)
    assert checked.exit_code == 0 and said(language, "cli.check.ok", path=db) in checked.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_server_open_to_the_network_says_what_it_exposes_in_the_language(language):
    from jacquet_cli.serve import exposure
    from notation import messages

    messages.set_language(language)
    try:
        lines = exposure("0.0.0.0", "club.db", 2, ["localhost", "club.example.org"]).splitlines()
        without = exposure("0.0.0.0", "club.db", 0, ["localhost"]).splitlines()
    finally:
        messages.set_language("en")
    assert lines == ["warning: " + said(language, "cli.serve.exposed", host="0.0.0.0"),
                     "  " + said(language, "cli.serve.accounts", count=2),
                     "  " + said(language, "cli.serve.in-clear"),
                     "  " + said(language, "cli.serve.hosts", names="localhost, club.example.org")]
    assert without[1] == "  " + said(language, "cli.serve.no-accounts", path="club.db")


@pytest.mark.parametrize("language", TRANSLATED)
def test_import_analyse_says_its_summary_in_the_language(tmp_path, language):
    db = str(tmp_path / "club.db")
    args = ["import", "samples/backgammon/annotated-game.jqn", "--db", db, "--analyse", "--jobs", "1"]
    first = run(language, *args)
    assert first.exit_code == 0, first.output
    assert said(language, "cli.import.analysed", count=1, skipped=0) in first.output
    again = run(language, *args)
    assert said(language, "cli.import.analysed", count=0, skipped=1) in again.output
    wrong = run(language, "import", "samples/backgammon/annotated-game.jqn", "--db", db, "--ply", "1")
    assert wrong.exit_code == 2 and said(language, "cli.import.analyse-only") in wrong.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_mat_file_of_two_matches_is_refused_in_the_language(tmp_path, language):
    record = tmp_path / "two.jqn"
    record.write_text(GAME.format(match="Spring") + "\n" + GAME.format(match="Autumn"), encoding="utf-8")
    answer = run(language, "convert", str(record), str(tmp_path / "two.mat"))
    assert answer.exit_code == 1 and not (tmp_path / "two.mat").exists()
    assert said(language, "format.mat.one-match", count=2) in answer.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_legal_refuses_in_the_language_and_gives_programs_the_id(language):
    nothing = run(language, "legal", "--variant", "backgammon")
    assert nothing.exit_code == 2 and said(language, "cli.legal.no-dice") in nothing.output
    option = run(language, "legal", "--variant", "backgammon", "--dice", "31", "--option", "cube")
    assert option.exit_code == 2 and said(language, "cli.option.form", option="'cube'") in option.output
    lines = [json.loads(line) for line in run(language, "legal", "--batch", input='\n[1]\n{"dice": 5.5}\n'
                                              '{"dice": "31", "options": 1}\n{"dice": "31", "position": 7}\n'
                                              '{"variant": "backgammon"}\n').output.splitlines()]
    ids = ["cli.legal.empty", "cli.legal.not-object", "cli.legal.dice", "cli.legal.options",
           "cli.legal.position", "cli.legal.needs-dice"]
    assert [line["id"] for line in lines] == ids
    assert [line["error"] for line in lines] == [said(language, found) for found in ids]


@pytest.mark.parametrize("language", TRANSLATED)
def test_rollout_refuses_a_die_and_an_illegal_play_in_the_language(language):
    die = run(language, "rollout", "--variant", "backgammon", "--dice", "3")
    assert die.exit_code == 2 and said(language, "cli.rollout.two-dice", dice="'3'") in die.output
    play = run(language, "rollout", "--variant", "backgammon", "--dice", "31", "--play", "24/18")
    assert play.exit_code == 2
    assert said(language, "cli.rollout.not-legal", play="'24/18'", dice="31", reason="", legal="").split(":")[0] \
        in play.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_training_usage_errors_in_the_language(tmp_path, language):
    checkpoint = tmp_path / "none.npz"
    resumed = run(language, "train", "--variant", "jacquet", "--games", "10", "--resume", "-o", str(checkpoint),
                  "--quiet")
    assert resumed.exit_code == 2 and said(language, "cli.train.no-checkpoint", path=checkpoint) in resumed.output
    real = run(language, "train-contact", "--variant", "jacquet", "--real", "100", "-o", str(tmp_path / "c.npz"))
    assert real.exit_code == 2 and said(language, "cli.train.needs-records") in real.output


@pytest.mark.parametrize(("language", "taken", "refused"), [
    ("fr", "le nom 'Marie' est déjà pris", "un fichier .mat contient un seul match ; ces parties viennent de 2"),
    ("ru", "имя 'Marie' уже занято", "файл .mat содержит один матч; эти партии из матчей: 2"),
])
def test_the_wording_in_each_catalog(language, taken, refused):
    """The catalogs' words, once: what the other tests find by id and parameters."""
    assert said(language, "account.taken", name="'Marie'") == taken
    assert said(language, "format.mat.one-match", count=2).startswith(refused)
