"""The engine's analysis on the game page (issue 24, viewer part 1), through Flask's test
client, on a small archive of generated jacquet games analysed by `jacquet analyse --db`
with the shipped net: the evaluation graph's links, the candidates of a ply as stored, the
best play drawn as the rules engine makes it, the marks of the move list, the players'
summaries; a scorer's request analyses a game, a visitor's is refused; a game without
analysis says so."""

from __future__ import annotations

import re
import sqlite3
from html import unescape

import pytest
from click.testing import CliRunner

from analysis.shipped import load_net
from archive import import_files, load_game, open_archive
from archive.analyses import latest_analysis
from jacquet_cli import main
from notation import Dice, legal_plays
from notation.formats import read_file, write_file
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import shown, shown_pattern, viewer_app
from webviewer.blueprints import games
from webviewer.pages.chart import MARK
from webviewer.plumbing.workers import Busy, OverBudget

ENGINE = load_net("jacquet").name
"""The shipped jacquet engine's name (its contact and race nets': it changes with them)."""
ANALYSED = 2
"""Games analysed by the fixture (a third is left without analysis)."""


@pytest.fixture(scope="module")
def archive_path(tmp_path_factory) -> str:
    """Three generated jacquet games, the first two analysed with the shipped net, their
    marks confirmed at 2-ply (the default's rollouts are tested in test_analysis_confirm
    and by the scorer's request below)."""
    folder = tmp_path_factory.mktemp("analysed")
    record = folder / "three.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[:ANALYSED + 1], record)
    path = folder / "club.db"
    with open_archive(path) as db:
        import_files(db, [str(record)])
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--confirm", "2ply"])
    assert result.exit_code == 0, result.output
    with open_archive(path) as db, db.conn:  # the third game's analysis removed: a game without one
        db.execute("DELETE FROM analyses WHERE game_id = ?", [ids[ANALYSED]])
    return str(path)


@pytest.fixture(scope="module")
def game_ids(archive_path) -> list[int]:
    db = sqlite3.connect(archive_path)
    try:
        return [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
    finally:
        db.close()


@pytest.fixture(scope="module")
def analysis(archive_path, game_ids) -> dict:
    with open_archive(archive_path) as db:
        found = latest_analysis(db, game_ids[0])
    assert found is not None
    return found


@pytest.fixture(scope="module")
def app(archive_path):
    """One viewer for the module (``client``, ``scorer``: tests/conftest.py); the tests that
    store an analysis make their own, over a copy of the archive."""
    return viewer_app(archive_path)


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.text[:500])
    return response.get_data(as_text=True)


def graph_of(text: str) -> str:
    return re.search(r'<svg[^>]*class="evaluation".*?</svg>', text, re.S).group(0)


def candidates_of(text: str) -> str:
    found = re.findall(r'<section class="candidates".*?</section>', text, re.S)
    assert len(found) == 1, "one candidates element"
    return found[0]


def judged_ply(analysis: dict, *, played_best: bool) -> dict:
    """An unforced turn whose play made was (or was not) the best."""
    return next(turn for turn in analysis["turns"].values()
                if not turn["forced"] and (turn["rank"] == 1) == played_best and len(turn["candidates"]) > 2)


def test_the_graph_links_every_ply_and_marks_the_current_one(client, game_ids, analysis):
    plies = len(analysis["turns"])  # every turn of a generated game is a roll, judged
    text = page(client, f"/game/{game_ids[0]}?ply=7")
    graph = graph_of(text)
    links = [int(n) for n in re.findall(r'href="/game/\d+\?ply=(\d+)"', graph)]
    assert links == list(range(plies + 1))
    bands = re.findall(r'<rect class="band"[^>]*fill="([^"]+)"', graph)
    assert [i for i, fill in enumerate(bands) if fill == MARK] == [7]
    assert f"{ENGINE}, 0-ply" in graph  # the engine named in the graph's title
    flipped = graph_of(page(client, f"/game/{game_ids[0]}?ply=7&flip=1"))
    assert f'href="/game/{game_ids[0]}?ply=3&amp;flip=1"' in flipped


