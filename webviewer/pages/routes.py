"""A man moved by more than one die in one click (the recorder's and /play/'s board): from
the point he leaves to the point he ends on, the steps that take him there. The board's
script (``recorder.js``) plays a route when it is the only one between its two points (the
routes between them leave the same board), and says the click is ambiguous otherwise; the
server enters a route's steps one by one as if each had been clicked
(:func:`enter_route`), so only what the rules offer is entered."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from notation.engine.play import Step
from notation.engine.step_entry import StepEntry
from notation.errors import NotationError
from notation.recording import LiveGame

MOST_STEPS = 4
"""The most steps a route has (a doublet's four)."""
ROUTE = re.compile(r"(?:\d{1,2}-\d{1,2}-[1-6])(?: \d{1,2}-\d{1,2}-[1-6]){1,3}")
"""A route as a form sends it: two to four steps ``from-to-die``, in the mover's numbering."""


def routes(entry: StepEntry, entered: Sequence[Step],
           white_point: Callable[[int], str]) -> dict[str, list[str]]:
    """Every man's move of two or more steps that may come next after the steps
    ``entered``, by ``"from>to"`` (White's numbering, as the board's shapes are named:
    ``white_point``): the routes between the two points, one per board they leave, each
    as a form sends it (``"24-18-6 18-15-3"``)."""
    found: dict[str, dict[object, str]] = {}

    def follow(route: list[Step]) -> None:
        if len(route) >= 2:
            after = entry.position_after([*entered, *route])
            key = f"{white_point(route[0].from_point)}>{white_point(route[-1].to_point)}"
            written = " ".join(f"{s.from_point}-{s.to_point}-{s.die}" for s in route)
            found.setdefault(key, {}).setdefault((after.mover, after.opponent), written)
        if len(route) == MOST_STEPS or route[-1].to_point == 0:
            return
        for step in entry.next_steps([*entered, *route]):
            if step.from_point == route[-1].to_point:
                follow([*route, step])

    for first in entry.next_steps(entered):
        follow([first])
    return {key: list(boards.values()) for key, boards in found.items()}


def enter_route(live: LiveGame, text: str) -> None:
    """Enter the steps of a route (as :func:`routes` writes it) one by one; if the rules
    refuse one, the route's steps entered before it are taken back and the refusal raised
    (:class:`~notation.errors.NotationError`). ``text`` is a route (:data:`ROUTE`)."""
    assert ROUTE.fullmatch(text), "the form's route is checked first"
    added = 0
    try:
        for part in text.split():
            start, end, die = (int(value) for value in part.split("-"))
            live.add_step(Step(start, end, die))
            if not live.steps:  # the play is complete: the turn is entered
                return
            added += 1
    except NotationError:
        for _ in range(added):
            live.undo_step()
        raise
