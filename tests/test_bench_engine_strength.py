"""bench/engine_strength.py's players: ``net:PATH`` is the net alone, ``netr:PATH`` (``--race``)
the net with the shipped race net beside it, as the engine judges (a contact net fitted to
contact positions alone is measured as it would be used)."""

from __future__ import annotations

from pathlib import Path

from bench.engine_strength import describe, make_player

SHIPPED = Path(__file__).resolve().parent.parent / "analysis" / "nets" / "backgammon.npz"


def test_a_net_plays_alone_or_with_the_shipped_race_net() -> None:
    alone = make_player(f"net:{SHIPPED}", "backgammon")
    with_race = make_player(f"netr:{SHIPPED}", "backgammon")
    assert alone.net.race is None  # type: ignore[attr-defined]
    assert with_race.net.race is not None  # type: ignore[attr-defined]
    race = with_race.net.race.name  # type: ignore[attr-defined]  # the shipped release, "race r2"
    assert race.startswith("race r")
    assert with_race.name.endswith(f"+ {race}, 0-ply") and "race" not in alone.name
    assert f"+ {race} (" in describe(f"netr:{SHIPPED}") and "race" not in describe(f"net:{SHIPPED}")
