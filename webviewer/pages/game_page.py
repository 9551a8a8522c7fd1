"""The game page: a game at one node, drawn from its kept view (:mod:`webviewer.pages.kept_games`).

What does not depend on the node is rendered once per game (and language) and kept in its view: the frame
(the site's header, the heading, the downloads: ``games/game.html``) and, per kind of link
(:class:`Kind`: flipped or not, numbered for the player on roll or not), the move list and
the pip chart (from the macros of ``games/pieces.html``) and the data the script steps
through (:mod:`webviewer.pages.stepping`).
A game with an analysis in the archive also keeps, per kind of link and under the id of
its latest analysis, what the page shows of it (:mod:`webviewer.pages.analysis_view`: the
players' summary, the evaluation graph, the move list's marks, each turn's candidates; and
the game report, :mod:`webviewer.pages.report_view`):
a page reads only that id (one indexed read), so an analysis stored since is shown at once.
A page renders only the part that is its own (the board, the steps: the ``node_view``
macro) and marks its turn in the kept move list and its ply in the kept charts; the page's
UTF-8 is joined from the kept parts' UTF-8.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple
from urllib.parse import quote

from flask import Response, render_template, session, url_for
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import escape

from notation.messages import render
from notation.render.arrows import arrows
from notation.render.svg import board_key
from webviewer.pages.analysis_view import (
    AnalysisPieces,
    best_node,
    best_play,
    candidates_html,
    next_best_arrows,
)
from webviewer.pages.board_view import describe, page_board
from webviewer.pages.chart import PipChart
from webviewer.pages.downloads import DOWNLOADS, holds
from webviewer.pages.kept_games import GameView, PageNode
from webviewer.pages.movelist import MoveList
from webviewer.pages.node_words import NodeWords, node_words
from webviewer.pages.pieces import pieces
from webviewer.pages.report_view import report_html
from webviewer.pages.stepping import stepping_data, where
from webviewer.pages.stored import Row
from webviewer.pages.tree import Links
from webviewer.plumbing.auth import signed_in
from webviewer.plumbing.language import page_language

_TOKEN = secrets.token_hex(16)
SUMMARY, LIVE, MOVES, CHART, EVALUATION, REPORT, DATA = (
    f"\x00{_TOKEN}:{part}\x00"
    for part in ("summary", "live", "moves", "chart", "evaluation", "report", "data"))
"""Where the live parts go in the frame, in the page's order: the analysis's summary, the
node's view, the move list, the chart, the evaluation graph, the game report, the embedded
data (no record can hold these, and autoescaping leaves them as they are)."""
SAFE = "!$&'()*+,/:;=@"
"""What werkzeug's path converter leaves unquoted in a URL (a position ID is all such)."""


class Kind(NamedTuple):
    """A kind of link of the game page: the board flipped (Black at the bottom), the points
    numbered for the player on roll (else for the player whose turn is shown)."""

    flip: bool
    numbers_on_roll: bool

    def links(self, base: str) -> Links:
        """The links to the nodes of the game page at ``base``, of this kind."""
        return Links(f"{base}?", ("&flip=1" if self.flip else "")
                     + ("&numbers=roll" if self.numbers_on_roll else ""))


class Frame(NamedTuple):
    """What a game's page keeps of its frame (for one address of the page and one version
    of its row): the page before, between and after its live parts (no flashed message),
    UTF-8, and the address of a position's page split round the position ID."""

    before: bytes
    before_live: bytes
    before_moves: bytes
    before_chart: bytes
    before_evaluation: bytes
    before_report: bytes
    before_data: bytes
    after: bytes
    position_head: str
    position_tail: str
    editor: str
    """The board editor's address for the game's rule set (``?variant=V``), who is on roll
    and the position ID to follow."""


def _frame(view: GameView, row: Row) -> Frame:
    """The game page's frame: the site's header (with the messages flashed to this
    visitor, if any, and who is signed in), the heading, the downloads (and an admin's
    controls)."""
    page = render_template("games/game.html", row=row, summary=SUMMARY, live=LIVE, chart=CHART,
                           moves=MOVES, evaluation=EVALUATION, report=REPORT, data=DATA,
                           comments=view.comments, plies=len(view.mainline) > 1,
                           formats=DOWNLOADS, holds=holds)
    parts = []
    for part in (SUMMARY, LIVE, MOVES, CHART, EVALUATION, REPORT, DATA):
        before, found, page = page.partition(part)
        assert found, "the frame holds its live parts"
        parts.append(before.encode())
    head, query, tail = url_for("explore.position", position_id="A", variant=row["variant"]).partition("?")
    summary, live, moves, chart, evaluation, report, data = parts
    return Frame(summary, live, moves, chart, evaluation, report, data, page.encode(), head[:-1],
                 query + tail, url_for("editor.edit", variant=row["variant"]))


