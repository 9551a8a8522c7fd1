"""The XML form: schema, lossless round trips, and hostile documents refused."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import rule_set
from notation.engine.dice import Dice
from notation.engine.rules import NAMES
from notation.errors import RecordError
from notation.formats import read_file, write_file
from notation.formats.jqn import write_game
from notation.formats.xml_format import dumps, loads, read_xml
from notation.tree.generate import random_game
from tests.trees import same_tree

HEAD = b'<?xml version="1.0"?>\n'
GAMES = b'<games xmlns="urn:jacquet:games:1" version="1">'


@settings(max_examples=15, deadline=None, derandomize=True)
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 10**6))
def test_text_xml_text_is_lossless(variant, seed):
    game = random_game(rule_set(variant), random.Random(seed), annotate=True)
    [again] = loads(dumps([game]).encode("utf-8"))
    assert not again.errors
    assert same_tree(game, again)
    assert write_game(again) == write_game(game)


def test_xml_is_canonical(tmp_path):
    game = random_game(rule_set("murray"), random.Random(2), annotate=True)
    first = dumps([game])
    assert dumps(loads(first.encode("utf-8"))) == first


def test_files_convert_through_xml(tmp_path):
    games = [random_game(rule_set("versailles"), random.Random(s), annotate=True) for s in range(2)]
    write_file(games, tmp_path / "g.xml")
    back = list(read_file(tmp_path / "g.xml"))
    assert [write_game(g) for g in back] == [write_game(g) for g in games]


def test_schema_error_names_line_and_attribute():
    document = HEAD + GAMES + b'\n<game variant="jacquet">\n<turn player="X" dice="55" play="24/4"/>\n</game></games>'
    with pytest.raises(RecordError) as caught:
        loads(document, "bad.xml")
    error = caught.value
    assert error.rule_id == "SCHEMA" and error.line == 4
    assert "player" in error.message and "X" in error.message


def test_rule_error_in_xml_has_its_line():
    document = (HEAD + GAMES + b'\n<game>\n<turn player="W" dice="63" play="24/18 24/21"/>\n</game></games>')
    [game] = loads(document, "bad.xml")
    [error] = game.errors
    assert error.rule_id == "R-COURIER" and error.line == 4 and error.legal_plays


def test_malformed_xml_is_a_syntax_error_with_position():
    with pytest.raises(RecordError) as caught:
        loads(HEAD + GAMES + b"<game>", "broken.xml")
    assert caught.value.rule_id == "SYNTAX" and caught.value.line == 2


@pytest.mark.parametrize("document", [b"", b"junk", HEAD + GAMES + b"\n<game>\n</games>", HEAD + GAMES + b"\n  <gam"])
def test_malformed_xml_says_its_place_once(document):
    """The line and column lead the error's line; libxml2's reason does not say them again."""
    with pytest.raises(RecordError) as caught:
        loads(document, "broken.xml")
    line = str(caught.value)
    assert line.startswith(f"broken.xml:{caught.value.line}:{caught.value.column}: error: [SYNTAX] ")
    assert "column" not in line


HOSTILE = {
    "internal entity": b'<!DOCTYPE games [<!ENTITY x "boom">]>' + GAMES + b"<game><tag name='E'>&x;</tag></game></games>",
    "billion laughs": (b'<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;'
                       b'&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;'
                       b'&lol2;&lol2;">]>' + GAMES + b"<game><tag name='E'>&lol3;</tag></game></games>"),
    "external entity": b'<!DOCTYPE games [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + GAMES + b"<game><tag name='E'>&x;</tag></game></games>",
    "external DTD": b'<!DOCTYPE games SYSTEM "http://127.0.0.1:9/evil.dtd">' + GAMES + b"</games>",
    "lowercase doctype": b'<!doctype games [<!ENTITY x "boom">]>' + GAMES + b"</games>",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_declarations_are_refused_quickly(name):
    start = time.thread_time()
    with pytest.raises(RecordError) as caught:
        loads(HEAD + HOSTILE[name], "hostile.xml")
    assert time.thread_time() - start < 1
    assert "passwd" not in str(caught.value) and "root:" not in str(caught.value)


def test_xinclude_is_never_processed():
    document = (HEAD + b'<games xmlns="urn:jacquet:games:1" xmlns:xi="http://www.w3.org/2001/XInclude">'
                b'<xi:include href="/etc/passwd" parse="text"/></games>')
    with pytest.raises(RecordError) as caught:
        loads(document)
    assert caught.value.rule_id == "SCHEMA"


def test_deep_nesting_is_refused():
    depth = 5000
    document = HEAD + GAMES + b"<game>" + b'<turn player="W" dice="55" play="24/4"><variation>' * depth
    document += b"</variation></turn>" * depth + b"</game></games>"
    with pytest.raises(RecordError):
        loads(document)


def test_huge_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.xml"
    path.write_bytes(HEAD + GAMES + b"<!--" + b"x" * 2048 + b"-->" + b"</games>")
    with pytest.raises(RecordError) as caught:
        read_xml(path, max_bytes=1024)
    assert "limit" in caught.value.message


def test_huge_text_node_is_refused():
    document = HEAD + GAMES + b"<game><comment>" + b"x" * (11 * 1024 * 1024) + b"</comment></game></games>"
    with pytest.raises(RecordError):
        loads(document)


def test_refusals_are_located_and_a_resource_limit_is_a_limit(tmp_path):
    from notation.errors import RecordError
    from notation.formats.xml_format import loads
    from notation.limits import LIMIT
    with pytest.raises(RecordError) as doctype:
        loads(b'<?xml version="1.0"?>\n  <!DOCTYPE games>\n<games/>')
    assert (doctype.value.line, doctype.value.column) == (2, 3)
    with pytest.raises(RecordError) as schema_error:
        loads(b'<games xmlns="urn:jacquet:games:1"><foo/></games>')
    assert schema_error.value.rule_id == "SCHEMA" and schema_error.value.column >= 1
    with pytest.raises(RecordError) as huge:
        loads(b'<games xmlns="urn:jacquet:games:1"><game><comment>' + b"x" * 10_000_001
              + b"</comment></game></games>")
    assert huge.value.rule_id == LIMIT


def test_rule_set_options_and_comments_before_a_turn_survive_xml_to_text(tmp_path):
    """Options given by the XML attribute only are written as an Options tag; a comment
    before a turn that opens no variation is read where the text notation keeps it."""
    from notation import rule_set
    from notation.formats.jqn import write_game
    from notation.formats.xml_format import dumps, loads
    from notation.tree.game import Game
    from tests.trees import same_tree
    game = Game(rule_set("murray", courier_release="next-turn"))
    first = game.add_turn("roll", Dice(6, 5), "24/13")
    second = first.add_turn("roll", Dice(3, 1), "24/20")
    second.comment_before("said before Black's turn")
    assert "Options" not in game.headers
    text = write_game(game)
    assert '[Options "courier_release=next-turn"]' in text
    [back] = loads(dumps([game]).encode())
    assert not back.errors and back.rules.options == {"courier_release": "next-turn"}
    assert same_tree(back, game) and first.comments == ["said before Black's turn"]
    assert write_game(back) == text


def test_a_control_character_xml_cannot_hold_is_a_clear_refusal():
    from notation.formats.xml_format import dumps
    from notation.tree.game import Game
    game = Game()
    game.comments.append("bell \x07")
    with pytest.raises(ValueError, match="game 1 holds a control character"):
        dumps([game])
