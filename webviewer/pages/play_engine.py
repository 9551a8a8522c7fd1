"""The engine's work for the viewer: a roll's plays ranked (the position page as an analysis
board, the API, the hints of a game against the engine), the engine's own turns in such a
game, and the analysis of the game once it is over.

Each job is a plain function of picklable arguments, so that the heavy ones run in the
worker pool (:mod:`webviewer.plumbing.workers`) within its time and memory. The nets are the
shipped ones (:func:`analysis.shipped.load_net`), read once per process.
"""

from __future__ import annotations

import random
import secrets
from functools import lru_cache
from typing import Any

from flask import current_app, request

from analysis.analyse import analyse_game
from analysis.confirm import deeper_judge
from analysis.network import Network
from analysis.players import NetPlayer, Player, RandomPlayer
from analysis.ranking import Evaluator, LookaheadPlayer
from analysis.report import analysis_json, annotate, candidate_json
from analysis.shipped import load_net
from notation import Dice, Position, legal_plays
from notation.engine.rules import rule_set
from notation.errors import InvalidDiceError
from notation.formats.jqn import write_game
from notation.messages import Message
from notation.recording import LiveGame, game_from_text
from webviewer.plumbing.args import choice_arg
from webviewer.plumbing.workers import run_work

MAX_LEGAL_PLAYS = 500
"""Plays ``/api/legal`` and a ranking list at most (a versailles doublet may have over
11,000: 1.4 MB); the answer says how many there are and whether it is cut (config
``MAX_LEGAL_PLAYS``)."""
STRENGTHS = {"random": "random", "0": "0-ply", "1": "1-ply", "2": "2-ply"}
"""The engine's strengths, as the forms send them, with their words."""


def legal_limit() -> int:
    """The most plays an answer lists (config ``MAX_LEGAL_PLAYS``)."""
    return int(current_app.config.get("MAX_LEGAL_PLAYS", MAX_LEGAL_PLAYS))


@lru_cache(maxsize=8)
def shipped_net(variant: str) -> Network:
    """The shipped net of ``variant``, read once per process (:class:`~analysis.shipped.NoNet`
    when there is none)."""
    return load_net(variant)


def two_dice(text: str) -> Dice:
    """A roll as typed (``61``, ``6-1``): :class:`~notation.errors.InvalidDiceError` unless
    it is two dice."""
    dice = Dice.parse(text)
    if dice.low is None:
        raise InvalidDiceError(Message.of("recorder.two-dice", dice=text))  # in the page's language
    return dice


def ranking(variant: str, position_id: str, dice: str, ply: int, limit: int,
            primes: tuple[bool, bool] = (False, False)) -> dict[str, Any]:
    """The legal plays of ``dice`` from the position (seen by the player on roll) ranked by
    the engine at ``ply``, best first: the engine's name, how many plays there are, and the
    best ``limit`` of them (``truncated`` when there are more), each as ``jacquet analyse
    --json`` writes a candidate. ``dice`` is a roll, or the one die a player is given to play
    (versailles' R-PASS: ``"5"``). :class:`~notation.errors.NotationError` for a position or
    dice the rules refuse."""
    rules = rule_set(variant)
    position = Position.from_id(position_id)
    rules.check_position(position)
    evaluator = Evaluator(shipped_net(variant), rules, ply=ply)
    plays = legal_plays(position, Dice.parse(dice), rules)
    ranked = evaluator.rank(plays, position, primes)
    names = evaluator.outcomes.names
    return {"engine": evaluator.name, "dice": dice, "ply": ply, "count": len(ranked),
            "truncated": len(ranked) > limit, "outputs": list(names),
            "plays": [candidate_json(i, c, names) for i, c in enumerate(ranked[:limit])]}


def position_ranking(variant: str, position_id: str, limit: int) -> dict[str, Any] | None:
    """For the position page and ``/api/positions/ID``: the plays of the roll asked
    (``?dice=61``) ranked at the depth asked (``?ply=0``, the default, ``1`` or ``2``) by the shipped
    net of ``variant``, in the worker pool (:func:`ranking`); ``None`` when no roll is asked.
    :class:`~notation.errors.NotationError` for a roll that cannot be read,
    :class:`~analysis.shipped.NoNet` when no net is shipped for the rule set."""
    ply = choice_arg("ply", {"": 0, "0": 0, "1": 1, "2": 2})
    text = request.args.get("dice", "").strip()
    if not text:
        return None
    two_dice(text)  # a roll that cannot be read is refused before any work
    shipped_net(variant)
    return run_work(ranking, variant, position_id, text, ply, limit)


def engine_name(variant: str, strength: str) -> str:
    """The engine's name at ``strength`` (one of :data:`STRENGTHS`), as a game's record gives
    it: ``random``, or ``jacquet-td jacquet v2, 1-ply`` (:class:`~analysis.shipped.NoNet`
    when no net is shipped for ``variant``)."""
    if strength == "random":
        return "random"
    return Evaluator(shipped_net(variant), rule_set(variant), ply=int(strength)).name


def engine_player(variant: str, strength: str) -> Player:
    """The engine at ``strength`` (one of :data:`STRENGTHS`) for ``variant``: its name is
    the one the game's record gives it."""
    if strength == "random":
        return RandomPlayer(seed=secrets.randbits(64))
    net = shipped_net(variant)
    if strength == "0":
        return NetPlayer(net)
    return LookaheadPlayer(net, rule_set(variant), ply=int(strength))


def engine_turns(record: str, pending: dict[str, Any], engine: str, strength: str,
                 max_turns: int) -> tuple[str, dict[str, Any]]:
    """The game after the engine's turns: while it is the engine's (``W`` or ``B``) turn
    and the game goes on (for at most ``max_turns`` turns in all), it rolls (the server's
    dice) and plays. The game stored as :meth:`LiveGame.dump` gives it."""
    live = LiveGame.load(record, pending)
    player = engine_player(live.game.rules.name, strength)
    rng = random.SystemRandom()
    while not live.over and live.node.state.player.value == engine and live.node.ply < max_turns:
        live.set_dice(None, rng)
        if live.dice is None:  # nothing to play: the turn was played at once
            continue
        state = live.node.state
        primes = (state.prime_held[state.player.index], state.prime_held[state.player.other.index])
        plays = live.entry().plays
        live.play_text(plays[player.choose(plays, state.position, primes)].notation)
    return live.dump()


def analysed(record: str, luck: bool, confirm: str) -> dict[str, Any]:
    """The finished game judged at 0-ply, its marks confirmed by ``confirm`` (a setting of
    :data:`analysis.confirm.CONFIRMATIONS`: :func:`webviewer.blueprints.play.analyses`') (``jacquet analyse
    --json``'s object, without each turn's candidates), with
    ``record``: the game with the engine's comments and marks written in, and whether the
    ``luck`` was measured (most of the work: 21 rolls judged per turn)."""
    game = game_from_text(record)
    net = shipped_net(game.rules.name)
    evaluator = Evaluator(net, game.rules, ply=0)
    analysis = analyse_game(game, evaluator, luck=luck, confirm=deeper_judge(confirm, net, game.rules))
    answer = analysis_json(analysis, evaluator.outcomes.names)
    for turn in answer["turns"]:  # the page shows each turn's best play, not its candidates
        del turn["candidates"]
    answer["luck_measured"] = luck
    annotate(analysis)
    answer["record"] = write_game(game)
    return answer
