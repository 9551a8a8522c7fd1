"""Games as JSON, for the viewer, the API and ``jacquet convert``.

One game is an object: ``headers``, ``variant``, ``first`` (``"W"``/``"B"``), ``comments``
(before the first turn), ``turns`` (the main line), ``result`` and ``errors``. Each turn
has ``player``, ``kind``, ``dice``, ``play`` (canonical), ``steps`` (single-die
``[from, to]``), ``position`` (the ID after the turn, seen by the player to act next),
``pips`` (White's, Black's), ``comments``, ``starting_comments``, ``nags`` and
``variations``: alternatives to this turn, each a list of turns. A file holds a list.
"""

from __future__ import annotations

import json
from typing import Any

from .dice import Dice
from .errors import NotationError, RecordError
from .game import Game, GameNode
from .tags import TagProblem, setup_from_tags
from .state import Colour


def turn_dict(node: GameNode) -> dict[str, Any]:
    """One node as JSON (without its variations)."""
    turn = node.turn
    state = node.state
    white = state.white_view()
    data: dict[str, Any] = {
        "ply": node.ply,
        "player": turn.player.value,
        "kind": turn.kind,
        "dice": str(turn.dice) if turn.dice is not None else None,
        "play": str(turn.play) if turn.play is not None else None,
        "steps": [[s.from_point, s.to_point] for s in turn.play.steps] if turn.play else [],
        "position": state.position.position_id(),
        "pips": list(white.pip_counts()),
        "comments": list(node.comments),
        "starting_comments": list(node.starting_comments),
        "nags": list(node.nags),
    }
    if state.cube != 1 or state.cube_owner is not None:
        data["cube"] = {"value": state.cube, "owner": state.cube_owner.value if state.cube_owner else None}
    return data


def _line(parent: GameNode, first: GameNode) -> list[dict[str, Any]]:
    turns = []
    node, parent_node = first, parent
    while True:
        data = turn_dict(node)
        if node is parent_node.variations[0]:
            data["variations"] = [_line(parent_node, alt) for alt in parent_node.variations[1:]]
        else:
            data["variations"] = []
        turns.append(data)
        if not node.variations:
            return turns
        parent_node, node = node, node.variations[0]


def game_to_dict(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-ready dict."""
    return {
        "headers": dict(game.headers),
        "variant": game.rules.name,
        "options": dict(game.rules.options),
        "first": game.first.value,
        "start": game.state.position.position_id(),
        "comments": list(game.comments),
        "turns": _line(game, game.variations[0]) if game.variations else [],
        "result": game.headers.get("Result") or game.result,
        "errors": [e.as_dict() if isinstance(e, RecordError) else {"message": str(e)}
                   for e in game.errors],
    }


def game_from_dict(data: dict[str, Any], index: int = 1, file: str = "-") -> Game:
    """Rebuild and check a game from its JSON form; problems go to ``game.errors``."""
    headers = {str(k): str(v) for k, v in (data.get("headers") or {}).items()}
    tagged = dict(headers, Variant=data.get("variant") or headers.get("Variant", "jacquet"))
    options = data.get("options") or {}
    if options:
        tagged["Options"] = " ".join(f"{k}={v}" for k, v in options.items())
    try:
        setup = setup_from_tags(tagged, first=Colour(data.get("first", "W")))
    except (TagProblem, ValueError) as error:
        game = Game(headers=headers)
        game.errors.append(RecordError(getattr(error, "message", str(error)), "TAG", file=file,
                                       game=index))
        return game
    game = Game(setup.rules, setup.first, headers, setup.lead_rolls, setup.crawford)
    game.comments.extend(data.get("comments") or [])
    try:
        _rebuild(game, data.get("turns") or [], index, file)
    except RecordError as error:
        game.errors.append(error)
    return game


def _rebuild(parent: GameNode, turns: list[dict[str, Any]], index: int, file: str) -> None:
    for data in turns:
        try:
            dice = Dice.parse(data["dice"]) if data.get("dice") else None
            node = parent.add_turn(data.get("kind", "roll"), dice, data.get("play"))
        except (NotationError, KeyError, TypeError, AttributeError) as problem:
            raise RecordError(getattr(problem, "reason", None) or str(problem),
                              getattr(problem, "rule_id", "SYNTAX"), file=file, game=index,
                              turn=f"{parent.ply + 1}",
                              legal_plays=[str(p) for p in getattr(problem, "legal_plays", ())])
        node.comments.extend(data.get("comments") or [])
        node.starting_comments.extend(data.get("starting_comments") or [])
        node.nags.extend(int(n) for n in data.get("nags") or [])
        for variation in data.get("variations") or []:
            _rebuild(parent, variation, index, file)
        parent = node


def dumps(games: list[Game], indent: int | None = None) -> str:
    """Games as a JSON list."""
    return json.dumps([game_to_dict(g) for g in games], indent=indent, ensure_ascii=False)


def loads(text: str, file: str = "-") -> list[Game]:
    """Games from a JSON list (or one game object); a malformed document raises
    :class:`RecordError` with the line and column where JSON reading stopped."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg}", "SYNTAX", file=file, line=error.lineno,
                          column=error.colno) from None
    items = data if isinstance(data, list) else [data]
    games = []
    for index, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise RecordError("a game is a JSON object", "SYNTAX", file=file, game=index)
        games.append(game_from_dict(item, index, file))
    return games
