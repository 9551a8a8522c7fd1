"""The glossary's French and Russian words are the ones the catalogs use: for each core
term, the messages whose English says it mostly say the glossary's word in the
translation (three in four at least: a sentence may say it another way), in the engine's
catalog and in the viewer's alike (read from the .po files)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
CATALOGS = {
    "jacquet": "notation/messages/locale/{language}/LC_MESSAGES/jacquet.po",
    "messages": "webviewer/translations/{language}/LC_MESSAGES/messages.po",
}
COLUMNS = {"fr": "French", "ru": "Russian"}

# A core term (as the glossary's first column writes it) and how an English message says it.
CORE = {
    "man": r"\bm[ae]n\b",
    "point": r"\bpoints? (?:\d|\{)|\bnumber the points\b",
    "talon": r"\btalon\b",
    "head (голова)": r"\bhead\b",
    "bar": r"\bbar\b",
    "bear off": r"\bbears? off\b|\bborne off\b|^bear-off$",
    "courier": r"\bcourier\b",
    "blot": r"\blone opposing man\b",
    "rest point": r"\brest point\b|\bon the way\b",
    "play": r"\b(?:legal|best|a|the|this) plays?\b",
    "doublet": r"\bdoublets?\b",
    "roll": r"\b(?:the|a|this|each|its) roll\b",  # the noun, not "to roll"
    "lead roll": r"\b(?:lead|opening) roll\b",
    "position ID": r"\bposition ID\b",
    "step": r"\bsteps?\b(?! through)",  # the noun, not "to step through"
    "rule set": r"\brule sets?\b",
    "tag": r"\btags?\b",
    "option": r"\boptions?\b(?! tag)",  # not the Options tag's name
    "Leitner box": r"\bLeitner box(?:es)?\b",
}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^()]*\)[sd]")


def glossary() -> dict[str, dict[str, str]]:
    """The glossary's table: each term's row, by column name."""
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    table = {}
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        table[cells[0]] = dict(zip(header, cells, strict=True))
    return table


def entries(domain: str, language: str) -> list[tuple[str, str]]:
    """(English, translation) of every entry of a catalog, placeholders left out."""
    path = ROOT / CATALOGS[domain].format(language=language)
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    pairs = []
    for entry in catalog:
        if not entry.id:
            continue
        english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        translated = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        pairs.append((PLACEHOLDER.sub(" ", " ".join(english)),
                      PLACEHOLDER.sub(" ", " ".join(translated))))
    return pairs


def says(text: str, term: str) -> bool:
    """Whether ``text`` holds one of the term's forms (``a, b``), each word inflected as the
    language may: a word matches one that begins as it does, all but its last two letters."""
    words = [word.lower() for word in re.findall(r"\w+", text)]
    for form in term.split(", "):
        wanted = [word.lower() for word in re.findall(r"\w+", form) if len(word) >= 2]
        if all(any(word.startswith(stem[:max(min(3, len(stem)), len(stem) - 2)])
                   for word in words) for stem in wanted):
            return True
    return False


def test_the_glossary_has_a_french_and_a_russian_word_for_every_term():
    for term, row in glossary().items():
        for column in COLUMNS.values():
            assert row[column].strip("*"), (term, column)


@pytest.mark.parametrize("language", sorted(COLUMNS))
@pytest.mark.parametrize("term", sorted(CORE))
def test_a_core_term_is_the_word_the_catalogs_use(term, language):
    word = glossary()[term][COLUMNS[language]]
    assert not word.startswith("*"), f"{term}: the catalogs use it, the glossary must say how"
    pattern = re.compile(CORE[term], re.IGNORECASE)
    checked = 0
    for domain in CATALOGS:
        found = [translated for english, translated in entries(domain, language)
                 if pattern.search(english)]
        if not found:
            continue
        checked += 1
        missing = [translated for translated in found if not says(translated, word)]
        assert len(missing) * 4 <= len(found), (
            f"{domain} ({language}) says {term!r} otherwise than the glossary's {word!r} in "
            f"{len(missing)} of {len(found)} messages: {missing}")
    assert checked, f"no message of any catalog says {term!r}"


def test_a_word_in_another_form_is_still_that_word():
    assert says("шашек на доске — 15", "шашка")
    assert says("проигравший выбросил 3", "выбрасывать, выбросить")
    assert says("sur la flèche d’étape", "flèche d’étape")
    assert not says("les dames sorties", "flèche")
    assert not says("одинокой лунки", "одинокая шашка")