class Turns(NamedTuple):
    """The parts of a game's page kept per kind of link (and analysis): the move list, the
    pip chart, the data the script steps through, what the page shows of the game's
    latest analysis (``None`` without one), its report (empty without one) and each
    node's caption (what was just played and what comes next) in the page's language."""

    moves: MoveList
    chart: PipChart
    data: bytes
    analysis: AnalysisPieces | None
    report: bytes
    captions: tuple[str, ...]
    overlays: dict[int, str]
    """The next turn's best play as arrows over each main-line node's board whose next
    turn the analysis judged, by the node's index (none without an analysis)."""


def _turn_pieces(view: GameView, row: Row, base: str, kind: Kind, frame: Frame,
                 analysis: dict[str, Any] | None, words: NodeWords, language: str) -> Turns:
    """The move list, the pip chart and the stepping data of a game whose page is at
    ``base``, and the parts made of its ``analysis``, in ``language`` (``words``: the node
    part's words)."""
    page = kind.links(base)
    found = None if analysis is None else AnalysisPieces(view, analysis, row, page)
    marks, engine = (None, "") if found is None else (found.marks, found.engine)
    refused = view.error
    if refused is None:
        moves = MoveList(view.items, page, marks=marks, engine=engine)
    else:  # the heading says the error: the list's end links to its ply
        moves = MoveList(view.items, page, gettext("Ply %(ply)s: reading stops here (%(rule)s)",
                                                   ply=refused.ply, rule=refused.rule_id),
                         f"ply={refused.ply}", marks, engine)
    others = (Kind(not kind.flip, kind.numbers_on_roll).links(base),
              Kind(kind.flip, not kind.numbers_on_roll).links(base))
    captions = tuple(render(node.caption, language) for node in view.nodes)
    overlays = {} if found is None else next_best_arrows(view, found.turns, kind.flip)
    data = stepping_data(view, page, kind.flip, kind.numbers_on_roll, others,
                         lambda node, position_id: position_page(frame, node, position_id),
                         words, captions, language, overlays)
    report = b"" if analysis is None else report_html(
        view, analysis, {"White": row.get("white"), "Black": row.get("black")}, page).encode()
    return Turns(moves, PipChart(view.pips, page), data, found, report, captions, overlays)


def position_page(frame: Frame, node: PageNode, position_id: str) -> str:
    """The address of the page of ``node``'s position (``position_id``), drawn with the
    player on roll in his colour."""
    return (frame.position_head + quote(position_id, safe=SAFE)
            + frame.position_tail + ("&player=W" if node.white_to_move else "&player=B"))


class Analysed(NamedTuple):
    """What the game page needs to know of a game's analyses: the latest's key, its archive
    and id (``None`` if there is none: the parts made from it are kept under it, and the
    kept games are shared by every archive the process opens), how to read it, and where a
    scorer asks for one (``None`` for anyone else)."""

    latest: Hashable | None
    read: Callable[[], dict[str, Any] | None]
    ask: str | None


def _summary(turns: Turns, analysed: Analysed, view: GameView, base: str, language: str) -> bytes:
    """The analysis's summary, or what the page says without one (and a scorer's button)."""
    if turns.analysis is not None:
        return turns.analysis.summary
    if analysed.ask is not None:
        return str(pieces().no_analysis(analysed.ask, generate_csrf())).encode()
    return view.part(("no analysis", base, language),
                     lambda: str(pieces().no_analysis(None, None)).encode())


def _evaluation(found: AnalysisPieces | None, ply: int, view: GameView,
                language: str) -> tuple[bytes | memoryview, ...]:
    """The evaluation graph's figure with ``ply`` marked, and the candidates for viewer.js
    (nothing for an analysis that judged no turn); its caption kept per engine and
    language."""
    if found is None or not found.turns:
        return ()
    caption = view.part(("evaluation caption", found.engine, language), lambda: gettext(
        "White's winning chance after each ply (%(engine)s); dots: the plays marked "
        "?! ? ??; click a ply.", engine=escape(found.engine)).encode())  # the catalog's is the page's
    return (b'<figure class="chart">', *found.graph.utf8(ply),
            b"<figcaption>" + caption + b"</figcaption></figure>"
            b'<script type="application/json" id="analysis-data">', found.data, b"</script>")


