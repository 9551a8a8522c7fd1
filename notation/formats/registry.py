"""Reading and writing games in every supported format, chosen by file extension or name.

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
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from notation.errors import RecordError
from notation.formats import json_format, xml_format
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.formats.mat import read_mat
from notation.formats.mat.writer import write_mat
from notation.formats.sgf import read_sgf
from notation.formats.xml_format import read_xml
from notation.limits import MAX_FILE_BYTES, MAX_POSITIONS
from notation.tree.game import Game
from notation.tree.matches import checked_scores

EXTENSIONS = {".jqn": "jqn", ".txt": "jqn", ".json": "json", ".mat": "mat", ".sgf": "sgf",
              ".xml": "xml"}
READABLE = ("jqn", "json", "mat", "sgf", "xml")
WRITABLE = ("jqn", "json", "mat", "xml")


def format_of(path: str | os.PathLike, explicit: str | None = None) -> str:
    """The format named, or the one the extension says; ``ValueError`` if unknown."""
    if explicit:
        name = explicit.lower().lstrip(".")
        if name not in READABLE + WRITABLE:
            raise ValueError(f"unknown format {explicit!r}; known: {', '.join(READABLE)}")
        return name
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        raise ValueError(f"cannot tell the format of {os.fspath(path)!r} from its extension; "
                         f"known: {', '.join(sorted(EXTENSIONS))}")
    return EXTENSIONS[suffix]


def read_file(path: str | os.PathLike, fmt: str | None = None, variant: str = "jacquet",
              strict: bool = False) -> Iterator[Game]:
    """Every game of a file, checked; each game carries its ``errors`` and reading goes on
    with the next game. With ``strict=True`` the first error is raised instead. Raises
    :class:`OSError` if the file cannot be read, :class:`RecordError` if a file read whole
    (JSON, ``.mat``, SGF, XML) cannot be read as a whole: a JSON or XML document that is
    malformed (or hostile, or breaks the schema), or a limit of ``notation.limits``
    crossed. Nothing else: the text notation reports every problem, limits included, as
    an error of its game."""
    fmt = format_of(path, fmt)
    if fmt == "json":
        games: Iterable[Game] = json_format.read_json(path)
    elif fmt == "mat":
        games = read_mat(path)
    elif fmt == "sgf":
        games = read_sgf(path)
    elif fmt == "xml":
        games = read_xml(path)
    else:
        games = read_games(path, partial(GameBuilder, variant))  # type: ignore[assignment]
    if fmt != "mat":  # .mat checks its score lines itself
        games = checked_scores(games, os.fspath(path))
    for game in games:
        if strict and game.errors:
            raise game.errors[0]
        yield game


def render(games: Iterable[Game], fmt: str) -> str:
    """Games as the text of a file in ``fmt``; ``ValueError`` if the format cannot be
    written (SGF) or cannot hold them (``.mat`` holds backgammon only)."""
    games = list(games)
    if fmt == "json":
        return json_format.dumps(games, indent=1) + "\n"
    if fmt == "mat":
        return write_mat(games)
    if fmt == "xml":
        return xml_format.dumps(games)
    if fmt == "jqn":
        return "\n".join(write_game(game) for game in games)
    raise ValueError(f"cannot write {fmt}; writable: {', '.join(WRITABLE)}")


def _check_readable_whole(games: list[Game], text: str, fmt: str) -> None:
    """``ValueError`` if a file read whole (JSON, XML, ``.mat``) would hold more than its
    reader takes (:mod:`notation.limits`): a file this toolkit could not read back."""
    size = len(text.encode("utf-8"))
    held = (lambda game: game.mainline()) if fmt == "mat" else (lambda game: game.descendants())
    positions = sum(1 + sum(1 for _ in held(game)) for game in games)  # .mat: the main line
    if size > MAX_FILE_BYTES or positions > MAX_POSITIONS:
        raise ValueError(f"{len(games)} games make a {fmt} file of {size:,} bytes and {positions:,} "
                         f"positions, more than a file read whole may hold ({MAX_FILE_BYTES:,} "
                         f"bytes, {MAX_POSITIONS:,} positions): write .jqn, or fewer games per file")


def write_file(games: Iterable[Game], path: str | os.PathLike, fmt: str | None = None) -> None:
    """Write games to ``path`` atomically: a temporary file renamed into place, so a
    failure never leaves a half-written file. A new file gets the permissions the umask
    gives, a file written over keeps its own; a symbolic link is followed (the file it
    names is written); what is not a regular file (a pipe, a device) is written to as it
    is."""
    fmt = format_of(path, fmt)
    games = list(games)
    text = render(games, fmt)
    if fmt != "jqn":
        _check_readable_whole(games, text, fmt)
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


__all__ = ["READABLE", "WRITABLE", "RecordError", "format_of", "read_file", "render", "write_file"]
