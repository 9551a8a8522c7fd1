"""The last of issue 37's analysis board in Debian's Chromium, at 1280, 820 and 390 px, on
one jacquet game analysed by ``jacquet analyse --db`` at its defaults (0-ply, marks
confirmed deeper: the turns judged again mix depths):

- the game page draws the next turn's best play as dashed violet arrows on every ply, the
  script redrawing them as it steps; the button hides them, and they stay hidden on the
  next page (the browser keeps it);
- the candidates viewer.js draws for a turn whose stored plays mix depths show each one's
  depth, the play made's stored loss and no loss across depths;
- practice, once answered, draws the best play's arrows and its ranking's plays lead to
  the analysis board (the board after the play);
- the board editor's point list follows the player on roll when the script changes it;
- no page scrolls sideways.
Screenshots in tests/artifacts/ (next-best-*.png, practice-answered-*.png, board-editor-black-*.png)."""

from __future__ import annotations

import pytest

import archive
from archive.analyses import latest_analysis
from notation import Position, rule_set
from notation.engine.checker import check_play
from tests.browser_helpers import ARTIFACTS, analysed_game, playwright_or_skip, press, serving
from tests.viewer_helpers import viewer_app

playwright_or_skip()

SIZES = {"1280": (1280, 800), "820": (820, 1180), "390": (390, 844)}
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The analysed game served: the base URL, the game's id, its analysis and the
    positions before its turns (by ply)."""
    path, game_id = analysed_game(tmp_path_factory.mktemp("arrows-browser"))
    with archive.open_archive(path, readonly=True) as db:
        analysis = latest_analysis(db, game_id)
        before = dict(db.execute("SELECT ply, position_before FROM turns WHERE game_id = ?", [game_id]))
    with serving(viewer_app(path)) as base:
        yield base, game_id, analysis, before


def new_page(browser, size: str):
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def best_arrows(page) -> list[tuple[int, int]]:
    """The steps of the best play's arrows on the page's board, shown or not."""
    return [tuple(int(v) for v in pair) for pair in page.eval_on_selector_all(
        "figure.board svg g.arrows.best g.arrow", "gs => gs.map(g => [g.dataset.from, g.dataset.to])")]


def next_best(analysis, before, ply: int) -> list[tuple[int, int]]:
    turn = analysis["turns"][ply + 1]
    play = check_play(Position.from_id(before[ply + 1]), turn["dice"], turn["best"], rule_set("jacquet"))
    return [(s.from_point, s.to_point) for s in play.steps]


def arrows_shown(page) -> bool:
    return page.eval_on_selector("figure.board svg g.arrows.best",
                                 "g => getComputedStyle(g).display !== 'none' && g.getBBox().width > 0")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_next_turns_best_play_is_drawn_on_every_ply_and_can_be_hidden(server, browser, size):
    base, game_id, analysis, before = server
    page = new_page(browser, size)
    page.goto(f"{base}/game/{game_id}?ply=4")
    assert best_arrows(page) == next_best(analysis, before, 4)
    assert arrows_shown(page)
    assert page.locator(".board-key .key-best").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"next-best-{size}.png"), full_page=True)
    assert page.evaluate(SIDEWAYS) <= 0
    page.evaluate("window.stayed = true")
    for ply in (5, 6):  # the script redraws them as it steps, no page loaded
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**/game/{game_id}?ply={ply}")
        assert best_arrows(page) == next_best(analysis, before, ply)
    assert page.evaluate("window.stayed") is True
    button = page.locator("button.hide-arrows")
    assert button.inner_text() == "Hide the arrows"
    button.click()
    assert not arrows_shown(page) and button.get_attribute("aria-pressed") == "true"
    assert button.inner_text() == "Show the arrows"
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/game/{game_id}?ply=7")
    assert best_arrows(page) and not arrows_shown(page)  # drawn, hidden
    page.reload()
    assert not arrows_shown(page)  # the browser keeps it
    page.locator("button.hide-arrows").click()
    assert arrows_shown(page)
    page.context.close()


def test_candidates_of_mixed_depths_drawn_by_the_script(server, browser):
    base, game_id, analysis, _ = server
    mixed = [t for t in analysis["turns"].values()
             if len({c.get("depth") for c in t["candidates"]}) > 1 and t["ply"] > 1]
    assert mixed, "the confirmed analysis judged some turns again, deeper"
    turn = mixed[0]
    page = new_page(browser, "1280")
    page.goto(f"{base}/game/{game_id}?ply={turn['ply'] - 1}")
    page.keyboard.press("ArrowRight")  # the candidates viewer.js draws
    page.wait_for_url(f"**/game/{game_id}?ply={turn['ply']}")
    headings = page.eval_on_selector_all(".candidates thead th", "ths => ths.map(th => th.textContent)")
    assert headings[-1] == "Depth"
    rows = page.eval_on_selector_all(".candidates tbody tr", "trs => trs.map(tr => "
                                     "Array.from(tr.cells).map(td => td.textContent))")
    ranked = sorted(turn["candidates"], key=lambda c: c["rank"])
    assert [row[5] for row in rows] == [f"{c['depth']}-ply" for c in ranked]
    best_depth = ranked[0]["depth"]
    assert [row[3] == "—" for row in rows] == [c["depth"] != best_depth for c in ranked]
    played = page.locator(".candidates tr.played td:nth-child(4)").inner_text()
    assert played == f"{turn['loss']:.3f}"
    assert page.locator(".candidates .depth-note").is_visible()
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_practice_answered_shows_the_best_play_and_leads_to_the_analysis_board(server, browser, size):
    base, game_id, analysis, before = server
    page = new_page(browser, size)
    turn = max((t for t in analysis["turns"].values() if t["player"] == "W" and t["mark"] in ("?", "??")
                and not t["forced"]), key=lambda t: t["loss"])
    page.goto(f"{base}/practice/Random White?position={game_id}.{turn['ply']}")
    assert page.locator("figure.board svg g.arrows").count() == 0
    page.fill("#play-input", turn["played"])
    press(page, 'button[value="play"]')
    play = check_play(Position.from_id(before[turn["ply"]]), turn["dice"], turn["best"], rule_set("jacquet"))
    assert best_arrows(page) == [(s.from_point, s.to_point) for s in play.steps]
    assert page.locator(".board-key .key-best").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"practice-answered-{size}.png"), full_page=True)
    assert page.evaluate(SIDEWAYS) <= 0
    link = page.locator(".practice-ranking tbody tr:nth-child(2) a.show-play")
    chosen = link.inner_text()
    press(page, ".practice-ranking tbody tr:nth-child(2) a.show-play")
    assert "/position/" in page.url
    assert page.locator("tr.shown td.play").inner_text() == chosen
    assert page.locator("figure svg g.arrow").count() > 0
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_editors_point_list_follows_the_player_on_roll(server, browser, size):
    base, _, _, _ = server
    page = new_page(browser, size)
    page.goto(f"{base}/board-editor?variant=jacquet&player=W")
    jacquet = rule_set("jacquet")

    def shown() -> tuple[dict[str, str], dict[str, str]]:
        options = dict(page.eval_on_selector_all("#editor-point option:not([value=bar])",
                                                 "os => os.map(o => [o.value, o.text])"))
        numbers = dict(page.eval_on_selector_all(
            "#editor-board g.column", "gs => gs.map(g => [g.dataset.point, g.querySelector('text').textContent])"))
        return options, numbers

    options, numbers = shown()
    assert options == numbers == {str(p): str(p) for p in range(1, 25)}
    page.evaluate("window.stayed = true")
    page.check('input[name="player"][value="B"]')
    page.wait_for_function("() => document.querySelector('#editor-point option').value !== '24'")
    assert page.evaluate("window.stayed") is True
    options, numbers = shown()
    black = {str(p): str(jacquet.opposite[p]) for p in range(1, 25)}
    assert options == black  # his numbers, White's sent
    assert numbers == black  # as the board numbers them
    assert page.eval_on_selector_all("#editor-point option", "os => os.map(o => o.text)")[:2] == ["24", "23"]
    page.screenshot(path=str(ARTIFACTS / f"board-editor-black-{size}.png"), full_page=True)
    page.select_option("#editor-point", str(jacquet.opposite[13]))  # his 13
    press(page, 'button[name="do"][value="remove"]')  # the form alone: the new page numbered alike
    assert shown() == (black, black)
    page.context.close()
