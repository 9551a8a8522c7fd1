"""The viewer in a real browser: Debian's Chromium driven by playwright.

Stepping with the keyboard without reloading the page, opening a permalink, flipping the
board, entering and leaving a variation, autoplay, and a comment holding ``<script>`` shown
as text without running. Screenshots of the game page are saved under
``tests/artifacts/``. Where Chromium is missing the tests skip, except in CI (``CI=true``),
where that is a failure: ``.ci/run`` installs it.
"""

import io

import pytest

import archive
from notation.formats.jqn import GameBuilder, read_games
from notation.messages import say
from tests.accounts_helpers import PASSWORD, add_account
from tests.browser_helpers import ARTIFACTS, chromium, playwright_or_skip, press, serving
from tests.viewer_helpers import shown
from webviewer import create_app

PATIENCE_MS = 60_000
"""How long a wait for the autoplay's next turn may last: a bound, not a pace (it steps in a
second or two; a loaded machine's browser took longer than the 5 s once allowed)."""
RECORD = ('[Event "Browser test"]\n[White "Marie"]\n[Black "Jean"]\n\n'
          '1. 55: 24/4 {<script>window.pwned = 1</script>} 66: 24/18 2. 21: 4/1 21: 18/15 *\n')
VARIATIONS = ('[White "Ann"]\n[Black "Bob"]\n[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n'
              '1. 31: 8/5 6/5 (1. 31: 24/21 6/5 {split}) 1... 62: 24/18 13/11 *\n')

sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The viewer on a werkzeug server thread, on a free loopback port."""
    path = tmp_path_factory.mktemp("browser") / "browser.db"
    db = archive.open_archive(path)
    games = [next(read_games(io.BytesIO(text.encode("utf-8")), GameBuilder)) for text in (RECORD, VARIATIONS)]
    archive.import_games(db, games)
    game_id = db.execute("SELECT min(id) FROM games").fetchone()[0]
    db.close()
    add_account(path)
    with serving(create_app({"ARCHIVE": str(path)})) as base:
        yield base, game_id


@pytest.fixture(scope="module")
def page():
    """One desktop-sized page for the module, kept from test to test."""
    with chromium(sync_api) as browser:
        yield browser.new_page(viewport={"width": 1200, "height": 1000})


def test_keyboard_steps_through_the_game(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=0")
    assert "Ply 0 of 4" in page.inner_text("figcaption")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/game/{game_id}?ply=1")
    assert "Ply 1 of 4" in page.inner_text("figure.board figcaption")
    page.keyboard.press("End")
    page.wait_for_url(f"**/game/{game_id}?ply=4")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(f"**/game/{game_id}?ply=3")
    page.keyboard.press("Home")
    page.wait_for_url(f"**/game/{game_id}?ply=0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "game-page.png"), full_page=True)


def test_permalink_opens_that_ply_and_flip_turns_the_board(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=2")
    assert "Ply 2 of 4" in page.inner_text("figure.board figcaption")
    assert page.locator('.moves [aria-current="true"]').inner_text().startswith("66")
    talon = 'svg.jacquet-board polygon[data-point="24"]'
    before = page.get_attribute(talon, "points")
    page.click("text=Flip board")
    page.wait_for_url("**flip=1**")
    assert page.get_attribute(talon, "points") != before  # White's talon drawn elsewhere
    page.screenshot(path=str(ARTIFACTS / "game-page-flipped.png"), full_page=True)


def test_a_comment_with_script_is_text_and_runs_nothing(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=1")
    assert "<script>window.pwned = 1</script>" in page.inner_text(".moves")
    assert page.evaluate("window.pwned") is None


def test_stepping_does_not_reload_the_page_nor_fetch_anything(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=0")
    page.evaluate("window.sameDocument = true")
    history = page.evaluate("history.length")
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/game/{game_id}?ply=1")
    page.locator("figure.board figcaption", has_text="Ply 1 of 4").wait_for()
    page.click(".moves a.move >> nth=2")
    page.wait_for_url(f"**/game/{game_id}?ply=3")
    assert page.evaluate("window.sameDocument") is True
    assert "Ply 3" in page.inner_text("#announce")  # told to screen readers
    assert [url for url in requests if "/game/" in url] == []  # stepped from the data the page holds
    assert page.evaluate("history.length") == history  # the address replaced, not pushed


def test_enter_and_leave_a_variation(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id + 1}?ply=0")
    page.click(".moves .variation a.move")
    page.wait_for_url(f"**/game/{game_id + 1}?path=1")
    assert shown("(in a variation)") in page.inner_text("figure.board figcaption")
    assert "24/21 6/5" in page.inner_text('.moves [aria-current="true"]')
    page.screenshot(path=str(ARTIFACTS / "game-page-variation.png"), full_page=True)
    page.keyboard.press("ArrowUp")
    page.wait_for_url(f"**/game/{game_id + 1}?ply=0")
    assert shown("(in a variation)") not in page.inner_text("figure.board figcaption")


def test_autoplay_steps_to_the_end_and_stops(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=2")
    page.click("button.autoplay")
    page.wait_for_url(f"**/game/{game_id}?ply=4", timeout=PATIENCE_MS)
    page.locator('button.autoplay[aria-pressed="false"]').wait_for()
    assert page.inner_text("button.autoplay") == "Autoplay"


def test_record_a_short_game_by_clicking(server, page):
    base, _ = server
    page.goto(f"{base}/record/")  # a scorer's page: signing in leads back to it
    page.fill("input[name=name]", "Scorer")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.select_option("select[name=variant]", "backgammon")
    page.fill("input[name=white]", "Clicker")
    page.fill("input[name=black]", "Typist")
    page.fill("input[name=lead_roll]", "W3 B1")
    press(page, f"text={shown('Start the game')}")
    press(page, "text=Play the 31")
    # a point with its men: the scorer clicks a man, then where it goes; the click that
    # completes a step sends it, and the next click waits for the page's script (press)
    board = "figure.board svg g.column"
    page.click(f'{board}[data-point="8"]')
    press(page, f'{board}[data-point="5"]')
    page.wait_for_selector("text=8/5 so far")
    page.click(f'{board}[data-point="6"]')
    press(page, f'{board}[data-point="5"]')
    page.wait_for_selector("text=Black to roll")
    page.fill("input[name=dice]", "62")
    press(page, "button[value=dice]")
    page.fill("input[name=play]", "24/10")
    press(page, "button[value=play]")
    assert "Refused: [R-DICE]" in page.inner_text("#note-play")  # beside the field
    page.click(f'{board}[data-point="1"]')  # Black's 24 is White's 1
    press(page, f'{board}[data-point="7"]')
    page.click(f'{board}[data-point="12"]')
    press(page, f'{board}[data-point="14"]')
    page.wait_for_selector("text=White to roll")
    page.click("button[value=undo]")
    page.wait_for_selector("text=Black plays 62")  # the play taken back, the dice kept
    page.fill("input[name=play]", "24/18 13/11")
    page.click("button[value=play]")
    page.click("button[value=double]")
    page.click("button[value=drop]")
    page.click(".confirm button[value=drop]")  # asked again first
    page.screenshot(path=str(ARTIFACTS / "record-page.png"), full_page=True)
    page.click(f"text={shown('Save the game to the archive')}")
    page.click(f"text={shown('The game in the archive')}")
    assert "Clicker" in page.inner_text("h1") and "W+1" in page.inner_text("h1")
    assert "24/18 13/11" in page.inner_text(".moves")
    page.goto(f"{base}/?player=clicker")
    assert "Typist" in page.inner_text("table.games")


def test_focus_stays_on_the_step_link_without_reload(server, page):
    base, game_id = server
    page.goto(f"{base}/game/{game_id}?ply=0")
    page.focus('.steps a[rel="next"]')
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/game/{game_id}?ply=1")
    page.locator("figure.board figcaption", has_text="Ply 1 of 4").wait_for()
    assert page.evaluate("document.activeElement.getAttribute('rel')") == "next"
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/game/{game_id}?ply=2")


# The demo archive: every page at three sizes, the layout, the keys.
SIZES = {"1280": (1280, 900), "768": (768, 1024), "390": (390, 844)}


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    """The viewer on the demo archive (every sample), on a werkzeug server thread."""
    from webviewer.demo import build_demo

    path = tmp_path_factory.mktemp("demo") / "demo.db"
    build_demo(path)
    db = archive.open_archive(path)
    ids = {row[0]: row[1] for row in db.execute(
        "SELECT source_file, min(id) FROM games GROUP BY source_file")}
    db.close()
    backgammon = next(i for name, i in ids.items() if name.endswith("backgammon/annotated-game.jqn"))
    with serving(create_app({"ARCHIVE": str(path), "WTF_CSRF_ENABLED": False})) as base:
        yield base, backgammon


@pytest.fixture(scope="module")
def browser(page):
    """The browser of ``page`` (one playwright per module), for pages of other sizes."""
    return page.context.browser


def sized(browser, size: str):
    width, height = SIZES[size]
    return browser.new_page(viewport={"width": width, "height": height})


def pages_of(base: str, backgammon: int) -> dict[str, str]:
    return {"list": "/", "game": f"/game/{backgammon}?ply=20", "game-end": f"/game/{backgammon}",
            "position": None, "player": "/player/Random%20White", "validate": "/validate"}


@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_scrolls_sideways_and_each_is_photographed(demo_server, browser, size):
    base, backgammon = demo_server
    page = sized(browser, size)
    ARTIFACTS.mkdir(exist_ok=True)
    paths = pages_of(base, backgammon)
    page.goto(base + paths["game"])
    paths["position"] = page.get_attribute("a.position", "href")
    for name, path in paths.items():
        page.goto(base + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], (name, size)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=True)
    page.goto(base + "/validate")
    page.fill("#record", "1. 55: 24/14 66: 24/18 *\n")
    page.click("form.validate button[type=submit]")
    page.locator(".verdict").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], ("validated", size)
    page.screenshot(path=str(ARTIFACTS / f"validated-{size}.png"), full_page=True)
    page.close()


def test_the_board_and_the_move_list_side_by_side_wide_and_stacked_narrow(demo_server, browser):
    base, backgammon = demo_server
    wide = sized(browser, "1280")
    wide.goto(f"{base}/game/{backgammon}?ply=20")
    board, moves = wide.locator("figure.board").bounding_box(), wide.locator(".movelist").bounding_box()
    assert moves["x"] >= board["x"] + board["width"] and moves["y"] < board["y"] + board["height"]
    narrow = sized(browser, "390")
    narrow.goto(f"{base}/game/{backgammon}?ply=20")
    board, moves = narrow.locator("figure.board").bounding_box(), narrow.locator(".movelist").bounding_box()
    assert moves["y"] >= board["y"] + board["height"]
    assert board["width"] >= 370  # the board fills the width
    wide.close()
    narrow.close()


def test_a_burst_of_30_presses_reaches_ply_30(demo_server, browser):
    base, backgammon = demo_server
    page = sized(browser, "1280")
    page.goto(f"{base}/game/{backgammon}?ply=0")
    for _ in range(30):
        page.keyboard.press("ArrowRight", delay=0)
    page.wait_for_url(f"**/game/{backgammon}?ply=30")
    assert "Ply 30 of 62" in page.inner_text("figure.board figcaption")
    current = page.locator('.movelist [aria-current="true"]')
    assert current.get_attribute("data-node") is not None
    inside = page.evaluate("""() => {
        const list = document.querySelector('.movelist').getBoundingClientRect();
        const turn = document.querySelector('.movelist [aria-current="true"]').getBoundingClientRect();
        return turn.top >= list.top && turn.bottom <= list.bottom; }""")
    assert inside  # kept in view inside the list's own box
    assert page.evaluate("window.scrollY") == 0  # the page itself did not scroll
    page.close()


def test_the_keys_work_after_autoplay_and_wherever_the_focus_is(demo_server, browser):
    base, backgammon = demo_server
    page = sized(browser, "1280")
    page.goto(f"{base}/game/{backgammon}?ply=10")
    page.click("button.autoplay")
    page.wait_for_url(f"**/game/{backgammon}?ply=11", timeout=PATIENCE_MS)
    page.click("button.autoplay")  # stopped; the focus stays on the button
    page.locator('button.autoplay[aria-pressed="false"]').wait_for()
    shown = int(page.url.rsplit("=", 1)[1])
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/game/{backgammon}?ply={shown + 1}")
    page.focus("a.position")
    page.keyboard.press("Home")
    page.wait_for_url(f"**/game/{backgammon}?ply=0")
    page.keyboard.press("End")
    page.wait_for_url(f"**/game/{backgammon}?ply=62")
    page.keyboard.press("f")  # flips the board: a page of its own
    page.wait_for_url("**flip=1**")
    assert '<g class="cube" data-value="2" data-owner="bottom">' in page.content()
    page.close()


def test_the_caption_and_the_result_at_the_last_ply(demo_server, browser):
    base, backgammon = demo_server
    page = sized(browser, "1280")
    page.goto(f"{base}/game/{backgammon}?ply=60")
    page.keyboard.press("End")
    caption = page.locator("figure.board figcaption")
    caption.filter(has_text="Ply 62 of 62").wait_for()
    assert say("caption.won.bear-off", winner=say("colour.white"), count=4) in caption.inner_text()
    assert "to play" not in caption.inner_text()
    assert page.get_attribute("g.cube", "data-value") == "2"
    page.keyboard.press("ArrowLeft")
    assert "to play" in caption.inner_text()
    page.close()


def test_the_numbers_follow_the_player_on_roll_as_the_script_steps(demo_server, browser):
    base, backgammon = demo_server
    page = sized(browser, "1280")
    page.goto(f"{base}/game/{backgammon}?ply=1")
    page.click("a.numbers")
    page.wait_for_url("**numbers=roll**")
    label = 'svg.jacquet-board g.column[data-point="1"] text >> nth=0'
    assert page.text_content(label) == "1"  # White on roll: White's numbers
    page.keyboard.press("ArrowRight")  # Black on roll
    page.wait_for_url("**ply=2&numbers=roll")
    assert page.text_content(label) == "24"
    page.close()


def test_a_click_on_the_chart_or_the_move_list_steps_without_a_reload(demo_server, browser):
    base, backgammon = demo_server
    page = sized(browser, "1280")
    page.goto(f"{base}/game/{backgammon}?ply=0")
    page.evaluate("window.sameDocument = true")
    page.click(".pip-chart a >> nth=40", force=True)
    page.wait_for_url(f"**/game/{backgammon}?ply=40")
    assert "Ply 40 of 62" in page.inner_text("figure.board figcaption")
    assert page.locator('.pip-chart rect.band[fill="#2f7de1"]').count() == 1
    page.click('.movelist a.move[data-node] >> text="55: 8/3(2) 6/1* 6/1"')
    page.wait_for_url(f"**/game/{backgammon}?ply=2")
    assert page.evaluate("window.sameDocument") is True
    page.close()
