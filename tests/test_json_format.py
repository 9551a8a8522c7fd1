"""The game JSON written straight to text is the one ``json.dumps`` makes of the dict; pip
counts worked out turn by turn are those of the positions. Reading is strict: nonsense is
an error of its game, never a game read."""

import json

import pytest

from archive.rows import game_from_record
from notation.engine.board import BAR, OFF
from notation.engine.state import pips_after
from notation.errors import RecordError
from notation.formats.json_format import GAME_KEYS, TURN_KEYS, game_to_dict, game_to_json, loads
from notation.tree.game import Game
from webviewer.pages.kept_games import GameView

from .game_samples import sample_games


@pytest.mark.parametrize("game", sample_games("json"), ids=lambda game: game.rules.name)
def test_game_to_json_is_the_dicts_json(game):
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_game_to_json_of_a_game_without_turns(jacquet):
    game = Game(jacquet, headers={"Event": 'A "quoted" name'})
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


ODD_RECORD = """[Event "Say \\"hi\\" \\\\ there \u00e9\u2028"]
[Site "<b>&amp;</b>"]
[Variant "jacquet"]
[Options "courier_release=next-turn bouchon=last-two"]
[Result "*"]

1. 65: 24/13 {a comment with \\} and \u0001} 51: 24/19 $3 2. 66: 24/12 24/18 *
"""


def test_game_to_json_of_a_game_with_an_error_odd_headers_and_options():
    game = game_from_record(ODD_RECORD)
    assert game.errors and game.rules.options and game.variations
    assert '"' in game.headers["Event"] and "\\" in game.headers["Event"]
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_pips_after_a_turn_are_the_next_states():
    nodes = [node for game in sample_games("pips") for node in game.descendants()]
    steps = [step for node in nodes if node.turn.play for step in node.turn.play.steps]
    assert any(step.hit for step in steps) and any(step.from_point == BAR for step in steps)
    assert any(step.to_point == OFF for step in steps)
    assert {"double", "take", "drop", "resign", "passed"} <= {node.turn.kind for node in nodes}
    for node in nodes:
        opposite = node.root().rules.opposite
        assert pips_after(node.parent.state.pips(), node.turn, opposite) == node.state.pips()


@pytest.mark.parametrize("game", sample_games("view"), ids=lambda game: game.rules.name)
def test_the_pip_charts_counts_are_the_main_lines_positions(game):
    view = GameView(game)
    assert view.pips == tuple(view.nodes[index].pips() for index in view.mainline)


def test_the_reader_knows_every_key_the_writer_writes():
    games = [game_to_dict(game) for game in sample_games("keys")]
    turns = []
    pending = [turn for game in games for turn in game["turns"]]
    while pending:
        turn = pending.pop()
        turns.append(turn)
        pending += [t for variation in turn["variations"] for t in variation]
    assert all(list(game) == list(GAME_KEYS) for game in games)
    assert set().union(*turns) == set(TURN_KEYS) and "cube" in set().union(*turns)


def refusal(text: str) -> RecordError:
    """The error of the one game ``text`` reads as: its only error, of form (``SYNTAX``),
    named by file and game (JSON keeps no line)."""
    [game] = loads(text, "x.json")
    [error] = game.errors
    assert (error.rule_id, error.file, error.line, error.column, error.game) == ("SYNTAX", "x.json", 0, 0, 1)
    return error


def msg(message_id: str, **params: object) -> dict[str, object]:
    """A message as data (``Message.as_json``): its id and its parameters."""
    return {"id": message_id, "params": params}


def says(error: RecordError, expected: dict[str, object]) -> bool:
    """Whether ``error`` is the message ``expected``: its id, and the parameters given there."""
    found = error.msg.as_json()
    params = found["params"]
    assert isinstance(params, dict)
    return found["id"] == expected["id"] and {name: params.get(name) for name in expected["params"]} == \
        expected["params"]


