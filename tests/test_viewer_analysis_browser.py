"""The analysed game page in Chromium (playwright, as tests/test_viewer_browser.py): stepping
with the keys draws each ply's candidates as the server draws them, marks the ply in the
evaluation graph, and fetches nothing."""

from __future__ import annotations

import re

import pytest

from tests.browser_helpers import ARTIFACTS, analysed_game, playwright_or_skip, serving
from tests.viewer_helpers import shown_pattern
from webviewer import create_app
from webviewer.pages.chart import MARK

playwright_or_skip()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One generated jacquet game, analysed, on a werkzeug server thread."""
    folder = tmp_path_factory.mktemp("analysed-browser")
    path, game_id = analysed_game(folder)
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


@pytest.fixture(scope="module")
def page(browser):
    """One page of ``browser`` (tests/conftest.py) for the module, a tablet upright."""
    return browser.new_page(viewport={"width": 820, "height": 1180})


def drawn(page) -> str:
    """The candidates element as the page holds it, the whitespace between tags left out."""
    return re.sub(r">\s+<", "><", page.inner_html(".analysis-slot"))


def test_stepping_draws_each_plys_candidates_as_the_server_does(server, page):
    base, game_id = server
    served = {}
    for ply in (8, 9, 10):
        page.goto(f"{base}/game/{game_id}?ply={ply}")
        served[ply] = drawn(page)
    page.goto(f"{base}/game/{game_id}?ply=8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for ply in (9, 10):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**/game/{game_id}?ply={ply}")
        assert page.get_attribute(".candidates", "data-ply") == str(ply)
        assert drawn(page) == served[ply]
        bands = page.eval_on_selector_all(".evaluation rect.band", "bands => bands.map(b => b.getAttribute('fill'))")
        assert [i for i, fill in enumerate(bands) if fill == MARK] == [ply]
    page.keyboard.press("Home")
    page.wait_for_url(f"**/game/{game_id}?ply=0")
    assert page.locator(".candidates").count() == 0  # the start is no judged turn
    assert [url for url in requests if "/game/" in url] == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{base}/game/{game_id}?ply=9")
    page.screenshot(path=str(ARTIFACTS / "game-page-analysed.png"), full_page=True)


def test_show_the_best_play_draws_it_with_the_script_on(server, page):
    """"Show the best play" is followed (the page's data holds only the plays made): the
    board shows the best play's position and the candidates say so; the key then steps
    from that turn."""
    base, game_id = server
    ply = next(p for p in range(1, 40) if page.goto(f"{base}/game/{game_id}?ply={p}")
               and page.locator(".candidates a.best").count())
    played_board = page.inner_html("figure.board svg")
    best = page.get_attribute(".candidates a.best", "href")
    with page.expect_navigation():
        page.click(".candidates a.best")
    assert page.url.endswith(best) and "best=1" in page.url
    assert shown_pattern("The board shows the best play, %(play)s:", play=".+").search(page.inner_text(".candidates"))
    assert page.inner_html("figure.board svg") != played_board
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/game/{game_id}?ply={ply + 1}")
