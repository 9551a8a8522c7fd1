"""Practice from one's mistakes (``/practice/<player>``, issue 37) in Debian's Chromium, at
1280, 820 and 390 px wide: a player's worst play answered by clicking its best play on the
board (the man's point, then where it goes: the recorder's script), a Black player's
answered by typing the play he made (in his own numbers, as the board shows them), each
answer's ranking shown with the answer and the play made marked; no page scrolls sideways.
Screenshots in tests/artifacts/ (practice-*.png)."""

from __future__ import annotations

import re

import pytest

import archive
from archive.analyses import latest_analysis
from notation import Position
from notation.engine.checker import check_play
from notation.engine.rules import rule_set
from tests.browser_helpers import ARTIFACTS, playwright_or_skip, press, serving
from tests.report_fixtures import analysed_archive
from tests.viewer_helpers import shown, shown_pattern, viewer_app

playwright_or_skip()

SIZES = {"wide": {"width": 1280, "height": 800}, "tablet": {"width": 820, "height": 1180},
         "phone": {"width": 390, "height": 844}}
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("practice-browser") / "club.db"
    ids = analysed_archive(path)
    with serving(viewer_app(path)) as base:
        yield base, path, ids


def worst(path, game_id: int, colour: str) -> tuple[dict, Position]:
    """The turn of ``colour`` the analysis judged worst (marked ? or ??), and its position."""
    with archive.open_archive(path, readonly=True) as db:
        turns = latest_analysis(db, game_id)["turns"].values()
        turn = max((t for t in turns if t["player"] == colour and t["mark"] in ("?", "??")),
                   key=lambda t: t["loss"])
        position = db.execute("SELECT position_before FROM turns WHERE game_id = ? AND ply = ?",
                              [game_id, turn["ply"]]).fetchone()[0]
    return turn, Position.from_id(position)


@pytest.mark.parametrize("size", SIZES)
def test_answering_by_clicking_and_by_typing(site, browser, size):
    base, path, ids = site
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    sideways = []

    # White's worst play: the best play clicked on the board, a man at a time
    turn, position = worst(path, ids["jacquet"], "W")
    page.goto(f"{base}/practice/Random White")
    assert page.get_attribute('input[name="position"]', "value") == f"{ids['jacquet']}.{turn['ply']}"
    page.screenshot(path=ARTIFACTS / f"practice-question-{size}.png", full_page=True)
    sideways.append(page.evaluate(SIDEWAYS))
    best = check_play(position, turn["dice"], turn["candidates"][0]["play"], rule_set("jacquet"))
    for index, step in enumerate(best.steps):  # White's points are the board's own names
        page.click(f'g.column[data-point="{step.from_point}"]')
        if index < len(best.steps) - 1:
            press(page, f'g.column[data-point="{step.to_point}"]')
        else:
            with page.expect_navigation(url="**answer=**"):
                page.click(f'g.column[data-point="{step.to_point}"]')
    assert shown_pattern("Your play %(play)s is the best play.", play=".+").search(page.inner_text(".practice-verdict"))
    assert page.inner_text("tr.answer td:nth-child(2)") == turn["candidates"][0]["play"]
    assert page.locator("tr.played").count() == 1
    page.screenshot(path=ARTIFACTS / f"practice-clicked-{size}.png", full_page=True)
    sideways.append(page.evaluate(SIDEWAYS))

    # Black's worst play: typed as he played it, in his numbers
    turn, _ = worst(path, ids["jacquet"], "B")
    page.goto(f"{base}/practice/Random Black")
    numbered, _ = shown("Numbered for Black, who is to play %(dice)s.", dice="\0").split("\0")
    assert numbered in page.inner_text("figure.board figcaption")
    page.fill("#play-input", turn["played"])
    press(page, 'button[value="play"]')
    assert shown_pattern("Your play %(play)s loses %(loss)s against the best.", play=".+",
                         loss=re.escape(f"{turn['loss']:.3f}")).search(page.inner_text(".practice-verdict"))
    assert page.locator("tr.answer.played").count() == 1  # his answer is the play he made
    page.screenshot(path=ARTIFACTS / f"practice-typed-{size}.png", full_page=True)
    sideways.append(page.evaluate(SIDEWAYS))
    context.close()
    assert max(sideways) <= 0


def test_the_verdict_beside_the_board_once_answered(site, browser):
    """Once answered, the board gains its key (the best play's arrows): the key stays under
    the board, and the verdict beside the board at 1280 px, not pushed below the board."""
    base, path, ids = site
    page = browser.new_context(viewport=SIZES["wide"]).new_page()
    turn, _ = worst(path, ids["jacquet"], "W")
    page.goto(f"{base}/practice/Random White?position={ids['jacquet']}.{turn['ply']}"
              f"&answer={turn['candidates'][0]['play']}")
    board = page.locator("figure.recorder-board svg").first.bounding_box()
    verdict = page.locator(".practice-verdict").bounding_box()
    assert page.locator(".board-key").count() == 1
    assert verdict["x"] > board["x"] + board["width"]
    assert verdict["y"] < board["y"] + board["height"]