GAME = msg("json.a-game")
GAME_KNOWN = ", ".join(GAME_KEYS)
HEADERS = msg("json.source.headers")
TURN = msg("json.source.turn")

NONSENSE = {
    "an empty object": ("{}", msg("json.no-turns")),
    "a games wrapper": ('{"games": 5}', msg("json.unknown-key", key="'games'", what=GAME,
                                            known=GAME_KNOWN)),
    "a misspelt key": ('[{"varient": "jacquet"}]', msg("json.unknown-key.close", key="'varient'",
                                                       close="'variant'", what=GAME)),
    "no turns": ('[{"start": "garbage"}]', msg("json.no-turns")),
    "a garbage start": ('[{"start": "garbage", "turns": []}]',
                        msg("json.contradicts", key="'start'", stated='"garbage"',
                            source=msg("json.source.rules", rules="jacquet"), actual='"AACA/z8AAID/Pw"')),
    "an unknown first player": ('[{"first": "X", "turns": []}]', msg("json.colour", key="'first'", value='"X"')),
    "a number for a game": ("[5]", msg("json.game-type", found=msg("json.type.number"))),
    "a document that is no game": ('"game"', msg("json.game-type", found=msg("json.type.string"))),
    "a header that is no string": ('[{"headers": {"Round": 3}, "turns": []}]',
                                   msg("json.header-type", name="'Round'", found=msg("json.type.number"))),
    "an option slipping in another": (('[{"options": {"courier_release": "next-turn bouchon=none"}, '
                                      '"turns": []}]'),
                                      msg("json.option", name="'courier_release'", value='"next-turn bouchon=none"')),
    "an option of true": ('[{"variant": "hale", "options": {"third_table_penalty": true}, "turns": []}]',
                          msg("json.option", name="'third_table_penalty'", value="true")),
    "a misspelt turn key": ('[{"turns": [{"dice": "53", "play": "24/16", "plya": 1}]}]',
                            msg("json.unknown-key.close", key="'plya'", close="'ply'", what=msg("json.a-turn"),
                                known=", ".join(TURN_KEYS))),
    "errors that are no objects": ('[{"turns": [], "errors": ["none"]}]',
                                   msg("json.list-of", key="'errors'", what=msg("json.items.objects"))),
    "steps that are no pairs": ('[{"turns": [{"dice": "53", "play": "24/16", "steps": [[24, true]]}]}]',
                                msg("json.list-of", key="'steps'", what=msg("json.items.steps"))),
    "first against the lead": ('[{"headers": {"Lead": "Black"}, "first": "W", "turns": []}]',
                               msg("json.contradicts", key="'first'", stated='"W"', source=HEADERS, actual='"B"')),
    "first against the lead roll": ('[{"headers": {"LeadRoll": "W5 B3"}, "first": "B", "turns": []}]',
                                    msg("json.contradicts", key="'first'", stated='"B"', source=HEADERS,
                                        actual='"W"')),
    "variant against its header": ('[{"headers": {"Variant": "murray"}, "variant": "hale", "turns": []}]',
                                   msg("json.contradicts", key="'variant'", stated='"hale"', source=HEADERS,
                                       actual='"murray"')),
    "result against its header": ('[{"headers": {"Result": "W+1"}, "result": "B+1", "turns": []}]',
                                  msg("json.contradicts", key="'result'", stated='"B+1"', source=HEADERS,
                                      actual='"W+1"')),
}


@pytest.mark.parametrize("text, message", NONSENSE.values(), ids=NONSENSE)
def test_nonsense_is_an_error_of_its_game(text, message):
    assert says(refusal(text), message), refusal(text).msg


def test_an_unknown_option_names_the_options_there_are():
    [game] = loads('[{"variant": "hale", "options": {"penalty": 2}, "turns": []}]')
    assert says(game.errors[0], msg("rules.no-such-option", name="'hale'",
                                    known="third_table_penalty, courier_release, bouchon"))
    [game] = loads('[{"variant": "backgammon", "options": {"bouchon": "none"}, "turns": []}]')
    assert says(game.errors[0], msg("rules.no-such-option", name="'backgammon'", known="none"))


