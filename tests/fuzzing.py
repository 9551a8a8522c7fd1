"""Hostile input for the readers: seed records, mutations, random input, and the rule that
reading must keep. Shared by ``tests/test_fuzz_readers.py`` (inputs drawn by hypothesis)
and ``bench/fuzz_readers.py`` (a million inputs drawn with ``random.Random``): both mutate
with :func:`mutate` and judge with :func:`read_input`.

* **Seeds** (:func:`seed_records`): valid records of every readable format, the samples
  (one game each, error games included), random games from :mod:`notation.tree.generate`
  rendered in the format, the local real ``.mat`` and SGF files of ``tests/data`` and,
  where present, the shared corpus.
* **Mutations** (:class:`Mutation`): flip, delete, duplicate, insert, replace or swap one
  byte, token (a run without white space) or line; inserted text comes from
  :data:`PAYLOADS`, pieces that mean something to some reader (numbers of thousands of
  digits, deep nesting, bad UTF-8, cube words...).
* **Random input** (:func:`random_input`): random bytes, random text, or random runs of a
  format's vocabulary.
* **The rule** (:func:`read_input`): reading, through :func:`notation.formats.read_file`
  with the iterator consumed and every game's tree walked, raises nothing but a
  :class:`~notation.errors.RecordError` (a document that cannot be read whole); every error
  and warning a game carries is a ``RecordError`` naming the file, a line of it, and that
  game (or none). Anything else is a bug: the exception propagates, and a malformed error
  raises :class:`Unstructured`.
"""

from __future__ import annotations

import os
import random
import re
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeVar

from notation import rule_set
from notation.engine.rules import NAMES
from notation.engine.state import ROLL, Colour
from notation.errors import RecordError
from notation.formats import READABLE, read_file, render
from notation.formats.jqn import RawGame, split_games
from notation.tree.game import Game, GameNode
from notation.tree.generate import random_game

from .conftest import DATA, SHARED

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CORPUS = SHARED / "backgammon"
EXTENSION = {"jqn": ".jqn", "json": ".json", "mat": ".mat", "sgf": ".sgf", "xml": ".xml"}
T = TypeVar("T")

# -- seeds ---------------------------------------------------------------------------


def game_text(raw: RawGame) -> str:
    """One game of a text-notation file as a record of its own: its tag lines, a blank
    line, its movetext."""
    return "".join(text + "\n" for _, text in raw.headers) + "\n" + raw.movetext


def real_mat_paths(shared: bool = True) -> list[Path]:
    """The real ``.mat`` matches: ``tests/data/mat`` but its deliberately broken edge cases
    and, with ``shared``, the shared ``real-mat`` corpus where it is present."""
    paths = [p for p in sorted((DATA / "mat").glob("*.mat"))
             if not p.name.startswith(("illegal", "impossible"))]
    if shared and (CORPUS / "real-mat").exists():
        paths += sorted((CORPUS / "real-mat").glob("*/*.mat"))
    return paths


def _letter(point: int, colour: Colour) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") - 1 + (point if colour is Colour.WHITE else 25 - point))


def sgf_text(game: Game) -> str:
    """A backgammon game as GNU Backgammon's SGF (``W[53xwmh]``...): seeds for the SGF
    reader, which has no writer of its own."""
    nodes = [(f"(;FF[4]GM[6]CA[UTF-8]MI[length:0][game:0][ws:0][bs:0]"
             f"PW[{game.headers.get('White', '')}]PB[{game.headers.get('Black', '')}]RE[{game.result}]")]
    for node in game.mainline():
        turn = node.turn
        if turn.kind == ROLL:
            moves = "".join(_letter(s.from_point, turn.player) + _letter(s.to_point, turn.player)
                            for s in turn.play.steps)
            nodes.append(f";{turn.player.value}[{turn.dice}{moves}]")
        else:
            nodes.append(f";{turn.player.value}[{turn.kind}]")
    return "".join(nodes) + ")\n"


