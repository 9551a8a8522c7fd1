"""Messages as data: every sentence the engine, the readers and the command line show a
user is a :class:`Message`, an id and its parameters, rendered in a language only when it
is shown.

The ids are an API for programs (``jacquet validate --json`` prints them with their
parameters): stable, readable, grouped by area (``rule.courier.not-passed``,
``reader.jqn.unknown-token``...); ``docs/languages.md`` lists them. The English text of
each id lives in one catalog module per area (:mod:`notation.messages.rules`,
:mod:`~notation.messages.engine`, :mod:`~notation.messages.readers`,
:mod:`~notation.messages.recorder`, :mod:`~notation.messages.commands`,
:mod:`~notation.messages.views`, :mod:`~notation.messages.general`,
:mod:`~notation.messages.admin`), with ``{named}``
placeholders; an entry is a pair (singular, plural) when it counts something, its number
in the ``count`` parameter. The other languages are gettext catalogs (domain
``jacquet``, the id as each entry's context) under ``notation/messages/locale/``, made
and compiled by ``tools/i18n.py``.

>>> str(Message.of("rule.empty", step="13/7", point="13"))
'13/7 moves from point 13, where you have no man'
>>> render(Message.of("rule.empty", step="13/7", point="13"), "fr")
'13/7 part de la flèche 13, où vous n’avez aucune dame'
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notation.messages import admin, commands, engine, general, readers, recorder, rules, views

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterator

LANGUAGES = ("en", "fr", "ru")
"""The languages of the messages: English (the source), French and Russian."""

DOMAIN = "jacquet"
"""The gettext domain of the messages' catalogs."""

LOCALE = Path(__file__).resolve().parent / "locale"
"""The folder of the compiled catalogs: ``LOCALE/<lang>/LC_MESSAGES/jacquet.mo``."""

Text = str | tuple[str, str]
"""A catalog entry's English: a sentence, or (singular, plural) of one counting ``count``."""

CATALOG: dict[str, Text] = {**general.MESSAGES, **engine.MESSAGES, **readers.MESSAGES, **rules.MESSAGES,
                             **recorder.MESSAGES, **commands.MESSAGES, **views.MESSAGES, **admin.MESSAGES}
"""Every message id and its English text."""

LISTS = ("list.or", "list.and")
"""The messages that join a list's ``items`` and ``last``: a list in JSON."""

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables the language is taken from, in Babel's ``default_locale`` order."""

GROUPING = {"en": ",", "fr": "\u202f", "ru": "\u00a0"}
"""How each language groups a number's thousands (CLDR's: a comma, a narrow no-break space,
a no-break space), for a :class:`Count` shown in a message."""

_CURRENT = {"language": "en"}
"""The current language (set once by a program: :func:`set_language`)."""


