"""The lost races' table of the fast core (``analysis.fast.outcomes``) kept on disk beside
the compiled kernels: a later process reads it instead of computing it again (a tenth of
the start of ``jacquet analyse``), and what it reads is what it would have computed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.fast import outcomes
from notation import rule_set


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(outcomes, "cache_folder", lambda: str(tmp_path / "kernels"))
    return tmp_path / "kernels"


@pytest.mark.parametrize("variant", ["backgammon", "murray", "versailles"])
def test_the_stored_table_is_the_computed_one_and_is_read_back(folder: Path, variant: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rule_set(variant)
    computed = outcomes.race_table(rules)
    assert np.array_equal(outcomes.stored_race_table(rules), computed)
    assert len(list(folder.glob("races-*.npy"))) == 1

    def not_again(_rules: object) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr(outcomes, "race_table", not_again)
    assert np.array_equal(outcomes.stored_race_table(rules), computed)


def test_rule_sets_and_their_options_keep_their_own_tables(folder: Path) -> None:
    tables = {name: outcomes.stored_race_table(rule_set(name)) for name in ("jacquet", "versailles")}
    assert len(list(folder.glob("races-*.npy"))) == 2
    for name, table in tables.items():
        assert np.array_equal(outcomes.stored_race_table(rule_set(name)), table)


@pytest.mark.parametrize("damage", [b"not an array", b"", np.zeros(3, np.int64).tobytes()])
def test_a_damaged_file_is_computed_again_and_replaced(folder: Path, damage: bytes) -> None:
    rules = rule_set("backgammon")
    outcomes.stored_race_table(rules)
    (stored,) = folder.glob("races-*.npy")
    stored.write_bytes(damage)
    assert np.array_equal(outcomes.stored_race_table(rules), outcomes.race_table(rules))
    assert np.array_equal(np.load(stored), outcomes.race_table(rules))
    assert [p.name for p in folder.iterdir()] == [stored.name]  # no partial file left


def test_a_change_to_its_sources_gives_another_file(folder: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The table is keyed by the sources it is computed from: edited, they name a new file
    (the old one, stale, is not read)."""
    rules = rule_set("backgammon")
    outcomes.stored_race_table(rules)
    source = tmp_path / "lost_races.py"
    source.write_text("# the lost races, edited\n")
    monkeypatch.setattr(outcomes, "_SOURCES", (*outcomes._SOURCES, str(source)))
    outcomes.stored_race_table(rules)
    assert len(list(folder.glob("races-*.npy"))) == 2


def test_a_table_that_cannot_be_written_leaves_no_partial_file(folder: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outcomes.os, "replace", full_disk)
    rules = rule_set("backgammon")
    assert np.array_equal(outcomes.stored_race_table(rules), outcomes.race_table(rules))
    assert list(folder.iterdir()) == []


def test_no_folder_or_a_folder_that_cannot_be_written_computes_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rule_set("backgammon")
    monkeypatch.setattr(outcomes, "cache_folder", lambda: "")
    assert np.array_equal(outcomes.stored_race_table(rules), outcomes.race_table(rules))
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setattr(outcomes, "cache_folder", lambda: str(blocked / "kernels"))
    assert np.array_equal(outcomes.stored_race_table(rules), outcomes.race_table(rules))