def test_the_graph_follows_the_stored_winning_chances(client, game_ids, analysis):
    graph = graph_of(page(client, f"/game/{game_ids[0]}?ply=1"))
    turn = analysis["turns"][5]
    played = next(c for c in turn["candidates"] if c["play"] == turn["played"])
    white = played["probabilities"]["win"] if turn["player"] == "W" else 1 - played["probabilities"]["win"]
    assert f"<title>ply 5: White {white:.0%}" in graph


def test_the_candidates_of_a_ply_are_the_stored_rows(client, game_ids, analysis):
    turn = judged_ply(analysis, played_best=False)
    section = candidates_of(page(client, f"/game/{game_ids[0]}?ply={turn['ply']}"))
    rows = re.findall(r"<tr( class=\"played\"[^>]*)?><td>(\d+)</td><td><a [^>]*>([^<]+?)</a>(?: <span[^>]*>[^<]*</span>)?</td>"
                      r"<td>([^<]+)</td><td>([^<]+)</td>", section)
    stored = sorted(turn["candidates"], key=lambda c: c["rank"])
    assert [(int(r[1]), unescape(r[2]), float(r[3])) for r in rows] == [
        (c["rank"], c["play"], round(c["equity"], 3)) for c in stored]
    played = [unescape(r[2]) for r in rows if r[0]]
    assert played == [turn["played"]]
    losses = {unescape(r[2]): None if r[4] == "—" else float(r[4]) for r in rows}
    assert losses[turn["played"]] == round(turn["loss"], 3)  # the stored loss, as every page shows it
    best_depth = stored[0].get("depth")
    assert [c["play"] for c in stored if losses[c["play"]] is None] == [
        c["play"] for c in stored if c.get("depth") != best_depth]  # no loss across depths
    assert turn["level"] in section  # the level that decided the turn (a confirmed one: 1-ply)
    assert f"ply={turn['ply']}&amp;best=1" in section


def test_best_draws_the_position_the_rules_engine_gives(client, archive_path, game_ids, analysis):
    turn = judged_ply(analysis, played_best=False)
    ply = turn["ply"]
    with open_archive(archive_path) as db:
        game = load_game(db, game_ids[0])
    node = next(node for node in game.mainline() if node.ply == ply)
    before = node.parent.state
    best = next(play for play in legal_plays(before.position, Dice.parse(turn["dice"]), game.rules)
                if play.notation == turn["best"])
    expected = best.next_position.position_id()
    played = page(client, f"/game/{game_ids[0]}?ply={ply}")
    best_shown = page(client, f"/game/{game_ids[0]}?ply={ply}&best=1")
    position = re.compile(r'<a class="position" href="[^"]*">([^<]+)</a>')
    assert position.search(best_shown).group(1) == expected
    assert position.search(played).group(1) != expected
    assert shown_pattern("Best play (%(dice)s): %(play)s, instead of %(played)s.", dice=re.escape(turn["dice"]),
                         play=re.escape(turn["best"]), played=".+?").search(unescape(best_shown))
    assert f'class="best">{shown("show the play made")}</a>' in candidates_of(best_shown)


def test_marked_turns_carry_their_mark(client, game_ids, analysis):
    text = page(client, f"/game/{game_ids[0]}")
    marked = dict(re.findall(r'<a href="/game/\d+\?ply=(\d+)" class="move"[^>]*?data-mark="([^"]+)"', text))
    expected = {str(ply): turn["mark"] for ply, turn in analysis["turns"].items() if turn["mark"]}
    assert expected and set(expected.values()) <= {"?!", "?", "??"}
    assert {k: unescape(v) for k, v in marked.items()} == expected
    titles = re.findall(r'class="move"[^>]*?data-mark="([^"]+)" title="([^"]+)"', text)
    assert len(titles) == len(expected)
    confirmed = f", marks confirmed at {analysis['confirm']}" if analysis["confirm"] else ""  # (the level's label)
    words = {"?!": shown("doubtful play"), "?": shown("bad play"), "??": shown("very bad play")}
    assert all(title == f"{words[unescape(mark)]} ({ENGINE}, 0-ply{confirmed})"
               for mark, title in titles)


