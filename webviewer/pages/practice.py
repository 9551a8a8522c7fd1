"""What the practice page shows and judges (:mod:`webviewer.blueprints.practice`): a
position of a player's worst plays with its roll, the play being entered on it (the steps
clicked so far, as the recorder offers them), an answer judged against the stored ranking
alone (the rules engine says whether it is legal; no engine is asked for an equity), and
where each position stands in the repetition: a signed-in user's in the archive
(:mod:`archive.practice`), a visitor's in his browser's signed session cookie, at most
:data:`VISITOR_CARDS` positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from flask import session

from archive.practice import Card, PracticePosition, keep_card, user_cards
from notation import Dice, Position
from notation.engine.checker import check_play
from notation.engine.play import Play, Step
from notation.engine.rules import RuleSet, rule_set
from notation.engine.state import Colour
from notation.engine.step_entry import StepEntry
from notation.messages import Message, render
from notation.render.arrows import arrows
from notation.render.svg import board, board_key
from webviewer.pages.board_view import describe
from webviewer.pages.losses import candidate_losses, depth_of, mixed_depths
from webviewer.pages.recorder import Offered
from webviewer.pages.routes import routes
from webviewer.plumbing.auth import signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import page_language

VISITOR_CARDS = 60
"""The positions a visitor's cookie keeps (the least recently answered dropped): about
1.5 kB of the signed session cookie, whatever he answers."""
SESSION_KEY = "practice"


def now() -> datetime:
    """The time answers are scheduled by (UTC)."""
    return datetime.now(timezone.utc)


# -- the cards: where each position stands -------------------------------------------------

def cards() -> dict[str, Card]:
    """This user's cards by key (``game.ply``): a signed-in user's from the archive, a
    visitor's from his session cookie."""
    user = signed_in()
    if user.id is not None:
        return user_cards(get_db(), int(user.id))
    found: dict[str, Card] = {}
    for key, value in _kept().items():
        found[key] = Card(value[0], datetime.fromtimestamp(value[1], timezone.utc))
    return found


def keep(position: PracticePosition, card: Card, at: datetime) -> None:
    """Keep this user's card for ``position``: in the archive for a signed-in user, else
    in his cookie (the :data:`VISITOR_CARDS` answered last; the cookie keeps no order, so
    each card says when it was answered)."""
    user = signed_in()
    if user.id is not None:
        keep_card(get_db(write=True), int(user.id), position.game_id, position.ply, card, at)
        return
    kept = _kept()
    kept.pop(position.key, None)  # (answered last, even within the same second)
    kept[position.key] = [card.box, int(card.due.timestamp()), int(at.timestamp())]
    newest = sorted(kept.items(), key=lambda item: item[1][2])[-VISITOR_CARDS:]
    session[SESSION_KEY] = dict(newest)


def _kept() -> dict[str, list[int]]:
    """A visitor's cards as his cookie keeps them: by key, [box, due, answered] (seconds
    since the epoch); anything else in it left out."""
    kept = session.get(SESSION_KEY, {})
    if not isinstance(kept, dict):
        return {}
    return {key: value for key, value in kept.items()
            if isinstance(key, str) and isinstance(value, list) and len(value) == 3
            and all(isinstance(part, int) for part in value)}


@dataclass(frozen=True)
class Due:
    """The practice's state: the positions due now (never answered, or their time come),
    and when the next of the others comes back (``None``: none waits)."""

    positions: list[PracticePosition]
    next_at: datetime | None


def due(positions: Sequence[PracticePosition], kept: dict[str, Card], at: datetime) -> Due:
    """Which of ``positions`` (the worst first) are due at ``at``, in that order."""
    ready = [p for p in positions if p.key not in kept or kept[p.key].due <= at]
    later = [kept[p.key].due for p in positions if p.key in kept and kept[p.key].due > at]
    return Due(ready, min(later) if later else None)


# -- the question: the position, the roll, the play being entered ---------------------------

STEP_TEXT = "{}-{}-{}"


def steps_text(steps: Sequence[Step]) -> str:
    """Steps as an address or a form carries them: ``24-18-6 18-14-4`` (from, to, die)."""
    return " ".join(STEP_TEXT.format(s.from_point, s.to_point, s.die) for s in steps)


def read_steps(text: str) -> list[Step]:
    """Steps from :func:`steps_text`; ``ValueError`` if it is not that."""
    found = []
    for part in text.split()[:8]:
        start, end, die = (int(value) for value in part.split("-"))
        found.append(Step(start, end, die))
    return found


