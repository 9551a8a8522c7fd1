"""The engine's probabilities as players read them (the position page's ranking, a game's
hints): headed by the rule set's outcomes (Win, Win gammon, Lose backgammon; Win double
game in Jacquet), in the page's language, in percent; the JSON API keeps the machine names
and the fractions (``win``, ``win_gammon``)."""

from __future__ import annotations

import re

import pytest

START = "4HPwATDgc/ABMA"
"""Backgammon's (and murray's) starting position."""


@pytest.fixture
def viewer_config():
    """The engine in the request's thread."""
    return {"WORKERS": 0}


def headings(page: str) -> list[str]:
    section = page[page.index('class="candidates"'):]
    return re.findall(r'<th scope="col" data-output="[^"]+">([^<]*)</th>', section)


def first_row(page: str) -> list[str]:
    section = page[page.index('class="candidates"'):]
    row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", section, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]  # a play is a link


def test_backgammon_probabilities_are_headed_by_its_outcomes_in_percent(client):
    page = client.get(f"/position/{START}?variant=backgammon&player=W&dice=31").text
    assert headings(page) == ["Win", "Win gammon", "Win backgammon", "Lose gammon", "Lose backgammon"]
    api = client.get(f"/api/positions/{START}?variant=backgammon&dice=31").get_json()
    best = api["candidates"]["plays"][0]["probabilities"]
    names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
    assert sorted(best) == sorted(names)
    shown = first_row(page)[3:8]
    assert all(re.fullmatch(r"\d+\.\d%", text) for text in shown), shown  # percent, one decimal
    # each the API's fraction to the nearest tenth of a percent (a tie away from zero, as viewer.js)
    assert all(abs(float(text[:-1]) - best[name] * 100) <= 0.05 + 1e-9 for text, name in zip(shown, names, strict=True))


def test_jacquet_heads_its_double_game_and_french_readers_read_it_in_french(client):
    position = "AACA/z8AAID/Pw"  # both sides' fifteen men on their talon
    page = client.get(f"/position/{position}?variant=jacquet&dice=63").text
    assert headings(page) == ["Win", "Win double game", "Lose double game"]
    french = client.get(f"/position/{position}?variant=jacquet&dice=63",
                        headers={"Accept-Language": "fr"}).text
    assert headings(french) == ["Gain", "Gain : partie double", "Perte : partie double"]
    assert all(cell.endswith("%") for cell in first_row(page)[3:6])


def test_hales_penalties_stay_expected_points(client):
    page = client.get("/position/AACA/z8AAID/Pw?variant=hale&dice=63").text
    assert headings(page) == ["Win", "Points won", "Points lost"]
    win, won, lost = first_row(page)[3:6]
    assert win.endswith("%") and not won.endswith("%") and not lost.endswith("%")
