"""Reading and writing games in every supported format, chosen by file extension or name:
the :class:`Format` of each, in :data:`FORMATS`, drives every choice.

=========  ============  =====================
format     extensions    read / write
=========  ============  =====================
``jqn``    ``.jqn``      both (text notation)
``json``   ``.json``     both
``mat``    ``.mat``      both (backgammon)
``sgf``    ``.sgf``      read (backgammon, GM[6])
``xml``    ``.xml``      both (checked against ``schema/games.xsd``)
=========  ============  =====================
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from notation.engine.rules import DEFAULT
from notation.errors import FormatError, RecordError
from notation.formats import json_format, xml_format
from notation.formats.jqn import GameBuilder, split_games, write_game
from notation.formats.jqn.reader import walk
from notation.formats.mat import read_mat
from notation.formats.mat.writer import left_out, write_mat
from notation.formats.sgf import read_sgf
from notation.limits import MAX_FILE_BYTES, MAX_POSITIONS
from notation.messages import Count, Message, either
from notation.tree.game import Game, GameNode
from notation.tree.matches import checked_scores

Path_ = str | os.PathLike[str]
"""A file's path, as the readers take it."""


@dataclass(frozen=True)
class Format:
    """A format of game records: its ``name`` (what ``--to`` and ``fmt`` say), the file
    ``extensions`` that mean it, its reader and writer (``None``: it cannot be read, or
    written) and what it can hold. Every dispatch on formats goes through :data:`FORMATS`."""

    name: str
    extensions: tuple[str, ...]
    title: str
    """What the format is called in a sentence."""
    read: Callable[[Path_, str], Iterable[Game]] | None
    """The games of a file, checked, given the rule set of a game that names none."""
    write: Callable[[list[Game]], str] | None
    """Games as the text of a file."""
    variants: tuple[str, ...] | None = None
    """The rule sets it can hold (``None``: every one)."""
    whole: bool = True
    """Read whole (so :data:`~notation.limits.MAX_FILE_BYTES` and
    :data:`~notation.limits.MAX_POSITIONS` hold for a file), not a game at a time."""
    main_line_only: bool = False
    """It holds the main line's turns only (no variations)."""
    checks_scores: bool = False
    """Its reader checks the match scores itself (R-MATCH), so :func:`read_file` does not."""
    left_out: Callable[[list[Game]], Message | None] | None = None
    """What a file of some games cannot hold of them, said in a sentence (``None``: nothing)."""
    set_up: bool = True
    """It holds games started from a position of their own (the ``Position`` tag)."""

    def holds(self, variant: str) -> bool:
        """Whether the format can hold games of the rule set ``variant``."""
        return self.variants is None or variant in self.variants

    def cannot_hold(self, games: Iterable[Game]) -> Message | None:
        """Why the format cannot hold ``games`` (a rule set it does not hold, a game from a
        position of its own), or ``None``."""
        games = list(games)
        if self.variants is not None:
            for game in games:
                if not self.holds(game.rules.name):
                    return Message.of("format.rule-sets", format=self.name,
                                      variants=either(self.variants, each=True), variant=game.rules.name)
        if not self.set_up:
            for game in games:
                if game.headers.get("Position"):
                    return Message.of("format.set-up", format=self.name, position=game.headers["Position"])
        return None


class CannotHold(FormatError):
    """Games that a format cannot hold (:meth:`Format.cannot_hold`)."""


def _read_jqn(path: Path_, variant: str) -> Iterator[Game]:
    """:func:`~notation.formats.jqn.read_games` with a :class:`GameBuilder` for each game."""
    for raw in split_games(path):
        builder = GameBuilder(variant)
        walk(raw, builder)
        yield builder.result()


def _ignoring_variant(read: Callable[[Path_], Iterable[Game]]) -> Callable[[Path_, str], Iterable[Game]]:
    """A reader of a format that says every game's rule set (or holds one only)."""
    return lambda path, variant: read(path)


def _write_jqn(games: list[Game]) -> str:
    return "\n".join(write_game(game) for game in games)


def _write_json(games: list[Game]) -> str:
    return json_format.dumps(games, indent=1) + "\n"


FORMATS: tuple[Format, ...] = (
    Format("jqn", (".jqn", ".txt"), "text notation (.jqn, .txt)", _read_jqn, _write_jqn,
           whole=False),
    Format("json", (".json",), "JSON", _ignoring_variant(json_format.read_json), _write_json),
    Format("mat", (".mat",), "GNU Backgammon match (.mat)", _ignoring_variant(read_mat),
           write_mat, variants=("backgammon",), main_line_only=True, checks_scores=True,
           left_out=left_out, set_up=False),
    Format("sgf", (".sgf",), "SGF (backgammon)", _ignoring_variant(read_sgf), None),
    Format("xml", (".xml",), "XML", _ignoring_variant(xml_format.read_xml), xml_format.dumps),
)
"""Every format, by name (the order of :data:`READABLE` and :data:`WRITABLE`)."""

