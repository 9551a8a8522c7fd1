"""The errors of the notation package: every one it raises derives from
:class:`NotationError`, and carries ``rule_id`` (the rule it breaks, as ``docs/rules.md``
names it, or the kind of problem: ``SYNTAX``, ``TAG``, ``LIMIT``...) and ``msg``, why in
one sentence as a :class:`~notation.messages.Message` (an id and its parameters, for
programs); ``reason`` and ``str()`` render it in the current language
(:func:`notation.messages.set_language`: English unless a program chose another).

Like python-chess, every error is a :class:`ValueError`, split by what went wrong:

* :class:`InvalidError`: the input cannot be read at all (a die 7, a point 25 where there
  is no bar, a malformed position ID, an unknown rule set).
* :class:`IllegalPlayError`: the play is readable but breaks a rule; it names the rule id
  (see ``docs/rules.md``), says why in one sentence, and carries the legal plays.
* :class:`AmbiguousPlayError`: the text fits several different legal plays.
* :class:`TagProblem`: a tag of a record whose value cannot be used.
* :class:`FormatError`: a format that cannot be told, or cannot hold or write the games.
* :class:`RecordError`: any of these, or a problem of a record's form, located in the
  record (file, line, column, game, turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from notation.messages import Message, render

if TYPE_CHECKING:  # pragma: no cover
    from notation.engine.play import Play


def quoted(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it: as a Python literal (so that control characters and
    the like show escaped), cut after ``limit`` characters with ``...``, so that a line of
    junk does not fill the terminal."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}..."


LISTED_PLAYS = 10
"""Legal plays a message names at most (a versailles doublet may have thousands): the
others are counted (``... and 11446 more``). The errors keep the whole list."""


def listed(plays: Sequence[object], shown: int = LISTED_PLAYS, language: str | None = None) -> str:
    """The first ``shown`` of ``plays``, and how many more there are (in ``language``,
    default the current one).

    >>> listed(["24/18", "24/21 24/18", "13/7"], 2)
    '24/18, 24/21 24/18 and 1 more'
    """
    text = ", ".join(str(play) for play in plays[:shown])
    if len(plays) <= shown:
        return text
    return render(Message.of("list.more", plays=text, count=len(plays) - shown), language)


def as_message(reason: str | Message) -> Message:
    """``reason`` as a message: a text not yet in the catalog is the ``text`` message."""
    return reason if isinstance(reason, Message) else Message.of("text", text=reason)


SYNTAX = "SYNTAX"
"""The rule id of a problem of a record's form (it cannot be read)."""
TAG = "TAG"
"""The rule id of a tag whose value cannot be used."""


class NotationError(ValueError):
    """Base class of every error raised by :mod:`notation`: ``msg`` says what went wrong
    (an id and its parameters), ``reason`` renders it in the current language, ``rule_id``
    names the rule or kind of problem (the class's ``default_rule`` when not given).
    ``str()`` is the reason."""

    default_rule = SYNTAX

    def __init__(self, reason: str | Message, rule_id: str | None = None) -> None:
        self.msg = as_message(reason)
        self.rule_id = rule_id or self.default_rule
        super().__init__(self.msg)

    @property
    def reason(self) -> str:
        """Why, in one sentence, in the current language."""
        return render(self.msg)

    def __str__(self) -> str:
        return self.reason

    @property
    def legal(self) -> tuple[str, ...]:
        """Every legal play for the roll, in notation, where the error knows the position
        and the dice (a rule broken by a play); none here."""
        return ()

    def as_dict(self, language: str | None = None) -> dict[str, object]:
        """The error as ``validate --json`` and ``analyse --json`` give it, the same keys
        for every error: ``severity``; where, ``file``, ``line``, ``column``, ``game`` and
        ``turn`` (``null`` for an error no reader placed: one in a game a program made);
        ``rule``; ``id`` and ``params`` (the message as data, the same in every language)
        beside ``message``, its text in ``language`` (default: the current one); and
        ``legal_plays`` (:attr:`legal`)."""
        return {"severity": "error", "file": None, "line": None, "column": None, "game": None,
                "turn": None, "rule": self.rule_id, **self.msg.as_json(),
                "message": render(self.msg, language), "legal_plays": list(self.legal)}


class InvalidError(NotationError):
    """Input that cannot be read: malformed text, dice, points or position IDs, an unknown
    rule set or option."""


class InvalidDiceError(InvalidError):
    """Dice that are not two numbers from 1 to 6 (or one, for a passed die)."""


class InvalidPositionError(InvalidError):
    """A position ID or board that is malformed or impossible for the rule set."""


