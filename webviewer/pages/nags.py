"""The NAGs (numeric annotation glyphs, ``$1`` to ``$255`` as in PGN) as the viewer shows
them: the symbols of PGN's standard table, as python-chess names them for chess, with
what each means in a tables game (docs/viewer.md lists them). A NAG with no meaning here
is shown as written (``$42``)."""

from __future__ import annotations

from notation.formats.jqn.lexer import GLYPHS

MEANINGS: dict[int, tuple[str, str]] = {
    1: (GLYPHS[1], "good play"),
    2: (GLYPHS[2], "mistake"),
    3: (GLYPHS[3], "very good play"),
    4: (GLYPHS[4], "blunder"),
    5: (GLYPHS[5], "interesting play"),
    6: (GLYPHS[6], "doubtful play"),
    7: ("□", "forced: the only legal play for the roll"),
    8: ("□!", "the only good play"),
    9: ("⨯", "the worst play"),
    10: ("=", "even position"),
    11: ("=", "even and quiet position"),
    12: ("=", "even, lively position"),
    13: ("∞", "unclear position"),
    14: ("⩲", "White is slightly better"),
    15: ("⩱", "Black is slightly better"),
    16: ("±", "White is better"),
    17: ("∓", "Black is better"),
    18: ("+−", "White should win"),
    19: ("−+", "Black should win"),
    20: ("+−−", "White should win a gammon"),
    21: ("−−+", "Black should win a gammon"),
    32: ("⟳", "White is ahead in development (the men brought down)"),
    33: ("⟳", "Black is ahead in development (the men brought down)"),
    36: ("↑", "White has the initiative"),
    37: ("↑", "Black has the initiative"),
    40: ("→", "White has the attack"),
    41: ("→", "Black has the attack"),
    132: ("⇆", "White has counterplay"),
    133: ("⇆", "Black has counterplay"),
    134: ("⇆", "White has strong counterplay"),
    135: ("⇆", "Black has strong counterplay"),
    136: ("⊕", "White is short of time"),
    137: ("⊕", "Black is short of time"),
    138: ("⊕", "White is very short of time"),
    139: ("⊕", "Black is very short of time"),
    140: ("∆", "with the idea"),
    146: ("N", "novelty: a play new in this position"),
}
"""Each NAG with a meaning in a tables game: (symbol, words)."""


def nag_text(number: int) -> str:
    """How the viewer shows NAG ``number``: its symbol, else ``$number``.

    >>> nag_text(1), nag_text(7), nag_text(42)
    ('!', '□', '$42')
    """
    meaning = MEANINGS.get(number)
    return meaning[0] if meaning else f"${number}"


def nag_words(number: int) -> str:
    """What NAG ``number`` means, for a tooltip and screen readers (``$42`` for one with
    no meaning here)."""
    meaning = MEANINGS.get(number)
    return meaning[1] if meaning else f"${number}"
