"""Releasing game trees (``Game.release``, ``released``) and plays that let go of their
turn's rules once written: what long reads (validating, importing a large file) rely on
to return memory at once rather than at the garbage collector's next full pass."""

import gc
import io
import random

import pytest

from notation import rule_set
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.tree.game import Game, GameNode, released
from notation.tree.generate import random_game


@pytest.fixture
def no_collector():
    """The garbage collector off (after a collection of what earlier tests left): what is
    freed here is freed by reference counting."""
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def annotated_game(seed: int = 3) -> Game:
    return random_game(rule_set("jacquet"), random.Random(seed), annotate=True)


def nodes_alive() -> int:
    return sum(type(thing) is GameNode for thing in gc.get_objects())


def test_a_released_game_is_freed_with_its_last_reference(no_collector):
    before = nodes_alive()
    game = annotated_game()
    assert nodes_alive() - before > 50
    game.release()
    del game
    assert nodes_alive() == before


def test_an_unreleased_game_waits_for_the_collector(no_collector):
    # The reason release exists: a node and its parent keep each other alive.
    before = nodes_alive()
    game = annotated_game()
    del game
    assert nodes_alive() > before
    gc.collect()
    assert nodes_alive() == before


def test_release_unlinks_every_node_and_keeps_the_main_line_below_the_game():
    game = annotated_game()
    result, plies = game.result, game.end().ply
    game.release()
    assert all(node.parent is None for node in _every_node(game))
    assert game.result == result and game.end().ply == plies


def test_released_releases_each_game_when_the_next_is_asked_for():
    games = [annotated_game(seed) for seed in range(3)]
    seen = []
    for game in released(games):
        # The game in hand is whole: its turns still know their parents.
        assert game.end().parent is not None
        seen.append(game)
    assert seen == games
    assert all(node.parent is None for game in games for node in _every_node(game))


def test_released_over_the_reader_gives_the_same_games_as_reading():
    games = [annotated_game(seed) for seed in range(4)]
    record = "\n".join(write_game(game) for game in games).encode()

    def read():
        return read_games(io.BytesIO(record), GameBuilder)

    expected = [write_game(game) for game in read()]
    assert [write_game(game) for game in released(read())] == expected == [write_game(g) for g in games]


def test_a_written_play_lets_go_of_its_turn_rules():
    game = annotated_game()
    play = game.end().turn.play
    assert play.writer is not None
    text = play.notation
    assert text and play.writer is None and play.notation == text


def _every_node(game: Game):
    pending = list(game.variations)
    while pending:
        node = pending.pop()
        yield node
        pending.extend(node.variations)