@cache
def generated_games(per_variant: int = 2) -> tuple[Game, ...]:
    """Random annotated games of every rule set, the same on every run."""
    return tuple(random_game(rule_set(name), random.Random(f"fuzz:{name}:{n}"), annotate=True)
                 for name in NAMES for n in range(per_variant))


def _sample_games() -> list[Game]:
    games = []
    for path in sorted(SAMPLES.rglob("*.jqn")):
        games += [g for g in read_file(path) if not g.errors]
    return games


def _files(*patterns: str, root: Path = DATA) -> list[bytes]:
    return [p.read_bytes() for pattern in patterns for p in sorted(root.glob(pattern))]


@cache
def seed_records(fmt: str, shared: bool = True) -> tuple[bytes, ...]:
    """Records of ``fmt``, one game or one match each: valid ones, and for the text
    notation the games of the error sample too. ``shared``: add the shared corpus when it
    is there."""
    generated = list(generated_games())
    backgammon = [g for g in generated if g.rules.name == "backgammon"]
    if fmt == "jqn":
        records = [game_text(raw).encode("utf-8") for p in sorted(SAMPLES.rglob("*.jqn"))
                   for raw in split_games(p)]
        records += [render([g], "jqn").encode("utf-8") for g in generated]
    elif fmt in ("json", "xml"):
        records = [render([g], fmt).encode("utf-8") for g in _sample_games() + generated]
    elif fmt == "mat":
        records = [p.read_bytes() for p in real_mat_paths(shared)]
        records += [render([g], "mat").encode("utf-8") for g in backgammon]
        if shared and CORPUS.exists():
            records += _files("gnubg-derived/mat-reexport/*.mat", "sgf-samples/*.mat", root=CORPUS)
    else:
        records = _files("sgf/*.sgf") + [sgf_text(g).encode("utf-8") for g in backgammon]
        if shared and CORPUS.exists():
            records += _files("gnubg-derived/*.sgf", "gnubg-derived/sgf/*.sgf",
                              "sgf-samples/*.sgf", root=CORPUS)
    return tuple(records)


# -- mutations -----------------------------------------------------------------------

UNITS = ("byte", "token", "line")
OPERATIONS = ("flip", "delete", "duplicate", "insert", "replace", "swap")
_TOKENS = re.compile(rb"(\s+)")
LONG = b"9" * 5000
"""A number longer than Python converts by default (4300 digits)."""

