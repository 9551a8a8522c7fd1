"""Playing the engine (``/play/``) at ``narde`` and at ``fevga`` in a real browser on a
tablet (issue 32): the rule set chosen in the start form, the engine's net answering at
0-ply, the server's dice shown, the first turn's steps offered as the rules digest gives
them (one man off the head, a step of each die, onto any point the opponent does not hold),
an illegal play refused with its rule's id and the legal plays, then some turns played by
clicking the board, the engine answering each.

Chromium and playwright as in :mod:`tests.test_viewer_browser` (skipped where missing,
except in CI)."""

import re

import pytest

from analysis.shipped import load_net
from notation.messages import Message, render
from tests.browser_helpers import playwright_or_skip, press, served_viewer
from tests.relatives_browser import drawn_men
from tests.viewer_helpers import shown, shown_pattern

playwright_or_skip()

MY_TURNS = 4
"""How many of the player's turns each game lasts."""
FIRST_TURN_RULE = {"narde": "R-HEAD", "fevga": "R-RUNNER"}
"""The rule a second man off the head breaks in the player's first turn (rules digest §9, §10)."""


def engine_answered(page) -> bool:
    """Whether the panel says the engine's answer: its play, or that its roll (the server's
    dice) could not be played."""
    text = page.inner_text(".panel .engine-play")
    could_not = re.escape(render(Message.of("caption.rolled.none", player="\x00", dice="\x01"), "en"))
    could_not = could_not.replace("\x00", "(?:Black|White)").replace("\x01", "[1-6]{2}")
    return bool(shown_pattern("The engine played %(plays)s.", plays=".+").search(text)
                or re.search(could_not, text))


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The viewer over an empty archive, the engine in the request's thread (``page``, a
    tablet's: tests/conftest.py)."""
    with served_viewer(tmp_path_factory.mktemp("play-relatives"), WORKERS=0) as base:
        yield base


def status(page) -> str:
    return page.inner_text(".panel .status")


def record_turns(page) -> int:
    """How many turns the record shown on the page holds."""
    moves = page.inner_text("pre.record").split("\n\n")[-1]
    return len(re.findall(r"\b[1-6][1-6]: ", moves))


def roll(page) -> tuple[int, int] | None:
    """Roll the server's dice; the dice shown, or ``None`` when they gave no legal play (the
    turn is then over at once, and the engine has answered)."""
    press(page, '.panel button[value="roll"]')
    if page.locator(".dice-shown").count() == 0:
        assert shown("Your turn: roll.") in status(page), status(page)
        return None
    dice = [int(die) for die in page.inner_text(".dice-shown").split()]
    assert re.match(rf"White plays {dice[0]}{dice[1]}\. \d+ legal plays?\.", status(page)), status(page)
    return dice[0], dice[1]


def illegal_second_man_off_the_head(dice: tuple[int, int]) -> str:
    """A first-turn play that takes one man too many off the head: two men with two dice,
    three with a doublet (two may leave narde's head with some first-turn doublets)."""
    high, low = max(dice), min(dice)
    if high == low:
        return f"24/{24 - high}(3)"
    return f"24/{24 - high} 24/{24 - low}"


def click_first_step(page) -> None:
    """Play the first step offered by clicking the board: its man's point, then its target."""
    button = page.locator(".steps-offered button").first
    source, target = button.get_attribute("data-from-white"), button.get_attribute("data-to-white")
    page.click(f'.recorder-board g[data-point="{source}"]')
    with page.expect_navigation():
        page.click(f'.recorder-board g[data-point="{target}"]')


@pytest.mark.parametrize("variant", ["narde", "fevga"])
def test_some_turns_against_the_engine(base, page, variant):
    page.goto(f"{base}/play/")
    page.select_option('select[name="variant"]', variant)
    page.check('input[name="side"][value="White"]')
    page.check('input[name="strength"][value="0"]')
    press(page, f"text={shown('Start the game')}")
    assert re.fullmatch(rf"You \(White\) against {re.escape(load_net(variant).name)}, 0-ply\s*{variant}",
                        page.inner_text("h1")), page.inner_text("h1")
    assert f'[Variant "{variant}"]' in page.inner_text("pre.record")
    engine_first = record_turns(page)  # the engine plays at once if the lead roll is its
    assert engine_first in (0, 1)

    # my first turn with a legal play (after fevga's 5-5 played 24/9 24/19, onto my 21 and
    # 7, my 3-3 has none): all my men still on the head, as in the first turn; the play
    # refused for the head's rule, or, with a die whose point Black holds, for R-OPEN
    passed = 0
    while (dice := roll(page)) is None:
        passed += 1
    black = drawn_men(page, ".recorder-board")["Black"]
    # the first turn: only steps off the head, one for each die, onto points Black does not hold
    offered = set(page.locator(".steps-offered button").all_inner_texts())
    assert offered == {f"24/{24 - die} ({die})" for die in dice if (24 - die) not in black}
    play = illegal_second_man_off_the_head(dice)
    page.fill("#play-input", play)
    press(page, 'button[value="play"]')
    note = page.inner_text("#note-play")
    if offered == {f"24/{24 - die} ({die})" for die in dice}:
        assert note.startswith(f"Refused: [{FIRST_TURN_RULE[variant]}] "), note
        assert "second man off the head" in note or "third man off the head" in note
    else:
        assert note.startswith("Refused: [R-OPEN] "), note
    assert re.search(r"Legal plays: 24/\d+", note), note
    assert page.input_value("#play-input") == play
    assert record_turns(page) == engine_first + 2 * passed  # nothing of it kept

    for mine in range(passed + 1, passed + MY_TURNS + 1):
        if mine > passed + 1:
            assert engine_answered(page)
            if roll(page) is None:  # no legal play: the turn and the engine's are recorded
                assert record_turns(page) == engine_first + 2 * mine
                continue
        while page.locator(".steps-offered button").count():
            click_first_step(page)
        assert record_turns(page) == engine_first + 2 * mine  # mine, and the engine's answer
    assert shown("Your turn: roll.") in status(page)