def test_each_players_summary_is_shown(client, game_ids, analysis):
    text = page(client, f"/game/{game_ids[0]}?ply=3")
    summary = re.search(r'<section class="analysis-summary".*?</section>', text, re.S).group(0)
    assert f"{ENGINE}, 0-ply" in summary
    for colour, title in (("W", "White"), ("B", "Black")):
        p = analysis["players"][colour]
        row = re.search(rf'<th scope="row">{title}[^<]*</th>(.*?)</tr>', summary).group(1)
        cells = re.findall(r"<td>([^<]+)</td>", row)
        assert cells[:5] == [f"{p['error_rate']:.1f}", str(p["decisions"]), str(p["doubtful"]),
                             str(p["bad"]), str(p["very_bad"])]
        assert cells[5] == f"{p['luck']:+.3f}" and cells[7] == f"{p['luck_adjusted']:+.3f}"


def test_a_game_without_analysis_says_so_to_visitors_without_a_button(client, game_ids):
    text = page(client, f"/game/{game_ids[ANALYSED]}")
    assert shown("No engine analysis of this game yet.") in text
    assert f"/game/{game_ids[ANALYSED]}/analyse" not in text
    assert 'class="evaluation"' not in text and 'class="candidates"' not in text


def test_a_visitors_request_is_refused_and_stores_nothing(client, archive_path, game_ids):
    token = re.search(r'name="csrf_token" value="([^"]+)"', page(client, "/validate")).group(1)
    answer = client.post(f"/game/{game_ids[ANALYSED]}/analyse", data={"csrf_token": token})
    assert answer.status_code == 401 and 'class="error" role="alert"' in answer.text  # the error page
    with open_archive(archive_path) as db:
        assert latest_analysis(db, game_ids[ANALYSED]) is None


@pytest.mark.parametrize("workers", [2, 0])
def test_a_scorers_request_stores_an_analysis_and_the_page_shows_it(tmp_path, archive_path, game_ids,
                                                                     make_app, workers):
    path = tmp_path / "copy.db"
    source, target = sqlite3.connect(archive_path), sqlite3.connect(path)
    source.backup(target)
    source.close()
    target.close()
    app = make_app(path, WORKERS=workers)
    scorer = signed_in_client(app)
    game = game_ids[ANALYSED]
    before = page(scorer, f"/game/{game}")  # the view is made (and kept) before the analysis
    assert "No engine analysis" in before
    token = re.search(rf'action="/game/{game}/analyse".*?name="csrf_token" value="([^"]+)"', before, re.S)
    answer = scorer.post(f"/game/{game}/analyse", data={"csrf_token": token.group(1)})
    assert answer.status_code == 303, answer.text[:300]
    with open_archive(path) as db:
        stored = latest_analysis(db, game)
    assert stored is not None and stored["engine"] == ENGINE and stored["depth"] == 0
    after = page(scorer, answer.headers["Location"])
    assert "No engine analysis" not in after
    assert 'class="evaluation"' in after and "analysis-summary" in after
    visitor = app.test_client()  # the kept parts of the visitors' page are the new analysis's
    assert 'class="evaluation"' in page(visitor, f"/game/{game}")


def test_a_request_without_its_csrf_token_is_refused(scorer, archive_path, game_ids):
    answer = scorer.post(f"/game/{game_ids[ANALYSED]}/analyse")
    assert answer.status_code == 400
    with open_archive(archive_path) as db:
        assert latest_analysis(db, game_ids[ANALYSED]) is None


@pytest.mark.parametrize(("refusal", "status", "said"), [
    (Busy(), 503, "try again"), (OverBudget("time", {"seconds": 10}), 413, "jacquet analyse --db")])
