"""Games as XML (``.xml``), read with a hardened lxml parser and checked against the XML
Schema shipped with the package (``notation/formats/schema/games.xsd``); see ``docs/xml.md``.

Reading refuses what untrusted XML may carry: any DOCTYPE (so no entities, no billion
laughs), external resources, documents over a size limit or nested too deep. Schema errors
and rule errors alike come back as :class:`~notation.errors.RecordError` with the line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources

from lxml import etree

from notation.engine.dice import Dice
from notation.engine.rules import DEFAULT
from notation.engine.state import Colour
from notation.errors import FormatError, NotationError, RecordError, TagProblem
from notation.formats.reading import Budget, located, read_whole
from notation.limits import LIMIT, MAX_DEPTH, MAX_ELEMENTS
from notation.messages import Message
from notation.tree.game import Game, GameNode, Node
from notation.tree.numbering import turn_number
from notation.tree.tags import setup_from_tags
from notation.tree.walk import Visitor

NS = "urn:jacquet:games:1"
Q = f"{{{NS}}}"


@cache
def schema() -> etree.XMLSchema:
    """The package's XML Schema (loaded once)."""
    source = resources.files("notation.formats").joinpath("schema/games.xsd").read_bytes()
    return etree.XMLSchema(etree.fromstring(source, _parser()))


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           huge_tree=False, dtd_validation=False, remove_comments=True,
                           remove_pis=True)


# -- writing ---------------------------------------------------------------------------


def _turn_element(node: GameNode) -> etree._Element:
    turn = node.turn
    assert turn is not None, "the game's root is no turn"
    element = etree.Element(Q + "turn", player=turn.player.value)
    if turn.kind != "roll":
        element.set("kind", turn.kind)
    if turn.dice is not None:
        element.set("dice", str(turn.dice))
    if turn.play is not None:
        element.set("play", str(turn.play))
    for nag in node.nags:
        etree.SubElement(element, Q + "nag").text = str(nag)
    for text in node.comments:
        etree.SubElement(element, Q + "comment").text = text
    return element


class _Writer(Visitor[etree._Element]):
    """Writes a game as its ``<game>`` element, a visitor of the game
    (:meth:`~notation.tree.game.Game.accept`): each turn is a ``<turn>`` with its NAGs and
    comments (:func:`_turn_element`), its alternatives ``<variation>`` elements inside it.
    The game's own attributes and comments come from the game (a comment visited before
    the first turn may be that turn's starting comment, which the turn writes)."""

    def __init__(self, game: Game) -> None:
        self.element = etree.Element(Q + "game", variant=game.rules.name, first=game.first.value,
                                     result=game.headers.get("Result") or game.result)
        if game.rules.options:
            self.element.set("options", game.rules.options_text)
        self.comments = game.comments
        self.container = self.last = self.element
        self.stack: list[tuple[etree._Element, etree._Element]] = []

    def visit_header(self, name: str, value: str, line: int = 0) -> None:
        etree.SubElement(self.element, Q + "tag", name=name).text = value

    def end_headers(self) -> None:
        for text in self.comments:
            etree.SubElement(self.element, Q + "comment").text = text

    def visit_node(self, node: GameNode) -> None:
        element = _turn_element(node)
        for text in node.starting_comments:
            comment = etree.Element(Q + "comment", before="true")
            comment.text = text
            element.insert(len(node.nags), comment)
        self.container.append(element)
        self.last = element

    def begin_variation(self) -> None:
        self.stack.append((self.container, self.last))
        self.container = etree.SubElement(self.last, Q + "variation")

    def end_variation(self) -> None:
        self.container, self.last = self.stack.pop()

    def result(self) -> etree._Element:
        return self.element


def game_element(game: Game) -> etree._Element:
    element = game.accept(_Writer(game))
    assert isinstance(element, etree._Element)
    return element


def dumps(games: list[Game]) -> str:
    """Games as a pretty, canonical XML document; :class:`~notation.errors.FormatError` naming the game if one
    holds text XML 1.0 cannot (a control character other than tab and line breaks)."""
    root = etree.Element(Q + "games", nsmap={None: NS}, version="1")
    for number, game in enumerate(games, 1):
        try:
            root.append(game_element(game))
        except ValueError:
            raise FormatError(Message.of("reader.xml.control", game=number)) from None
    written: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return written.decode("utf-8")


# -- reading ---------------------------------------------------------------------------


def read_xml(source: str | os.PathLike[str], max_bytes: int | None = None) -> Iterator[Game]:
    """The games of an XML file: hardened parsing and schema validation now, then each
    game built and checked by the rules as it is asked for."""
    return iter_games(read_whole(source, max_bytes), os.fspath(source))


def loads(data: bytes, file: str = "-") -> list[Game]:
    """The games of :func:`iter_games`, as a list."""
    return list(iter_games(data, file))


PLACE_SAID = re.compile(r",? ?line \d+, column \d+$")
"""The place libxml2 writes at the end of its reason (``..., line 4, column 9``)."""


