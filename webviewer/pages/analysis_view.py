"""What the game page shows of a game's latest analysis (:func:`archive.analyses.latest_analysis`):
each player's summary, the evaluation graph (:mod:`webviewer.pages.evaluation`), the marks
of the move list, and per judged turn its ranked candidates (and the same as data for
viewer.js); made once per analysis and kind of link and kept in the game's view
(:mod:`webviewer.pages.game_page`), a turn's candidates when first shown; and the best play
of a turn (or another candidate) drawn on the board when a page asks for it (``best=1``,
``show=24/18 24/23``), its steps as arrows.

Every figure names the engine and its depth (``jacquet-td jacquet v2, 0-ply``), as the
analysis row gives them.
"""

from __future__ import annotations

import json
from typing import Any, cast
from urllib.parse import quote

from flask_babel import gettext

from analysis.confirm import confirmed_limits
from archive.levels import level_label, level_words
from notation.engine.checker import check_play
from notation.engine.movegen import legal_plays
from notation.engine.play import Play
from notation.errors import NotationError
from notation.messages import Message, render
from notation.render.arrows import arrows
from webviewer.pages.evaluation import EvaluationGraph
from webviewer.pages.kept_games import GameView, PageNode
from webviewer.pages.losses import candidate_losses, depth_of, mixed_depths
from webviewer.pages.pieces import pieces
from webviewer.pages.stepping import script_safe
from webviewer.pages.tree import Links
from webviewer.pages.words import stamped
from webviewer.plumbing.language import page_language

TITLES = {"W": "White", "B": "Black"}


def engine_name(analysis: dict[str, Any]) -> str:
    """The engine, its depth and the level that confirmed its marks as every figure names
    them: ``jacquet-td jacquet v2, 0-ply, marks confirmed at 1-ply``
    (:func:`archive.analyses.level_label`)."""
    return level_label(analysis["engine"], analysis["depth"], analysis.get("confirm"), page_language())


def legend_limits(marks: tuple[float, float, float], analysis: dict[str, Any]) -> tuple[float, float, float]:
    """The thresholds an analysis's marks were given by: the rule set's ``marks``, the bad
    one a margin above where a deeper level confirmed them (:func:`analysis.confirm.confirmed_limits`)."""
    return confirmed_limits(marks) if analysis.get("confirm") else marks


def described(analysis: dict[str, Any]) -> str:
    """An analysis as ``jacquet analyse --json`` gives it, named by its engine, depth and
    confirming level."""
    confirm = analysis.get("confirm")
    if not confirm:
        return str(analysis["engine"])
    language = page_language()
    words = level_words(confirm, language)
    return render(Message.of("level.confirmed", level=analysis["engine"], confirm=words), language)


CandidateRow = tuple[int, str, float, float | None, float, bool, int | None]
"""A candidate as the game page lists it (:func:`candidate_rows`)."""


def candidate_rows(turn: dict[str, Any]) -> list[CandidateRow]:
    """A turn's stored candidates best first, each (rank, play, equity, loss against the
    best, the mover's winning chance, whether it is the play made, its depth): the loss as
    :func:`~webviewer.pages.losses.candidate_losses` gives it (``None`` for a play judged
    at another depth than the best)."""
    ranked = sorted(turn["candidates"], key=lambda c: c["rank"])
    losses = candidate_losses(ranked, turn["played"], turn["loss"])
    return [(int(c["rank"]), str(c["play"]), float(c["equity"]), loss, float(c["probabilities"]["win"]),
             c["play"] == turn["played"], depth_of(c))
            for c, loss in zip(ranked, losses, strict=True)]


def show_url(links: Links, ply: int, play: str) -> str:
    """The address of the game page's board after candidate ``play`` of the turn of
    ``ply``, its steps as arrows (``?ply=K&show=24/18 24/23``; board.js makes the same)."""
    return links.url(f"ply={ply}&show={quote(play, safe='/*()')}")


def candidates_html(turn: dict[str, Any], engine: str, links: Links, showing_best: bool,
                    shown: str | None = None) -> str:
    """The ``candidates`` element of a turn, each play a link drawing the board after it
    (``shown``: the one drawn), with the link that draws its best play (or, when the board
    shows it, back to the play made)."""
    address = f"ply={turn['ply']}"
    played_best = turn["rank"] == 1 or turn["played"] == turn["best"]
    best = None if played_best or showing_best else links.url(f"{address}&best=1")
    back = links.url(address) if showing_best or shown else None
    rows = candidate_rows(turn)
    shows = {row[1]: show_url(links, turn["ply"], row[1]) for row in rows}
    level = level_words(turn["level"], page_language()) if turn.get("level") else engine
    return str(pieces().candidates(turn, rows, level, best, back, shows, shown,
                                   mixed_depths(turn["candidates"])))


def script_turn(turn: dict[str, Any]) -> dict[str, Any]:
    """What viewer.js needs to draw a turn's ``candidates`` element as the
    ``candidates`` macro does."""
    level = level_words(turn["level"], page_language()) if turn.get("level") else None
    return {"level": level, "dice": turn["dice"], "mark": turn["mark"], "forced": turn["forced"],
            "rank": turn["rank"], "legal": turn["legal"], "loss": turn["loss"], "luck": turn["luck"],
            "played": turn["played"], "best": turn["best"], "plays": candidate_rows(turn),
            "mixed": mixed_depths(turn["candidates"])}


