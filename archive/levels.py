"""An analysis's level in words: the level as the analysis names it and the archive keeps
it, in English (``jacquet-td jacquet v2, 2-ply, marks under 0.32 checked by a rollout of 648
games at 0-ply, truncated after 7 turns, seed 1``: :func:`analysis.confirm.checked_level`
and :func:`~analysis.confirm.rollout_level` write it), said in a language, as the pages,
``jacquet stats`` and ``jacquet analyse``'s table say it."""

from __future__ import annotations

import re

from notation.messages import Count, Message, render


def level_label(engine: str, depth: int, confirm: str | None, language: str | None = None) -> str:
    """The level an analysis's figures were computed at, as every page and ``jacquet
    stats`` says it: ``jacquet-td jacquet v2, 0-ply, marks confirmed at 2-ply``, in
    ``language`` (default: the current one; the message ``level.confirmed``)."""
    label = f"{engine}, {depth}-ply"
    if not confirm:
        return label
    words = level_words(confirm, language)
    return render(Message.of("level.confirmed", level=label, confirm=words), language)


_CHECKED = re.compile(r"(?P<first>.+), marks (?:under (?P<high>\d+(?:\.\d+)?) )?"
                      r"checked by a (?P<rollout>rollout of .+)")
_ROLLOUT = re.compile(r"(?P<by>.+, )?rollout of (?P<games>\d[\d,]*) games at 0-ply, "
                      r"(?:truncated after (?P<turns>\d+) turns?|played to the end), seed (?P<seed>\d+)")


def level_words(level: str, language: str | None = None) -> str:
    """A level as the analysis names it and the archive keeps it, in English (a turn's
    ``jacquet-td jacquet v2, 2-ply, marks under 0.32 checked by a rollout of 648 games at
    0-ply, truncated after 7 turns, seed 1``, or a confirmation's, ``2-ply``, ``rollout of
    144 games ...``; ``analysis.confirm.rollout_level`` and ``checked_level``), in
    ``language`` (default: the current one): a rollout's settings in the words of the
    messages ``level.rollout`` and ``level.checked-under`` (whose English is the level
    itself; ``level.checked`` for the levels of archives analysed before the check had a
    bound); the engine and a depth as they are written."""
    checked = _CHECKED.fullmatch(level)
    if checked:
        rollout = level_words(checked["rollout"], language)
        if checked["high"] is None:
            return render(Message.of("level.checked", first=checked["first"], rollout=rollout), language)
        return render(Message.of("level.checked-under", first=checked["first"], high=checked["high"],
                                 rollout=rollout), language)
    rolled = _ROLLOUT.fullmatch(level)
    if rolled is None:
        return level
    how = (Message.of("cli.rollout.truncated", count=int(rolled["turns"])) if rolled["turns"]
           else Message.of("cli.rollout.to-the-end"))
    words = render(Message.of("level.rollout", games=Count(int(rolled["games"].replace(",", ""))), how=how,
                              seed=int(rolled["seed"])), language)
    return (rolled["by"] or "") + words
