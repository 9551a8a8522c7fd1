"""The engine's work asked for from the viewer, done in a worker process
(:func:`webviewer.plumbing.workers.run_work`), at 0-ply with the shipped net of the game's
rule set: a stored game analysed on a scorer's request, as ``jacquet analyse --db`` does it
(:mod:`jacquet_cli.analyse_archive`), its marks confirmed as ``jacquet analyse`` confirms
them by default (the rule set's own, :func:`analysis.confirm.confirmation_for`, resolved by
the caller); and a live game's position evaluated for its watchers."""

from __future__ import annotations

from typing import Any, NamedTuple

from analysis.analyse import analyse_game
from analysis.confirm import deeper_judge
from analysis.ranking import Evaluator, roll_average
from analysis.report import analysis_json
from analysis.shipped import load_net
from archive import load_game, open_archive
from notation.engine.movegen import legal_plays
from notation.messages import Message
from notation.recording import LiveGame

DEPTH = 0
"""The depth a requested analysis is made at (1-ply takes too long for a request)."""


class GameGone(LookupError):
    """The game was deleted before its analysis started."""


def analyse_stored(archive: str, game_id: int, confirm: str
                   ) -> tuple[dict[str, Any], str, int, Message | None]:
    """The analysis of game ``game_id`` of the archive at ``archive`` (its ``jacquet analyse
    --json`` object; its marks confirmed by ``confirm``, a setting of
    :data:`analysis.confirm.CONFIRMATIONS`, the caller's choice or the rule set's own), the
    digest of the net that made it, its depth and the message of the record's error where it stopped
    (``None`` if it did not), for :func:`archive.analyses.store_analysis`;
    :class:`~analysis.shipped.NoNet` if its rule set has no shipped net."""
    db = open_archive(archive, readonly=True)
    try:
        game = load_game(db, game_id)
    finally:
        db.close()
    if game is None:
        raise GameGone(f"no game {game_id}")
    net = load_net(game.rules.name)
    evaluator = Evaluator(net, game.rules, ply=DEPTH)
    analysis = analyse_game(game, evaluator, confirm=deeper_judge(confirm, net, game.rules))
    return (analysis_json(analysis, evaluator.outcomes.names), net.digest, DEPTH,
            analysis.error.msg if analysis.error else None)


class LiveEvaluation(NamedTuple):
    """The engine's evaluation of a live game as its watchers see it: the engine and its
    depth, the player to act, his equity before his roll (the average over the 36 rolls of
    his best play's), and with his dice thrown the best plays for them (play, equity)."""

    engine: str
    player: str
    equity: float
    dice: str | None
    plays: list[tuple[str, float]]


def live_evaluation(record: str, pending: dict[str, Any], shown: int = 3) -> LiveEvaluation | None:
    """The evaluation of the game in progress (its record so far and the turn in progress,
    as ``live_games`` keeps them) at 0-ply with the shipped net; ``None`` once it is over."""
    live = LiveGame.load(record, pending)
    if live.over:
        return None
    state = live.node.state
    rules = live.game.rules
    net = load_net(rules.name)
    evaluator = Evaluator(net, rules, ply=DEPTH)
    player = state.player
    primes = (state.prime_held[player.index], state.prime_held[player.other.index])
    equity = roll_average(evaluator.roll_values(state.position, primes))
    plays: list[tuple[str, float]] = []
    if live.dice is not None:
        ranked = evaluator.rank(legal_plays(state.position, live.dice, rules), state.position, primes)
        plays = [(c.play.notation, c.equity) for c in ranked[:shown]]
    return LiveEvaluation(evaluator.name, player.title, equity,
                          None if live.dice is None else str(live.dice), plays)
