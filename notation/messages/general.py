"""The English catalog of the messages every part shares: lists, the place of a problem
in a record, and the ``text`` message of a sentence not (yet) in the catalog."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    "text": "{text}",
    "list.more": ("{plays} and {count} more", "{plays} and {count} more"),
    "list.then": "{first}; {then}",
    "record.game": "game {game}",
    "record.turn": "turn {turn}",
    "record.where": "{where}: {text}",
    "record.legal": "; legal: {plays}",
}
