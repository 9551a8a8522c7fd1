#!/usr/bin/env python3
"""Build the sample records under ``samples/`` with the project's own engine.

Run it from anywhere (``python3 samples/build_samples.py``). It is deterministic: every
game comes from fixed moves or from a fixed seed, and every file is written by the
canonical writer, so running it again rewrites identical files.

What it writes (see ``samples/README.md``):

* ``openings/``: the worked openings 5-5 and 6-6 of the rules digest (section 3);
* ``<variant>/annotated-game.jqn``: one complete generated game per rule set, with
  comments derived from the engine's state, NAGs and variations;
* ``matches/jacquet-match.jqn``: a short match of complete jacquet games;
* ``generated/<variant>-10.jqn``: ``jacquet generate --games 10 --seed 1 --annotate``;
* ``errors/one-of-each.jqn``: one deliberate error of each kind, one per game.

Every comment that states a fact about a position is computed from the engine (legal
plays, the position after each step, the score) and the claims about refused plays are
checked here with :func:`notation.engine.checker.check_play` before anything is written.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jacquet_cli import main as jacquet_command  # noqa: E402
from notation import legal_plays, rule_set  # noqa: E402
from notation.engine.board import (  # noqa: E402
    BAR,
    MEN,
    OFF,
    TALON,
    point_name,
)
from notation.engine.checker import check_play  # noqa: E402
from notation.engine.dice import Dice  # noqa: E402
from notation.engine.movegen import TurnRules, moves_of  # noqa: E402
from notation.engine.rules import NAMES, courier_phase  # noqa: E402
from notation.engine.state import DOUBLE, DROP, PASSED, ROLL, TAKE, Colour  # noqa: E402
from notation.errors import IllegalPlayError  # noqa: E402
from notation.formats import write_file  # noqa: E402
from notation.formats.jqn import write_game  # noqa: E402
from notation.tree.game import Game, GameNode  # noqa: E402
from notation.tree.generate import random_game  # noqa: E402

DATE = "2026.11.30"
SITE = "Generated sample"
ANNOTATOR = "jacquet samples"
VARIANTS = NAMES
JACQUET_FAMILY = ("jacquet", "murray", "versailles", "hale")
NUMBERS = ("none", "one", "two", "three", "four", "five", "six")

# The seeds of the annotated games, chosen for what happens in them (checked below).
ANNOTATED_SEEDS = {"jacquet": 59, "murray": 6, "versailles": 6, "hale": 17, "backgammon": 28}
# The jacquet match: one seed per game, played until a player reaches MATCH_LENGTH.
MATCH_SEEDS = (101, 102, 103, 104, 105)
MATCH_LENGTH = 5


# -- helpers ------------------------------------------------------------------------------


def headers(event: str, variant: str, round_: str = "1", white: str = "Random White",
            black: str = "Random Black") -> dict[str, str]:
    return {"Event": event, "Site": SITE, "Date": DATE, "Round": round_, "White": white,
            "Black": black, "Variant": variant, "Annotator": ANNOTATOR}


def plays_of(node: GameNode, dice: Dice) -> list[str]:
    """The legal plays, as text, for the player to act at ``node`` with ``dice``."""
    return [str(p) for p in legal_plays(node.state.position, dice, node.root().rules)]


def refused(node: GameNode, dice: Dice, text: str, rule_id: str) -> str:
    """Check that ``text`` is illegal at ``node`` for ``rule_id``; return the reason."""
    try:
        check_play(node.state.position, dice, text, node.root().rules)
    except IllegalPlayError as error:
        assert error.rule_id == rule_id, (text, error)
        return error.reason
    raise AssertionError(f"{text} with {dice} is legal")


def count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def men(n: int) -> str:
    return count(n, "man", "men")


def and_list(items) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def dice_text(dice: Dice) -> str:
    return "-".join(str(v) for v in dice.values)


def opponent_point(rules, point: int) -> int:
    return rules.opposite[point]


# -- 1. the worked openings ---------------------------------------------------------------


def opening_five_five() -> Game:
    rules = rule_set("jacquet")
    game = Game(rules, headers=headers("Worked opening 5-5 (rules digest, section 3, case 2)",
                                       "jacquet", white="Sample White", black="Sample Black"),
                lead_rolls=((5, 2),))
    game.headers["LeadRoll"] = "W5 B2"
    game.headers["Result"] = "*"
    five_five = Dice(5, 5)
    assert plays_of(game, five_five) == ["24/19/14/9/4"]
    refused(game, five_five, "24/19(2) 24/14", "R-COURIER")
    refused(game, five_five, "24/14(2)", "R-COURIER")
    game.comments.append(
        "White won the lead, 5 against 2, and throws 5-5 for his first turn. Points are "
        "counted along each player's own route: 24 is his talon, where his fifteen men "
        "start, and 1 his last point; White's 24 is Black's 12 and the other way round.")
    first = game.add_turn(ROLL, five_five, "24/19/14/9/4")
    first.nags.append(7)
    first.comments.append(
        "The only legal play. A doublet gives four steps of 5 (R-DOUBLET), and at the "
        "start only one man may leave the talon, the courier, who alone moves until he "
        "reaches the home quarter, points 6-1 (R-COURIER). So all four 5s go to him: "
        "24/19/14/9/4, twenty points in one throw, every rest point open, and he is home "
        "on 4 at once. This is why the Breton text calls 5-5 the best opening throw.")
    first.comments.append(
        "Splitting the 5s looks possible but is not: 24/19(2) 24/14 or 24/14(2) would "
        "bring a second man off the talon while the courier is still on his way, and the "
        "engine refuses both with R-COURIER. That is why they appear here only in a "
        "comment: a variation must be a legal play.")
    black_roll = Dice(6, 4)
    assert plays_of(first, black_roll) == ["24/14"]
    reply = first.add_turn(ROLL, black_roll, "24/14")
    reply.comments.append(
        "Black's courier leaves in his turn and stops on his 14 (White's 2); Black's "
        "other fourteen men wait on his talon until this man is home.")
    roll = Dice(6, 3)
    legal = plays_of(reply, roll)
    assert legal == ["24/18 24/21", "24/15", "24/18 4/1"], legal
    second = reply.add_turn(ROLL, roll, "24/18 24/21")
    second.comments.append(
        "White's courier reached home last turn, so his courier phase is over and every "
        "man is free: two men leave the talon at once, which R-COURIER forbade until now. "
        f"There are {len(legal)} legal plays for this 6-3.")
    both = reply.add_turn(ROLL, roll, "24/15")
    both.comments.append("One man may also take both dice, resting on 18 or 21.")
    courier = reply.add_turn(ROLL, roll, "24/18 4/1")
    courier.comments.append("Or the courier goes on to 1 with the 3 while a new man "
                            "leaves with the 6.")
    return game


def opening_six_six() -> Game:
    rules = rule_set("jacquet")
    game = Game(rules, headers=headers("Worked opening 6-6 (rules digest, section 3, case 1)",
                                       "jacquet", white="Sample White", black="Sample Black"),
                lead_rolls=((4, 2),))
    game.headers["LeadRoll"] = "W4 B2"
    game.headers["Result"] = "*"
    six_six = Dice(6, 6)
    assert plays_of(game, six_six) == ["24/18"]
    refused(game, six_six, "24/18/12", "R-OPEN")
    refused(game, six_six, "24/18(2)", "R-COURIER")
    refused(game, six_six, "24/18(4)", "R-COURIER")
    assert game.state.position.opponent[opponent_point(rules, 12)] == MEN
    game.comments.append(
        "White won the lead, 4 against 2, and throws 6-6 for his first turn. Points are "
        "counted along each player's own route: 24 is his talon and 1 his last point; "
        "White's 12 is Black's 24, Black's talon, where all fifteen black men stand.")
    first = game.add_turn(ROLL, six_six, "24/18")
    first.nags.append(7)
    first.comments.append(
        "The only legal play: one 6, and the other three 6s are lost. The courier's next "
        "6 would land on 12, Black's talon, closed by his fifteen men: in jacquet a single "
        "opposing man closes a point (R-OPEN). No other man may leave the talon while the "
        "courier is on his way (R-COURIER). R-MAX asks for as many steps as can be played, "
        "and here that is one.")
    first.comments.append(
        "24/18/12, 24/18(2) or 24/18(4) may look like ways to use the doublet, but the "
        "engine refuses the first with R-OPEN and the others with R-COURIER, so they are "
        "named here in a comment only: a variation must be a legal play. The Breton text "
        "says the same: with 6-6 first one plays only one 6, because the opponent's men "
        "are on the twelfth point.")
    roll = Dice(5, 3)
    assert plays_of(first, roll) == ["24/16"]
    reply = first.add_turn(ROLL, roll, "24/16")
    reply.comments.append("Black's courier leaves and stops on his 16 (White's 4).")
    roll = Dice(5, 2)
    assert plays_of(reply, roll) == ["18/11"]
    second = reply.add_turn(ROLL, roll, "18/11")
    second.comments.append("Still White's courier phase: only the courier moves.")
    roll = Dice(4, 1)
    assert plays_of(second, roll) == ["16/15/11"]
    refused(second, roll, "16/12/11", "R-OPEN")
    black_second = second.add_turn(ROLL, roll, "16/15/11")
    black_second.comments.append(
        "The rest point must be written: with the 4 first Black's courier would stop on "
        "his 12, which is White's talon and closed (R-STEP, R-OPEN); only 16/15/11 is "
        "legal.")
    roll = Dice(6, 5)
    legal = plays_of(black_second, roll)
    assert legal == ["11/5 24/19", "11/6 24/18"], legal
    third = black_second.add_turn(ROLL, roll, "11/5 24/19")
    third.comments.append(
        "With the 6 the courier lands on 5, in the home quarter. The courier phase is "
        "judged before every single step (R-COURIER, release die by die), so the 5 is "
        "already free and a second man leaves the talon in the same turn.")
    other = black_second.add_turn(ROLL, roll, "11/6 24/18")
    other.comments.append("The other legal play: the 5 brings the courier home on 6 and "
                          "the 6 is free for a new man.")
    return game


# -- 2. the annotated games -----------------------------------------------------------------


class Annotator:
    """Comments, NAGs and variations for a generated game, each derived from the engine:
    the position before and after every step, the legal plays, the score."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.name = game.rules.name
        self.nodes = list(game.mainline())
        self.nags = 0
        self.offers: list = []
        self.first_home = True
        self.variations: list[GameNode] = []

    # facts about a turn

    @staticmethod
    def before(node: GameNode):
        return node.parent.state.position

    def legal(self, node: GameNode):
        return legal_plays(self.before(node), node.turn.dice, self.rules)

    @staticmethod
    def boards(node: GameNode):
        """The mover's board after each step of the turn, starting with the board before."""
        board = list(node.parent.state.position.mover)
        out = [tuple(board)]
        for step in node.turn.play.steps:
            board[step.from_point] -= 1
            board[step.to_point] += 1
            out.append(tuple(board))
        return out

    def who(self, node: GameNode) -> tuple[str, str]:
        return node.turn.player.title, node.turn.player.other.title

    def rolls(self):
        return [n for n in self.nodes if n.turn.kind in (ROLL, PASSED)]

    # the events

    def run(self) -> None:
        self.game.comments.append(self.intro())
        if self.name in JACQUET_FAMILY:
            self.courier()
        self.doublet()
        if self.name in ("murray", "backgammon"):
            self.hit()
        if self.name == "versailles":
            self.passed()
        self.empty_play()
        self.bear_off()
        self.forced_nags()
        self.end()
        self.first_choices()
        self.add_variations()

    def intro(self) -> str:
        seed = ANNOTATED_SEEDS[self.name]
        text = (f"A complete {self.name} game of random legal plays, generated by "
                f"samples/build_samples.py from seed {seed}; the comments are derived from "
                "the engine's positions and legal plays. Points are counted along each "
                "player's own route, 24 to 1; 0 is off and 25 the bar. ")
        if self.name in JACQUET_FAMILY:
            text += ("Both sides start with fifteen men on their 24, the talon, and run the "
                     "same way round: my point p is the opponent's p-12 or p+12.")
        else:
            text += ("Backgammon set-up: 2 men on 24, 5 on 13, 3 on 8, 5 on 6; the sides run "
                     "opposite ways, my point p being the opponent's 25-p.")
        if any(n.turn.kind == DOUBLE for n in self.nodes):
            text += (" The random policy never doubles: the double and the take were added by "
                     "the script.")
        text += " $7 marks a forced play: the only legal play for the roll."
        return text

    def courier(self) -> None:
        for colour in Colour:
            turns = [n for n in self.rolls() if n.turn.player is colour and n.turn.play.steps]
            first = turns[0]
            board = self.boards(first)
            assert self.before(first).mover[TALON] == MEN
            stop = max(p for p in range(1, TALON) if board[-1][p])
            player, _other = self.who(first)
            if all(courier_phase(b) for b in board):
                first.comments.append(
                    f"{player}'s first man leaves the talon and stops on {stop}: he is the "
                    f"courier, and no other man may move until he reaches points 6-1 "
                    "(R-COURIER).")
            for node in turns:
                board = self.boards(node)
                if courier_phase(board[0]) and not courier_phase(board[-1]):
                    self.courier_home(node, board)
                    break

    def courier_home(self, node: GameNode, board) -> None:
        steps = node.turn.play.steps
        player, _ = self.who(node)
        index = next(i for i in range(len(steps)) if not courier_phase(board[i + 1]))
        arrival = steps[index]
        assert 1 <= arrival.to_point <= 6
        text = (f"{player}'s courier reaches {arrival.to_point}, in his home quarter: the "
                "courier phase is over and the other men are released (R-COURIER).")
        rest = steps[index + 1:]
        if rest:
            others = [s for s in rest if s.from_point != arrival.to_point]
            text += (" The rule releases them die by die, so the rest of this roll is "
                     "already free")
            if others:
                text += (f", and {player} uses it at once to move "
                         f"{'another man' if len(others) == 1 else 'other men'}: "
                         f"{', '.join(str(s) for s in others)}.")
            else:
                text += "; here the courier himself goes on with it."
        node.comments.append(text)
        self.variation(node, self.prefer_different(node), 1 if self.first_home else 4)
        self.first_home = False

    def doublet(self) -> None:
        for node in self.rolls():
            dice = node.turn.dice
            if not dice.is_doublet or node.turn.kind != ROLL or not node.turn.play.steps:
                continue
            if self.name == "versailles" and dice.high in (4,):
                continue  # 4-4 gives four steps either way: show a doublet that differs
            player, _other = self.who(node)
            steps = len(node.turn.play.steps)
            if self.name == "versailles":
                full = dice.high
                text = (f"A doublet: in versailles {dice_text(dice)} gives {dice.high} steps of "
                        f"{dice.high}, not four (R-DOUBLET-SQUARED).")
            else:
                full = 4
                text = f"A doublet gives four steps of {dice.high} (R-DOUBLET)."
            if steps < full:
                lost = full - steps
                text += (f" Only {steps} can be played here; the other {NUMBERS[lost]} "
                         f"{'is' if lost == 1 else 'are'} lost, as R-MAX asks only for the "
                         "most steps that can be played.")
            else:
                text += f" {player} plays all {steps}."
            node.comments.append(text)
            self.variation(node, self.prefer_different(node), 3)
            return

    def hit(self) -> None:
        for index, node in enumerate(self.nodes):
            play = node.turn.play
            if play is None or not any(s.hit for s in play.steps):
                continue
            player, other = self.who(node)
            step = next(s for s in play.steps if s.hit)
            their = opponent_point(self.rules, step.to_point)
            node.comments.append(
                f"{player} lands on {step.to_point}, where {other} had a lone man (his "
                f"{their}): the blot is hit and goes to the bar (R-HIT).")
            self.variation(node, self.prefer(node, lambda p: not any(s.hit for s in p.steps)), 0)
            reply = self.nodes[index + 1]
            while reply.turn.kind != ROLL:
                reply = self.nodes[self.nodes.index(reply) + 1]
            assert reply.turn.player is node.turn.player.other
            entering = [s for s in reply.turn.play.steps if s.from_point == BAR]
            before = self.before(reply)
            assert before.mover[BAR] >= 1
            if entering:
                step = entering[0]
                where = f"on {step.to_point}"
                if self.name == "murray" and step.to_point == TALON:
                    where += ", his talon (in murray a 1 enters there)"
                move = next(m for m in moves_of(reply.turn.play.steps) if m[0] is step)
                if len(move) > 1:
                    where += f" and goes on to {point_name(move[-1].to_point)}"
                text = (f"{other} must bring the man on the bar in before anything else "
                        f"moves (R-BAR): with the {step.die} he enters {where}.")
                self.variation(reply, self.prefer_different(reply), 6)
            else:
                text = (f"{other} cannot enter from the bar with {dice_text(reply.turn.dice)}: "
                        "every entry point these dice give is closed, and while a man is on "
                        "the bar nothing else may move, so the roll is lost (R-BAR).")
            if self.name == "murray" and courier_phase(before.mover):
                text += (" The man hit was his courier and no other man had left the talon, "
                         "so he is still in his courier phase.")
            reply.comments.append(text)
            return

    def passed(self) -> None:
        shown = 0
        for node in self.nodes:
            if node.turn.kind != ROLL or node.state.passed is None or shown >= 2:
                continue
            player, other = self.who(node)
            dice, passed = node.turn.dice, node.state.passed
            steps = node.turn.play.steps
            if steps:
                text = (f"{player} can play only the {steps[0].die} of his {dice_text(dice)}: "
                        f"the {passed} is not lost but passed to {other}, who plays it before "
                        "his own roll (R-PASS).")
            else:
                text = (f"{player} can play neither die of his {dice_text(dice)}: both are "
                        f"passed to {other}, who plays them before his own roll (R-PASS).")
            node.comments.append(text)
            following = node.next()
            assert following.turn.kind == PASSED and following.turn.dice == passed
            if following.turn.play.steps:
                following.comments.append(
                    f"{other} plays the passed {dice_text(passed)}, written with '>', then rolls.")
            else:
                following.comments.append(
                    f"{other} cannot play the passed {dice_text(passed)} either: it is lost "
                    "(dice passed once are never passed back).")
            shown += 1
        assert shown, "the versailles sample should show R-PASS"

    def empty_play(self) -> None:
        """The first turn (after the openings) in which no die can be played, and why."""
        for node in self.rolls()[4:]:
            if node.turn.play.steps or node.turn.kind != ROLL:
                continue
            if self.name == "versailles":
                return  # explained with R-PASS
            before = self.before(node)
            turn = TurnRules(self.rules, before, node.turn.dice)
            broken = set()
            for point in range(BAR, 0, -1):
                if before.mover[point]:
                    for die in set(node.turn.dice.values):
                        rule_id = turn.step(before.mover, before.opponent, point, die)[0]
                        assert rule_id is not None
                        broken.add(rule_id)
            player, _ = self.who(node)
            names = " or ".join(sorted(broken))
            node.comments.append(
                f"No die of {dice_text(node.turn.dice)} can be played: every single step "
                f"{player} could try is refused ({names}), so the whole roll is lost and the "
                "play is written '-'.")
            return

    def bear_off(self) -> None:
        for colour in Colour:
            node = next((n for n in self.rolls() if n.turn.player is colour
                         and any(s.to_point == OFF for s in n.turn.play.steps)), None)
            if node is None:
                continue  # the loser of a 2-point game bore off none
            player, _ = self.who(node)
            steps = node.turn.play.steps
            index = next(i for i, s in enumerate(steps) if s.to_point == OFF)
            step = steps[index]
            board = self.boards(node)[index]
            assert not any(board[7:26])
            if step.die == step.from_point:
                how = f"from {step.from_point} with the exact {step.die}"
            else:
                how = (f"from {step.from_point}, his rear-most point, with a {step.die}, "
                       "larger than it")
                assert not any(board[step.from_point + 1:7])
            text = (f"{player} bears off his first man, {how}: all fifteen are now on "
                    "points 6-1 or off, as bearing off requires ")
            text += "(R-BEAROFF, R-BEAROFF-REAR)." if self.name == "murray" else "(R-BEAROFF)."
            if self.name == "murray":
                text += (" In murray only men on the rear-most point may be borne off, with a "
                         "die at least as large as that point.")
            node.comments.append(text)
            self.variation(node, self.prefer_different(node, off=True),
                           2 if colour is Colour.WHITE else 5)

    def first_choices(self) -> None:
        """Offer a variation at each player's first turn with a real choice."""
        for colour in Colour:
            for node in self.rolls():
                if node.turn.player is colour and len(self.legal(node)) > 1:
                    self.variation(node, self.prefer_different(node), 7)
                    break

    def forced_nags(self) -> None:
        """$7 on the first forced plays (one legal play, not empty), at most three."""
        for node in self.rolls():
            if self.nags >= 3:
                return
            if node.turn.play.steps and len(self.legal(node)) == 1:
                node.nags.append(7)
                self.nags += 1

    def end(self) -> None:
        node = self.nodes[-1]
        state = node.state
        assert state.over and state.ended_by == "bear-off"
        final = node.turn.play.result  # seen by the winner
        loser = final.opponent
        winner, other = state.winner.title, state.winner.other.title
        off = loser[OFF]
        text = f"{winner} bears off his fifteenth man and wins. "
        if self.name in ("jacquet", "versailles"):
            points = 2 if off == 0 else 1
            text += (f"{other} has borne off {off if off else 'none'}, so {winner} scores "
                     f"{count(points, 'point')} (R-SCORE: 2 when the loser has borne off "
                     "none, otherwise 1).")
        elif self.name == "murray":
            if off:
                points = 1
                text += f"{other} has borne off {off}: a single game, 1 point (R-SCORE-MARCIA)."
            elif state.prime_held[state.winner.index]:
                points = 2
                text += (f"{other} has borne off none: marcia, 2 points; {winner} held a "
                         "prime during the game, so not per punto (R-SCORE-MARCIA).")
            else:
                points = 3
                text += (f"{other} has borne off none, and {winner} never held a prime (six "
                         "consecutive points of his route with two or more men each) at any "
                         "moment of the game: marcia per punto, 3 points (R-SCORE-MARCIA).")
        elif self.name == "hale":
            quarters = [("the first table (24-19)", range(19, 25), 3),
                        ("the second table (18-13)", range(13, 19), 2),
                        ("the third table (12-7)", range(7, 13), 1),
                        ("the home table (6-1)", range(1, 7), 1)]
            parts, points = [], 0
            for label, points_range, rate in quarters:
                n = sum(loser[p] for p in points_range)
                if n:
                    parts.append(f"{men(n)} in {label} at {count(rate, 'point')} each = "
                                 f"{n * rate}")
                    points += n * rate
            text += (f"{other} pays for every man he has left (R-SCORE-HALE): "
                     f"{'; '.join(parts)}. In all {count(points, 'point')}.")
        else:
            cube = state.cube
            if off:
                kind, base = "a single game", 1
            elif loser[BAR] or any(loser[p] for p in range(19, 25)):
                kind, base = "a backgammon", 3
            else:
                kind, base = "a gammon", 2
            points = base * cube
            text += f"{other} has borne off {off if off else 'none'}: {kind}, {base}"
            if base == 2:
                text += (f" ({other} bore off none but has no man on the bar or in "
                         f"{winner}'s home board)")
            text += f", times the cube at {cube}: {count(points, 'point')}."
        assert points == state.points, (points, state.points)
        node.comments.append(text)

    # variations

    def prefer(self, node: GameNode, wanted):
        chosen = node.turn.play
        others = [p for p in self.legal(node) if p.result != chosen.result]
        good = [p for p in others if wanted(p)]
        return (good or others or [None])[0]

    def prefer_different(self, node: GameNode, off: bool = False):
        chosen = node.turn.play
        if off:
            return self.prefer(node, lambda p: p.result.mover[OFF] != chosen.result.mover[OFF])
        return self.prefer(node, lambda p: True)

    def variation(self, node: GameNode, play, priority: int) -> None:
        """Offer another legal play for the same roll as a variation; the best three
        offers (lowest ``priority``, then earliest) are added by :meth:`add_variations`."""
        if play is not None:
            self.offers.append((priority, node.ply, node, play))

    def add_variations(self) -> None:
        """The three best offers, at most one per turn."""
        chosen: list = []
        for offer in sorted(self.offers, key=lambda o: o[:2]):
            if len(chosen) < 3 and all(offer[2] is not c[2] for c in chosen):
                chosen.append(offer)
        for _, _, node, play in chosen:
            chosen = node.turn.play
            total = len(self.legal(node))
            alternative = node.parent.add_turn(node.turn.kind, node.turn.dice, str(play))
            alternative.comments.append(
                f"Another of the {total} legal plays for this {dice_text(node.turn.dice)}: "
                + self.difference(self.before(node).mover, chosen, play) + ".")
            self.variations.append(alternative)

    def difference(self, start, chosen, other) -> str:
        """What the other play does differently, in words, from the two results."""
        a, b = chosen.result.mover, other.result.mover
        hits_a = sum(s.hit for s in chosen.steps)
        hits_b = sum(s.hit for s in other.steps)
        if hits_a != hits_b:
            return (f"it hits {count(hits_b, 'blot') if hits_b else 'nothing'}"
                    + (f" instead of {count(hits_a, 'blot')}" if hits_a else ""))
        if a[OFF] != b[OFF]:
            return (f"it bears off {men(b[OFF] - start[OFF]) if b[OFF] > start[OFF] else 'none'}"
                    f" instead of {a[OFF] - start[OFF]}")
        if a[TALON] != b[TALON] and self.name in JACQUET_FAMILY:
            return f"it leaves {men(b[TALON])} on the talon instead of {a[TALON]}"
        blots_a = sum(1 for p in range(1, 25) if a[p] == 1)
        blots_b = sum(1 for p in range(1, 25) if b[p] == 1)
        if self.rules.hitting and blots_a != blots_b:
            return f"it leaves {count(blots_b, 'blot')} instead of {blots_a}"
        return (f"the men it moves stop on {and_list(stops(other))} instead of "
                f"{and_list(stops(chosen))}")


