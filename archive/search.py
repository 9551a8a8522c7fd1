"""Searching the archive: games by their tags, players, dates, results, length, the text
of their annotations and their validity; sorted and paged. Every value is a bound
parameter, and text for full-text search is always quoted, so ``24/13`` or ``6-5`` are
searched as typed."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from notation.messages import Message, MessageError
from notation.tree.game import Game

from .rows import game_hash, record_text

if TYPE_CHECKING:
    from sqlite_utils import Database

SORTS = {"id": "g.id", "date": "g.date", "turns": "g.turns", "points": "g.points",
         "white": "w.name", "black": "b.name", "event": "e.name", "variant": "g.variant"}
COLUMNS = ("g.id, g.variant, g.date, g.round, g.site, e.name AS event, w.name AS white, "
           "b.name AS black, g.result, g.winner, g.points, g.turns, g.valid, g.error_rule, "
           "g.error_message, g.error_ply, g.game_number, g.score_white, g.score_black, "
           "m.name AS match, m.length AS match_length, g.source_file, g.error_msg")


class BadFilter(MessageError, ValueError):
    """A search filter the archive cannot use (a date that is none, too many words, an
    unknown order): ``msg`` says which (``archive.filter.*``)."""


@dataclass
class Query:
    """A search: every field left ``None`` does not filter. ``player`` matches either
    colour; a name filter finds the name itself (Unicode case folding) and every name in
    which each of its words begins a word (``mar`` finds Marie); in double quotes
    (``"Marie"``), that name only. ``result`` is ``W``, ``B`` or
    ``*``; ``text`` searches comments (full text); ``valid`` keeps valid or invalid games. Dates
    are ``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (:func:`date_bound`); ``date_to`` takes in
    the whole year, month or day it names. Games an admin hid are left out unless
    ``with_hidden``.

    By the engine's analyses (the newest of each game, as its page shows it):
    ``error_rate_max`` and ``error_rate_min`` keep games where the ``player`` named (either
    side if none is named) made at least one unforced decision at that error rate at most or
    at least (thousandths of a point per decision, as ``jacquet analyse`` gives it);
    ``very_bad_by`` keeps games holding a ``??`` by that player (named as ``player`` is).

    Paging: ``offset`` skips games (each skipped game is read: for the first pages), or
    ``after`` (``before``) names the game whose page this one follows (precedes) in the
    query's order, found by the index however deep (keyset paging: :func:`search_page`
    gives the games to name). ``count_limit``: count the matches up to that many only."""

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
    error_rate_max: float | None = None
    error_rate_min: float | None = None
    very_bad_by: str | None = None
    with_hidden: bool = False
    sort: str = "id"
    descending: bool = False
    limit: int = 50
    offset: int = 0
    after: int | None = None
    before: int | None = None
    count_limit: int | None = None


def _where(db: Database, query: Query) -> tuple[str, list[object], bool]:
    """The WHERE of ``query``, its values, and whether it filters more than hidden games."""
    clauses, params = _filters(db, query)
    filtered = bool(clauses)
    if not query.with_hidden:
        clauses = ["g.hidden = 0", *clauses]
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params, filtered


NEWEST_ANALYSIS = ("SELECT n.id FROM analyses n WHERE n.game_id = a.game_id "
                   "ORDER BY n.analysed_at DESC, n.depth DESC, n.id DESC LIMIT 1")
"""The analysis of a game its page shows (as :func:`archive.analyses.latest_analysis`)."""


def _filters(db: Database, query: Query) -> tuple[list[str], list[object]]:
    """The clauses and values of ``query``'s filters (hidden games aside)."""
    clauses: list[str] = []
    params: list[object] = []

    def add(clause: str, *values: object) -> None:
        clauses.append(clause)
        params.extend(values)

    def analysed(condition: str, name: str | None, *values: object) -> None:
        """Games whose newest analysis has a side meeting ``condition`` (that of ``name``)."""
        whose, names = "", list[object]()
        if name:
            ids, names = _named("players", name)
            whose = f" AND ap.player_id IN ({ids})"
        add("g.id IN (SELECT a.game_id FROM analyses a JOIN analysis_players ap "
            f"ON ap.analysis_id = a.id WHERE a.id = ({NEWEST_ANALYSIS}) AND {condition}{whose})",
            *values, *names)

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
        check_words("text", query.text)
        words = db.quote_fts(query.text)
        if words:
            add("g.id IN (SELECT a.game_id FROM annotations a JOIN annotations_fts f "
                "ON f.rowid = a.id WHERE annotations_fts MATCH ?)", words)
        else:  # no word to look for: no comment contains it
            add("0")
    if query.error_rate_max is not None:
        analysed("ap.decisions > 0 AND ap.error_rate <= ?", query.player, query.error_rate_max)
    if query.error_rate_min is not None:
        analysed("ap.decisions > 0 AND ap.error_rate >= ?", query.player, query.error_rate_min)
    if query.very_bad_by:
        analysed("ap.very_bad > 0", query.very_bad_by)
    return clauses, params


