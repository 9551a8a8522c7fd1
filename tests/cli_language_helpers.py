"""What the tests of the command line's languages share (tests/test_cli_language_*.py,
tests/test_i18n_*.py): the command run in a language through click's runner, and a
message's line as the command writes it in that language, for a test to look for."""

from __future__ import annotations

import re

from click.testing import CliRunner, Result

from jacquet_cli import main
from notation.messages import LANGUAGES, Message, render

TRANSLATED = [language for language in LANGUAGES if language != "en"]
"""The languages besides English (the catalogs' own translations)."""


def run(language: str, *args: str, input: str | None = None) -> Result:
    """``jacquet --lang LANGUAGE ARGS...`` in this process."""
    return CliRunner().invoke(main, ["--lang", language, *args], input=input)


def said(language: str, message_id: str, /, **params: object) -> str:
    """The line of ``message_id`` with ``params`` as the command writes it in ``language``."""
    return render(Message.of(message_id, **params), language)


def said_pattern(language: str, message_id: str, /, **params: object) -> re.Pattern[str]:
    """:func:`said` as a regular expression, each parameter given as ``re.Pattern``
    matched by its pattern, the others as they are."""
    markers = {name: f"\x00{name}\x00" for name, value in params.items() if isinstance(value, re.Pattern)}
    text = re.escape(render(Message.of(message_id, **{**params, **markers}), language))
    for name, marker in markers.items():
        text = text.replace(re.escape(marker), f"(?:{params[name].pattern})")  # type: ignore[union-attr]
    return re.compile(text)
