"""Searching the archive, its position index and its statistics, each answer checked against
a brute-force one computed in Python from the games themselves (``varied``: ~80 games of
five variants, valid and invalid, finished and not, with varied players, events, dates)."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

import pytest

import archive
from archive import Query
from archive.search import SORTS, BadFilter, date_bound

from .archive_fixtures import fold, text_matches, varied, words  # noqa: F401

ALL = 10_000


@pytest.fixture
def vdb(varied):
    db = varied.open()
    yield db
    db.close()


def same(name: str | None, wanted: str) -> bool:
    """Whether a name filter finds ``name``: the name itself, or each word of ``wanted``
    begins a word of it (case and accents ignored); in double quotes, the name only."""
    if name is None:
        return False
    if len(wanted) > 1 and wanted[0] == wanted[-1] == '"':
        return name.casefold() == wanted[1:-1].casefold()
    asked = words(wanted)
    return fold(name) == fold(wanted) or (
        bool(asked) and all(any(word.startswith(a) for word in words(name)) for a in asked))


def brute(games, q: Query) -> list[int]:
    """The ids a query should find, in its order (every filter spelled out in Python)."""
    def keep(s) -> bool:
        white, black, event = s.name("White"), s.name("Black"), s.name("Event")
        date = s.name("Date")
        return all((
            q.player is None or same(white, q.player) or same(black, q.player),
            q.white is None or same(white, q.white),
            q.black is None or same(black, q.black),
            q.event is None or same(event, q.event),
            q.match is None or s.name("Match") == q.match,
            q.date_from is None or (date is not None and date >= q.date_from),
            q.date_to is None or (date is not None and date <= date_bound(q.date_to) + "\uffff"),
            q.variant is None or s.variant == q.variant,
            q.result is None or (s.winner is None if q.result == "*" else s.winner == q.result),
            q.points_min is None or (s.points is not None and s.points >= q.points_min),
            q.points_max is None or (s.points is not None and s.points <= q.points_max),
            q.turns_min is None or s.turns >= q.turns_min,
            q.turns_max is None or s.turns <= q.turns_max,
            q.text is None or text_matches(q.text, s.texts()),
            q.valid is None or s.valid == q.valid,
        ))

    key = {"id": lambda s: s.id, "date": lambda s: s.name("Date"), "turns": lambda s: s.turns,
           "points": lambda s: s.points, "white": lambda s: s.name("White"),
           "black": lambda s: s.name("Black"), "event": lambda s: s.name("Event"),
           "variant": lambda s: s.variant}[q.sort]
    # SQLite puts NULL first going up, last going down; ties by number, the same way
    found = sorted((s for s in games if keep(s)), key=lambda s: (key(s) is not None, key(s), s.id),
                   reverse=q.descending)
    return [s.id for s in found]


def check(db, games, **filters) -> list[int]:
    query = Query(limit=ALL, **filters)
    rows, total = archive.search(db, query)
    expected = brute(games, query)
    assert [row["id"] for row in rows] == expected
    assert total == len(expected)
    assert archive.game_ids(db, query) == expected
    return expected


# ------------------------------------------------------------------ filters

FILTERS = [
    {"player": "Jean"}, {"player": "marie"}, {"player": "MARIE"}, {"player": "Élodie"},
    {"player": "ÉLODIE"}, {"player": "O'Neil"}, {"player": "anne-sophie"}, {"player": "Nobody"},
    {"player": "Sample White"}, {"player": "mar"}, {"player": "elodie"}, {"player": "sophie anne"},
    {"player": "neil"}, {"player": "o"}, {"player": "'"}, {"white": "ma"}, {"black": "j"},
    {"player": '"marie"'}, {"player": '"Mar"'}, {"white": '"JEAN"'}, {"event": '"club night"'},
    {"event": "club"}, {"event": "ete"}, {"event": "paris open"}, {"event": "18"},
    {"white": "Marie"}, {"white": "jean"}, {"black": "marie"}, {"black": "O'NEIL"},
    {"white": "Jean", "black": "Jean"},
    {"event": "Club Night"}, {"event": "CLUB NIGHT"}, {"event": "open de paris"},
    {"event": "Versailles 1820"},
    {"date_from": "2024.01.01"}, {"date_to": "1999.12.31"},
    {"date_from": "1820.07.01", "date_to": "2024.01.02"}, {"date_from": "2025.01.01"},
    {"date_to": "2024"}, {"date_from": "2024.03", "date_to": "2024.03"}, {"date_to": "1999-12-31"},
    {"date_from": "1820", "date_to": "1820"},
    {"variant": "jacquet"}, {"variant": "murray"}, {"variant": "versailles"}, {"variant": "hale"},
    {"variant": "backgammon"},
    {"result": "W"}, {"result": "B"}, {"result": "*"},
    {"points_min": 2}, {"points_max": 1}, {"points_min": 3, "points_max": 9},
    {"turns_min": 100}, {"turns_max": 20}, {"turns_min": 50, "turns_max": 90},
    {"valid": True}, {"valid": False},
    {"match": "Final"}, {"match": "Semi-final"},
    {"player": "marie", "result": "W", "date_from": "2000.01.01"},
    {"variant": "backgammon", "points_min": 2, "turns_max": 120, "valid": True},
    {"event": "club night", "result": "*"},
    {"variant": "jacquet", "valid": False, "turns_min": 1},
    {"text": "Ouch", "variant": "jacquet"},
]


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_every_filter_finds_what_brute_force_finds(vdb, varied, filters):
    check(vdb, varied.games, **filters)


def test_the_filters_are_not_trivial(vdb, varied):
    """Each kind of filter keeps some games and drops others in this archive, so the
    comparisons above say something."""
    everything = len(varied.games)
    for filters in ({"player": "marie"}, {"event": "club night"}, {"date_from": "2024.01.01"},
                    {"variant": "hale"}, {"result": "*"}, {"result": "W"}, {"points_min": 2},
                    {"turns_min": 100}, {"valid": False}, {"match": "Final"}, {"text": "24/13"},
                    {"text": "AND"}, {"white": "Jean", "black": "Jean"}):
        assert 0 < len(brute(varied.games, Query(**filters))) < everything, filters
    marie = ({fold(s.name("White") or "") for s in varied.games}
             | {fold(s.name("Black") or "") for s in varied.games})
    assert "marie" in marie
    # "Marie" and "marie" are two players; a search by name finds both
    stored = {s.name("White") for s in varied.games} | {s.name("Black") for s in varied.games}
    assert {"Marie", "marie"} <= stored


def test_no_filter_lists_every_game(vdb, varied):
    assert check(vdb, varied.games) == sorted(s.id for s in varied.games)


def test_rows_carry_the_games_columns(vdb, varied):
    rows, total = archive.search(vdb, Query(limit=ALL))
    assert total == len(varied.games)
    by_id = {s.id: s for s in varied.games}
    for row in rows:
        s = by_id[row["id"]]
        assert (row["variant"], row["date"], row["white"], row["black"], row["event"]) == (
            s.variant, s.name("Date"), s.name("White"), s.name("Black"), s.name("Event"))
        assert (row["result"], row["winner"], row["points"], row["turns"], row["valid"]) == (
            s.result, s.winner, s.points, s.turns, int(s.valid))
        assert row["match"] == s.name("Match")
        assert row["match_length"] == (int(s.headers["MatchLength"]) if s.name("Match") else None)
        assert row["game_number"] == (int(s.headers["Game"]) if s.name("Game") else None)
        if s.valid:
            assert row["error_rule"] is None and row["error_ply"] is None
        else:
            assert row["error_rule"] == s.game.errors[0].rule_id
            assert row["error_ply"] is not None


# ------------------------------------------------------------------ full text

TEXTS = ["Ouch", "ouch", "24/13", "6-5", "AND", "and", '"AND"', "NEAR(", "NEAR", "Deliberate error",
         "brace", "{inside}", "closing", "quiet move", "$14", "wait {and", "Not again.", "OR",
         "NOT", "-", "*", "(", "col:x", "^quiet", "a AND b", "quiet NOT move", "quiet OR loud",
         "courier*", "nothing-at-all", "quiet - move"]


@pytest.mark.parametrize("text", TEXTS)
def test_text_is_searched_as_typed(vdb, varied, text):
    """Text never raises, whatever FTS5 syntax it looks like, and finds the games one of
    whose comments (or NAGs, or variation moves) holds every word typed."""
    check(vdb, varied.games, text=text)


def test_text_search_finds_known_comments(vdb, varied):
    assert check(vdb, varied.games, text="24/13")
    assert check(vdb, varied.games, text="6-5")
    assert check(vdb, varied.games, text="AND")
    assert check(vdb, varied.games, text="Ouch")
    assert not check(vdb, varied.games, text="nothing-at-all")


@pytest.mark.parametrize("text", ['"', '""', "   "])
def test_text_with_no_words_does_not_raise(vdb, varied, text):
    _, total = archive.search(vdb, Query(text=text, limit=ALL))
    assert total in (0, len(varied.games))


@pytest.mark.parametrize("field, value", [("player", "élodie"), ("event", "tournoi d'été")])
def test_names_with_accents_are_compared_without_regard_to_case(vdb, varied, field, value):
    expected = check(vdb, varied.games, **{field: value})
    assert expected


# ------------------------------------------------------------------ sorting and paging

@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("sort", sorted(SORTS))
def test_sort_orders_like_brute_force(vdb, varied, sort, descending):
    check(vdb, varied.games, sort=sort, descending=descending)
    check(vdb, varied.games, sort=sort, descending=descending, valid=True, result="B")


@pytest.mark.parametrize("sort, descending, filters", [
    ("id", False, {}), ("date", True, {}), ("white", False, {"valid": True}),
    ("turns", True, {"variant": "jacquet"}), ("points", False, {"result": "W"})])
def test_pages_cover_the_results_once(vdb, varied, sort, descending, filters):
    everything = brute(varied.games, Query(sort=sort, descending=descending, **filters))
    pages, offset = [], 0
    while True:
        rows, total = archive.search(vdb, Query(sort=sort, descending=descending, limit=7,
                                                offset=offset, **filters))
        assert total == len(everything)
        if not rows:
            break
        assert len(rows) <= 7
        pages += [row["id"] for row in rows]
        offset += 7
    assert pages == everything
    assert offset == 7 * math.ceil(len(everything) / 7)
    rows, total = archive.search(vdb, Query(sort=sort, descending=descending, limit=5, offset=3, **filters))
    assert [r["id"] for r in rows] == everything[3:8] and total == len(everything)


def test_unknown_sort_is_refused(vdb):
    with pytest.raises(BadFilter) as refused:
        archive.search(vdb, Query(sort="hash; DROP TABLE games"))
    assert refused.value.msg.id == "archive.filter.sort" and refused.value.msg.params["sorts"] == ", ".join(SORTS)


def test_record_and_load_game(vdb, varied):
    s = varied.games[0]
    row = archive.record(vdb, s.id)
    assert row["id"] == s.id and "record" in row
    assert archive.record(vdb, 10**6) is None and archive.load_game(vdb, 10**6) is None


# ------------------------------------------------------------------ position index

def position_index(games):
    index = defaultdict(list)
    for s in games:
        for ply, player, kind, dice, play, before in s.mainline():
            index[before].append((s, ply, player, kind, dice, play))
    return index


def interesting_positions(games) -> list[str]:
    index = position_index(games)
    starts = [next(s.mainline())[5] for s in games if s.turns]
    shared = [p for p, hits in index.items()
              if len({h[0].id for h in hits}) >= 2 and min(h[1] for h in hits) > 1]
    once = [p for p, hits in index.items() if len(hits) == 1]
    assert shared and once
    return sorted(set(starts)) + shared[:3] + once[:3] + ["AAAAAAAAAAAAAA"]


def test_games_through_a_position(vdb, varied):
    index = position_index(varied.games)
    for position in interesting_positions(varied.games):
        for variant in (None, "jacquet", "backgammon", "versailles"):
            hits = sorted((h for h in index.get(position, [])
                           if variant is None or h[0].variant == variant),
                          key=lambda h: (h[0].id, h[1]))
            first = {}  # each game once, at the first ply through the position
            for hit in hits:
                first.setdefault(hit[0].id, hit)
            expected = [{"game_id": s.id, "ply": ply, "player": player, "variant": s.variant,
                         "result": s.result, "date": s.name("Date")}
                        for s, ply, player, *_ in first.values()]
            assert archive.games_through(vdb, position, variant, limit=ALL) == expected
            assert archive.games_through(vdb, position, variant, limit=3) == expected[:3]
    assert len(archive.games_through(vdb, interesting_positions(varied.games)[0])) <= 100


def test_plays_from_a_position(vdb, varied):
    index = position_index(varied.games)
    checked = 0
    for position in interesting_positions(varied.games):
        for variant in (None, "jacquet", "hale", "backgammon"):
            played, wins = Counter(), Counter()
            for s, _ply, player, kind, dice, play in index.get(position, []):
                if kind in ("roll", "passed") and (variant is None or s.variant == variant):
                    played[dice, play] += 1
                    wins[dice, play] += s.winner == player
            expected = sorted(((dice, play, n, wins[dice, play]) for (dice, play), n in played.items()),
                              key=lambda e: e[1])
            expected.sort(key=lambda e: e[2], reverse=True)
            expected.sort(key=lambda e: e[0], reverse=True)
            found = archive.plays_from(vdb, position, variant)
            assert [(p.dice, p.play, p.count, p.wins) for p in found] == expected
            for p in found:
                assert p.share_won == pytest.approx(p.wins / p.count)
            checked += len(found)
    assert checked > 20


def test_position_of_the_start_is_reached_by_every_game_of_a_variant(vdb, varied):
    for variant in ("jacquet", "backgammon"):
        games = [s for s in varied.games if s.variant == variant and s.turns]
        start = next(games[0].mainline())[5]
        through = {row["game_id"] for row in archive.games_through(vdb, start, variant, limit=ALL)}
        assert through == {s.id for s in games}
        assert sum(p.count for p in archive.plays_from(vdb, start, variant)) >= len(games)


# ------------------------------------------------------------------ statistics

@pytest.mark.parametrize("variant", [None, "jacquet", "backgammon", "hale"])
def test_results_per_player(vdb, varied, variant):
    table = defaultdict(lambda: {"games": 0, "wins": 0, "losses": 0, "points_won": 0, "points_lost": 0})
    for s in varied.games:
        if (variant and s.variant != variant) or not s.valid:  # results of valid games only
            continue
        for side, tag in (("W", "White"), ("B", "Black")):
            name = s.name(tag)
            if name is None:
                continue
            row = table[name]
            row["games"] += 1
            if s.winner == side:
                row["wins"] += 1
                row["points_won"] += s.points or 0
            elif s.winner is not None:
                row["losses"] += 1
                row["points_lost"] += s.points or 0
    expected = [{"player": name, **row} for name, row in table.items()]
    expected.sort(key=lambda r: r["player"])
    expected.sort(key=lambda r: r["wins"], reverse=True)
    assert archive.results_per_player(vdb, variant) == expected


def test_player_results_per_rule_set(vdb, varied):
    names = sorted({s.name(tag) for s in varied.games for tag in ("White", "Black")} - {None})
    for name in names[:12]:
        table = defaultdict(lambda: {"games": 0, "wins": 0, "losses": 0, "unfinished": 0,
                                     "points_won": 0, "points_lost": 0})
        for s in varied.games:
            if not s.valid:  # results of valid games only
                continue
            for side, tag in (("W", "White"), ("B", "Black")):
                if s.name(tag) is None or s.name(tag).casefold() != name.casefold():
                    continue
                row = table[s.variant]
                row["games"] += 1
                if s.winner is None:
                    row["unfinished"] += 1
                elif s.winner == side:
                    row["wins"] += 1
                    row["points_won"] += s.points or 0
                else:
                    row["losses"] += 1
                    row["points_lost"] += s.points or 0
        expected = sorted(({"variant": v, **row} for v, row in table.items()),
                          key=lambda r: (-r["games"], r["variant"]))
        assert archive.player_results(vdb, name.upper()) == expected, name
    assert archive.player_results(vdb, "nobody of that name") == []


@pytest.mark.parametrize("variant", [None, "jacquet", "versailles", "backgammon"])
def test_dice_fairness_counts(vdb, varied, variant):
    faces = defaultdict(lambda: [0] * 6)
    for s in varied.games:
        if variant and s.variant != variant:
            continue
        for _ply, player, kind, dice, _play, _before in s.mainline():
            name = s.name("White" if player == "W" else "Black")
            if kind == "roll" and name is not None:
                for die in dice:
                    faces[name][int(die) - 1] += 1
    found = archive.dice_fairness(vdb, variant)
    assert [(d.player, d.faces) for d in found] == sorted(faces.items())
    for d in found:
        expected = d.dice / 6
        chi2 = sum((c - expected) ** 2 / expected for c in d.faces)
        assert d.chi_square == pytest.approx(chi2)
        assert d.p_value == pytest.approx(archive.chi_square_p(chi2, 5))
        assert 0 <= d.p_value <= 1


@pytest.mark.parametrize("statistic, degrees, p", [
    (11.0705, 5, 0.05), (1.145, 5, 0.95), (15.0863, 5, 0.01), (20.515, 5, 0.001),
    (9.2364, 5, 0.10), (4.3515, 5, 0.50), (0.5543, 5, 0.99),
    (3.8415, 1, 0.05), (6.6349, 1, 0.01), (0.00393, 1, 0.95),
    (18.307, 10, 0.05), (3.9403, 10, 0.95)])
def test_chi_square_p_against_tables(statistic, degrees, p):
    assert archive.chi_square_p(statistic, degrees) == pytest.approx(p, abs=1e-3)


@pytest.mark.parametrize("statistic", [0.01, 0.5, 1.0, 2.0, 3.9, 4.1, 7.5, 12.0, 30.0, 80.0])
def test_chi_square_p_closed_forms(statistic):
    """Exact forms for df 1 to 5, on both sides of the switch from the series to the
    continued fraction (odd df: half-integer shapes, where the fraction does not end)."""
    half = statistic / 2
    tail = math.erfc(math.sqrt(half))
    root = math.sqrt(2 * statistic / math.pi) * math.exp(-half)
    exact = {1: tail, 2: math.exp(-half), 3: tail + root, 4: math.exp(-half) * (1 + half),
             5: tail + root * (1 + statistic / 3)}
    for degrees, p in exact.items():
        assert archive.chi_square_p(statistic, degrees) == pytest.approx(p, rel=1e-9, abs=1e-15), degrees


def test_chi_square_p_edges():
    assert archive.chi_square_p(0, 5) == 1.0
    assert archive.chi_square_p(-1, 5) == 1.0
    assert 0 <= archive.chi_square_p(500, 5) < 1e-100
    values = [archive.chi_square_p(x / 4, 5) for x in range(1, 120)]
    assert all(a > b for a, b in itertools.pairwise(values)), "p falls as chi-square grows"


@pytest.mark.parametrize("variant", [None, "jacquet", "backgammon"])
@pytest.mark.parametrize("top", [1, 3])
def test_opening_plays(vdb, varied, variant, top):
    openings = defaultdict(Counter)
    for s in varied.games:
        if (variant and s.variant != variant) or not s.valid:  # openings of valid games only
            continue
        for ply, _player, kind, dice, play, _before in s.mainline():
            if ply == 1 and kind == "roll":
                openings[dice][play] += 1
    expected = {}
    for dice in sorted(openings, reverse=True):
        ranked = sorted(openings[dice].items(), key=lambda e: (-e[1], e[0]))
        expected[dice] = ranked[:top]
    found = archive.opening_plays(vdb, variant, top=top)
    assert list(found) == list(expected)
    assert found == expected
