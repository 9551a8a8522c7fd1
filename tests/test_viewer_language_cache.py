"""The game page keeps its node part's words per game and language (issue 36's speed
item): one game's page asked in French, then Russian, then English, then French again in
one process shows each time the words of the language asked, never those kept for the
language before (the steps, the options, "Ply 2 of 4", the pip counts, the board's title,
in the page and in the data the script steps through)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import archive
from webviewer import create_app

GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')
TRANSLATIONS = Path(__file__).resolve().parents[1] / "webviewer" / "translations"
WORDS = ("« Start", "◀ Back", "Forward ▶", "End »", "Autoplay", "Flip board (f)",
         "Step through the game", "(in a variation)", "Number the points for the player on roll",
         "Back to the main line (↑)")
"""The fixed words of the node's part of the page at a main-line ply."""
SENTENCES = ("Ply %(ply)s of %(last)s", "Pips: White %(white)s, Black %(black)s.",
             "Position after ply %(ply)s")
"""Its sentences with numbers (the board's title is read by screen readers)."""


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("language-cache")
    record = folder / "game.jqn"
    record.write_text(GAME, encoding="utf-8")
    db = archive.open_archive(folder / "club.db")
    archive.import_files(db, [record])
    db.close()
    return create_app({"ARCHIVE": str(folder / "club.db"), "TESTING": True}).test_client()


def catalog(language: str) -> dict[str, str]:
    """Each English text of the viewer's catalog with its ``language`` translation (the
    English text itself for English)."""
    if language == "en":
        return {text: text for text in WORDS + SENTENCES}
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return {message.id: message.string for message in read_po(handle)
                if isinstance(message.id, str) and message.id}


def sentence(text: str) -> re.Pattern[str]:
    """A catalog sentence with any number in its placeholders."""
    return re.compile(re.sub(r"%\\\(\w+\\\)s", r"\\d+", re.escape(text)))


def test_each_language_shows_its_own_words_never_those_kept_for_another(client):
    game_id = re.search(r'href="/game/(\d+)', client.get("/").get_data(as_text=True)).group(1)
    catalogs = {language: catalog(language) for language in ("fr", "ru", "en")}
    for language in ("fr", "ru", "en", "fr"):
        answer = client.get(f"/game/{game_id}?ply=2", headers={"Accept-Language": language})
        assert answer.status_code == 200
        page = html.unescape(answer.get_data(as_text=True))
        assert f'<html lang="{language}"' in page
        mine = catalogs[language]
        for text in WORDS:
            assert mine[text] in page, (language, text)
        for text in SENTENCES:
            assert sentence(mine[text]).search(page), (language, text)
        assert mine["Ply %(ply)s of %(last)s"].replace("%(ply)s", "2").replace("%(last)s", "4") in page
        for other, theirs in catalogs.items():
            if other == language:
                continue
            for text in WORDS:
                if theirs[text] != mine[text]:
                    assert theirs[text] not in page, (language, other, text)
            for text in SENTENCES:
                if theirs[text] != mine[text]:
                    assert not sentence(theirs[text]).search(page), (language, other, text)
