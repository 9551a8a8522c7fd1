"""The analysed game page in Chromium in French and Russian (issue 36): stepping with the
keys, viewer.js draws each ply's candidates as the server draws them, numbers included
(``+0,075``, ``54 %``: the decimal sign and percent format the page's words give it)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.browser_helpers import analysed_game, playwright_or_skip, serving
from webviewer import create_app

playwright_or_skip()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One generated jacquet game, analysed, on a werkzeug server thread."""
    path, game_id = analysed_game(tmp_path_factory.mktemp("numbers-browser"))
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


def drawn(page) -> str:
    return re.sub(r">\s+<", "><", page.inner_html(".analysis-slot"))


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_script_draws_the_candidates_numbers_as_the_server_does(browser, server, language):
    base, game_id = server
    page = browser.new_page(extra_http_headers={"Accept-Language": language})
    try:
        served = {}
        for ply in (8, 9, 10):
            page.goto(f"{base}/game/{game_id}?ply={ply}")
            served[ply] = drawn(page)
        assert re.search(r"<td>[+-]\d,\d{3}</td>", served[9]) and "\u00a0%</td>" in unescape(served[9])
        page.goto(f"{base}/game/{game_id}?ply=8")
        for ply in (9, 10):
            page.keyboard.press("ArrowRight")
            page.wait_for_url(f"**/game/{game_id}?ply={ply}")
            assert page.get_attribute(".candidates", "data-ply") == str(ply)
            assert drawn(page) == served[ply]
    finally:
        page.close()
