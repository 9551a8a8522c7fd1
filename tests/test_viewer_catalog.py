"""The viewer's catalog (issue 36, the ``messages`` domain): every text of the templates
goes through it (a template's own text outside ``_()`` or ``{% trans %}`` fails here), the
catalogs hold every message the code has, each translated in French and Russian, none
fuzzy, each keeping its placeholders, and the committed ``.mo`` are those the ``.po``
compile to."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from jinja2 import Environment
from jinja2.ext import i18n

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "webviewer" / "templates"
TRANSLATIONS = ROOT / "webviewer" / "translations"
LANGUAGES = ("fr", "ru")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def _tools():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def catalog(language: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=language)


# ---------------------------------------------------------------- templates

ALLOWED_WORDS = {
    # examples of what a field takes (notation, dates, position IDs), not words to translate
    "YYYY.MM.DD", "W5", "B3", "24/18", "13/11", "cube=true", "0-ply", "6-4", "0-0", "61",
    "API", "-ply",
}
"""Text in a template's own markup that is no sentence: notation and format names."""
LITERAL_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
JINJA = "\x00"
"""What stands for a Jinja construct in a template's text."""


def _words(text: str) -> list[str]:
    """The words (with letters in them) of a template's own text, but the allowed ones."""
    words = (word.strip("()[],.:;·—–…«»▶◀↑▼▲#?!|'\"") for word in re.split(r"[\s\x00]+", text))
    return [word for word in words if re.search(r"[A-Za-z]", word) and word not in ALLOWED_WORDS]


def _literal_text(source: str) -> list[str]:
    """Each piece of a template's own text that a reader sees, outside any Jinja
    expression, tag, comment and ``{% trans %}`` block: its text between HTML tags, and its
    title, aria-label, placeholder and alt attributes."""
    text, depth, before = [], 0, ""
    for _, kind, value in Environment(extensions=[i18n]).lex(source):
        if kind == "whitespace":
            continue
        if kind == "name" and before == "block_begin":
            depth += {"trans": 1, "endtrans": -1}.get(value, 0)
        before = kind
        if kind == "data" and not depth:
            text.append(value)
        elif kind.endswith("_begin"):
            text.append(JINJA)
    joined = "".join(text)
    return [*LITERAL_ATTRIBUTES.findall(joined), *re.sub(r"<[^>]*>", " ", joined).split("\n")]


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")),
                         ids=lambda path: path.relative_to(TEMPLATES).as_posix())
def test_no_template_text_outside_the_catalog(template):
    stray = [word for text in _literal_text(template.read_text(encoding="utf-8")) for word in _words(text)]
    assert not stray, f"{template.name}: text outside _() or trans: {stray[:12]}"


def test_the_scan_finds_text_outside_the_catalog():
    """The scan above fails on a stray word, in text and in a title, and on none of the
    catalog's."""
    stray = ('<p>{{ _("Said") }} and more</p><a title="Go back" href="{{ x }}">{{ x }}</a>'
             '<input placeholder="24/18">{% trans %}Kept <b>out</b>{% endtrans %}')
    assert [word for text in _literal_text(stray) for word in _words(text)] == ["Go", "back", "and", "more"]


# ---------------------------------------------------------------- catalogs

def test_the_catalogs_hold_every_message_of_the_code(tmp_path):
    """The template extracted from the code now is the one the catalogs were updated to."""
    tools = _tools()
    domain = next(d for d in tools.DOMAINS if d.name == "messages")
    fresh = tmp_path / "messages.pot"
    tools.pybabel("extract", "-F", str(domain.mapping), "-k", "lazy_gettext", "-k", "_l",
                  "--no-wrap", "-o", str(fresh), str(ROOT / "webviewer"))
    with open(fresh, "rb") as handle:
        wanted = {message.id if isinstance(message.id, str) else tuple(message.id)
                  for message in read_po(handle) if message.id}
    assert len(wanted) > 400
    for language in LANGUAGES:
        held = {message.id if isinstance(message.id, str) else tuple(message.id)
                for message in catalog(language) if message.id}
        assert wanted - held == set(), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_keeping_its_placeholders(language):
    messages = [message for message in catalog(language) if message.id]
    assert len(messages) > 400
    for message in messages:
        assert "fuzzy" not in message.flags, message.id
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"{language}: {ids[0]!r} untranslated"
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, f"{language}: {ids[0]!r} -> {string!r}"
            assert string.count("%") - 2 * string.count("%%") == len(PLACEHOLDER.findall(string)), string
        for tag in ("<code>", "<strong", "<a href=", "<abbr", "<span"):
            assert ids[0].count(tag) == strings[0].count(tag), (ids[0], strings[0])


@pytest.mark.parametrize("language", LANGUAGES)
def test_plurals_have_every_form_of_the_language(language):
    """Russian has three (1 ход, 2 хода, 5 ходов); Babel's French rule three too (1, 10⁶, other)."""
    found = catalog(language)
    plurals = [message for message in found if message.id and not isinstance(message.id, str)]
    assert plurals and found.num_plurals == 3
    assert all(len(message.string) == 3 and all(message.string) for message in plurals)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_the_po_compiled(language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    compiled = io.BytesIO()
    write_mo(compiled, catalog(language))
    assert (folder / "messages.mo").read_bytes() == compiled.getvalue(), \
        f"run: python tools/i18n.py compile ({language})"
