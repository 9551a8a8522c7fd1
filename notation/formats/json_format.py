"""Games as JSON, for the viewer, the API and ``jacquet convert``: reading here, writing in
:mod:`notation.formats.json_writer` (its functions are this module's too).

A file holds a list of games (one game alone is read too). A game is an object:
``headers`` (tag names to strings), ``variant``, ``options`` (option names to words or whole
numbers), ``first`` (``"W"``/``"B"``: who acts first), ``start`` (the position ID before the
first turn), ``comments`` (before the first turn), ``turns`` (the main line), ``result`` and
``errors`` (the problems the game written had). Each turn has ``ply``, ``player``, ``kind``,
``dice``, ``play`` (canonical), ``steps`` (single-die ``[from, to]``), ``position`` (the ID
after the turn, seen by the player to act next), ``pips`` (White's, Black's), ``comments``,
``starting_comments``, ``nags``, ``cube`` (``value`` and ``owner``; left out while the cube
is centred at 1) and ``variations``: alternatives to this turn, each a list of turns.

Reading is strict about form and meaning. A game needs ``turns``; any other key may be left
out (or null). A key the writer does not write, a value of the wrong type, a player other
than ``"W"``/``"B"`` is an error of its game, as is a field that contradicts the rest of the
record: ``variant``, ``first`` and ``result`` the headers; ``start``, ``ply``, ``steps`` (their
order aside), ``position``, ``pips`` and ``cube`` the game as its turns play it. ``errors`` is
read for its form only: the game is checked again. An object that gives a key twice refuses
the whole document.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from difflib import get_close_matches
from functools import partial
from operator import attrgetter
from typing import Any, NoReturn

from notation.engine.dice import Dice
from notation.engine.rules import rule_set
from notation.engine.state import Colour
from notation.errors import IllegalPlayError, NotationError, RecordError, TagProblem
from notation.formats.json_writer import (
    as_json,
    cube_of,
    dumps,
    game_to_dict,
    game_to_json,
    play_steps,
    turn_dict,
)
from notation.formats.reading import Budget, located, not_utf8, read_whole
from notation.limits import LIMIT, MAX_DEPTH, MAX_DIGITS, MAX_ELEMENTS, MAX_NAG
from notation.messages import Message
from notation.tree.game import Game, GameNode, Node
from notation.tree.numbering import turn_number
from notation.tree.tags import TAG_NAME, setup_from_tags

GAME_KEYS = ("headers", "variant", "options", "first", "start", "comments", "turns", "result",
             "errors")
"""A game's keys, as :func:`game_to_dict` writes them: the reader refuses any other."""
TURN_KEYS = ("ply", "player", "kind", "dice", "play", "steps", "position", "pips", "comments",
             "starting_comments", "nags", "cube", "variations")
"""A turn's keys, as :func:`turn_dict` writes them with ``variations``: the reader refuses
any other."""


def game_from_dict(data: Any, index: int = 1, file: str = "-",
                   budget: Budget | None = None) -> Game:
    """Rebuild and check a game from its JSON form; problems go to ``game.errors``. A value
    that is no game object, an unknown key, a field of the wrong type or value, or one that
    contradicts the headers or the game as read is such a problem (``SYNTAX``); a limit
    crossed (``budget``: the positions of the file so far) is raised."""
    budget = budget or Budget()
    if not budget.spend():
        raise budget.error("one file", file=file, game=index)
    try:
        _check_game(data, index, file)
        headers = _headers(data, index, file)
        game = _started(data, headers, index, file)
    except RecordError as error:
        return _refused(Game(), error)
    except TagProblem as problem:
        return _refused(Game(headers=headers), RecordError(problem.msg, problem.rule_id,
                                                           file=file, game=index))
    except ValueError as error:  # a rule set or option the tags name that is not known
        rule_id = error.rule_id if isinstance(error, IllegalPlayError) else "TAG"
        reason = error.msg if isinstance(error, NotationError) else str(error)
        return _refused(Game(headers=headers), RecordError(reason, rule_id, file=file, game=index))
    try:
        if data.get("start") is not None:
            _check_same("start", data["start"], game.state.position.position_id(),
                        Message.of("json.source.rules", rules=game.rules.name), index, file)
        _list_of(data, "errors", _is_object, Message.of("json.items.objects"), index, file)
        game.comments.extend(_list_of(data, "comments", _is_string, STRINGS, index, file))
        _rebuild(game, _field(data, "turns", list, [], index, file), index, file, budget, 0)
        declared = _result(data, headers, index, file)
    except RecordError as error:
        if error.rule_id == LIMIT:
            raise
        return _refused(game, error)
    mismatch = game.result_problem(declared) if declared else None
    if mismatch is not None:
        game.errors.append(RecordError(mismatch[1], mismatch[0], file=file, game=index))
    elif declared and "Result" not in game.headers:
        game.headers["Result"] = declared
    return game


