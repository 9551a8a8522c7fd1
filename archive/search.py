"""Searching the archive: games by their tags, players, dates, results, length, the text
of their annotations and their validity; sorted and paged. Every value is a bound
parameter, and text for full-text search is always quoted, so ``24/13`` or ``6-5`` are
searched as typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from notation.tree.game import Game

from .rows import game_hash, record_text

SORTS = {"id": "g.id", "date": "g.date", "turns": "g.turns", "points": "g.points",
         "white": "w.name", "black": "b.name", "event": "e.name", "variant": "g.variant"}
COLUMNS = ("g.id, g.variant, g.date, g.round, g.site, e.name AS event, w.name AS white, "
           "b.name AS black, g.result, g.winner, g.points, g.turns, g.valid, g.error_rule, "
           "g.error_message, g.error_ply, g.game_number, g.score_white, g.score_black, "
           "m.name AS match, m.length AS match_length, g.source_file")


@dataclass
class Query:
    """A search: every field left ``None`` does not filter. ``player`` matches either
    colour; a name filter finds the name itself (Unicode case folding) and every name in
    which each of its words begins a word (``mar`` finds Marie); in double quotes
    (``"Marie"``), that name only. ``result`` is ``W``, ``B`` or
    ``*``; ``text`` searches comments (full text); ``valid`` keeps valid or invalid games. Dates
    are ``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (:func:`date_bound`); ``date_to`` takes in
    the whole year, month or day it names. Games an admin hid are left out unless
    ``with_hidden``."""

    player: str | None = None
    white: str | None = None
    black: str | None = None
    event: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    variant: str | None = None
    result: str | None = None
    points_min: int | None = None
    points_max: int | None = None
    turns_min: int | None = None
    turns_max: int | None = None
    text: str | None = None
    valid: bool | None = None
    match: str | None = None
    with_hidden: bool = False
    sort: str = "id"
    descending: bool = False
    limit: int = 50
    offset: int = 0



def _where(db: Database, query: Query) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []

    def add(clause: str, *values: object) -> None:
        clauses.append(clause)
        params.extend(values)

    if not query.with_hidden:
        add("g.hidden = 0")
    if query.player:
        ids, values = _named("players", query.player)
        add(f"(g.white_id IN ({ids}) OR g.black_id IN ({ids}))", *values, *values)
    if query.white:
        ids, values = _named("players", query.white)
        add(f"g.white_id IN ({ids})", *values)
    if query.black:
        ids, values = _named("players", query.black)
        add(f"g.black_id IN ({ids})", *values)
    if query.event:
        ids, values = _named("events", query.event)
        add(f"g.event_id IN ({ids})", *values)
    if query.match:
        add("m.name = ? COLLATE NOCASE", query.match)
    if query.date_from:
        add("g.date >= ?", date_bound(query.date_from))
    if query.date_to:  # up to the end of that year, month or day
        add("g.date <= ?", date_bound(query.date_to) + "\uffff")
    if query.variant:
        add("g.variant = ?", query.variant)
    if query.result == "*":
        add("g.winner IS NULL")
    elif query.result:
        add("g.winner = ?", query.result)
    if query.points_min is not None:
        add("g.points >= ?", query.points_min)
    if query.points_max is not None:
        add("g.points <= ?", query.points_max)
    if query.turns_min is not None:
        add("g.turns >= ?", query.turns_min)
    if query.turns_max is not None:
        add("g.turns <= ?", query.turns_max)
    if query.valid is not None:
        add("g.valid = ?", int(query.valid))
    if query.text:
        check_words("the text", query.text)
        words = db.quote_fts(query.text)
        if words:
            add("g.id IN (SELECT a.game_id FROM annotations a JOIN annotations_fts f "
                "ON f.rowid = a.id WHERE annotations_fts MATCH ?)", words)
        else:  # no word to look for: no comment contains it
            add("0")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


DATE_BOUND = re.compile(r"(\d{4})(?:[.-](\d{2})(?:[.-](\d{2}))?)?")


def date_bound(text: str) -> str:
    """A date filter as the archive writes dates: ``2023``, ``2023.09`` or ``2023.09.19``
    (dashes may stand for the dots); :class:`ValueError` for anything else."""
    match = DATE_BOUND.fullmatch(text.strip())
    year, month, day = match.groups() if match else (None, None, None)
    if not match or (month and not 1 <= int(month) <= 12) or (day and not 1 <= int(day) <= 31):
        raise ValueError(f"{text!r} is not a date: write YYYY, YYYY.MM or YYYY.MM.DD")
    return ".".join(part for part in (year, month, day) if part)


_WORD = re.compile(r"[^\W_]+")
MAX_WORDS = 20
"""Words a name or text filter may hold (each is a full-text term: 120,000 of them took
35 s); more is a :class:`ValueError`."""


def check_words(name: str, text: str) -> None:
    """:class:`ValueError` if the filter ``name`` holds more than :data:`MAX_WORDS` words."""
    if len(_WORD.findall(text)) > MAX_WORDS:
        raise ValueError(f"{name} holds more than {MAX_WORDS} words")


def _named(table: str, name: str) -> tuple[str, list[object]]:
    """SQL for the ids of the rows of ``table`` (players or events) that ``name`` names,
    and its values: the name itself (Unicode case folded), or every name in which each word
    of ``name`` begins a word (full text: ``llab`` finds Llabba, ``club`` Club Night; case
    and accents ignored). A name in double quotes finds that name only."""
    check_words("a name", name)
    words = _WORD.findall(name)
    if len(name) > 1 and name[0] == name[-1] == '"':  # "Jean": that name only
        return f"SELECT id FROM {table} WHERE key = ?", [name[1:-1].casefold()]
    if not words:
        return f"SELECT id FROM {table} WHERE key = ?", [name.casefold()]
    prefixes = " ".join(f'"{word}"*' for word in words)
    return ((f"SELECT id FROM {table} WHERE key = ? "
             f"UNION SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?"), [name.casefold(), prefixes])


FROM = ("FROM games g LEFT JOIN players w ON w.id = g.white_id "
        "LEFT JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id "
        "LEFT JOIN matches m ON m.id = g.match_id")


def search(db: Database, query: Query) -> tuple[list[dict[str, Any]], int]:
    """The games of one page, as dicts, and how many games match in all."""
    if query.sort not in SORTS:
        raise ValueError(f"cannot sort by {query.sort!r}; sort by: {', '.join(SORTS)}")
    where, params = _where(db, query)
    order = f"{SORTS[query.sort]} {'DESC' if query.descending else 'ASC'}, g.id"
    with db.atomic():  # one read transaction: the count and the page see the same games
        total = db.execute("SELECT n FROM game_count" if not where
                           else f"SELECT count(*) {FROM}{where}", params).fetchone()[0]
        cursor = db.execute(f"SELECT {COLUMNS} {FROM}{where} ORDER BY {order} LIMIT ? OFFSET ?",
                            [*params, max(0, query.limit), max(0, query.offset)])
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return rows, total


def game_ids(db: Database, query: Query) -> list[int]:
    """Every matching game id, in the query's order (for export)."""
    where, params = _where(db, query)
    order = f"{SORTS.get(query.sort, 'g.id')} {'DESC' if query.descending else 'ASC'}, g.id"
    return [row[0] for row in db.execute(f"SELECT g.id {FROM}{where} ORDER BY {order}", params)]


