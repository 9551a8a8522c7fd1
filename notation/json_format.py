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
import os
from collections.abc import Callable, Sequence
from functools import partial
from json.encoder import encode_basestring
from typing import Any

from .dice import Dice
from .errors import NotationError, RecordError
from .game import Game, GameNode
from .limits import LIMIT, MAX_DEPTH, MAX_DIGITS, MAX_ELEMENTS, MAX_NAG, Budget, read_whole
from .position_id import position_ids
from .tags import TAG_NAME, TagProblem, setup_from_tags
from .state import Colour, pips_after


def turn_dict(node: GameNode, position_id: str | None = None,
              pips: tuple[int, int] | None = None) -> dict[str, Any]:
    """One node as JSON (without its variations); ``position_id`` and ``pips`` (White's,
    Black's) are its position's when the caller has them already."""
    turn = node.turn
    state = node.state
    starting, comments, nags = node.annotations()
    data: dict[str, Any] = {
        "ply": node.ply,
        "player": turn.player.value,
        "kind": turn.kind,
        "dice": str(turn.dice) if turn.dice is not None else None,
        "play": str(turn.play) if turn.play is not None else None,
        "steps": [[s.from_point, s.to_point] for s in turn.play.steps] if turn.play else [],
        "position": position_id or state.position.position_id(),
        "pips": list(pips or state.pips()),
        "comments": list(comments),
        "starting_comments": list(starting),
        "nags": list(nags),
    }
    if state.cube != 1 or state.cube_owner is not None:
        data["cube"] = {"value": state.cube, "owner": state.cube_owner.value if state.cube_owner else None}
    return data


