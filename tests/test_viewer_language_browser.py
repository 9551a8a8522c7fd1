"""The viewer's languages in a real browser (Debian's Chromium, playwright, as
:mod:`tests.test_viewer_browser`): a Russian browser gets the game page in Russian, and
the words viewer.js writes as it steps are Russian too; the switcher turns the same page
French and keeps it so on the next page; no English text from the catalog is left on it."""

from __future__ import annotations

import io

import pytest

import archive
from notation.formats.jqn import GameBuilder, read_games
from tests.browser_helpers import ARGS, CHROMIUM, playwright_or_skip, serving
from webviewer import create_app

sync_api = playwright_or_skip()
RECORD = ('[Event "Browser test"]\n[White "Marie"]\n[Black "Jean"]\n\n'
          '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    path = tmp_path_factory.mktemp("languages") / "browser.db"
    db = archive.open_archive(path)
    archive.import_games(db, [next(read_games(io.BytesIO(RECORD.encode("utf-8")), GameBuilder))])
    db.close()
    with serving(create_app({"ARCHIVE": str(path)})) as url:
        yield url


def test_a_russian_browser_steps_in_russian_and_switches_to_french(base):
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(locale="ru-RU", viewport={"width": 1200, "height": 1000}).new_page()
        page.goto(f"{base}/game/1?ply=0")
        assert page.get_attribute("html", "lang") == "ru"
        assert "Полуход 0 из 4" in page.inner_text("figure.board figcaption")
        page.keyboard.press("ArrowRight")  # viewer.js redraws: its words are the page's
        page.wait_for_url("**/game/1?ply=1")
        caption = page.inner_text("figure.board figcaption")
        assert "Полуход 1 из 4" in caption and "Пункты: белые" in caption and "Pips" not in caption
        assert page.inner_text("button.autoplay") == "Автопросмотр"
        with page.expect_navigation():
            page.click('form.languages button[value="fr"]')
        assert page.url.endswith("/game/1?ply=1")  # the page it was on
        assert page.get_attribute("html", "lang") == "fr"
        assert "Demi-coup 1 sur 4" in page.inner_text("figure.board figcaption")
        page.goto(f"{base}/validate")  # the choice is kept (the cookie) over the browser's
        assert page.get_attribute("html", "lang") == "fr"
        assert page.inner_text("h1") == "Vérifier un relevé"
        browser.close()
