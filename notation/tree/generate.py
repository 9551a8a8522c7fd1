"""Random legal games, for samples, tests and benchmarks: ``jacquet generate``.

The playing policy is simple: a uniformly random legal play. Games follow the game-level
rules: the lead roll decides who starts (and is the first roll in ``versailles`` and
``backgammon``, doublet leads played by both in ``versailles``), dice are passed under
R-PASS. There is no doubling. With ``annotate=True`` some turns get a comment, a NAG or a
one-turn variation (another legal play for the same roll). Everything comes from the
seed, so the same seed gives the same games.
"""

from __future__ import annotations

import random

from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.play import Play
from notation.engine.rules import RuleSet
from notation.engine.state import PASSED, ROLL, TurnKind
from notation.tree.game import Game, GameNode, Node
from notation.tree.tags import lead_roll_text

COMMENTS = (
    "The courier is away.", "A quiet move.", "Safer was to wait {and see}.",
    "Both dice played: nothing lost.", "Ouch!", "Tempo matters here \\ there.",
    "He keeps his talon.", "Now the race is on.", "Bold: the block is legal here.",
)
NAGS = (1, 2, 3, 4, 5, 6, 10, 13, 14, 15)


def lead_rolls(rules: RuleSet, rng: random.Random) -> list[tuple[int, int]]:
    """A lead roll, (White's die, Black's die): rolled again on a tie, the ties kept where
    the rule set plays them (``doublet_leads``: R-LEADDICE); the last roll is no tie."""
    rolls = []
    while True:
        white, black = rng.randint(1, 6), rng.randint(1, 6)
        if white != black:
            rolls.append((white, black))
            return rolls
        if rules.doublet_leads:
            rolls.append((white, black))


def random_game(rules: RuleSet, rng: random.Random, annotate: bool = False,
                max_turns: int = 20000, headers: dict[str, str] | None = None) -> Game:
    """A random legal game under ``rules``, played to its end (or ``max_turns``)."""
    leads = lead_rolls(rules, rng)
    game = Game(rules, headers=headers, lead_rolls=tuple(leads))
    game.headers["LeadRoll"] = lead_roll_text(leads)
    node: Node = game
    for _ in range(max_turns):
        state = node.state
        if state.over:
            break
        kind: TurnKind
        if state.passed is not None:
            kind, dice = PASSED, state.passed
        else:
            kind = ROLL
            dice = state.forced[0][1] if state.forced else Dice(rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(state.position, dice, rules)
        play = rng.choice(plays)
        child = node.add_turn(kind, dice, str(play))
        if annotate:
            _annotate(rng, node, child, kind, dice, plays, play)
        node = child
    game.headers["Result"] = game.result
    return game


def _annotate(rng: random.Random, parent: Node, child: GameNode, kind: TurnKind, dice: Dice,
              plays: list[Play], chosen: Play) -> None:
    roll = rng.random()
    if roll < 0.08:
        child.comments.append(rng.choice(COMMENTS))
    if roll < 0.05:
        child.nags.append(rng.choice(NAGS))
    others = [p for p in plays if p is not chosen]
    if others and rng.random() < 0.03:
        alternative = parent.add_turn(kind, dice, str(rng.choice(others)))
        if rng.random() < 0.5:
            alternative.comments.append(rng.choice(COMMENTS))
        if rng.random() < 0.3:
            alternative.starting_comments.append("Or:")
