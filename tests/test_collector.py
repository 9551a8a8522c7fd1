"""The garbage collector's settings for reading many games (jacquet_cli.collector): set
while a command reads, as they were once it is done."""

from __future__ import annotations

import gc

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from jacquet_cli.collector import FULL_COLLECTION_EVERY, YOUNG_COLLECTION_AFTER, reading_many_games


@pytest.fixture
def default_collector():
    """CPython's usual settings around the test, whatever ran before."""
    threshold = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_collections_are_rarer_and_start_up_frozen_while_reading(default_collector):
    with reading_many_games():
        assert gc.get_threshold() == (YOUNG_COLLECTION_AFTER, 10, FULL_COLLECTION_EVERY)
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_a_block_inside_another_leaves_the_outer_ones_settings(default_collector):
    with reading_many_games():
        frozen = gc.get_freeze_count()
        with reading_many_games():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
        assert gc.get_threshold() == (YOUNG_COLLECTION_AFTER, 10, FULL_COLLECTION_EVERY)
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == (700, 10, 10)


def test_what_a_server_froze_stays_frozen(default_collector):
    gc.freeze()
    frozen = gc.get_freeze_count()
    with reading_many_games():
        pass
    assert gc.get_freeze_count() == frozen


def test_the_settings_come_back_when_reading_fails(default_collector):
    with pytest.raises(ValueError), reading_many_games():
        raise ValueError("a file that cannot be read")
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0


@pytest.mark.parametrize("command", ["validate", "convert"])
def test_commands_read_with_the_settings(default_collector, monkeypatch, tmp_path, command):
    seen = []

    def read_file(*args, **kwargs):
        seen.append(gc.get_threshold())
        return []

    monkeypatch.setattr("jacquet_cli.reading.read_file", read_file)
    source = tmp_path / "games.jqn"
    source.write_text("", encoding="utf-8")
    arguments = [str(source)] + ([str(tmp_path / "out.json")] if command == "convert" else [])
    CliRunner().invoke(main, [command, *arguments])
    assert seen and seen[0] == (YOUNG_COLLECTION_AFTER, 10, FULL_COLLECTION_EVERY)
    assert gc.get_threshold() == (700, 10, 10)


def test_only_the_command_line_and_the_benchmarks_tune_the_collector():
    """The collector's tuning belongs to the processes that read many games: the commands
    (and the server that ``jacquet serve`` starts), and the benchmarks that time them. No
    library module (notation, archive, webviewer) imports it."""
    import re
    from pathlib import Path

    root = Path(__file__).parents[1]
    importing = re.compile(r"^\s*(from\s+jacquet_cli(\.collector)?\s+import\s+.*\b(collector|"
                           r"settle_for_serving|reading_many_games)\b|import\s+jacquet_cli\.collector"
                           r"|from\s+\.+collector\s+import)", re.MULTILINE)
    found = {path.relative_to(root).as_posix() for package in ("notation", "archive", "webviewer",
                                                               "jacquet_cli", "bench")
             for path in (root / package).rglob("*.py")
             if importing.search(path.read_text(encoding="utf-8"))}
    assert found and all(name.startswith(("jacquet_cli/", "bench/")) for name in found), found
    assert "jacquet_cli/serve.py" in found