@pytest.fixture(scope="module")
def backgammon() -> dict:
    """A short backgammon game as written: a roll, the cube turned, a roll."""
    [game] = loads('{"variant": "backgammon", "turns": [{"dice": "31", "play": "8/5 6/5"}, '
                   '{"kind": "double"}, {"kind": "take"}, {"dice": "64", "play": "24/14"}]}')
    return game_to_dict(game)


CONTRADICTIONS = {
    "ply": (0, 7, msg("json.contradicts", key="'ply'", stated="7", source=TURN, actual="1")),
    "position": (1, "4HPwATDgc/ABMA", msg("json.contradicts", key="'position'", stated='"4HPwATDgc/ABMA"',
                                          source=TURN, actual='"4HPwATCwZ/ABMA"')),
    "pips": (0, [1, 2], msg("json.contradicts", key="'pips'", stated="[1, 2]", source=TURN,
                            actual="[163, 167]")),
    "cube": (3, {"value": 64, "owner": "W"},
             msg("json.contradicts", key="'cube'", stated='{"value": 64, "owner": "W"}', source=TURN,
                 actual='{"value": 2, "owner": "W"}')),
    "steps": (3, [[24, 14]], msg("json.steps", steps="[[24, 14]]", played="[[24, 18], [18, 14]]")),
    "start": (None, "sGfwATDgc/ABMA",
              msg("json.contradicts", key="'start'", stated='"sGfwATDgc/ABMA"',
                  source=msg("json.source.rules", rules="backgammon"), actual='"4HPwATDgc/ABMA"')),
}
"""For each field the writer works out: the turn changed (``None``: the game), the value
put there, the message."""


@pytest.mark.parametrize("key", CONTRADICTIONS)
def test_a_field_that_contradicts_the_game_as_read_is_an_error(backgammon, key):
    """What the writer works out (each position, the pip counts...) may be left out when
    writing a game by hand, but never says other than the dice and plays."""
    turn, value, message = CONTRADICTIONS[key]
    data = json.loads(json.dumps(backgammon))
    assert not loads(json.dumps(data))[0].errors
    (data if turn is None else data["turns"][turn])[key] = value
    assert says(refusal(json.dumps(data)), message), refusal(json.dumps(data)).msg


def test_what_follows_from_the_game_may_be_left_out_or_null():
    [game] = loads('{"headers": null, "first": null, "turns": [{"dice": "65", "play": "24/13", '
                   '"position": null, "pips": null, "steps": null, "cube": null, "nags": null}]}')
    assert not game.errors and game.end().turn.play is not None


@pytest.mark.parametrize("steps, error", [([[24, 18], [18, 13]], False), ([[19, 13], [24, 19]], False),
                                          ([[24, 18], [18, 12]], True), ([[24, 13]], True)])
def test_steps_may_go_by_another_point_but_not_elsewhere(steps, error):
    """``24/13`` with 65 goes by 18 or by 19, in either order: any such steps are the
    play; steps that end elsewhere, or are not single steps, are not."""
    text = json.dumps([{"turns": [{"dice": "65", "play": "24/13", "steps": steps}]}])
    if error:
        assert says(refusal(text), msg("json.steps", steps=json.dumps(steps), played="[[24, 18], [18, 13]]"))
    else:
        assert not loads(text)[0].errors


def test_a_key_given_twice_refuses_the_document():
    with pytest.raises(RecordError) as raised:
        loads('[{"turns": [{"dice": "53", "play": "24/16", "play": "13/8"}]}]', "x.json")
    assert raised.value.rule_id == "SYNTAX" and says(raised.value, msg("json.key-twice", key="'play'"))


def test_one_game_of_nonsense_costs_only_itself():
    games = loads('[{"turns": []}, 5, {"turns": [], "variant": "hale"}]')
    assert [bool(game.errors) for game in games] == [False, True, False]
