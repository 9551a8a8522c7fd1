"""lichess's arrow on every move (issue 37): on every ply of an analysed game the game page
draws the next turn's best play, as stored, in the engine's dashed violet arrows (apart
from the last play's blue outline and the orange of a play looked at), named in the board's
key, on the server's board and on every board the script steps through; a button (shown by
viewer.js) hides them. Real games analysed by the shipped nets (tests/report_fixtures.py)."""

from __future__ import annotations

import html
import json
import re

import pytest

import archive
from archive.analyses import latest_analysis
from notation import Position
from notation.engine.checker import check_play
from notation.engine.rules import rule_set
from notation.render.arrows import ARROW, BEST
from notation.render.svg import STYLE
from tests.report_fixtures import analysed_archive


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    path = tmp_path_factory.mktemp("next-best") / "analysed.db"
    ids = analysed_archive(path)
    with archive.open_archive(path, readonly=True) as db:
        analysis = latest_analysis(db, ids["jacquet"])
        before = dict(db.execute("SELECT ply, position_before FROM turns WHERE game_id = ?", [ids["jacquet"]]))
    return path, ids["jacquet"], analysis, before


@pytest.fixture
def archive_path(analysed):
    return analysed[0]


def best_group(svg: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The best play's arrows on a board (drawn over the rest, last): the title of their
    group and each step's (from, to)."""
    start = svg.find('<g class="arrows best"')
    if start < 0:
        return None
    group = svg[start:]
    title = re.match(r'<g class="arrows best"[^>]*><title>([^<]*)</title>', group)
    assert title, group[:200]
    return html.unescape(title.group(1)), re.findall(r'data-from="(\d+)" data-to="(\d+)"', group)


def expected(analysis, before, ply: int) -> tuple[str, list[tuple[str, str]]]:
    """The stored best play of the turn after ``ply`` and its steps, as the rules engine reads it."""
    turn = analysis["turns"][ply + 1]
    play = check_play(Position.from_id(before[ply + 1]), turn["dice"], turn["best"], rule_set("jacquet"))
    return turn["best"], [(str(s.from_point), str(s.to_point)) for s in play.steps]


def board_of(page: str) -> str:
    return re.search(r'<figure class="board">.*?</svg>', page, re.S).group(0)


def test_every_ply_shows_the_next_turns_best_play_as_arrows(client, analysed):
    _, game, analysis, before = analysed
    plies = sorted(analysis["turns"])
    for ply in (0, plies[len(plies) // 2] - 1, plies[-1] - 1):
        page = client.get(f"/game/{game}?ply={ply}").text
        assert best_group(board_of(page)) == expected(analysis, before, ply), ply
        assert f'stroke="{BEST}"' in board_of(page) and 'stroke-dasharray="12 7"' in board_of(page)
    end = client.get(f"/game/{game}").text  # the end: no turn to come
    assert best_group(board_of(end)) is None


def test_the_key_names_the_arrows_apart_from_the_last_play_and_a_button_hides_them(client, analysed):
    _, game, _, _ = analysed
    page = html.unescape(client.get(f"/game/{game}?ply=4").text)
    key = re.search(r'<p class="board-key">.*?</p>', page, re.S).group(0)
    assert "the engine's best play of the roll to play, as dashed arrows" in key
    assert f'stroke="{BEST}"' in key and f'stroke="{STYLE["mark"]}"' in key
    assert len({BEST, ARROW, STYLE["mark"], STYLE["ring"], STYLE["head"]}) == 5  # each mark its colour
    button = re.search(r'<button type="button" class="hide-arrows" hidden[^>]*>([^<]*)</button>', page)
    assert button and button.group(1) == "Hide the arrows" and 'data-show="Show the arrows"' in button.group(0)


def test_the_boards_the_script_steps_through_carry_the_same_arrows(client, analysed):
    _, game, analysis, before = analysed
    page = client.get(f"/game/{game}?ply=0").text
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', page, re.S).group(1)
                      .replace("<\\/", "</").replace("\\u0026", "&"))
    main = [node for node in data["nodes"] if node["main"] is None]
    last = max(node["ply"] for node in main)
    for node in main:
        svg = "".join(data["pieces"][piece] for piece in node["board"]) + "</svg>"
        if node["ply"] + 1 in analysis["turns"]:
            assert best_group(svg) == expected(analysis, before, node["ply"]), node["ply"]
        else:
            assert best_group(svg) is None, node["ply"]
    assert best_group("".join(data["pieces"][p] for p in main[-1]["board"])) is None and main[-1]["ply"] == last


def test_a_play_looked_at_replaces_them(client, analysed):
    _, game, analysis, _ = analysed
    turn = next(t for t in analysis["turns"].values() if t["rank"] != 1 and t["played"] != t["best"])
    for address in (f"ply={turn['ply']}&best=1", f"ply={turn['ply']}&show={turn['candidates'][1]['play']}"):
        svg = board_of(client.get(f"/game/{game}?{address}").text)
        assert best_group(svg) is None and f'stroke="{ARROW}"' in svg, address


def test_a_game_without_analysis_has_no_arrows_nor_button(client, analysed):
    path, _, _, _ = analysed
    with archive.open_archive(path, readonly=True) as db:
        plain = db.execute("SELECT id FROM games WHERE id NOT IN (SELECT game_id FROM analyses)").fetchone()[0]
    page = client.get(f"/game/{plain}?ply=2").text
    assert 'class="arrows' not in page and "hide-arrows" not in page
