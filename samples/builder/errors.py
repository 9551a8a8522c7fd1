"""The error file: one deliberate error of each kind, one per game, each refused by the
engine for the rule it was written to show."""

from __future__ import annotations

import random

from builder.common import DATE, SITE, lead_rolls, plays_of, refused
from builder.unblock import shut_in_game
from notation import rule_set
from notation.engine.board import BAR, MEN, OFF, TALON
from notation.engine.dice import Dice
from notation.engine.rules.fevga import shut_in, wall
from notation.engine.state import DOUBLE, DROP, ROLL, TAKE, Colour
from notation.formats.jqn import write_game
from notation.tree.game import Game, GameNode
from notation.tree.generate import random_game


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
    relatives(add, number)
    # Last, because an unclosed comment runs to the end of the file.
    add(tag_lines(error_headers(number(), "SYNTAX, unclosed comment")) + "\n"
        "1. 53: 24/16 {this comment is never closed\n")
    return "\n".join(games)


def relatives(add, number) -> None:
    """The rules of ``narde`` and ``fevga``: R-HEAD, R-SIXBLOCK, R-RUNNER, R-HOMEQUARTER,
    R-UNBLOCK."""
    game, node = played("narde", [("65", "24/13"), ("53", "24/16")], number(), "R-HEAD")
    add(with_bad_turn(game, node, "42: 24/20 24/22", "Deliberate error: two men leave the "
                      "head in White's second turn; one may leave it a turn.",
                      (Dice(4, 2), "24/20 24/22", "R-HEAD")))
    # Both sides bring one man a turn from the head to their 13-17: White's five points
    # 17-13 stand in front of every black man (Black's most advanced is on his 13).
    moves = [(roll, play) for roll, play in (("65", "24/13"), ("64", "24/14"), ("63", "24/15"),
                                             ("62", "24/16"), ("61", "24/17"))
             for _side in ("White", "Black")]
    game, node = played("narde", moves, number(), "R-SIXBLOCK")
    add(with_bad_turn(game, node, "51: 24/18", "Deliberate error: White's man from the head "
                      "lands on 18 and completes six points in a row, 18 to 13, with no black "
                      "man past them.", (Dice(5, 1), "24/18", "R-SIXBLOCK")))
    game, node = played("fevga", [], number(), "R-RUNNER")
    add(with_bad_turn(game, node, "53: 24/19 24/21", "Deliberate error: a second man leaves "
                      "the head before the runner has passed Black's head.",
                      (Dice(5, 3), "24/19 24/21", "R-RUNNER")))
    game, node = played("fevga", [("65", "24/13"), ("65", "24/13"), ("61", "13/7 24/23"),
                                  ("61", "13/6"), ("21", "24/22 24/23"), ("21", "24/22 24/23"),
                                  ("43", "24/20 24/21"), ("43", "24/20 24/21")],
                        number(), "R-HOMEQUARTER")
    board = node.state.position.mover
    assert all(board[p] for p in range(20, 25)) and not board[19]
    add(with_bad_turn(game, node, "51: 24/19 7/6", "Deliberate error: White holds 24 to 20; "
                      "a man on 19 would fill all six points of his starting quarter.",
                      (Dice(5, 1), "24/19 7/6", "R-HOMEQUARTER")))
    game, node = shut_in_game(error_headers(number(), "R-UNBLOCK", "fevga",
                                            extra={"LeadRoll": "W4 B2"}))
    rules = game.rules
    points = wall(rules, shut_in(rules, node.state.position))
    assert sorted(points) == [16, 17, 18, 19, 20, 21]
    assert "16/11 16/12" in plays_of(node, Dice(5, 4))
    add(with_bad_turn(game, node, "54: 16/7", "Deliberate error: all Black's men stand on his "
                      "10 (White's 22), behind White's six points 21 to 16. 16/7 keeps all six "
                      "held, though a play that opens one of them exists (16/11 16/12 among "
                      "others).", (Dice(5, 4), "16/7", "R-UNBLOCK")))
