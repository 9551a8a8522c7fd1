"""The analysis board and the board editor in Debian's Chromium (issue 37, "New"), at 1280,
820 and 390 px: a click on a candidate of a ranked position swaps in the board after it
with its arrows without loading the page again; on an analysed game's turn the same; in the
editor a click on a point adds a man (the position ID follows), a right click removes one,
a roll typed ranks the plays of the position on its page; no page scrolls sideways.
Screenshots in tests/artifacts/ (analysis-board-*.png, board-editor-*.png)."""

from __future__ import annotations

import pytest

from notation import Position, legal_plays, rule_set
from notation.engine.board import MEN
from notation.engine.state import Colour
from notation.messages import Message, render
from tests.browser_helpers import ARTIFACTS, analysed_game, playwright_or_skip, press, serving
from tests.viewer_helpers import viewer_app

playwright_or_skip()

SIZES = {"1280": (1280, 800), "820": (820, 1180), "390": (390, 844)}
MIDGAME = Position.from_points({6: 3, 10: 3, 13: 3, 18: 3, 24: 3}, {24: 5, 19: 5, 16: 5})
"""A jacquet position past the courier (61: 6 plays), seen by the player on roll."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """An archive of one analysed jacquet game, served: the base URL and the game's id."""
    path, game_id = analysed_game(tmp_path_factory.mktemp("analysis-board"))
    with serving(viewer_app(path)) as base:
        yield base, game_id


