"""The game page and its neighbours as players expect them (issue 22), through Flask's test
client: the move list paired by move, the caption at the end of a game, the cube, the
numbers for the player on roll, the embedded stepping data, NAG symbols, the archive's
sort and pages, the position page's colours, the favicon, the validate page; and the
records' loose ends: the last position of a finished game as the loser sees it."""

import io
import json
import re
import sqlite3
import subprocess
import sys

import pytest

import archive
from archive.stats import opening_plays, player_results, results_per_player
from notation import rule_set
from notation.formats.jqn import GameBuilder, read_games
from notation.formats.json_format import game_to_dict
from notation.messages import say
from notation.render.diagram import diagram
from notation.render.svg import board
from tests.viewer_helpers import shown, shown_count, viewer_app
from webviewer.demo import build_demo, samples_folder

BACKGAMMON = samples_folder() / "backgammon" / "annotated-game.jqn"
WRONG_RESULT = ('[White "Liar"]\n[Black "Honest"]\n[Result "B+2"]\n\n'
                '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 B+2\n')


@pytest.fixture(scope="module")
def archive_path(tmp_path_factory):
    """The viewer's archive (``client``, ``make_app``: tests/conftest.py): the demo."""
    path = tmp_path_factory.mktemp("page") / "viewer.db"
    build_demo(path)
    return path


@pytest.fixture(scope="module")
def app(archive_path):
    """One viewer for the module, whose tests only read the demo."""
    return viewer_app(archive_path)


def game_id(archive_path, source: str) -> int:
    db = sqlite3.connect(archive_path)
    try:
        return db.execute("SELECT min(id) FROM games WHERE source_file LIKE ?", [f"%{source}"]).fetchone()[0]
    finally:
        db.close()


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def stepping(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="game-data">(.*?)</script>',
                                page, re.S).group(1))


