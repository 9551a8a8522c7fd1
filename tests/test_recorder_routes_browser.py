"""A man moved by two dice in one click on the recorder's board, in Chromium: his point,
then the point both dice take him to, plays the route when it is the only one; where two
routes leave different boards (one hits), the page says so and plays nothing. Phone,
tablet and wide screen."""

from __future__ import annotations

import pytest

from tests.browser_helpers import ARTIFACTS, playwright_or_skip, press, served_viewer, sign_in_as_scorer
from tests.viewer_helpers import shown

playwright_or_skip()

SIZES = ((1280, 800), (820, 1180), (390, 844))


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with served_viewer(tmp_path_factory.mktemp("routes"), scorer=True) as base:
        yield base


def status(page) -> str:
    return page.inner_text(".panel .status")


def enter(page, name: str, value: str) -> None:
    page.fill(f'input[name="{name}"]', value)
    press(page, f'button[value="{name}"]')


@pytest.mark.parametrize("width,height", SIZES)
def test_two_dice_in_one_click(base, browser, width, height):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/record/")
    sign_in_as_scorer(page)
    page.select_option('select[name="variant"]', "backgammon")
    page.check('input[name="starter"][value="lead"]')
    page.fill('input[name="lead_roll"]', "W3 B1")
    press(page, f"text={shown('Start the game')}")
    press(page, '.panel button[value="roll"]')
    enter(page, "play", "8/5 6/5")
    enter(page, "dice", "64")
    enter(page, "play", "24/18 13/9")  # Black's blots on White's 7 and 16
    enter(page, "dice", "21")
    page.click('g.column[data-point="8"]')
    assert page.locator('polygon.point[data-point="5"].target').count() == 1  # two dice away
    page.click('g.column[data-point="5"]')  # 8/7*/5 or 8/6/5: ambiguous
    assert page.locator(".route-note").is_visible()
    note = page.locator(".route-note").bounding_box()
    assert note["y"] >= 0 and note["y"] + note["height"] <= height + 1  # in the window (to a pixel), even on a phone
    assert "Several plays take this man there" in page.inner_text(".route-note")
    assert "White plays 21" in status(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"recorder-route-ambiguous-{width}.png"))
    page.click('g.column[data-point="13"]')
    press(page, 'g.column[data-point="10"]')  # 13/10: one board however it goes
    assert "Black to roll" in status(page)
    assert "13/10" in page.inner_text("pre.record") or "13/11/10" in page.inner_text("pre.record")
    page.context.close()
