"""The game report's section (:mod:`analysis.game_report`), made from a game's latest
analysis as the archive stores it (:func:`archive.analyses.latest_analysis`) and the kept
view of the game (the position before each ply): per player and stage of the game, the
turns, decisions, marks, error rate with its label, luck and who decided them; each
player's worst plays with a small diagram of the position and a link to the turn. Rendered
from ``templates/games/report.html``, for the game page (kept with the page's other
analysis parts) and the printed game (:mod:`webviewer.pages.print_page`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import render_template
from flask_babel import gettext
from markupsafe import Markup

from analysis.game_report import TOTAL, Figures, GameReport, WorstPlay, game_report
from archive.levels import level_label, level_words
from notation import Dice
from notation.render.svg import board
from webviewer.pages.kept_games import GameView
from webviewer.pages.tree import Links
from webviewer.plumbing.language import page_language

DIAGRAM = 220
"""A worst play's diagram's width, in pixels."""


def stage_names() -> dict[str, str]:
    """The stages of a game (and the whole game) as the page names them, in its language."""
    return {"opening": gettext("Opening"), "middle": gettext("Middle game"), "race": gettext("Race"),
            "bearoff": gettext("Bear-off"), TOTAL: gettext("Whole game")}


class Row(NamedTuple):
    """One line of a player's table: the stage's name, its figures, the error rate's label
    on the rule set's scale, and who decided the figures (``level: decisions``, joined)."""

    stage: str
    figures: Figures
    skill: str
    levels: str


class Worst(NamedTuple):
    """One of a player's worst plays as the section shows it: the play, its stage as the
    page names it, its diagram and the links to its turn and to the best play there."""

    play: WorstPlay
    stage: str
    diagram: Markup
    href: str
    best_href: str


def stored_report(view: GameView, analysis: dict[str, Any]) -> GameReport:
    """The report of a stored analysis of the game of ``view`` (no engine call)."""
    positions = {ply + 1: view.nodes[index].position() for ply, index in enumerate(view.mainline)}
    engine = level_label(analysis["engine"], analysis["depth"], None)
    turns = [turn for ply, turn in analysis["turns"].items() if ply in positions]
    return game_report(turns, positions, view.rules, engine, analysis.get("confirm") or None)


def _diagram(report: GameReport, play: WorstPlay, player: str) -> Markup:
    """The position before ``play`` with its roll, seen and numbered by ``player``."""
    try:
        roll: Dice | None = Dice.parse(play.dice)
    except ValueError:
        roll = None
    title = gettext("Ply %(ply)s: %(dice)s", ply=play.ply, dice=play.dice)
    return Markup(board(play.position, report.rules, white_to_move=player == "White", dice=roll,
                        black_numbers=player == "Black", size=DIAGRAM, title=title,
                        language=page_language()))


def report_html(view: GameView, analysis: dict[str, Any], names: dict[str, str | None],
                links: Links, diagrams: bool = True) -> str:
    """The report's section of a game's stored ``analysis`` (``names``: the players' by
    ``White``, ``Black``; ``links``: the game page's, for the turns), with the worst plays'
    diagrams unless ``diagrams`` is false."""
    report = stored_report(view, analysis)
    named = stage_names()
    language = page_language()
    net = report.engine.split(", ")[0] + ", "  # named above the tables: each level says its depth alone
    players = []
    for title, figures in report.players.items():
        rows = [Row(named[stage], figures[stage], view.rules.skill_label(figures[stage].error_rate, language),
                    gettext("; ").join(gettext("%(label)s: %(value)s", value=count,
                                               label=level_words(level.removeprefix(net), language))
                                       for level, count in sorted(figures[stage].levels.items())))
                for stage in (*report.stages, TOTAL)]
        worst = [Worst(play, named[play.stage], _diagram(report, play, title) if diagrams else Markup(""),
                       links.url(f"ply={play.ply}"), links.url(f"ply={play.ply}&best=1"))
                 for play in report.worst[title]]
        players.append((title, names.get(title), rows, worst))
    return render_template("games/report.html", players=players, report=report)
