"""The Validate page through Flask's test client: every format read, every problem shown on
its line with its rule, legal plays and board, hostile input kept inert, the limits, and a
valid record saved to the archive once (CSRF-protected throughout). The tests act as the
signed-in ``scorer`` (tests/conftest.py), on an empty archive: a visitor validates but cannot
save (test_viewer_accounts.py)."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from babel.numbers import format_decimal
from markupsafe import escape

import archive
from notation import rule_set
from notation.errors import RecordError
from notation.formats import read_file, render
from tests.accounts_helpers import signed_in_client
from tests.archive_fixtures import ERROR_GAMES
from tests.viewer_helpers import shown, shown_count, shown_pattern

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "jacquet" / "annotated-game.jqn"
ERRORS = ROOT / "samples" / "errors" / "one-of-each.jqn"
MAT = ROOT / "tests" / "data" / "mat" / "match1209610.mat"
SGF = ROOT / "tests" / "data" / "sgf" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.sgf"
HOSTILE = ('[Event "<script>alert(1)</script>"]\n[White "<img src=x onerror=alert(2)>"]\n'
           '[Black "B"]\n\n{<script>alert(3)</script>} 1. 55: 24/4 {</li><script>x()</script>} *\n')


def token(client) -> str:
    """The CSRF token of the form page (the test client keeps the session cookie)."""
    page = client.get("/validate")
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def validate(client, text: str | None = None, upload: tuple[bytes, str] | None = None,
             fmt: str = "auto", variant: str = "jacquet"):
    data = {"csrf_token": token(client), "format": fmt, "variant": variant, "record": text or ""}
    if upload is not None:
        data["file"] = (io.BytesIO(upload[0]), upload[1])
    return client.post("/validate", data=data, content_type="multipart/form-data")


def hidden_fields(page) -> dict[str, str]:
    """The save form's hidden inputs, as the browser would send them."""
    form = page.text[page.text.index('action="/validate/save"'):]
    form = form[:form.index("</form>")]
    return {name: html.unescape(value)
            for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form)}


def summary(page) -> list[str]:
    """The summary's lines: the games read, valid and with errors, the errors and the warnings."""
    listed = page.text[page.text.index('<ul class="summary">'):]
    return re.findall(r"<li>([^<]*)</li>", listed[:listed.index("</ul>")])


def summed_up(read: int, valid: int, invalid: int, errors: int, warnings: int) -> list[str]:
    """The summary's lines as the catalog gives them for these counts."""
    return [shown_count("%(num)d game read", "%(num)d games read", read), shown("%(count)s valid", count=valid),
            shown("%(count)s with errors", count=invalid),
            shown_count("%(num)d error in all", "%(num)d errors in all", errors),
            shown_count("%(num)d warning", "%(num)d warnings", warnings)]


def save_button(games: int) -> str:
    return shown_count("Save %(num)d game to the archive", "Save %(num)d games to the archive", games)


SAVE_FORM = 'action="/validate/save"'
"""The form that saves a valid record (none while a game has an error)."""


def saved_summary(imported: int, duplicates: int) -> re.Pattern[str]:
    """What the saved page sums up: the games saved, the duplicates skipped, the turns stored."""
    text = shown_count("%(num)d game saved; duplicates skipped (already in the archive): %(duplicates)s; turns "
                       "stored: %(turns)s.", "%(num)d games saved; duplicates skipped (already in the archive): "
                       "%(duplicates)s; turns stored: %(turns)s.", imported, duplicates=duplicates, turns="\x00")
    return re.compile(re.escape(text).replace("\x00", r"\d+"))


def place(line: int, column: int) -> str:
    return shown("line %(line)s", line=line) + shown(", column %(column)s", column=column)


def problem_blocks(page) -> list[str]:
    return re.findall(r'<div class="problem \w+" id="p\d+">.*?\n</div>', page.text, re.DOTALL)