def stops(play) -> list[str]:
    """Where each man moved by ``play`` ends its move, from the rear."""
    return sorted((point_name(move[-1].to_point) for move in moves_of(play.steps)),
                  key=lambda name: -int(name) if name.isdigit() else 0)


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


def lead_rolls(tags: dict[str, str]) -> tuple[tuple[int, int], ...]:
    """``[LeadRoll "W4 B4, W5 B3"]`` as ((4, 4), (5, 3))."""
    rolls = []
    for part in tags["LeadRoll"].split(","):
        white, black = part.split()
        rolls.append((int(white[1]), int(black[1])))
    return tuple(rolls)


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


# -- 5. one error of each kind ----------------------------------------------------------------


def error_headers(number: int, rule: str, variant: str = "jacquet", result: str = "*",
                  extra: dict[str, str] | None = None) -> dict[str, str]:
    tags = {"Event": f"Error sample {number}: {rule}", "Site": SITE, "Date": DATE,
            "Round": str(number), "White": "Sample White", "Black": "Sample Black",
            "Result": result, "Variant": variant}
    tags.update(extra or {})
    return tags


def tag_lines(tags: dict[str, str]) -> str:
    return "".join(f'[{name} "{value}"]\n' for name, value in tags.items())


def turn_label(game: Game, node: GameNode) -> str:
    """The turn number for the next turn after ``node``, as the writer would put it."""
    white_rolls = sum(1 for n in [node, *_ancestors(node)]
                      if n.turn is not None and n.turn.player is Colour.WHITE
                      and n.turn.kind == ROLL)
    player = node.state.player
    number = white_rolls + (player is Colour.WHITE) + (game.first is Colour.BLACK)
    return f"{number}." if player is Colour.WHITE else f"{number}..."