def _turn_with_variations(node: GameNode, position_id: str, pips: tuple[int, int],
                          variations: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """:func:`turn_dict` of ``node`` with its ``variations`` (each a list of turns)."""
    data = turn_dict(node, position_id, pips)
    data["variations"] = variations
    return data


def _json_list(items: list[str]) -> str:
    """Items already written as JSON text, as a JSON list."""
    return "[" + ", ".join(items) + "]"


def _line(parent: GameNode, first: GameNode, ids: dict[GameNode, str], pips: tuple[int, int],
          opposite: tuple[int, ...], turn_of: Callable[..., Any],
          listed: Callable[[list[Any]], Any]) -> Any:
    """The turns of the line from ``first`` (a child of ``parent``) on, each with its
    variations, for both writers: ``turn_of(node, position_id, pips, variations)`` makes
    a turn, ``listed`` a list of them (or of lines). ``ids``: each node's position ID;
    ``pips``: the (White, Black) pip counts at ``parent``, followed turn by turn
    (:func:`~notation.state.pips_after`; ``opposite``: the rule set's)."""
    turns = []
    node, parent_node = first, parent
    while True:
        alternatives = parent_node.variations
        if node is alternatives[0] and len(alternatives) > 1:
            variations = listed([_line(parent_node, alternative, ids, pips, opposite, turn_of,
                                       listed) for alternative in alternatives[1:]])
        else:
            variations = listed([])
        pips = pips_after(pips, node.turn, opposite)
        turns.append(turn_of(node, ids[node], pips, variations))
        if not node.variations:
            return listed(turns)
        parent_node, node = node, node.variations[0]


def _node_ids(game: Game) -> dict[GameNode, str]:
    """The position ID of every node of ``game``, the start included, worked out together."""
    nodes = [game, *game.descendants()]
    return dict(zip(nodes, position_ids([node.state.position for node in nodes])))


def game_to_dict(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-ready dict."""
    return _game_fields(game, *_turns(game, _turn_with_variations, list))


def game_to_json(game: Game) -> str:
    """The game as JSON text: ``json.dumps(game_to_dict(game), ensure_ascii=False)``, the
    same characters, but each turn written straight to text (no dict per turn)."""
    ids, turns = _turns(game, _turn_json, _json_list)
    fields = _game_fields(game, ids, None)
    return "{" + ", ".join([f"{_text(key)}: {turns if key == 'turns' else _text(value)}"
                            for key, value in fields.items()]) + "}"


def _turns(game: Game, turn_of: Callable[..., Any],
           listed: Callable[[list[Any]], Any]) -> tuple[dict[GameNode, str], Any]:
    """Every node's position ID, and the main line's turns as :func:`_line` makes them."""
    ids = _node_ids(game)
    if not game.variations:
        return ids, listed([])
    return ids, _line(game, game.variations[0], ids, game.state.pips(), game.rules.opposite,
                      turn_of, listed)


def _game_fields(game: Game, ids: dict[GameNode, str], turns: Any) -> dict[str, Any]:
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
        "errors": [e.as_dict() if isinstance(e, RecordError) else {"message": str(e)}
                   for e in game.errors],
    }


_text = partial(json.dumps, ensure_ascii=False)
"""A value as JSON text, as ``json.dumps`` writes it within a game."""


def _list_json(values: Sequence[Any]) -> str:
    """A list of strings or numbers as JSON text (most are empty)."""
    return _text(list(values)) if values else "[]"


_PLAYERS = ('"W"', '"B"')
"""Each player's ``value`` as JSON text, by his ``index``."""
_NO_ANNOTATIONS = '"comments": [], "starting_comments": [], "nags": []'
"""A turn's annotations as JSON text when it has none (most turns)."""


def _turn_json(node: GameNode, position_id: str, pips: tuple[int, int], variations: str) -> str:
    """:func:`turn_dict` of ``node`` as JSON text, given its position's ID and its (White,
    Black) ``pips``, ``variations`` (its ``variations``, as JSON text) added."""
    turn, state = node.turn, node.state
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
            f'{cube_text}, "variations": {variations}}}')


def game_from_dict(data: dict[str, Any], index: int = 1, file: str = "-",
                   budget: Budget | None = None) -> Game:
    """Rebuild and check a game from its JSON form; problems go to ``game.errors``. A field
    of the wrong type is such a problem (``SYNTAX``); a limit crossed (``budget``: the
    positions of the file so far) is raised."""
    budget = budget or Budget()
    if not budget.spend():
        raise budget.error("one file", file=file, game=index)
    try:
        headers = {str(k): str(v) for k, v in _field(data, "headers", dict, {}, index, file).items()}
        for name in headers:
            if not TAG_NAME.fullmatch(name):
                raise RecordError(f"{name!r} is not a tag name: a letter, then letters, digits "
                                  "or _", "TAG", file=file, game=index)
        options = _field(data, "options", dict, {}, index, file)
        tagged = dict(headers, Variant=_field(data, "variant", str, "", index, file)
                      or headers.get("Variant", "jacquet"))
        if options:
            tagged["Options"] = " ".join(f"{k}={v}" for k, v in options.items())
        setup = setup_from_tags(tagged, first=Colour(_field(data, "first", str, "W", index, file)))
    except RecordError as error:
        game = Game()
        game.errors.append(error)
        return game
    except (TagProblem, ValueError) as error:
        game = Game(headers=headers)
        game.errors.append(RecordError(getattr(error, "message", str(error)),
                                       getattr(error, "rule_id", "TAG"), file=file, game=index))
        return game
    game = Game(setup.rules, setup.first, headers, setup.lead_rolls, setup.crawford)
    try:
        game.comments.extend(_strings(data, "comments", index, file))
        _rebuild(game, _field(data, "turns", list, [], index, file), index, file, budget, 0)
        declared = headers.get("Result") or _field(data, "result", str, None, index, file)
    except RecordError as error:
        if error.rule_id == LIMIT:
            raise
        game.errors.append(error)
        return game
    problem = game.result_problem(declared) if declared else None
    if problem is not None:
        game.errors.append(RecordError(problem[1], problem[0], file=file, game=index))
    elif declared and "Result" not in game.headers:
        game.headers["Result"] = declared
    return game


def _field(data: dict[str, Any], key: str, kind: type, default: Any, index: int, file: str,
           turn: str = "") -> Any:
    """``data[key]``, or ``default`` when it is missing or null; :class:`RecordError` when
    it is not a ``kind``."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, kind):
        raise RecordError(f"{key!r} is {_TYPE_NAMES[kind]}, not {_TYPE_NAMES[type(value)]}",
                          "SYNTAX", file=file, game=index, turn=turn)
    return value


def _strings(data: dict[str, Any], key: str, index: int, file: str, turn: str = "") -> list[str]:
    values = _field(data, key, list, [], index, file, turn)
    if not all(isinstance(v, str) for v in values):
        raise RecordError(f"{key!r} is a list of strings", "SYNTAX", file=file, game=index, turn=turn)
    return values


def _nags(data: dict[str, Any], index: int, file: str, turn: str) -> list[int]:
    values = _field(data, "nags", list, [], index, file, turn)
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NAG for v in values):
        raise RecordError(f"'nags' is a list of numbers from 0 to {MAX_NAG}", "SYNTAX", file=file,
                          game=index, turn=turn)
    return values


_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "a number",
               float: "a number", bool: "true or false"}


def _rebuild(parent: GameNode, turns: list[Any], index: int, file: str, budget: Budget,
             depth: int) -> None:
    if depth > MAX_DEPTH:
        raise RecordError(f"variations nest deeper than {MAX_DEPTH}", LIMIT, file=file, game=index)
    for data in turns:
        label = f"{parent.ply + 1}"
        if not isinstance(data, dict):
            raise RecordError("a turn is a JSON object", "SYNTAX", file=file, game=index, turn=label)
        if not budget.spend():
            raise budget.error("one file", file=file, game=index)
        try:
            dice = _field(data, "dice", str, "", index, file, label)
            player = _field(data, "player", str, None, index, file, label)
            if player is not None and player not in ("W", "B"):
                raise RecordError(f"'player' is \"W\" or \"B\", not {player!r}", "SYNTAX",
                                  file=file, game=index, turn=label)
            node = parent.add_recorded_turn(None if player is None else Colour(player),
                                            _field(data, "kind", str, "roll", index, file, label),
                                            Dice.parse(dice) if dice else None,
                                            _field(data, "play", str, None, index, file, label))
        except NotationError as problem:
            if isinstance(problem, RecordError):
                raise
            raise RecordError(getattr(problem, "reason", None) or str(problem),
                              getattr(problem, "rule_id", "SYNTAX"), file=file, game=index,
                              turn=label,
                              legal_plays=[str(p) for p in getattr(problem, "legal_plays", ())])
        node.comments.extend(_strings(data, "comments", index, file, label))
        for text in _strings(data, "starting_comments", index, file, label):
            node.comment_before(text)
        node.nags.extend(_nags(data, index, file, label))
        for variation in _field(data, "variations", list, [], index, file, label):
            if not isinstance(variation, list):
                raise RecordError("a variation is a list of turns", "SYNTAX", file=file,
                                  game=index, turn=label)
            _rebuild(parent, variation, index, file, budget, depth + 1)
        parent = node


def dumps(games: list[Game], indent: int | None = None) -> str:
    """Games as a JSON list."""
    return json.dumps([game_to_dict(g) for g in games], indent=indent, ensure_ascii=False)


def read_json(source: str | os.PathLike) -> list[Game]:
    """The games of a JSON file (UTF-8, a byte-order mark tolerated); :class:`RecordError`
    for a file over :data:`~notation.limits.MAX_FILE_BYTES`, not UTF-8, or not JSON."""
    file = os.fspath(source)
    data = read_whole(source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise RecordError(f"not valid UTF-8 ({error.reason})", "SYNTAX", file=file, line=line,
                          column=column) from None
    return loads(text, file)


def loads(text: str, file: str = "-") -> list[Game]:
    """Games from a JSON list (or one game object); a malformed document raises
    :class:`RecordError` with the line and column where JSON reading stopped, as does one
    that crosses a limit: more than :data:`~notation.limits.MAX_ELEMENTS` objects and
    arrays, nesting deeper than Python's JSON reader follows, integers of more than
    :data:`~notation.limits.MAX_DIGITS` digits, more than
    :data:`~notation.limits.MAX_POSITIONS` positions."""
    if text.count("{") + text.count("[") > MAX_ELEMENTS:
        raise RecordError(f"more than {MAX_ELEMENTS} objects and arrays in one file: split the "
                          "record", LIMIT, file=file, line=1, column=1)
    try:
        data = json.loads(text, parse_int=partial(_integer, text, file))
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg}", "SYNTAX", file=file, line=error.lineno,
                          column=error.colno) from None
    except RecursionError:
        raise RecordError("the JSON nests too deep to be read", LIMIT, file=file, line=1,
                          column=1) from None
    items = data if isinstance(data, list) else [data]
    games = []
    budget = Budget()
    for index, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise RecordError("a game is a JSON object", "SYNTAX", file=file, game=index)
        games.append(game_from_dict(item, index, file, budget))
    return games


def _integer(text: str, file: str, digits: str) -> int:
    """A JSON integer, refused past :data:`~notation.limits.MAX_DIGITS` digits (located at
    its first occurrence in ``text``)."""
    if len(digits.lstrip("-")) <= MAX_DIGITS:
        return int(digits)
    offset = text.find(digits)
    line = text.count("\n", 0, offset) + 1
    raise RecordError(f"a number of {len(digits)} digits: at most {MAX_DIGITS} are read", LIMIT,
                      file=file, line=line, column=offset - text.rfind("\n", 0, offset))
