"""The viewer's pages in French and Russian (issue 36): the archive, a game's page, the
Validate page with an illegal play (the error in place with its rule id and the legal
plays), the recorder as a scorer, a game against the engine, the sign-in page and an
error page each answer in the language asked, with ``<html lang>`` set, and show none of
the catalog's English texts that the same page shows in English; nor any of the engine's
(the ``jacquet`` catalog: captions, board marks, the position in words, rule errors)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import archive
from notation.messages import LANGUAGES
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import shown
from webviewer import create_app

GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')
ILLEGAL = '[White "Marie"]\n[Black "Jean"]\n[Variant "jacquet"]\n\n1. 55: 24/4 66: 24/17 *\n'
TRANSLATIONS = Path(__file__).resolve().parents[1] / "webviewer" / "translations"
MIN_SHOWN = 5
"""Catalog texts a page shows at least (the test is about them)."""


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("languages")
    record = folder / "game.jqn"
    record.write_text(GAME, encoding="utf-8")
    db = archive.open_archive(folder / "club.db")
    archive.import_files(db, [record])
    db.close()
    return create_app({"ARCHIVE": str(folder / "club.db"), "TESTING": True})


def english_texts(language: str) -> dict[str, str]:
    """The catalog's English texts that can be looked for in a page (no placeholder, two
    words at least), each with its translation in ``language``."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        found = read_po(handle)
    return {message.id: message.string for message in found
            if isinstance(message.id, str) and message.id and "%" not in message.id
            and "<" not in message.id and " " in message.id.strip()}


