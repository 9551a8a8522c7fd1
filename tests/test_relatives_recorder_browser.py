"""The living relatives recorded in a real browser (issue 32): the ``narde`` and the
``fevga`` sample games (``samples/*/annotated-game.jqn``) entered turn by turn in
``/record/`` by a scorer on a tablet (the first turns by clicking the board: a man's
point, then the point it goes to; the rest typed, in the numbers the board shows the
player on roll), ended by the last man borne off, saved, then shown on the game's page,
whose board at several plies draws the men where the sample has them, narde's heads framed
and fevga's runners ringed while their rules bind (marked ``long``: some minutes each).
Without ``long``: the first turns of each, the recorder's board, and a play the rules refuse
shown with the rule's id and the legal plays.

Chromium and playwright as in :mod:`tests.test_viewer_browser` (skipped where missing,
except in CI)."""

import re

import pytest

from notation.engine.state import Colour
from notation.formats import read_file
from tests.browser_helpers import playwright_or_skip, press, served_viewer, sign_in_as_scorer
from tests.relatives_browser import drawn_men, expected_men, sample
from tests.test_board_head import head_title
from tests.viewer_helpers import shown

playwright_or_skip()

CLICKED_TURNS = 4
"""How many of the first turns are entered by clicking the board (the rest are typed)."""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The viewer over an empty archive with a scorer's account (``page``, a tablet's:
    tests/conftest.py)."""
    with served_viewer(tmp_path_factory.mktemp("relatives"), scorer=True) as base:
        yield base


def status(page) -> str:
    return page.inner_text(".panel .status")


def start(page, base: str, variant: str, lead_roll: str) -> None:
    """Sign in as the scorer, choose the rule set in the start form, start the game."""
    page.goto(f"{base}/record/")
    sign_in_as_scorer(page)
    page.select_option('select[name="variant"]', variant)
    page.fill('input[name="white"]', "Random White")
    page.fill('input[name="black"]', "Random Black")
    page.fill('input[name="lead_roll"]', lead_roll)
    page.click(f"text={shown('Start the game')}")
    page.wait_for_selector(".recorder")


def click_step(page, from_white: str, to_white: str) -> None:
    """A step entered on the board: the man's point, then the point he goes to (White's
    numbers, as the board's shapes are named)."""
    page.click(f'.recorder-board g[data-point="{from_white}"]')
    with page.expect_navigation():
        page.click(f'.recorder-board g[data-point="{to_white}"]')


def white_number(point: int, white: bool, opposite: tuple[int, ...]) -> str:
    """The board's name of the mover's ``point``: White's number, ``off`` for 0."""
    if point == 0:
        return "off"
    return str(point if white else opposite[point])


def enter_the_sample(page, game, done: int = 0, until: int | None = None) -> None:
    """The turns of ``game``'s main line after the first ``done`` up to ``until`` (the end
    by default): the dice typed, then the play clicked on the board (the first turns) or
    typed; the status follows."""
    opposite = game.rules.opposite
    for ply, node in enumerate(list(game.mainline())[done:until], start=done + 1):
        turn = node.turn
        player = turn.player.title
        assert f"{player} to roll" in status(page), (ply, status(page))
        page.fill("#dice-input", str(turn.dice))
        press(page, 'button[value="dice"]')
        assert f"{player} plays {turn.dice}" in status(page), (ply, status(page))
        if ply <= CLICKED_TURNS:
            white = player == "White"
            for step in turn.play.steps:
                click_step(page, white_number(step.from_point, white, opposite),
                           white_number(step.to_point, white, opposite))
        else:
            page.fill("#play-input", str(turn.play))
            press(page, 'button[value="play"]')
        refused = page.locator("p.note")
        assert refused.count() == 0, (ply, str(turn.play), refused.all_inner_texts())


def refused_with(page, dice: str, play: str, rule_id: str) -> str:
    """Enter ``dice`` and the illegal ``play``; the refusal shown beside the play's field,
    which names ``rule_id``; the dice entered are then taken back."""
    page.fill("#dice-input", dice)
    press(page, 'button[value="dice"]')
    page.fill("#play-input", play)
    press(page, 'button[value="play"]')
    note = page.inner_text("#note-play")
    assert note.startswith(f"Refused: [{rule_id}]"), note
    assert page.input_value("#play-input") == play  # kept, to be corrected
    press(page, 'button[value="clear-dice"]')
    return note


def saved_game_id(page) -> int:
    """Save the finished game; the archive's number of it, from the saved page."""
    press(page, 'button[value="save"]')
    assert "/record/saved/" in page.url
    link = page.get_attribute(f'a:has-text("{shown("The game in the archive")}")', "href")
    return int(re.search(r"/game/(\d+)", link).group(1))


def check_the_game_page(page, base: str, game_id: int, game, plies: list[int]) -> None:
    """The game's page at each of ``plies`` draws the men where the sample's main line has
    them, with its marks as the sample's position asks."""
    nodes = [game, *game.mainline()]
    for ply in plies:
        page.goto(f"{base}/game/{game_id}?ply={ply}")
        assert f"Ply {ply} of {len(nodes) - 1}" in page.inner_text("figure.board figcaption")
        state = nodes[ply].state
        white_to_move = state.player.value == "W"
        assert drawn_men(page, "figure.board") == expected_men(state.position, white_to_move,
                                                               game.rules.opposite), ply