def test_form_page_has_its_fields_and_is_linked_from_the_header(scorer):
    page = scorer.get("/validate")
    assert page.status_code == 200
    for field in ('name="record"', 'type="file"', 'name="format"', 'name="variant"',
                  'name="csrf_token"', 'value="auto"', 'value="backgammon"'):
        assert field in page.text
    assert f'href="/validate">{shown("Validate a record")}</a>' in scorer.get("/").text


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_formats_are_named_in_the_pages_language(scorer, language):
    """The Format list says its choices in the page's language (they were English on every
    page); a format's own name (XML, JSON) is the same in every language."""
    page = scorer.get("/validate", headers={"Accept-Language": language}).text
    options = dict(re.findall(r'<option value="(\w+)">([^<]*)</option>',
                              re.search(r'<select id="format".*?</select>', page, re.S).group(0)))
    assert options == {
        "auto": shown("automatic (from the file's extension, else from the text)", language),
        "jqn": shown("text notation (.jqn, .txt)", language), "xml": "XML", "json": "JSON",
        "mat": shown("GNU Backgammon match (.mat)", language), "sgf": shown("SGF (backgammon)", language)}
    assert (options["auto"] == "automatic (from the file's extension, else from the text)") == (language == "en")


def test_an_empty_record_gives_the_form_again_with_the_reason_in_place(scorer):
    """Validate sent with nothing to read: the form again (not an error page that leads to
    the archive), the reason under its text area, the rule set chosen kept."""
    page = scorer.post("/validate", data={"csrf_token": token(scorer), "record": "  ", "format": "jqn",
                                          "variant": "murray"})
    assert page.status_code == 400
    assert f'<p class="note" id="refused" role="alert">{shown("Paste a record or choose a file to validate.")}</p>' \
        in page.text
    assert 'name="record"' in page.text and 'aria-describedby="refused"' in page.text
    assert '<option value="murray" selected>' in page.text and '<option value="jqn" selected>' in page.text


def test_a_post_without_the_csrf_token_is_refused(scorer):
    page = scorer.post("/validate", data={"record": SAMPLE.read_text(), "format": "auto"})
    assert page.status_code == 400 and "CSRF" in page.text
    save = scorer.post("/validate/save", data={"record": SAMPLE.read_text(), "format": "jqn"})
    assert save.status_code == 400


def test_a_valid_record_is_summed_up_with_a_save_button(scorer):
    page = validate(scorer, SAMPLE.read_text())
    assert page.status_code == 200
    assert shown("Read as %(format)s", format="jqn") in page.text
    assert summary(page) == summed_up(read=1, valid=1, invalid=0, errors=0, warnings=0)
    assert save_button(1) in page.text
    assert problem_blocks(page) == []


def test_saving_stores_the_games_once_and_links_them(scorer, archive_path):
    fields = hidden_fields(validate(scorer, SAMPLE.read_text()))
    assert fields["record"] == SAMPLE.read_text() and fields["format"] == "jqn"
    saved = scorer.post("/validate/save", data=fields)
    assert saved.status_code == 200 and saved_summary(1, 0).search(saved.text)
    db = archive.open_archive(archive_path, readonly=True)
    rows, total = archive.search(db, archive.Query(player="Random White"))
    db.close()
    assert total == 1
    assert f'href="/game/{rows[0]["id"]}"' in saved.text
    assert scorer.get(f'/game/{rows[0]["id"]}').status_code == 200
    again = scorer.post("/validate/save", data=fields)
    assert saved_summary(0, 1).search(again.text)
    assert f'<span class="duplicate">{shown("duplicate: already in the archive")}</span>' in again.text
    assert f'href="/game/{rows[0]["id"]}"' in again.text


