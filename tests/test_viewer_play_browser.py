"""Playing the engine (``/play/``) in a real browser on a tablet (768×1024): a whole game
against the random engine played by clicking the board (a man's point, then the point it
goes to, as in the recorder: recorder.js), a hint asked for once, ending on the analysed
game; a screenshot of it is saved under ``tests/artifacts/``.

Chromium and playwright as in :mod:`tests.test_viewer_browser` (skipped where missing,
except in CI)."""


import pytest

from analysis.confirm import confirmation_level
from analysis.shipped import load_net
from notation import rule_set
from tests.browser_helpers import ARTIFACTS, playwright_or_skip, press, served_viewer
from tests.viewer_helpers import shown

playwright_or_skip()


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The viewer over an empty archive, the engine in the request's thread (``page``, a
    tablet's: tests/conftest.py)."""
    with served_viewer(tmp_path_factory.mktemp("play"), WORKERS=0) as base:
        yield base


def click_a_step(page) -> None:
    """Play the first step offered by clicking the board: its man's point, then its target."""
    button = page.locator(".steps-offered button").first
    source, target = button.get_attribute("data-from-white"), button.get_attribute("data-to-white")
    page.click(f'.recorder-board g[data-point="{source}"]')
    assert page.locator(f'.recorder-board [data-point="{target}"] .target, '
                        f'.recorder-board polygon.point[data-point="{target}"].target, '
                        f'.recorder-board g[data-point="{target}"] > rect.target').count() >= 1
    with page.expect_navigation():
        page.click(f'.recorder-board g[data-point="{target}"]')


@pytest.mark.long
def test_a_whole_game_against_the_engine_by_clicking_on_a_tablet(base, page):
    # the play that ends the game waits for its whole analysis (the default confirmation,
    # rollouts included, the job's time limit lifted): more than a browser's 30 s where the
    # machine is loaded
    page.set_default_timeout(300_000)
    page.goto(f"{base}/play/")
    page.select_option('select[name="variant"]', "jacquet")
    page.check('input[name="side"][value="White"]')
    page.check('input[name="strength"][value="random"]')
    press(page, f"text={shown('Start the game')}")
    assert "You (White) against random" in page.inner_text("h1")
    hinted = False
    for _ in range(1000):
        status = page.inner_text(".panel .status")
        if status.startswith("Game over"):
            break
        if page.locator('.panel button[value="roll"]').count():
            press(page, '.panel button[value="roll"]')
        elif not hinted:
            press(page, "text=" + shown("Hint: the engine's ranking of your plays"))
            assert page.locator(".candidates tbody tr").count() >= 1
            hinted = True
        else:
            click_a_step(page)
    else:
        raise AssertionError("the game did not end")
    assert hinted
    # the default analysis: the shipped engine at 0-ply, its marks confirmed at the default
    # level (the job's time limit is lifted for the tests: tests/conftest.py)
    assert page.locator(".analysis .engine").inner_text() == \
        f"{load_net('jacquet').name}, 0-ply" + shown(", marks confirmed at %(level)s",
                                                     level=confirmation_level(rule_set("jacquet").confirmation,
                                                                              rule_set("jacquet")))
    assert page.locator(".analysis ol.analysed-turns li").count() > 20
    assert page.locator(".summaries tbody tr").count() == 2
    assert page.locator(".store a", has_text="sign in").count() == 1  # a visitor may not store it
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "play-analysed-tablet.png", full_page=True)


def strokes(page, selector: str) -> set[str]:
    """The stroke colours the browser draws the elements of ``selector`` in."""
    return set(page.eval_on_selector_all(selector, "es => es.map(e => getComputedStyle(e).stroke)"))


def act(page) -> None:
    """One action of the player's: roll, or play the first step offered by the board."""
    if page.locator('.panel button[value="roll"]').count():
        press(page, '.panel button[value="roll"]')
    else:
        click_a_step(page)


def test_the_boards_marks_are_told_apart_and_keyed(base, page):
    """The engine's last play is outlined and keyed ("the last play"); once the player has
    rolled, the points his men may leave are marked in a mark of their own, not the last
    play's blue, and the key under the step buttons says what the clicks' marks are."""
    page.goto(f"{base}/play/")
    page.select_option('select[name="variant"]', "jacquet")
    page.check('input[name="side"][value="White"]')
    page.check('input[name="strength"][value="random"]')
    press(page, f"text={shown('Start the game')}")
    outlined = 'figure.board svg polygon.point[stroke-width="3"]'
    for _ in range(60):  # until the engine's play is shown before the player's roll
        if page.locator('.panel button[value="roll"]').count() and page.locator(outlined).count():
            break
        act(page)
    else:
        raise AssertionError("no turn of the engine's outlined before a roll")
    last_play = strokes(page, outlined)
    assert len(last_play) == 1
    assert page.locator(".board-key .key-last-play").is_visible()
    assert strokes(page, ".board-key .key-last-play svg polygon") == last_play
    assert page.locator(".entry-key").count() == 0  # no step to enter yet

    for _ in range(20):  # a roll he cannot play (the dice are the server's) brings the next roll
        press(page, '.panel button[value="roll"]')
        if not page.locator('.panel button[value="roll"]').count():
            break
        last_play = strokes(page, outlined)
    else:
        raise AssertionError("no roll of the player's he could play")
    page.wait_for_selector("figure.board svg .source")
    sources = strokes(page, "figure.board svg .source")
    assert len(sources) == 1 and sources != last_play
    assert page.locator(".board-key .key-last-play").count() == 0  # its outline is gone
    key = page.locator(".entry-key")
    assert key.is_visible() and shown("Clicking the board:") in key.inner_text()
    assert strokes(page, ".entry-key .key-source polygon") == sources
    assert max(box["width"] for box in page.eval_on_selector_all(  # swatches, not boards
        ".board-key svg", "ss => ss.map(s => s.getBoundingClientRect().toJSON())")) < 20
    rings = strokes(page, "figure.board svg circle.courier")
    assert not rings & sources and not rings & last_play
