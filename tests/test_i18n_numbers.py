"""The numbers of the analysis pages in the page's language (issue 36): a French or Russian
game page writes its equities, losses and luck with a decimal comma (``+0,075``) and its
chances with the language's percent format (``54 %``), in the candidates' table, the
evaluation graph's axis and its plies' labels, the game report; the words viewer.js draws
the candidates with say how the language writes a number. An English page keeps ``0.075``
and ``54%``. The real match of tests/report_fixtures.py, analysed by the shipped net."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.report_fixtures import analysed  # noqa: F401 (a fixture)
from tests.viewer_helpers import shown, viewer_app

PLY = 5
"""A ply of the match's first game that the analysis judged (a 42 with eight plays or more)."""
FORMS = {"en": (".", "%"), "fr": (",", "\xa0%"), "ru": (",", "\xa0%")}
"""Each language's decimal sign and how its percent sign follows the number (Babel's CLDR)."""


@pytest.fixture(scope="module")
def app(analysed):
    return viewer_app(analysed[0])


def game_page(client, analysed, language: str) -> str:
    _, ids = analysed
    response = client.get(f"/game/{ids['match']}?ply={PLY}", headers={"Accept-Language": language})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def candidate_rows(page: str) -> list[list[str]]:
    section = re.search(r'<section class="candidates".*?</section>', page, re.S)
    assert section, "the ply's candidates are on the page"
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", section.group(0), re.S)[1:]]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_candidates_numbers_are_written_as_the_language_writes_them(client, analysed, language):
    point, percent = FORMS[language]
    digits = re.escape(point)
    rows = candidate_rows(game_page(client, analysed, language))
    assert len(rows) >= 3
    for _rank, _play, equity, loss, win in rows:
        assert re.fullmatch(rf"[+-]\d{digits}\d{{3}}", equity), equity
        assert re.fullmatch(rf"\d{digits}\d{{3}}", loss), loss
        assert re.fullmatch(rf"\d{{1,3}}{re.escape(percent)}", win), win


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_evaluation_graph_says_the_chances_in_the_language(client, analysed, language):
    _, percent = FORMS[language]
    page = game_page(client, analysed, language)
    graph = re.search(r'<svg[^>]*class="evaluation".*?</svg>', page, re.S)
    assert graph, "the page has the evaluation graph"
    axis = [unescape(text) for text in re.findall(r'<text[^>]*text-anchor="end">([^<]*)</text>', graph.group(0))]
    assert [f"0{percent}", f"50{percent}", f"100{percent}"] == [t for t in axis if t[0].isdigit()]
    labels = [unescape(title) for title in re.findall(r'<rect class="band"[^>]*><title>([^<]*)</title>', graph.group(0))]
    chances = [label for label in labels if str(shown("White %(chance)s", language, chance="")) in label]
    assert len(chances) >= PLY, labels[:8]
    assert all(re.search(rf"\d{re.escape(percent)}", label) for label in chances), chances[:3]
    assert any(str(shown("not judged", language)) in label for label in labels)  # the start


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_analysis_summary_uses_the_decimal_comma(client, analysed, language):
    page = game_page(client, analysed, language)
    summary = re.search(r'<section class="analysis-summary".*?</table>', page, re.S)
    assert summary, "the page has the analysis's summary"
    text = unescape(re.sub(r"<[^>]+>", " ", summary.group(0)))
    assert re.search(r"[+-]\d,\d{3}", text), text  # the luck
    assert not re.search(r"\d\.\d", text), text


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_script_is_told_how_the_language_writes_numbers(client, analysed, language):
    point, percent = FORMS[language]
    page = game_page(client, analysed, language)
    words = json.loads(re.search(r'<script type="application/json" id="page-words">(.*?)</script>', page, re.S).group(1))
    assert words["numbers"] == {"decimal": point, "percent": "{value}" + percent}


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_tie_is_rounded_away_from_zero_as_the_script_rounds_it(app, language):
    """One rule for the server's numbers and viewer.js's: a tie (``0.125`` as a percentage,
    ``0.0625`` to three places) away from zero, as the script's ``toFixed`` rounds it (the
    server wrote 12 % where the script drew 13 %)."""
    from webviewer.plumbing.language import decimals, percent

    sign, percent_sign = FORMS[language]
    with app.test_request_context(headers={"Accept-Language": language}):
        assert percent(0.125) == "13" + percent_sign and percent(0.875) == "88" + percent_sign
        assert decimals(0.0625, 3) == f"0{sign}063" and decimals(-0.0625, 3, signed=True) == f"-0{sign}063"
        assert decimals(0.0625, 3, signed=True) == f"+0{sign}063" and decimals(0.1234, 3) == f"0{sign}123"


def test_the_servers_rounding_is_the_scripts(tmp_path):
    """The server's :func:`~webviewer.plumbing.language.fixed` and JavaScript's ``toFixed``
    (which viewer.js writes every number with) give the same text for ties and for numbers
    around them (node runs the script's side; skipped where there is none)."""
    import shutil
    import subprocess

    from webviewer.plumbing.language import fixed

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run JavaScript")
    values = [(v, p) for v in (0.125, 0.875, 12.5, 0.0625, -0.0625, 0.0005, 0.1234, -0.0001, 2.675, 1.005)
              for p in (0, 2, 3)] + [(k / 1000 + 0.0005, 3) for k in range(100)]
    script = f"console.log(JSON.stringify({json.dumps(values)}.map(([v, p]) => v.toFixed(p))))"
    scripted = json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout)
    assert [fixed(value, places) for value, places in values] == scripted