def test_every_error_is_shown_on_its_highlighted_line(scorer):
    page = validate(scorer, ERRORS.read_text())
    expected = [error for game in read_file(ERRORS) for error in game.errors]
    blocks = problem_blocks(page)
    assert len(expected) == ERROR_GAMES and len(blocks) == len(expected)
    assert summary(page)[2] == shown("%(count)s with errors", count=ERROR_GAMES) and SAVE_FORM not in page.text
    for error, block in zip(sorted(expected, key=lambda e: (e.line, e.column)), blocks, strict=False):
        assert f'<a href="#L{error.line}">{place(error.line, error.column)}</a>' in block
        assert f'<span class="rule">[{error.rule_id}]</span>' in block
        assert str(escape(error.message)) in block
        assert f'<tr id="L{error.line}" class="line-error">' in page.text
    assert '<mark>2;</mark>' in page.text  # the token at the column of the first error


def test_an_illegal_play_shows_the_legal_plays_and_the_board(scorer):
    page = validate(scorer, ERRORS.read_text())
    [block] = [b for b in problem_blocks(page) if "[R-EMPTY]" in b]
    [error] = [e for game in read_file(ERRORS) for e in game.errors if e.rule_id == "R-EMPTY"]
    assert shown("Legal plays for this roll (%(count)s):", count=1) in block and "<code>16/8</code>" in block
    assert "<svg" in block and shown("Game %(game)s as the reader left it: the board after the last turn it "
                                     "could play.", game=error.game) in block


def written(fmt: str) -> tuple[bytes, str]:
    """A file of each readable format: XML and JSON written by ``render``, the real
    ``.mat`` and SGF exports of ``tests/data``, the sample as plain text."""
    if fmt in ("xml", "json"):
        return render(read_file(SAMPLE), fmt).encode("utf-8"), f"game.{fmt}"
    source = {"mat": MAT, "sgf": SGF, "jqn": SAMPLE}[fmt]
    return source.read_bytes(), f"upload.{'txt' if fmt == 'jqn' else fmt}"


@pytest.mark.parametrize("fmt", ["jqn", "xml", "json", "mat", "sgf"])
@pytest.mark.parametrize("how", ["upload", "paste"])
def test_each_format_is_read_uploaded_or_pasted(scorer, fmt, how):
    data, name = written(fmt)
    if how == "upload":
        page = validate(scorer, upload=(data, name))
    else:
        page = validate(scorer, data.decode("utf-8"))  # the format sniffed from the text
    games = len(list(read_file(MAT if fmt == "mat" else SGF if fmt == "sgf" else SAMPLE)))
    assert page.status_code == 200 and shown("Read as %(format)s", format=fmt) in page.text
    assert summary(page)[:2] == summed_up(games, games, 0, 0, 0)[:2]
    assert save_button(games) in page.text


def test_a_mat_file_with_an_illegal_play_is_shown_on_its_line(scorer):
    source = ROOT / "tests" / "data" / "mat" / "illegal_not_maximal_21_played_as_13-11.mat"
    page = validate(scorer, upload=(source.read_bytes(), source.name))
    [block] = problem_blocks(page)
    assert "[R-MAX]" in block and place(19, 10) in block and "<svg" in block
    assert '<tr id="L19" class="line-error">' in page.text


def test_warnings_are_shown_apart_and_do_not_stop_a_save(scorer):
    source = ROOT / "tests" / "data" / "mat" / "Minchy_-_Llabba_13pt_Backgammon_Studio_2023_02_24_19_44_27.mat"
    page = validate(scorer, upload=(source.read_bytes(), source.name))
    [block] = problem_blocks(page)
    assert block.startswith('<div class="problem warning"') and "[R-SCORE]" in block
    assert "<svg" not in block and '<tr id="L220" class="line-warning">' in page.text
    assert summary(page)[4] == shown_count("%(num)d warning", "%(num)d warnings", 1) and save_button(10) in page.text


