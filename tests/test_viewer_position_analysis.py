"""The position page as an analysis board (``/position/ID?dice=61``, ``&ply=1``) and the same
ranking in the JSON API (``/api/positions/ID?dice=61``): the plays in the engine's order
with its equities, the engine named, the list capped (``MAX_LEGAL_PLAYS``, truncated), a
roll that cannot be read refused with its reason, and the heavy work bounded by the worker
pool's time."""

from __future__ import annotations

import html
import re

import pytest

from analysis.ranking import Evaluator
from analysis.shipped import load_net
from notation import Dice, NotationError, Position, legal_plays, rule_set
from notation.messages import Message, render

MIDGAME = Position.from_points({6: 3, 10: 3, 13: 3, 18: 3, 24: 3}, {24: 5, 19: 5, 16: 5})
"""A jacquet position past the courier (61: 6 plays; 33: 42), seen by the player on roll."""


@pytest.fixture
def viewer_config():
    """The viewer of these tests (``client``, ``make_app``: tests/conftest.py, over an empty
    archive): the heavy work in the request's thread unless a test says."""
    return {"WORKERS": 0}


def engine_ranking(position: Position, dice: str, ply: int, variant: str = "jacquet"):
    rules = rule_set(variant)
    evaluator = Evaluator(load_net(variant), rules, ply=ply)
    return evaluator, evaluator.rank(legal_plays(position, Dice.parse(dice), rules), position)


def shown_rows(page: str) -> list[tuple[str, str]]:
    """(play, equity) of each row of the page's candidate list (each play a link drawing
    the board after it)."""
    section = page[page.index('class="candidates"'):]
    section = section[:section.index("</section>")]
    return [(html.unescape(play), equity) for play, equity in
            re.findall(r'<td class="play"><a [^>]*>([^<]*)</a></td><td>([^<]*)</td>', section)]


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_the_page_ranks_the_roll_as_the_engine_does(client, ply):
    position_id = MIDGAME.position_id()
    page = client.get(f"/position/{position_id}?variant=jacquet&dice=61&ply={ply}")
    assert page.status_code == 200
    evaluator, ranked = engine_ranking(MIDGAME, "61", ply)
    text = page.text
    assert evaluator.name in text and f"{evaluator.name}</span>" in text
    assert shown_rows(text) == [(c.play.notation, f"{round(c.equity, 4):+.3f}") for c in ranked]
    assert 'name="dice" value="61"' in text  # the form keeps the roll (no script needed)


@pytest.mark.parametrize("ply", [0, 1])
def test_the_api_returns_the_same_list_in_the_same_order(client, ply):
    position_id = MIDGAME.position_id()
    answer = client.get(f"/api/positions/{position_id}?variant=jacquet&dice=6-1&ply={ply}").get_json()
    evaluator, ranked = engine_ranking(MIDGAME, "61", ply)
    candidates = answer["candidates"]
    assert candidates["engine"] == evaluator.name and candidates["ply"] == ply
    assert candidates["count"] == len(ranked) and not candidates["truncated"]
    assert [c["play"] for c in candidates["plays"]] == [c.play.notation for c in ranked]
    assert [c["equity"] for c in candidates["plays"]] == pytest.approx([c.equity for c in ranked], abs=1e-4)
    assert [c["depth"] for c in candidates["plays"]] == [c.depth for c in ranked]
    first = candidates["plays"][0]["probabilities"]
    assert candidates["outputs"] == list(evaluator.outcomes.names) and sorted(first) == sorted(candidates["outputs"])
    assert "candidates" not in client.get(f"/api/positions/{position_id}").get_json()


def test_the_page_is_the_engine_of_the_rule_set_asked(client):
    start = rule_set("backgammon").start
    page = client.get(f"/position/{start.position_id()}?variant=backgammon&dice=31").text
    evaluator, ranked = engine_ranking(start, "31", 0, "backgammon")
    assert "jacquet-td backgammon" in evaluator.name and evaluator.name in page
    assert shown_rows(page)[0] == (ranked[0].play.notation, f"{round(ranked[0].equity, 4):+.3f}")


