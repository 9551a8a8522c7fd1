"""Counts are real plurals in every language (issue 36): no catalog text writes a count's
noun as "game(s)" (but for the ``.mat`` format's own ``Wins N point(s)``, which quotes
the file), each counting entry is a singular/plural pair, and Russian says its three forms
(1 партия, 2 партии, 5 партий) on the command line and on the Validate page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from notation.messages import Message, entries, render
from tests.cli_language_helpers import run, said

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = [ROOT / "notation" / "messages" / "locale" / "jacquet.pot", ROOT / "webviewer" / "translations" / "messages.pot"]
QUOTED = re.compile(r"Wins \{value\} point\(s\)")
"""The ``.mat`` format's own words, quoted from the file."""
GAMES = [ROOT / "samples" / "openings" / name for name in ("jacquet-opening-5-5.jqn", "jacquet-opening-6-6.jqn")]


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_no_catalog_text_counts_with_a_bracketed_plural(template):
    with open(template, "rb") as handle:
        found = read_po(handle)
    texts = [text for message in found if message.id
             for text in (message.id if isinstance(message.id, tuple) else (message.id,))]
    assert [text for text in texts if "(s)" in QUOTED.sub("", text)] == []


def test_each_counting_entry_has_russians_three_forms():
    counting = [(id, text) for id, text in entries() if isinstance(text, tuple)]
    assert len(counting) > 20
    for id, (one, many) in counting:
        if "{count}" not in one:
            continue
        forms = {render(Message.of(id, **{**dict.fromkeys(re.findall(r"\{(\w+)\}", many), "x"), "count": n}), "ru")
                 for n in (1, 2, 5)}
        assert len(forms) >= 2, id  # (a form may serve two counts: "ходов" after 2 and 5 in the genitive)


@pytest.mark.parametrize(("games", "words"), [(1, "1 партия записана"), (2, "2 партии записаны"),
                                              (5, "5 партий записано")])
def test_convert_says_one_two_and_five_games_in_russian(tmp_path, games, words):
    source = tmp_path / "games.jqn"
    source.write_text("\n".join([GAMES[0].read_text(encoding="utf-8")] * games), encoding="utf-8")
    answer = run("ru", "convert", str(source), str(tmp_path / "games.json"))
    assert answer.exit_code == 0, answer.output
    assert said("ru", "cli.write.written", count=games, path=str(tmp_path / "games.json")) in answer.output
    assert words in answer.output


def test_the_validate_page_counts_in_russian(client):
    record = "\n".join(path.read_text(encoding="utf-8") for path in GAMES)
    page = client.post("/validate", data={"record": record, "format": "jqn"}, headers={"Accept-Language": "ru"}).text
    assert "прочитаны 2 партии" in page and "(s)" not in page


@pytest.mark.parametrize("catalog", ["notation/messages/locale/{}/LC_MESSAGES/jacquet.po",
                                     "webviewer/translations/{}/LC_MESSAGES/messages.po"])
@pytest.mark.parametrize("language", ["fr", "ru"])
def test_every_plural_form_is_written(catalog, language):
    """Each of the language's forms (French has three in Babel's rules: one, many, other) is
    filled in, so no count falls back to the English."""
    with open(ROOT / catalog.format(language), "rb") as handle:
        found = read_po(handle)
    empty = [message.id for message in found if isinstance(message.string, tuple) and not all(message.string)]
    assert empty == []
