"""Reading SGF (``GM[6]``) backgammon records, as GNU Backgammon saves them.

A file holds one game tree per game. The root node carries the match (``MI[length:7]
[game:0][ws:0][bs:0]``), the players (``PW``, ``PB``), ``DT``, ``EV``, ``RO``, ``PC``,
``GC``, the rules (``RU[Crawford:CrawfordGame]``) and the result (``RE[W+4]``, ``RE[B+2R]``
for a resignation). Each move node is ``W[...]`` or ``B[...]``: the dice and then pairs of
letters, from and to (``W[51xwmh]`` is 51: 24/23 13/8), ``a``-``x`` being White's points
1-24 (Black counts them the other way), ``y`` the bar and ``z`` off; or ``double``,
``take``, ``drop``. ``C[...]`` comments are kept; analysis properties (``A``, ``DA``,
``GS``, ``LU``, ``MR``, ...) are ignored. A last node ``PL[B]DI[31]`` is a roll followed
by a resignation.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from notation.engine.dice import Dice
from notation.engine.rules import rule_set
from notation.engine.state import DOUBLE, DROP, RESIGN, TAKE, Colour, TurnKind
from notation.errors import IllegalPlayError, NotationError, RecordError
from notation.formats.dialects import play_as_exported
from notation.formats.jqn.lexer import Locate, locator
from notation.formats.reading import Budget, located, read_whole
from notation.limits import LIMIT, MAX_DEPTH, NUMBER
from notation.messages import Message
from notation.tree.game import Game, Node
from notation.tree.numbering import turn_number

_PROPERTY = re.compile(r"\s*([A-Za-z]+)((?:\s*\[(?:\\.|[^\\\]])*\])+)", re.DOTALL)
_VALUE = re.compile(r"\[((?:\\.|[^\\\]])*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_RESULT = re.compile(rf"^([WB])\+({NUMBER})(R?)$")
_NUMBER = re.compile(NUMBER)
ACTIONS: dict[str, TurnKind] = {"double": DOUBLE, "take": TAKE, "drop": DROP}


@dataclass
class SgfNode:
    """One node: its properties (name to list of values) and where it starts."""

    properties: dict[str, list[str]]
    offset: int


@dataclass
class SgfTree:
    nodes: list[SgfNode] = field(default_factory=list)
    children: list[SgfTree] = field(default_factory=list)
    offset: int = 0


def parse_sgf(text: str, locate: Locate, file: str) -> list[SgfTree]:
    """The game trees of an SGF text; :class:`RecordError` for malformed SGF, or (``LIMIT``)
    for trees nested deeper than :data:`~notation.limits.MAX_DEPTH` or more than
    :data:`~notation.limits.MAX_POSITIONS` trees and nodes."""
    trees: list[SgfTree] = []
    stack: list[SgfTree] = []
    position = 0
    length = len(text)
    budget = Budget()
    while position < length:
        char = text[position]
        if char.isspace():
            position += 1
        elif char in "(;" and not budget.spend():
            line, column = locate(position)
            raise budget.error("one file", file=file, line=line, column=column)
        elif char == "(":
            if len(stack) == MAX_DEPTH:
                raise _error(Message.of("reader.sgf.nesting", most=MAX_DEPTH), locate, position, file,
                             rule_id=LIMIT)
            tree = SgfTree(offset=position)
            (stack[-1].children if stack else trees).append(tree)
            stack.append(tree)
            position += 1
        elif char == ")":
            if not stack:
                raise _error(Message.of("reader.sgf.close"), locate, position, file)
            stack.pop()
            position += 1
        elif char == ";":
            if not stack:
                raise _error(Message.of("reader.sgf.outside"), locate, position, file)
            node = SgfNode({}, position)
            position += 1
            while True:
                match = _PROPERTY.match(text, position)
                if not match:
                    break
                values = [_ESCAPE.sub(r"\1", v) for v in _VALUE.findall(match.group(2))]
                node.properties.setdefault(match.group(1), []).extend(values)
                position = match.end()
            stack[-1].nodes.append(node)
        else:
            raise _error(Message.of("reader.sgf.unexpected", char=repr(char)), locate, position, file)
    if stack:
        raise _error(Message.of("reader.sgf.unclosed"), locate, length, file)
    return trees


def _error(message: Message, locate: Locate, offset: int, file: str, game: int = 0,
           rule_id: str = "SYNTAX") -> RecordError:
    line, column = locate(offset)
    return RecordError(message, rule_id, file=file, line=line, column=column, game=game)


def read_sgf(source: str | os.PathLike[str]) -> list[Game]:
    """The games of a GNU Backgammon SGF file, checked; each carries its ``errors``. Malformed
    SGF is the error of one game; a limit crossed (``LIMIT``) is raised."""
    file = os.fspath(source)
    text = read_whole(source).decode("utf-8", errors="replace").lstrip("\ufeff")
    locate = locator(text)
    try:
        trees = parse_sgf(text, locate, file)
    except RecordError as error:
        if error.rule_id == LIMIT:
            raise
        game = Game(rule_set("backgammon"))
        game.errors.append(error)
        return [game]
    return [_game(tree, index, locate, file) for index, tree in enumerate(trees, 1)]


def _first(properties: dict[str, list[str]], name: str, default: str = "") -> str:
    values = properties.get(name)
    return values[0] if values else default


def _game(tree: SgfTree, index: int, locate: Locate, file: str) -> Game:
    root = tree.nodes[0].properties if tree.nodes else {}
    headers = _headers(root)
    if _first(root, "GM", "6") != "6":
        game = Game(rule_set("backgammon"), headers=headers)
        game.errors.append(_error(Message.of("reader.sgf.game", value=_first(root, "GM")), locate,
                                  tree.offset, file, index))
        return game
    moves = [n for n in tree.nodes[1:] if "W" in n.properties or "B" in n.properties]
    first = Colour.BLACK if moves and "B" in moves[0].properties else Colour.WHITE
    headers["Lead"] = first.title
    crawford = "CrawfordGame" in _first(root, "RU")
    if crawford:
        headers["Crawford"] = "yes"  # as the .mat reader says it: kept in every format
    game = Game(rule_set("backgammon"), first, headers, crawford=crawford)
    game.comments.extend(root.get("C", []))
    try:
        _play_line(game, tree.nodes[1:], tree.children, index, locate, file, game.warnings)
        _finish(game, _first(root, "RE"), locate, tree.offset, file, index)
    except RecordError as error:
        game.errors.append(error)
    return game


def _headers(root: dict[str, list[str]]) -> dict[str, str]:
    headers = {"Variant": "backgammon", "White": _first(root, "PW"), "Black": _first(root, "PB")}
    for prop, tag in (("DT", "Date"), ("EV", "Event"), ("RO", "Round"), ("PC", "Site"),
                      ("AN", "Annotator"), ("GC", "GameComment")):
        if root.get(prop):
            headers[tag] = _first(root, prop).replace("-", ".") if prop == "DT" else _first(root, prop)
    info = dict(part.split(":", 1) for part in root.get("MI", []) if ":" in part)
    if "length" in info:
        headers["MatchLength"] = info["length"]
    if "game" in info and _NUMBER.fullmatch(info["game"]):
        headers["Game"] = str(int(info["game"]) + 1)
    if "ws" in info and "bs" in info:
        headers["Score"] = f"{info['ws']}-{info['bs']}"
    return headers


def _play_line(parent: Node, nodes: list[SgfNode], children: list[SgfTree], index: int,
               locate: Locate, file: str, warnings: list[NotationError]) -> None:
    node = parent
    for sgf_node in nodes:
        node = _apply(node, sgf_node, index, locate, file, warnings)
    for child in children:  # variations: each goes on from the same node
        _play_line(node, child.nodes, child.children, index, locate, file, warnings)


def _point(letter: str, colour: Colour) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    number = ord(letter) - ord("a") + 1
    return number if colour is Colour.WHITE else 25 - number


def _apply(node: Node, sgf_node: SgfNode, index: int, locate: Locate, file: str,
           warnings: list[NotationError]) -> Node:
    properties = sgf_node.properties
    colour_key = "W" if "W" in properties else "B" if "B" in properties else None
    try:
        if colour_key is None:
            if "PL" in properties and "DI" in properties:  # rolled, then the game ended
                node.comments.append(f"rolled {_first(properties, 'DI')}")
            for comment in properties.get("C", []):
                node.comments.append(comment)
            return node
        colour = Colour.WHITE if colour_key == "W" else Colour.BLACK
        if colour is not node.state.player:
            raise RecordError(Message.of("reader.sgf.turn", player=colour.named,
                                         turn=node.state.player.named), "R-TURN")
        value = _first(properties, colour_key).strip().lower()
        if value in ACTIONS:
            child = node.add_turn(ACTIONS[value])
        else:
            if not re.fullmatch(r"[1-6][1-6](?:[a-z][a-z]){0,4}", value):
                raise RecordError(Message.of("reader.sgf.move", text=repr(value)), "SYNTAX")
            dice = Dice.parse(value[:2])
            pairs = [(value[i], value[i + 1]) for i in range(2, len(value), 2)]
            play = " ".join(f"{_point(a, colour)}/{_point(b, colour)}" for a, b in pairs) or "-"
            line, column = locate(sgf_node.offset)
            child = play_as_exported(node, dice, play, warnings, lambda message: RecordError(
                message, "R-STEP", file=file, line=line, column=column, game=index,
                severity="warning"))
        child.comments.extend(properties.get("C", []))
        return child
    except NotationError as problem:
        line, column = locate(sgf_node.offset)
        raise located(problem, file=file, line=line, column=column, game=index,
                      turn=turn_number(node)) from None


def _finish(game: Game, result: str, locate: Locate, offset: int, file: str, index: int) -> None:
    """Check ``RE[...]`` against the end of the main line; ``R`` marks a resignation."""
    end = game.end()
    match = _RESULT.match(result.strip()) if result else None
    if match is None:
        game.headers["Result"] = game.result
        return
    winner = Colour(match.group(1))
    points = int(match.group(2))
    line, column = locate(offset)
    if match.group(3) and not end.state.over:
        resigned = end.add_turn(RESIGN, by=winner.other)
        try:
            resigned.state = resigned.state.resigned_for(points)
        except IllegalPlayError as problem:
            raise RecordError(Message.of("reader.sgf.result", result=result, reason=problem.msg),
                              problem.rule_id, file=file,
                              line=line, column=column, game=index) from None
    elif game.result != f"{winner.value}+{points}":
        raise RecordError(Message.of("reader.sgf.score", result=result, winner=winner.named,
                                     points=points, scored=game.result),
                          "R-SCORE", file=file, line=line, column=column, game=index)
    game.headers["Result"] = game.result
