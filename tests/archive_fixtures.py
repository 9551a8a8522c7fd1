"""Fixtures and helpers shared by the archive tests (``test_archive*.py``).

In the style of sqlite-utils' own suite: ``db_path`` is where a test's archive lives and
``fresh_db`` is a new, empty archive there. ``varied`` is one archive, built once per
session, of games with varied players, events, dates, variants, results and validity,
together with the games themselves, so that every query can be checked against a
brute-force answer computed in Python from the games, not from the database.
"""

from __future__ import annotations

import hashlib
import random
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import archive
from archive.rows import record_text
from notation import rule_set
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.rules import NAMES
from notation.engine.state import PASSED, ROLL
from notation.formats import read_file
from notation.tree.game import Game, GameNode
from notation.tree.generate import random_game

VARIANTS = NAMES
ERRORS_SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "errors" / "one-of-each.jqn"
ERROR_GAMES = sum(line.startswith("[Event ") for line in
                  ERRORS_SAMPLE.read_text(encoding="utf-8").splitlines())
"""How many games the error sample holds (one deliberate error each), counted by their
first tag line, as a reader of the file would."""


# ---------------------------------------------------------------- fixtures

@pytest.fixture
def db_path(tmp_path) -> Path:
    """Where the test's archive lives (not created yet)."""
    return tmp_path / "test.db"


@pytest.fixture
def fresh_db(db_path):
    """A new, empty archive at ``db_path``."""
    db = archive.open_archive(db_path)
    yield db
    db.close()


# ---------------------------------------------------------------- games

def content_hash(game: Game) -> str:
    return hashlib.sha256(record_text(game).encode("utf-8")).hexdigest()


def generated(variant: str, seed: int, annotate: bool = True, max_turns: int = 20000,
              **headers) -> Game:
    """A random legal game (checked as it is built)."""
    return random_game(rule_set(variant), random.Random(seed), annotate=annotate,
                       max_turns=max_turns,
                       headers={k: v for k, v in headers.items() if v is not None})


def _next_turn(node: GameNode, rng: random.Random) -> GameNode | None:
    """One more random legal turn after ``node`` (as the generator plays), appended as a
    new variation of ``node``; ``None`` if the game is over there."""
    state = node.state
    if state.over:
        return None
    if state.passed is not None:
        kind, dice = PASSED, state.passed
    else:
        kind = ROLL
        dice = state.forced[0][1] if state.forced else Dice(rng.randint(1, 6), rng.randint(1, 6))
    play = rng.choice(legal_plays(state.position, dice, node.root().rules))
    return node.add_turn(kind, dice, str(play))


def _alternative(node: GameNode, rng: random.Random) -> GameNode | None:
    """Another legal play for the roll of ``node``'s turn, added as a variation of its
    parent (``None`` if there is no other play)."""
    parent, turn = node.parent, node.turn
    if turn is None or turn.kind not in (ROLL, PASSED):
        return None
    plays = [p for p in legal_plays(parent.state.position, turn.dice, node.root().rules)
             if p.result != turn.play.result
             and all(v.turn.play is None or v.turn.play.result != p.result for v in parent.variations)]
    if not plays:
        return None
    return parent.add_turn(turn.kind, turn.dice, str(rng.choice(plays)))


def annotated_game(variant: str, seed: int, **headers) -> Game:
    """A generated annotated game with, on top of what the generator adds, a variation
    three turns long holding a nested variation (itself holding one more), comments with
    braces, backslashes and quotes, starting comments and NAGs at every depth."""
    game = generated(variant, seed, **headers)
    rng = random.Random(seed + 1000)
    game.comments.append('Before the game {a brace} and \\ a backslash, "quoted".')
    main = list(game.mainline())
    assert len(main) > 12, "a generated game long enough to annotate"
    nested = 0
    for node in main[4:-4]:
        variation = _alternative(node, rng)
        if variation is None:
            continue
        variation.starting_comments.append("Or {instead}:")
        variation.comments.append("} a closing brace first, then an opening one {")
        variation.nags.append(2)
        line = [variation]
        for _ in range(3):
            following = _next_turn(line[-1], rng)
            if following is None:
                break
            line.append(following)
        for inner in line[1:]:
            sub = _alternative(inner, rng)
            if sub is None:
                continue
            sub.comments.append("A variation {inside} a variation.")
            sub.nags += [1, 14]
            deeper = _next_turn(sub, rng)
            if deeper is not None and _alternative(deeper, rng) is not None:
                deeper.parent.variations[-1].comments.append("Three deep.")
            nested += 1
            break
        if nested:
            break
    assert nested, "no nested variation could be added"
    main[-1].comments.append("The end: {{}} nothing more.")
    main[-1].nags.append(10)
    return game