def game_page(view: GameView, row: Row, index: int, kind: Kind, base: str, analysed: Analysed,
              best: bool = False, show: str | None = None) -> Response:
    """The page of the game of ``row`` (at ``base``) at its node ``index``: the board, the
    steps (the ``node_view`` macro), the move list, the pip chart (kept, marked here), the
    data the script steps through (kept), and what its latest analysis shows (kept per
    analysis: a new analysis is a new part); with ``best``, the board shows the best play
    of the node's turn instead of the play made, with ``show`` the candidate so written,
    its steps as arrows."""

    def href(where: str, other: Kind = kind) -> str:
        return other.links(base).url(where)

    language = page_language()
    # a message for this visitor, or a signed-in user's header: a frame of its own, not kept
    if "_flashes" in session or signed_in().is_authenticated:
        frame = _frame(view, row)
    else:
        frame = view.part(("frame", base, tuple(row.items()), language), lambda: _frame(view, row))
    nodes = view.nodes
    node = nodes[index]
    on_main_line = node.branch == index
    end = nodes[node.end]
    here = node.address
    main = None if on_main_line else href(f"ply={nodes[node.branch].ply}")
    words = view.part(("node words", language), node_words)
    turns = view.part(("turns", base, kind, analysed.latest, language),
                      lambda: _turn_pieces(view, row, base, kind, frame,
                                           None if analysed.latest is None else analysed.read(),
                                           words, language))
    found = turns.analysis
    judged = found.turns.get(node.ply) if found is not None and on_main_line else None
    shown, candidates, overlay = node, b"", ""
    if found is not None and judged is not None:
        candidates = found.candidates(node.ply)
        play = best_play(view, judged) if best else best_play(view, judged, show) if show else None
        if play is not None:  # the board shows the best play or a candidate, the candidates say so
            shown = best_node(view, judged, play)
            is_best = play.notation == judged["best"]
            candidates = candidates_html(judged, found.engine, kind.links(base), is_best,
                                         None if is_best else play.notation).encode()
            overlay = arrows(play.steps, judged["player"] == "W", view.rules, kind.flip, title=play.notation)
    if shown is node:  # lichess's arrow: the engine's best play of the turn to come
        overlay = turns.overlays.get(index, "")
    position_id = shown.position().position_id()
    white, black = shown.pips()
    board = pieces().node_view(
        words,
        "".join(page_board(shown, view.rules, kind.flip, kind.numbers_on_roll, words.title(shown.ply),
                           language, overlay)),
        where(view, index, words),
        turns.captions[index] if shown is node else render(shown.caption, language),
        words.pip_counts(white, black),
        position_page(frame, shown, position_id),
        position_id, href("ply=0"),
        href(nodes[node.parent].address) if node.parent is not None else None,
        href(nodes[node.children[0]].address) if node.children else None,
        href(end.address), href(here, Kind(not kind.flip, kind.numbers_on_roll)),
        href(here, Kind(kind.flip, not kind.numbers_on_roll)), kind.numbers_on_roll, main,
        describe(shown.white_view(), language),
        edit=f"{frame.editor}&player={'W' if shown.white_to_move else 'B'}&id={quote(position_id, safe='')}",
        key=view.part(("board key", language, bool(found), bool(turns.overlays)),
                      lambda: pieces().board_key(board_key(view.rules, language, arrows=bool(found),
                                                           best=bool(turns.overlays)))),
        arrows=bool(turns.overlays))
    links = kind.links(base)
    opening = (f'<div class="analysis-slot" data-before="{escape(links.before)}" '
               f'data-after="{escape(links.after)}">')
    slot = (opening.encode(), candidates, b"</div>") if found and found.turns else ()
    ply = node.ply if on_main_line else -1
    chart = turns.chart.utf8(ply) if len(view.mainline) > 1 else ()  # no chart of the start alone
    summary = _summary(turns, analysed, view, base, language)
    return Response(b"".join((frame.before, summary, frame.before_live,
                              board.encode(), *slot, frame.before_moves,
                              *turns.moves.utf8(here), frame.before_chart, *chart,
                              frame.before_evaluation, *_evaluation(found, ply, view, language),
                              frame.before_report, turns.report, frame.before_data, turns.data,
                              frame.after)), mimetype="text/html")
