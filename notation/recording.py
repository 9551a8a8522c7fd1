"""A game being recorded: the game so far (a :class:`~notation.tree.game.Game` read from its
record) and the turn in progress (the dice and the steps entered), with every action the
scorer can take. Each action checks the rules and raises a
:class:`~notation.errors.NotationError` that names the broken rule when it is refused.

Used by the viewer's record page and by ``jacquet record``. The state between actions is
plain data (:meth:`LiveGame.dump`); the viewer keeps it in the archive (:mod:`archive.live`).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.rules import rule_set
from notation.engine.state import (
    PASSED,
    RESIGN,
    ROLL,
    GameRuleError,
    TurnKind,
    cube_action,
)
from notation.engine.step_entry import StepEntry
from notation.errors import TAG, InvalidPlayError, NotationError, RecordError, TagProblem
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.messages import Message
from notation.tree.game import Game, GameNode, Node
from notation.tree.generate import lead_rolls
from notation.tree.tags import check_match_tags, lead_roll_text, setup_from_tags

HEADERS = ("Event", "Site", "Date", "Round", "White", "Black", "Variant", "Options", "Lead",
           "LeadRoll", "Match", "MatchLength", "Game", "Score", "Crawford", "Position")


def game_from_text(record: str) -> Game:
    """The game of a record; the first :class:`RecordError` if it has one."""
    games = [game for game in read_games(io.BytesIO(record.encode("utf-8")), GameBuilder)
             if isinstance(game, Game)]
    if len(games) != 1:
        raise RecordError(Message.of("recorder.one-game"))
    if games[0].errors:
        raise games[0].errors[0]
    return games[0]


MAX_TAG = 200
"""The longest tag value a scorer may enter."""
DATE = re.compile(r"[0-9?]{4}(?:\.([0-9?]{2})(?:\.([0-9?]{2}))?)?")
"""A date as records write it: ``2024.03.15``, ``2024.03``, ``2024``, ``????.??.??``."""


def record_date(day: date | None = None) -> str:
    """``day`` (default: today) as the ``Date`` tag writes it: ``2024.03.15``."""
    return (day or date.today()).strftime("%Y.%m.%d")


MAX_MATCH_NUMBER = 999
"""The longest match, and the highest game number, a scorer may enter."""


def new_game(headers: dict[str, str]) -> Game:
    """A game with these tags and no turn yet (tags checked as a reader checks them; a
    match's length, game number and score checked as numbers, the score as one that leaves
    a game to play; the date as a date)."""
    for name, value in headers.items():
        if len(value) > MAX_TAG:
            raise RecordError(Message.of("recorder.tag-too-long", tag=name, most=MAX_TAG), TAG)
    try:
        check_match_tags(headers)  # as every reader checks them
    except TagProblem as problem:
        raise RecordError(problem.msg, problem.rule_id) from None
    for name in ("MatchLength", "Game"):
        value = headers.get(name, "").strip()
        if value and not 1 <= int(value) <= MAX_MATCH_NUMBER:
            raise RecordError(Message.of("recorder.match-number", tag=name, value=repr(value),
                                         most=MAX_MATCH_NUMBER), TAG)
    date = headers.get("Date", "").strip()
    if date and not _is_date(date):
        raise RecordError(Message.of("recorder.date", value=repr(date)), TAG)
    length, score = headers.get("MatchLength", "").strip(), headers.get("Score", "").strip()
    if length and score and max(int(points) for points in score.split("-")) >= int(length):
        raise RecordError(Message.of("recorder.score-ends-match", score=score, length=length), TAG)
    kept = {name: " ".join(value.split()) for name, value in headers.items()
            if name in HEADERS and value.strip()}  # each on one line, as a scorer means it
    try:
        setup = setup_from_tags(kept)
    except TagProblem as problem:
        raise RecordError(problem.msg, problem.rule_id) from None
    return Game(setup.rules, setup.first, kept, setup.lead_rolls, setup.crawford)


def _is_date(text: str) -> bool:
    """Whether ``text`` is a date as records write it, month 1-12 and day 1-31 where given."""
    match = DATE.fullmatch(text)
    if not match:
        return False
    month, day = match.group(1), match.group(2)
    return all(part is None or "?" in part or 1 <= int(part) <= limit
               for part, limit in ((month, 12), (day, 31)))


def roll_lead(variant: str, rng: random.Random) -> str:
    """A lead roll for a game of ``variant``, as the ``LeadRoll`` tag writes it
    (:func:`~notation.tree.generate.lead_rolls`)."""
    return lead_roll_text(lead_rolls(rule_set(variant), rng))


@dataclass
class LiveGame:
    """A game in progress and the turn being entered.

    Dice the server rolls stand: ``rolled`` keeps them by roll number (the game's first
    roll is 1, a cube action or a resignation moves nothing on), so a turn taken back and
    rolled again gets the same dice, and dice typed in for that roll must be those."""

    game: Game
    dice: Dice | None = None
    steps: list[Step] = field(default_factory=list)
    rolled: dict[int, Dice] = field(default_factory=dict)

    # -- state ---------------------------------------------------------------------------

    @property
    def node(self) -> Node:
        """The last node of the game so far."""
        return self.game.end()

    @property
    def over(self) -> bool:
        return self.node.state.over

    @property
    def kind(self) -> TurnKind:
        """The kind of the turn in progress: dice passed to the player, or his roll."""
        return PASSED if self.node.state.passed is not None else ROLL

    @property
    def forced_dice(self) -> Dice | None:
        """Dice the next turn must play: passed dice (R-PASS) or the lead roll (R-LEAD)."""
        state = self.node.state
        if state.passed is not None:
            return state.passed
        if state.forced and state.forced[0][0] is state.player:
            return state.forced[0][1]
        return None

    @property
    def roll_number(self) -> int:
        """The number of the roll to come (1 for the game's first)."""
        return 1 + sum(1 for node in _line(self.node) if node.turn is not None and node.turn.kind == ROLL)

    @property
    def dice_stand(self) -> bool:
        """Whether the dice of the turn in progress were rolled by the server (they stand)."""
        return self.dice is not None and self.rolled.get(self.roll_number) == self.dice

    def entry(self) -> StepEntry:
        """The steps that may be entered for the dice of the turn in progress."""
        if self.dice is None:
            raise GameRuleError("R-DICE", Message.of("recorder.no-dice"))
        state = self.node.state
        return StepEntry(state.position, self.dice, self.game.rules)

    def can(self, kind: TurnKind) -> bool:
        """Whether a cube action or resignation is allowed now."""
        if self.over or self.dice is not None:
            return False
        try:
            self.node.state.after(kind)
        except NotationError:
            return False
        return True

    # -- actions -------------------------------------------------------------------------

    def set_dice(self, dice: Dice | None, rng: random.Random | None = None) -> None:
        """Start the turn with these dice (entered from the table), or rolled with ``rng``
        when ``dice`` is ``None``; dice the rules impose are taken whatever is asked, and
        dice the server rolled for this roll before stand (R-DICE)."""
        self._expect_turn()
        if self.node.state.offered:
            raise GameRuleError("R-CUBE", Message.of("recorder.take-or-drop",
                                                     player=self.node.state.player.named))
        forced = self.forced_dice
        stood = self.rolled.get(self.roll_number) if self.kind == ROLL else None
        if forced is not None:
            if dice is not None and dice != forced:
                rule = "R-PASS" if self.kind == PASSED else "R-LEAD"
                raise GameRuleError(rule, Message.of("recorder.forced-dice", forced=str(forced),
                                                     dice=str(dice)))
            dice = forced
        elif stood is not None:
            if dice is not None and dice != stood:
                raise GameRuleError("R-DICE", Message.of("recorder.dice-stand", stood=str(stood),
                                                         dice=str(dice)))
            dice = stood
        elif dice is not None and dice.low is None:
            raise GameRuleError("R-DICE", Message.of("recorder.two-dice", dice=str(dice)))
        elif dice is None:
            rng = rng or random.SystemRandom()
            dice = self.rolled[self.roll_number] = Dice(rng.randint(1, 6), rng.randint(1, 6))
        self.dice, self.steps = dice, []
        if self.entry().length == 0:  # nothing can be played: the turn is over at once
            self._commit("-")

    def clear_dice(self) -> None:
        """Take back dice entered by hand (a slip of the scorer's); dice the server rolled
        stand (R-DICE)."""
        if self.dice_stand:
            raise GameRuleError("R-DICE", Message.of("recorder.rolled", dice=str(self.dice)))
        self.dice, self.steps = None, []

    def add_step(self, step: Step) -> None:
        """Enter one step; the turn is played as soon as the steps make a whole play."""
        if self.dice is None:
            raise GameRuleError("R-DICE", Message.of("recorder.no-dice"))
        if not (0 <= step.from_point <= 25 and 0 <= step.to_point <= 25 and 1 <= step.die <= 6):
            raise InvalidPlayError(Message.of("recorder.no-step", start=step.from_point, end=step.to_point,
                                              die=step.die))
        entry = self.entry()
        offered = entry.next_steps(self.steps)
        match = next((s for s in offered if s[:3] == step[:3]), None)
        if match is None:
            entry.next_steps([*self.steps, step])  # raises with the rule and the reason
            raise AssertionError("a step not offered is refused")  # pragma: no cover
        self.steps.append(match)
        if entry.is_complete(self.steps):
            self._commit(" ".join(str(s) for s in self.steps))

    def undo_step(self) -> None:
        """Take back the last step entered."""
        if self.steps:
            self.steps.pop()

    def undo_steps(self) -> None:
        """Take back every step entered this turn (the dice stay)."""
        self.steps = []

    def play_text(self, text: str) -> None:
        """Enter the whole play as written (``24/18 13/11``, ``6/off``, ``-``)."""
        if self.dice is None:
            raise GameRuleError("R-DICE", Message.of("recorder.no-dice"))
        self._commit(text)

    def cube(self, kind: str) -> None:
        """``double``, ``take`` or ``drop`` (R-CUBE)."""
        self._expect_turn()
        action = cube_action(kind)
        if action is None:
            raise GameRuleError("R-CUBE", Message.of("recorder.cube-action", kind=repr(kind)))
        self.node.add_turn(action)
        self._sync_result()

    def resign(self, points: int) -> None:
        """The player to act resigns, giving ``points`` (checked against the rule set)."""
        self._expect_turn()
        end = self.node
        node = end.add_turn(RESIGN)
        try:
            node.state = node.state.resigned_for(points)
        except NotationError:
            end.variations.remove(node)
            raise
        self._sync_result()

    def undo_turn(self) -> None:
        """Take back the last turn played: its play is returned, its dice stay, to be
        played again. A turn whose rolled dice had nothing to play cannot be played
        otherwise: the turn before it is taken back too."""
        node = self.node
        while node.parent is not None and _played_nothing(node) and self._stood(node):
            node = node.parent
        if node.parent is None:
            raise GameRuleError("R-END", Message.of("recorder.dice-stand-after" if self.node.parent
                                                    else "recorder.nothing-to-take-back"))
        self.take_back_to(node.ply - 1)

    def take_back_to(self, ply: int) -> None:
        """Take the game back to ``ply`` (0: the start), to correct a past turn: the turns
        after it are removed, the dice of the first of them stand for it again."""
        end = self.node
        if not 0 <= ply < end.ply:
            raise GameRuleError("R-END", Message.of("recorder.no-turn-after", ply=ply, plies=end.ply))
        first = next(node for node in _line(end) if node.ply == ply + 1)
        assert isinstance(first, GameNode) and first.parent is not None and first.turn is not None
        first.parent.variations.remove(first)
        self.dice, self.steps = None, []
        self._sync_result()
        turn = first.turn
        if turn.kind == ROLL:
            self.dice = turn.dice
        elif turn.kind == PASSED:
            self.dice = self.forced_dice
        if self.dice is not None and self.entry().length == 0:
            if self.dice_stand or self.forced_dice is not None:
                self._commit("-")  # nothing to play with dice that stand
            else:
                self.dice = None  # dice entered by hand with nothing to play: a slip, likely

    def _stood(self, node: Node) -> bool:
        """Whether the dice of ``node``'s turn were rolled by the server (or imposed)."""
        turn = node.turn
        if turn is None or turn.kind != ROLL:
            return turn is not None and turn.kind == PASSED
        number = sum(1 for earlier in _line(node) if earlier.turn is not None and earlier.turn.kind == ROLL)
        return self.rolled.get(number) == turn.dice or bool(node.parent and node.parent.state.forced)

    def annotate(self, comment: str, nag: int | None) -> None:
        """A comment and/or a NAG on the last turn (on the game before the first turn)."""
        node = self.node
        if comment.strip():
            node.comments.append(" ".join(comment.split()))
        if nag is not None and nag not in node.nags:
            node.nags.append(nag)

    def _expect_turn(self) -> None:
        if self.over:
            state = self.node.state
            winner = state.winner.named if state.winner is not None else Message.of("recorder.no-one")
            raise GameRuleError("R-END", Message.of("recorder.over", winner=winner, points=state.points))
        if self.dice is not None:
            raise GameRuleError("R-DICE", Message.of("recorder.finish-dice", dice=str(self.dice)))

    def _commit(self, text: str) -> None:
        dice = None if self.kind == PASSED else self.dice
        self.node.add_turn(self.kind, dice, text)
        self.dice, self.steps = None, []
        self._sync_result()

    def _sync_result(self) -> None:
        """The Result tag: none while the game goes on, the score once it is over."""
        if self.over:
            self.game.headers["Result"] = self.game.result
        else:
            self.game.headers.pop("Result", None)

    # -- storage -------------------------------------------------------------------------

    def record(self) -> str:
        """The game so far in text notation (the result written once it is over)."""
        return write_game(self.game)

    def dump(self) -> tuple[str, dict[str, object]]:
        """(record, pending turn) to store."""
        return self.record(), {"dice": str(self.dice) if self.dice else None,
                               "steps": [list(step) for step in self.steps],
                               "rolled": {str(number): str(dice) for number, dice in self.rolled.items()}}

    @classmethod
    def load(cls, record: str, pending: dict[str, Any]) -> LiveGame:
        live = cls(game_from_text(record))
        live._sync_result()
        if pending.get("dice"):
            live.dice = Dice.parse(pending["dice"])
            live.steps = [Step(*values) for values in pending.get("steps", [])]
        live.rolled = {int(number): Dice.parse(dice) for number, dice in pending.get("rolled", {}).items()}
        return live


def _line(node: Node) -> Iterator[Node]:
    """``node`` and the nodes before it, back to the start."""
    current: Node | None = node
    while current is not None:
        yield current
        current = current.parent


def _played_nothing(node: Node) -> bool:
    """Whether ``node`` is a turn with dice that had nothing to play (written ``-``)."""
    turn = node.turn
    return turn is not None and turn.kind in (ROLL, PASSED) and turn.play is not None and not turn.play.steps


def next_match_game(game: Game) -> dict[str, str] | None:
    """The tags of the match's next game after ``game`` (finished): the same players and
    match, the game number and the score moved on, the Crawford game marked; ``None`` when
    the game is not part of a match or the match is over."""
    headers = game.headers
    state = game.end().state
    if not headers.get("MatchLength") or state.winner is None:
        return None
    length = int(headers["MatchLength"])
    white, black = (int(x) for x in (headers.get("Score") or "0-0").split("-"))
    before = (white, black)
    if state.winner.value == "W":
        white += state.points
    else:
        black += state.points
    if max(white, black) >= length:
        return None
    following = {name: headers[name] for name in ("Variant", "White", "Black", "Event", "Site",
                                                  "Date", "Match", "MatchLength", "Options")
                 if headers.get(name)}
    following["Game"] = str(int(headers.get("Game") or 1) + 1)
    following["Score"] = f"{white}-{black}"
    if length - 1 in (white, black) and length - 1 not in before and game.rules.has_cube:
        following["Crawford"] = "yes"
    return following
