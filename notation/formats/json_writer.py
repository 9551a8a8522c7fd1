"""Writing games as JSON (the form is :mod:`notation.formats.json_format`'s docstring):
:func:`game_to_dict` for a JSON-ready dict, :func:`game_to_json` for the same as text, each
turn written straight to text, and :func:`dumps` for a file. The turns are written by
visitors of the game (:meth:`~notation.tree.game.Game.accept`).

A turn's ``position`` is the position after it as the next player sees it
(:meth:`~notation.engine.state.GameState.seen_next`): during a game the player to act; at
the end of a game won by bearing off, where the winner is still "to act" in the state, the
loser, as ``jacquet legal --json`` gives a play's resulting position and gnubg its final
position. Every output of a node's position (the viewer, ``jacquet show``, the archive's
rows) takes it from there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from json.encoder import encode_basestring
from typing import Any

from notation.engine.position_id import position_ids
from notation.engine.state import GameState, Turn, pips_after
from notation.tree.game import Game, GameNode, Node
from notation.tree.walk import Visitor


def turn_dict(node: GameNode, position_id: str | None = None,
              pips: tuple[int, int] | None = None) -> dict[str, Any]:
    """One node as JSON (without its variations); ``position_id`` and ``pips`` (White's,
    Black's) are its position's when the caller has them already."""
    turn = node.turn
    assert turn is not None, "the game's root is no turn"
    state = node.state
    starting, comments, nags = node.annotations()
    data: dict[str, Any] = {
        "ply": node.ply,
        "player": turn.player.value,
        "kind": turn.kind,
        "dice": str(turn.dice) if turn.dice is not None else None,
        "play": str(turn.play) if turn.play is not None else None,
        "steps": play_steps(turn),
        "position": position_id or state.seen_next()[0].position_id(),
        "pips": list(pips or state.pips()),
        "comments": list(comments),
        "starting_comments": list(starting),
        "nags": list(nags),
    }
    if state.cube != 1 or state.cube_owner is not None:
        data["cube"] = cube_of(state)
    return data


def play_steps(turn: Turn | None) -> list[list[int]]:
    """A turn's single-die steps, each ``[from, to]`` (none for the game's root)."""
    play = turn.play if turn is not None else None
    return [[s.from_point, s.to_point] for s in play.steps] if play else []


def cube_of(state: GameState) -> dict[str, Any]:
    """The cube as a turn's ``cube`` gives it: its value and owner (``null``: centred)."""
    return {"value": state.cube, "owner": state.cube_owner.value if state.cube_owner else None}


class _Turns(Visitor[list[dict[str, Any]]]):
    """The turns of a game's main line, each with its variations, as JSON-ready dicts: a
    visitor of the game (:meth:`~notation.tree.game.Game.accept`). ``ids``: each node's
    position ID. The (White, Black) pip counts are followed turn by turn
    (:func:`~notation.engine.state.pips_after`); a variation starts from those before the
    turn it is an alternative to."""

    def __init__(self, game: Game, ids: dict[Node, str]) -> None:
        self.ids = ids
        self.opposite = game.rules.opposite
        self.pips = self.before = game.state.pips()
        self.turns: list[dict[str, Any]] = []
        self.line = self.turns
        self.last: dict[str, Any] = {}
        """The turn visited last (its ``variations`` take the variations that follow)."""
        self.stack: list[tuple[list[dict[str, Any]], dict[str, Any], tuple[int, int],
                               tuple[int, int]]] = []

    def visit_node(self, node: GameNode) -> None:
        turn = node.turn
        assert turn is not None
        self.before = self.pips
        self.pips = pips_after(self.pips, turn, self.opposite)
        data = turn_dict(node, self.ids[node], self.pips)
        data["variations"] = []
        self.line.append(data)
        self.last = data

    def begin_variation(self) -> None:
        self.stack.append((self.line, self.last, self.pips, self.before))
        line: list[dict[str, Any]] = []
        self.last["variations"].append(line)
        self.line, self.pips = line, self.before

    def end_variation(self) -> None:
        self.line, self.last, self.pips, self.before = self.stack.pop()

    def result(self) -> list[dict[str, Any]]:
        return self.turns


