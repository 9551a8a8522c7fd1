"""The README keeps its promises: its first two commands, and every command documented."""

from pathlib import Path

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
    first, second = shell_blocks()[:2]
    assert "pip install" in first and "jacquet" in first
    assert "pip install" in second and "pytest" in second


def test_ci_runs_the_readmes_test_command():
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    test_command = shell_blocks()[1].strip()
    assert test_command.replace(" -q", "") in ci.replace(" -q", "")


def test_every_command_is_documented():
    for name in main.commands:
        assert f"jacquet {name}" in README, name