_COMMON = (
    b"", b"0", b"1", b"6", b"7", b"25", b"26", b"99", b"-1", LONG, b"\x00", b"\xff", b"\xc3",
    b"\xef\xbb\xbf", b"\r", b"\n", b"\r\n", b"\t", b" ", b"\\", b'"', b"'", b"*", b"/", b":",
    b"(", b")", b"[", b"]", b"{", b"}", b"<", b">", b"&", b";", b"=", b",",
    "é".encode(), "\u2028".encode(), "\u0663".encode(), "\u00b2".encode(), "\uff11".encode(),
    "\x85".encode(), b"\x0c", b"a" * 70000, b"\n" * 3000, b" " * 20000, b"\t" * 3000,
    b": 1 " * 2000, b"a/" * 200, b"1/0 " * 100,
)
PAYLOADS: dict[str, tuple[bytes, ...]] = {
    "jqn": _COMMON + (
        b"53:", b"66:", b"5-3:", b"5 3:", b">3:", b"24/18", b"24/18/13", b"25/22", b"bar/22*",
        b"6/off", b"6/0", b"8/7(2)", b"8/7(9)", b"8/7(" + LONG + b")", b"-", b"double", b"take",
        b"drop", b"resign", b"W+2", b"B+1", b"B+7", b"W+" + LONG, b"$1", b"$" + LONG, b"!?", b"1.",
        b"12...", b'[Variant "backgammon"]', b'[Variant "versailles"]', b'[Variant "murray"]',
        b'[Variant "hale"]', b'[Options "courier_release=next-turn bouchon=none"]',
        b'[Options "third_table_penalty=' + LONG + b'"]',
        b'[Options "third_table_penalty=\xc2\xb2"]', b'[Options "name=hale"]', b'[LeadRoll "W4 B4, W5 B3"]',
        b'[Lead "Black"]', b'[Result "W+2"]', b'[Result "W+' + LONG + b'"]',
        b'[Crawford "yes"]', b"(" * 3000, b"{" * 3000, b"(53: 24/16)" * 500,
    ),
    "json": _COMMON + (
        b"null", b"true", b"false", b"[]", b"{}", b'""', b'"x"', b"1e999", b"-0", b"1.5",
        b"[" * 3000, b"{\"a\":" * 3000, LONG, b'"headers":', b'"headers": []', b'"turns":',
        b'"variations": [[', b'"nags": [', b'"nags": ["x"]', b'"nags": [' + LONG + b"]",
        b'"comments": 5', b'"dice": "77"', b'"dice": 53', b'"play": 5', b'"kind": "double"',
        b'"kind": "resign"', b'"first": "B"', b'"first": 5', b'"variant": "hale"',
        b'"variant": 5', b'"options": {"x": 1}', b'"options": [1]', b'"Result": "W+2"',
        b"\\u0000", b"\\ud800", b'"result": "B+' + LONG + b'"',
    ),
    "xml": _COMMON + (
        b"</turn>", b'<turn player="W" dice="53" play="24/16"/>', b"<variation>",
        b"</variation>", b"<nag>1</nag>", b"<nag>" + LONG + b"</nag>", b"<comment>",
        b"</comment>", b"<!DOCTYPE x>", b"<!ENTITY", b"&amp;", b"&#0;", b"&#x1F600;", b"&lt;",
        b"<![CDATA[", b"]]>", b"<?xml ", b"<!--", b"-->", b'kind="resign"', b'kind="double"',
        b'result="W+2"', b'result="B+9"', b'result="W+' + LONG + b'"', b'variant="backgammon"', b'first="B"',
        b'xmlns="urn:other"', b'options="third_table_penalty=3"', b"<variation>" * 300,
    ),
    "mat": _COMMON + (
        b" Game 2", b" 1 point match", b"Doubles => 2", b"Doubles => " + LONG, b"Takes",
        b"Drops", b"Wins 1 point", b"Wins 4016 points and the match", b"Wins " + LONG + b" point",
        b"Losses 1 point", b"Beavers => 4", b"????", b"Cannot Move", b"51: 24/23 13/8",
        b"25/20", b"bar/20", b"6/0", b"6/off", b"(2)", b"1)", b"99)", b"; [Crawford \"Off\"]",
        b"; [Match ID \"1\"]", b" a : 0   b : 0", b" a : " + LONG + b"   b : 0",
        b" Game " + LONG, LONG + b" point match",
    ),
    "sgf": _COMMON + (
        b"(;GM[6])", b"GM[1]", b"W[", b"W[double]", b"B[take]", b"W[drop]", b"W[53xwmh]",
        b"B[66]", b"W[11yyyyyyyy]", b"RE[W+2R]", b"RE[B+5R]", b"RE[W+0R]", b"RE[B+" + LONG + b"]",
        b"MI[length:7][game:0][ws:0][bs:0]", b"MI[game:" + LONG + b"]",
        b"RU[Crawford:CrawfordGame]", b"PL[B]DI[31]", b"C[", b"\\]", b"(" * 3000,
        b"(;W[53xwmh]" * 400,
    ),
}


@dataclass(frozen=True)
class Mutation:
    """One change to a record. ``unit`` is what is changed: a ``byte``, a ``token`` (a run
    without white space) or a ``line``; ``index`` picks it (modulo their number) and
    ``other`` a second one (what ``swap`` exchanges it with, what ``flip`` copies over a
    token or line) or, for a byte, the bit ``flip`` inverts; ``payload`` is what
    ``insert`` puts before the unit and ``replace`` puts in its place."""

    operation: str
    unit: str
    index: int
    other: int = 0
    payload: bytes = b""