def test_a_busy_pool_or_a_job_over_its_time_stores_nothing(scorer, archive_path, game_ids, monkeypatch,
                                                           refusal, status, said):
    game = game_ids[ANALYSED]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page(scorer, f"/game/{game}")).group(1)

    def refused(*args):
        raise refusal

    monkeypatch.setattr(games, "run_work", refused)
    answer = scorer.post(f"/game/{game}/analyse", data={"csrf_token": token})
    assert answer.status_code == status and said in answer.text
    if status == 503:
        assert answer.headers["Retry-After"]
    with open_archive(archive_path) as db:
        assert latest_analysis(db, game) is None


def test_a_confirmation_over_its_time_gives_way_to_the_lighter_ones(tmp_path, archive_path, game_ids,
                                                                    monkeypatch):
    """The default confirmation refused for its time, the analysis is made with the marks
    confirmed at 1-ply, and stored saying so."""
    path = tmp_path / "copy.db"
    source, target = sqlite3.connect(archive_path), sqlite3.connect(path)
    source.backup(target)
    source.close()
    target.close()
    app = viewer_app(path, WORKERS=0, ANALYSIS_CONFIRM="2ply")
    scorer = signed_in_client(app, "Hurried scorer")
    game = game_ids[ANALYSED]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page(scorer, f"/game/{game}")).group(1)
    asked = []

    def hurried(function, archive, game_id, confirm):
        asked.append(confirm)
        if confirm == "2ply":
            raise OverBudget("time", {"seconds": 10})
        return function(archive, game_id, confirm)

    monkeypatch.setattr(games, "run_work", hurried)
    answer = scorer.post(f"/game/{game}/analyse", data={"csrf_token": token})
    assert answer.status_code == 303 and asked == ["2ply", "1ply"]
    with open_archive(path) as db:
        stored = latest_analysis(db, game)
    assert stored is not None and stored["confirm"] == "1-ply"


# -- live games: the watchers' evaluation, the scorer's choice ------------------------------------

def test_watchers_see_the_evaluation_only_when_the_scorer_turns_it_on(tmp_path, make_app):
    app = make_app(tmp_path / "live.db", WTF_CSRF_ENABLED=False, WORKERS=0)
    scorer = signed_in_client(app)
    started = scorer.post("/record/", data={"variant": "jacquet", "white": "Ann", "black": "Bob",
                                            "starter": "White"})
    at = started.headers["Location"]

    def send(action: str, **fields):
        version = re.search(r'name="version" value="(\d+)"', page(scorer, at)).group(1)
        answer = scorer.post(at, data={"version": version, "action": action, **fields})
        assert answer.status_code == 303, answer.text[:300]

    send("dice", dice="62")
    send("play", play="24/16")
    send("dice", dice="51")  # Black's dice thrown, his play to come
    watcher = app.test_client()
    assert "evaluation" not in page(watcher, at).lower()  # off by default
    assert "live-evaluation" not in page(watcher, f"{at}?evaluation=1")
    send("show-evaluation")
    offered = page(watcher, at)
    assert shown("Show the engine's evaluation (0-ply)") in offered and "equity" not in offered
    evaluated = page(watcher, f"{at}?evaluation=1")
    assert shown_pattern("%(player)s to act: equity %(equity)s before the roll (%(engine)s).", player=shown("Black"),
                         equity=r"[+-]\d\.\d{3}", engine=re.escape(f"{ENGINE}, 0-ply")
                         ).search(evaluated)
    plays = re.findall(r"<li>([^<]+) [+-]\d\.\d{3}</li>", evaluated)
    assert plays == ["24/18"]  # 51 in the courier phase: one man, the only legal play
    mine = page(scorer, f"{at}?evaluation=1")  # never on the scorer's own page
    assert "live-evaluation" not in mine and "equity" not in mine
    assert "Watchers see the engine's evaluation" in mine
    send("hide-evaluation")
    assert "live-evaluation" not in page(watcher, f"{at}?evaluation=1")
    assert watcher.post(at, data={"action": "show-evaluation", "version": "1"}).status_code == 401