DATE_BOUND = re.compile(r"(\d{4})(?:[.-](\d{2})(?:[.-](\d{2}))?)?")


def date_bound(text: str) -> str:
    """A date filter as the archive writes dates: ``2023``, ``2023.09`` or ``2023.09.19``
    (dashes may stand for the dots); :class:`ValueError` for anything else."""
    match = DATE_BOUND.fullmatch(text.strip())
    year, month, day = match.groups() if match else (None, None, None)
    if not match or (month and not 1 <= int(month) <= 12) or (day and not 1 <= int(day) <= 31):
        raise BadFilter("archive.filter.date", value=repr(text))
    return ".".join(part for part in (year, month, day) if part)


_WORD = re.compile(r"[^\W_]+")
MAX_WORDS = 20
"""Words a name or text filter may hold (each is a full-text term: 120,000 of them took
35 s); more is a :class:`ValueError`."""


def check_words(name: str, text: str) -> None:
    """:class:`BadFilter` if the filter ``name`` holds more than :data:`MAX_WORDS` words."""
    if len(_WORD.findall(text)) > MAX_WORDS:
        raise BadFilter("archive.filter.words", name=name, count=MAX_WORDS)


def _named(table: str, name: str) -> tuple[str, list[object]]:
    """SQL for the ids of the rows of ``table`` (players or events) that ``name`` names,
    and its values: the name itself (Unicode case folded), or every name in which each word
    of ``name`` begins a word (full text: ``llab`` finds Llabba, ``club`` Club Night; case
    and accents ignored). A name in double quotes finds that name only."""
    check_words("name", name)
    words = _WORD.findall(name)
    if len(name) > 1 and name[0] == name[-1] == '"':  # "Jean": that name only
        return f"SELECT id FROM {table} WHERE key = ?", [name[1:-1].casefold()]
    if not words:
        return f"SELECT id FROM {table} WHERE key = ?", [name.casefold()]
    prefixes = " ".join(f'"{word}"*' for word in words)
    return ((f"SELECT id FROM {table} WHERE key = ? "
             f"UNION SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?"), [name.casefold(), prefixes])


JOINS = ("LEFT JOIN players w ON w.id = g.white_id "
         "LEFT JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id "
         "LEFT JOIN matches m ON m.id = g.match_id")
FROM = f"FROM games g {JOINS}"
IN_ORDER = {"id": "NOT INDEXED", "date": "INDEXED BY idx_games_date",
            "turns": "INDEXED BY idx_games_turns", "points": "INDEXED BY idx_games_points",
            "variant": "INDEXED BY idx_games_variant"}
"""How to read the games in a sort's order (its index; the table itself for the number),
for a search with many matches: SQLite would otherwise gather every match its filters'
indexes find (100,000 games of the players a name finds) and sort them all for one page.
With more matches than the count limit, the page is met within ``games / count_limit``
games per game shown."""


NULLABLE = {"date", "points", "white", "black", "event"}
"""Sorts whose value a game may lack (SQLite puts those games first going up, last going
down)."""


@dataclass
class Page:
    """One page of a search: its games (dicts), how many games match (``total``; at most
    the query's ``count_limit`` + 1 when it has one: ``exact`` is then false), and whether
    there are games after it and before it in the query's order."""

    rows: list[dict[str, Any]]
    total: int
    exact: bool
    more_after: bool
    more_before: bool


def public_row(row: dict[str, Any], say: Callable[[Message], str]) -> dict[str, Any]:
    """A game's row of :func:`search` as programs read it (the API, ``jacquet search
    --json``): its first error's text in the reader's language (``say``), beside its message
    id and parameters as ``error`` (``{"id": ..., "params": ...}``); ``error`` is ``None`` for a
    valid game, and for a game stored before the archive kept messages, whose
    ``error_message`` stays the English it was stored with."""
    found = {key: value for key, value in row.items() if key != "error_msg"}
    found["error"] = None
    if row.get("error_msg"):
        try:
            message = Message.from_stored(row["error_msg"])
            found["error_message"], found["error"] = say(message), message.as_json()
        except (ValueError, KeyError):  # (a message of a later version: its text as stored)
            found["error"] = None
    return found


def search(db: Database, query: Query) -> tuple[list[dict[str, Any]], int]:
    """The games of one page, as dicts, and how many games match in all."""
    page = search_page(db, query)
    return page.rows, page.total


def search_page(db: Database, query: Query) -> Page:
    """One page of the games ``query`` finds (see :class:`Query` for its paging)."""
    if query.sort not in SORTS:
        raise BadFilter("archive.filter.sort", sort=repr(query.sort), sorts=", ".join(SORTS))
    where, params, filtered = _where(db, query)
    limit = max(0, query.limit)
    with db.atomic():  # one read transaction: the count and the page see the same games
        total, exact = _count(db, query, (where, params) if filtered else None)
        source = f"FROM games g {IN_ORDER.get(query.sort, '')} {JOINS}" if not exact else FROM
        anchor, backward = (query.before, True) if query.before is not None else (query.after, False)
        key = None if anchor is None else _sort_key(db, query.sort, anchor)
        if key is None or anchor is None:  # no anchor, or its game is gone: by offset
            order = _order(query.sort, query.descending)
            rows = _rows(db, source, f"{where} ORDER BY {order} LIMIT ? OFFSET ?",
                         [*params, limit + 1, max(0, query.offset)])
            more_before, backward = query.offset > 0, False
        else:
            rows = _after_key(db, source, query, (where, params), (key, anchor), backward, limit + 1)
            more_before = True
    more = len(rows) > limit
    rows = rows[:limit]
    if backward:
        rows.reverse()
        more, more_before = True, more
    return Page(rows, total, exact, more, more_before)