@pytest.mark.parametrize("text, line, message_id", [
    ("<?xml version='1.0'?>\n<games>\n<game>\n</gam>\n", 4, "reader.xml.malformed"),
    ('<?xml version="1.0"?>\n<!DOCTYPE games [<!ENTITY x "boom">]>\n<games>&x;</games>\n', 2,
     "reader.xml.declaration"),
    ("<?xml version='1.0'?>\n<games><foo/></games>\n", 2, "text"),  # the schema's (libxml2's own words)
])
def test_unreadable_xml_is_refused_with_its_line(scorer, tmp_path, text, line, message_id):
    (tmp_path / "hostile.xml").write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as refused:  # the reader's refusal, as validate --json has it
        list(read_file(tmp_path / "hostile.xml"))
    error = refused.value
    assert error.msg.id == message_id and error.line == line
    page = validate(scorer, upload=(text.encode("utf-8"), "hostile.xml"))
    assert page.status_code == 200 and str(escape(error.message)) in page.text
    assert f'<tr id="L{line}" class="line-error">' in page.text
    assert summary(page)[0] == shown_count("%(num)d game read", "%(num)d games read", 0) and SAVE_FORM not in page.text
    assert "hostile.xml" in page.text and "jacquet-validate-" not in page.text  # no temporary path


def test_script_in_the_record_or_the_file_name_is_inert(scorer):
    page = validate(scorer, upload=(HOSTILE.encode("utf-8"), "<img src=y onerror=alert(9)>.jqn"))
    assert page.status_code == 200 and shown("Read as %(format)s", format="jqn") in page.text
    assert "<script>alert" not in page.text and "<img src=" not in page.text
    assert shown("Validation of %(name)s", name="<img src=y onerror=alert(9)>.jqn") in page.text
    assert "&lt;img src=y onerror=alert(9)&gt;.jqn" in page.text
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in page.text


def test_a_file_name_is_never_a_path(scorer):
    page = validate(scorer, upload=(SAMPLE.read_bytes(), "../../etc/passwd.jqn"))
    assert shown("Validation of %(name)s", name="passwd.jqn") in page.text and "../" not in page.text


def test_too_large_an_upload_or_paste_is_413(make_app):
    scorer = signed_in_client(make_app(MAX_UPLOAD_BYTES=5_000))
    big = SAMPLE.read_text() * 3
    assert len(big.encode("utf-8")) > 5_000
    upload = validate(scorer, upload=(big.encode("utf-8"), "big.jqn"))
    limit = format_decimal(5_000, locale="en")
    assert upload.status_code == 413
    assert shown("The file is too large: the limit is %(limit)s bytes (MAX_UPLOAD_BYTES).", limit=limit) in upload.text
    paste = validate(scorer, big)
    assert paste.status_code == 413
    assert shown("The record is too large: the limit is %(limit)s bytes (MAX_UPLOAD_BYTES).", limit=limit) in paste.text
    huge = validate(scorer, upload=(b"x" * 200_000, "huge.jqn"))  # past the request limit
    assert huge.status_code == 413
    assert shown("The upload is too large: the limit is %(bytes)s bytes (MAX_UPLOAD_BYTES).", bytes=limit) in huge.text


def test_too_many_games_is_a_clear_error(make_app):
    scorer = signed_in_client(make_app(MAX_GAMES=3))
    page = validate(scorer, (ROOT / "samples" / "generated" / "jacquet-10.jqn").read_text())
    assert page.status_code == 413
    assert shown("The record holds more than %(limit)s games (MAX_GAMES): split it and validate the parts one by "
                 "one.", limit=3) in page.text


def test_saving_a_record_with_errors_is_refused(scorer, archive_path):
    page = scorer.post("/validate/save", data={"csrf_token": token(scorer), "format": "jqn",
                                               "variant": "jacquet", "record": ERRORS.read_text()})
    assert page.status_code == 400
    assert shown_count("%(name)s cannot be saved: it has %(num)d error. Validate it to see it.",
                       "%(name)s cannot be saved: it has %(num)d errors. Validate it to see them.", ERROR_GAMES,
                       name=shown("pasted record")) in page.text
    db = archive.open_archive(archive_path, readonly=True)
    assert archive.search(db, archive.Query())[1] == 0
    db.close()