def visible(page: str) -> str:
    """The text a reader sees of a page (no script, no tag), spaces made single."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def pages(app, language: str) -> dict[str, tuple[int, str]]:
    """Each page a player reads, as a browser asking for ``language`` gets it."""
    headers = {"Accept-Language": language}
    visitor = app.test_client()
    answers = {}
    for name, address in (("archive", "/"), ("game", "/game/1?ply=2"), ("login", "/login"),
                          ("error", "/game/999"), ("play", "/play/"), ("validate form", "/validate")):
        answer = visitor.get(address, headers=headers)
        answers[name] = (answer.status_code, answer.text)
    form = visitor.get("/validate", headers=headers).text
    checked = visitor.post("/validate", headers=headers, data={
        "csrf_token": token(form), "record": ILLEGAL, "format": "jqn", "variant": "jacquet"})
    answers["validate"] = (checked.status_code, checked.text)
    started = visitor.post("/play/", headers=headers, data={
        "csrf_token": token(answers["play"][1]), "variant": "jacquet", "side": "White", "strength": "random"})
    assert started.status_code == 303, started.text
    game = visitor.get(started.headers["Location"], headers=headers)
    answers["play game"] = (game.status_code, game.text)
    scorer = signed_in_client(app)
    start = scorer.get("/record/", headers=headers)
    answers["record start"] = (start.status_code, start.text)
    recording = scorer.post("/record/", headers=headers, data={
        "csrf_token": token(start.text), "variant": "jacquet", "white": "Ann", "black": "Bob",
        "starter": "White"})
    assert recording.status_code == 303, recording.text
    page = scorer.get(recording.headers["Location"], headers=headers)
    answers["recorder"] = (page.status_code, page.text)
    return answers


@pytest.fixture(scope="module")
def english(app):
    return pages(app, "en")


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_each_page_is_in_the_language_asked(app, english, language):
    texts = english_texts(language)
    for name, (status, page) in pages(app, language).items():
        assert status == english[name][0], name
        assert f'<html lang="{language}">' in page, name
        shown_in_english = [text for text in texts
                            if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", visible(english[name][1]))]
        assert len(shown_in_english) >= MIN_SHOWN, (name, shown_in_english)
        seen = visible(page)
        left = [text for text in shown_in_english
                if text not in texts[text] and re.search(rf"(?<!\w){re.escape(text)}(?!\w)", seen)]
        assert not left, f"{name} in {language}: English left: {left}"


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_an_illegal_play_is_shown_in_place_with_its_rule_and_the_legal_plays(app, language):
    status, page = pages(app, language)["validate"]
    assert status == 200 and 'class="problem error"' in page
    assert re.search(r'<span class="rule">\[R-[A-Z-]+\]</span>', page)
    legal = re.search(r'<p class="legal">([^<]*)', page).group(1)
    words = {"fr": "Coups légaux pour ce coup de dés", "ru": "Допустимые ходы при этом броске"}[language]
    assert legal.strip().startswith(words) and "<code>24/18" in page
    assert '<a href="#L5">' + {"fr": "ligne 5", "ru": "строка 5"}[language] in page


def test_english_pages_are_as_they_were(english):
    """English needs no catalog: the texts are the code's own."""
    assert all('<html lang="en">' in page for _, page in english.values())
    assert "Legal plays for this roll" in english["validate"][1]
    assert "Sign in" in visible(english["login"][1]) and "Error 404" in english["error"][1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rule_error_reads_in_the_page_language_as_the_command_line_gives_it(app, language, tmp_path):
    """The engine's message (the ``jacquet`` catalog) in /validate is the one ``jacquet
    validate --json`` gives in the same language, not the English stored in the archive."""
    import json

    from click.testing import CliRunner

    from jacquet_cli import main

    record = tmp_path / "illegal.jqn"
    record.write_text(ILLEGAL, encoding="utf-8")
    answer = CliRunner().invoke(main, ["--lang", language, "validate", "--json", str(record)])
    games = [json.loads(line) for line in answer.stdout.splitlines() if line.startswith("{")]
    errors = [error for game in games for error in game["errors"]]
    assert [error["rule"] for error in errors] == ["R-DOUBLET"], answer.output
    status, page = pages(app, language)["validate"]
    assert status == 200
    assert errors[0]["message"] in html.unescape(page)


def engine_probes() -> dict[str, str]:
    """The ``jacquet`` catalog's English texts (the engine's, the readers', the viewer's
    captions and board marks), each by the longest piece of it between two placeholders
    that has two English words at least (``" and played "`` of ``{player} rolled {dice}
    and played {play}.``): a colour alone, ``{side}: {men}.`` or ``{count} on {point}``
    cannot be told from other words."""
    from string import Formatter

    from notation.messages import CATALOG

    found = {}
    for message_id, english in CATALOG.items():
        for text in english if isinstance(english, tuple) else (english,):
            pieces = [part.strip() for part, _, _, _ in Formatter().parse(text)
                      if len(re.findall(r"[A-Za-z]{2,}", part)) >= 2]
            if pieces:
                found[f"{message_id}: {text}"] = max(pieces, key=len)
    return found


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_the_engines_texts_are_in_the_page_language(app, english, language):
    """A French or Russian page shows none of the ``jacquet`` catalog's sentences (a turn's
    caption, the courier's mark on the board, the position in words, how a game ended...)
    that the English page shows: the whole page, the game page's data for each ply too."""
    probes = engine_probes()
    shown = {name: [text for text, probe in probes.items() if probe in html.unescape(english[name][1])]
             for name in english}
    assert {"caption.rolled", "caption.to-play", "mark.courier"} <= {
        text.split(":")[0] for text in shown["game"]}, shown["game"]
    for name, (_, page) in pages(app, language).items():
        left = [text for text in shown[name] if probes[text] in html.unescape(page) and not same_in(language, text)]
        assert not left, f"{name} in {language}: the engine's English left: {left}"


def same_in(language: str, probe: str) -> bool:
    """Whether the catalog entry of ``probe`` (``id: English``, without placeholders) is
    written the same in ``language``: a name that language keeps (``Jacquet de
    Versailles`` in French)."""
    from notation.messages import Message, render

    message_id, english = probe.split(": ", 1)
    return "{" not in english and render(Message.of(message_id), language) == english


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_every_skill_label_has_its_translation(language):
    """The labels of a player's error rate (``RuleSet.skill``), as the game and player
    pages show them, are in the page's language for every rule set's scale."""
    from notation import rule_set
    from notation.engine.rules import TITLES

    for name in TITLES:
        rules = rule_set(name)
        for bound, _ in rules.skill:
            rate = bound - 0.05 if bound != float("inf") else 1000.0
            english, translated = rules.skill_label(rate, "en"), rules.skill_label(rate, language)
            assert (translated and translated != english) or english == "Expert", (name, english)


@pytest.mark.parametrize(("language", "band"), [
    ("en", "White 360, Black 360"), ("fr", "Blanc 360, Noir 360"), ("ru", "белые 360, чёрные 360")])
def test_the_pip_charts_bands_are_in_the_page_language(app, language, band):
    """Each ply's band of the pip chart says both pip counts in the page's words (its
    title, which a pointer or a screen reader shows)."""
    answer = app.test_client().get("/game/1?ply=2", headers={"Accept-Language": language})
    assert answer.status_code == 200
    page = answer.text
    titles = re.findall(r"<rect class=\"band\"[^>]*><title>([^<]*)</title>", page)
    assert len(titles) == 5 and titles[0] == shown("%(label)s: %(value)s", language,
                                                   label=shown("ply", language) + " 0", value=band)
    assert language == "en" or not any("White" in title or "Black" in title for title in titles)
