"""The page of a game stored invalid and analysed by ``jacquet analyse --db`` (issue 37): its
error said once, in the heading, as the archive keeps it (no command line's ``-:LINE:COL``),
and no part of the analysis that would be empty: a game refused at its first play has no
table of 0 decisions, no evaluation graph and no pip chart of one ply. Its printed game says
the error too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import escape

from archive import import_files, open_archive
from archive.analyses import latest_analysis
from jacquet_cli import main
from notation.messages import render
from tests.viewer_helpers import shown, shown_pattern, viewer_app

ERRORS = "samples/errors/one-of-each.jqn"


@pytest.fixture(scope="module")
def archive_path(tmp_path_factory) -> str:
    """Two error samples kept invalid, analysed: R-COURIER (refused at ply 1) and
    R-POSTILION (refused at ply 9)."""
    folder = tmp_path_factory.mktemp("invalid-analysed")
    record = folder / "two.jqn"
    games = ["[Event " + text for text in Path(ERRORS).read_text().split("[Event ")[1:]]
    wanted = ('[Event "Error sample 11: R-COURIER"', '[Event "Error sample 14: R-POSTILION"')
    record.write_text("".join(text for text in games if text.startswith(wanted)))
    path = folder / "club.db"
    with open_archive(path) as db:
        import_files(db, [str(record)], keep_invalid=True)
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--confirm", "none", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.fixture(scope="module")
def app(archive_path):
    return viewer_app(archive_path)


def game_page(client, archive_path: str, rule: str) -> tuple[dict, str]:
    """The row and the page (at its end) of the game refused for ``rule``."""
    with open_archive(archive_path) as db:
        found = db.execute("SELECT id, error_rule, error_ply, error_message FROM games "
                           "WHERE error_rule = ?", [rule]).fetchone()
    row = dict(zip(("id", "error_rule", "error_ply", "error_message"), found, strict=True))
    page = client.get(f"/game/{row['id']}")
    assert page.status_code == 200
    return row, page.get_data(as_text=True)


@pytest.mark.parametrize("rule", ["R-COURIER", "R-POSTILION"])
def test_the_error_is_said_once_in_the_heading(client, archive_path, rule):
    row, page = game_page(client, archive_path, rule)
    message = str(escape(row["error_message"]))
    assert page.count(message) == 1
    assert (f'role="alert">{shown("This game breaks a rule at ply %(ply)s", ply=row["error_ply"])}: [{rule}] '
            f'{message}</p>') in page
    assert not re.search(r"-:\d+:\d+", page)  # the command line's place on standard input


@pytest.mark.parametrize("rule", ["R-COURIER", "R-POSTILION"])
def test_the_analysis_stops_at_the_error_the_heading_says(client, archive_path, rule):
    """The analysis's ``stopped`` (stored, on no page) is the error the heading says: the
    page need not say it again."""
    row, _ = game_page(client, archive_path, rule)
    with open_archive(archive_path) as db:
        stopped = latest_analysis(db, row["id"])["stopped"]
    assert render(stopped, "en") == row["error_message"]


def test_a_game_refused_at_its_first_play_shows_no_empty_analysis(client, archive_path):
    row, page = game_page(client, archive_path, "R-COURIER")
    assert row["error_ply"] == 1
    summary = re.search(r'<section class="analysis-summary[^"]*".*?</section>', page, re.S).group(0)
    assert "<table" not in summary
    assert shown_pattern("The engine (%(engine)s) found no play to judge in this game.", engine=".+").search(summary)
    for empty in ('class="evaluation"', 'class="pip-chart"', 'id="analysis-data"', "analysis-slot"):
        assert empty not in page, empty


def test_a_game_refused_later_shows_its_analysis_up_to_the_error(client, archive_path):
    row, page = game_page(client, archive_path, "R-POSTILION")
    assert row["error_ply"] == 9
    summary = re.search(r'<section class="analysis-summary[^"]*".*?</section>', page, re.S).group(0)
    decisions = [int(d) for d in re.findall(r"<th scope=\"row\">.*?</th><td>[^<]*</td><td>(\d+)</td>", summary)]
    assert len(decisions) == 2 and sum(decisions) > 0
    for part in ('class="evaluation"', 'class="pip-chart"', 'id="analysis-data"'):
        assert part in page, part


def test_the_printed_game_says_the_rule_it_breaks(client, archive_path):
    """A printed game stored invalid says where its record stops and why, as the game
    page's heading does: its move list alone would pass for the whole game."""
    row, _ = game_page(client, archive_path, "R-POSTILION")
    printed = client.get(f"/game/{row['id']}/print")
    assert printed.status_code == 200
    text = printed.get_data(as_text=True)
    assert (f'role="alert">{shown("This game breaks a rule at ply %(ply)s", ply=row["error_ply"])}: [R-POSTILION] '
            f'{escape(row["error_message"])}</p>') in text
