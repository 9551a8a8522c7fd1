"""What every reader of ``notation.formats`` shares: the problem of a record located in its
file (:func:`located`), the word of a written play a problem is about (:func:`culprit`),
the count of positions held (:class:`Budget`), why bytes are not UTF-8 (:func:`not_utf8`)
and the reading of a file whole within :data:`~notation.limits.MAX_FILE_BYTES`
(:func:`read_whole`).

The limits themselves are :mod:`notation.limits`' (read from there when used, so that a
test may lower one).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import notation.limits as limits
from notation.engine.state import GameRuleError
from notation.engine.written import parse_play
from notation.errors import IllegalPlayError, InvalidError, NotationError, RecordError
from notation.limits import LIMIT
from notation.messages import Message


def located(problem: NotationError, *, file: str, line: int = 0, column: int = 0, game: int = 0,
            turn: str = "", explain: Callable[[Message], Message] | None = None) -> RecordError:
    """``problem`` (raised while a turn or a tag was read) as the :class:`RecordError` of a
    record: at ``file``, ``line``, ``column``, of ``game`` and ``turn``, with the rule id,
    the reason and the legal plays the problem gives. ``explain`` rewrites the reason (a
    reader that adds what the record wrote, or a hint).

    A :class:`RecordError` keeps its rule id and message; a broken rule
    (:class:`~notation.errors.IllegalPlayError`) gives its rule id, reason and legal plays;
    any other problem (an :class:`~notation.errors.InvalidError`: input that cannot be
    read) is ``SYNTAX``, its text the reason."""
    legal: tuple[str, ...] = ()
    reason = problem.msg
    if isinstance(problem, RecordError):
        rule_id, legal = problem.rule_id, problem.legal_plays
    elif isinstance(problem, IllegalPlayError):
        rule_id = problem.rule_id
        legal = tuple(str(play) for play in problem.legal_plays)
    else:
        rule_id = "SYNTAX"
    if explain is not None:
        reason = explain(reason)
    return RecordError(reason, rule_id, file=file, line=line, column=column, game=game, turn=turn,
                       legal_plays=legal)


def culprit(problem: NotationError, words: Sequence[str]) -> int | None:
    """The index among a written play's ``words`` (its moves as the record writes them, in
    order: ``24/18(2)`` one word) of the one ``problem`` is about, where a reader points:
    the word holding the written move that breaks a rule
    (:attr:`~notation.errors.IllegalPlayError.move`), or the first word that cannot be
    read; else 0, the play's first word (a rule the play breaks as a whole, R-MAX, R-DICE);
    ``None`` for a problem of the turn rather than its play (R-PASS, R-END: the roll's place).

    >>> from notation import rule_set
    >>> from notation.engine.checker import check_play
    >>> try:
    ...     check_play(rule_set("jacquet").start, "64", "24/18 24/20")
    ... except IllegalPlayError as error:
    ...     culprit(error, ["24/18", "24/20"])
    1
    """
    if isinstance(problem, GameRuleError):
        return None
    if isinstance(problem, IllegalPlayError):
        if problem.move is not None:
            moves = 0
            for index, word in enumerate(words):
                try:
                    moves += len(parse_play(word).moves)
                except InvalidError:
                    return 0  # (read whole, the play can be read: a word apart cannot)
                if problem.move < moves:
                    return index
    elif isinstance(problem, InvalidError):
        for index, word in enumerate(words):
            try:
                parse_play(word)
            except InvalidError:
                return index
    else:
        return None
    return 0


class Budget:
    """Counts the positions a reader holds against :data:`~notation.limits.MAX_POSITIONS`."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limits.MAX_POSITIONS if limit is None else limit
        self.used = 0

    def spend(self, count: int = 1) -> bool:
        """Count ``count`` more positions; ``False`` once the limit is crossed."""
        self.used += count
        return self.used <= self.limit

    def error(self, where: str, *, file: str, line: int = 0, column: int = 0,
              game: int = 0) -> RecordError:
        """The error for a crossed limit; ``where`` says what holds too many (``one game``,
        ``one file``)."""
        what = "reader.positions.game" if where == "one game" else "reader.positions.file"
        return RecordError(Message.of(what, most=self.limit), LIMIT, file=file, line=line,
                           column=column, game=game)


UTF8_REASONS = {"invalid start byte": "reader.utf-8.start",
                "invalid continuation byte": "reader.utf-8.continuation",
                "unexpected end of data": "reader.utf-8.end"}
"""Python's reasons why bytes are not UTF-8, by their message ids (the only three its decoder gives)."""


def not_utf8(error: UnicodeDecodeError) -> Message:
    """Why bytes are not UTF-8 (the ``reason`` of ``reader.utf-8`` and ``json.utf-8``), in
    the catalog; Python's own words as the ``text`` message for a reason it may add."""
    known = UTF8_REASONS.get(error.reason)
    return Message.of(known) if known else Message.of("text", text=error.reason)


def line_too_long(file: str, line: int, game: int = 0, limit: int | None = None) -> RecordError:
    """The error for a line longer than ``limit`` bytes (default
    :data:`~notation.limits.MAX_LINE_BYTES`; its column is where it crossed it)."""
    limit = limits.MAX_LINE_BYTES if limit is None else limit
    return RecordError(Message.of("reader.line-too-long", most=limit), LIMIT, file=file, line=line,
                       column=limit + 1, game=game)


def read_whole(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a file read whole; :class:`RecordError` (``LIMIT``) when it is over
    ``limit`` bytes (default :data:`~notation.limits.MAX_FILE_BYTES`), :class:`OSError`
    when it cannot be read. Read a block at a time, never more than ``limit + 1`` bytes: a
    file whose size is not known beforehand (a pipe) or that grows while it is read is
    bounded too."""
    limit = limits.MAX_FILE_BYTES if limit is None else limit
    blocks: list[bytes] = []
    size = 0
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size <= limit:
            while size <= limit:
                block = handle.read(min(_BLOCK, limit + 1 - size))
                if not block:
                    break
                blocks.append(block)
                size += len(block)
        else:
            size = os.fstat(handle.fileno()).st_size
    if size > limit:
        raise RecordError(Message.of("reader.file-too-large", most=limit), LIMIT,
                          file=os.fspath(path), line=1, column=1)
    return b"".join(blocks)


_BLOCK = 1024 * 1024
