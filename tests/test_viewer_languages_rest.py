"""The viewer's last English in French and Russian (issue 36): an invalid game's error in
the page's language (kept as a message id and parameters; an archive of before keeps its
English text), the analysis level ("marks confirmed at") on the game and player pages,
the printed game's tag labels, and the recorder's confirmations and list of games in
progress. Tests find the texts by their catalog entries; the wording is checked once per
language in ``test_the_wording_in_each_catalog``."""

from __future__ import annotations

import html
import json
import re
import sqlite3

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.messages import Message, render
from tests.accounts_helpers import signed_in_client
from tests.test_viewer_languages_pages import TRANSLATIONS, token, visible
from webviewer import create_app

TRANSLATED = ["fr", "ru"]
ILLEGAL = ('[Event "Club night"]\n[Site "Paris"]\n[Round "2"]\n[White "Marie"]\n[Black "Jean"]\n'
           '[Variant "jacquet"]\n\n1. 55: 24/4 66: 24/17 *\n')
GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n[Variant "jacquet"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


def viewer_words(language: str) -> dict[str, str]:
    """The viewer's catalog: each English text (a plural by its singular) and its
    translation in ``language`` (a plural's forms joined)."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        found = read_po(handle)
    return {(m.id if isinstance(m.id, str) else m.id[0]): (m.string if isinstance(m.string, str)
                                                            else " | ".join(m.string))
            for m in found if m.id}


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """An archive with a game kept invalid (a doublet played short) and a valid game
    analysed with its marks confirmed at 1-ply: (path, invalid id, analysed id)."""
    folder = tmp_path_factory.mktemp("rest")
    (folder / "illegal.jqn").write_text(ILLEGAL, encoding="utf-8")
    (folder / "game.jqn").write_text(GAME, encoding="utf-8")
    path = folder / "club.db"
    with archive.open_archive(path) as db:
        archive.import_files(db, [folder / "illegal.jqn"], keep_invalid=True)
        archive.import_files(db, [folder / "game.jqn"])
        invalid, analysed = (row[0] for row in db.execute("SELECT id FROM games ORDER BY valid, id"))
    answer = CliRunner().invoke(main, ["analyse", "--db", str(path), "--confirm", "1ply", "--jobs", "1"])
    assert answer.exit_code == 0, answer.output
    return path, invalid, analysed


@pytest.fixture(scope="module")
def app(club):
    return create_app({"ARCHIVE": str(club[0]), "TESTING": True})


def page(app, address: str, language: str) -> str:
    answer = app.test_client().get(address, headers={"Accept-Language": language})
    assert answer.status_code == 200, address
    return html.unescape(answer.text)


def validated(record: str, tmp_path) -> dict[str, object]:
    """The first error ``jacquet validate --json`` gives for ``record``."""
    path = tmp_path / "record.jqn"
    path.write_text(record, encoding="utf-8")
    answer = CliRunner().invoke(main, ["validate", "--json", str(path)])
    return next(error for line in answer.stdout.splitlines() if line.startswith("{")
                for error in json.loads(line)["errors"])


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_an_invalid_games_error_is_in_the_page_language(app, club, language, tmp_path):
    """The archive keeps the error's id and parameters, those ``validate --json`` gives;
    the game page and the printed game say it in the page's language."""
    path, invalid, _ = club
    with sqlite3.connect(path) as db:
        stored, english = db.execute("SELECT error_msg, error_message FROM games WHERE id = ?",
                                     [invalid]).fetchone()
    error = validated(ILLEGAL, tmp_path)
    kept = json.loads(stored)
    assert (kept["id"], error["rule"]) == (error["id"], "R-DOUBLET")
    assert Message.from_stored(stored).as_json() == {"id": error["id"], "params": error["params"]}
    said = render(Message.from_stored(stored), language)
    for address in (f"/game/{invalid}", f"/game/{invalid}/print"):
        shown = page(app, address, language)
        assert f"[R-DOUBLET] {said}</p>" in shown, address
        assert (english in shown) == (language == "en"), address


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_archive_of_before_shows_its_errors_english_text(club, language, tmp_path):
    """A game stored before the errors were kept as messages has its text alone: shown
    as it was stored."""
    copy = tmp_path / "old.db"
    with sqlite3.connect(club[0]) as source, sqlite3.connect(copy) as target:
        source.backup(target)
        target.execute("UPDATE games SET error_msg = NULL")
        english = target.execute("SELECT error_message FROM games WHERE id = ?", [club[1]]).fetchone()[0]
    old = create_app({"ARCHIVE": str(copy), "TESTING": True})
    assert f"[R-DOUBLET] {english}</p>" in page(old, f"/game/{club[1]}", language)


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_programs_get_an_invalid_games_error_as_id_and_parameters(club, language, tmp_path):
    """``/api/games`` and ``jacquet search --json`` give a game's first error by its id and
    parameters beside its text in the language asked; a game stored before the archive kept
    messages has its English text and no id."""
    path, invalid, valid = club
    with sqlite3.connect(path) as db:
        message = Message.from_stored(db.execute("SELECT error_msg FROM games WHERE id = ?",
                                                 [invalid]).fetchone()[0])
    api = create_app({"ARCHIVE": str(path), "TESTING": True}).test_client()
    listed = api.get("/api/games", headers={"Accept-Language": language}).get_json()["games"]
    cli = json.loads(CliRunner().invoke(main, ["--lang", language, "search", "--json", "--db",
                                               str(path)]).stdout)["games"]
    for rows in (listed, cli):
        games = {row["id"]: row for row in rows}
        assert games[invalid]["error"] == message.as_json()
        assert games[invalid]["error_message"] == render(message, language)
        assert (games[invalid]["error_message"] == render(message, "en")) == (language == "en")
        assert games[valid]["error"] is None and games[valid]["error_message"] is None
        assert "error_msg" not in games[invalid]
    old = tmp_path / "old.db"
    with sqlite3.connect(path) as source, sqlite3.connect(old) as target:
        source.backup(target)
        target.execute("UPDATE games SET error_msg = NULL")
        english = target.execute("SELECT error_message FROM games WHERE id = ?", [invalid]).fetchone()[0]
    before = create_app({"ARCHIVE": str(old), "TESTING": True}).test_client()
    games = {row["id"]: row for row in before.get("/api/games", headers={"Accept-Language": language})
             .get_json()["games"]}
    assert (games[invalid]["error"], games[invalid]["error_message"]) == (None, english)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_analysis_level_is_in_the_page_language(app, club, language):
    level = render(Message.of("level.confirmed", level="{engine}", confirm="1-ply"), language)
    before, after = level.split("{engine}")
    pattern = re.escape(before) + r"jacquet-td jacquet [^<]*?, 0-ply" + re.escape(after)
    game = page(app, f"/game/{club[2]}", language)
    assert re.search(pattern, game), language
    assert "marks confirmed at" not in visible(game)
    player = page(app, "/player/Marie", language)
    assert re.search(pattern, player) and "marks confirmed at" not in visible(player)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_printed_games_tags_are_labelled_in_the_page_language(app, club, language):
    words = viewer_words(language)
    shown = page(app, f"/game/{club[1]}/print", language)
    tags = re.findall(r'<dt data-tag="(\w+)">([^<]*)</dt>', shown)
    labels = {"Event": "Event", "Site": "Site", "Round": "Round", "White": "White", "Black": "Black",
              "Variant": "Rule set"}
    assert dict(tags) == {tag: words[english] for tag, english in labels.items()}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_recorders_questions_and_list_are_in_the_page_language(app, language):
    scorer = signed_in_client(app)
    headers = {"Accept-Language": language}
    start = scorer.get("/record/", headers=headers)
    recording = scorer.post("/record/", headers=headers, data={
        "csrf_token": token(start.text), "variant": "jacquet", "white": "Ann", "black": "Bob",
        "starter": "White"})
    assert recording.status_code == 303, recording.text
    address = recording.headers["Location"]
    words = viewer_words(language)
    white = words["White"]
    resign = html.unescape(scorer.get(address + "?confirm=resign&points=2", headers=headers).text)
    question = words["%(player)s resigns: %(other)s wins %(num)s point and the game ends. Is that so?"]
    plural = {"fr": 2, "ru": 1}[language]  # the form of 2: French's other, Russian's "2 очка"
    assert question.split(" | ")[plural] % {"player": white, "other": words["Black"], "num": 2} in resign
    assert words["Yes, %(player)s resigns"] % {"player": white} in resign
    listed = html.unescape(scorer.get("/record/", headers=headers).text)
    assert words["%(player)s to act"] % {"player": white} in listed or \
        words["%(player)s to play %(dice)s"].split("%(dice)s")[0] % {"player": white} in listed
    refused = scorer.get(address + "?confirm=resign&points=x", headers=headers)
    assert refused.status_code == 400
    assert words["%(name)s must be a whole number"] % {"name": "points"} in html.unescape(refused.text)


@pytest.mark.parametrize(("language", "words"), [
    ("fr", {", marks confirmed at %(level)s": ", marques confirmées à %(level)s",
            "%(player)s to act": "%(player)s à agir", "Lead roll": "Coup de départ"}),
    ("ru", {", marks confirmed at %(level)s": ", пометки подтверждены на %(level)s",
            "%(player)s to act": "очередь: %(player)s", "Lead roll": "Начальный бросок"}),
])
def test_the_wording_in_each_catalog(language, words):
    """The catalogs' words, once: the level's the same in the viewer's and the engine's."""
    found = viewer_words(language)
    assert {english: found[english] for english in words} == words
    assert render(Message.of("level.confirmed", level="e, 0-ply", confirm="1-ply"), language) == \
        "e, 0-ply" + words[", marks confirmed at %(level)s"] % {"level": "1-ply"}


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_players_figures_are_written_as_the_language_writes_numbers(app, club, language):
    """The error rate and the losses on the player page through Babel: a decimal comma in
    French and Russian, a point in English (they were written with Python's point)."""
    from babel.numbers import get_decimal_symbol

    answer = app.test_client().get("/player/Marie", headers={"Accept-Language": language})
    assert answer.status_code == 200
    rate = re.search(r'<p class="skill">.*?<strong>([^<]+)</strong>', answer.text, re.S).group(1)
    symbol, other = get_decimal_symbol(language), get_decimal_symbol("en" if language != "en" else "fr")
    assert re.fullmatch(rf"\d+{re.escape(symbol)}\d", rate), rate
    losses = re.findall(r"<td>(\d+\D\d{3})</td>", answer.text)
    assert all(symbol in loss and other not in loss for loss in losses), losses