class AnalysisPieces:
    """The parts of a game's page made from its latest analysis (for one kind of link):
    the summary, the graph, the move list's marks and the data viewer.js draws each
    turn's candidates from, made at once; each turn's ``candidates`` element made when
    first shown, and kept."""

    def __init__(self, view: GameView, analysis: dict[str, Any], row: dict[str, Any],
                 links: Links) -> None:
        self.engine = engine_name(analysis)
        self.confirmed = bool(analysis.get("confirm"))
        self.links = links
        self.turns: dict[int, dict[str, Any]] = analysis["turns"]
        """The analysis's turns by ply (as stored)."""
        names = {"W": row.get("white"), "B": row.get("black")}
        players = [(TITLES[colour], names[colour], analysis["players"][colour],
                    view.rules.skill_label(analysis["players"][colour]["error_rate"], page_language()))
                   for colour in ("W", "B") if colour in analysis["players"]]
        analysed_at = stamped(analysis["analysed_at"])
        self.summary = (str(pieces().analysis_summary(players, self.engine, analysed_at, self.confirmed))
                        + str(pieces().mark_legend(legend_limits(view.rules.marks, analysis))) if self.turns
                        else str(pieces().analysis_empty(self.engine))).encode()
        self.marks = {f"ply={ply}": turn["mark"] for ply, turn in self.turns.items() if turn["mark"]}
        """The marked main-line turns' marks, by address (``ply=K``)."""
        shown = {"engine": self.engine, "turns": {ply: script_turn(t) for ply, t in self.turns.items()}}
        self.data = script_safe(json.dumps(shown, ensure_ascii=False, separators=(",", ":"))).encode()
        """The candidates by ply as JSON safe inside a ``<script>``, for viewer.js."""
        self.graph = EvaluationGraph(len(view.pips), self.turns, links, self.engine)
        self._candidates: dict[int, bytes] = {}

    def candidates(self, ply: int) -> bytes:
        """The ``candidates`` element of the turn of ``ply`` (which the analysis judged)."""
        found = self._candidates.get(ply)
        if found is None:
            found = self._candidates[ply] = candidates_html(self.turns[ply], self.engine, self.links,
                                                            False).encode()
        return found


def best_play(view: GameView, turn: dict[str, Any], text: str | None = None) -> Play | None:
    """The stored best play of ``turn`` (or its candidate written ``text``) applied by the
    rules engine to the position before it (``None`` if the main line does not reach the
    turn, or the position's player, dice or legal plays do not match what was stored, or
    ``text`` is no candidate of the turn)."""
    wanted = turn["best"] if text is None else " ".join(text.split())
    if text is not None and wanted not in {c["play"] for c in turn["candidates"]}:
        return None
    ply = turn["ply"]
    if not 1 <= ply < len(view.mainline):
        return None
    before, after = view.nodes[view.mainline[ply - 1]], view.nodes[view.mainline[ply]]
    dice = after.roll()
    if dice is None or before.white_to_move != (turn["player"] == "W"):
        return None
    plays = legal_plays(before.position(), dice, view.rules)
    return next((play for play in plays if play.notation == wanted), None)


def next_best_arrows(view: GameView, turns: dict[int, dict[str, Any]], flipped: bool) -> dict[int, str]:
    """lichess's arrow on every move: for each node of the main line whose next turn the
    analysis judged, that turn's stored best play (read by the rules engine's checker from
    the node's position and the turn's roll: its fast path, not the turn's every legal
    play) as the engine's best play's arrows (:func:`notation.render.arrows.arrows`,
    ``best``), by the node's index; drawn on a board ``flipped`` or not. A turn whose
    player, roll or best play the main line does not match is left without."""
    found = {}
    for ply, turn in turns.items():
        if not 1 <= ply < len(view.mainline):
            continue
        index = view.mainline[ply - 1]
        before, dice = view.nodes[index], view.nodes[view.mainline[ply]].roll()
        if dice is None or before.white_to_move != (turn["player"] == "W"):
            continue
        try:
            play = check_play(before.position(), dice, turn["best"], view.rules)
        except NotationError:
            continue
        found[index] = arrows(play.steps, turn["player"] == "W", view.rules, flipped,
                              title=play.notation, best=True)
    return found


def best_node(view: GameView, turn: dict[str, Any], play: Play) -> PageNode:
    """The page node of the turn's ply as if its best play (or another of its candidates)
    had been made: the position it leaves, seen by the other player, the play's steps
    marked."""
    node = view.nodes[view.mainline[turn["ply"]]]
    position = play.next_position
    steps = tuple(value for step in play.steps for value in step)
    if play.notation == turn["best"]:
        caption = gettext("Best play (%(dice)s): %(play)s, instead of %(played)s.", dice=turn["dice"],
                          play=play.notation, played=turn["played"])
    else:
        caption = gettext("The engine's candidate %(rank)s (%(dice)s): %(play)s, instead of %(played)s.",
                          rank=next(c["rank"] for c in turn["candidates"] if c["play"] == play.notation),
                          dice=turn["dice"], play=play.notation, played=turn["played"])
    return cast(PageNode, node._replace(white_to_move=turn["player"] != "W", mover=position.mover,
                                        opponent=position.opponent, last=steps,
                                        caption=Message.of("text", text=str(caption))))
