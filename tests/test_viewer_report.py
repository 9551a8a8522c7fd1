"""The game report on the game page and the printed game (issue 37), through Flask's test
client, on real games analysed by the shipped nets (tests/report_fixtures.py): the report's
section (no JavaScript needed) adds up to the analysis's summary and names who decided its
figures; the worst plays have their diagrams and links; the printed game has the tags, the
main line, diagrams at the marked plays or every N plies, the report; in French and Russian
the section speaks the page's language. The printed game through Chromium's print to PDF
is in tests/test_viewer_report_browser.py."""

from __future__ import annotations

import re
from html import unescape

import pytest

from archive import open_archive
from archive.analyses import latest_analysis
from tests.report_fixtures import analysed  # noqa: F401 (a fixture)
from tests.viewer_helpers import shown, shown_pattern, viewer_app


@pytest.fixture(scope="module")
def app(analysed):
    return viewer_app(analysed[0])


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.text[:500])
    return response.get_data(as_text=True)


def section(text: str) -> str:
    found = re.search(r'<section class="game-report".*?</section>', text, re.S)
    assert found, "the page has the game report"
    return found.group(0)


def cells(row: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]


def player_tables(report: str) -> list[list[list[str]]]:
    """Each player's table: its rows' cells (the head first)."""
    return [[cells(row) for row in re.findall(r"<tr.*?</tr>", table, re.S)]
            for table in re.findall(r'<table class="report-figures">.*?</table>', report, re.S)]


def test_the_game_page_has_the_report_adding_up_to_the_summary(client, analysed):
    path, ids = analysed
    with open_archive(path) as db:
        stored = latest_analysis(db, ids["match"])
    text = page(client, f"/game/{ids['match']}")
    report = section(text)
    tables = player_tables(report)
    assert len(tables) == 2
    for table, colour in zip(tables, ("W", "B"), strict=True):
        head, *rows = table
        assert head[:6] == ["Stage", "Turns", "Decisions", "?!", "?", "??"]
        stages = [row[0] for row in rows]
        assert stages[0] == "Opening" and stages[-1] == "Whole game"
        *parts, total = rows
        summary = stored["players"][colour]
        assert int(total[2]) == summary["decisions"]
        assert [int(total[i]) for i in (3, 4, 5)] == [summary["doubtful"], summary["bad"], summary["very_bad"]]
        assert float(total[6]) == pytest.approx(summary["error_rate"], abs=0.051)
        for column in (1, 2, 3, 4, 5):
            assert sum(int(row[column]) for row in parts) == int(total[column])
        assert total[9].startswith("0-ply")  # its depth: the engine is named above the tables
    assert "jacquet-td backgammon" in report and "luck by" in report


def test_the_worst_plays_have_diagrams_and_links_to_their_turn(client, analysed):
    _, ids = analysed
    report = section(page(client, f"/game/{ids['match']}"))
    worst = re.findall(r'<li class="worst-play">.*?</li>', report, re.S)
    assert 1 <= len(worst) <= 6
    for item in worst:
        assert '<svg' in item and 'class="jacquet-board"' in item
        ply = re.search(r'href="[^"]*\?ply=(\d+)"', item).group(1)
        assert f"ply={ply}&amp;best=1" in item


def test_a_game_without_analysis_has_no_report(client, analysed):
    _, ids = analysed
    assert 'class="game-report"' not in page(client, f"/game/{ids['plain']}")


@pytest.mark.parametrize(("language", "words"), [("fr", "Rapport de partie"), ("ru", "Отчёт о партии")])
def test_the_report_speaks_the_page_s_language(app, analysed, language, words):
    _, ids = analysed
    client = app.test_client()
    client.set_cookie("language", language)
    report = section(page(client, f"/game/{ids['match']}"))
    assert words in report


def marked_plies(text: str) -> int:
    return len(re.findall(r'<span class="mark" data-mark="(\?!|\?|\?\?)">', text))


def test_the_printed_game_has_tags_moves_diagrams_at_the_marks_and_the_report(client, analysed):
    path, ids = analysed
    with open_archive(path) as db:
        stored = latest_analysis(db, ids["jacquet"])
    text = page(client, f"/game/{ids['jacquet']}/print")
    assert '<dt data-tag="Event">Event</dt><dd>Annotated jacquet sample game</dd>' in text
    moves = re.findall(r"<li><span class=\"number\">", text)
    assert len(moves) == len(stored["turns"])  # the sample's main line, every turn judged
    diagrams = re.findall(r'<figure class="print-diagram">.*?</figure>', text, re.S)
    marked = [ply for ply, turn in stored["turns"].items() if turn["mark"]]
    assert len(diagrams) == len(marked) == marked_plies(text)
    first = min(marked)
    assert f'?ply={first}"' in diagrams[0] and "Diagram 1" in diagrams[0]
    assert "(best: " + stored["turns"][first]["best"] + ")" in unescape(diagrams[0])
    assert "variations are left out" in text  # the sample has variations
    section(text)


def test_the_printed_game_draws_every_n_plies_when_asked(client, analysed):
    _, ids = analysed
    text = page(client, f"/game/{ids['plain']}/print?every=10")
    plies = len(re.findall(r"<li><span class=\"number\">", text))
    diagrams = re.findall(r'<figure class="print-diagram">.*?</figure>', text, re.S)
    assert plies >= 20 and len(diagrams) == plies // 10
    assert shown_pattern("After ply %(ply)s (%(move)s %(play)s)", ply="10", move=r"[^ ]+", play=r"[^)]+").search(diagrams[0])
    assert shown("No engine analysis of this game yet.") in text
    assert client.get(f"/game/{ids['plain']}/print?every=-1").status_code == 400
    assert client.get(f"/game/{ids['plain']}/print?every=x").status_code == 400


def test_the_game_page_links_to_its_printed_game(client, analysed):
    _, ids = analysed
    assert f'href="/game/{ids["plain"]}/print"' in page(client, f"/game/{ids['plain']}")


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_analysis_summary_names_the_sides_in_the_page_s_language(app, analysed, language):
    """The summary's rows are titled "White (name)" and "Black (name)" in the page's words,
    as the move list's columns are: never the English "White" on a French or Russian page."""
    client = app.test_client()
    client.set_cookie("language", language)
    text = page(client, f"/game/{analysed[1]['jacquet']}")
    summary = re.search(r'<section class="analysis-summary".*?</section>', text, re.S)
    assert summary, "the analysed game has its summary"
    rows = [unescape(row) for row in re.findall(r'<th scope="row">(.*?)</th>', summary.group(0))]
    assert [row.split(" (")[0] for row in rows] == [shown("White", language), shown("Black", language)]