def test_the_list_is_capped_and_says_so(make_app):
    app = make_app(MAX_LEGAL_PLAYS=3)
    client = app.test_client()
    position_id = MIDGAME.position_id()
    _, ranked = engine_ranking(MIDGAME, "33", 0)
    assert len(ranked) > 3
    candidates = client.get(f"/api/positions/{position_id}?variant=jacquet&dice=33").get_json()["candidates"]
    assert candidates["truncated"] and candidates["count"] == len(ranked)
    assert [c["play"] for c in candidates["plays"]] == [c.play.notation for c in ranked[:3]]
    page = client.get(f"/position/{position_id}?variant=jacquet&dice=33").text
    assert f"{len(ranked)} legal plays of 33" in page and "the best 3 shown" in page
    assert len(shown_rows(page)) == 3


@pytest.mark.parametrize("dice", ["6", "77", "six-one", "6-1-2"])
def test_a_roll_that_cannot_be_read_is_refused_with_its_reason(client, dice):
    position_id = MIDGAME.position_id()
    page = client.get(f"/position/{position_id}?dice={dice}")
    assert page.status_code == 400 and 'id="refused"' in page.text and "Traceback" not in page.text
    answer = client.get(f"/api/positions/{position_id}?dice={dice}")
    assert answer.status_code == 400 and answer.get_json()["error"]
    assert client.get(f"/position/{position_id}?dice=61&ply=3").status_code == 400


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_a_roll_refused_says_why_in_the_pages_language(client, language):
    with pytest.raises(NotationError) as refusal:
        Dice.parse("77")
    reason = render(refusal.value.msg, language)
    assert reason != render(refusal.value.msg, "en")
    page = client.get(f"/position/{MIDGAME.position_id()}?dice=77", headers={"Accept-Language": language})
    assert page.status_code == 400
    note = re.search(r'<p class="note" id="refused" role="alert">([^<]*)</p>', page.text)
    assert note and html.unescape(note.group(1)) == reason


def test_the_ranking_runs_in_the_worker_pool_within_its_time(make_app, monkeypatch):
    """A ranking at 1-ply is a job of the worker pool, refused (413) over the pool's time
    (the pool's own timeout is tests/test_server_bounds.py's: a job made to outlast
    WORK_SECONDS here would race the machine's pace)."""
    from webviewer.pages import play_engine
    from webviewer.plumbing.workers import OverBudget

    client = make_app(WORKERS=1).test_client()
    address = f"/api/positions/{MIDGAME.position_id()}?dice=66&ply=1"
    jobs: list[str] = []
    pool = play_engine.run_work
    monkeypatch.setattr(play_engine, "run_work", lambda function, *args: jobs.append(function.__name__)
                        or pool(function, *args))
    ranked = client.get(address)
    assert ranked.status_code == 200 and ranked.get_json()["candidates"]["plays"] and jobs == ["ranking"]

    def over_time(function, *args):
        raise OverBudget("time", {"seconds": "0.001"})

    monkeypatch.setattr(play_engine, "run_work", over_time)
    answer = client.get(address)
    assert answer.status_code == 413 and "WORK_SECONDS" in answer.get_json()["error"]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_one_die_is_refused_in_the_pages_language(client, language):
    """A single die typed as the roll ("5", read as dice but no roll) is refused as the
    recorder refuses it, in the page's language (it was English on every page)."""
    page = client.get(f"/position/{MIDGAME.position_id()}?dice=5", headers={"Accept-Language": language})
    assert page.status_code == 400
    note = re.search(r'<p class="note" id="refused" role="alert">([^<]*)</p>', page.text)
    assert note and html.unescape(note.group(1)) == render(Message.of("recorder.two-dice", dice="5"), language)
    api = client.get(f"/api/positions/{MIDGAME.position_id()}?dice=5", headers={"Accept-Language": language})
    assert api.status_code == 400 and api.get_json()["error"] == render(Message.of("recorder.two-dice", dice="5"),
                                                                         language)
