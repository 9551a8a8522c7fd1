"""The complete games: the annotated game of each rule set, the jacquet match and the
generated files."""

from __future__ import annotations

import random
from pathlib import Path

from builder.annotator import Annotator
from builder.common import ANNOTATED_SEEDS, MATCH_LENGTH, MATCH_SEEDS, count, headers, lead_rolls
from jacquet_cli import main as jacquet_command
from notation import rule_set
from notation.engine.state import DOUBLE, ROLL, TAKE, Colour
from notation.tree.game import Game, GameNode
from notation.tree.generate import random_game


def add_cube(game: Game) -> Game:
    """Backgammon: replay ``game`` with a double by White and a take by Black inserted
    before White's roll the first time White leads the race by 20% or more (after the
    first ten turns)."""
    fresh = Game(game.rules, headers=dict(game.headers), lead_rolls=lead_rolls(game.headers))
    node: GameNode = fresh
    doubled = None
    for index, old in enumerate(game.mainline()):
        state = node.state
        if (doubled is None and index >= 10 and state.player is Colour.WHITE
                and old.turn.kind == ROLL):
            mine, theirs = state.position.pip_counts()
            if theirs >= mine * 1.2:
                node = node.add_turn(DOUBLE)
                node.comments.append(
                    f"White leads the race, {mine} pips to {theirs}, and doubles before his "
                    "roll: the cube is in the middle, so either player may (R-CUBE).")
                node = node.add_turn(TAKE)
                node.comments.append(
                    "Black takes: the stake is now 2, and Black owns the cube, so only he "
                    "may double next.")
                doubled = node
        node = node.add_turn(old.turn.kind, old.turn.dice, str(old.turn.play))
    assert doubled is not None
    fresh.headers["Result"] = fresh.result
    return fresh


def annotated(variant: str) -> Game:
    seed = ANNOTATED_SEEDS[variant]
    game = random_game(rule_set(variant), random.Random(seed),
                       headers=headers(f"Annotated {variant} sample game", variant))
    if variant == "backgammon":
        game = add_cube(game)
    Annotator(game).run()
    return game


# -- 3. a match -----------------------------------------------------------------------------


def match() -> list[Game]:
    games, score = [], [0, 0]
    for number, seed in enumerate(MATCH_SEEDS, 1):
        tags = headers(f"Sample jacquet match, game {number}", "jacquet", round_=str(number))
        tags.update({"Match": "Sample jacquet match", "MatchLength": str(MATCH_LENGTH),
                     "Game": str(number), "Score": f"{score[0]}-{score[1]}"})
        game = random_game(rule_set("jacquet"), random.Random(seed), headers=tags)
        state = game.end().state
        game.comments.append(
            f"Game {number} of a match to {MATCH_LENGTH} points, generated from seed {seed}; "
            f"score before it {score[0]}-{score[1]} (White first).")
        score[state.winner.index] += state.points
        game.end().comments.append(
            f"{state.winner.title} wins {count(state.points, 'point')}: the match score is "
            f"now {score[0]}-{score[1]}"
            + (f", and {state.winner.title} has reached {MATCH_LENGTH}: the match is over."
               if max(score) >= MATCH_LENGTH else "."))
        games.append(game)
        if max(score) >= MATCH_LENGTH:
            break
    assert 3 <= len(games) <= 5 and max(score) >= MATCH_LENGTH
    return games


# -- 4. generated games -----------------------------------------------------------------------


def generated(variant: str, path: Path) -> None:
    jacquet_command(["generate", "--variant", variant, "--games", "10", "--seed", "1",
                     "--annotate", "-o", str(path)], standalone_mode=False)

