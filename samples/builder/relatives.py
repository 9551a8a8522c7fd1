"""The events of ``narde`` and ``fevga`` games, for the annotator: the head (R-HEAD), six
points in a row (R-SIXBLOCK), the runner (R-RUNNER), the own starting quarter
(R-HOMEQUARTER). Which of them a game shows is read from its rule set's step rules and
phases, every fact from the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from builder.common import dice_text, men, refusal
from notation.engine.board import TALON
from notation.engine.movegen import TurnRules
from notation.engine.rules.base import StepContext
from notation.engine.rules.bouchon import find_block
from notation.engine.rules.sixblock import lowest_man
from notation.engine.state import ROLL, Colour

if TYPE_CHECKING:
    from builder.annotator import Annotator
    from notation.tree.game import GameNode

HEAD = TALON


def events(annotator: Annotator) -> None:
    """Comment the events the game's rule set has: each rule is known by its id."""
    rules = annotator.rules
    steps = {rule.rule_id for rule in rules.step_rules}
    if "R-HEAD" in steps:
        head(annotator)
    if "R-SIXBLOCK" in steps:
        six_block(annotator)
    for phase in rules.phases:
        if phase.rule_id == "R-RUNNER":
            runner(annotator)
    if "R-HOMEQUARTER" in steps:
        home_quarter(annotator)


def left_head(annotator: Annotator, node: GameNode) -> int:
    """How many men left the head in the turn of ``node``."""
    return annotator.before(node).mover[HEAD] - node.turn.play.result.mover[HEAD]


def head(annotator: Annotator) -> None:
    """Each player's first turn (two men off the head with 6-6, 4-4 or 3-3), then the
    first later turn in which a second man could have left the head but may not."""
    rolls = [n for n in annotator.rolls() if n.turn.kind == ROLL]
    for colour in Colour:
        first = next(n for n in rolls if n.turn.player is colour)
        player, _ = annotator.who(first)
        dice = first.turn.dice
        gone = left_head(annotator, first)
        if gone == 2:
            die = dice.high
            three = f"24/{24 - die}(3)"
            rule = refusal(first.parent, dice, three)
            assert rule is not None and rule[0] == "R-HEAD", rule
            first.comments.append(
                f"{player}'s first turn, and a {dice_text(dice)}: the one time two men may "
                f"leave the head in a turn (R-HEAD, the first-turn exception for 6-6, 4-4 and "
                f"3-3), and R-MAX makes it compulsory here. A third man may not: {three} is "
                "refused with R-HEAD.")
    for node in rolls[2:]:
        dice = node.turn.dice
        before = annotator.before(node)
        if dice.is_doublet or before.mover[HEAD] < 2 or left_head(annotator, node) != 1:
            continue
        both = f"24/{24 - dice.high} 24/{24 - dice.low}"
        rule = refusal(node.parent, dice, both)
        if rule is None or rule[0] != "R-HEAD":
            continue
        player, _ = annotator.who(node)
        node.comments.append(
            f"{player} takes one man off the head, and only one may leave it in a turn "
            f"(R-HEAD): {both} would take a second, and the engine refuses it. "
            f"{men(node.turn.play.result.mover[HEAD])} still wait there.")
        return
    raise AssertionError("no turn shows R-HEAD")


def six_block(annotator: Annotator) -> None:
    """The first turn that makes six points in a row: allowed, because an opposing man
    has already passed them (R-SIXBLOCK)."""
    rules = annotator.rules
    for node in annotator.rolls():
        if node.turn.kind != ROLL or not node.turn.play.steps:
            continue
        before = annotator.before(node)
        after = node.turn.play.result
        mover, opponent = after.mover, after.opponent
        ctx = StepContext(rules, before, before.mover, mover, opponent, 0, 0)
        start = StepContext(rules, before, before.mover, before.mover, before.opponent, 0, 0)
        block = find_block(ctx)
        if block is None or find_block(start) is not None:
            continue
        lowest = lowest_man(opponent)
        assert find_block(ctx, below=lowest) is None
        player, other = annotator.who(node)
        points = ", ".join(str(p) for p in block[::-1])
        past = ("has borne a man off" if lowest == 0
                else f"has a man on his {lowest} (my {rules.opposite[lowest]})")
        node.comments.append(
            f"{player} now holds six points in a row ({points}, along {other}'s route). "
            f"R-SIXBLOCK allows it: {other} {past}, already past them. Before any of his "
            "men had passed, the step that made the sixth point would have been refused.")
        return
    raise AssertionError("no turn makes six points in a row")


def runner(annotator: Annotator) -> None:
    """Each runner's start, and the turn it passes the opponent's head (R-RUNNER, released
    die by die)."""
    phase = next(p for p in annotator.rules.phases if p.rule_id == "R-RUNNER")
    for colour in Colour:
        turns = [n for n in annotator.rolls() if n.turn.player is colour and n.turn.play.steps]
        first = turns[0]
        player, other = annotator.who(first)
        board = annotator.boards(first)
        stop = max(p for p in range(1, HEAD) if board[-1][p])
        if phase.holds(board[-1]):
            first.comments.append(
                f"{player}'s first man leaves the head and stops on {stop}: he is the runner, "
                f"and no other man may move until he has passed {other}'s head, my 12, "
                "onto points 11-1 (R-RUNNER).")
        for node in turns:
            board = annotator.boards(node)
            if phase.holds(board[0]) and not phase.holds(board[-1]):
                runner_passes(annotator, node, board, phase.holds)
                break


def runner_passes(annotator: Annotator, node: GameNode, board: list[tuple[int, ...]],
                  holds: Callable[[tuple[int, ...]], bool]) -> None:
    """The turn in which the runner passes the opponent's head: the dice after that step
    are free for any man (R-RUNNER, die by die)."""
    steps = node.turn.play.steps
    player, other = annotator.who(node)
    index = next(i for i in range(len(steps)) if not holds(board[i + 1]))
    arrival = steps[index]
    text = (f"{player}'s runner passes {other}'s head and reaches {arrival.to_point}: the "
            "runner's phase is over and every man is free (R-RUNNER).")
    others = [s for s in steps[index + 1:] if s.from_point != arrival.to_point]
    if others:
        text += (" The rule releases the men die by die, so the rest of this roll is free "
                 f"already: {', '.join(str(s) for s in others)}.")
    node.comments.append(text)
    annotator.variation(node, annotator.prefer_different(node), 1)


def home_quarter(annotator: Annotator) -> None:
    """The first turn in which a step is refused because it would fill all six points
    24-19 (R-HOMEQUARTER)."""
    for node in annotator.rolls():
        if node.turn.kind != ROLL:
            continue
        before = annotator.before(node)
        dice = node.turn.dice
        turn = TurnRules(annotator.rules, before, dice)
        for point in range(24, 18, -1):
            for die in sorted(set(dice.values), reverse=True):
                if not before.mover[point] or not point - die >= 19:
                    continue
                if turn.step(before.mover, before.opponent, point, die)[0] != "R-HOMEQUARTER":
                    continue
                text = f"{point}/{point - die}"
                rule = refusal(node.parent, dice, text)
                assert rule is not None, text
                player, _ = annotator.who(node)
                node.comments.append(
                    f"{player} may not play {text}: {point - die} would be the last of his "
                    "points 24-19 to be held, and no step may leave all six of them held "
                    "(R-HOMEQUARTER; there is no exception).")
                return
    raise AssertionError("no turn shows R-HOMEQUARTER")
