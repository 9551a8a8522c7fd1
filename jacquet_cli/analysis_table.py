"""The analysis of a game printed as a table for the terminal (``jacquet analyse``)."""

from __future__ import annotations

import click

from analysis.analyse import MARKS, GameAnalysis
from analysis.confirm import confirmed_limits
from archive.levels import level_words
from notation.engine.state import Colour
from notation.messages import say

COLUMNS = ("ply", "player", "dice", "played", "rank", "equity", "loss", "mark", "level", "luck", "best",
           "forced", "decisions", "error-rate", "result", "adjusted")
"""The table's words (``cli.analyse.*``)."""


def print_analysis(path: str, number: int, analysis: GameAnalysis,
                   limits: tuple[float, float, float] | None = None) -> None:
    """Every judged turn, then each player's summary, the engine named in both, and what
    the marks mean: the thresholds they were given by (``limits``, else the rule set's; the
    bad one raised by :data:`analysis.confirm.MARGIN` where a deeper level confirmed them).
    Where some turns were judged again (``--confirm``), each unforced turn gives the key of
    the level that decided its figures and mark, and the keys are said after the table."""
    game = analysis.game
    names = {c: game.headers.get(c.title) or c.title for c in Colour}
    click.echo(say("cli.analyse.title", path=path, game=number, rules=game.rules.name,
                   white=names[Colour.WHITE], white_side=Colour.WHITE.named, black=names[Colour.BLACK],
                   black_side=Colour.BLACK.named, engine=analysis.engine))
    word = {name: say(f"cli.analyse.{name}") for name in COLUMNS}
    keys = _level_keys(analysis)

    def column(text: str) -> str:  # the level's column, none where one level decided every turn
        return f" {text:>{len(word['level'])}}" if keys else ""

    click.echo(f"{word['ply']:>4} {word['player']:<6} {word['dice']:<4} {word['played']:<22} "
               f"{word['rank']:>7} {word['equity']:>7} {word['loss']:>6} {word['mark']:<4}"
               f"{column(word['level'])} {word['luck']:>6}  {word['best']}")
    for turn in analysis.turns:
        luck = "" if turn.luck is None else f"{turn.luck:+.3f}"
        if turn.forced:
            click.echo(f"{turn.ply:>4} {turn.player.named!s:<6} {turn.dice!s:<4} "
                       f"{turn.played.notation:<22} {word['forced']:>7} {'':>7} {'':>6} {'':<4}"
                       f"{column('')} {luck:>6}")
            continue
        best = "" if turn.rank == 1 else f"{turn.best.play.notation} {turn.best.equity:+.3f}"
        click.echo(f"{turn.ply:>4} {turn.player.named!s:<6} {turn.dice!s:<4} {turn.played.notation:<22} "
                   f"{f'{turn.rank}/{turn.legal}':>7} {turn.chosen.equity:>+7.3f} {turn.loss:>6.3f} "
                   f"{turn.mark or '':<4}{column(keys.get(turn.level, ''))} {luck:>6}  {best}")
    if analysis.stopped:
        click.echo(say("cli.analyse.stops", error=analysis.stopped))
    marks = " ".join(f"{mark:>3}" for mark, _ in reversed(MARKS))
    click.echo(f"{word['player']:<24} {word['decisions']:>9} {marks} {word['error-rate']:>10} "
               f"{word['luck']:>7} {word['result']:>6} {word['adjusted']:>8}   ({analysis.engine})")
    for colour in Colour:
        s = analysis.players[colour]
        counts = " ".join(f"{s.marks[mark]:>3}" for mark, _ in reversed(MARKS))
        result = "" if s.result is None else f"{s.result:+d}"
        adjusted = "" if s.luck_adjusted is None else f"{s.luck_adjusted:+.2f}"
        click.echo(f"{names[colour] + ' (' + str(colour.named) + ')':<24} {s.decisions:>9} {counts} "
                   f"{s.error_rate:>10.1f} {s.luck:>+7.3f} {result:>6} {adjusted:>8}")
    doubtful, bad, very_bad = limits or game.rules.marks
    if analysis.confirm:  # every mark is the deeper level's: its bad one from a margin above
        doubtful, bad, very_bad = confirmed_limits((doubtful, bad, very_bad))
    click.echo(say("cli.analyse.marks", doubtful=f"{doubtful:.3f}", bad=f"{bad:.3f}",
                   very_bad=f"{very_bad:.3f}"))
    for level, key in keys.items():
        click.echo(say("cli.analyse.level-key", key=key, level=level_words(level)))
    click.echo("")


def _level_keys(analysis: GameAnalysis) -> dict[str, str]:
    """Each level that decided an unforced turn, by first use, with its key (``1``, ``2``):
    none where every turn is the engine's own level (no confirmation, or none needed)."""
    levels = dict.fromkeys(turn.level for turn in analysis.turns if not turn.forced)
    if set(levels) <= {analysis.engine}:
        return {}
    return {level: str(number) for number, level in enumerate(levels, 1)}
