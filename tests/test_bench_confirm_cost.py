"""``bench/confirm_cost.py``: a candidate net is measured on the games of its own rule set,
and one the run has no game for is refused by name before any analysis."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from analysis.shipped import shipped_path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import confirm_cost  # noqa: E402


@pytest.mark.parametrize(("variant", "only"), [("hale", None), ("jacquet", "backgammon")])
def test_a_net_without_a_game_of_its_rule_set_is_refused(variant: str, only: str | None,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(confirm_cost, "measure", lambda *a: pytest.fail("measured"))
    argv = ["--net", str(shipped_path(variant))] + (["--only", only] if only else [])
    with pytest.raises(SystemExit) as stopped:
        confirm_cost.main(argv)
    assert stopped.value.code == 2
    assert f"a {variant} net, and no {variant} game is measured" in capsys.readouterr().err


def test_each_net_is_measured_on_its_own_rule_set_s_games(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[tuple[str, str, str | None]] = []
    monkeypatch.setattr(confirm_cost, "measure",
                        lambda label, games, settings, path=None:
                        measured.append((games[0].rules.name, label, path)))
    jacquet, backgammon = str(shipped_path("jacquet")), str(shipped_path("backgammon"))
    confirm_cost.main(["--settings", "none", "--games", "1", "--net", backgammon, "--net", jacquet])
    assert [(rules, path) for rules, _, path in measured] == [
        ("jacquet", None), ("jacquet", jacquet), ("backgammon", None), ("backgammon", backgammon)]