def _ancestors(node: GameNode):
    while node.parent is not None and node.parent.turn is not None:
        node = node.parent
        yield node


def with_bad_turn(game: Game, node: GameNode, bad: str, explain: str,
                  check: tuple[Dice, str, str] | None = None) -> str:
    """``game`` cut after ``node`` (a legal prefix), then one bad turn on its own line.
    ``check`` = (dice, play, rule id): assert the engine refuses it for that rule."""
    if check is not None:
        dice, text, rule_id = check
        refused(node, dice, text, rule_id)
    del node.variations[:]
    game.comments.insert(0, explain)
    text = write_game(game)
    head, _, movetext = text.partition("\n\n")
    body = movetext.rstrip()
    assert body.endswith("*")
    body = body[:-1].rstrip()
    line = f"{turn_label(game, node)} {bad} *"
    return head + "\n\n" + (body + "\n" if body else "") + line + "\n"


def generated_prefix(variant: str, seed: int, plies: int, number: int, rule: str,
                     extra: dict[str, str] | None = None) -> tuple[Game, GameNode]:
    """The first ``plies`` turns of the random game of ``seed``, with error headers."""
    source = random_game(rule_set(variant), random.Random(seed))
    tags = error_headers(number, rule, variant, extra={"LeadRoll": source.headers["LeadRoll"]})
    tags.update(extra or {})
    game = Game(rule_set(variant), headers=tags, lead_rolls=lead_rolls(source.headers))
    node: GameNode = game
    for old in list(source.mainline())[:plies]:
        node = node.add_turn(old.turn.kind, old.turn.dice, str(old.turn.play))
    return game, node