class InvalidPlayError(InvalidError):
    """Play text that cannot be read, or that names points the rule set does not have."""


class IllegalPlayError(NotationError):
    """A readable play that breaks a rule.

    ``rule_id`` is the id of the broken rule (``R-COURIER``, ``R-MAX``...), ``reason`` the
    sentence that explains it, and ``legal_plays`` every legal play for the same roll
    (a message names a few of them: :func:`listed`). ``move`` is the index, among the
    play's written moves (repeats expanded: ``24/18(2)`` is two), of the one that breaks
    the rule, or ``None`` when the play breaks it as a whole (R-MAX, R-DICE...): a reader
    points at that move in the record.
    """

    def __init__(self, rule_id: str, reason: str | Message, legal_plays: Sequence[Play] = (),
                 move: int | None = None) -> None:
        super().__init__(reason, rule_id)
        self.legal_plays = tuple(legal_plays)
        self.move = move

    def __str__(self) -> str:
        return f"[{self.rule_id}] {self.reason}"

    @property
    def legal(self) -> tuple[str, ...]:
        """:attr:`legal_plays` in notation."""
        return tuple(str(play) for play in self.legal_plays)


class AmbiguousPlayError(IllegalPlayError):
    """Play text that fits more than one legal play (written without a needed rest point)."""


class TagProblem(NotationError):
    """A tag whose value cannot be used: ``tag`` names it; ``rule_id`` is ``TAG`` or the
    game rule it breaks (``R-LEAD``...)."""

    default_rule = TAG

    def __init__(self, tag: str, reason: str | Message, rule_id: str | None = None) -> None:
        super().__init__(reason, rule_id)
        self.tag = tag


class FormatError(NotationError):
    """A format that cannot be told from a file's name, or games a format cannot hold or
    write (a ``.mat`` of murray, a tag name no reader would take back)."""

    default_rule = "FORMAT"


class RecordError(NotationError):
    """A problem found while reading a record: where (file, line, column, game, turn),
    which rule (``rule_id``: a rule id such as ``R-MAX``, or ``SYNTAX`` / ``TAG`` for the
    form of the record), why (``msg``), and for a rule violation the legal plays.

    ``str()`` gives the compiler-style line ``FILE:LINE:COL: error: [RULE-ID] message`` in
    the current language. A ``severity`` of ``"warning"`` marks what a reader accepted but
    the user should know (a dialect quirk that contradicts the rules' bookkeeping, never an
    illegal play).
    """

    def __init__(self, message: str | Message, rule_id: str = SYNTAX, *, file: str = "-",
                 line: int = 0, column: int = 0, game: int = 0, turn: str = "",
                 legal_plays: Sequence[str] = (), severity: str = "error") -> None:
        super().__init__(message, rule_id)
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.game = game
        self.turn = turn
        self.legal_plays = tuple(legal_plays)

    @property
    def message(self) -> str:
        """The reason in English, as the archive stores it (the same in every language)."""
        return render(self.msg, "en")

    def __str__(self) -> str:
        return self.format()

    def where(self, language: str | None = None) -> str:
        """``game N, turn T`` as the message prefix."""
        parts = [render(Message.of("record.game", game=self.game), language)] if self.game else []
        if self.turn:
            parts.append(render(Message.of("record.turn", turn=self.turn), language))
        return ", ".join(parts)

    def format(self, language: str | None = None) -> str:
        """The compiler-style line ``FILE:LINE:COL: error: [RULE-ID] message``, in
        ``language`` (default: the current one)."""
        text = self.text(language)  # (the severity stays a word for editors to find)
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: [{self.rule_id}] {text}"

    def text(self, language: str | None = None) -> str:
        """The message after the rule id: where in the game, why, and the legal plays."""
        prefix = self.where(language)
        text = render(self.msg, language)
        if self.turn and self.turn[-1].isdigit():  # a roll's dice, then its play: the notation's
            text = f"{prefix}: {text}"  # colon (53: 24/20), not the language's
        elif prefix:
            text = render(Message.of("record.where", where=prefix, text=text), language)
        if self.legal_plays:
            text += render(Message.of("record.legal", plays=listed(self.legal_plays, language=language)),
                           language)
        return text

    @property
    def legal(self) -> tuple[str, ...]:
        """:attr:`legal_plays`, as the reader wrote them."""
        return self.legal_plays

    def as_dict(self, language: str | None = None) -> dict[str, object]:
        """As :meth:`NotationError.as_dict`, with the place the reader found and the severity."""
        return {**super().as_dict(language), "severity": self.severity, "file": self.file,
                "line": self.line, "column": self.column, "game": self.game, "turn": self.turn}