def heads_framed(page, board: str = "figure.board") -> list[str]:
    """Whose heads the board frames (the sides named in the frames' titles)."""
    return sorted(title.split("'")[0] for title in
                  page.locator(f"{board} svg rect.head title").all_text_contents())


def rings(page, kind: str, board: str = "figure.board") -> list[str]:
    """Whose men the board rings as ``kind`` (``runner``, ``courier``)."""
    return sorted(title.split("'")[0] for title in
                  page.locator(f"{board} svg circle.{kind} title").all_text_contents())


def the_recorders_board_is_the_samples(page, game, turns: int) -> None:
    """After ``turns`` turns entered, the recorder's board draws the sample's position."""
    state = list(game.mainline())[turns - 1].state
    assert drawn_men(page, ".recorder-board") == expected_men(
        state.position, state.player.value == "W", game.rules.opposite)


def test_the_first_turns_of_the_narde_sample_on_the_board(base, page):
    game = sample("narde")
    start(page, base, "narde", game.headers["LeadRoll"])
    assert heads_framed(page, ".recorder-board") == ["Black", "White"]  # fifteen men on each
    # a second man off the head in one turn: R-HEAD, with the legal plays
    note = refused_with(page, "53", "24/19 24/21", "R-HEAD")
    assert "Legal plays: 24/16." in note
    enter_the_sample(page, game, until=CLICKED_TURNS)  # Black's 44 is two men off his head, clicked
    the_recorders_board_is_the_samples(page, game, CLICKED_TURNS)
    assert heads_framed(page, ".recorder-board") == ["Black", "White"]  # 14 and 13 men


def test_the_first_turns_of_the_fevga_sample_on_the_board(base, page):
    game = sample("fevga")
    start(page, base, "fevga", game.headers["LeadRoll"])
    assert rings(page, "runner", ".recorder-board") == []  # no runner has left the head yet
    # a second man off the head before the runner has passed: R-RUNNER, with the legal plays
    note = refused_with(page, "31", "24/21 24/23", "R-RUNNER")
    assert "Legal plays: 24/20." in note
    enter_the_sample(page, game, until=2)
    assert rings(page, "runner", ".recorder-board") == ["Black", "White"]
    enter_the_sample(page, game, done=2, until=CLICKED_TURNS)  # Black's runner passes at his 10
    the_recorders_board_is_the_samples(page, game, CLICKED_TURNS)
    assert rings(page, "runner", ".recorder-board") == ["White"]


def the_saved_record_is_the_samples(base: str, game_id: int, game, tmp_path, page) -> None:
    """The saved game, downloaded as the text notation, has the sample's main line and result."""
    with page.expect_download() as download:
        page.goto(f"{base}/game/{game_id}")
        page.click('a[href$=".jqn"]')
    path = tmp_path / "saved.jqn"
    download.value.save_as(path)
    [saved] = list(read_file(path))
    assert not saved.errors
    assert [(str(n.turn.dice), str(n.turn.play)) for n in saved.mainline()] == \
           [(str(n.turn.dice), str(n.turn.play)) for n in game.mainline()]
    assert saved.headers["Variant"] == game.headers["Variant"]
    assert saved.result == game.headers["Result"]


@pytest.mark.long
def test_the_narde_sample_recorded_saved_and_shown(base, page, tmp_path):
    game = sample("narde")
    start(page, base, "narde", game.headers["LeadRoll"])
    enter_the_sample(page, game)
    assert status(page).startswith("Game over: White wins 2"), status(page)
    game_id = saved_game_id(page)
    assert "White won 2" in page.inner_text(".status")
    check_the_game_page(page, base, game_id, game, [0, 2, 5, 40, 84, 85])
    page.goto(f"{base}/game/{game_id}?ply=2")
    assert heads_framed(page) == ["Black", "White"]
    black, white = sorted(page.locator("figure.board svg rect.head title").all_text_contents())
    assert (white, black) == (head_title(Colour.WHITE, 14), head_title(Colour.BLACK, 13))
    page.goto(f"{base}/game/{game_id}?ply=85")  # White has borne off all; Black's head emptied long before
    assert heads_framed(page) == []
    the_saved_record_is_the_samples(base, game_id, game, tmp_path, page)


@pytest.mark.long
def test_the_fevga_sample_recorded_saved_and_shown(base, page, tmp_path):
    game = sample("fevga")
    start(page, base, "fevga", game.headers["LeadRoll"])
    enter_the_sample(page, game)
    assert status(page).startswith("Game over: White wins 2"), status(page)
    game_id = saved_game_id(page)
    check_the_game_page(page, base, game_id, game, [0, 2, 4, 5, 40, len(list(game.mainline()))])
    page.goto(f"{base}/game/{game_id}?ply=2")  # each runner out, neither past the other's head
    assert rings(page, "runner") == ["Black", "White"]
    page.goto(f"{base}/game/{game_id}?ply=4")  # Black's runner has passed White's head (his 10)
    assert rings(page, "runner") == ["White"]
    page.goto(f"{base}/game/{game_id}?ply=5")  # and White's Black's (his 9)
    assert rings(page, "runner") == [] and heads_framed(page) == []
    the_saved_record_is_the_samples(base, game_id, game, tmp_path, page)
