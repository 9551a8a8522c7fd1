"""A game as archive rows, and back.

The ``record`` column keeps the game in canonical text notation, so the whole tree
(comments, NAGs, nested variations) is read back exactly; the other columns and tables are
what search needs.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone

from notation.errors import RecordError
from notation.game import Game, GameNode
from notation.jqn import GameBuilder, read_games, write_game
from notation.jqn.writer import line_text

STANDARD = {"Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Options",
            "Match", "MatchLength", "Game", "Score"}


@dataclass
class GameRows:
    """Everything one game puts in the archive (ids of players, events and the match are
    looked up by name when it is stored)."""

    game: dict
    white: str | None
    black: str | None
    event: str | None
    match: tuple[str, int | None] | None
    turns: list[dict] = field(default_factory=list)
    annotations: list[dict] = field(default_factory=list)


def content_hash(record: str) -> str:
    return hashlib.sha256(record.encode("utf-8")).hexdigest()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def record_text(game: Game) -> str:
    """What the archive keeps of a game: its canonical text, or for an invalid game the text
    it was read from, when the reader had it, so nothing after its error is lost."""
    return game.source_text if game.errors and game.source_text else write_game(game)


def game_rows(game: Game, source_file: str | None = None, source_offset: int | None = None) -> GameRows:
    """The rows of ``game`` (with its first error, if any)."""
    record = record_text(game)
    headers = game.headers
    result = headers.get("Result") or game.result
    score = (headers.get("Score") or "").split("-")
    error = game.errors[0] if game.errors else None
    row = {
        "hash": content_hash(record), "variant": game.rules.name,
        "options": " ".join(f"{k}={v}" for k, v in game.rules.options.items()) or None,
        "site": headers.get("Site"), "date": headers.get("Date"), "round": headers.get("Round"),
        "game_number": _int(headers.get("Game")),
        "score_white": _int(score[0]) if len(score) == 2 else None,
        "score_black": _int(score[1]) if len(score) == 2 else None,
        "first": game.first.value, "result": result,
        "winner": result[0] if result[:1] in ("W", "B") else None,
        "points": _int(result[2:]) if result[:1] in ("W", "B") else None,
        "turns": game.end().ply, "valid": int(not game.errors),
        "error_rule": getattr(error, "rule_id", None) if error else None,
        "error_message": getattr(error, "message", str(error)) if error else None,
        "error_ply": game.end().ply + 1 if error else None,
        "error_line": getattr(error, "line", None) if error else None,
        "source_file": source_file, "source_offset": source_offset,
        "tags": json.dumps({k: v for k, v in headers.items() if k not in STANDARD}, ensure_ascii=False),
        "record": record, "imported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    match_name = headers.get("Match")
    match = (match_name, _int(headers.get("MatchLength"))) if match_name else None
    rows = GameRows(row, headers.get("White") or None, headers.get("Black") or None,
                    headers.get("Event") or None, match)
    _turn_rows(game, rows)
    _annotation_rows(game, rows)
    return rows


def _turn_rows(game: Game, rows: GameRows) -> None:
    before = game.state.position.position_id()
    for node in game.mainline():
        turn = node.turn
        after = node.state.position.position_id()  # the next turn's position before
        pips_white, pips_black = node.state.white_view().pip_counts()
        rows.turns.append({
            "ply": node.ply, "player": turn.player.value, "kind": turn.kind,
            "dice": str(turn.dice) if turn.dice is not None else None,
            "play": str(turn.play) if turn.play is not None else None,
            "position_before": before, "position_after": after,
            "pips_white": pips_white, "pips_black": pips_black,
        })
        before = after


def _annotation_rows(game: Game, rows: GameRows) -> None:
    rows.annotations += [{"ply": 0, "kind": "comment", "text": text} for text in game.comments]
    pending: list[GameNode] = list(game.variations)
    while pending:
        node = pending.pop()
        for text in node.starting_comments + node.comments:
            rows.annotations.append({"ply": node.ply, "kind": "comment", "text": text})
        rows.annotations += [{"ply": node.ply, "kind": "nag", "text": f"${nag}"} for nag in node.nags]
        if node.parent is not None and node is not node.parent.variations[0]:
            rows.annotations.append({"ply": node.ply, "kind": "variation", "text": line_text(node)})
        pending.extend(node.variations)


def game_from_record(record: str, default_variant: str = "jacquet") -> Game:
    """Read back the game of an archive ``record``."""
    [game] = list(read_games(io.BytesIO(record.encode("utf-8")), lambda: GameBuilder(default_variant)))
    return game


__all__ = ["GameRows", "game_rows", "game_from_record", "content_hash", "record_text", "RecordError"]
