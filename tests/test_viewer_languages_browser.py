"""Issue 36's Proof in a real browser (Debian's Chromium, playwright), in French and in
Russian: the archive, a game page with its analysis, /validate with an illegal play (the
error in place, in that language, with its rule id and the legal plays), the recorder as
a scorer, /play/, the sign-in page and an error page; and the pages the last walk added:
the player's page, his practice, the analysis board with a roll, the printable game, the
board editor, a bad position ID's error, the admin's accounts and audit log. Each page, as the browser shows it
after its scripts ran, has the right ``lang`` and none of the English texts (the viewer's
catalog and the engine's) that the same page shows to an English browser."""

from __future__ import annotations

import html
import re

import pytest

from notation import NotationError, Position
from notation.messages import render
from tests.accounts_helpers import PASSWORD, add_account
from tests.browser_helpers import (
    ARGS,
    CHROMIUM,
    TABLET,
    analysed_game,
    playwright_or_skip,
    press,
    serving,
    sign_in_as_scorer,
)
from tests.test_viewer_languages_pages import ILLEGAL, engine_probes, english_texts, same_in
from tests.viewer_helpers import shown as catalog_text
from webviewer import create_app

sync_api = playwright_or_skip()
LOCALES = {"en": "en-GB", "fr": "fr-FR", "ru": "ru-RU"}
PLAYER = "Random White"
"""A player of the analysed game (tests/browser_helpers.py's ``analysed_game``)."""
LEGAL = {"en": "Legal plays for this roll", "fr": "Coups légaux pour ce coup de dés",
         "ru": "Допустимые ходы при этом броске"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One generated jacquet game, analysed, and the scorer's account, on a server thread:
    the base URL and the game's id."""
    folder = tmp_path_factory.mktemp("languages-browser")
    path, game_id = analysed_game(folder)
    add_account(path)
    add_account(path, "Boss", role="admin")
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


def walk(served, language: str) -> dict[str, tuple[str | None, str]]:
    """Each page of the Proof as a browser asking for ``language`` shows it: its ``lang``
    and its text (``innerText``: what a reader sees, scripts run)."""
    base, game_id = served
    shown = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(locale=LOCALES[language], viewport=TABLET).new_page()

            def keep(name: str) -> None:
                shown[name] = (page.get_attribute("html", "lang"), page.inner_text("body"))

            for name, address in (("archive", "/"), ("game", f"/game/{game_id}?ply=8"),
                                  ("login", "/login"), ("error", "/game/99999"), ("play", "/play/"),
                                  ("player", f"/player/{PLAYER}"), ("practice", f"/practice/{PLAYER}"),
                                  ("print", f"/game/{game_id}/print"), ("editor", "/board-editor"),
                                  ("bad position", "/position/zzzz")):
                page.goto(base + address)
                keep(name)
            page.goto(f"{base}/game/{game_id}?ply=8")
            page.goto(base + page.get_attribute("a[href*='/position/']", "href") + "&dice=61")
            keep("analysis board")
            page.goto(f"{base}/validate")
            page.fill("textarea[name=record]", ILLEGAL)
            press(page, "main button[type=submit]")
            keep("validate")
            page.goto(f"{base}/record/")
            sign_in_as_scorer(page)
            page.fill("input[name=white]", "Ann")
            page.fill("input[name=black]", "Bob")
            page.check('input[name=starter][value="White"]')
            press(page, "main button[type=submit]")
            keep("recorder")
            admin = browser.new_context(locale=LOCALES[language], viewport=TABLET).new_page()
            admin.goto(f"{base}/login")
            admin.fill("input[name=name]", "Boss")
            admin.fill("input[name=password]", PASSWORD)
            press(admin, "main button[type=submit]")
            for name, address in (("accounts", "/admin/users"), ("audit log", "/admin/audit")):
                admin.goto(base + address)
                shown[name] = (admin.get_attribute("html", "lang"), admin.inner_text("body"))
        finally:
            browser.close()
    return shown


@pytest.fixture(scope="module")
def english(served):
    return walk(served, "en")


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_every_page_of_the_proof_is_in_the_language_in_the_browser(served, english, language):
    shown = walk(served, language)
    viewer_texts = english_texts(language)
    probes = engine_probes()
    assert set(shown) == set(english)
    for name, (lang, text) in shown.items():
        assert lang == language, name
        english_text = english[name][1]
        assert english_text != text, name
        left = [english_words for english_words, translated in viewer_texts.items()
                if english_words not in translated
                and re.search(rf"(?<!\w){re.escape(english_words)}(?!\w)", english_text)
                and re.search(rf"(?<!\w){re.escape(english_words)}(?!\w)", text)]
        left += [message for message, probe in probes.items()
                 if probe in html.unescape(english_text) and probe in text
                 and not same_in(language, message)]
        assert not left, f"{name} in {language}: English left: {left}"
    validate = shown["validate"][1]
    assert re.search(r"\[R-[A-Z-]+\]", validate) and LEGAL[language] in validate and "24/18" in validate
    assert LEGAL["en"] in english["validate"][1]
    assert "Sign in" not in shown["login"][1]
    with pytest.raises(NotationError) as refusal:
        Position.from_id("zzzz")
    assert render(refusal.value.msg, language) in shown["bad position"][1]
    assert catalog_text("scorer", language) in shown["accounts"][1].split()
