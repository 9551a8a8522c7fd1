"""The NAGs (numeric annotation glyphs, ``$1`` to ``$255`` as in PGN) as the viewer shows
them: the symbols of PGN's standard table, as python-chess names them for chess, with
what each means in a tables game (docs/viewer.md lists them). A NAG with no meaning here
is shown as written (``$42``). The words are in the page's language."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from notation.formats.jqn.lexer import GLYPHS

MEANINGS: dict[int, tuple[str, Any]] = {
    1: (GLYPHS[1], _l("good play")),
    2: (GLYPHS[2], _l("mistake")),
    3: (GLYPHS[3], _l("very good play")),
    4: (GLYPHS[4], _l("blunder")),
    5: (GLYPHS[5], _l("interesting play")),
    6: (GLYPHS[6], _l("doubtful play")),
    7: ("□", _l("forced: the only legal play for the roll")),
    8: ("□!", _l("the only good play")),
    9: ("⨯", _l("the worst play")),
    10: ("=", _l("even position")),
    11: ("=", _l("even and quiet position")),
    12: ("=", _l("even, lively position")),
    13: ("∞", _l("unclear position")),
    14: ("⩲", _l("White is slightly better")),
    15: ("⩱", _l("Black is slightly better")),
    16: ("±", _l("White is better")),
    17: ("∓", _l("Black is better")),
    18: ("+−", _l("White should win")),
    19: ("−+", _l("Black should win")),
    20: ("+−−", _l("White should win a gammon")),
    21: ("−−+", _l("Black should win a gammon")),
    32: ("⟳", _l("White is ahead in development (the men brought down)")),
    33: ("⟳", _l("Black is ahead in development (the men brought down)")),
    36: ("↑", _l("White has the initiative")),
    37: ("↑", _l("Black has the initiative")),
    40: ("→", _l("White has the attack")),
    41: ("→", _l("Black has the attack")),
    132: ("⇆", _l("White has counterplay")),
    133: ("⇆", _l("Black has counterplay")),
    134: ("⇆", _l("White has strong counterplay")),
    135: ("⇆", _l("Black has strong counterplay")),
    136: ("⊕", _l("White is short of time")),
    137: ("⊕", _l("Black is short of time")),
    138: ("⊕", _l("White is very short of time")),
    139: ("⊕", _l("Black is very short of time")),
    140: ("∆", _l("with the idea")),
    146: ("N", _l("novelty: a play new in this position")),
}
"""Each NAG with a meaning in a tables game: (symbol, words, translated when shown)."""


def nag_text(number: int) -> str:
    """How the viewer shows NAG ``number``: its symbol, else ``$number``.

    >>> nag_text(1), nag_text(7), nag_text(42)
    ('!', '□', '$42')
    """
    meaning = MEANINGS.get(number)
    return meaning[0] if meaning else f"${number}"


def nag_words(number: int) -> str:
    """What NAG ``number`` means, for a tooltip and screen readers (``$42`` for one with
    no meaning here): a lazy string, in the language of the page it is shown on (the move
    list that holds it is kept and shared by every page of the game)."""
    meaning = MEANINGS.get(number)
    return meaning[1] if meaning else f"${number}"