def iter_games(data: bytes, file: str = "-") -> Iterator[Game]:
    """Games from XML bytes; :class:`RecordError` for a document that is not well formed,
    declares a DOCTYPE, does not follow the schema, or crosses a limit (more than
    :data:`~notation.limits.MAX_ELEMENTS` elements, counted before parsing)."""
    upper = data.upper()
    found = [at for at in (upper.find(b"<!DOCTYPE", 0, 4096), upper.find(b"<!ENTITY")) if at >= 0]
    if found:
        declared = min(found)
        raise RecordError(Message.of("reader.xml.declaration"), "SYNTAX", file=file,
                          line=data.count(b"\n", 0, declared) + 1,
                          column=declared - data.rfind(b"\n", 0, declared))
    if data.count(b"<") - data.count(b"</") > MAX_ELEMENTS:
        raise RecordError(Message.of("reader.xml.elements", most=MAX_ELEMENTS),
                          LIMIT, file=file, line=1, column=1)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        line, column = error.position
        rule = LIMIT if "Resource limit exceeded" in error.msg else "SYNTAX"  # lxml's own limits
        reason = PLACE_SAID.sub("", error.msg)  # (the error's own line and column say it)
        raise RecordError(Message.of("reader.xml.malformed", reason=reason), rule, file=file,
                          line=line, column=max(1, column)) from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise RecordError(Message.of("reader.xml.doctype"), "SYNTAX", file=file, line=1, column=1)
    _check_depth(root, file)
    validator = schema()
    if not validator.validate(root):
        entry = validator.error_log[0]
        raise RecordError(entry.message, "SCHEMA", file=file, line=entry.line,
                          column=max(1, entry.column))  # lxml gives 0 for "the element"
    return _built(root, file)


def _built(root: etree._Element, file: str) -> Iterator[Game]:
    budget = Budget()
    for index, element in enumerate(root.iterchildren(Q + "game"), 1):
        yield _game(element, index, file, budget)


def _check_depth(root: etree._Element, file: str) -> None:
    depth = 0
    for event, element in etree.iterwalk(root, events=("start", "end")):
        depth += 1 if event == "start" else -1
        if depth > MAX_DEPTH:
            raise RecordError(Message.of("reader.xml.nesting", most=MAX_DEPTH), LIMIT, file=file,
                              line=element.sourceline or 0, column=1)


def _game(element: etree._Element, index: int, file: str, budget: Budget) -> Game:
    if not budget.spend():
        raise budget.error("one file", file=file, line=element.sourceline or 0, column=1, game=index)
    headers = {tag.get("name"): tag.text or "" for tag in element.iterchildren(Q + "tag")}
    tagged = dict(headers, Variant=element.get("variant", DEFAULT))
    if element.get("options"):
        tagged["Options"] = element.get("options")
    try:
        setup = setup_from_tags(tagged, first=Colour(element.get("first", "W")))
    except TagProblem as problem:
        game = Game(headers=headers)
        game.errors.append(RecordError(problem.msg, problem.rule_id, file=file,
                                       line=element.sourceline or 0, column=1, game=index))
        return game
    game = Game(setup.rules, setup.first, headers, setup.lead_rolls, setup.crawford)
    game.tag_lines = {tag.get("name"): tag.sourceline or 0 for tag in element.iterchildren(Q + "tag")}
    if element.get("result") and "Result" not in game.headers:
        game.headers["Result"] = element.get("result")
    game.comments.extend(c.text or "" for c in element.iterchildren(Q + "comment"))
    try:
        _turns(game, list(element.iterchildren(Q + "turn")), index, file, budget)
    except RecordError as error:
        if error.rule_id == LIMIT:
            raise
        game.errors.append(error)
        return game
    declared = game.headers.get("Result")
    mismatch = game.result_problem(declared) if declared else None
    if mismatch is not None:
        game.errors.append(RecordError(mismatch[1], mismatch[0], file=file,
                                       line=element.sourceline or 0, column=1, game=index))
    return game


def _turns(parent: Node, elements: list[etree._Element], index: int, file: str, budget: Budget) -> None:
    node = parent
    for element in elements:
        start = node
        if not budget.spend():
            raise budget.error("one file", file=file, line=element.sourceline or 0, column=1,
                               game=index)
        try:
            dice = Dice.parse(element.get("dice")) if element.get("dice") else None
            node = node.add_recorded_turn(Colour(element.get("player")), element.get("kind", "roll"),
                                          dice, element.get("play"))
        except NotationError as problem:
            raise located(problem, file=file, line=element.sourceline or 0, column=1, game=index,
                          turn=turn_number(start)) from None
        node.nags.extend(int(n.text) for n in element.iterchildren(Q + "nag"))
        for comment in element.iterchildren(Q + "comment"):
            if comment.get("before") == "true":
                node.comment_before(comment.text or "")
            else:
                node.comments.append(comment.text or "")
        for variation in element.iterchildren(Q + "variation"):
            _turns(start, list(variation.iterchildren(Q + "turn")), index, file, budget)