# ---------------------------------------------------------------- the varied archive

PLAYERS = ("Marie", "marie", "Jean", "Élodie", "Anne-Sophie", "O'Neil", None)
EVENTS = ("Club Night", "club night", "Open de Paris", "Versailles 1820", "Tournoi d'Été", None)
DATES = ("1810.05.12", "1820.07.01", "1999.12.31", "2024.01.02", "2024.03.15", "2024.11.30", None)
MATCHES = ("Final", "Semi-final")
EXTRA_COMMENTS = ("Better was 24/13 here.", "A 6-5 roll at last.", 'He said "AND" twice.',
                  "NEAR( the end, wait.", "Ouch! Not again.")


@dataclass
class Stored:
    """A game of the varied archive, with its id there."""

    id: int
    game: Game

    @property
    def headers(self) -> dict:
        return self.game.headers

    @property
    def result(self) -> str:
        return self.headers.get("Result") or self.game.result

    @property
    def winner(self) -> str | None:
        return self.result[0] if self.result[:1] in ("W", "B") else None

    @property
    def points(self) -> int | None:
        if self.winner is None:
            return None
        try:
            return int(self.result[2:])
        except ValueError:
            return None

    @property
    def turns(self) -> int:
        return self.game.end().ply

    @property
    def variant(self) -> str:
        return self.game.rules.name

    @property
    def valid(self) -> bool:
        return not self.game.errors

    def name(self, tag: str) -> str | None:
        return self.headers.get(tag) or None

    def texts(self) -> list[str]:
        """Every annotation of the tree, one string each: comments, NAGs, the moves of each
        variation (what the text search looks through)."""
        out = list(self.game.comments)
        pending = list(self.game.variations)
        while pending:
            node = pending.pop()
            out += node.starting_comments + node.comments + [f"${nag}" for nag in node.nags]
            if node is not node.parent.variations[0]:
                line, walker = [], node
                while walker is not None:
                    turn = walker.turn
                    line.append(f"{'>' if turn.kind == PASSED else ''}{turn.dice}: {turn.play}"
                                if turn.kind in (ROLL, PASSED) else turn.kind)
                    walker = walker.next()
                out.append(" ".join(line))
            pending.extend(node.variations)
        return out

    def mainline(self):
        """(ply, player, kind, dice, play, position before) for each turn of the main line."""
        parent: GameNode = self.game
        for node in self.game.mainline():
            turn = node.turn
            yield (node.ply, turn.player.value, turn.kind,
                   str(turn.dice) if turn.dice is not None else None,
                   str(turn.play) if turn.play is not None else None,
                   parent.state.position.position_id())
            parent = node


@dataclass
class Varied:
    path: Path
    games: list[Stored] = field(default_factory=list)

    def open(self):
        return archive.open_archive(self.path, readonly=True)


