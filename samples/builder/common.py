"""What every part of the sample builder shares: the tags, the seeds, and small helpers
that check a claim with the engine or put a number into words."""

from __future__ import annotations

from notation import legal_plays
from notation.engine.checker import check_play
from notation.engine.dice import Dice
from notation.engine.rules import NAMES
from notation.errors import IllegalPlayError
from notation.tree.game import GameNode

DATE = "2026.11.30"
SITE = "Generated sample"
ANNOTATOR = "jacquet samples"
VARIANTS = NAMES
NUMBERS = ("none", "one", "two", "three", "four", "five", "six")

# The seeds of the annotated games, chosen for what happens in them (checked below).
ANNOTATED_SEEDS = {"jacquet": 59, "murray": 6, "versailles": 6, "hale": 17, "backgammon": 28,
                   "narde": 65, "fevga": 36}
# The jacquet match: one seed per game, played until a player reaches MATCH_LENGTH.
MATCH_SEEDS = (101, 102, 103, 104, 105)
MATCH_LENGTH = 5


# -- helpers ------------------------------------------------------------------------------


def headers(event: str, variant: str, round_: str = "1", white: str = "Random White",
            black: str = "Random Black") -> dict[str, str]:
    """The tags of a sample game: its event, rule set, round and players."""
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


def refusal(node: GameNode, dice: Dice, text: str) -> tuple[str, str] | None:
    """The rule id and reason for which the engine refuses ``text`` at ``node``, or
    ``None`` when it is legal."""
    try:
        check_play(node.state.position, dice, text, node.root().rules)
    except IllegalPlayError as error:
        return error.rule_id, error.reason
    return None


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the word, in the plural unless ``n`` is 1: ``2 points``."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def men(n: int) -> str:
    """``1 man``, ``3 men``."""
    return count(n, "man", "men")


def and_list(items) -> str:
    """The items as words joined by commas and a last ``and``."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def dice_text(dice: Dice) -> str:
    """The roll as the comments write it: ``6-5``."""
    return "-".join(str(v) for v in dice.values)


def opponent_point(rules, point: int) -> int:
    """The opponent's number for the mover's ``point``."""
    return rules.opposite[point]


def lead_rolls(tags: dict[str, str]) -> tuple[tuple[int, int], ...]:
    """``[LeadRoll "W4 B4, W5 B3"]`` as ((4, 4), (5, 3))."""
    rolls = []
    for part in tags["LeadRoll"].split(","):
        white, black = part.split()
        rolls.append((int(white[1]), int(black[1])))
    return tuple(rolls)

