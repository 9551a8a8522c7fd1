"""The Validate page: a record pasted or uploaded, read and checked by the notation's
readers, every problem shown on its line (for anyone); a valid record saved to the archive
in one click by a signed-in scorer (read and checked again on the server first, and
logged)."""

from __future__ import annotations

from collections.abc import Collection
from typing import NoReturn

from flask import Blueprint, abort, current_app, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, lazy_gettext, ngettext
from flask_babel import gettext as _

from notation.engine.rules import DEFAULT, NAMES, TITLES
from notation.errors import LISTED_PLAYS
from notation.formats import READABLE
from webviewer.pages.validation import (
    MAX_TURNS,
    PASTED,
    Report,
    Saved,
    TooLarge,
    check_record,
    display_name,
    format_of_upload,
    save_record,
)
from webviewer.plumbing.auth import role_required, signed_in
from webviewer.plumbing.language import page_language
from webviewer.plumbing.workers import heavy, run_work

blueprint = Blueprint("check", __name__)
FORMATS = {"auto": lazy_gettext("automatic (from the file's extension, else from the text)"),
           "jqn": lazy_gettext("text notation (.jqn, .txt)"), "xml": "XML", "json": "JSON",
           "mat": lazy_gettext("GNU Backgammon match (.mat)"), "sgf": lazy_gettext("SGF (backgammon)")}
"""The formats the form offers, each with its label in the page's language."""


def _refuse(code: int, message: str) -> NoReturn:
    """Stop with the error page saying ``message``."""
    abort(make_response(render_template("error.html", code=code, message=message), code))


def _shown_name(name: str) -> str:
    """A record's name as the page shows it: a pasted record's in the page's language."""
    return str(_("pasted record")) if name == PASTED else name


def _too_large(error: TooLarge) -> str:
    """What the page says of a record over a limit, and what to do."""
    if error.game is None:
        return str(_("The record holds more than %(limit)s games (MAX_GAMES): split it and validate "
                     "the parts one by one.", limit=format_decimal(error.limit)))
    return str(_("The record holds more than %(limit)s turns, variations included (MAX_TURNS; "
                 "game %(game)s crosses it): split it and validate the parts one by one.",
                 limit=format_decimal(error.limit), game=error.game))


def _choice(name: str, allowed: Collection[str], default: str) -> str:
    value = request.form.get(name, default)
    if value not in allowed:
        _refuse(400, _("%(field)s must be one of: %(allowed)s", field=name, allowed=", ".join(allowed)))
    return value


def _normalised(text: str) -> str:
    """The text with its line breaks made ``\\n`` (browsers send ``\\r\\n``), within the
    size limit."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    limit = current_app.config["MAX_UPLOAD_BYTES"]
    if len(text.encode("utf-8")) > limit:
        _refuse(413, _("The record is too large: the limit is %(limit)s bytes (MAX_UPLOAD_BYTES).",
                       limit=format_decimal(limit)))
    return text


def _submission() -> tuple[str, str, str | None]:
    """The record sent to the form: its text, its name and its file name (``None`` if
    pasted). A chosen file wins over the text area."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        limit = current_app.config["MAX_UPLOAD_BYTES"]
        data = upload.stream.read(limit + 1)
        if len(data) > limit:
            _refuse(413, _("The file is too large: the limit is %(limit)s bytes (MAX_UPLOAD_BYTES).",
                           limit=format_decimal(limit)))
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        return _normalised(text), display_name(upload.filename), upload.filename
    text = request.form.get("record", "")
    if not text.strip():
        _refuse(400, _("Paste a record or choose a file to validate."))
    return _normalised(text), display_name(None), None


def _check(text: str, fmt: str, variant: str, name: str) -> Report:
    """The record read and checked by a worker, or the error page if it holds too many
    games."""
    try:
        return run_work(check_record, text, fmt, variant, name, *_limits(), page_language())
    except TooLarge as error:
        _refuse(413, _too_large(error))


def _limits() -> tuple[int, int]:
    """Games and turns one record may hold (``MAX_GAMES``, ``MAX_TURNS``)."""
    return current_app.config["MAX_GAMES"], current_app.config.get("MAX_TURNS", MAX_TURNS)


@blueprint.get("/validate")
def form() -> ResponseReturnValue:
    """The form: a text area, a file, the format and the default rule set."""
    return render_template("check/form.html", formats=FORMATS, variants=TITLES,
                           max_bytes=current_app.config["MAX_UPLOAD_BYTES"],
                           max_games=current_app.config["MAX_GAMES"])


@blueprint.post("/validate")
@heavy
def validate() -> ResponseReturnValue:
    """Every game of the record read and checked; the problems shown in place."""
    fmt = _choice("format", FORMATS, "auto")
    variant = _choice("variant", NAMES, DEFAULT)
    text, name, filename = _submission()
    if fmt == "auto":
        fmt = format_of_upload(filename, text)
    report = _check(text, fmt, variant, name)
    return render_template("check/result.html", report=report, name=_shown_name(report.name),
                           listed_plays=LISTED_PLAYS)


@blueprint.post("/validate/save")
@heavy
@role_required("scorer")
def save() -> ResponseReturnValue:
    """A valid record stored in the archive: read and checked again here, refused if any
    game has an error; games already there are reported as duplicates."""
    fmt = _choice("format", READABLE, "jqn")
    variant = _choice("variant", NAMES, DEFAULT)
    name = display_name(request.form.get("name"))
    try:
        done: Saved = run_work(save_record, current_app.config["ARCHIVE"],
                               _normalised(request.form.get("record", "")), fmt, variant, name,
                               signed_in().name, *_limits())
    except TooLarge as error:
        _refuse(413, _too_large(error))
    report = done.report
    if not report.savable:
        shown = _shown_name(name)
        _refuse(400, _("%(name)s cannot be saved: it holds no game.", name=shown) if not report.games else
                ngettext("%(name)s cannot be saved: it has %(num)d error. Validate it to see it.",
                         "%(name)s cannot be saved: it has %(num)d errors. Validate it to see them.",
                         report.errors, name=shown))
    return render_template("check/saved.html", name=_shown_name(name), summary=done.summary, saved=done.games)
