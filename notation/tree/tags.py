"""What the tags of a record say about how the game starts, read the same way by every
format: who starts (``Lead``), the lead roll (``LeadRoll``, R-LEAD, R-LEADDICE), the rule
set and its options (``Variant``, ``Options``), the Crawford game (``Crawford``) and a
starting position other than the rule set's (``Position``: a position ID, seen by the
player who starts)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from notation.engine.board import MEN, OFF, Position
from notation.engine.rules import DEFAULT, RuleSet, rule_set
from notation.engine.state import Colour
from notation.errors import InvalidPositionError, NotationError, TagProblem
from notation.limits import LIMIT, MAX_DIGITS, MAX_LEAD_ROLLS, NUMBER
from notation.messages import Message

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A tag's name in every format: a letter, then letters, digits and underscores."""
LEAD_ROLL = re.compile(r"^\s*W\s*([1-6])\s*(?:[,;]\s*)?B\s*([1-6])\s*$", re.IGNORECASE)
_OPTION_NUMBER = re.compile(NUMBER)
RESULT = re.compile(rf"^(?:([WB])\+({NUMBER})|\*)$")
"""A result as the ``Result`` tag writes it: ``W+2``, ``B+1`` or ``*``."""
COLOURS = {"white": Colour.WHITE, "w": Colour.WHITE, "black": Colour.BLACK, "b": Colour.BLACK}
YES = ("yes", "true", "on", "1")


def lead_roll_text(rolls: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> str:
    """Lead rolls as the ``LeadRoll`` tag writes them, White's die first: ``W5 B3`` or,
    after ties, ``W4 B4, W6 B2``."""
    return ", ".join(f"W{white} B{black}" for white, black in rolls)


@dataclass
class Setup:
    """How a game starts, from its tags."""

    rules: RuleSet
    first: Colour = Colour.WHITE
    lead_rolls: tuple[tuple[int, int], ...] = ()
    crawford: bool = False
    options: dict[str, object] = field(default_factory=dict)
    position: Position | None = None
    """The starting position of the ``Position`` tag, seen by the player who starts."""


def starting_position(headers: dict[str, str], rules: RuleSet) -> Position | None:
    """The position of the ``Position`` tag (a position ID, seen by the player who starts),
    checked against ``rules``; ``None`` without the tag; :class:`TagProblem` for an ID that
    cannot be read or a position the rule set does not allow."""
    text = headers.get("Position", "").strip()
    if not text:
        return None
    try:
        position = rules.check_position(Position.from_id(text))
    except InvalidPositionError as error:
        raise TagProblem("Position", Message.of("tag.position", rules=rules.name, error=error.msg)) from None
    if MEN in (position.mover[OFF], position.opponent[OFF]):
        raise TagProblem("Position", Message.of("tag.position.over", text=repr(text)))
    return position


def rules_from_tags(headers: dict[str, str], default_variant: str = DEFAULT) -> RuleSet:
    """The rule set of ``Variant`` (or ``default_variant``) with the ``Options`` tag."""
    options: dict[str, object] = {}
    for item in headers.get("Options", "").replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep:
            raise TagProblem("Options", Message.of("tag.option", text=repr(item)))
        options[key] = int(value) if _OPTION_NUMBER.fullmatch(value) else value
    try:
        return rule_set(headers.get("Variant") or default_variant, **options)
    except ValueError as error:
        reason = error.msg if isinstance(error, NotationError) else str(error)
        raise TagProblem("Variant" if "Variant" in headers else "Options", reason) from None


MATCH_NUMBERS = {"MatchLength": re.compile(rf"{NUMBER}"), "Game": re.compile(rf"{NUMBER}"),
                 "Score": re.compile(rf"{NUMBER}-{NUMBER}")}
"""The match tags, each a number (the score two: White's, then Black's)."""


def check_match_tags(headers: dict[str, str]) -> None:
    """:class:`~notation.errors.TagProblem` for a match tag that is not a number (a score, two), or whose
    number is longer than :data:`~notation.limits.MAX_DIGITS` digits (LIMIT)."""
    for name, pattern in MATCH_NUMBERS.items():
        value = headers.get(name)
        if value is None or not value.strip() or pattern.fullmatch(value.strip()):
            continue
        if re.fullmatch(r"\d+-\d+" if name == "Score" else r"\d+", value.strip()):
            raise TagProblem(name, Message.of("tag.digits", tag=name, most=MAX_DIGITS), LIMIT)
        shape = "tag.score" if name == "Score" else "tag.number"
        raise TagProblem(name, Message.of(shape, tag=name, value=repr(value)))


def setup_from_tags(headers: dict[str, str], default_variant: str = DEFAULT,
                    first: Colour | None = None) -> Setup:
    """Read the starting tags; :class:`TagProblem` for a bad value or a contradiction.
    ``first`` is who starts when the tags do not say (a format's own field)."""
    rules = rules_from_tags(headers, default_variant)
    check_match_tags(headers)
    lead = headers.get("Lead")
    if lead is not None:
        first = COLOURS.get(lead.strip().lower())
        if first is None:
            raise TagProblem("Lead", Message.of("tag.lead", value=repr(lead)))
    rolls: list[tuple[int, int]] = []
    text = headers.get("LeadRoll")
    if text:
        if text.count(",") >= MAX_LEAD_ROLLS:
            raise TagProblem("LeadRoll", Message.of("tag.lead-rolls", most=MAX_LEAD_ROLLS), LIMIT)
        for part in text.split(","):
            match = LEAD_ROLL.match(part)
            if not match:
                raise TagProblem("LeadRoll", Message.of("tag.lead-roll", text=repr(part.strip())))
            rolls.append((int(match.group(1)), int(match.group(2))))
        for white, black in rolls[:-1]:
            if white != black:
                raise TagProblem("LeadRoll", Message.of("tag.lead-roll.not-tie", white=white, black=black),
                                 rules.lead_rule)
        white, black = rolls[-1]
        if white == black:
            raise TagProblem("LeadRoll", Message.of("tag.lead-roll.tie", white=white, black=black),
                             "R-LEAD")
        winner = Colour.WHITE if white > black else Colour.BLACK
        if lead is not None and first is not None and first is not winner:
            raise TagProblem("Lead", Message.of("tag.lead.contradicts", first=first.named, white=white,
                                                black=black, winner=winner.named), "R-LEAD")
        first = winner
    crawford = headers.get("Crawford", "").strip().lower() in YES
    return Setup(rules, first or Colour.WHITE, tuple(rolls), crawford,
                 position=starting_position(headers, rules))
