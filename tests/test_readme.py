"""The README keeps its promises: its first two commands, and every command documented."""

from pathlib import Path

import click

from jacquet_cli import main

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def shell_blocks():
    blocks, inside, current = [], False, []
    for line in README.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current))
                current = []
            inside = not inside
        elif inside:
            current.append(line)
    return blocks


def test_readme_starts_with_the_main_job_and_the_test_command():
    """The first command installs the project alone (no test extra) and serves; the second
    installs the test extra and runs the suite on both cores."""
    first, second = shell_blocks()[:2]
    assert "pip install -q -e . &&" in first and "[test]" not in first
    assert first.rstrip().endswith("jacquet serve")
    assert "pip install -q -e '.[test]'" in second and second.rstrip().endswith("pytest -n 2")


def test_ci_runs_the_readmes_test_command():
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    test_command = shell_blocks()[1].strip()
    assert test_command.replace(" -q", "") in ci.replace(" -q", "")


def test_ci_lints_then_runs_the_long_runs_after_the_readmes_command():
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    steps = [line for line in ci.splitlines() if line.startswith((".venv/bin/", "python3 -m venv"))]
    assert ".venv/bin/ruff check ." in steps and ".venv/bin/mypy" in steps
    assert steps.index(".venv/bin/mypy") < steps.index(shell_blocks()[1].strip())
    assert steps[-1] == ".venv/bin/python -m pytest -n 2 -m long"
    assert "set -euo pipefail" in ci


def test_every_command_is_documented():
    for name in main.list_commands(click.Context(main)):
        assert f"jacquet {name}" in README, name
