"""The errors of the notation package.

Like python-chess, every error is a :class:`ValueError`, split by what went wrong:

* :class:`InvalidError`: the input cannot be read at all (a die 7, a point 25 where there
  is no bar, a malformed position ID).
* :class:`IllegalPlayError`: the play is readable but breaks a rule; it names the rule id
  (see ``docs/rules.md``), says why in one sentence, and carries the legal plays.
* :class:`AmbiguousPlayError`: the text fits several different legal plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from notation.engine.play import Play


def quoted(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it: as a Python literal (so that control characters and
    the like show escaped), cut after ``limit`` characters with ``...``, so that a line of
    junk does not fill the terminal."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}..."


class NotationError(ValueError):
    """Base class of every error raised by :mod:`notation`."""


class InvalidError(NotationError):
    """Input that cannot be read: malformed text, dice, points or position IDs."""


class InvalidDiceError(InvalidError):
    """Dice that are not two numbers from 1 to 6 (or one, for a passed die)."""


class InvalidPositionError(InvalidError):
    """A position ID or board that is malformed or impossible for the rule set."""


class InvalidPlayError(InvalidError):
    """Play text that cannot be read, or that names points the rule set does not have."""


class IllegalPlayError(NotationError):
    """A readable play that breaks a rule.

    ``rule_id`` is the id of the broken rule (``R-COURIER``, ``R-MAX``...), ``reason`` the
    sentence that explains it, and ``legal_plays`` every legal play for the same roll.
    """

    def __init__(self, rule_id: str, reason: str, legal_plays: Sequence[Play] = ()) -> None:
        self.rule_id = rule_id
        self.reason = reason
        self.legal_plays = tuple(legal_plays)
        super().__init__(f"[{rule_id}] {reason}")


class AmbiguousPlayError(IllegalPlayError):
    """Play text that fits more than one legal play (written without a needed rest point)."""


class RecordError(NotationError):
    """A problem found while reading a record: where (file, line, column, game, turn),
    which rule (``rule_id``: a rule id such as ``R-MAX``, or ``SYNTAX`` / ``TAG`` for the
    form of the record), why, and for a rule violation the legal plays.

    ``str()`` gives the compiler-style line ``FILE:LINE:COL: error: [RULE-ID] message``.
    A ``severity`` of ``"warning"`` marks what a reader accepted but the user should know
    (a dialect quirk that contradicts the rules' bookkeeping, never an illegal play).
    """

    def __init__(self, message: str, rule_id: str = "SYNTAX", *, file: str = "-", line: int = 0,
                 column: int = 0, game: int = 0, turn: str = "",
                 legal_plays: Sequence[str] = (), severity: str = "error") -> None:
        self.message = message
        self.severity = severity
        self.rule_id = rule_id
        self.file = file
        self.line = line
        self.column = column
        self.game = game
        self.turn = turn
        self.legal_plays = tuple(legal_plays)
        super().__init__(self.format())

    def where(self) -> str:
        """``game N, turn T`` as the message prefix."""
        parts = [f"game {self.game}"] if self.game else []
        if self.turn:
            parts.append(f"turn {self.turn}")
        return ", ".join(parts)

    def format(self) -> str:
        prefix = self.where()
        text = f"{prefix}: {self.message}" if prefix else self.message
        if self.legal_plays:
            shown = ", ".join(self.legal_plays[:8])
            more = f" (and {len(self.legal_plays) - 8} more)" if len(self.legal_plays) > 8 else ""
            text += f"; legal: {shown}{more}"
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: [{self.rule_id}] {text}"

    def as_dict(self) -> dict:
        return {"severity": self.severity, "file": self.file, "line": self.line,
                "column": self.column, "game": self.game,
                "turn": self.turn, "rule": self.rule_id, "message": self.message,
                "legal_plays": list(self.legal_plays)}
