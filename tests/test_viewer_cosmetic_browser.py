"""Issue 37's cosmetic defects, measured in Chromium at 1280×800, 820×1180 and 390×844 on
an analysed game (the annotated jacquet sample): no page wider than a phone's window, the
charts' axis labels clear of their ticks, the heading's fields apart, the analysis dated in
the page's language, the archive's Event column whole at 820 px, the board's point numbers
readable on a phone."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.messages import say
from tests.accounts_helpers import add_account
from tests.browser_helpers import ARTIFACTS, playwright_or_skip, serving, sign_in_as_scorer
from webviewer import create_app

playwright_or_skip()

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The annotated jacquet sample, analysed, in an archive with a scorer: the base URL,
    the game's id."""
    path = tmp_path_factory.mktemp("cosmetic") / "club.db"
    with archive.open_archive(path) as db:
        archive.import_files(db, ["samples/jacquet/annotated-game.jqn"])
        game_id = db.execute("SELECT min(id) FROM games").fetchone()[0]
    assert CliRunner().invoke(main, ["analyse", "--db", str(path), "--jobs", "1"]).exit_code == 0
    add_account(path)
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


def page_of(browser, viewport):
    return browser.new_context(viewport=viewport).new_page()


def overflow(page) -> int:
    """How much wider than its window the page is, in CSS pixels."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_no_page_is_wider_than_a_phone(server, browser):
    base, game_id = server
    page = page_of(browser, PHONE)
    pages = ["/", f"/game/{game_id}", f"/game/{game_id}?ply=9", "/position/AACA/z8AAID/Pw?variant=jacquet",
             "/player/Random%20White", "/validate", "/play/"]
    for path in pages:
        page.goto(base + path)
        assert overflow(page) == 0, path
    assert page.goto(f"{base}/game/{game_id}").ok
    assert page.locator(".analysis-summary table").count() == 1  # the wide table is there
    box = page.eval_on_selector(".analysis-summary .table-box", "b => [b.scrollWidth, b.clientWidth]")
    assert box[0] > box[1]  # and scrolls in its own box
    page.goto(f"{base}/record/")
    sign_in_as_scorer(page)
    assert overflow(page) == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{base}/game/{game_id}")
    page.screenshot(path=str(ARTIFACTS / "game-page-analysed-390.png"), full_page=True)
    page.context.close()


def boxes_overlap(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] \
        and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_the_charts_axis_labels_stand_clear_of_their_ticks(server, browser, viewport):
    base, game_id = server
    page = page_of(browser, viewport)
    page.goto(f"{base}/game/{game_id}")
    for chart in ("svg.pip-chart", "svg.evaluation"):
        texts = page.eval_on_selector_all(f"{chart} text", """texts => texts.map(t => {
            const r = t.getBoundingClientRect();
            return {text: t.textContent, x: r.x, y: r.y, width: r.width, height: r.height}; })""")
        assert len(texts) > 5, chart
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                assert not boxes_overlap(a, b), (chart, a, b)
    page.context.close()


def test_the_headings_fields_stand_apart(server, browser):
    base, game_id = server
    page = page_of(browser, DESKTOP)
    page.goto(f"{base}/game/{game_id}")
    tags = page.inner_text("p.tags")
    assert tags.startswith("Annotated jacquet sample game · Generated sample · 2026.11.30")
    assert page.get_attribute("p.tags .event", "title") == "Event"
    page.context.close()


@pytest.mark.parametrize(("language", "written"), [
    ("en", r"\(\w{3} \d{1,2}, 20\d\d, \d{1,2}:\d\d:\d\d\s[AP]M\)"),
    ("fr", r"\(\d{1,2} \w+\.? 20\d\d, \d\d:\d\d:\d\d\)"),
    ("ru", r"\(\d{1,2} \w+\.? 20\d\d\s?г?\.?, \d\d:\d\d:\d\d\)")])
def test_the_analysis_is_dated_in_the_pages_language(server, browser, language, written):
    base, game_id = server
    page = page_of(browser, DESKTOP)
    page.goto(f"{base}/game/{game_id}")
    if language != "en":
        page.click(f"header.site button[value={language}]")
        page.wait_for_selector(f"html[lang={language}]")
    said = page.inner_text(".analysis-summary .analysis-by")
    assert not re.search(r"\d{4}-\d\d-\d\dT", said)  # no ISO 8601 stamp as stored
    assert re.search(written, said), said
    page.context.close()


def test_the_archives_event_column_is_whole_at_820_px(server, browser):
    base, _ = server
    page = page_of(browser, TABLET)
    page.goto(base + "/")
    box = page.eval_on_selector("table.games", "t => t.closest('.table-box') || t.parentElement")
    assert box is not None
    widths = page.eval_on_selector("table.games", """t => {
        const box = t.closest('.table-box') || t.parentElement;
        return [box.scrollWidth, box.clientWidth]; }""")
    assert widths[0] <= widths[1]  # nothing hidden to the right of the table's box
    cells = page.eval_on_selector_all("table.games td.event", """cells => cells.map(c =>
        [c.textContent, c.getBoundingClientRect().right, c.scrollWidth - c.clientWidth])""")
    assert cells and all(text for text, _, _ in cells)
    assert all(right <= 820 and hidden <= 0 for _, right, hidden in cells), cells
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, TABLET, DESKTOP])
def test_the_boards_point_numbers_are_readable(server, browser, viewport):
    base, game_id = server
    page = page_of(browser, viewport)
    page.goto(f"{base}/game/{game_id}?ply=9")
    sizes = page.eval_on_selector_all("figure.board svg .column > polygon.point + text", """texts =>
        texts.map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)""")
    assert len(sizes) == 24
    assert min(sizes) >= 10.5  # in CSS pixels as drawn (6.7 px at 390 px before)
    page.context.close()


def test_the_courier_ring_and_the_last_play_differ_and_a_key_names_them(server, browser):
    base, game_id = server
    page = page_of(browser, DESKTOP)
    page.goto(f"{base}/game/{game_id}?ply=3")  # White's courier ran 14/3; Black's stands on 19
    board = "figure.board svg"
    ring = {page.get_attribute(f"{board} circle.courier", "stroke")}
    outline = set(page.eval_on_selector_all(f"{board} polygon.point[stroke]",
                                            "points => points.map(p => p.getAttribute('stroke'))"))
    assert len(ring) == len(outline) == 1 and ring != outline  # each mark a colour of its own
    key = page.eval_on_selector_all(".board-key > span", """spans => spans.map(s =>
        [s.className, s.querySelector('svg [stroke]').getAttribute('stroke'), s.textContent.trim()])""")
    assert key[:2] == [["key-last-play", *outline, say("key.last-play")],
                       ["key-courier", *ring, say("key.courier", rule="R-COURIER")]]
    # the game is analysed: a candidate looked at is drawn as arrows, in a colour of their own
    assert key[2][0] == "key-arrows" and key[2][1] not in ring | outline
    # and the next turn's best play, drawn on every ply, in another (tests/test_viewer_next_best.py)
    assert key[3][0] == "key-best" and key[3][1] not in ring | outline | {key[2][1]} and len(key) == 4
    assert key[3][2] == say("key.best")
    page.keyboard.press("ArrowRight")  # the key stays beside the board as the script steps
    page.wait_for_url(f"**/game/{game_id}?ply=4")
    assert page.locator(".board-key > span").count() == 4
    page.click("header.site button[value=fr]")
    page.wait_for_selector("html[lang=fr]")
    assert " ".join(page.inner_text(".board-key").split()) == ("Sur le tablier : le dernier coup joué ; "
                                             "le courrier, qui court seul (R-COURIER) ; "
                                             "le coup examiné, ses déplacements en flèches ; "
                                             "le meilleur coup du moteur pour le coup de dés à jouer, "
                                             "en flèches tiretées")
    page.context.close()