def mutate(data: bytes, mutation: Mutation) -> bytes:
    """``data`` with one mutation applied.

    >>> mutate(b"53: 24/16 *", Mutation("swap", "token", 0, 1))
    b'24/16 53: *'
    >>> mutate(b"ab", Mutation("flip", "byte", 1, 0))
    b'ac'
    >>> mutate(b"1\\n2\\n", Mutation("duplicate", "line", 1))
    b'1\\n2\\n2\\n'
    """
    if mutation.unit == "byte":
        return _edit_bytes(data, mutation)
    if mutation.unit == "line":
        return b"".join(_edit_units(data.splitlines(keepends=True), mutation, b"\n"))
    parts = _TOKENS.split(data)
    tokens, separators = parts[0::2], parts[1::2]
    edited = _edit_units(tokens, mutation, b" ")
    out = []
    for index, token in enumerate(edited):
        if index:
            out.append(separators[index - 1] if index - 1 < len(separators) else b" ")
        out.append(token)
    return b"".join(out)


def _edit_bytes(data: bytes, mutation: Mutation) -> bytes:
    """One byte changed: the same operations as :func:`_edit_units`, by slicing (a list of
    one-byte units would cost more than reading the input); ``flip`` inverts a bit."""
    if not data:
        return mutation.payload if mutation.operation in ("insert", "replace") else data
    i, j = mutation.index % len(data), mutation.other % len(data)
    operation = mutation.operation
    if operation == "flip":
        return data[:i] + bytes([data[i] ^ (1 << mutation.other % 8)]) + data[i + 1:]
    if operation == "delete":
        return data[:i] + data[i + 1:]
    if operation == "duplicate":
        return data[:i + 1] + data[i:]
    if operation == "insert":
        return data[:i] + mutation.payload + data[i:]
    if operation == "replace":
        return data[:i] + mutation.payload + data[i + 1:]
    swapped = bytearray(data)
    swapped[i], swapped[j] = data[j], data[i]
    return bytes(swapped)


def _edit_units(units: list[bytes], mutation: Mutation, end: bytes) -> list[bytes]:
    """The units (tokens or lines) after the mutation: ``flip`` copies unit ``other`` over
    unit ``index``; a line put in gets a line break (``end``)."""
    if not units:
        return [mutation.payload] if mutation.operation in ("insert", "replace") else []
    units = list(units)
    i, j = mutation.index % len(units), mutation.other % len(units)
    operation = mutation.operation
    if operation == "flip":
        units[i] = units[j]
    elif operation == "delete":
        del units[i]
    elif operation == "duplicate":
        units.insert(i, units[i] if units[i].endswith(end) else units[i] + end)
    elif operation == "insert":
        units.insert(i, mutation.payload + end if end == b"\n" else mutation.payload)
    elif operation == "replace":
        units[i] = mutation.payload + (end if end == b"\n" and units[i].endswith(end) else b"")
    else:
        units[i], units[j] = units[j], units[i]
    return units


def random_mutation(rng: random.Random, fmt: str) -> Mutation:
    """A mutation drawn from the same choices as the tests' hypothesis strategy."""
    payloads = PAYLOADS[fmt]
    payload = rng.choice(payloads) if rng.random() < 0.8 else rng.randbytes(rng.randint(1, 8))
    return Mutation(rng.choice(OPERATIONS), rng.choice(UNITS), rng.randrange(1 << 20),
                    rng.randrange(1 << 20), payload)


# -- random input --------------------------------------------------------------------

RANDOM_KINDS = ("bytes", "text", "vocabulary")


