"""The player page with analyses: his error rate over time (one point per analysed game
with a date, by date, each a link to its game) and his worst plays (each a link to its
ply), the engine named; and ``jacquet stats``' error rate and luck per player."""

from __future__ import annotations

import json
import math
import re
import sqlite3

import pytest
from babel.numbers import format_decimal
from click.testing import CliRunner

from archive import import_files, open_archive
from jacquet_cli import main
from notation.engine.rules import rule_set
from notation.formats import read_file, write_file
from notation.messages import Message, render, say
from tests.viewer_helpers import shown, shown_count, shown_pattern, viewer_app
from webviewer.pages.player import error_chart

GAMES = 4
DATES = ["2024.05.02", None, "2023.11.20", "2024.01.15"]
"""The games' dates, in the order stored (the second has none)."""
ENGINE = "jacquet-td jacquet v2, 0-ply"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory, small_net) -> tuple[str, list[dict]]:
    """An archive of four dated games analysed by a small net, and ``jacquet analyse
    --json``'s objects for the same games."""
    folder = tmp_path_factory.mktemp("player")
    games = list(read_file("samples/generated/jacquet-10.jqn"))[:GAMES]
    for game, date in zip(games, DATES, strict=True):
        if date:
            game.headers["Date"] = date
    sample, net, path = folder / "four.jqn", small_net, folder / "club.db"
    write_file(games, sample)
    with open_archive(path) as db:
        import_files(db, [sample])
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--net", str(net)])
    assert result.exit_code == 0, result.output
    printed = CliRunner().invoke(main, ["analyse", str(sample), "--net", str(net), "--json"]).stdout
    return str(path), [json.loads(line) for line in printed.splitlines()]


def _page(path: str, name: str = "Random White") -> str:
    client = viewer_app(path).test_client()
    response = client.get(f"/player/{name}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _chart(page: str) -> str:
    match = re.search(r'<svg[^>]*class="error-rate".*?</svg>', page, re.S)
    assert match, "no error-rate chart"
    return match.group(0)


def test_the_chart_has_one_point_per_dated_analysed_game_by_date_each_a_link(analysed):
    path, printed = analysed
    page = _page(path)
    assert shown("Analysed by %(engine)s", engine=ENGINE) in page
    chart = _chart(page)
    points = re.findall(r'<a href="/game/(\d+)"><circle cx="([\d.]+)" cy="([\d.]+)"', chart)
    by_date = sorted((date, game_id) for game_id, date in enumerate(DATES, 1) if date)
    assert [int(game_id) for game_id, _, _ in points] == [game_id for _, game_id in by_date]
    xs = [float(x) for _, x, _ in points]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)  # later dates further right
    rates = {game_id: printed[game_id - 1]["players"]["White"]["error_rate"] for _, game_id in by_date}
    ys = {int(game_id): float(y) for game_id, _, y in points}
    ordered = sorted(rates, key=rates.get)  # a higher error rate is drawn higher (smaller y)
    assert [ys[game_id] for game_id in ordered] == sorted(ys.values(), reverse=True)
    assert shown_count("%(num)d analysed game without a date is not drawn.",
                       "%(num)d analysed games without a date are not drawn.", 1) in page


