"""The English catalog of the command line's own messages (``jacquet_cli``): what a
command prints about its work, beside the errors it passes on."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    "count.games": ("{count} game", "{count} games"),
    "count.errors": ("{count} error", "{count} errors"),
    "cli.validate.summary": "{games}, {errors}",
    "cli.cannot-read": "cannot read {path}: {reason}",
    "cli.unknown-language": "unknown language {language}; known: {known}",
    "cli.analyse.marks": ("marks by the equity the play made loses against the best, in points: "
                          "?! doubtful, {doubtful} or more; ? bad, {bad} or more; "
                          "?? very bad, {very_bad} or more"),
}