def new_page(browser, size: str):
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def overflow(page) -> int:
    """How much wider than its window the page is, in CSS pixels."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def arrows(page) -> list[tuple[int, int]]:
    return [tuple(int(v) for v in pair) for pair in page.eval_on_selector_all(
        "svg g.arrow", "gs => gs.map(g => [g.dataset.from, g.dataset.to])")]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_click_on_a_candidate_draws_the_board_after_it_in_place(server, browser, size):
    base, _ = server
    page = new_page(browser, size)
    page.goto(f"{base}/position/{MIDGAME.position_id()}?variant=jacquet&player=W&dice=61")
    plays = {p.notation: p for p in legal_plays(MIDGAME, "61", rule_set("jacquet"))}
    best = page.inner_text(".candidates tbody tr:first-child td.play")
    assert arrows(page) == [(s.from_point, s.to_point) for s in plays[best].steps]
    page.evaluate("window.stayed = true")  # gone if the page is loaded again
    link = page.locator(".candidates tbody tr:last-child td.play a")
    chosen = link.inner_text()
    link.click()
    page.wait_for_selector(".candidates tr.shown")
    assert page.evaluate("window.stayed") is True
    assert arrows(page) == [(s.from_point, s.to_point) for s in plays[chosen].steps]
    assert chosen in page.inner_text("#shown-play")
    assert "show=" in page.url
    assert overflow(page) == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-board-{size}.png"), full_page=True)
    page.context.close()


def test_a_candidate_of_an_analysed_turn_is_drawn_with_its_arrows(server, browser):
    base, game_id = server
    page = new_page(browser, "1280")
    page.goto(f"{base}/game/{game_id}?ply=8")
    page.keyboard.press("ArrowRight")  # the candidates viewer.js draws get their links too
    page.wait_for_url(f"**/game/{game_id}?ply=9")
    page.wait_for_selector(".candidates a.show-play")
    page.evaluate("window.stayed = true")
    rows = page.locator(".candidates tbody tr")
    target = rows.nth(rows.count() - 1).locator("a.show-play")
    chosen = target.inner_text()
    target.click()
    page.wait_for_selector('.candidates a.show-play[aria-current="page"]')
    assert page.evaluate("window.stayed") is True
    assert arrows(page), "the candidate's steps as arrows"
    assert chosen in page.inner_text(".said")
    assert page.locator(".board-key .key-arrows").count() == 1
    page.screenshot(path=str(ARTIFACTS / "analysis-board-game-1280.png"), full_page=True)
    page.keyboard.press("ArrowRight")  # stepping on draws the next ply from the page's data
    page.wait_for_url(f"**/game/{game_id}?ply=10")
    assert page.locator("figure.board svg g.arrows:not(.best)").count() == 0  # only the next best play's
    page.context.close()


def test_edit_this_position_takes_the_whole_position_id_to_the_editor(server, browser):
    base, game_id = server
    page = new_page(browser, "1280")
    page.goto(f"{base}/game/{game_id}?ply=1")
    page.keyboard.press("ArrowRight")  # the link viewer.js keeps up to date as it steps
    page.wait_for_url(f"**/game/{game_id}?ply=2")
    shown = page.get_attribute("a.position", "href").split("/position/")[1].split("?")[0]
    assert "/" in shown, "a position ID with a slash in it (an ID is base64)"
    press(page, "a.edit-position")
    assert page.input_value("#editor-id") == shown
    assert page.locator("#editor-error").is_hidden()
    page.context.close()


def click_point(page, point: int, **how) -> None:
    """Click White's point ``point`` on the editor's board and wait for the new position."""
    before = page.input_value("#editor-id")
    page.click(f'#editor-board g.column[data-point="{point}"] polygon', **how)
    page.wait_for_function("id => document.getElementById('editor-id').value !== id", arg=before)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_editor_sets_up_a_position_and_ranks_a_roll(server, browser, size):
    base, _ = server
    page = new_page(browser, size)
    page.goto(f"{base}/board-editor?variant=jacquet")
    press(page, "button[value=clear]")
    assert Position.from_id(page.input_value("#editor-id")) == Position.from_points({}, {})
    page.evaluate("window.stayed = true")
    for point in (6, 6, 8):
        click_point(page, point)
    page.check("input[name=side][value=B]")
    click_point(page, 12)  # Black's talon
    click_point(page, 8, button="right")
    assert page.evaluate("window.stayed") is True
    assert Position.from_id(page.input_value("#editor-id")) == Position.from_points({6: 2}, {24: 1})
    click_point(page, 12, modifiers=["Shift"])
    page.check("input[name=side][value=W]")
    click_point(page, 12)
    click_point(page, 12, modifiers=["Shift"])
    assert Position.from_id(page.input_value("#editor-id")) == Position.from_points({6: 2}, {})
    page.click('button[data-die="5"]')
    page.click('button[data-die="2"]')
    assert page.input_value("input[name=dice]") == "52"
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS / f"board-editor-{size}.png"), full_page=True)
    press(page, "#editor-rank button[type=submit]")
    assert "/position/" in page.url and "dice=52" in page.url
    position = Position.from_id(page.url.split("/position/")[1].split("?")[0])
    assert position == Position.from_points({6: 2}, {})
    assert page.locator(".candidates td.play a").count() == len(legal_plays(position, "52", rule_set("jacquet")))
    assert overflow(page) == 0
    page.context.close()


def test_the_editor_shows_the_rules_refusal(server, browser):
    base, _ = server
    page = new_page(browser, "390")
    page.goto(f"{base}/board-editor?variant=jacquet")
    page.click('#editor-board g.column[data-point="6"] polygon')  # all fifteen are on the board
    page.wait_for_selector("#editor-error:not([hidden])")
    assert page.inner_text("#editor-error") == render(
        Message.of("position.none-off", side=Colour.WHITE.named, most=MEN), "en")
    assert overflow(page) == 0
    page.context.close()


def test_without_javascript_the_forms_and_links_do_the_same(server, browser):
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/board-editor?variant=jacquet")
    press(page, "button[value=clear]")
    page.select_option("select[name=point]", "6")
    press(page, "button[value=add]")
    page.check("input[name=side][value=B]")
    page.select_option("select[name=point]", "12")
    press(page, "button[value=add]")
    assert Position.from_id(page.input_value("#editor-id")) == Position.from_points({6: 1}, {24: 1})
    page.fill("input[name=dice]", "61")
    press(page, "#editor-rank button[type=submit]")
    link = page.locator(".candidates td.play a").first
    chosen = link.inner_text()
    press(page, ".candidates td.play a >> nth=0")
    assert "show=" in page.url and chosen in page.inner_text("#shown-play")
    assert arrows(page)
    assert overflow(page) == 0
    context.close()


def drawn_arrows(page, group: str) -> list[dict]:
    """How the browser draws the shafts of the board's arrows in ``group`` (a selector
    under the board's svg): each one's stroke colour and dash pattern."""
    return page.eval_on_selector_all(
        f"figure.board svg {group} line.arrow-step",
        "ls => ls.map(l => ({colour: getComputedStyle(l).stroke, dashes: getComputedStyle(l).strokeDasharray}))")


def key_colour(page, kind: str) -> str | None:
    """The colour of the board key's mark of ``kind`` (its swatch's line), or ``None``."""
    swatch = page.locator(f".board-key .key-{kind} svg line")
    return swatch.evaluate("l => getComputedStyle(l).stroke") if swatch.count() else None


@pytest.mark.parametrize("size", list(SIZES))
def test_the_position_page_draws_the_best_play_as_the_game_page_does(server, browser, size):
    """One visual language: the best play of a ranked position is drawn as the game page
    draws the next turn's best play (dashed, in the key's colour for the best play), not in
    the colour the key gives the play looked at; a candidate picked is the play looked at."""
    base, game_id = server
    page = new_page(browser, size)
    page.goto(f"{base}/game/{game_id}?ply=8")
    game_best = drawn_arrows(page, "g.arrows.best")
    assert game_best and all(line["dashes"] != "none" for line in game_best)
    best_colour, looked_at = key_colour(page, "best"), key_colour(page, "arrows")
    assert {line["colour"] for line in game_best} == {best_colour} and looked_at != best_colour

    position_id = MIDGAME.position_id()
    page.goto(f"{base}/position/{position_id}?variant=jacquet&player=W&dice=61")
    assert page.title() == f"Position {position_id}"  # the page's title alone, no markup
    drawn = drawn_arrows(page, "g.arrows")
    assert drawn == drawn_arrows(page, "g.arrows.best"), "the best play's arrows are the best's"
    assert {line["colour"] for line in drawn} == {best_colour}
    assert [line["dashes"] for line in drawn] == [game_best[0]["dashes"]] * len(drawn)
    assert (key_colour(page, "best"), key_colour(page, "arrows")) == (best_colour, looked_at)
    page.locator(".candidates tbody tr:last-child td.play a").click()
    page.wait_for_selector(".candidates tr.shown")
    shown = drawn_arrows(page, "g.arrows")
    assert shown and {line["colour"] for line in shown} == {looked_at}
    assert all(line["dashes"] == "none" for line in shown)
    page.context.close()
