"""Practice from one's mistakes (issue 37, ``/practice/<player>``), through Flask's test
client over real games analysed by the shipped nets (tests/report_fixtures.py: the first
game of a backgammon match analysed, its second game not; the jacquet sample game
analysed): which positions come up (only a player's plays the analysis marked ``?`` or
``??``, the worst first), an answer among the stored candidates, a legal one the analysis
did not rank, an illegal one, the Leitner schedule (with the test's clock), a visitor's
cookie bounded and a signed-in user's cards kept across sessions, and no engine loaded to
answer."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta, timezone
from itertools import pairwise

import pytest
from babel.dates import format_timedelta

import archive
from archive.analyses import latest_analysis
from archive.practice import INTERVALS, Card, schedule
from notation import Dice, Position
from notation.engine.checker import check_play
from notation.engine.movegen import legal_plays
from notation.engine.rules import rule_set
from notation.errors import LISTED_PLAYS, IllegalPlayError
from notation.messages import Message, render
from tests.accounts_helpers import signed_in_client
from tests.report_fixtures import analysed, archive_path, viewer_config  # noqa: F401 (fixtures)
from tests.viewer_helpers import shown, shown_pattern

START = datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def clock(monkeypatch):
    """The time the practice schedules by, moved by the test."""
    now = [START]
    monkeypatch.setattr("webviewer.blueprints.practice.now", lambda: now[0])
    return now


def stored_marked(path, game_id: int, colour: str) -> list[dict]:
    """The turns of ``colour`` that the latest analysis of the game marked ? or ?? (not
    forced), read from the archive as the game page reads them."""
    with archive.open_archive(path, readonly=True) as db:
        analysis = latest_analysis(db, game_id)
    assert analysis is not None
    return [turn for turn in analysis["turns"].values()
            if turn["player"] == colour and turn["mark"] in ("?", "??") and not turn["forced"]]


def position_before(path, game_id: int, ply: int) -> tuple[Position, str]:
    with archive.open_archive(path, readonly=True) as db:
        row = db.execute("SELECT position_before, variant FROM turns JOIN games ON games.id = game_id "
                         "WHERE game_id = ? AND ply = ?", [game_id, ply]).fetchone()
    return Position.from_id(row[0]), row[1]


def shown_key(page: str) -> str:
    """The position a page asks (``game.ply``), from its answer form."""
    found = re.search(r'name="position" value="(\d+\.\d+)"', page)
    assert found, "the page asks no position"
    return found.group(1)


def due_now(due: int | str, total: int | str = r"\d+") -> re.Pattern[str]:
    """The practice's count of positions due, as the page says it (a number or a pattern)."""
    return shown_pattern("Due now: %(due)s of %(total)s positions.", due=str(due), total=str(total))


def next_in(**interval: int) -> str:
    """When the next position comes back, as the page says it (Babel's words for the time)."""
    return shown("Next in %(time)s.", time=format_timedelta(timedelta(**interval), locale="en"))


def verdict(text: str, page: str, **params: str) -> bool:
    """Whether the page's verdict is the catalog's entry ``text`` (its play a pattern)."""
    return bool(shown_pattern(text, play=r"[^<]+?", **params).search(page))


NOT_RIGHT = shown_pattern("Not right: the best play, or one losing less than %(threshold)s, was wanted.",
                          threshold=r"[\d.]+")


def answer(client, name: str, key: str, play: str):
    return client.post(f"/practice/{name}", data={"position": key, "action": "play", "play": play})


# -- which positions --------------------------------------------------------------------------

def test_the_positions_are_the_players_marked_plays_worst_first(client, analysed, archive_path):
    _, ids = analysed
    marked = stored_marked(archive_path, ids["jacquet"], "W")
    assert len(marked) >= 3
    page = client.get("/practice/Random White")
    assert page.status_code == 200
    worst = max(marked, key=lambda turn: turn["loss"])
    assert shown_key(page.text) == f"{ids['jacquet']}.{worst['ply']}"
    assert due_now(len(marked), len(marked)).search(page.text)
    # each of his marked plays can be asked; Black's cannot, nor a play not marked ? or ??
    for turn in marked:
        assert client.get(f"/practice/Random White?position={ids['jacquet']}.{turn['ply']}").status_code == 200
    black = stored_marked(archive_path, ids["jacquet"], "B")[0]
    assert client.get(f"/practice/Random White?position={ids['jacquet']}.{black['ply']}").status_code == 404
    with archive.open_archive(archive_path, readonly=True) as db:
        analysis = latest_analysis(db, ids["jacquet"])
    doubtful = [t for t in analysis["turns"].values() if t["player"] == "W" and t["mark"] in (None, "?!")]
    assert client.get(f"/practice/Random White?position={ids['jacquet']}.{doubtful[0]['ply']}").status_code == 404