def played(variant: str, moves: list[tuple[str, str]], number: int, rule: str,
           extra: dict[str, str] | None = None) -> tuple[Game, GameNode]:
    """A legal prefix from fixed rolls and plays (a cube action has no dice)."""
    tags = error_headers(number, rule, variant, extra=extra)
    game = Game(rule_set(variant), headers=tags,
                lead_rolls=lead_rolls(tags) if "LeadRoll" in tags else ())
    node: GameNode = game
    for dice, play in moves:
        if dice in (DOUBLE, TAKE, DROP):
            node = node.add_turn(dice)
        else:
            node = node.add_turn(ROLL, Dice.parse(dice), play)
    return game, node


def errors() -> str:
    games: list[str] = []

    def add(text: str) -> None:
        games.append(text)

    def number() -> int:
        return len(games) + 1

    # -- form of the record: SYNTAX and TAG
    add(tag_lines(error_headers(number(), "SYNTAX, unknown token")) + "\n"
        "{Deliberate error: a semicolon typed for the dot of a turn number; 2; is no token "
        "of the notation.}\n"
        "1. 53: 24/16 1... 42: 24/18 2; 61: 16/10 *\n")
    add(tag_lines(error_headers(number(), "SYNTAX, roll without play")) + "\n"
        "{Deliberate error: White's roll has no play; an empty play is written -.}\n"
        "1. 53: 1... 42: 24/18 *\n")
    add(tag_lines(error_headers(number(), "SYNTAX, unopened variation")) + "\n"
        "{Deliberate error: a ')' that closes no variation.}\n"
        "1. 53: 24/16 42: 24/18) *\n")
    add(tag_lines(error_headers(number(), "TAG, unknown Variant", variant="trictrac")) + "\n"
        "{Deliberate error: trictrac is not one of the rule sets.}\n"
        "1. 53: 24/16 *\n")
    add(tag_lines(error_headers(number(), "TAG, bad Result", result="1-0")) + "\n"
        "{Deliberate error: a chess result; write W+n, B+n or *.}\n"
        "1. 53: 24/16 *\n")
    add(tag_lines(error_headers(number(), "R-LEAD", extra={"Lead": "White",
                                                           "LeadRoll": "W2 B5"})) + "\n"
        "{Deliberate error: the lead roll W2 B5 gives the start to Black, not White.}\n"
        "1. 53: 24/16 *\n")

    # -- rules of a turn, jacquet
    game, node = played("jacquet", [], number(), "R-DICE")
    add(with_bad_turn(game, node, "53: 24/20", "Deliberate error: 24/20 is 4 pips; 5-3 gives "
                      "a 5 and a 3.", (Dice(5, 3), "24/20", "R-DICE")))
    game, node = played("jacquet", [], number(), "R-DOUBLET")
    add(with_bad_turn(game, node, "55: 24/13", "Deliberate error: 5-5 gives four steps of 5, "
                      "and 24/13 is 11 pips.", (Dice(5, 5), "24/13", "R-DOUBLET")))
    game, node = played("jacquet", [("53", "24/16"), ("42", "24/18")], number(), "R-EMPTY")
    assert plays_of(node, Dice(6, 2)) == ["16/8"]
    add(with_bad_turn(game, node, "62: 16/10 15/13", "Deliberate error: White has no man on "
                      "15 (his courier stands on 16).", (Dice(6, 2), "16/10 15/13", "R-EMPTY")))
    game, node = played("jacquet", [], number(), "R-OPEN")
    add(with_bad_turn(game, node, "66: 24/18/12", "Deliberate error: the courier's second 6 "
                      "would land on 12, Black's talon.", (Dice(6, 6), "24/18/12", "R-OPEN")))
    game, node = played("jacquet", [], number(), "R-COURIER")
    add(with_bad_turn(game, node, "53: 24/19 24/21", "Deliberate error: two men leave the "
                      "talon in the courier phase.", (Dice(5, 3), "24/19 24/21", "R-COURIER")))
    game, node = played("jacquet", [], number(), "R-MAX")
    add(with_bad_turn(game, node, "53: 24/19", "Deliberate error: only the 5 is played, though "
                      "the courier can play both dice.", (Dice(5, 3), "24/19", "R-MAX")))
    game, node = generated_prefix("jacquet", 5, 2, number(), "R-HIGH")
    assert node.state.player is Colour.WHITE and plays_of(node, Dice(2, 1)) == ["15/13"]
    add(with_bad_turn(game, node, "21: 15/14", "Deliberate error: with 2-1 only one die can "
                      "be played, and it must be the higher, the 2.",
                      (Dice(2, 1), "15/14", "R-HIGH")))
    game, node = played("jacquet", [("55", "24/19/14/9/4"), ("66", "24/18"),
                                    ("43", "24/21 24/20"), ("62", "-"),
                                    ("65", "24/18 24/19"), ("66", "-"),
                                    ("22", "24/22(4)"), ("62", "-")], number(), "R-POSTILION")
    add(with_bad_turn(game, node, "61: 24/18/17", "Deliberate error: White completes six "
                      "points in a row, 22 to 17, all ahead of Black's courier, which stands "
                      "on his 18 (White's 6) and is still on his way.",
                      (Dice(6, 1), "24/18/17", "R-POSTILION")))
    game, node = generated_prefix("jacquet", 168, 10, number(), "R-FIRSTQUARTER")
    board = node.state.position.mover
    assert node.state.player is Colour.WHITE and not board[1] and not board[22]
    assert all(board[p] for p in (24, 23, 21, 20, 19))
    add(with_bad_turn(game, node, "42: 24/20 24/22", "Deliberate error: White would hold all "
                      "six points 24-19 without holding his point 1.",
                      (Dice(4, 2), "24/20 24/22", "R-FIRSTQUARTER")))
    game, node = played("jacquet", [("55", "24/19/14/9/4"), ("31", "24/20")], number(),
                        "R-BEAROFF")
    add(with_bad_turn(game, node, "64: 24/18 4/off", "Deliberate error: a man is borne off "
                      "while fourteen are still outside the home quarter.",
                      (Dice(6, 4), "24/18 4/off", "R-BEAROFF")))
    source = random_game(rule_set("jacquet"), random.Random(55))
    assert source.result == "B+1" and source.end().state.position.opponent[OFF] == 1
    source.headers = error_headers(number(), "R-SCORE", result="B+2",
                                   extra={"LeadRoll": source.headers["LeadRoll"]})
    source.comments.append("Deliberate error: a complete game whose Result is wrong. White "
                           "has borne off one man, so Black wins 1 point, not 2.")
    add(write_game(source))

    # -- murray
    game, node = played("murray", [], number(), "R-HIT")
    add(with_bad_turn(game, node, "53: 24/16*", "Deliberate error: a hit is marked on an "
                      "empty point.", (Dice(5, 3), "24/16*", "R-HIT")))
    game, node = generated_prefix("murray", 26, 2, number(), "R-BAR")
    board = node.state.position.mover
    assert node.state.player is Colour.WHITE and board[BAR] == 1 and board[TALON] == MEN - 1
    add(with_bad_turn(game, node, "42: 24/20 24/22", "Deliberate error: White's courier is "
                      "on the bar and must enter before any other man moves.",
                      (Dice(4, 2), "24/20 24/22", "R-BAR")))
    game, node = generated_prefix("murray", 9, 10, number(), "R-CLOSE2")
    board = node.state.position.mover
    assert [p for p in range(24, 18, -1) if board[p] >= 2] == [24, 22] and board[20] == 1
    add(with_bad_turn(game, node, "64: 24/20 24/18", f"Deliberate error: {node.state.player.title} "
                      "already has two or more men on his 24 and 22; a second man on 20 would "
                      "close a third point of the starting table.",
                      (Dice(6, 4), "24/20 24/18", "R-CLOSE2")))
    game, node = generated_prefix("murray", 16, 15, number(), "R-MID2")
    assert node.state.player is Colour.WHITE and node.state.position.mover[13] == 2
    add(with_bad_turn(game, node, "65: 18/13 24/18", "Deliberate error: White already has "
                      "two men on 13.", (Dice(6, 5), "18/13 24/18", "R-MID2")))
    game, node = generated_prefix("murray", 43, 135, number(), "R-BEAROFF-REAR")
    board = node.state.position.mover
    assert node.state.player is Colour.WHITE and board[6] == 1 and not board[5] and board[4]
    assert not any(board[7:]) and plays_of(node, Dice(4, 2)) == ["6/4/off"]
    add(with_bad_turn(game, node, "42: 6/4 2/off", "Deliberate error: after 6/4 the rear-most "
                      "men are on 4; a man on 2 may not be borne off.",
                      (Dice(4, 2), "6/4 2/off", "R-BEAROFF-REAR")))
    game, node = generated_prefix("murray", 43, 135, number(), "R-WASTE")
    add(with_bad_turn(game, node, "42: 6/2 4/2", "Deliberate error: both dice are played "
                      "but no man is borne off, though one can be.",
                      (Dice(4, 2), "6/2 4/2", "R-WASTE")))

    # -- versailles, backgammon
    game, node = generated_prefix("versailles", 10, 3, number(), "R-PASS")
    assert str(node.turn) == "42: 18/14" and node.state.passed == Dice(2)
    assert node.turn.player is Colour.WHITE
    add(with_bad_turn(game, node, ">4: 15/11", "Deliberate error: White could play only the "
                      "4 of his 4-2, so the die passed to Black is the 2, not a 4."))
    # The cube games are written by hand: the writer numbers cube actions by roll turns
    # only ("2. take" for White's take in Black's turn 1), which would only confuse here.
    game, node = played("backgammon", [("52", "13/8 13/11"), (DOUBLE, ""), (TAKE, "")],
                        number(), "R-CUBE", extra={"LeadRoll": "W5 B2"})
    assert node.state.player is Colour.BLACK and node.state.cube_owner is Colour.WHITE
    add(tag_lines(game.headers) + "\n"
        "{Deliberate error: Black doubled and White took, so White owns the cube: Black "
        "cannot double again.}\n"
        "1. 52: 13/8 13/11 1... double take\n"
        "double *\n")
    game, node = played("backgammon", [("52", "13/8 13/11"), (DOUBLE, ""), (DROP, "")],
                        number(), "R-END", extra={"LeadRoll": "W5 B2"})
    assert node.state.over and node.state.winner is Colour.BLACK
    add(tag_lines(game.headers) + "\n"
        "{Deliberate error: White dropped Black's double, so the game is over; no turn may "
        "follow.}\n"
        "1. 52: 13/8 13/11 1... double drop\n"
        "2. 31: 8/5 6/5 *\n")
    # Last, because an unclosed comment runs to the end of the file.
    add(tag_lines(error_headers(number(), "SYNTAX, unclosed comment")) + "\n"
        "1. 53: 24/16 {this comment is never closed\n")
    return "\n".join(games)


# -- main -------------------------------------------------------------------------------------


def main() -> None:
    (HERE / "openings").mkdir(exist_ok=True)
    write_file([opening_five_five()], HERE / "openings" / "jacquet-opening-5-5.jqn")
    write_file([opening_six_six()], HERE / "openings" / "jacquet-opening-6-6.jqn")
    for variant in VARIANTS:
        (HERE / variant).mkdir(exist_ok=True)
        write_file([annotated(variant)], HERE / variant / "annotated-game.jqn")
    (HERE / "matches").mkdir(exist_ok=True)
    write_file(match(), HERE / "matches" / "jacquet-match.jqn")
    (HERE / "generated").mkdir(exist_ok=True)
    for variant in VARIANTS:
        generated(variant, HERE / "generated" / f"{variant}-10.jqn")
    (HERE / "errors").mkdir(exist_ok=True)
    (HERE / "errors" / "one-of-each.jqn").write_text(errors(), encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