def varied_games() -> list[Game]:
    rng = random.Random(20240521)
    games: list[Game] = []
    plan = ([("jacquet", 20000)] * 16 + [("jacquet", 14)] * 3 + [("versailles", 20000)] * 8
            + [("versailles", 17)] * 2 + [("hale", 20000)] * 6 + [("backgammon", 20000)] * 12
            + [("backgammon", 9)] + [("murray", 20000)] * 2 + [("murray", 25)])
    for seed, (variant, max_turns) in enumerate(plan):
        white = rng.choice(PLAYERS)
        black = rng.choice(PLAYERS)
        headers = {"White": white, "Black": black, "Event": rng.choice(EVENTS),
                   "Date": rng.choice(DATES), "Site": rng.choice(("Paris", "Lyon", None)),
                   "Round": str(seed)}
        if variant == "backgammon" and rng.random() < 0.7:
            match = rng.choice(MATCHES)
            headers.update(Match=match, MatchLength="7" if match == "Final" else "5",
                           Game=str(rng.randint(1, 5)))
        game = generated(variant, 100 + seed, max_turns=max_turns, **headers)
        main = list(game.mainline())
        if rng.random() < 0.5 and main:
            rng.choice(main).comments.append(rng.choice(EXTRA_COMMENTS))
        games.append(game)
    # the same players in both colours, once
    games.append(generated("jacquet", 999, White="Jean", Black="Jean", Event="Club Night",
                           Date="2024.01.02"))
    games += list(read_file(ERRORS_SAMPLE))  # 27 invalid games, kept
    return games


_VARIED: dict[str, Varied] = {}


@pytest.fixture(scope="session")
def varied(tmp_path_factory) -> Varied:
    """An archive of ~80 games (valid and invalid, finished and not, five variants,
    varied headers), built once; open it with ``varied.open()``."""
    if "archive" not in _VARIED:
        path = tmp_path_factory.mktemp("varied") / "varied.db"
        games = varied_games()
        db = archive.open_archive(path)
        summary = archive.import_games(db, games, keep_invalid=True, batch=16)
        assert summary.imported == len(games)
        ids = {hash_: id_ for id_, hash_ in db.execute("SELECT id, hash FROM games")}
        db.close()
        _VARIED["archive"] = Varied(path, [Stored(ids[content_hash(g)], g) for g in games])
    return _VARIED["archive"]


# ---------------------------------------------------------------- brute force helpers

def fold(text: str) -> str:
    """Case and diacritics folded, as a person compares names."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """The words of ``text`` as FTS5's unicode61 tokenizer sees them."""
    return re.findall(r"\w+", fold(text).replace("_", " "))


def phrase_in(phrase: list[str], tokens: list[str]) -> bool:
    n = len(phrase)
    return any(tokens[i:i + n] == phrase for i in range(len(tokens) - n + 1))


def text_matches(query: str, texts: list[str]) -> bool:
    """Whether one annotation holds every word group of ``query``, each group (what
    whitespace separates: ``24/13`` is one) as a phrase. Text without words finds nothing."""
    groups = [words(part) for part in query.split()]
    groups = [g for g in groups if g]
    return bool(groups) and any(all(phrase_in(g, words(text)) for g in groups) for text in texts)


def integrity(db) -> None:
    """The archive is sound and holds whole games only."""
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    short = db.execute("SELECT g.id, g.turns, (SELECT count(*) FROM turns t WHERE t.game_id = g.id) "
                       "AS n FROM games g WHERE n != g.turns").fetchall()
    assert short == [], "games whose turns are not all stored"
    plies = db.execute("SELECT game_id FROM turns GROUP BY game_id HAVING min(ply) != 1 "
                       "OR max(ply) != count(*)").fetchall()
    assert plies == []
    for table in ("turns", "annotations"):
        orphans = db.execute(f"SELECT count(*) FROM {table} WHERE game_id NOT IN "
                             "(SELECT id FROM games)").fetchone()[0]
        assert orphans == 0, f"{table} rows of no game"
    fts = db.execute("SELECT count(*) FROM annotations_fts").fetchone()[0]
    assert fts == db.execute("SELECT count(*) FROM annotations").fetchone()[0]


def counts(path) -> tuple[int, int, int]:
    """Games, turns and annotations in the archive at ``path`` (its own connection)."""
    connection = sqlite3.connect(path)
    try:
        return tuple(connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("games", "turns", "annotations"))
    finally:
        connection.close()


__all__ = ["ERRORS_SAMPLE", "VARIANTS", "Stored", "Varied", "annotated_game",
           "content_hash", "counts", "db_path", "fold", "fresh_db", "generated", "integrity",
           "text_matches", "varied", "words"]