BY_NAME = {fmt.name: fmt for fmt in FORMATS}
EXTENSIONS = {extension: fmt.name for fmt in FORMATS for extension in fmt.extensions}
READABLE = tuple(fmt.name for fmt in FORMATS if fmt.read is not None)
WRITABLE = tuple(fmt.name for fmt in FORMATS if fmt.write is not None)


def format_of(path: Path_, explicit: str | None = None) -> str:
    """The format named, or the one the extension says; :class:`~notation.errors.FormatError` if unknown."""
    if explicit:
        name = explicit.lower().lstrip(".")
        if name not in BY_NAME:
            raise FormatError(Message.of("format.unknown", name=repr(explicit), known=", ".join(READABLE)))
        return name
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        raise FormatError(Message.of("format.extension", path=repr(os.fspath(path)),
                                     known=", ".join(sorted(EXTENSIONS))))
    return EXTENSIONS[suffix]


def read_file(path: Path_, fmt: str | None = None, variant: str = DEFAULT,
              strict: bool = False) -> Iterator[Game]:
    """Every game of a file, checked; each game carries its ``errors`` and reading goes on
    with the next game. With ``strict=True`` the first error is raised instead. Raises
    :class:`OSError` if the file cannot be read, :class:`RecordError` if a file read whole
    (JSON, ``.mat``, SGF, XML) cannot be read as a whole: a JSON or XML document that is
    malformed (or hostile, or breaks the schema), or a limit of ``notation.limits``
    crossed. Nothing else: the text notation reports every problem, limits included, as
    an error of its game."""
    form = BY_NAME[format_of(path, fmt)]
    if form.read is None:  # pragma: no cover - every format is read
        raise FormatError(Message.of("format.unreadable", name=form.name, known=", ".join(READABLE)))
    games = form.read(path, variant)
    if not form.checks_scores:
        games = checked_scores(games, os.fspath(path))
    for game in games:
        if strict and game.errors:
            raise game.errors[0]
        yield game


def render(games: Iterable[Game], fmt: str) -> str:
    """Games as the text of a file in ``fmt``; :class:`~notation.errors.FormatError` if the format cannot be
    written (SGF) or cannot hold them (``.mat`` holds backgammon only:
    :class:`CannotHold`)."""
    games = list(games)
    form = BY_NAME.get(fmt)
    if form is None or form.write is None:
        raise FormatError(Message.of("format.unwritable", name=fmt, known=", ".join(WRITABLE)))
    refusal = form.cannot_hold(games)
    if refusal is not None:
        raise CannotHold(refusal)
    return form.write(games)


def _check_readable_whole(games: list[Game], text: str, form: Format) -> None:
    """:class:`~notation.errors.FormatError` if a file read whole (JSON, XML, ``.mat``)
    would hold more than its reader takes (:mod:`notation.limits`): a file this toolkit
    could not read back."""
    size = len(text.encode("utf-8"))
    held: Callable[[Game], Iterator[GameNode]] = (
        GameNode.mainline if form.main_line_only else GameNode.descendants)
    positions = sum(1 + sum(1 for _ in held(game)) for game in games)
    if size > MAX_FILE_BYTES or positions > MAX_POSITIONS:
        raise FormatError(Message.of("format.too-large", games=len(games), name=form.name,
                                     size=Count(size), positions=Count(positions),
                                     most_bytes=Count(MAX_FILE_BYTES), most_positions=Count(MAX_POSITIONS)))


def write_file(games: Iterable[Game], path: Path_, fmt: str | None = None) -> None:
    """Write games to ``path`` atomically: a temporary file renamed into place, so a
    failure never leaves a half-written file. A new file gets the permissions the umask
    gives, a file written over keeps its own; a symbolic link is followed (the file it
    names is written); what is not a regular file (a pipe, a device) is written to as it
    is."""
    form = BY_NAME[format_of(path, fmt)]
    games = list(games)
    text = render(games, form.name)
    if form.whole:
        _check_readable_whole(games, text, form)
    target = Path(os.path.realpath(path))
    existing = target.stat() if target.exists() else None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(target, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        return
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # less the umask
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        if existing is not None:
            os.chmod(temporary, stat.S_IMODE(existing.st_mode))
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


__all__ = ["BY_NAME", "EXTENSIONS", "FORMATS", "READABLE", "WRITABLE", "CannotHold", "Format",
           "RecordError", "format_of", "read_file", "render", "write_file"]
