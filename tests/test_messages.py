"""The messages as data (notation.messages): every message id has a complete French and
Russian translation that keeps its placeholders, the compiled catalogs and the template are
those of the committed sources, and a message renders in the language asked, English
unless a program chose another."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from notation import messages
from notation.engine.checker import check_play
from notation.engine.rules import rule_set
from notation.errors import IllegalPlayError, RecordError
from notation.messages import CATALOG, GROUPING, LANGUAGES, LOCALE, Count, Message, placeholders, render

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [language for language in LANGUAGES if language != "en"]


def po_catalog(language: str):
    with (LOCALE / language / "LC_MESSAGES" / "jacquet.po").open("rb") as handle:
        return read_po(handle, locale=language)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_id_is_translated_completely(language):
    catalog = po_catalog(language)
    entries = {message.context: message for message in catalog if message.id}
    assert sorted(entries) == sorted(CATALOG)  # none missing, none left over
    for message_id, entry in entries.items():
        assert entry.id == CATALOG[message_id], message_id  # translated from today's English
        assert not entry.fuzzy, message_id
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert len(forms) == (catalog.num_plurals if isinstance(entry.id, tuple) else 1), message_id
        assert all(form.strip() for form in forms), message_id


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_keeps_every_placeholder_and_adds_none(language):
    for entry in po_catalog(language):
        if not entry.id:
            continue
        expected = placeholders(CATALOG[entry.context])
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for form in forms:
            assert placeholders(form) == expected, (entry.context, form)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_that_of_its_source(language):
    with (LOCALE / language / "LC_MESSAGES" / "jacquet.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in po_catalog(language):
        if not entry.id:
            continue
        if isinstance(entry.id, tuple):
            for count in (1, 2, 5, 21):
                form = entry.string[po_catalog_plural(language, count)]
                assert compiled.npgettext(entry.context, *entry.id, count) == form, entry.context
        else:
            assert compiled.pgettext(entry.context, entry.id) == entry.string, entry.context


def po_catalog_plural(language: str, count: int) -> int:
    return gettext.c2py(po_catalog(language).plural_expr)(count)


def test_the_template_is_that_of_the_catalog(tmp_path):
    written = tmp_path / "jacquet.pot"
    messages.write_template(written)

    def entries(path: Path) -> list[tuple[object, object]]:
        with path.open("rb") as handle:
            return [(m.context, m.id) for m in read_po(handle) if m.id]

    assert entries(written) == entries(LOCALE / "jacquet.pot")


def _ids_in_the_code() -> set[str]:
    """Every literal id passed to ``Message.of`` in notation/ and jacquet_cli/."""
    found = set()
    for package in ("notation", "jacquet_cli"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "of" and node.args
                        and isinstance(node.args[0], ast.Constant)):
                    found.add(node.args[0].value)
    return found


def test_every_id_the_code_names_is_in_the_catalog():
    named = _ids_in_the_code()
    assert len(named) > 100
    assert named - set(CATALOG) == set()


def test_a_message_renders_in_the_language_asked_its_parameters_too():
    start = rule_set("jacquet").start
    with pytest.raises(IllegalPlayError) as refused:
        check_play(start, "53", "24/19")
    error = refused.value
    assert error.rule_id == "R-MAX" and error.msg.id == "rule.max"
    assert error.msg.as_json() == {"id": "rule.max", "params": {
        "play": "24/19", "played": {"id": "count.dice", "params": {"count": 1}}, "roll": "5-3",
        "most": {"id": "count.dice", "params": {"count": 2}}, "example": "24/16"}}
    assert str(error) == "[R-MAX] 24/19 plays 1 die of 5-3; 2 dice can be played, e.g. 24/16"
    assert render(error.msg, "fr") == "24/19 joue 1 dé sur 5-3 ; on peut en jouer 2 dés, p. ex. 24/16"
    assert render(error.msg, "ru") == "24/19 играет 1 кость из 5-3; можно сыграть 2 кости, напр. 24/16"


def test_a_count_is_grouped_as_its_language_writes_it_and_still_picks_the_plural():
    message = Message.of("cli.rollout.stopped", count=Count(8280), total=Count(20000))
    assert render(message, "en") == ("interrupted: the figures are those of the 8,280 games completed "
                                     "of 20,000 per candidate")
    assert "8\u202f280" in render(message, "fr") and "20\u202f000" in render(message, "fr")
    assert "8\u00a0280" in render(message, "ru") and "20\u00a0000" in render(message, "ru")
    one = Message.of("cli.rollout.stopped", count=Count(1), total=Count(1296))
    assert "the 1 game completed of 1,296" in render(one, "en")
    assert "по 1 завершённой партии из 1\u00a0296" in render(one, "ru")
    assert message.as_json()["params"] == {"count": 8280, "total": 20000}  # programs get numbers
    assert set(GROUPING) == set(LANGUAGES)  # every language says how it groups


def test_the_current_language_renders_errors_until_set_back():
    error = RecordError(Message.of("reader.jqn.close"), file="a.jqn", line=3, column=7, game=2)
    try:
        messages.set_language("ru")
        assert str(error) == "a.jqn:3:7: error: [SYNTAX] партия 2: ')' не закрывает никакого варианта"
        assert error.message == "')' closes no variation"  # (stored as the archive keeps it)
    finally:
        messages.set_language("en")
    assert str(error) == "a.jqn:3:7: error: [SYNTAX] game 2: ')' closes no variation"


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="known: en, fr, ru"):
        messages.set_language("de")


@pytest.mark.parametrize(("environ", "language"), [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
    ({"LANGUAGE": "de:ru", "LANG": "fr_FR.UTF-8"}, "ru"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "ru_RU"}, "ru"),
])
def test_the_language_of_the_environment(environ, language):
    assert messages.language_from_environment(environ) == language


def test_docs_name_every_group_of_ids():
    """docs/languages.md's table of ids covers every id, by its first word."""
    text = (ROOT / "docs" / "languages.md").read_text(encoding="utf-8")
    for message_id in CATALOG:
        group = message_id.split(".")[0]
        assert f"`{group}.*`" in text or f"`{group}`" in text, message_id


def test_no_id_is_in_two_catalog_modules():
    from notation.messages import admin, commands, engine, general, readers, recorder, rules, views

    modules = (admin, commands, engine, general, readers, recorder, rules, views)
    assert sum(len(module.MESSAGES) for module in modules) == len(CATALOG)