def round_axis(labels: list[str]) -> bool:
    """Whether an axis's labels are 0, s, 2s... with s 1, 2 or 5 times a power of ten."""
    values = [float(label) for label in labels]
    step = values[1] - values[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    return (values[0] == 0 and any(math.isclose(mantissa, m) for m in (1, 2, 5))
            and all(math.isclose(v, k * step) for k, v in enumerate(values)))


def test_the_error_rate_axis_has_round_ticks_over_the_largest(analysed):
    path, printed = analysed
    chart = _chart(_page(path))
    labels = re.findall(r'text-anchor="end">([\d.]+)</text>', chart)
    largest = max(printed[game_id - 1]["players"]["White"]["error_rate"]
                  for game_id, date in enumerate(DATES, 1) if date)
    assert round_axis(labels) and float(labels[-2]) < largest <= float(labels[-1])


def test_the_games_of_one_date_are_spread_under_it_with_round_ticks():
    """The demo's case: every game of one date, error rates of random play (289.6 is the
    largest): the games stand apart, in order, the date written once under them (no lone
    year beside them), the error rates 0, 100, 200, 300."""
    rates = [289.6, 120.0, 35.5, 200.25, 144.8]
    points = [{"date": "2026.11.30", "error_rate": rate, "game_id": game_id}
              for game_id, rate in enumerate(rates, 1)]
    chart = error_chart(points, lambda game_id: f"/game/{game_id}")
    xs = [float(x) for x in re.findall(r'cx="([\d.]+)"', chart.marks)]
    assert len(set(xs)) == len(rates) and xs == sorted(xs)
    assert chart.left < xs[0] and xs[-1] < chart.right
    [(x, date)] = chart.dates
    assert date == "2026.11.30" and xs[0] < x < xs[-1]
    assert [label for _, label in chart.rates] == ["0", "100", "200", "300"]


def test_dates_are_written_by_the_finest_unit_that_tells_them_apart():
    def dates(*written: str) -> list[str]:
        points = [{"date": date, "error_rate": 1.5, "game_id": 1} for date in written]
        return [label for _, label in error_chart(points, str).dates]

    assert dates("2023.11.20", "2024.01.15", "2024.05.02") == ["2023", "2024"]
    assert dates("2024.01.15", "2024.05.02", "2024.05.02") == ["2024.01", "2024.05"]
    assert dates("2024.05.01", "2024.05.02") == ["2024.05.01", "2024.05.02"]
    assert len(dates(*[f"2024.05.{day:02d}" for day in range(1, 31)])) <= 600 // 70


def test_the_worst_plays_are_his_largest_losses_each_a_link_to_its_ply(analysed):
    path, printed = analysed
    page = _page(path)
    losses = [(turn["loss"], game_id, turn["ply"]) for game_id, game in enumerate(printed, 1)
              for turn in game["turns"] if turn["player"] == "White" and turn["loss"] > 0]
    expected = sorted(losses, key=lambda item: (-item[0], item[1], item[2]))[:10]
    table = page[page.index("worst-plays"):]
    links = [(int(game_id), int(ply)) for game_id, ply in re.findall(r'href="/game/(\d+)\?ply=(\d+)"', table)]
    assert links == [(game_id, ply) for _, game_id, ply in expected]
    assert f"{expected[0][0]:.3f}" in table


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_skill_label_comes_with_its_scale_in_words_not_a_path_to_a_file(analysed, language):
    """A visitor has no docs folder: the page says the rule set's scale itself, each label
    with the error rates it holds, in the page's language; his label is the one whose band
    holds his error rate."""
    path, _ = analysed
    response = viewer_app(path).test_client().get("/player/Random White", headers={"Accept-Language": language})
    page = response.get_data(as_text=True)
    assert ".md" not in re.sub(r"<[^>]+>", "", page) and "docs/" not in page
    scale = rule_set("jacquet").skill
    said = re.search(r'<p class="count skill-scale">(.*?)</p>', page, re.S)
    assert said, "the scale is not on the page"
    labels = [render(Message.of(label), language) for _, label in scale]
    rates = [format_decimal(bound, "0.0", locale=language) for bound, _ in scale[:-1]]
    assert all(shown("%(label)s below %(rate)s", language, label=label, rate=rate) in said.group(1)
               for label, rate in zip(labels, rates, strict=False))
    assert shown("%(label)s from %(rate)s", language, label=labels[-1], rate=rates[-1]) in said.group(1)
    rate = float(re.search(r"<strong>([\d.,]+)</strong>", page).group(1).replace(",", "."))
    held = next(label for bound, label in scale if rate < bound)
    assert f'<strong class="skill-label">{render(Message.of(held), language)}</strong>' in page


def test_a_hidden_game_leaves_the_chart_and_the_worst_plays(analysed, tmp_path):
    path, _ = analysed
    copy = tmp_path / "copy.db"
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with open_archive(copy) as db:
        db.execute("UPDATE games SET hidden = 1 WHERE id = 1")
        db.conn.commit()
    page = _page(str(copy))
    assert 'href="/game/1"' not in page and "/game/1?ply=" not in page
    assert 'href="/game/3"' in _chart(page)


def test_a_player_without_analyses_has_no_chart(tmp_path):
    path = tmp_path / "plain.db"
    with open_archive(path) as db:
        import_files(db, ["samples/generated/jacquet-10.jqn"])
    page = _page(str(path))
    assert "error-rate" not in page and shown("Recent games") in page
    assert not shown_pattern("Analysed by %(engine)s", engine=".+").search(page)


def test_stats_give_each_players_error_rate_and_luck_with_the_engine(analysed):
    path, printed = analysed
    text = CliRunner().invoke(main, ["stats", "--db", path])
    assert text.exit_code == 0, text.output
    found = json.loads(CliRunner().invoke(main, ["stats", "--db", path, "--json"]).stdout)["analysed"]
    assert {row["player"] for row in found} == {"Random White", "Random Black"}
    for row in found:
        colour = "White" if row["player"] == "Random White" else "Black"
        turns = [turn for game in printed for turn in game["turns"] if turn["player"] == colour]
        decisions = sum(1 for turn in turns if not turn["forced"])
        assert (row["engine"], row["depth"], row["games"], row["decisions"]) == (
            "jacquet-td jacquet v2", 0, GAMES, decisions)
        assert row["error_rate"] == pytest.approx(1000 * sum(turn["loss"] for turn in turns) / decisions,
                                                  abs=0.1)
        luck = sum(game["players"][colour]["luck"] for game in printed)
        assert row["luck"] == pytest.approx(luck, abs=0.001)
        assert row["very_bad"] == sum(1 for turn in turns if turn["mark"] == "??")
        section = text.output[text.output.index(say("cli.stats.analysed")):]
        line = next(line for line in section.splitlines() if line.strip().startswith(row["player"]))
        assert ENGINE in line and f"error rate {row['error_rate']:.1f}" in line
        assert f"luck {row['luck']:+.2f}" in line


def test_stats_of_one_rule_set_leave_the_others_analyses_out(analysed):
    path, _ = analysed
    found = json.loads(CliRunner().invoke(main, ["stats", "--db", path, "--json", "--variant",
                                                 "murray"]).stdout)["analysed"]
    assert found == []


def test_recent_games_come_newest_first_and_undated_last(analysed):
    path, _ = analysed
    page = _page(path)
    recent = page[page.index(shown("Recent games")):page.index(shown("Analysed by %(engine)s", engine=ENGINE))]
    order = [int(game_id) for game_id in re.findall(r'<td data-label="#"><a href="/game/(\d+)"', recent)]
    dated = sorted(((date, game_id) for game_id, date in enumerate(DATES, 1) if date), reverse=True)
    assert order == [game_id for _, game_id in dated] + [2]


def test_a_dates_markup_is_text_in_the_chart(analysed, tmp_path):
    path, _ = analysed
    copy = tmp_path / "copy.db"
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with open_archive(copy) as db:
        db.execute("UPDATE games SET date = '2024.06.01<b>x</b>' WHERE id = 3")
        db.conn.commit()
    chart = _chart(_page(str(copy)))
    assert "2024.06.01&lt;b&gt;x&lt;/b&gt;: error rate" in chart and "<b>x" not in chart
