"""The analysis board and the board editor without JavaScript (issue 37, "New"), through
Flask's test client: the position page's candidates are links drawing the board after each
(its steps as arrows, the position the rules engine leaves), the best play as arrows on a
ranked position; the game page's candidates the same on an analysed turn (``show=``), and
``best=1`` with its arrows; the board editor builds positions man by man as the rules
count them (Black's points in his own numbering, the bar only where the rule set has one,
fifteen men a side), refuses what ``check_position`` refuses in the page's language, and
leads to the position page to rank a roll."""

from __future__ import annotations

import re
from html import unescape

import pytest
from click.testing import CliRunner

from archive import import_files, open_archive
from jacquet_cli import main
from notation import NotationError, Position, legal_plays, rule_set
from notation.engine.board import MEN
from notation.engine.state import Colour
from notation.formats import read_file, write_file
from notation.messages import Message, render
from tests.viewer_helpers import viewer_app

MIDGAME = Position.from_points({6: 3, 10: 3, 13: 3, 18: 3, 24: 3}, {24: 5, 19: 5, 16: 5})
"""A jacquet position past the courier (61: 6 plays), seen by the player on roll."""


@pytest.fixture(scope="module")
def archive_path(tmp_path_factory) -> str:
    """One generated jacquet game, analysed at 0-ply by ``jacquet analyse --db``."""
    folder = tmp_path_factory.mktemp("board")
    record = folder / "one.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[:1], record)
    path = folder / "club.db"
    with open_archive(path) as db:
        import_files(db, [str(record)])
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.fixture(scope="module")
def app(archive_path):
    return viewer_app(archive_path, WORKERS=0)


