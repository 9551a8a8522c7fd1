"""The candidates of a turn judged at two depths (their Depth column) on a phone (390 px),
in every language, in Chromium (issue 37): the table is whole and the page never scrolls sideways, whether the
server drew the candidates or viewer.js did, stepping to the turn. A real game analysed by
the shipped net (tests/report_fixtures.py), its worst turn's candidates stored at two
depths as analysis/ranking.py keeps them."""

from __future__ import annotations

import json
import sqlite3

import pytest

import archive
from archive.analyses import latest_analysis
from notation.messages import LANGUAGES
from tests.browser_helpers import playwright_or_skip, serving
from tests.report_fixtures import analysed_archive
from tests.viewer_helpers import viewer_app

playwright_or_skip()

PHONE = {"width": 390, "height": 844}
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"
CUT = "(s => s.scrollWidth - s.clientWidth)(document.querySelector('.candidates'))"
"""How much of the candidates' table its box hides to the right."""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The analysed jacquet game, its White's worst turn's candidates at two depths: the
    best and the play made at 2-ply, the others at 0-ply."""
    path = tmp_path_factory.mktemp("candidates-phone") / "club.db"
    game = analysed_archive(path)["jacquet"]
    with archive.open_archive(path, readonly=True) as db:
        analysis = latest_analysis(db, game)
    turn = max((t for t in analysis["turns"].values() if t["player"] == "W" and not t["forced"]),
               key=lambda t: t["loss"] or 0)
    mixed = [{**c, "depth": 2 if c["rank"] == 1 or c["play"] == turn["played"] else 0}
             for c in turn["candidates"]]
    with sqlite3.connect(path) as db:
        analysis_id = db.execute("SELECT max(id) FROM analyses WHERE game_id = ?", [game]).fetchone()[0]
        db.execute("UPDATE analysis_turns SET candidates = ? WHERE analysis_id = ? AND ply = ?",
                   [json.dumps(mixed), analysis_id, turn["ply"]])
    with serving(viewer_app(path)) as base:
        yield base, game, turn["ply"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_candidates_of_two_depths_fit_a_phone(site, browser, language):
    base, game, ply = site
    page = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": language}).new_page()
    page.goto(f"{base}/game/{game}?ply={ply}")
    assert page.locator(".candidates tbody tr").count() >= 2
    assert page.locator(".candidates th").count() == 6  # the Depth column
    assert page.evaluate(SIDEWAYS) <= 0 and page.evaluate(CUT) <= 0
    page.goto(f"{base}/game/{game}?ply={ply - 1}")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**ply={ply}**")
    assert page.locator(f'.candidates[data-ply="{ply}"] th').count() == 6
    assert page.evaluate(SIDEWAYS) <= 0 and page.evaluate(CUT) <= 0
    page.context.close()