@dataclass(frozen=True)
class Message:
    """A message: its ``id`` (a key of :data:`CATALOG`) and its ``params``, the values of
    its placeholders: text, numbers, lists of them, or other messages (a colour, a count
    of men), rendered in the same language."""

    id: str
    params: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, id: str, /, **params: object) -> Message:
        """``Message(id, params)`` from keyword arguments."""
        return cls(id, params)

    def __str__(self) -> str:
        return render(self)

    def as_json(self) -> dict[str, object]:
        """``{"id": ..., "params": ...}`` with JSON values: a message parameter as such a
        pair, a list as a list, a number as it is, anything else as its text."""
        return {"id": self.id, "params": {name: _json(value) for name, value in self.params.items()}}

    def stored(self) -> str:
        """The message as JSON text to keep (an archive's column), read back whole by
        :meth:`from_stored`: unlike :meth:`as_json`, a list message (``a, b or c``) stays
        a message."""
        return json.dumps(_kept(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_stored(cls, text: str) -> Message:
        """The message :meth:`stored` wrote; ``ValueError`` if ``text`` is not one, or
        names an id the catalog does not have (an archive written by a later version)."""
        found = _unkept(json.loads(text))
        if not isinstance(found, Message) or found.id not in CATALOG:
            raise ValueError(f"not a stored message: {text[:80]!r}")
        return found


class MessageError(Exception):
    """An error of the archive or the analysis whose text is a :class:`Message` (``msg``:
    its id and parameters, for programs; ``str()`` renders it in the current language), as
    :class:`notation.errors.NotationError` is for the rules and the readers. A subclass
    that is also a ``ValueError`` lists both bases."""

    def __init__(self, message_id: str, /, **params: object) -> None:
        self.msg = Message.of(message_id, **params)
        super().__init__(self.msg)

    def __str__(self) -> str:
        return render(self.msg)

    def __reduce__(self) -> tuple[object, ...]:  # (made again whole in another process)
        return _error_again, (type(self), self.msg)


class Count(int):
    """A number a message shows with its thousands grouped as its language writes them
    (:data:`GROUPING`: ``12,345``, ``12 345``); as a message's ``count`` it still picks
    the plural."""


def _error_again(kind: type[MessageError], msg: Message) -> MessageError:
    """The error :meth:`MessageError.__reduce__` took apart."""
    return kind(msg.id, **msg.params)


def _kept(value: object) -> object:
    """A parameter as :meth:`Message.stored` keeps it: a message as ``{"id", "params"}``."""
    if isinstance(value, Message):
        return {"id": value.id, "params": {name: _kept(item) for name, item in value.params.items()}}
    if isinstance(value, (list, tuple)):
        return [_kept(item) for item in value]
    return value if value is None or isinstance(value, (bool, int, float)) else str(value)


def _unkept(value: object) -> object:
    """What :func:`_kept` kept, messages made again."""
    if isinstance(value, dict):
        if set(value) != {"id", "params"} or not isinstance(value["params"], dict):
            raise ValueError("a stored message is {id, params}")
        return Message(str(value["id"]), {str(k): _unkept(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [_unkept(item) for item in value]
    return value


def either(items: Sequence[str], each: bool = False) -> str | Message:
    """``a, b or c``: the items as alternatives (one item as it is); with ``each``,
    ``a or b or c``."""
    if each and len(items) > 2:
        return Message.of("list.or", items=[items[0]], last=either(items[1:], each))
    return _joined("list.or", items)


def both(items: Sequence[str]) -> str | Message:
    """``a, b and c``: the items together (one item as it is)."""
    return _joined("list.and", items)


def _joined(message_id: str, items: Sequence[str]) -> str | Message:
    *others, last = items
    return Message.of(message_id, items=list(others), last=last) if others else last


def option_error(option: str, choices: Sequence[str], value: object) -> Message:
    """``bouchon is 'wikipedia', 'last-two' or 'none', not 'x'``: an option's value that
    is none of its ``choices``."""
    return Message.of("option.choice", option=option, choices=either([repr(c) for c in choices]),
                      value=repr(value))


def _listed(value: Message) -> list[object]:
    """The items of a list message, a list nested in its last item (``a or b or c``) too."""
    items: list[object] = [_json(item) for item in value.params["items"]]  # type: ignore[attr-defined]
    last = value.params["last"]
    return items + (_listed(last) if isinstance(last, Message) and last.id == value.id else [_json(last)])


def _json(value: object) -> object:
    if isinstance(value, Message):
        if value.id in LISTS:  # (a list for programs, whatever its words)
            return _listed(value)
        return value.as_json()
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


class _Catalog(Protocol):
    def pgettext(self, context: str, message: str) -> str: ...  # pragma: no cover

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str: ...  # pragma: no cover


@cache
def _catalog(language: str) -> _Catalog:
    """The compiled catalog of ``language`` (English: the texts as they are)."""
    import gettext  # (here: a command that shows no message never loads it)

    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)


def render(message: Message, language: str | None = None) -> str:
    """The text of ``message`` in ``language`` (default: the current one, see
    :func:`set_language`), or in English where the language's catalog lacks it."""
    language = language or _CURRENT["language"]
    english = CATALOG[message.id]
    catalog = _catalog(language)
    if isinstance(english, tuple):
        count = message.params.get("count")
        text = catalog.npgettext(message.id, english[0], english[1],
                                 count if isinstance(count, int) else 0)
    else:
        text = catalog.pgettext(message.id, english)
    return text.format_map({name: _text(value, language) for name, value in message.params.items()})


def say(message_id: str, /, **params: object) -> str:
    """The text of the message ``message_id`` with ``params``, in the current language
    (``render(Message.of(message_id, **params))``): what a program prints at once."""
    return render(Message.of(message_id, **params))


def _text(value: object, language: str) -> object:
    """A parameter as its message's text shows it."""
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, Count):
        return f"{value:,}".replace(",", GROUPING[language])
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_text(item, language)) for item in value)
    return value


def language() -> str:
    """The current language: ``en`` unless a program (the command line) set another."""
    return _CURRENT["language"]


def set_language(language: str) -> None:
    """Make ``language`` (one of :data:`LANGUAGES`) the current language of messages."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    _CURRENT["language"] = language


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: the first of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set (``fr_FR.UTF-8`` -> ``fr``; ``LANGUAGE``
    may list several, ``ru:fr``), when it is one of :data:`LANGUAGES`; else English."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name)
        if not value:
            continue
        for item in value.split(":") if name == "LANGUAGE" else [value]:
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        return "en"
    return "en"


def placeholders(text: Text) -> set[str]:
    """The names of the ``{placeholders}`` of a text (of either form of a plural)."""
    from string import Formatter

    texts = text if isinstance(text, tuple) else (text,)
    return {name for one in texts for _, name, _, _ in Formatter().parse(one) if name}


def entries() -> Iterator[tuple[str, Text]]:
    """Every (id, English text) of the catalog, sorted by id."""
    return iter(sorted(CATALOG.items()))


def write_template(path: Path) -> None:
    """Write the ``jacquet`` domain's gettext template (``.pot``) to ``path``: one entry a
    message, its id as the context, its English text as the ``msgid`` (and
    ``msgid_plural``), its placeholders in a comment for translators."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="jacquet", domain=DOMAIN)
    for message_id, english in entries():
        names = sorted(placeholders(english))
        comments = [f"placeholders: {', '.join('{' + name + '}' for name in names)}"] if names else []
        catalog.add(english, context=message_id, auto_comments=comments)
    with path.open("wb") as out:
        write_po(out, catalog, width=0, omit_header=False)
