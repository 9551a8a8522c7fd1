"""The printed game and the game report in Debian's Chromium (issue 37): the printed game
through Chromium's own print to PDF (``--print-to-pdf``, read back with pypdf): the PDF has
pages, and no diagram is cut across two (each diagram's heading, above its board, and its
position ID, under it, are on the same page); the game page's report at a phone's width
scrolls no page sideways. Screenshots in tests/artifacts/."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.browser_helpers import ARGS, ARTIFACTS, CHROMIUM, chromium, playwright_or_skip, serving
from tests.report_fixtures import analysed_archive
from tests.viewer_helpers import viewer_app

sync_api = playwright_or_skip()
pypdf = pytest.importorskip("pypdf")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("printed") / "club.db"
    ids = analysed_archive(path)
    with serving(viewer_app(path)) as base:
        yield base, ids


OUTSIDE = """(selector) => [...document.querySelectorAll(selector + ', ' + selector + ' *')]
    .filter(e => !e.parentElement.closest('.table-box'))
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
    .map(e => e.tagName + '.' + e.className)"""
"""What in ``selector`` reaches past the window's right edge (a table scrolling in its own
box aside): a page that would scroll sideways."""


def printed(url: str, target) -> list[str]:
    """The page at ``url`` printed to PDF by Chromium at ``target``: each page's text."""
    assert CHROMIUM is not None
    subprocess.run([CHROMIUM, *ARGS, "--no-pdf-header-footer", f"--print-to-pdf={target}", url],
                   check=True, capture_output=True, timeout=300)
    return [page.extract_text() for page in pypdf.PdfReader(target).pages]


@pytest.mark.parametrize(("game", "query"), [("jacquet", ""), ("plain", "?every=6")])
def test_the_printed_game_prints_to_pages_with_no_diagram_cut(site, tmp_path, game, query):
    base, ids = site
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / f"printed-{game}.pdf"
    pages = printed(f"{base}/game/{ids[game]}/print{query}", target)
    assert len(pages) >= 2
    text = "\n".join(pages)
    numbers = [int(n) for n in re.findall(r"Diagram (\d+):", text)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 3
    for number in numbers:
        heading = [i for i, page in enumerate(pages) if re.search(rf"Diagram {number}:", page)]
        assert len(heading) == 1
        own = pages[heading[0]].split(f"Diagram {number}:", 1)[1].split(f"Diagram {number + 1}:")[0]
        assert "Position ID" in own, f"diagram {number} runs onto the next page"
    assert "Moves" in pages[0] and "Event" in pages[0]
    assert "Game report" in text or game == "plain"
    assert "Jacquet archive" not in text  # the site's header is not printed
    assert "Print it with your browser" not in text  # nor the controls


def test_the_report_and_the_printed_game_on_screen(site):
    base, ids = site
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium(sync_api) as browser:
        for width, height in ((1280, 800), (390, 844)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/game/{ids['match']}")
            report = page.locator("section.game-report")
            assert report.is_visible()
            report.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"game-report-{width}.png"))
            assert page.evaluate(OUTSIDE, "section.game-report") == []
            page.goto(f"{base}/game/{ids['jacquet']}/print")
            page.screenshot(path=str(ARTIFACTS / f"printed-game-{width}.png"))
            assert page.evaluate(OUTSIDE, "article.printed-game") == []
            page.close()