def test_the_move_list_is_paired_by_move_with_the_current_turn_marked(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    page = page_of(client, f"/game/{backgammon}?ply=3")
    assert 'class="board"' in page and 'class="movelist' in page
    assert page.count('aria-current="true"') == 1
    current = re.search(r'<a href="[^"]*" class="move" aria-current="true"[^>]*>([^<]*)</a>', page)
    assert current.group(1) == "22: bar/21 13/9"  # Black's second move, 2... 22:
    # move 1 is Black's alone (Black started): White's half shows an ellipsis
    assert re.search(r'<span class="index">1</span><span class="half">…</span><span class="half"><a ', page)
    assert '<span class="index">3</span><span class="half"><a href="' in page
    assert '<span class="comment">A doublet gives four steps of 5' in page  # inline, in an aside


def test_the_last_ply_says_who_won_how_many_points_and_how(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    page = page_of(client, f"/game/{backgammon}")
    caption = re.search(r"<figcaption>(.*?)</figcaption>", page, re.S).group(1)
    assert say("caption.won.bear-off", winner=say("colour.white"), count=4) in caption
    assert not any(say("caption.to-play", player=say(side)) in caption for side in ("colour.white", "colour.black"))
    assert say("caption.rolled", player=say("colour.white"), dice="32", play="1/off(2)") in caption  # just played


def test_a_ply_past_the_end_is_the_end(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    end = page_of(client, f"/game/{backgammon}")
    assert page_of(client, f"/game/{backgammon}?ply=999") == end
    assert client.get(f"/game/{backgammon}?ply=-1").status_code == 400


def test_the_cube_is_drawn_with_its_value_and_owner(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    start = page_of(client, f"/game/{backgammon}?ply=0")
    assert re.search(r'<g class="cube" data-value="1" data-owner="middle">.*?>64</text></g>', start)
    end = page_of(client, f"/game/{backgammon}")  # White doubled, Black took: Black owns it at 2
    assert '<g class="cube" data-value="2" data-owner="top">' in end
    assert '<g class="cube" data-value="2" data-owner="bottom">' in page_of(client, f"/game/{backgammon}?flip=1")
    jacquet = game_id(archive_path, "jacquet/annotated-game.jqn")
    assert 'class="cube"' not in page_of(client, f"/game/{jacquet}")  # no cube in jacquet


def label_of_white_1(client, path: str) -> str:
    """The number the board of the page at ``path`` gives White's 1-point."""
    svg = re.search(r"<svg.*?</svg>", page_of(client, path), re.S).group(0)
    return re.search(r'data-point="1" points="[^"]*"[^>]*/><text[^>]*>(\d+)</text>', svg).group(1)


def test_the_points_are_numbered_as_the_play_shown_is_written(client, archive_path):
    """The caption, the move list and the candidates write a play in its player's numbers:
    so does the board, flipped or not; at the start, in the first player's."""
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    first = page_of(client, f"/game/{backgammon}?ply=1")
    assert say("caption.rolled", player=say("colour.black"), dice="61", play="24/23 8/2") in first  # his numbers
    for flip in ("", "&flip=1"):
        assert label_of_white_1(client, f"/game/{backgammon}?ply=1{flip}") == "24"  # Black's
        assert label_of_white_1(client, f"/game/{backgammon}?ply=2{flip}") == "1"  # White's reply
        assert label_of_white_1(client, f"/game/{backgammon}?ply=0{flip}") == "24"  # Black first


def test_the_points_can_be_numbered_for_the_player_on_roll(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    # after ply 1 (Black's opening 61) White is on roll; after ply 2 Black is
    assert label_of_white_1(client, f"/game/{backgammon}?ply=2&numbers=roll") == "24"
    assert label_of_white_1(client, f"/game/{backgammon}?ply=1&numbers=roll") == "1"
    page = page_of(client, f"/game/{backgammon}?ply=2&numbers=roll")
    assert f'href="/game/{backgammon}?ply=2"' in page  # the link back to the usual numbers
    assert shown("Number the points for the player whose turn is shown") in page


def test_every_node_is_in_the_page_for_the_script(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    page = page_of(client, f"/game/{backgammon}?ply=5")
    data = stepping(page)
    nodes = data["nodes"]
    assert nodes[0]["address"] == "ply=0" and nodes[0]["parent"] is None
    fifth = next(node for node in nodes if node["address"] == "ply=5")
    svg = re.search(r"<svg[^>]*>(.*?)</svg>", page, re.S).group(1)
    assert "".join(data["pieces"][piece] for piece in fifth["board"]) == svg  # the same board
    assert fifth["caption"] in page and fifth["where"] == "Ply 5 of 62"
    assert "</script" not in re.search(r'id="game-data">(.*?)</script>', page, re.S).group(1)


def test_nags_from_7_up_are_shown_as_symbols(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    page = page_of(client, f"/game/{backgammon}")
    assert f'<span class="nag" title="{shown("forced: the only legal play for the roll")}">□</span>' in page
    assert "$7" not in re.search(r'<div class="movelist.*?</div>\n<figure', page, re.S).group(0)


def test_the_archive_is_newest_first_and_the_error_samples_apart(client):
    page = page_of(client, "/")
    assert f'<option value="id" selected>{shown("Number")}</option>' in page  # the Sort menu shows the real sort
    assert 'name="desc" value="1" checked' in page
    assert "newest first" in page and 'class="invalid"' not in page  # the error samples: last page
    first_page = re.findall(r'<td data-label="Rule set">(jacquet|backgammon|murray|hale|versailles)</td>', page)
    assert set(first_page[:9]) == {"jacquet", "backgammon", "murray", "hale", "versailles"}
    last = page_of(client, "/?page=2")
    assert 'class="invalid"' in last


def test_search_keeps_the_chosen_sort_and_a_late_page_is_the_last(client):
    page = page_of(client, "/?sort=turns&desc=0&variant=")
    assert f'<option value="turns" selected>{shown("Turns")}</option>' in page
    assert 'name="desc" value="1" >' in page  # unchecked: ascending, as asked
    late = page_of(client, "/?page=99")
    pages = re.search(r"page (\d+) of (\d+)", late)
    assert pages and pages.group(1) == pages.group(2) and int(pages.group(2)) > 1
    assert late == page_of(client, f"/?page={pages.group(2)}")


def test_the_search_form_folds_away(client):
    assert '<details class="search-box">' in page_of(client, "/")
    assert '<details class="search-box" open>' in page_of(client, "/?player=Random")


def test_the_position_page_draws_the_player_on_roll_in_his_colour(client, archive_path):
    backgammon = game_id(archive_path, "backgammon/annotated-game.jqn")
    page = page_of(client, f"/game/{backgammon}?ply=2")  # Black on roll
    link = re.search(r'<a class="position" href="([^"]*)"', page).group(1).replace("&amp;", "&")
    assert link.endswith("&player=B")
    position = page_of(client, link)
    men = re.compile(r'<circle class="man" cx="(\d+)" cy="(\d+)" r="17" fill="([^"]+)"')
    game_board = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert sorted(men.findall(position)) == sorted(men.findall(game_board))  # same men, same colours
    assert "Black on roll" in position


def test_the_courier_ring_is_round_its_man_on_either_half():
    jacquet = rule_set("jacquet")
    [game] = list(read_games(io.BytesIO(b"1. 51: 24/18 31: 24/20 *\n"), GameBuilder))
    state = game.end().state  # White's courier on his 18 (top), Black's on his 20 (White's 8: bottom)
    svg = board(state.position, jacquet, white_to_move=state.player.value == "W")
    rings = re.findall(r'<circle class="courier" cx="(\d+)" cy="(\d+)"', svg)
    men = set(re.findall(r'<circle class="man" cx="(\d+)" cy="(\d+)"', svg))
    assert len(rings) == 2 and all(ring in men for ring in rings)
    assert len({cy for _, cy in rings}) == 2  # one on each half


def test_the_favicon_is_linked_and_served(client):
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page_of(client, "/")
    with client.get("/static/favicon.svg") as icon:
        assert icon.status_code == 200 and icon.data.startswith(b"<svg")


def test_validate_reports_junk_as_no_game_and_keeps_the_text(make_app):
    client = make_app(WTF_CSRF_ENABLED=False).test_client()
    junk = client.post("/validate", data={"record": "hello world", "format": "auto", "variant": "jacquet"})
    text = junk.get_data(as_text=True)
    no_game = shown("No game found in this record: it holds no tag and no turn that could be read.")
    assert no_game in text and shown_count("%(num)d game read", "%(num)d games read", 1) not in text
    wrong = "1. 55: 24/14 66: 24/18 *\n"  # jacquet: 55 plays four 5s, not 24/14
    page = client.post("/validate", data={"record": wrong, "format": "jqn", "variant": "jacquet"})
    text = page.get_data(as_text=True)
    assert '<textarea id="record" name="record" rows="12" spellcheck="false">' + wrong in text
    assert no_game not in text and shown_count("%(num)d game read", "%(num)d games read", 1) in text
    assert "1. 55: <mark>24/14</mark> 66: 24/18 *" in text  # the play marked, not the dice


def test_stats_count_only_games_stored_valid(tmp_path):
    db = archive.open_archive(tmp_path / "stats.db")
    archive.import_games(db, list(read_games(io.BytesIO(WRONG_RESULT.encode()), GameBuilder)),
                         keep_invalid=True)
    assert db.execute("SELECT valid FROM games").fetchone()[0] == 0
    assert results_per_player(db) == []
    assert opening_plays(db) == {}
    assert player_results(db, "Honest") == []


def test_the_json_export_and_show_give_the_last_position_as_the_next_player_sees_it(tmp_path):
    with BACKGAMMON.open("rb") as record:
        [game] = list(read_games(record, GameBuilder))
    last = game.end()
    expected = last.turn.play.as_json()["position"]  # what `jacquet legal --json` gives
    assert game_to_dict(game)["turns"][-1]["position"] == expected
    shown = subprocess.run([sys.executable, "-m", "jacquet_cli", "show", str(BACKGAMMON), "--format", "json"],
                           capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout)["position"] == expected
    text = subprocess.run([sys.executable, "-m", "jacquet_cli", "show", str(BACKGAMMON)],
                          capture_output=True, text=True, check=True).stdout
    won = say("caption.won.bear-off", winner=say("colour.white"), count=4).rstrip(".")  # not who is to play
    assert text.splitlines()[0] == say("cli.show.header", file=str(BACKGAMMON), game=1, ply=last.ply, doing=won,
                                       rules=rule_set("backgammon").describe(), position=expected)
    assert say("diagram.cube.owned", cube=2, owner="B") in text


def test_the_text_diagram_shows_the_cube_only_for_a_rule_set_with_one():
    backgammon, jacquet = rule_set("backgammon"), rule_set("jacquet")
    assert diagram(backgammon.start, backgammon).endswith(say("diagram.cube.middle", cube=1))
    assert "cube" not in diagram(jacquet.start, jacquet)


@pytest.mark.parametrize("record, where", [
    ('[Variant "versailles"]\n[Rethrow "yes"]\n\n1. 51: 24/18 *\n', "its Rethrow tag"),
    ('[Variant "versailles"]\n\n1. 51: 24/18 {rethrow: Black rethrows the 5} *\n', "comment at ply 1")])
def test_a_versailles_record_with_the_rethrow_clause_gets_a_warning(make_app, tmp_path, record, where):
    path = tmp_path / "rethrow.jqn"
    path.write_text(record, encoding="utf-8")
    checked = subprocess.run([sys.executable, "-m", "jacquet_cli", "validate", str(path)],
                             check=False, capture_output=True, text=True)
    assert checked.returncode == 0  # a warning, not an error
    assert "warning: [R-RETHROW]" in checked.stdout + checked.stderr and where in checked.stdout + checked.stderr
    client = make_app(WTF_CSRF_ENABLED=False).test_client()
    page = client.post("/validate", data={"record": record, "format": "jqn", "variant": "jacquet"}).get_data(as_text=True)
    assert "[R-RETHROW]" in page and "1 warning" in page
    plain = record.replace('"versailles"', '"jacquet"')
    assert "R-RETHROW" not in client.post("/validate", data={"record": plain, "format": "jqn"}).get_data(as_text=True)


def test_fevgas_runner_has_the_couriers_ring_and_nardes_head_none():
    record = b'[Variant "fevga"]\n\n1. 51: 24/18 31: 24/20 *\n'
    [game] = list(read_games(io.BytesIO(record), GameBuilder))
    state = game.end().state  # each side's runner off the head, neither past the other's head
    svg = board(state.position, rule_set("fevga"), white_to_move=state.player.value == "W")
    rings = re.findall(r'<circle class="runner" cx="(\d+)" cy="(\d+)"', svg)
    men = set(re.findall(r'<circle class="man" cx="(\d+)" cy="(\d+)"', svg))
    assert len(rings) == 2 and all(ring in men for ring in rings)
    narde = board(state.position, rule_set("narde"), white_to_move=True)
    assert 'class="runner"' not in narde and 'class="courier"' not in narde
