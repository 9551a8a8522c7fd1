"""The game report (lichess's analysis summary, gnubg's game statistics), made from a game's
analysis as it is stored (no engine call): per player and per stage of the game, the turns,
the unforced decisions, the marks of each kind, the error rate with its label on the rule
set's scale, the luck; and each player's worst plays.

- The **stages** are the rule set's (:meth:`~notation.engine.rules.base.RuleSet.stage`):
  ``opening``, ``middle`` (the middle game), ``race`` and ``bearoff``, each turn's judged
  from the position before its roll, seen by the player to act, and his count of turns.
- Each figure names who decided it: the **levels** of a cell count its decisions by the
  engine and level that judged them (``jacquet-td jacquet v2, 0-ply``, or the confirming
  judge's ``..., 2-ply``); the luck is the engine's at 0-ply, whatever the analysis's depth
  (:mod:`analysis.analyse`).
- A player's figures over all stages (``total``) are those of the analysis's summary:
  the same decisions, marks, error rate and luck.

The turns are read as ``jacquet analyse --json`` writes them, or as the archive stores them
(the player ``W``/``B`` for ``White``/``Black``; ``before`` may be ``equity_before``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from notation.engine.board import Position
from notation.engine.rules.base import STAGES, RuleSet
from notation.tree.game import Game

MARK_KINDS = ("?!", "?", "??")
"""The marks, mildest first."""
TITLES = {"W": "White", "B": "Black", "White": "White", "Black": "Black"}
"""A turn's player as the report names him, from either spelling."""
TOTAL = "total"
"""The key of a player's figures over the whole game."""
WORST = 3
"""How many of each player's worst plays the report shows."""


@dataclass
class Figures:
    """What some of one player's turns add up to."""

    turns: int = 0
    decisions: int = 0
    """Unforced decisions (more than one legal play)."""
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARK_KINDS, 0))
    lost: float = 0.0
    """Equity lost over the decisions, in the rule set's points."""
    luck: float = 0.0
    levels: Counter[str] = field(default_factory=Counter)
    """The decisions by the engine and level that decided them."""

    @property
    def error_rate(self) -> float:
        """Equity lost per decision, in thousandths of a point (0 with none)."""
        return 1000.0 * self.lost / self.decisions if self.decisions else 0.0

    def add(self, turn: Mapping[str, Any], engine: str) -> None:
        """Count one judged turn in."""
        self.turns += 1
        if not turn["forced"]:
            self.decisions += 1
            self.lost += float(turn["loss"])
            if turn["mark"]:
                self.marks[turn["mark"]] += 1
            self.levels[turn.get("level") or engine] += 1
        if turn["luck"] is not None:
            self.luck += float(turn["luck"])


@dataclass(frozen=True)
class WorstPlay:
    """One of a player's worst plays: the turn, its stage, the position before the roll
    (seen by him), the play made and the best, the equity lost, the mark and who decided it."""

    ply: int
    stage: str
    position: Position
    dice: str
    played: str
    best: str
    loss: float
    mark: str | None
    level: str


@dataclass
class GameReport:
    """The report of one game's analysis by ``engine`` (its name, version and depth)."""

    rules: RuleSet
    engine: str
    confirm: str | None
    players: dict[str, dict[str, Figures]]
    """By player (``White``, ``Black``): his figures per stage and over the game (``total``)."""
    worst: dict[str, list[WorstPlay]]
    """By player: his worst plays, the worst first (unforced plays that lost equity only)."""

    @property
    def luck_level(self) -> str:
        """Who measured the luck: the engine at 0-ply (``jacquet-td jacquet v2, 0-ply``)."""
        return self.engine.rsplit(",", 1)[0] + ", 0-ply"

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages the game went through (any player's turn in them), in the game's order."""
        return tuple(stage for stage in STAGES
                     if any(figures[stage].turns for figures in self.players.values()))


def positions_before(game: Game) -> dict[int, Position]:
    """The position before each ply of ``game``'s main line, seen by the player to act."""
    found = {}
    for node in game.mainline():
        before = node.parent.state if node.parent is not None else game.state
        found[node.ply] = before.position
    return found


def game_report(turns: Iterable[Mapping[str, Any]], positions: Mapping[int, Position], rules: RuleSet,
                engine: str, confirm: str | None = None, worst: int = WORST) -> GameReport:
    """The report of an analysis's ``turns`` (judged with ``engine`` and ``confirm`` as
    ``jacquet analyse`` names them) of a game of ``rules`` whose position before each ply
    is ``positions[ply]`` (seen by the player to act: :func:`positions_before`)."""
    players = {title: {stage: Figures() for stage in (*STAGES, TOTAL)} for title in ("White", "Black")}
    counted: Counter[str] = Counter()
    plays: dict[str, list[WorstPlay]] = {"White": [], "Black": []}
    for turn in sorted(turns, key=lambda t: int(t["ply"])):
        title = TITLES[turn["player"]]
        counted[title] += 1
        position = positions[turn["ply"]]
        stage = rules.stage(position, counted[title])
        players[title][stage].add(turn, engine)
        players[title][TOTAL].add(turn, engine)
        if not turn["forced"] and turn["loss"] > 0:
            plays[title].append(WorstPlay(int(turn["ply"]), stage, position, str(turn["dice"]),
                                          str(turn["played"]), str(turn["best"]), float(turn["loss"]),
                                          turn["mark"], turn.get("level") or engine))
    chosen = {title: sorted(found, key=lambda play: (-play.loss, play.ply))[:worst]
              for title, found in plays.items()}
    return GameReport(rules, engine, confirm, players, chosen)


def figures_json(figures: Figures, rules: RuleSet) -> dict[str, Any]:
    """One cell of the report: ``turns``, ``decisions``, ``marks``, ``error_rate`` (to 0.1),
    ``skill`` (the message id of its label on the rule set's scale), ``luck`` and
    ``levels`` (the decisions by who decided them)."""
    return {"turns": figures.turns, "decisions": figures.decisions, "marks": dict(figures.marks),
            "error_rate": round(figures.error_rate, 1), "skill": rules.skill_id(figures.error_rate),
            "luck": round(figures.luck, 4), "levels": dict(sorted(figures.levels.items()))}


def report_json(report: GameReport, names: Mapping[str, str | None]) -> dict[str, Any]:
    """The ``report`` object of ``jacquet analyse --json`` (``names``: the players' names by
    ``White``, ``Black``)."""
    return {
        "engine": report.engine, "confirm": report.confirm, "luck_level": report.luck_level,
        "stages": list(report.stages),
        "players": {title: {"name": names.get(title),
                            **{stage: figures_json(figures[stage], report.rules)
                               for stage in (*report.stages, TOTAL)}}
                    for title, figures in report.players.items()},
        "worst": {title: [{"ply": play.ply, "stage": play.stage, "position": play.position.position_id(),
                           "dice": play.dice, "played": play.played, "best": play.best,
                           "loss": round(play.loss, 4), "mark": play.mark, "level": play.level}
                          for play in plays]
                  for title, plays in report.worst.items()},
    }
