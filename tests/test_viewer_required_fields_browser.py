"""A required field left empty, in Debian's Chromium: the message the browser shows under
it is the page's, in the page's language (the board editor's and the position page's
Roll, the recorder's dice: their own words; any other required field, the page's "Fill
in this field."), not Chromium's own "Please fill out this field." in the browser's
language; the form is not sent, and once the field is filled (typed, or by the editor's
dice picker) it is. The browser here speaks English (en-US) and the pages French or
Russian by the visitor's choice (the language switcher's cookie), as for a visitor whose
browser is not in his language."""

from __future__ import annotations

import pytest

from tests.browser_helpers import playwright_or_skip, press, served_viewer, sign_in_as_scorer
from tests.viewer_helpers import shown

playwright_or_skip()

ROLL = "Type the roll: two dice, as 61."
LANGUAGES = ["en", "fr", "ru"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The viewer over an empty archive with the scorer's account."""
    with served_viewer(tmp_path_factory.mktemp("required"), scorer=True) as base:
        yield base


def new_page(browser, base: str, language: str, width: int = 390, height: int = 844):
    """A page of a browser speaking English, its visitor having chosen ``language`` for the
    pages (the switcher's cookie)."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.add_cookies([{"name": "language", "value": language, "url": base}])
    return context.new_page()


def refused(page, field: str, submit: str) -> str:
    """Send the form of ``field`` empty by ``submit``: the message the browser gives the
    field (the page must stay where it is)."""
    address = page.url
    page.fill(field, "")
    page.click(submit)
    assert page.url == address, "a form with an empty required field was sent"
    return page.eval_on_selector(field, "f => f.validationMessage")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_editors_roll_says_its_own_message_in_the_pages_language(base, browser, language):
    page = new_page(browser, base, language)
    page.goto(f"{base}/board-editor?variant=jacquet")
    field, submit = "#editor-rank input[name=dice]", "#editor-rank button[type=submit]"
    assert refused(page, field, submit) == shown(ROLL, language)
    assert refused(page, field, submit) == shown(ROLL, language), "the same on a second try"
    page.click('button[data-die="6"]')  # the dice picker fills the field: the form goes
    page.click('button[data-die="1"]')
    with page.expect_navigation():
        page.click(submit)
    assert "/position/" in page.url and "dice=61" in page.url
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_position_pages_roll_says_its_own_message_and_typing_clears_it(base, browser, language):
    page = new_page(browser, base, language, 1280, 800)
    page.goto(f"{base}/position/4HPwATDgc/ABMA?variant=jacquet&player=W")
    field, submit = "form.analysis-board input[name=dice]", "form.analysis-board button[type=submit]"
    assert refused(page, field, submit) == shown(ROLL, language)
    page.type(field, "31")
    assert page.eval_on_selector(field, "f => f.validationMessage") == ""
    with page.expect_navigation():
        page.click(submit)
    assert "dice=31" in page.url
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_recorders_fields_and_the_sign_in_speak_the_pages_language(base, browser, language):
    page = new_page(browser, base, language, 820, 1180)
    page.goto(f"{base}/login")
    assert refused(page, "input[name=name]", "main button[type=submit]") == shown("Fill in this field.", language)
    page.goto(f"{base}/record/")
    sign_in_as_scorer(page)
    press(page, f"text={shown('Start the game', language)}")
    page.wait_for_selector("#dice-input")
    assert refused(page, "#dice-input", "#dice-input ~ button[type=submit]") == shown(ROLL, language)
    page.context.close()