@pytest.mark.parametrize("data, message", [
    ({"record": "   "}, shown("Paste a record or choose a file to validate.")),
    ({"record": "x", "format": "pdf"}, shown_pattern("%(field)s must be one of: %(allowed)s", field="format",
                                                     allowed="auto, jqn, .+")),
    ({"record": "x", "variant": "trictrac"}, shown_pattern("%(field)s must be one of: %(allowed)s", field="variant",
                                                           allowed="jacquet, .+")),
])
def test_bad_submissions_are_400(scorer, data, message):
    page = scorer.post("/validate", data={"csrf_token": token(scorer), **data})
    assert page.status_code == 400
    assert (message.search(page.text) if isinstance(message, re.Pattern) else message in page.text)


def test_a_paste_past_flasks_form_field_limit_but_within_ours_is_read(scorer):
    text = SAMPLE.read_text().replace("{", "{" + "padding " * 100_000, 1)
    assert 500_000 < len(text.encode("utf-8")) < 2_000_000
    page = validate(scorer, text.replace("\n", "\r\n"))
    page.request.environ["wsgi.input"].close()  # the test scorer spools a large body to a file
    assert page.status_code == 200 and summary(page)[1] == shown("%(count)s valid", count=1)
    saved = scorer.post("/validate/save", data=hidden_fields(page), content_type="multipart/form-data")
    saved.request.environ["wsgi.input"].close()
    assert saved.status_code == 200 and saved_summary(1, 0).search(saved.text)


def test_a_long_record_is_shown_in_part_around_its_problems(scorer):
    """A record of many lines shows its head and the lines round each problem, not every
    line: the page of a huge paste stays small."""
    good = SAMPLE.read_text()
    filler = "{x}\n" * 6000
    text = good.rstrip("\n") + "\n\n" + filler + ERRORS.read_text()
    page = validate(scorer, text)
    assert page.status_code == 200
    lines = text.split("\n")
    expected = [error for game in read_file(ERRORS) for error in game.errors]
    offset = len(lines) - len(ERRORS.read_text().split("\n"))
    for error in expected:  # every problem still shown on its line
        assert f'<tr id="L{error.line + offset}" class="line-error">' in page.text
    assert '<tr id="L1">' in page.text and '<tr id="L3000">' not in page.text
    assert re.search(re.escape(shown_count("%(num)d line not shown", "%(num)d lines not shown", 2)).replace("2", r"\d+"), page.text)
    assert page.text.count("<tr id=\"L") < 1000 < len(lines)


def test_the_board_of_an_error_is_numbered_for_the_player_of_the_last_turn(scorer):
    """The board after the last turn read is numbered as its player wrote his play (Black's
    1... 53: 24/16 leaves his 24, 19 and 16 marked), not as White counts."""
    page = validate(scorer, '[Variant "jacquet"]\n\n1. 64: 24/14 1... 53: 24/16 2. 64: 24/18 24/20 *\n')
    [block] = problem_blocks(page)
    svg = re.search(r"<svg.*?</svg>", block, re.S).group(0)
    labels = dict(re.findall(r'data-point="(\d+)" points="[^"]*"[^>]*/><text[^>]*>(\d+)</text>', svg))
    black_of = rule_set("jacquet").opposite  # White's point p is Black's black_of[p]
    assert all(labels[str(p)] == str(black_of[p]) for p in range(1, 25))
    marked = re.findall(r'data-point="\d+" points="[^"]*"[^>]*stroke-width="3"[^>]*/><text[^>]*>(\d+)<', svg)
    assert sorted(marked, key=int) == ["16", "19", "24"]  # 24/16 by 19 (the 5, then the 3)
