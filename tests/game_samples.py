"""Random legal games of every rule set with what random play does not make: cube
actions (backgammon), resignations, and comments that JSON and HTML must escape."""

from __future__ import annotations

import random

from notation import rule_set
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.rules import NAMES
from notation.engine.state import RESIGN, ROLL
from notation.tree.game import Game, GameNode
from notation.tree.generate import random_game


def _roll(node: GameNode, rng: random.Random) -> GameNode:
    """A random legal roll and play from ``node``."""
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    plays = legal_plays(node.state.position, dice, node.root().rules)
    return node.add_turn(ROLL, dice, str(rng.choice(plays)))


def _cube_and_resign(game: Game, rng: random.Random) -> None:
    """Doubles and takes along the main line of an unfinished backgammon game, a redouble
    dropped in a variation, and a resignation at the end."""
    node = game.end()
    for kind in ("double", "take"):
        node = node.add_turn(kind)
    node = _roll(node, rng)  # the doubler's roll: the cube's owner is to act
    rolled = _roll(node, rng)
    node.add_turn("double").add_turn("drop")
    node = rolled
    for _ in range(6):
        node = _roll(node, rng)
    node.add_turn(RESIGN, by=node.state.player.other)


def sample_games(seed: str, max_turns: int = 400) -> list[Game]:
    """Two games of each rule set (one annotated, with variations), seeded by ``seed``; the
    backgammon ones short of their end, then cube actions and a resignation added."""
    games = []
    for name in NAMES:
        for annotate in (False, True):
            rng = random.Random(f"{seed}:{name}:{annotate}")
            short = name == "backgammon"
            game = random_game(rule_set(name), rng, annotate=annotate,
                               max_turns=rng.randint(30, 60) if short else max_turns)
            if short:
                _cube_and_resign(game, rng)
            game.comments.append('Said "élan" <here> & \\ there\x01')
            game.end().comments.append("Fin ✓ \"quoted\"")
            games.append(game)
    return games
