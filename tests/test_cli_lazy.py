"""The quick commands: ``jacquet --help`` and ``jacquet legal`` import neither Flask, lxml
nor sqlite-utils (the commands are loaded lazily, jacquet_cli.LazyGroup), and the lazy
listing says what the commands themselves say."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from jacquet_cli import COMMANDS, load_command, main

HEAVY = ("flask", "lxml", "sqlite_utils", "waitress", "werkzeug", "jinja2")

PROBE = """
import json, sys
from jacquet_cli import main
try:
    main(sys.argv[1:], prog_name="jacquet")
except SystemExit as stop:
    code = stop.code
else:
    code = 0
print(json.dumps({"exit": code, "modules": sorted(sys.modules)}))
"""


def run_in_fresh_interpreter(*arguments: str) -> tuple[str, dict]:
    """What ``jacquet ARGUMENTS`` prints, and the probe's last line: its exit code and every
    module imported by then, in a new interpreter."""
    result = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True,
                            timeout=60, check=True, env={**os.environ, "COLUMNS": "80"})
    *printed, last = result.stdout.splitlines()
    return "\n".join(printed), json.loads(last)


def heavy_in(modules: list[str]) -> list[str]:
    return [name for name in modules if name.split(".")[0] in HEAVY]


def test_help_imports_no_heavy_library():
    printed, probe = run_in_fresh_interpreter("--help")
    assert probe["exit"] == 0 and "Commands:" in printed
    assert heavy_in(probe["modules"]) == []
    assert not [name for name in probe["modules"] if name.startswith(("notation", "archive", "webviewer"))]


def test_a_legal_query_imports_no_heavy_library():
    printed, probe = run_in_fresh_interpreter("legal", "--variant", "jacquet", "--dice", "65")
    assert probe["exit"] == 0 and printed == "24/13"
    assert heavy_in(probe["modules"]) == []
    assert "jacquet_cli.legal" in probe["modules"]
    assert not [name for name in probe["modules"] if name.startswith("jacquet_cli.") and name not in
                ("jacquet_cli.legal", "jacquet_cli.options")]


def test_a_command_that_reads_records_does_load_them():
    """The probe sees imports: a command that needs lxml (through notation.formats) has it."""
    _, probe = run_in_fresh_interpreter("validate", "--help")
    assert "lxml" in heavy_in(probe["modules"])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listing_says_what_each_command_says(name):
    """Each summary in COMMANDS is the first paragraph of the command's help, shortened
    alike at any width; and the command is the one the name says."""
    command = load_command(COMMANDS[name][0])
    assert command.name == name
    assert not command.hidden and not command.deprecated and command.short_help is None
    summary = click.Command(name, help=COMMANDS[name][1])
    for limit in (20, 45, 60, 80, 120, 400):
        assert summary.get_short_help_str(limit) == command.get_short_help_str(limit), limit


def test_the_listing_is_the_same_lazy_or_loaded(monkeypatch):
    """``jacquet --help`` in a new interpreter (no command loaded) reads as it does here once
    every command is loaded, and lists every command."""
    printed, _ = run_in_fresh_interpreter("--help")
    monkeypatch.setenv("COLUMNS", "80")  # the width the new interpreter had
    context = click.Context(main, info_name="jacquet", **main.context_settings)
    assert main.list_commands(context) == sorted(COMMANDS)
    for name in main.list_commands(context):
        assert main.get_command(context, name) is not None
    assert main.get_help(context) == printed


def test_analysing_files_loads_no_archive_library():
    """``jacquet analyse FILE`` declares the archive's options but opens no archive: it
    imports no sqlite-utils (a third of a second of its start)."""
    game = Path(__file__).resolve().parents[1] / "samples" / "backgammon" / "annotated-game.jqn"
    printed, probe = run_in_fresh_interpreter("analyse", str(game), "--json", "--confirm", "none")
    assert probe["exit"] == 0 and json.loads(printed.splitlines()[0])["variant"] == "backgammon"
    # (lxml comes with the record formats, which the command reads)
    assert [name for name in heavy_in(probe["modules"]) if not name.startswith("lxml")] == []


def test_a_ranking_at_0_ply_loads_no_numba():
    """``jacquet legal --rank`` judges one turn's plays: numpy alone, not the fast core's
    kernels (numba's import and their loading cost about a second of CPU); 1-ply, which
    plays the opponent's 21 rolls, loads them."""
    printed, probe = run_in_fresh_interpreter("legal", "--variant", "backgammon", "--dice", "31",
                                              "--rank", "--json")
    assert probe["exit"] == 0 and json.loads(printed)[0]["play"] == "8/5 6/5"
    assert "numba" not in probe["modules"]
    _, deeper = run_in_fresh_interpreter("legal", "--variant", "backgammon", "--dice", "31",
                                         "--rank", "--ply", "1", "--json")
    assert deeper["exit"] == 0 and "numba" in deeper["modules"]