def random_input(rng: random.Random, fmt: str, kind: str) -> bytes:
    """Input made from nothing: random ``bytes``, random ``text`` (any code point but
    surrogates, UTF-8), or ``vocabulary``: a run of the format's payloads."""
    size = int(rng.expovariate(1 / 200))
    if kind == "bytes":
        return rng.randbytes(size)
    if kind == "text":
        return "".join(chr(_code_point(rng)) for _ in range(size)).encode("utf-8")
    payloads = PAYLOADS[fmt]
    return b"".join(rng.choice(payloads) for _ in range(size // 20 + 1))


def _code_point(rng: random.Random) -> int:
    point = rng.randrange(0x80) if rng.random() < 0.7 else rng.randrange(0x110000)
    return point if not 0xD800 <= point < 0xE000 else 0xFFFD


# -- the rule ------------------------------------------------------------------------


class Unstructured(AssertionError):
    """A reader's error or warning that is not a located :class:`RecordError`."""


@dataclass
class Reading:
    """What reading one input gave: the games and tree nodes read, the ``RecordError`` the
    reader raised (a document it could not read whole), and every error and warning the
    games carry."""

    games: int = 0
    nodes: int = 0
    raised: RecordError | None = None
    problems: list[RecordError] = field(default_factory=list)


def read_input(path: Path, fmt: str) -> Reading:
    """Read ``path`` as ``fmt`` and keep the rule (see the module's docstring)."""
    data = path.read_bytes()
    lines = max(data.count(b"\n"), len(data.decode("utf-8", "replace").splitlines())) + 1
    reading = Reading()
    try:
        for index, game in enumerate(read_file(path, fmt), 1):
            reading.games += 1
            reading.nodes += _walk(game)
            for problem in [*game.errors, *game.warnings]:
                _check(problem, path, lines, index)
                reading.problems.append(problem)
    except RecordError as error:
        _check(error, path, lines, None)
        reading.raised = error
    return reading


def _walk(game: Game) -> int:
    """Touch every node's state (iteratively: trees may be deep); the game's result."""
    count = 0
    pending: list[GameNode] = [game]
    while pending:
        node = pending.pop()
        count += 1
        if node.state.position is None or (node.parent is not None and node.turn is None):
            raise Unstructured(f"a node without a position or a turn: {node!r}")
        pending.extend(node.variations)
    if game.result != "*" and game.end().state.winner is None:
        raise Unstructured(f"result {game.result} without a winner")
    return count


def _check(problem: object, path: Path, lines: int, index: int | None) -> None:
    """A located error: this file, a line of it, a column, and the game ``index`` carrying
    it (or 0; any game for an error raised for the whole file, ``index`` None)."""
    if not isinstance(problem, RecordError):
        raise Unstructured(f"{type(problem).__name__} in a game's errors: {problem!r}")
    games = (0, index) if index is not None else range(problem.game + 1)
    fields = (problem.file == os.fspath(path), problem.severity in ("error", "warning"),
              bool(problem.rule_id) and bool(problem.message), 0 <= problem.line <= lines,
              problem.column >= 0, problem.game in games)
    if not all(fields):
        raise Unstructured(f"malformed error (file, severity, rule/message, line <= {lines}, "
                           f"column, game {index}: {fields}): {problem.as_dict()}")
    str(problem)


def measured(function: Callable[[], T], memory: bool) -> tuple[T, float, int]:
    """``function()``, the CPU time in seconds it took (of this thread: what a loaded
    machine's other processes take does not count, so a bound on it does not depend on the
    machine's pace) and, with ``memory``, the peak of Python allocations while it ran
    (``tracemalloc``; memory that C libraries allocate, lxml's included, is not seen).
    Exceptions propagate."""
    if memory:
        tracemalloc.start()
    start = time.thread_time()
    try:
        value = function()
        return value, time.thread_time() - start, tracemalloc.get_traced_memory()[1] if memory else 0
    finally:
        if memory:
            tracemalloc.stop()


__all__ = [
    "EXTENSION",
    "OPERATIONS",
    "PAYLOADS",
    "RANDOM_KINDS",
    "READABLE",
    "UNITS",
    "Mutation",
    "Reading",
    "Unstructured",
    "measured",
    "mutate",
    "random_input",
    "random_mutation",
    "read_input",
    "seed_records",
]