def test_only_analysed_games_give_positions(client, analysed, archive_path):
    _, ids = analysed
    marked = [(ids["match"], t["ply"]) for colour in "WB" for t in stored_marked(archive_path, ids["match"], colour)]
    with archive.open_archive(archive_path, readonly=True) as db:
        names = db.execute("SELECT w.name, b.name FROM games g JOIN players w ON w.id = g.white_id "
                           "JOIN players b ON b.id = g.black_id WHERE g.id = ?", [ids["plain"]]).fetchone()
        plain_plies = [row[0] for row in db.execute("SELECT ply FROM turns WHERE game_id = ?", [ids["plain"]])]
    asked = set()
    for name in names:
        page = client.get(f"/practice/{name}")
        assert page.status_code == 200
        if 'name="position"' in page.text:
            asked.add(tuple(int(part) for part in shown_key(page.text).split(".")))
        else:  # the analysis marked none of his plays (the nets decide): nothing to practise
            assert shown("No play of %(name)s is marked ? or ?? by an analysis in the archive: "
                         "nothing to practise.", name=name) in page.text
        for ply in plain_plies[:20]:  # the same players' game with no analysis gives none
            assert client.get(f"/practice/{name}?position={ids['plain']}.{ply}").status_code == 404
    assert asked and asked <= set(marked)
    assert len(asked) == len({colour for colour in "WB" if stored_marked(archive_path, ids["match"], colour)})


def test_a_player_without_analysed_marks_has_nothing_to_practise_and_an_unknown_one_is_404(client, archive_path):
    with archive.open_archive(archive_path) as db:
        db.execute("INSERT INTO players (name, key) VALUES ('Nobody Yet', 'nobody yet')")
        db.conn.commit()
    page = client.get("/practice/Nobody Yet")
    assert page.status_code == 200 and shown("No play of %(name)s is marked ? or ?? by an analysis in the archive: "
                                             "nothing to practise.", name="Nobody Yet") in page.text
    assert 'name="position"' not in page.text
    assert client.get("/practice/No Such Player").status_code == 404


# -- answers ----------------------------------------------------------------------------------

def test_the_best_play_typed_another_way_is_right_and_the_ranking_marks_it_and_the_play_made(
        client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    best = turn["candidates"][0]["play"]
    sent = answer(client, "Random White", key, best)
    assert sent.status_code == 303
    page = client.get(sent.headers["Location"]).text
    assert verdict("Your play %(play)s is the best play.", page) and shown("Right.") in page
    rows = re.findall(r'<tr class="([^"]*)"><td>(\d+)</td><td><a class="show-play" href="[^"]*">([^<]+)</a></td>', page)
    assert [row[2] for row in rows] == [c["play"] for c in turn["candidates"]]
    assert [row[1] for row in rows if "answer" in row[0]] == ["1"]
    position, variant = position_before(archive_path, ids["jacquet"], turn["ply"])
    made = check_play(position, turn["dice"], turn["played"], variant).next_position
    played_rows = [row[2] for row in rows if "played" in row[0]]
    assert [check_play(position, turn["dice"], play, variant).next_position for play in played_rows] == [made]
    assert turn["level"] in page  # the level that decided the figures


def test_the_game_a_position_comes_from_is_linked_only_once_answered(client, analysed, archive_path, clock):
    """Its game page shows the play made and the engine's best: a link there before the
    answer would give the answer away."""
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    game_link = f'href="/game/{ids["jacquet"]}?ply={turn["ply"] - 1}"'
    assert game_link not in client.get(f"/practice/Random White?position={key}").text
    sent = answer(client, "Random White", key, turn["candidates"][0]["play"])
    assert game_link in client.get(sent.headers["Location"]).text


def test_the_play_made_again_loses_what_the_analysis_said(client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "B"), key=lambda t: t["loss"])
    sent = answer(client, "Random Black", f"{ids['jacquet']}.{turn['ply']}", turn["played"])
    page = client.get(sent.headers["Location"]).text
    assert verdict("Your play %(play)s loses %(loss)s against the best.", page, loss=re.escape(f"{turn['loss']:.3f}"))
    assert NOT_RIGHT.search(page)