class _TurnsText(Visitor[str]):
    """:class:`_Turns` as JSON text, each turn written straight to text (no dict per turn),
    piece by piece in :attr:`out`: a turn is written up to its ``variations``, which are
    closed when the next turn of its line comes or its line ends."""

    def __init__(self, game: Game, ids: dict[Node, str]) -> None:
        self.ids = ids
        self.opposite = game.rules.opposite
        self.pips = self.before = game.state.pips()
        self.out = ["["]
        self.open = False
        """Whether the line's last turn is written but for the end of its variations."""
        self.variations = 0
        """How many variations of that turn are written."""
        self.stack: list[tuple[int, tuple[int, int], tuple[int, int]]] = []

    def _close(self) -> None:
        self.out.append("]}" if self.variations else "[]}")

    def visit_node(self, node: GameNode) -> None:
        turn = node.turn
        assert turn is not None
        if self.open:
            self._close()
            self.out.append(", ")
        self.before = self.pips
        self.pips = pips_after(self.pips, turn, self.opposite)
        self.out.append(_turn_json(node, self.ids[node], self.pips))
        self.open, self.variations = True, 0

    def begin_variation(self) -> None:
        self.out.append(", [" if self.variations else "[[")
        self.stack.append((self.variations + 1, self.pips, self.before))
        self.pips = self.before
        self.open, self.variations = False, 0

    def end_variation(self) -> None:
        if self.open:
            self._close()
        self.out.append("]")
        self.variations, self.pips, self.before = self.stack.pop()
        self.open = True

    def result(self) -> str:
        if self.open:
            self._close()
            self.open = False
        self.out.append("]")
        return "".join(self.out)


def _node_ids(game: Game) -> dict[Node, str]:
    """The position ID of every node of ``game``, the start included, worked out together."""
    nodes = [game, *game.descendants()]
    return dict(zip(nodes, position_ids([node.state.seen_next()[0] for node in nodes]), strict=True))


def game_to_dict(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-ready dict."""
    ids = _node_ids(game)
    return _game_fields(game, ids, game.accept(_Turns(game, ids)))


def game_to_json(game: Game) -> str:
    """The game as JSON text: ``json.dumps(game_to_dict(game), ensure_ascii=False)``, the
    same characters, but each turn written straight to text (no dict per turn)."""
    ids = _node_ids(game)
    turns = game.accept(_TurnsText(game, ids))
    fields = _game_fields(game, ids, None)
    return "{" + ", ".join([f"{as_json(key)}: {turns if key == 'turns' else as_json(value)}"
                            for key, value in fields.items()]) + "}"


def _game_fields(game: Game, ids: dict[Node, str], turns: Any) -> dict[str, Any]:
    """:func:`game_to_dict`, its ``turns`` given; ``ids``: each node's position ID."""
    return {
        "headers": dict(game.headers),
        "variant": game.rules.name,
        "options": dict(game.rules.options),
        "first": game.first.value,
        "start": ids[game],
        "comments": list(game.comments),
        "turns": turns,
        "result": game.headers.get("Result") or game.result,
        "errors": [e.as_dict() for e in game.errors],
    }


as_json = partial(json.dumps, ensure_ascii=False)
"""A value as JSON text, as ``json.dumps`` writes it within a game."""


def _list_json(values: Sequence[Any]) -> str:
    """A list of strings or numbers as JSON text (most are empty)."""
    return as_json(list(values)) if values else "[]"


_PLAYERS = ('"W"', '"B"')
"""Each player's ``value`` as JSON text, by his ``index``."""
_NO_ANNOTATIONS = '"comments": [], "starting_comments": [], "nags": []'
"""A turn's annotations as JSON text when it has none (most turns)."""


def _turn_json(node: GameNode, position_id: str, pips: tuple[int, int]) -> str:
    """:func:`turn_dict` of ``node`` as JSON text, given its position's ID and its (White,
    Black) ``pips``, up to its ``variations`` (written next: ``"variations": [...]}``)."""
    turn, state = node.turn, node.state
    assert turn is not None, "the game's root is no turn"
    starting, comments, nags = node.annotations()
    annotations = (f'"comments": {_list_json(comments)}, "starting_comments": '
                   f'{_list_json(starting)}, "nags": {_list_json(nags)}'
                   if starting or comments or nags else _NO_ANNOTATIONS)
    dice, play = turn.dice, turn.play
    steps = ", ".join([f"[{step[0]}, {step[1]}]" for step in play.steps]) if play else ""
    cube, owner = state.cube, state.cube_owner
    owner_text = "null" if owner is None else _PLAYERS[owner.index]
    cube_text = ("" if cube == 1 and owner is None
                 else f', "cube": {{"value": {cube}, "owner": {owner_text}}}')
    return (f'{{"ply": {node.ply}, "player": {_PLAYERS[turn.player.index]}, '
            f'"kind": {encode_basestring(turn.kind)}, '
            f'"dice": {"null" if dice is None else encode_basestring(str(dice))}, '
            f'"play": {"null" if play is None else encode_basestring(str(play))}, '
            f'"steps": [{steps}], "position": {encode_basestring(position_id)}, '
            f'"pips": [{pips[0]}, {pips[1]}], {annotations}'
            f'{cube_text}, "variations": ')


def dumps(games: list[Game], indent: int | None = None) -> str:
    """Games as a JSON list."""
    return json.dumps([game_to_dict(g) for g in games], indent=indent, ensure_ascii=False)
