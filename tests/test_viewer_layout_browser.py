"""What players expect of the analysed game page in Chromium (playwright): on a wide screen
the move list stays beside the board, lichess's way, the engine's candidates under the
board; the board and its steps fit the window. Screenshots under ``tests/artifacts/``."""

from __future__ import annotations

import pytest

from tests.browser_helpers import ARTIFACTS, analysed_game, playwright_or_skip, serving
from webviewer import create_app

playwright_or_skip()

SIZES = ((1280, 800), (820, 1180), (390, 844))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One generated jacquet game, analysed, on a werkzeug server thread."""
    folder = tmp_path_factory.mktemp("analysed-layout")
    path, game_id = analysed_game(folder)
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


def box(page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_the_move_list_stays_beside_the_board_on_a_wide_screen(server, browser):
    base, game_id = server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/game/{game_id}?ply=9")
    board, moves, candidates = box(page, ".game-board .board"), box(page, ".movelist"), box(page, ".candidates")
    assert moves["x"] >= board["x"] + board["width"]  # beside it, not under the candidates
    assert moves["y"] < board["y"] + board["height"]
    assert candidates["y"] >= board["y"] + board["height"]  # the candidates under the board
    assert candidates["x"] < moves["x"]
    # scrolled to the board, the board and its step buttons are in the window
    page.evaluate("document.querySelector('.game-board').scrollIntoView()")
    steps = box(page, ".steps a[rel=last]")
    assert steps["y"] + steps["height"] <= 800
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "game-layout-1280.png"))
    page.close()


@pytest.mark.parametrize("width,height", SIZES[1:])
def test_a_narrow_screen_stacks_board_candidates_and_move_list(server, browser, width, height):
    base, game_id = server
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{base}/game/{game_id}?ply=9")
    board, moves, candidates = box(page, ".game-board .board"), box(page, ".movelist"), box(page, ".candidates")
    assert board["y"] + board["height"] <= candidates["y"] < moves["y"]
    page.screenshot(path=str(ARTIFACTS / f"game-layout-{width}.png"), full_page=True)
    page.close()
