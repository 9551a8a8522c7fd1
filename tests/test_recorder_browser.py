"""The recorder (``/record``) in a real browser, on a tablet (768×1024) as at a club table:
a game started with today's date, turns played by clicking the board and by typing Black's
play in the numbers the board shows him, a take-back that keeps the server's dice, a
resignation confirmed, the saved page reloaded, a past turn corrected, a game started from
a position ID; the board keeps its size between clicks. Screenshots of the recorder's pages
at 1280×900, 768×1024 and 390×844 are saved under ``tests/artifacts/``.

Chromium and playwright as in :mod:`tests.test_viewer_browser` (skipped where missing,
except in CI)."""

import datetime
import random
import re
import types

import pytest

from notation.engine.board import Position
from tests.browser_helpers import (
    ARTIFACTS,
    TABLET,
    playwright_or_skip,
    press,
    served_viewer,
    sign_in_as_scorer,
)
from tests.viewer_helpers import shown

playwright_or_skip()

SIZES = {"wide": {"width": 1280, "height": 900}, "tablet": TABLET, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The viewer over an empty archive with the account of the scorer who records
    (``browser``, ``page``, a tablet's: tests/conftest.py)."""
    with served_viewer(tmp_path_factory.mktemp("recorder"), scorer=True) as base:
        yield base


def open_start_form(page, base: str) -> None:
    """The start form, signed in as the scorer (a scorer's page: signing in leads back)."""
    page.goto(f"{base}/record/")
    sign_in_as_scorer(page)


def start_game(page, base: str, **fields: str) -> None:
    open_start_form(page, base)
    page.select_option('select[name="variant"]', fields.pop("variant", "jacquet"))
    for name, value in fields.items():
        if name == "starter":
            page.check(f'input[name="starter"][value="{value}"]')
        else:
            page.fill(f'input[name="{name}"]', value)
    page.click(f"text={shown('Start the game')}")
    page.wait_for_selector(".recorder")


def status(page) -> str:
    return page.inner_text(".panel .status")


def board_width(page) -> float:
    return page.locator(".recorder-board svg").bounding_box()["width"]


def label(page, white_point: int) -> str:
    """The number drawn on White's point ``white_point``."""
    return page.text_content(f'g.column[data-point="{white_point}"] > text')


class ServerDice(random.Random):
    """The server's dice drawn from a seeded generator, so the roll is the same every run:
    one seed in 36 would roll 2-2 after ``24/14 24/16`` and leave White no legal play."""

    def __init__(self) -> None:
        super().__init__(7)


def test_the_recorders_flows_on_a_tablet(base, page, monkeypatch):
    monkeypatch.setattr("notation.recording.random", types.SimpleNamespace(SystemRandom=ServerDice))
    open_start_form(page, base)
    assert page.input_value('input[name="date"]') == datetime.date.today().strftime("%Y.%m.%d")
    start_game(page, base, white="Marie", black="Jean", starter="White")
    widths = [board_width(page)]
    assert label(page, 24) == "24" and label(page, 12) == "12"  # White's numbers
    page.fill("#dice-input", "64")
    press(page, 'button[value="dice"]')
    widths.append(board_width(page))
    assert "White plays 64" in status(page)
    page.click('g.column[data-point="24"]')  # the man, then the point he goes to
    assert page.locator('polygon.point[data-point="18"].target').count() == 1
    press(page, 'g.column[data-point="18"]')
    widths.append(board_width(page))
    page.click('g.column[data-point="18"]')
    press(page, 'g.column[data-point="14"]')
    widths.append(board_width(page))
    assert "Black to roll" in status(page)
    assert label(page, 12) == "24" and label(page, 13) == "1"  # Black's numbers
    page.fill("#dice-input", "53")
    press(page, 'button[value="dice"]')
    assert page.inner_text(".dice-shown").split() == ["5", "3"]
    page.fill("#play-input", "24/19")  # a play the rules refuse: the input kept, the reason beside it
    press(page, 'button[value="play"]')
    assert page.input_value("#play-input") == "24/19"
    assert "Refused" in page.inner_text("#note-play")
    page.fill("#play-input", "24/16")  # typed in the numbers the board shows Black
    press(page, 'button[value="play"]')
    widths.append(board_width(page))
    assert "White to roll" in status(page)
    assert "1. 64: 24/14 53: 24/16" in page.inner_text("pre.record")

    press(page, 'button[value="roll"]')  # the server's dice
    rolled = re.search(r"White plays (\d\d)", status(page)).group(1)
    while "White plays" in status(page):
        press(page, ".steps-offered button >> nth=0")
        widths.append(board_width(page))
    press(page, 'button[value="undo"]')  # the play returned, the roll kept
    assert f"White plays {rolled}" in status(page)
    assert page.locator('button[value="clear-dice"]').count() == 0
    while "White plays" in status(page):
        press(page, ".steps-offered button >> nth=0")

    press(page, 'button[value="resign"]')
    assert page.locator(".confirm").is_visible()
    assert "Black resigns" in page.inner_text(".confirm")
    assert "Game over" not in status(page)
    press(page, ".confirm button")
    assert "Game over: White wins" in status(page)
    widths.append(board_width(page))
    assert len(set(widths)) == 1, widths  # the board keeps its size click after click
    assert widths[0] >= 700  # and fills the tablet's width
    press(page, 'button[value="save"]')
    saved = page.url
    assert "/record/saved/" in saved
    page.reload()
    assert "White won" in page.inner_text(".status") and page.url == saved


def test_a_past_turn_corrected_and_a_start_from_a_position(base, page):
    start_game(page, base, starter="White")
    for dice, play in (("64", "24/14"), ("53", "24/16"), ("21", "14/13/11")):
        page.fill("#dice-input", dice)
        press(page, 'button[value="dice"]')
        page.fill("#play-input", play)
        press(page, 'button[value="play"]')
    page.select_option('select[name="ply"]', "1")
    press(page, 'button[value="correct"]')
    assert "Take the game back to after 1. 64: 24/14?" in page.inner_text(".confirm")
    press(page, ".confirm button")
    assert "Black plays 53" in status(page)
    assert "21" not in page.inner_text("pre.record").split("\n\n")[1]

    position = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    start_game(page, base, variant="backgammon", starter="Black", position=position.position_id())
    assert "Black to roll" in status(page)
    assert f'[Position "{position.position_id()}"]' in page.inner_text("pre.record")
    page.goto(f"{base}/record/")
    assert page.locator(".recordings li").count() == 2  # both games in progress, listed


@pytest.mark.parametrize("size", SIZES)
def test_screenshots_of_the_recorder(base, browser, size):
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    start_game(page, base, white="Marie", black="Jean", variant="backgammon", starter="White",
               match="Club final", match_length="3")
    page.screenshot(path=ARTIFACTS / f"recorder-roll-{size}.png", full_page=True)
    page.fill("#dice-input", "31")
    press(page, 'button[value="dice"]')
    page.click('g.column[data-point="8"]')
    page.screenshot(path=ARTIFACTS / f"recorder-steps-{size}.png", full_page=True)
    overflows = [page.evaluate("document.documentElement.scrollWidth - window.innerWidth")]
    page.fill("#play-input", "8/2")
    press(page, 'button[value="play"]')
    page.screenshot(path=ARTIFACTS / f"recorder-refused-{size}.png", full_page=True)
    page.fill("#play-input", "8/5 6/5")
    press(page, 'button[value="play"]')
    press(page, 'button[value="resign"]')
    page.screenshot(path=ARTIFACTS / f"recorder-confirm-{size}.png", full_page=True)
    press(page, ".confirm button")
    press(page, 'button[value="save"]')
    page.screenshot(path=ARTIFACTS / f"recorder-saved-{size}.png", full_page=True)
    assert page.locator(f"text={shown('Start the next game of the match (game %(game)s)', game=2)}").is_visible()
    start_game(page, base, white="Ann", black="Bob", starter="Black")
    page.goto(f"{base}/record/")
    page.screenshot(path=ARTIFACTS / f"recorder-start-{size}.png", full_page=True)
    overflows.append(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
    context.close()
    assert max(overflows) <= 0  # no scrolling sideways
