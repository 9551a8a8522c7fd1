"""Corrupting real records one play or one die at a time, and judging whether reading
catches it. Shared by ``tests/test_mutation.py`` (a sample) and ``bench/mutants.py`` (all).

**Records**: real ``.mat`` matches (``tests/data/mat``, and the shared ``real-mat`` corpus
where it is present), each file a record, and every game of the sample ``.jqn`` files that
reads without error, each game a record of its own. **Sites**: every main-line turn with
dice (a roll, or dice passed in ``versailles``) of a record.

**Mutants** (:data:`KINDS`), one change at one site, the play then written one move per
step (``24/18 18/13``, bar 25, off 0):

* ``die``: one die shows another value (the play is kept);
* ``swap``: one step written backwards (``13/18`` for ``18/13``);
* ``destination``: one step lands on another point ahead of its start;
* ``drop``: one step left out;
* ``add``: one step added, a man of the mover moved by one of the dice;
* ``empty``: one step starts from a point where the mover has no man (same distance);
* ``legal``: the play replaced by another legal play for the same roll.

Each changes the dice or the board the play leaves, so none is equivalent to the record.

**Verdicts** (:func:`judge`), from reading the corrupted record with the ordinary reader
(``notation.formats.read_file``); the mutated turn is game *g*, ply *p*, at a line and
column of the file:

* ``caught``: game *g*'s first error is at the mutated turn: its line, at its column or
  after it (a play's error points at the move that breaks the rule), and a turn label
  starting with *p*; no game before *g* has an error.
* ``later``: the mutated turn is accepted, and rightly (see below), and the consequence
  shows: game *g* fails at a later turn or at its result (``R-SCORE``...), or, in a match,
  the next game's score line disagrees (``R-MATCH``).
* ``legal``: the mutated turn is accepted, rightly, and the whole record reads without an
  error: a genuinely different legal game. ``legal-resigned`` is the same where the game
  now ends by a resignation: a ``.mat`` file writes a resignation as a bare ``Wins`` line,
  so a game that no longer bears off reads as resigned.
* missed, anything else, in four kinds: ``missed-elsewhere`` (an error before the mutated
  turn, at it but naming another turn, or in another game), ``missed-accepted`` (the turn
  accepted although the play the reader took is not the one written, its board differing
  from the written steps applied one by one, or is not among ``legal_plays`` for the
  dice, or with dice that were not the mover's to choose: dice passed to him, the lead
  dice), ``refused-legal`` (the turn refused although its dice were free and
  ``legal_plays`` lists a play of exactly the written steps) and ``missed-raised`` (a ``RecordError`` raised for the whole
  file). Any other exception propagates.

"Accepted, rightly" is judged without the checker: the mover's board after the written
steps, applied by hand, must be the board of the play the reader took, and that play must
be one of ``legal_plays`` (the move generator) for the mutated dice.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from notation import legal_plays
from notation.engine.board import BAR, OFF, Position
from notation.engine.dice import Dice
from notation.engine.state import PASSED, RESIGN, ROLL
from notation.errors import RecordError
from notation.formats import read_file
from notation.formats.jqn import split_games
from notation.formats.jqn.lexer import TOKEN, Token, locator
from notation.formats.mat.parser import ACTION, parse_mat
from notation.tree.game import Game, GameNode
from notation.tree.numbering import turn_number

from .fuzzing import SAMPLES, game_text

KINDS = ("die", "swap", "destination", "drop", "add", "empty", "legal")
VERDICTS = ("caught", "later", "legal", "legal-resigned", "missed-elsewhere", "missed-accepted",
            "refused-legal", "missed-raised")
GOOD = VERDICTS[:4]


@dataclass(frozen=True)
class Span:
    """Where a token stands in a record: line and column (from 1) and its length."""

    line: int
    column: int
    length: int


@dataclass(frozen=True)
class Site:
    """A turn that can be corrupted: its game (from 1), ply, where the reader reports it,
    the node the original reading made, and the spans of its dice and of its play."""

    game: int
    node: GameNode
    line: int
    column: int
    dice: Span
    play: tuple[Span, ...]

    @property
    def ply(self) -> int:
        return self.node.ply


@dataclass
class Record:
    """A record that reads without error, its format, text and sites."""

    name: str
    fmt: str
    text: str
    sites: list[Site] = field(default_factory=list)


@dataclass(frozen=True)
class Mutant:
    """A site with other dice or other steps (``(from, to)`` pairs)."""

    site: int
    kind: str
    dice: Dice
    steps: tuple[tuple[int, int], ...]

    def play_text(self, fmt: str) -> str:
        moves = " ".join(f"{a}/{b}" for a, b in self.steps)
        return moves or ("-" if fmt == "jqn" else "")


# -- records -------------------------------------------------------------------------


def _read(path: Path, fmt: str) -> list[Game]:
    return list(read_file(path, fmt))


def jqn_records() -> list[Record]:
    """Every game of the valid sample files, each a record of its own."""
    return [Record(f"{path.relative_to(SAMPLES).as_posix()}#{raw.index}", "jqn", game_text(raw))
            for path in sorted(SAMPLES.rglob("*.jqn")) if path.parent.name != "errors"
            for raw in split_games(path)]


def mat_record(path: Path) -> Record:
    text = path.read_bytes().decode("utf-8")
    return Record(path.name, "mat", text)


def load(record: Record, scratch: Path) -> Record | None:
    """The record with its sites, or ``None`` if it does not read without error."""
    path = scratch / f"original.{record.fmt}"
    path.write_text(record.text, encoding="utf-8")
    games = _read(path, record.fmt)
    if any(g.errors for g in games):
        return None
    finder = _jqn_sites if record.fmt == "jqn" else _mat_sites
    record.sites = finder(record.text, games)
    return record


def tokens(movetext: str) -> Iterator[Token]:
    """Every token of ``movetext`` by the lexer's :data:`~notation.formats.jqn.lexer.TOKEN`,
    in order (white space is not a token)."""
    for match in TOKEN.finditer(movetext, 0, len(movetext.rstrip())):
        kind = match.lastgroup or ""
        yield Token(kind, match.group(kind), match.start(kind))


def _jqn_sites(text: str, games: list[Game]) -> list[Site]:
    """The main line's rolls: each roll token (at depth 0, outside variations) with the
    move tokens that follow it."""
    [raw] = list(split_games(io.BytesIO(text.encode("utf-8"))))
    locate = locator(raw.movetext, raw.movetext_line)
    found: list[tuple[Span, list[Span]]] = []
    current: list[Span] | None = None
    depth = 0
    for token in tokens(raw.movetext):
        span = Span(*locate(token.offset), len(token.text))
        depth += {"open": 1, "close": -1}.get(token.kind, 0)
        if depth == 0 and token.kind == "roll":
            current = []
            found.append((span, current))
        elif depth == 0 and token.kind in ("move", "empty") and current is not None:
            current.append(span)
        else:
            current = None
    nodes = [n for n in games[0].mainline() if n.turn.kind in (ROLL, PASSED)]
    assert len(found) == len(nodes), (len(found), len(nodes))
    return [Site(1, node, roll.line, roll.column, roll, tuple(play))
            for node, (roll, play) in zip(nodes, found, strict=False)]


def _mat_sites(text: str, games: list[Game]) -> list[Site]:
    match = parse_mat(text)
    lines = text.split("\n")
    sites = []
    for index, (mat_game, game) in enumerate(zip(match.games, games, strict=False), 1):
        actions = [a for a in mat_game.actions if a.kind in ("roll", "double", "beaver", "take", "drop")]
        for action, node in zip(actions, game.mainline(), strict=False):
            if action.kind != "roll" or node.turn.kind != ROLL:
                continue
            assert node.turn.dice == Dice.parse(action.dice), (index, action)
            found = ACTION.match(lines[action.line - 1], action.column - 1)
            span = Span(action.line, action.column, found.end() - found.start())
            sites.append(Site(index, node, action.line, action.column, span, ()))
    return sites


# -- mutants -------------------------------------------------------------------------


def _steps(node: GameNode) -> tuple[tuple[int, int], ...]:
    return tuple((s.from_point, s.to_point) for s in node.turn.play.steps)


def _before(node: GameNode) -> Position:
    return node.parent.state.position


def mutant(record: Record, index: int, kind: str, rng: random.Random) -> Mutant | None:
    """The mutant of ``kind`` at site ``index`` (random choices from ``rng``), or ``None``
    where the kind does not apply (no step to change, no other legal play...)."""
    node = record.sites[index].node
    dice, steps = node.turn.dice, _steps(node)
    position = _before(node)
    if kind == "die":
        values = list(dice.values)
        which = rng.randrange(len(values))
        values[which] = rng.choice([v for v in range(1, 7) if v != values[which]])
        return Mutant(index, kind, Dice(*values), steps)
    if kind == "add":
        men = [p for p in range(1, BAR + 1) if position.mover[p]]
        start = rng.choice(men)
        return Mutant(index, kind, dice, steps + ((start, max(start - rng.choice(dice.values), OFF)),))
    if kind == "legal":
        others = [p for p in legal_plays(position, dice, node.state.rules)
                  if p.result != node.turn.play.result]
        if not others:
            return None
        other = rng.choice(others)
        return Mutant(index, kind, dice, tuple((s.from_point, s.to_point) for s in other.steps))
    if not steps:
        return None
    i = rng.randrange(len(steps))
    start, end = steps[i]
    if kind == "swap":
        changed = [(end, start)]
    elif kind == "destination":
        choices = [p for p in range(OFF, start) if p != end]
        if not choices:
            return None
        changed = [(start, rng.choice(choices))]
    elif kind == "drop":
        changed = []
    else:  # empty
        landings = {b for _, b in steps}
        empty = [p for p in range(1, BAR) if not position.mover[p] and p not in landings]
        if not empty:
            return None
        origin = rng.choice(empty)
        changed = [(origin, max(origin - (start - end), OFF))]
    return Mutant(index, kind, dice, steps[:i] + tuple(changed) + steps[i + 1:])


def corrupt(record: Record, mutated: Mutant) -> str:
    """The record's text with the mutant written in place of its site (the right column of
    a ``.mat`` line stays where it was)."""
    site = record.sites[mutated.site]
    lines = record.text.split("\n")
    edits: list[tuple[Span, str]] = []
    if record.fmt == "jqn":
        if mutated.dice != site.node.turn.dice:
            marker = ">" if site.node.turn.kind == PASSED else ""
            edits.append((site.dice, f"{marker}{mutated.dice}:"))
        edits += [(span, mutated.play_text("jqn") if n == 0 else "") for n, span in enumerate(site.play)]
    else:
        text = f"{mutated.dice}: {mutated.play_text('mat')}".rstrip()
        edits.append((site.dice, text.ljust(site.dice.length)))
    for span, replacement in sorted(edits, key=lambda edit: (edit[0].line, -edit[0].column)):
        line = lines[span.line - 1]
        start = span.column - 1
        lines[span.line - 1] = line[:start] + replacement + line[start + span.length:]
    return "\n".join(lines)


# -- verdicts ------------------------------------------------------------------------


def _board(position: Position, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...] | None:
    """The mover's men after the steps, applied one by one by hand (no rule), or ``None``
    if a step moves a man that is not there."""
    men = list(position.mover)
    for start, end in steps:
        men[start] -= 1
        men[end] += 1
        if men[start] < 0:
            return None
    return tuple(men)


def judge(record: Record, mutated: Mutant, games: list[Game]) -> str:
    """The verdict on a mutant from the games read from its corrupted record (see the
    module's docstring); the ``missed`` ones say how: ``missed-elsewhere`` (an error
    before the mutated turn or in another game), ``missed-accepted`` (a play accepted that
    is not the one written or not legal), ``refused-legal``."""
    site = record.sites[mutated.site]
    position = _before(site.node)
    legal = legal_plays(position, mutated.dice, site.node.state.rules)
    if len(games) < site.game or any(g.errors for g in games[:site.game - 1]):
        return "missed-elsewhere"
    game = games[site.game - 1]
    first = game.errors[0] if game.errors else None
    here = (site.line, site.column)
    before = site.node.parent.state
    fixed = before.passed if site.node.turn.kind == PASSED else (
        before.forced[0][1] if before.forced else None)
    free = fixed is None or mutated.dice == fixed  # passed or lead dice are not the mover's choice
    number = turn_number(site.node.parent, site.node.turn.kind, site.node.turn.player)  # "2." or "2..."
    # caught: the first error is the mutated turn's, on its line at its dice or after them (a
    # play's error points at the move that breaks the rule)
    if (first is not None and first.line == site.line and first.column >= site.column
            and first.turn.startswith(f"{number} ")):
        written = sorted(mutated.steps)
        if free and any(sorted((s.from_point, s.to_point) for s in p.steps) == written for p in legal):
            return "refused-legal"
        return "caught"
    if first is not None and (first.line, first.column) <= here:
        return "missed-elsewhere"
    node = _mainline_at(game, site.ply)
    if (node is None or not free or node.turn.kind != site.node.turn.kind
            or node.turn.dice != mutated.dice
            or node.turn.play.result.mover != _board(position, mutated.steps)
            or node.turn.play.result not in {p.result for p in legal}):
        return "missed-accepted"
    if first is not None:
        return "later"
    if any(e.rule_id == "R-MATCH" for g in games[site.game:site.game + 1] for e in g.errors[:1]):
        return "later"
    if any(g.errors for g in games):
        return "missed-elsewhere"
    resigned = game.end().state.ended_by == RESIGN != site.node.root().end().state.ended_by
    return "legal-resigned" if resigned else "legal"


def _mainline_at(game: Game, ply: int) -> GameNode | None:
    for node in game.mainline():
        if node.ply == ply:
            return node
    return None


def try_mutant(record: Record, mutated: Mutant, scratch: Path) -> tuple[str, str]:
    """Write the corrupted record, read it, and judge: the verdict, and the rule id of the
    mutated game's first error (``""`` if none). A ``RecordError`` raised for the whole
    file is ``missed-raised``; any other exception propagates."""
    path = scratch / f"mutant.{record.fmt}"
    path.write_text(corrupt(record, mutated), encoding="utf-8")
    try:
        games = _read(path, record.fmt)
    except RecordError as error:
        return "missed-raised", error.rule_id
    game = record.sites[mutated.site].game
    errors = games[game - 1].errors if len(games) >= game else []
    return judge(record, mutated, games), errors[0].rule_id if errors else ""
