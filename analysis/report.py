"""An analysis as others read it: JSON (the ``jacquet analyse --json`` contract), and the
record written back with the engine's comments and marks.

JSON, one object per game::

    {"engine": "jacquet-td jacquet v2, 0-ply", "confirm": "2-ply", "variant": "jacquet",
     "stopped": null, "stopped_message": null, "error": null,
     "turns": [{"ply", "player", "dice", "played", "best", "equity", "best_equity",
                "loss", "mark", "forced", "luck", "before", "rank", "legal", "level",
                "candidates": [{"play", "equity", "probabilities", "rank", "depth"}]}],
     "players": {"White": {"name", "decisions", "confirmed", "marks", "error_rate", "luck",
                           "result", "luck_adjusted"}, "Black": {...}},
     "report": {"engine", "confirm", "luck_level", "stages": ["opening", "middle", ...],
                "players": {"White": {"name", "opening": {"turns", "decisions", "marks",
                                      "error_rate", "skill", "luck", "levels"}, ...,
                                      "total": {...}}, "Black": {...}},
                "worst": {"White": [{"ply", "stage", "position", "dice", "played", "best",
                                     "loss", "mark", "level"}], "Black": [...]}}}

``ply`` counts the turns of the game from 1 (as the viewer's ``?ply=``); ``loss`` is the
equity the played play lost, 0 for the best (``equity`` and ``best_equity`` are theirs, for
the player to act); ``before`` the equity of the player to act
before his roll (``null`` for dice passed); ``level`` who decided the turn's figures and
mark (the engine and its level: ``jacquet-td jacquet v2, 0-ply``, or ``jacquet-td jacquet
v2, 2-ply`` where the deeper judge of ``confirm`` judged the turn again); ``confirm`` that
judge's level (``null`` without confirmation); ``confirmed`` how many of a player's
decisions the deeper judge decided; ``probabilities`` are named by the rule set's
outputs (:mod:`analysis.outcomes`). ``stopped`` is the record's first error where the
analysis stops (its line, in the language asked), ``stopped_message`` the same as its
message id and parameters (``{"id": ..., "params": ...}``), and ``error`` the same error as
``jacquet validate --json`` gives it (:meth:`notation.errors.NotationError.as_dict`: its
``severity``, ``file``, ``line``, ``column``, ``game``, ``turn``, ``rule``, ``id``,
``params``, ``message`` in the language asked and ``legal_plays``; the place ``null`` for an
error no reader placed, in a game a program made). ``report`` is the game report
(:mod:`analysis.game_report`): per player and stage of the game, and his worst plays.
"""

from __future__ import annotations

from typing import Any

from analysis.analyse import MARKS, GameAnalysis, PlayerSummary, TurnAnalysis
from analysis.game_report import game_report, positions_before, report_json
from analysis.ranking import Candidate
from notation.engine.state import Colour

NAG_OF_MARK = dict(MARKS)
"""``?!`` → 6, ``?`` → 2, ``??`` → 4."""


def _rounded(value: float | None, places: int = 4) -> float | None:
    return None if value is None else round(value, places)


def candidate_json(rank: int, candidate: Candidate, names: tuple[str, ...]) -> dict[str, Any]:
    """One ranked play: its notation, equity, named probabilities, rank (1 = best), depth."""
    return {"play": candidate.play.notation, "equity": round(candidate.equity, 4),
            "probabilities": dict(zip(names, [round(p, 4) for p in candidate.probabilities], strict=True)),
            "rank": rank + 1, "depth": candidate.depth}


def turn_json(turn: TurnAnalysis, names: tuple[str, ...]) -> dict[str, Any]:
    """One judged turn."""
    return {"ply": turn.ply, "player": turn.player.title, "dice": str(turn.dice),
            "played": turn.played.notation, "best": turn.best.play.notation,
            "equity": _rounded(turn.chosen.equity), "best_equity": _rounded(turn.best.equity),
            "loss": _rounded(turn.loss), "mark": turn.mark, "forced": turn.forced,
            "luck": _rounded(turn.luck), "before": _rounded(turn.before), "rank": turn.rank,
            "legal": turn.legal, "level": turn.level,
            "candidates": [candidate_json(i, c, names) for i, c in turn.candidates]}


def summary_json(summary: PlayerSummary, name: str | None) -> dict[str, Any]:
    """One player's figures."""
    return {"name": name, "decisions": summary.decisions, "confirmed": summary.confirmed,
            "marks": dict(summary.marks),
            "error_rate": _rounded(summary.error_rate, 1), "luck": _rounded(summary.luck),
            "result": summary.result, "luck_adjusted": _rounded(summary.luck_adjusted)}


def analysis_json(analysis: GameAnalysis, names: tuple[str, ...]) -> dict[str, Any]:
    """The whole game's analysis (``names``: the outputs of its rule set's net)."""
    headers = analysis.game.headers
    turns = [turn_json(t, names) for t in analysis.turns]
    report = game_report(turns, positions_before(analysis.game), analysis.game.rules, analysis.engine,
                         analysis.confirm)
    players = {colour.title: headers.get(colour.title) for colour in Colour}
    return {"engine": analysis.engine, "confirm": analysis.confirm, "variant": analysis.game.rules.name,
            "stopped": analysis.stopped,
            "stopped_message": analysis.error.msg.as_json() if analysis.error else None,
            "error": analysis.error.as_dict() if analysis.error else None,
            "turns": turns,
            "players": {colour.title: summary_json(analysis.players[colour], players[colour.title])
                        for colour in Colour},
            "report": report_json(report, players)}


def turn_comment(turn: TurnAnalysis, engine: str) -> str:
    """The engine's comment on a turn, named by the level that decided it:
    ``jacquet-td jacquet v2, 0-ply: 24/18 -0.212 (rank 3 of 12); best 13/7 -0.150 (loss
    0.062); luck +0.041``."""
    parts = [f"{turn.level or engine}:"]
    if turn.forced:
        parts.append("forced")
    elif turn.rank == 1:
        parts.append(f"best play, equity {turn.chosen.equity:+.3f}")
    else:
        parts.append(f"{turn.played.notation} {turn.chosen.equity:+.3f} (rank {turn.rank} of "
                     f"{turn.legal}); best {turn.best.play.notation} {turn.best.equity:+.3f} "
                     f"(loss {turn.loss:.3f})")
    text = " ".join(parts)
    if turn.luck is not None:
        text += f"; luck {turn.luck:+.3f}"
    return text


def annotate(analysis: GameAnalysis) -> None:
    """Write the analysis into its game: a comment on every judged turn, the mark's NAG
    (unless the turn carries it already), and an ``Annotator`` tag naming the engine (:func:`described`)."""
    for turn in analysis.turns:
        node = turn.node
        node.comments.append(turn_comment(turn, analysis.engine))
        if turn.mark is not None and NAG_OF_MARK[turn.mark] not in node.nags:
            node.nags.append(NAG_OF_MARK[turn.mark])
    analysis.game.headers["Annotator"] = described(analysis)


def described(analysis: GameAnalysis) -> str:
    """The engine with its level and, if any, the confirming judge's:
    ``jacquet-td jacquet v2, 0-ply, marks confirmed at 2-ply``."""
    if analysis.confirm is None:
        return analysis.engine
    return f"{analysis.engine}, marks confirmed at {analysis.confirm}"