def _refused(game: Game, error: RecordError) -> Game:
    """``game``, read as far as it could be, with the ``error`` that ended its reading."""
    game.errors.append(error)
    return game


def _check_game(data: object, index: int, file: str) -> None:
    """:class:`RecordError` unless ``data`` is a game object: a JSON object with ``turns``
    and no key but :data:`GAME_KEYS`."""
    if not isinstance(data, dict):
        raise RecordError(Message.of("json.game-type", found=_type_name(data)), "SYNTAX", file=file,
                          game=index)
    _check_keys(data, GAME_KEYS, Message.of("json.a-game"), index, file)
    if data.get("turns") is None:
        raise RecordError(Message.of("json.no-turns"), "SYNTAX", file=file, game=index)


def _headers(data: dict[str, Any], index: int, file: str) -> dict[str, str]:
    """The game's ``headers``: tag names, each with a string."""
    headers: dict[str, str] = _field(data, "headers", dict, {}, index, file)
    for name, value in headers.items():
        if not TAG_NAME.fullmatch(name):
            raise RecordError(Message.of("json.tag-name", name=repr(name)), "TAG", file=file, game=index)
        if not isinstance(value, str):
            raise RecordError(Message.of("json.header-type", name=repr(name), found=_type_name(value)),
                              "SYNTAX", file=file, game=index)
    return headers


def _started(data: dict[str, Any], headers: dict[str, str], index: int, file: str) -> Game:
    """The game before its first turn, as its headers say with what ``variant``,
    ``options`` and ``first`` (who acts first) say, where they say it, in their place.
    ``variant`` and ``first`` must agree with the headers that say the same (``Variant``,
    unless empty; ``Lead``, ``LeadRoll``)."""
    tags = dict(headers)
    variant = _field(data, "variant", str, "", index, file)
    if variant:
        tags["Variant"] = variant
    options = _options(data, index, file)
    if options:
        tags["Options"] = options
    first = _colour(data, "first", index, file)
    setup = setup_from_tags(tags, first=first)
    if variant and headers.get("Variant"):
        _check_same("variant", setup.rules.name, rule_set(headers["Variant"]).name,
                    HEADERS_SAY, index, file)
    game = Game(setup.rules, setup.first, headers, setup.lead_rolls, setup.crawford)
    if first is not None:
        _check_same("first", first.value, game.first.value, HEADERS_SAY, index, file)
    return game


_OPTION_VALUE = re.compile(r"[^\s,]+")
"""An option's value as the ``Options`` tag holds it: no space or comma, which part options."""


def _options(data: dict[str, Any], index: int, file: str) -> str:
    """The ``options`` as the ``Options`` tag writes them (``NAME=VALUE``, space separated):
    each named as a tag, its value a word or a whole number."""
    options = _field(data, "options", dict, {}, index, file)
    for name, value in options.items():
        text = str(value) if type(value) is int else value
        if not (TAG_NAME.fullmatch(name) and isinstance(text, str)
                and _OPTION_VALUE.fullmatch(text)):
            raise RecordError(Message.of("json.option", name=repr(name), value=as_json(value)), "SYNTAX",
                              file=file, game=index)
    return " ".join(f"{name}={value}" for name, value in options.items())


def _result(data: dict[str, Any], headers: dict[str, str], index: int, file: str) -> str | None:
    """The result the game declares: its ``Result`` header, or else (missing or empty) its
    ``result`` field; the two must agree."""
    result = _field(data, "result", str, None, index, file)
    if result is not None and headers.get("Result"):
        _check_same("result", result, headers["Result"], HEADERS_SAY, index, file)
    return headers.get("Result") or result


def _check_keys(data: dict[str, Any], known: tuple[str, ...], what: Message, index: int, file: str,
                turn: str = "") -> None:
    """:class:`RecordError` for the first key of ``data`` not among ``known``, the keys
    ``what`` may have, naming the known key it looks like, if any."""
    unknown = data.keys() - known
    if unknown:
        key = next(key for key in data if key in unknown)
        close = get_close_matches(key, known, n=1)
        problem = (Message.of("json.unknown-key.close", key=repr(key), close=repr(close[0]), what=what,
                              known=", ".join(known)) if close else
                   Message.of("json.unknown-key", key=repr(key), what=what, known=", ".join(known)))
        raise RecordError(problem, "SYNTAX", file=file, game=index, turn=turn)