MAX_SQL_INT = 2**63 - 1
"""SQLite's largest integer: a larger id names no game, a larger number is no filter."""


def _game(db: Database, game_id: int, columns: str) -> dict[str, Any] | None:
    if not 0 <= game_id <= MAX_SQL_INT:
        return None
    cursor = db.execute(f"SELECT {COLUMNS}, {columns} {FROM} WHERE g.id = ?", [game_id])
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cursor.description], row, strict=True))


def record(db: Database, game_id: int) -> dict[str, Any] | None:
    """One game's row (with player, event and match names and its ``record``)."""
    return _game(db, game_id, "g.record, g.tags, g.first")


def game_row(db: Database, game_id: int) -> dict[str, Any] | None:
    """One game's row as :func:`record` gives it, without the record but with its content
    ``hash``, which names the record: what is read from a record can be kept under it; and
    whether it is ``hidden``."""
    return _game(db, game_id, "g.hash, g.tags, g.first, g.hidden")


def record_by_hash(db: Database, content_hash: str) -> str | None:
    """The record whose content hash is ``content_hash`` (``None`` if none is stored)."""
    row = db.execute("SELECT record FROM games WHERE hash = ?", [content_hash]).fetchone()
    return None if row is None else row[0]


def stored_id(db: Database, game: Game) -> int | None:
    """The id under which ``game`` is stored (found by its content hash), or ``None``."""
    row = db.execute("SELECT id FROM games WHERE hash = ?", [game_hash(game, record_text(game))]).fetchone()
    return None if row is None else row[0]
