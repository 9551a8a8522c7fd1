"""Players and matches: legal choices, exact outcomes for game-ending plays, 1-ply,
duplicate dice."""

from __future__ import annotations

import pytest

from analysis.match import DiceStream, duplicate_match, play_game
from analysis.network import Network
from analysis.players import HeuristicPlayer, NetPlayer, RandomPlayer
from analysis.ranking import LookaheadPlayer
from analysis.threads import limit_blas_threads
from notation import Position, legal_plays, rule_set

limit_blas_threads(1)


def _bear_off_choice() -> tuple[list, Position]:
    """Men on 6 and 1, roll 6-1: ``6/off 1/off`` wins (2 points: the opponent has none
    off); ``6/5/off`` leaves the man on 1."""
    position = Position.from_points({6: 1, 1: 1}, {24: 15})
    plays = legal_plays(position, "61", "jacquet")
    finished = [p.result.mover[0] == 15 for p in plays]
    assert any(finished) and not all(finished)
    return plays, position


@pytest.mark.parametrize("make", [NetPlayer, LookaheadPlayer])
def test_net_players_take_the_win(make):
    plays, position = _bear_off_choice()
    net = Network.create("jacquet", 8, seed=3)
    player = NetPlayer(net) if make is NetPlayer else LookaheadPlayer(net, rule_set("jacquet"))
    assert plays[player.choose(plays, position, (False, False))].result.mover[0] == 15


@pytest.mark.parametrize("variant", ["jacquet", "murray", "backgammon"])
def test_heuristic_and_random_make_legal_games(variant):
    rules = rule_set(variant)
    result = play_game(rules, HeuristicPlayer(rules), RandomPlayer(4), DiceStream(9))
    assert result.winner in (0, 1) and rules.score_range[0] <= result.points <= rules.score_range[1]
    again = play_game(rules, HeuristicPlayer(rules), RandomPlayer(4), DiceStream(9))
    assert again == result  # seeded: the same game


def test_duplicate_dice_cancel_between_equal_players():
    """A deterministic player against itself on each dice stream twice, seats swapped,
    wins exactly one game of every pair."""
    rules = rule_set("hale")
    result = duplicate_match(rules, HeuristicPlayer(rules), HeuristicPlayer(rules), pairs=3, seed=2)
    assert result.games == 6 and result.wins == 3
    assert result.win_rate == 0.5 and result.standard_error == 0.0
    assert result.points_per_game == 0.0
