"""A file a command cannot read or write by its extension, or cannot find: every command
says it on one line that names the file once (``cli.file.*``), in the user's language,
and exits 2. A record that is not UTF-8, or not JSON, is said why in the user's language
too, at its line and column (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation.formats import EXTENSIONS
from tests.cli_language_helpers import run, said

KNOWN = ", ".join(sorted(EXTENSIONS))
GOOD = '[Event "good"]\n[Result "*"]\n\n1. 55: 24/19/14/9/4 66: 24/18 2. 21: 4/1 *\n'


def commands(good: Path, unknown: Path, db: Path) -> dict[str, list[str]]:
    """Each command that reads or writes a file by its extension, given ``unknown``."""
    return {
        "validate": ["validate", str(unknown)],
        "validate --json": ["validate", "--json", str(unknown)],
        "convert (source)": ["convert", str(unknown), str(good.with_name("out.jqn"))],
        "convert (target)": ["convert", str(good), str(unknown)],
        "show": ["show", str(unknown)],
        "analyse": ["analyse", str(unknown)],
        "export": ["export", "--db", str(db), "-o", str(unknown)],
        "import": ["import", str(unknown), "--db", str(db)],
        "record": ["record", "-o", str(unknown)],
    }


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize("command", list(commands(Path("g"), Path("u"), Path("d"))))
def test_a_file_of_an_unknown_extension_is_named_once(tmp_path, language, command):
    good, unknown = tmp_path / "good.jqn", tmp_path / "notes.docx"
    good.write_text(GOOD, encoding="utf-8")
    unknown.write_text(GOOD, encoding="utf-8")
    answer = run(language, *commands(good, unknown, tmp_path / "club.db")[command])
    assert answer.exit_code == 2
    assert said(language, "cli.file.unknown-format", path=str(unknown), known=KNOWN) in answer.output
    assert answer.output.count("notes.docx") == 1
    assert "Traceback" not in answer.output


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize("command", ["validate", "convert", "show"])
def test_a_missing_file_is_named_once(tmp_path, language, command):
    missing = tmp_path / "missing.jqn"
    args = [command, str(missing)] + ([str(tmp_path / "out.jqn")] if command == "convert" else [])
    answer = run(language, *args)
    assert answer.exit_code == 2
    assert said(language, "cli.file.missing", path=str(missing)) in answer.output
    assert answer.output.count("missing.jqn") == 1


def test_validate_goes_on_after_a_file_it_cannot_read(tmp_path):
    good = tmp_path / "good.jqn"
    good.write_text(GOOD, encoding="utf-8")
    answer = run("en", "validate", str(tmp_path / "notes.docx"), str(good))
    assert answer.exit_code == 2
    assert said("en", "cli.validate.summary", games=said("en", "count.games", count=1),
                errors=said("en", "count.errors", count=0)) in answer.output


@pytest.mark.parametrize(("data", "reason"), [
    (b"\xff", "reader.utf-8.start"), (b"\xc3(", "reader.utf-8.continuation"), (b"\xe2\x82", "reader.utf-8.end")])
@pytest.mark.parametrize(("extension", "message"), [(".jqn", "reader.utf-8"), (".json", "json.utf-8")])
@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_bytes_that_are_not_utf8_are_said_in_the_language(tmp_path, data, reason, extension, message, language):
    """Why a record is not UTF-8 is the catalog's, not Python's English, at its line and column."""
    record = tmp_path / f"bad{extension}"
    record.write_bytes(b'[Event "x"]\n' + data)
    answer = run(language, "validate", str(record))
    assert answer.exit_code == 1
    assert f"{record}:2:1: error: [SYNTAX] " in answer.output
    assert said(language, message, reason=said(language, reason)) in answer.output
    [found] = [e for line in run(language, "validate", "--json", str(record)).stdout.splitlines()
               for e in json.loads(line)["errors"]]
    assert (found["id"], found["params"]) == (message, {"reason": {"id": reason, "params": {}}})


@pytest.mark.parametrize(("document", "reason", "column"), [
    ("", "json.decode.value", 1), ("{", "json.decode.key", 2), ('{"a" 1}', "json.decode.colon", 6),
    ("[1 2]", "json.decode.comma", 4), ('"abc', "json.decode.unterminated", 1),
    ('"a\x01"', "json.decode.control", 3), ('"\\q"', "json.decode.escape", 2),
    ('"\\u12"', "json.decode.u-escape", 3), ("[] []", "json.decode.extra", 4)])
@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_document_that_is_not_json_is_said_why_in_the_language(tmp_path, document, reason, column, language):
    """Why a document is not JSON is the catalog's, not Python's English, where it stopped."""
    record = tmp_path / "bad.json"
    record.write_text(document, encoding="utf-8")
    answer = run(language, "validate", str(record))
    assert answer.exit_code == 1
    assert f"{record}:1:{column}: error: [SYNTAX] " in answer.output
    assert said(language, "json.invalid", reason=said(language, reason)) in answer.output