class Question:
    """A position of the practice with the steps clicked so far: its board numbered for
    the player on roll, his roll drawn, and the steps that may come next."""

    def __init__(self, position: PracticePosition, steps: Sequence[Step] = ()) -> None:
        self.position = position
        self.rules: RuleSet = rule_set(position.variant)
        self.start = Position.from_id(position.position)
        self.dice = Dice.parse(position.dice)
        self.entry = StepEntry(self.start, self.dice, self.rules)
        self.steps = [self.entry_step(step, index, steps) for index, step in enumerate(steps)]
        self.white = position.player == "W"
        self.mover = Colour(position.player)

    def entry_step(self, step: Step, index: int, steps: Sequence[Step]) -> Step:
        """``step`` as the rules offer it after the ones before it (a NotationError with
        the rule if they do not)."""
        offered = self.entry.next_steps(list(steps[:index]))
        match = next((s for s in offered if s[:3] == step[:3]), None)
        if match is None:
            self.entry.next_steps([*steps[:index], step])  # raises with the rule and the reason
            raise ValueError("a step not offered is refused")  # pragma: no cover
        return match

    @property
    def complete(self) -> bool:
        """Whether the steps so far make a whole legal play."""
        return bool(self.steps) and self.entry.is_complete(self.steps)

    def play(self) -> Play:
        """The legal play the steps make (once :attr:`complete`)."""
        after = self.entry.position_after(self.steps)
        return next(play for play in self.entry.plays if play.result == after)

    def white_point(self, point: int) -> str:
        """A point of the mover's in White's numbering, as the board's shapes are named."""
        if not 1 <= point <= 24:
            return "bar" if point else "off"
        return str(point if self.white else self.rules.opposite[point])

    def context(self, best: str | None = None) -> dict[str, Any]:
        """What the page shows of the question; once answered, ``best`` (the stored best
        play) drawn on the position as the engine's best play's arrows, with the board's key."""
        shown = self.entry.position_after(self.steps)
        language = page_language()
        overlay = "" if best is None else arrows(check_play(self.start, self.dice, best, self.rules).steps,
                                                 self.white, self.rules, title=best, best=True)
        svg = board(shown, self.rules, white_to_move=self.white, dice=self.dice,
                    entered_steps=self.steps, black_numbers=not self.white, cube=None,
                    title=render(Message.of("board.title.recorder", player=self.mover.named), language),
                    language=language, overlay=overlay)
        key = board_key(self.rules, language, best=True, last_play=False) if best else []
        offered = [Offered(step, self.white_point(step.from_point), self.white_point(step.to_point))
                   for step in self.entry.next_steps(self.steps)]
        mover_pips, other_pips = shown.pip_counts()
        return {"svg": svg, "offered": offered, "steps": self.steps,
                "steps_text": steps_text(self.steps),
                "routes": routes(self.entry, self.steps, self.white_point),
                "description": describe(shown if self.white else shown.swapped(), language),
                "pips": (mover_pips, other_pips) if self.white else (other_pips, mover_pips),
                "mover": self.mover, "legal": len(self.entry.plays), "key": key}


# -- the answer, judged by the stored ranking -----------------------------------------------

@dataclass(frozen=True)
class Ranked:
    """A stored candidate as the page lists it: rank, play, equity, loss against the best
    (:func:`~webviewer.pages.losses.candidate_losses`: ``None`` for a play judged at
    another depth than the best), its depth, and whether it is the answer and the play
    made in the game."""

    rank: int
    play: str
    equity: float
    loss: float | None
    depth: int | None
    answer: bool
    played: bool


@dataclass(frozen=True)
class Judged:
    """An answer judged: the play as the rules read it, its stored candidate (``None``:
    not among the plays the analysis ranked) and that candidate's loss, whether it is
    right (the best, or losing less than the rule set's doubtful threshold,
    ``RuleSet.marks[0]``), and the stored ranking with the answer and the play made
    marked (``mixed``: its plays judged at more than one depth)."""

    play: str
    found: Ranked | None
    right: bool
    threshold: float
    ranking: list[Ranked]
    mixed: bool

    @property
    def loss(self) -> float | None:
        """The answer's loss against the best (``None``: not ranked, or at another depth)."""
        return None if self.found is None else self.found.loss


def judge(question: Question, play: Play) -> Judged:
    """Judge ``play`` (legal: the rules engine read it) against the stored candidates of
    the question's position: found by the position it leaves, so ``24/14`` is ``24/18
    18/14``. No engine is asked."""
    position = question.position
    start, dice, rules = question.start, question.dice, question.rules
    answer = play.result
    made = check_play(start, dice, position.played, rules).result
    ranked = sorted(position.candidates, key=lambda c: c["rank"])
    results = [check_play(start, dice, candidate["play"], rules).result for candidate in ranked]
    played = next((c["play"] for c, result in zip(ranked, results, strict=True) if result == made),
                  position.played)  # the play made as the candidates write it
    losses = candidate_losses(ranked, played, position.loss)
    ranking = [Ranked(int(candidate["rank"]), candidate["play"], float(candidate["equity"]), loss,
                      depth_of(candidate), result == answer, result == made)
               for candidate, result, loss in zip(ranked, results, losses, strict=True)]
    found = next((row for row in ranking if row.answer), None)
    threshold = rules.marks[0]
    right = found is not None and (found.rank == 1 or (found.loss is not None and found.loss < threshold))
    return Judged(play.notation, found, right, threshold, ranking, mixed_depths(ranked))