def _check_same(key: str, stated: Any, actual: Any, source: Message, index: int, file: str,
                turn: str = "") -> None:
    """:class:`RecordError` if the field ``key`` says ``stated`` where ``source`` gives
    ``actual``: a field that repeats what the record says otherwise may not contradict it."""
    if stated != actual:
        raise RecordError(Message.of("json.contradicts", key=repr(key), stated=as_json(stated),
                                     source=source, actual=as_json(actual)),
                          "SYNTAX", file=file, game=index, turn=turn)


def _field(data: dict[str, Any], key: str, kind: type, default: Any, index: int, file: str,
           turn: str = "") -> Any:
    """``data[key]``, or ``default`` when it is missing or null; :class:`RecordError` when
    it is not a ``kind``."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, kind):
        raise RecordError(Message.of("json.field-type", key=repr(key), kind=_TYPE_NAMES[kind],
                                     found=_type_name(value)),
                          "SYNTAX", file=file, game=index, turn=turn)
    return value


def _colour(data: dict[str, Any], key: str, index: int, file: str,
            turn: str = "") -> Colour | None:
    """The player ``data[key]`` names, ``"W"`` or ``"B"``; ``None`` when it is missing or null."""
    value = _field(data, key, str, None, index, file, turn)
    if value is None:
        return None
    try:
        return Colour(value)
    except ValueError:
        raise RecordError(Message.of("json.colour", key=repr(key), value=as_json(value)), "SYNTAX",
                          file=file, game=index, turn=turn) from None


def _list_of(data: dict[str, Any], key: str, valid: Callable[[Any], bool], what: Message, index: int,
             file: str, turn: str = "") -> list[Any]:
    """``data[key]``, a list (empty when missing or null) of ``what``: items ``valid`` takes."""
    values: list[Any] = _field(data, key, list, [], index, file, turn)
    if not all(map(valid, values)):
        raise RecordError(Message.of("json.list-of", key=repr(key), what=what), "SYNTAX", file=file,
                          game=index, turn=turn)
    return values


def _is_string(value: Any) -> bool:
    """A JSON string."""
    return isinstance(value, str)


def _is_object(value: Any) -> bool:
    """A JSON object."""
    return isinstance(value, dict)


def _is_step(value: Any) -> bool:
    """A single-die step: ``[from, to]``, two numbers (not true or false)."""
    return (isinstance(value, list) and len(value) == 2 and type(value[0]) is int
            and type(value[1]) is int)


def _is_nag(value: Any) -> bool:
    """A NAG: a number (not true or false) from 0 to :data:`~notation.limits.MAX_NAG`."""
    return type(value) is int and 0 <= value <= MAX_NAG


_TYPE_NAMES: dict[type, Message] = {kind: Message.of(f"json.type.{name}") for kind, name in (
    (dict, "object"), (list, "list"), (str, "string"), (int, "number"), (float, "number"),
    (bool, "boolean"), (type(None), "null"))}
"""What a JSON value is, as the messages say it."""
STRINGS = Message.of("json.items.strings")
HEADERS_SAY = Message.of("json.source.headers")


def _type_name(value: object) -> Message:
    return _TYPE_NAMES[type(value)]


def _rebuild(parent: Node, turns: list[Any], index: int, file: str, budget: Budget,
             depth: int) -> None:
    """Add ``turns`` after ``parent``, each with its variations (``depth``: how deep they
    nest here)."""
    if depth > MAX_DEPTH:
        raise RecordError(Message.of("reader.jqn.nesting", most=MAX_DEPTH), LIMIT, file=file, game=index)
    for data in turns:
        label = turn_number(parent)
        if not isinstance(data, dict):
            raise RecordError(Message.of("json.turn-type", found=_type_name(data)), "SYNTAX",
                              file=file, game=index, turn=label)
        if not budget.spend():
            raise budget.error("one file", file=file, game=index)
        _check_keys(data, TURN_KEYS, Message.of("json.a-turn"), index, file, label)
        node = _add_turn(parent, data, index, file, label)
        _check_facts(node, data, index, file, label)
        node.comments.extend(_list_of(data, "comments", _is_string, STRINGS, index, file, label))
        for text in _list_of(data, "starting_comments", _is_string, STRINGS, index, file, label):
            node.comment_before(text)
        node.nags.extend(_list_of(data, "nags", _is_nag, Message.of("json.items.nags", most=MAX_NAG),
                                  index, file, label))
        for variation in _field(data, "variations", list, [], index, file, label):
            if not isinstance(variation, list):
                raise RecordError(Message.of("json.variation"), "SYNTAX", file=file,
                                  game=index, turn=label)
            _rebuild(parent, variation, index, file, budget, depth + 1)
        parent = node


def _add_turn(parent: Node, data: dict[str, Any], index: int, file: str,
              label: str) -> GameNode:
    """The node of the turn ``data`` after ``parent``, checked (``label``: its turn)."""
    try:
        dice = _field(data, "dice", str, "", index, file, label)
        return parent.add_recorded_turn(_colour(data, "player", index, file, label),
                                        _field(data, "kind", str, "roll", index, file, label),
                                        Dice.parse(dice) if dice else None,
                                        _field(data, "play", str, None, index, file, label))
    except NotationError as problem:
        if isinstance(problem, RecordError):
            raise
        raise located(problem, file=file, game=index, turn=label) from None


_TURN_FACTS: dict[str, Callable[[GameNode], Any]] = {
    "ply": attrgetter("ply"),
    "position": lambda node: node.state.seen_next()[0].position_id(),  # as json_writer writes it
    "pips": lambda node: list(node.state.pips()),
    "cube": lambda node: cube_of(node.state),
}
"""The fields of a turn that follow from the game as read, each worked out from its node
(``steps`` too: :func:`_check_steps`)."""


def _check_facts(node: GameNode, data: dict[str, Any], index: int, file: str, label: str) -> None:
    """:class:`RecordError` if the turn ``data`` (read as ``node``) gives a field that
    follows from the game as read, and the game says otherwise: a turn may leave them out,
    not contradict them."""
    for key, fact in _TURN_FACTS.items():
        stated = data.get(key)
        if stated is not None:
            _check_same(key, stated, fact(node), Message.of("json.source.turn"), index, file, label)
    _check_steps(node, data, index, file, label)


def _check_steps(node: GameNode, data: dict[str, Any], index: int, file: str, label: str) -> None:
    """:class:`RecordError` unless the turn's ``steps``, when given, are as many as its
    play's and move men from and to the same points, not necessarily through the same
    ones: a play read from another format keeps the steps it was read with (``21/10``
    with 65 goes by 16 or by 15)."""
    steps = data.get("steps")
    if steps is None or steps == (played := play_steps(node.turn)):
        return
    steps = _list_of(data, "steps", _is_step, Message.of("json.items.steps"), index, file, label)
    if len(steps) != len(played) or _men_moved(steps) != _men_moved(played):
        raise RecordError(Message.of("json.steps", steps=as_json(steps), played=as_json(played)),
                          "SYNTAX", file=file, game=index, turn=label)


def _men_moved(steps: list[list[int]]) -> dict[int, int]:
    """How many men ``steps`` take from each point (negative) and bring to it (positive),
    the points a man only passes through left out."""
    moved: Counter[int] = Counter()
    for start, end in steps:
        moved[start] -= 1
        moved[end] += 1
    return {point: count for point, count in moved.items() if count}


def read_json(source: str | os.PathLike[str]) -> Iterator[Game]:
    """The games of a JSON file (UTF-8, a byte-order mark tolerated); :class:`RecordError`
    for a file over :data:`~notation.limits.MAX_FILE_BYTES`, not UTF-8, or not JSON. The
    document is read and checked now; its games are built one at a time as they are asked
    for, so that a reader stopping after a few (a game limit) builds no more."""
    file = os.fspath(source)
    data = read_whole(source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise RecordError(Message.of("json.utf-8", reason=not_utf8(error)), "SYNTAX", file=file, line=line,
                          column=column) from None
    return iter_games(text, file)


def loads(text: str, file: str = "-") -> list[Game]:
    """The games of :func:`iter_games`, as a list."""
    return list(iter_games(text, file))


def iter_games(text: str, file: str = "-") -> Iterator[Game]:
    """Games from a JSON list of games (or one game object), each read by
    :func:`game_from_dict`: what is not a game is an error of its own game. A malformed
    document raises :class:`RecordError` with the line and column where JSON reading
    stopped, as does one that crosses a limit: more than
    :data:`~notation.limits.MAX_ELEMENTS` objects and arrays, nesting deeper than Python's
    JSON reader follows, integers of more than :data:`~notation.limits.MAX_DIGITS` digits,
    more than :data:`~notation.limits.MAX_POSITIONS` positions; a document with an object
    that gives a key twice raises one (not located)."""
    if text.count("{") + text.count("[") > MAX_ELEMENTS:
        raise RecordError(Message.of("json.elements", most=MAX_ELEMENTS), LIMIT, file=file, line=1,
                          column=1)
    _refuse_lone_surrogates(text, file)
    try:
        data = json.loads(text, parse_int=partial(_integer, text, file),
                          object_pairs_hook=partial(_object, file))
    except json.JSONDecodeError as error:
        raise RecordError(Message.of("json.invalid", reason=_why_not_json(error.msg)), "SYNTAX", file=file,
                          line=error.lineno,
                          column=error.colno) from None
    except RecursionError:
        raise RecordError(Message.of("json.too-deep"), LIMIT, file=file, line=1,
                          column=1) from None
    return _built(data if isinstance(data, list) else [data], file)


DECODER_REASONS = (("Expecting value", "json.decode.value"),
                   ("Expecting property name", "json.decode.key"),
                   ("Expecting ':'", "json.decode.colon"),
                   ("Expecting ','", "json.decode.comma"),
                   ("Unterminated string", "json.decode.unterminated"),
                   ("Invalid control character", "json.decode.control"),
                   ("Invalid \\uXXXX", "json.decode.u-escape"),
                   ("Invalid \\escape", "json.decode.escape"),
                   ("Extra data", "json.decode.extra"),
                   ("Illegal trailing comma", "json.decode.trailing-comma"))
"""The beginnings of Python's JSON reader's reasons, by their message ids."""


def _why_not_json(reason: str) -> Message:
    """Python's reason why a document is not JSON, in the catalog (as the ``text``
    message where Python has a reason the catalog does not know)."""
    for beginning, message_id in DECODER_REASONS:
        if reason.startswith(beginning):
            return Message.of(message_id)
    return Message.of("text", text=reason)


def _built(items: list[Any], file: str) -> Iterator[Game]:
    budget = Budget()
    for index, item in enumerate(items, 1):
        yield game_from_dict(item, index, file, budget)


SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u([dD][89a-fA-F][0-9a-fA-F]{2})")
"""A ``\\uD800``-``\\uDFFF`` escape (not itself escaped): half of a pair, or a lone
surrogate."""


def _refuse_lone_surrogates(text: str, file: str) -> None:
    """:class:`RecordError` at the first escape of a lone surrogate in ``text`` (a high
    one not followed by a low one, or a low one alone): the string it makes is no text
    and could be neither stored nor written."""
    if "\\u" not in text:
        return
    high: int | None = None  # where a high surrogate's escape ends, waiting for its low one
    for found in SURROGATE_ESCAPE.finditer(text):
        start = found.start(1) - 2
        is_low = int(found.group(1), 16) >= 0xDC00
        if high is not None and is_low and start == high:
            high = None
            continue
        if high is not None or is_low:
            _surrogate_error(text, file, high - 6 if high is not None else start)
        high = found.end()
    if high is not None:
        _surrogate_error(text, file, high - 6)


def _surrogate_error(text: str, file: str, offset: int) -> NoReturn:
    line = text.count("\n", 0, offset) + 1
    raise RecordError(Message.of("json.surrogate", escape=text[offset:offset + 6]), "SYNTAX",
                      file=file, line=line,
                      column=offset - text.rfind("\n", 0, offset))


def _object(file: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; :class:`RecordError` if it gives a key twice (JSON readers keep
    either value, so the document says two things)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RecordError(Message.of("json.key-twice", key=repr(key)), "SYNTAX", file=file)
            seen.add(key)
    return data


def _integer(text: str, file: str, digits: str) -> int:
    """A JSON integer, refused past :data:`~notation.limits.MAX_DIGITS` digits (located at
    its first occurrence in ``text``)."""
    if len(digits.lstrip("-")) <= MAX_DIGITS:
        return int(digits)
    offset = text.find(digits)
    line = text.count("\n", 0, offset) + 1
    raise RecordError(Message.of("json.digits", digits=len(digits), most=MAX_DIGITS), LIMIT,
                      file=file, line=line, column=offset - text.rfind("\n", 0, offset))


__all__ = ["GAME_KEYS", "TURN_KEYS", "dumps", "game_from_dict", "game_to_dict", "game_to_json",
           "iter_games", "loads", "read_json", "turn_dict"]