def _count(db: Database, query: Query, filters: tuple[str, list[object]] | None) -> tuple[int, bool]:
    """How many games ``query`` finds, and whether that is exact: the kept count when
    nothing but hidden games is left out (``filters`` is ``None``), else those of its WHERE
    and values counted up to ``count_limit`` + 1."""
    if filters is None:
        kept, hidden = db.execute("SELECT n, hidden FROM game_count").fetchone()
        return (kept if query.with_hidden else kept - hidden), True
    where, params = filters
    if query.count_limit is None:
        return db.execute(f"SELECT count(*) {FROM}{where}", params).fetchone()[0], True
    counted = db.execute(f"SELECT count(*) FROM (SELECT 1 {FROM}{where} LIMIT ?)",
                         [*params, query.count_limit + 1]).fetchone()[0]
    return counted, counted <= query.count_limit


def _order(sort: str, descending: bool) -> str:
    """The ORDER BY of a sort: its value, then the game's number the same way."""
    way = "DESC" if descending else "ASC"
    return f"{SORTS[sort]} {way}, g.id {way}"


def _rows(db: Database, source: str, tail: str, params: list[object]) -> list[dict[str, Any]]:
    cursor = db.execute(f"SELECT {COLUMNS} {source}{tail}", params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _sort_key(db: Database, sort: str, game_id: int) -> tuple[object] | None:
    """The sort value of game ``game_id`` (in a 1-tuple: the value may be NULL), or
    ``None`` if there is no such game."""
    if not 0 <= game_id <= MAX_SQL_INT:
        return None
    row = db.execute(f"SELECT {SORTS[sort]} {FROM} WHERE g.id = ?", [game_id]).fetchone()
    return None if row is None else (row[0],)


def _after_key(db: Database, source: str, query: Query, filters: tuple[str, list[object]],
               anchor: tuple[tuple[object], int], backward: bool, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` games after (``backward``: before, nearest first) the game
    ``anchor`` (its sort value in a 1-tuple, its number), each part of the order read from
    its index: the games without a value and those with one are read apart (NULL is first
    going up)."""
    (where, params), ((value,), number) = filters, anchor
    column = SORTS[query.sort]
    up = query.descending == backward  # the way the games are read
    than, way = (">", "ASC") if up else ("<", "DESC")
    join = " AND " if where else " WHERE "
    parts: list[tuple[str, list[object]]] = []
    if value is None:  # among the games without a value: by number
        parts.append((f"{column} IS NULL AND g.id {than} ? ORDER BY g.id {way}", [number]))
        if up:
            parts.append((f"{column} IS NOT NULL ORDER BY {_order(query.sort, not up)}", []))
    else:
        parts.append((f"({column}, g.id) {than} (?, ?) ORDER BY {_order(query.sort, not up)}",
                      [value, number]))
        if not up and query.sort in NULLABLE:
            parts.append((f"{column} IS NULL ORDER BY g.id DESC", []))
    rows: list[dict[str, Any]] = []
    for clause, values in parts:
        if len(rows) < limit:
            rows += _rows(db, source, f"{where}{join}{clause} LIMIT ?",
                          [*params, *values, limit - len(rows)])
    return rows


def game_ids(db: Database, query: Query) -> list[int]:
    """Every matching game id, in the query's order (for export)."""
    where, params, _ = _where(db, query)
    order = _order(query.sort if query.sort in SORTS else "id", query.descending)
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
    """One game's row (with player, event and match names and its ``record``; an invalid
    game's error as a message too, ``error_msg``)."""
    return _game(db, game_id, "g.record, g.tags, g.first, g.error_msg")


def game_row(db: Database, game_id: int) -> dict[str, Any] | None:
    """One game's row as :func:`record` gives it, without the record but with its content
    ``hash``, which names the record: what is read from a record can be kept under it; and
    whether it is ``hidden``."""
    return _game(db, game_id, "g.hash, g.tags, g.first, g.hidden, g.error_msg")


def record_by_hash(db: Database, content_hash: str) -> str | None:
    """The record whose content hash is ``content_hash`` (``None`` if none is stored)."""
    row = db.execute("SELECT record FROM games WHERE hash = ?", [content_hash]).fetchone()
    return None if row is None else row[0]


def stored_id(db: Database, game: Game) -> int | None:
    """The id under which ``game`` is stored (found by its content hash), or ``None``."""
    row = db.execute("SELECT id FROM games WHERE hash = ?", [game_hash(game, record_text(game))]).fetchone()
    return None if row is None else row[0]
