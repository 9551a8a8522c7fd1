"""The longer words of French and Russian in Chromium (issues 36 and 37): the archive's
table whole at a tablet's 820 px, its Event column too, in every language; a match's
cards on a phone (390 px) with each label's words whole, never cut mid-word ("Результат",
"программы")."""

from __future__ import annotations

from glob import glob
from urllib.parse import quote

import pytest

import archive
from notation.messages import LANGUAGES
from tests.browser_helpers import playwright_or_skip, serving
from webviewer import create_app

playwright_or_skip()

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
MATCH = "Sample jacquet match"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The annotated samples (long event names) and a match of five games."""
    path = tmp_path_factory.mktemp("layout") / "club.db"
    with archive.open_archive(path) as db:
        archive.import_files(db, [*sorted(glob("samples/*/annotated-game.jqn")), "samples/matches/jacquet-match.jqn"])
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base


def page_of(browser, viewport, language):
    return browser.new_context(viewport=viewport, extra_http_headers={"Accept-Language": language}).new_page()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_archive_is_whole_at_820_px_in_every_language(server, browser, language):
    page = page_of(browser, TABLET, language)
    page.goto(server + "/")
    assert page.get_attribute("html", "lang") == language
    shown, room = page.eval_on_selector("table.games", """t => {
        const box = t.closest('.table-box'); return [box.scrollWidth, box.clientWidth]; }""")
    assert shown <= room, f"{shown - room} px of the table hidden to the right"
    cells = page.eval_on_selector_all("table.games td.event", """cells => cells.map(c =>
        [c.textContent, c.getBoundingClientRect().right, c.scrollWidth - c.clientWidth])""")
    assert len(cells) >= 10 and all(text for text, _, _ in cells)
    assert all(right <= TABLET["width"] and hidden <= 0 for _, right, hidden in cells), cells
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_match_cards_labels_keep_their_words_whole_on_a_phone(server, browser, language):
    """Each card's label column is as wide as the longest word of its labels."""
    page = page_of(browser, PHONE, language)
    page.goto(server + "/match/" + quote(MATCH))
    assert page.get_attribute("html", "lang") == language
    cards = page.eval_on_selector_all("table.match-games tbody tr", """rows => rows.map(row => {
        const column = parseFloat(getComputedStyle(row).gridTemplateColumns.split(' ')[0]);
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.style.position = 'absolute';
        const style = getComputedStyle(row.querySelector('td'), '::before');
        probe.style.font = style.font;
        document.body.appendChild(probe);
        let widest = 0, word = '';
        for (const cell of row.querySelectorAll('td')) {
            for (const piece of (cell.dataset.label || '').split(/\\s+/)) {
                probe.textContent = piece;
                if (probe.getBoundingClientRect().width > widest) {
                    widest = probe.getBoundingClientRect().width; word = piece; }
            }
        }
        probe.remove();
        return [word, widest, column]; })""")
    assert len(cards) == 5
    assert all(widest <= column + 0.5 for _, widest, column in cards), cards
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_s_results_are_whole_at_820_px_in_every_language(server, browser, language):
    """His results by rule set, seven columns ("Очков проиграно" the longest heading), all
    in view at a tablet's width: the headings wrap between their words."""
    page = page_of(browser, TABLET, language)
    page.goto(server + "/player/Random White")
    shown, room = page.eval_on_selector("table.games", """t => {
        const box = t.closest('.table-box'); return [box.scrollWidth, box.clientWidth]; }""")
    assert page.locator("table.games").first.locator("th").count() == 7
    assert shown <= room, f"{shown - room} px of his results hidden to the right"
    page.context.close()