def test_a_legal_play_the_analysis_did_not_rank_is_said_so_without_an_equity(client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    position, variant = position_before(archive_path, ids["jacquet"], turn["ply"])
    ranked = {check_play(position, turn["dice"], c["play"], variant).next_position for c in turn["candidates"]}
    other = next(play for play in legal_plays(position, Dice.parse(turn["dice"]), rule_set(variant))
                 if play.next_position not in ranked)
    sent = answer(client, "Random White", f"{ids['jacquet']}.{turn['ply']}", other.notation)
    page = client.get(sent.headers["Location"]).text
    assert verdict("Your play %(play)s is legal but not among the plays the analysis ranked: no equity is stored "
                   "for it.", page)
    assert NOT_RIGHT.search(page)
    assert not re.search(r'<tr class="[^"]*answer', page)


def test_an_illegal_play_is_refused_with_its_rule_and_the_position_stays_unscheduled(
        client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    position, _ = position_before(archive_path, ids["jacquet"], turn["ply"])
    empty = next(point for point in range(24, 6, -1) if position.mover[point] == 0)
    key = f"{ids['jacquet']}.{turn['ply']}"
    refused = answer(client, "Random White", key, f"{empty}/{empty - 1}")
    assert refused.status_code == 400
    note = re.search(r'<p class="note" id="note-play" role="alert">([^<]+)</p>', refused.text)
    reason = render(Message.of("rule.empty", step=f"{empty}/{empty - 1}", point=str(empty)))
    assert note and "[R-EMPTY]" in note.group(1) and html.escape(reason) in note.group(1)
    assert shown_pattern("Legal plays: %(plays)s.", plays=".+").search(note.group(1))
    assert shown_key(refused.text) == key  # the same position, to try again
    assert due_now(len(stored_marked(archive_path, ids["jacquet"], "W"))).search(
        client.get("/practice/Random White").text)


def test_a_play_clicked_step_by_step_is_answered_when_whole(client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    page = client.get(f"/practice/Random White?position={key}").text
    steps = ""
    for _ in range(4):
        form = re.search(r'name="steps" value="([^"]*)">\s*<input type="hidden" name="from" value="(\d+)">'
                         r'<input type="hidden" name="to" value="(\d+)"><input type="hidden" name="die" '
                         r'value="(\d)">', page)
        assert form, "a step is offered"
        steps, start, end, die = form.groups()
        sent = client.post("/practice/Random White", data={"position": key, "steps": steps, "action": "step",
                                                            "from": start, "to": end, "die": die})
        assert sent.status_code == 303
        page = client.get(sent.headers["Location"]).text
        if "answer=" in sent.headers["Location"]:
            break
    assert "practice-verdict" in page
    assert re.search(r'<tr class="[^"]*answer', page) or verdict(
        "Your play %(play)s is legal but not among the plays the analysis ranked: no equity is stored for it.", page)


def test_a_step_the_rules_refuse_is_a_clear_400(client, analysed, archive_path):
    _, ids = analysed
    turn = stored_marked(archive_path, ids["jacquet"], "W")[0]
    sent = client.post("/practice/Random White", data={"position": f"{ids['jacquet']}.{turn['ply']}", "steps": "",
                                                       "action": "step", "from": "1", "to": "0", "die": "6"})
    assert sent.status_code == 400
    assert shown_pattern("Refused: %(error)s", error=".+").search(sent.text) and "Traceback" not in sent.text


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_steps_the_address_cannot_hold_are_a_400_in_the_pages_language(client, analysed, archive_path, language):
    _, ids = analysed
    turn = stored_marked(archive_path, ids["jacquet"], "W")[0]
    page = client.get(f"/practice/Random White?position={ids['jacquet']}.{turn['ply']}&steps=24-x",
                      headers={"Accept-Language": language})
    assert page.status_code == 400
    said = shown("steps are written from-to-die, one after another (24-18-6 18-15-3), not %(steps)r", language,
                 steps="24-x")
    assert html.unescape(said) in html.unescape(page.text)


def test_an_answer_without_the_forms_token_is_refused(make_app, analysed):
    _, ids = analysed
    strict = make_app(WTF_CSRF_ENABLED=True)
    sent = strict.test_client().post("/practice/Random White", data={"position": f"{ids['jacquet']}.1",
                                                                      "action": "play", "play": "24/18"})
    assert sent.status_code == 400 and "CSRF" in sent.text


# -- the schedule -----------------------------------------------------------------------------

def test_leitner_intervals_grow_when_right_and_reset_when_wrong():
    card, at, waits = None, START, []
    for _ in range(len(INTERVALS) + 1):
        card = schedule(card, True, at)
        waits.append(card.due - at)
        at = card.due
    assert waits == [*INTERVALS[1:], INTERVALS[-1], INTERVALS[-1]]
    assert all(later >= earlier for earlier, later in pairwise(waits))
    wrong = schedule(card, False, at)
    assert wrong == Card(0, at + INTERVALS[0])
    assert schedule(wrong, True, at) == Card(1, at + INTERVALS[1])


def test_a_right_answer_waits_longer_each_time_and_a_wrong_one_comes_back_soon(client, analysed, archive_path,
                                                                                 clock):
    _, ids = analysed
    marked = stored_marked(archive_path, ids["jacquet"], "W")
    turn = max(marked, key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    best = turn["candidates"][0]["play"]
    answer(client, "Random White", key, best)
    page = client.get("/practice/Random White").text
    assert due_now(len(marked) - 1, len(marked)).search(page) and next_in(days=1) in page
    assert shown_key(page) != key  # the next worst is asked
    clock[0] += timedelta(days=1, seconds=1)
    assert shown_key(client.get("/practice/Random White").text) == key  # due again: the worst first
    answer(client, "Random White", key, best)
    assert next_in(days=3) in client.get("/practice/Random White").text
    answer(client, "Random White", key, turn["played"])  # wrong: back in the first box
    assert next_in(minutes=10) in client.get("/practice/Random White").text


# -- where the cards are kept -----------------------------------------------------------------

def test_a_visitors_cards_live_in_his_cookie_bounded_and_never_in_the_archive(client, analysed, archive_path,
                                                                              clock, monkeypatch):
    _, ids = analysed
    monkeypatch.setattr("webviewer.pages.practice.VISITOR_CARDS", 4)
    marked = stored_marked(archive_path, ids["jacquet"], "W")
    assert len(marked) > 6
    for turn in marked[:7]:
        answer(client, "Random White", f"{ids['jacquet']}.{turn['ply']}", turn["candidates"][0]["play"])
        clock[0] += timedelta(seconds=1)
    with client.session_transaction() as session:
        kept = session["practice"]
    assert set(kept) == {f"{ids['jacquet']}.{t['ply']}" for t in marked[3:7]}  # the latest four
    assert due_now(len(marked) - 4).search(client.get("/practice/Random White").text)
    with archive.open_archive(archive_path, readonly=True) as db:
        assert db.execute("SELECT count(*) FROM practice_cards").fetchone()[0] == 0
    assert due_now(len(marked)).search(client.application.test_client().get("/practice/Random White").text)


def test_a_signed_in_users_cards_are_kept_across_sessions_and_restarts(app, make_app, analysed, archive_path,
                                                                       clock):
    _, ids = analysed
    marked = stored_marked(archive_path, ids["jacquet"], "B")
    member = signed_in_client(app, "Member", "scorer")
    for turn in marked[:2]:
        assert answer(member, "Random Black", f"{ids['jacquet']}.{turn['ply']}",
                      turn["candidates"][0]["play"]).status_code == 303
    with member.session_transaction() as session:
        assert "practice" not in session
    again = signed_in_client(make_app(), "Member", "scorer")  # another browser, the server restarted
    assert due_now(len(marked) - 2, len(marked)).search(again.get("/practice/Random Black").text)
    assert due_now(len(marked)).search(app.test_client().get("/practice/Random Black").text)  # a visitor's own
    with archive.open_archive(archive_path, readonly=True) as db:
        rows = db.execute("SELECT game_id, ply, box FROM practice_cards ORDER BY ply").fetchall()
    assert rows == sorted([(ids["jacquet"], t["ply"], 1) for t in marked[:2]], key=lambda row: row[1])


def test_an_archive_made_before_gets_the_table_empty(tmp_path):
    path = tmp_path / "old.db"
    with archive.open_archive(path) as db:
        db.execute("DROP TABLE practice_cards")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'practice_cards'")
    with archive.open_archive(path) as db:
        assert db.execute("SELECT count(*) FROM practice_cards").fetchone()[0] == 0


def test_answering_loads_no_engine(client, analysed, archive_path, clock, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the engine was asked")

    import analysis.ranking
    import analysis.shipped
    monkeypatch.setattr(analysis.shipped, "load_net", refused)
    monkeypatch.setattr(analysis.ranking.Evaluator, "__init__", refused)
    _, ids = analysed
    turn = stored_marked(archive_path, ids["jacquet"], "W")[1]
    key = f"{ids['jacquet']}.{turn['ply']}"
    assert client.get(f"/practice/Random White?position={key}").status_code == 200
    sent = answer(client, "Random White", key, turn["candidates"][-1]["play"])
    assert sent.status_code == 303
    assert client.get(sent.headers["Location"]).status_code == 200


def test_every_position_answered_right_leaves_nothing_due_until_the_first_comes_back(
        client, analysed, archive_path, clock):
    _, ids = analysed
    marked = stored_marked(archive_path, ids["jacquet"], "B")
    for turn in marked:
        answer(client, "Random Black", f"{ids['jacquet']}.{turn['ply']}", turn["candidates"][0]["play"])
        clock[0] += timedelta(minutes=1)
    page = client.get("/practice/Random Black").text
    assert due_now(0, len(marked)).search(page) and shown("Nothing is due now.") in page
    assert 'name="position"' not in page
    clock[0] = START + INTERVALS[1] + timedelta(seconds=1)  # a day after the first answer
    assert shown_key(client.get("/practice/Random Black").text) == f"{ids['jacquet']}.{marked[0]['ply']}"


def test_the_player_page_and_the_game_report_lead_to_the_practice(client, analysed):
    _, ids = analysed
    assert 'href="/practice/Random%20White"' in client.get("/player/Random White").text
    report = client.get(f"/game/{ids['jacquet']}").text
    assert 'href="/practice/Random%20White"' in report and 'href="/practice/Random%20Black"' in report


def test_the_practice_in_french_and_russian(client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    for language in ("fr", "ru"):
        headers = {"Accept-Language": language}
        page = client.get("/practice/Random White", headers=headers).text
        assert f'<html lang="{language}">' in page
        marked = len(stored_marked(archive_path, ids["jacquet"], "W"))
        assert shown_pattern("Due now: %(due)s of %(total)s positions.", language, due=r"\d+", total=str(marked)
                             ).search(page)
        assert shown("What do you play?", language) in page
        numbered, _dice = shown("Numbered for White, who is to play %(dice)s.", language, dice="\0").split("\0")
        assert numbered in page  # (in Russian "для белых": the side's name in its case)
        assert not due_now(r"\d+", marked).search(page)
        assert shown("What do you play?") not in page
        sent = client.post("/practice/Random White", headers=headers, data={
            "position": f"{ids['jacquet']}.{turn['ply']}", "action": "play", "play": turn["played"]})
        judged = client.get(sent.headers["Location"], headers=headers).text
        assert shown("your answer", language) in judged and shown("your answer") not in judged
        assert verdict("Your play %(play)s loses %(loss)s against the best.", judged, loss=r"[^<]+") is False


def test_an_illegal_play_is_refused_in_the_pages_language(client, analysed, archive_path, clock):
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    position, variant = position_before(archive_path, ids["jacquet"], turn["ply"])
    dice = Dice.parse(turn["dice"])
    wrong = "24/10"  # no roll of this game's turn moves fourteen pips with one man in one step
    with pytest.raises(IllegalPlayError) as refusal:
        check_play(position, dice, wrong, rule_set(variant))
    error = refusal.value
    for language in ("fr", "ru"):
        reason = render(error.msg, language)
        assert reason != render(error.msg, "en")
        refused = client.post("/practice/Random White", headers={"Accept-Language": language}, data={
            "position": f"{ids['jacquet']}.{turn['ply']}", "action": "play", "play": wrong})
        assert refused.status_code == 400
        note = re.search(r'<p class="note" id="note-play" role="alert">([^<]+)</p>', refused.text)
        assert note, language
        assert f"[{error.rule_id}] {html.escape(reason.rstrip('.'))}." in note.group(1), language
        if len(error.legal_plays) > LISTED_PLAYS:  # "and N more" in the page's words too
            more = render(Message.of("list.more", plays="", count=len(error.legal_plays) - LISTED_PLAYS), language)
            assert html.escape(more.strip(" ,")) in note.group(1), language
        typed = client.get(f"/practice/Random White?position={ids['jacquet']}.{turn['ply']}&answer={wrong}",
                           headers={"Accept-Language": language})  # the answer's address, typed
        assert typed.status_code == 400 and reason in html.unescape(typed.text), language


def test_a_members_cards_open_in_datasette(app, analysed, archive_path, clock):
    import asyncio

    from datasette.app import Datasette

    _, ids = analysed
    turn = stored_marked(archive_path, ids["jacquet"], "W")[0]
    member = signed_in_client(app, "Member", "scorer")
    answer(member, "Random White", f"{ids['jacquet']}.{turn['ply']}", turn["played"])

    async def browse():
        return await Datasette([str(archive_path)]).client.get("/club/practice_cards.json?_shape=array")

    rows = asyncio.run(browse())
    assert rows.status_code == 200
    assert [(row["game_id"], row["ply"], row["box"]) for row in rows.json()] == [(ids["jacquet"], turn["ply"], 0)]


def test_a_man_moved_by_both_dice_in_one_click_is_a_whole_answer(client, analysed, archive_path, clock):
    import html
    import json

    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "W"), key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    page = client.get(f"/practice/Random White?position={key}").text
    routes = json.loads(html.unescape(re.search(r'data-routes="([^"]*)"', page).group(1)))
    route = next(found[0] for found in routes.values() if len(found) == 1 and len(found[0].split()) == 2)
    sent = client.post("/practice/Random White", data={"position": key, "steps": "", "action": "route",
                                                       "route": route})
    assert sent.status_code == 303 and "answer=" in sent.headers["Location"]
    position, variant = position_before(archive_path, ids["jacquet"], turn["ply"])
    (start, _, _), (_, end, _) = (part.split("-") for part in route.split())
    judged = client.get(sent.headers["Location"]).text
    verdicts = [shown_pattern(text, play="(?P<play>[^ ]+(?: [^ ]+)*?)", loss="[^<]+").pattern
                for text in ("Your play %(play)s loses %(loss)s against the best.",
                             "Your play %(play)s is the best play.",
                             ("Your play %(play)s is legal but not among the plays the analysis ranked: no equity "
                             "is stored for it."))]
    judged_play = next(found for pattern in verdicts if (found := re.search(
        r'class="status practice-verdict[^"]*" role="status">\s*' + pattern, judged)))
    said = check_play(position, turn["dice"], judged_play.group("play"), variant)
    assert said.result == check_play(position, turn["dice"], f"{start}/{end}", variant).result


def test_when_a_position_comes_back_is_said_from_now_and_with_its_time_zone(client, analysed, archive_path, clock):
    """A wrong answer puts the position in the first box (10 minutes): the page says so
    from now, and when, with the zone the time is in, in the page's language (Babel)."""
    _, ids = analysed
    turn = max(stored_marked(archive_path, ids["jacquet"], "B"), key=lambda t: t["loss"])
    key = f"{ids['jacquet']}.{turn['ply']}"
    assert INTERVALS[0] == timedelta(minutes=10)
    for language, words in (("en", "comes back in 10 minutes (December 5, 2026, 12:10:00 PM UTC)."),
                            ("fr", "revient dans 10 minutes (5 décembre 2026, 12:10:00 TU)."),
                            ("ru", "вернётся через 10 минут (5 декабря 2026 г., 12:10:00 UTC).")):
        headers = {"Accept-Language": language}
        sent = client.post("/practice/Random Black", headers=headers,
                           data={"position": key, "action": "play", "play": turn["played"]})
        page = html.unescape(client.get(sent.headers["Location"], headers=headers).text)
        page = page.replace("\u202f", " ").replace("\xa0", " ")  # (CLDR's narrow and no-break spaces)
        back = re.search(r'<p class="practice-back">([^<]*)</p>', page)
        assert back and back.group(1).endswith(words), (language, back and back.group(1))