def text_of(client, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (path, response.text[:300])
    return response.get_data(as_text=True)


def arrows_of(page: str) -> list[tuple[int, int]]:
    """The (from, to) of each arrow on the page's board."""
    return [(int(a), int(b)) for a, b in re.findall(r'<g class="arrow" data-from="(\d+)" data-to="(\d+)">', page)]


def men_of(page: str) -> dict[int, int]:
    """White's point -> men drawn on it (either colour), from the board's groups."""
    counts = {}
    for point, body in re.findall(r'<g class="column" data-point="(\d+)">(.*?)</g>', page, re.S):
        men = len(re.findall(r'<circle class="man"', body))
        label = re.search(r'font-weight="bold"[^>]*>(\d+)</text>', body)
        counts[int(point)] = int(label.group(1)) if label else men
    return {point: men for point, men in counts.items() if men}


def test_a_ranked_position_shows_the_best_play_as_arrows_and_each_candidate_as_a_link(client):
    position_id = MIDGAME.position_id()
    page = text_of(client, f"/position/{position_id}?variant=jacquet&player=W&dice=61")
    links = re.findall(r'<td class="play"><a href="([^"]+)" data-board="([^"]+)">([^<]+)</a>', page)
    plays = {play.notation: play for play in legal_plays(MIDGAME, "61", rule_set("jacquet"))}
    assert sorted(unescape(text) for _, _, text in links) == sorted(plays)
    best = plays[unescape(links[0][2])]
    assert arrows_of(page) == [(step.from_point, step.to_point) for step in best.steps]
    assert 'class="key-arrows"' in page
    # a candidate's link: the board after it, its steps as arrows, the row marked
    href, _, text = links[-1]
    after = text_of(client, unescape(href))
    shown = plays[unescape(text)]
    assert arrows_of(after) == [(step.from_point, step.to_point) for step in shown.steps]
    assert re.search(r'aria-current="true">' + re.escape(text) + "</a>", after)
    assert f"The board after {unescape(text)}" in unescape(after)
    men = men_of(after)
    white_after = shown.result  # White moved: his points are White's numbers
    for point in range(1, 25):
        black = MIDGAME.opponent[rule_set("jacquet").opposite[point]]
        assert men.get(point, 0) == white_after.mover[point] + black, point


def test_the_fragment_draws_the_same_board_and_refuses_a_play_not_of_the_roll(client):
    position_id = MIDGAME.position_id()
    page = text_of(client, f"/position/{position_id}?variant=jacquet&player=W&dice=61")
    _, fragment, text = re.findall(r'<td class="play"><a href="([^"]+)" data-board="([^"]+)">([^<]+)</a>', page)[1]
    answer = client.get(unescape(fragment)).get_json()
    assert answer["play"] == unescape(text)
    assert arrows_of(answer["svg"]) == arrows_of(text_of(client, unescape(fragment).replace("/position-board/", "/position/")))
    refused = client.get(f"/position-board/{position_id}?variant=jacquet&player=W&dice=61&show=24/14")
    assert refused.status_code == 400
    doublet = legal_plays(MIDGAME, "33", rule_set("jacquet"))[-1]  # a doublet's plays: in the worker pool
    answer = client.get(f"/position-board/{position_id}?variant=jacquet&player=W&dice=33&show={doublet.notation}")
    assert arrows_of(answer.get_json()["svg"]) == [(step.from_point, step.to_point) for step in doublet.steps]


@pytest.fixture(scope="module")
def judged(archive_path) -> tuple[int, dict]:
    """The game's id and a judged turn whose play was not the best, with three candidates
    or more."""
    from archive.analyses import latest_analysis

    with open_archive(archive_path) as db:
        game_id = db.execute("SELECT min(id) FROM games").fetchone()[0]
        analysis = latest_analysis(db, game_id)
    turn = next(t for t in analysis["turns"].values()
                if not t["forced"] and t["rank"] != 1 and len(t["candidates"]) > 2)
    return game_id, turn


def test_the_game_pages_candidates_draw_the_board_after_each_with_arrows(client, judged):
    game_id, turn = judged
    page = text_of(client, f"/game/{game_id}?ply={turn['ply']}")
    links = {unescape(text): unescape(href) for href, text in
             re.findall(r'<a href="([^"]+)" class="show-play">([^<]+)</a>', page)}
    assert sorted(links) == sorted(c["play"] for c in turn["candidates"])
    other = next(c["play"] for c in turn["candidates"] if c["play"] not in (turn["best"], turn["played"]))
    after = text_of(client, links[other])
    assert re.search(r'class="show-play" aria-current="page">' + re.escape(other), unescape(after))
    before = text_of(client, f"/game/{game_id}?ply={turn['ply'] - 1}")
    position_id = unescape(re.search(r'<a class="position" href="[^"]+">([^<]+)</a>', before).group(1))
    play = next(p for p in legal_plays(Position.from_id(position_id), turn["dice"], rule_set("jacquet"))
                if p.notation == other)
    assert arrows_of(after) == [(step.from_point, step.to_point) for step in play.steps]
    caption = re.search(r'<span class="said">([^<]*)</span>', after).group(1)
    assert other in unescape(caption) and turn["played"] in unescape(caption)
    assert 'class="back"' in after  # back to the play made
    best = text_of(client, f"/game/{game_id}?ply={turn['ply']}&best=1")
    assert arrows_of(best)
    assert 'class="key-arrows"' in page
    assert '<g class="arrows" ' not in page  # the play made: no arrows, its points outlined
    assert '<g class="arrows best" ' in page  # (the next turn's best play: tests/test_viewer_next_best.py)


def test_the_editor_builds_a_position_man_by_man(client):
    cleared = client.get("/board-editor?variant=jacquet&player=W&do=clear")
    assert cleared.status_code == 303
    empty = re.search(r"id=([^&]+)", cleared.location).group(1)
    assert Position.from_id(empty) == Position.from_points({}, {})
    state = empty
    for point, side in (("6", "W"), ("6", "W"), ("12", "B"), ("1", "B")):
        answer = client.get(f"/board-editor/board?variant=jacquet&player=W&id={state}&do=add&point={point}&side={side}")
        assert answer.get_json()["error"] is None
        state = answer.get_json()["id"]
    assert answer.get_json()["pips"] == "Pips: White 12, Black 37."  # 6+6; 24+13 in his numbers
    built = Position.from_id(state)
    # White's 12 is Black's 24 (his talon), White's 1 his 13 (rules digest: p+12)
    assert built == Position.from_points({6: 2}, {24: 1, 13: 1})
    # a man removed goes off; the page of Black on roll shows the same board, seen by him
    # a man removed is one of those on the point, whatever the colour chosen for adding
    removed = client.get(f"/board-editor/board?variant=jacquet&player=W&id={state}&do=remove&point=6&side=B").get_json()
    assert Position.from_id(removed["id"]) == Position.from_points({6: 1}, {24: 1, 13: 1})
    as_black = client.get(f"/board-editor/board?variant=jacquet&player=B&seen=W&id={removed['id']}").get_json()
    assert Position.from_id(as_black["id"]) == Position.from_points({24: 1, 13: 1}, {6: 1})
    assert f"/position/{as_black['id']}" in as_black["position"] and "player=B" in as_black["position"]


def test_the_editor_refuses_what_the_rules_refuse_in_the_pages_language(client):
    start = rule_set("jacquet").start.position_id()
    shared = client.get(f"/board-editor?variant=jacquet&player=W&id={start}&do=remove&point=24&side=W")
    state = re.search(r"id=([^&]+)", shared.location).group(1)
    # White's 12 holds Black's talon: a White man there shares the point
    refused = client.get(f"/board-editor?variant=jacquet&player=W&id={state}&do=add&point=12&side=W",
                         headers={"Accept-Language": "fr"})
    assert refused.status_code == 400
    assert "les deux camps ont des dames sur une même flèche (la 12 du joueur au trait)" in unescape(refused.text)
    full = client.get(f"/board-editor/board?variant=jacquet&player=W&id={start}&do=add&point=6&side=W").get_json()
    assert full["error"] == render(Message.of("position.none-off", side=Colour.WHITE.named, most=MEN), "en")
    assert full["id"] == start
    assert client.get(f"/board-editor?variant=jacquet&id={start}&do=add&point=bar").status_code == 400
    bar = client.get("/board-editor/board?variant=backgammon&player=W&do=clear").get_json()
    entered = client.get(f"/board-editor/board?variant=backgammon&player=W&id={bar['id']}&do=add&point=bar&side=B")
    assert Position.from_id(entered.get_json()["id"]).opponent[25] == 1
    typed = client.get("/board-editor?variant=jacquet&id=nonsense")
    assert typed.status_code == 400 and 'id="editor-error"' in typed.text


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_a_rule_set_the_viewer_does_not_know_is_refused_in_the_pages_language(client, language):
    with pytest.raises(NotationError) as refusal:
        rule_set("tric-trac")
    reason = render(refusal.value.msg, language)
    assert reason != render(refusal.value.msg, "en")
    start = rule_set("jacquet").start.position_id()
    for address in ("/board-editor?variant=tric-trac", "/board-editor/board?variant=tric-trac",
                    f"/position/{start}?variant=tric-trac",
                    f"/position-board/{start}?variant=tric-trac&dice=61&show=24/17"):
        refused = client.get(address, headers={"Accept-Language": language})
        assert refused.status_code == 400, address
        assert reason in unescape(refused.get_data(as_text=True)), address


def test_the_editor_leads_to_ranking_a_roll_and_back(client):
    page = text_of(client, f"/board-editor?variant=jacquet&player=W&id={MIDGAME.position_id()}")
    rank = re.search(r'<form method="get" action="([^"]+)" class="analysis-board" id="editor-rank">', page).group(1)
    assert rank == f"/position/{MIDGAME.position_id()}"
    ranked = text_of(client, f"{rank}?variant=jacquet&player=W&dice=61")
    assert ranked.count('class="play"><a ') == len(legal_plays(MIDGAME, "61", rule_set("jacquet")))
    edit = re.search(r'<p class="edit-link"><a href="([^"]+)"', ranked).group(1)
    assert text_of(client, unescape(edit)).count(MIDGAME.position_id()) >= 1
