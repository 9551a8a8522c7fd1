"""The worked openings of the rules digest, each with the plays it refuses checked by the
engine (section 3 for jacquet)."""

from __future__ import annotations

from builder.common import headers, opponent_point, plays_of, refused
from notation import rule_set
from notation.engine.board import MEN
from notation.engine.dice import Dice
from notation.engine.state import ROLL
from notation.tree.game import Game


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



# The worked openings of narde (rules digest, section 9) and fevga (section 10): each is
# White's first turn, with the plays the engine refuses and the rule it names.
OPENINGS = {
    "narde": (
        (1, "66", "24/18(2)", (("24/18(3)", "R-HEAD"), ("24/18/12", "R-OPEN")),
         ("The only legal play: two men leave the head and the other two 6s are lost. In a "
         "player's first turn 6-6, 4-4 and 3-3 let two men leave the head (R-HEAD), never "
         "three, so 24/18(3) is refused with R-HEAD. Neither man may go on to 12: that is "
         "Black's head, and a single man closes a point (R-OPEN), so 24/18/12 is refused "
         "too. R-MAX asks for the most steps that can be played: two here.")),
        (2, "44", "24/16(2)", (("24/16/12", "R-OPEN"), ("24/20(3)", "R-HEAD")),
         ("The only legal play: two men leave the head (the first-turn exception of R-HEAD) "
         "and each takes two of the 4s. A third 4 for either would land on 12, Black's "
         "head (R-OPEN), and a third man may not leave the head (R-HEAD): 24/16/12 and "
         "24/20(3) are refused.")),
        (3, "33", "24/18(2)", (("24/21(4)", "R-HEAD"), ("24/12", "R-OPEN")),
         ("One of two legal plays: with 3-3 two men may leave the head in the first turn "
         "(R-HEAD), and R-MAX asks for all four 3s, so either both men take two steps, "
         "24/18(2), or one takes one and the other three. A third man may not leave "
         "(24/21(4) is refused with R-HEAD), and one man may not take all four, as the "
         "fourth lands on 12, Black's head (24/12 is refused with R-OPEN).")),
        (4, "65", "24/13", (("24/18 24/19", "R-HEAD"),),
         ("The only legal play: one man takes both dice, resting on 18 or 19. 6-5 is no "
         "doublet, so only one man may leave the head (R-HEAD): 24/18 24/19 is refused.")),
    ),
    "fevga": (
        (1, "66", "24/18", (("24/18(2)", "R-RUNNER"), ("24/18/12", "R-OPEN")),
         ("The only legal play: one 6, and the other three are lost. The first man off the "
         "head is the runner, and no other man leaves the head until he has passed Black's "
         "head (R-RUNNER), so 24/18(2) is refused. His own next 6 would land on 12, Black's "
         "head, closed by a single man (R-OPEN): 24/18/12 is refused too.")),
        (2, "55", "24/9 24/19", (("24/19(2)", "R-RUNNER"), ("24/14(2)", "R-RUNNER")),
         ("One of two legal plays. With three 5s the runner reaches 9: he has passed Black's "
         "head (White's 12), his phase is over, and R-RUNNER releases the men die by die, "
         "so the last 5 is free and a second man leaves the head. 24/19(2) or 24/14(2) "
         "would bring the second man off before the runner has passed: both are refused "
         "with R-RUNNER.")),
        (3, "65", "24/13", (("24/18 24/19", "R-RUNNER"),),
         ("The only legal play: the runner takes both dice, resting on 18 or 19. A second man "
         "may not leave the head while the runner has not passed Black's head (R-RUNNER): "
         "24/18 24/19 is refused.")),
    ),
}
SECTIONS = {"narde": 9, "fevga": 10}


def relative_openings(variant: str) -> list[tuple[str, Game]]:
    """The worked openings of ``variant``, each as (file name, game)."""
    return [(f"{variant}-opening-{case[1][0]}-{case[1][1]}.jqn", worked_opening(variant, case))
            for case in OPENINGS[variant]]


def worked_opening(variant: str, case: tuple) -> Game:
    """One worked opening: White's first turn, the refused plays checked with the engine,
    and every other legal play as a variation."""
    number, roll, play, refusals, text = case
    rules = rule_set(variant)
    dice = Dice.parse(roll)
    section = SECTIONS[variant]
    game = Game(rules, headers=headers(
        f"Worked opening {dice.high}-{dice.low} ({variant}, rules digest, section {section}, "
        f"case {number})", variant, white="Sample White", black="Sample Black"),
        lead_rolls=((4, 2),))
    game.headers["LeadRoll"] = "W4 B2"
    game.headers["Result"] = "*"
    for bad, rule_id in refusals:
        refused(game, dice, bad, rule_id)
    legal = plays_of(game, dice)
    assert play in legal, legal
    game.comments.append(
        f"White won the lead, 4 against 2, and throws {dice.high}-{dice.low} for his first "
        "turn (the lead dice are not played). Points are counted along each player's own "
        "route: 24 is his head, where his fifteen men start, and 1 his last point; White's "
        "12 is Black's 24, Black's head.")
    first = game.add_turn(ROLL, dice, play)
    if len(legal) == 1:
        first.nags.append(7)
    first.comments.append(text)
    for other in legal:
        if other != play:
            variation = game.add_turn(ROLL, dice, other)
            variation.comments.append(f"The other legal play: {other}.")
    return game
