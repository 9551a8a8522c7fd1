"""What viewer.js steps through without a request: every node of a game as data, embedded
in its page (``<script type="application/json" id="game-data">``: no script runs from
it), kept per game and kind of link.

The boards are sent as pieces of SVG (:func:`~notation.render.svg.board_parts`): each
piece once, in ``pieces``, and each node's board as the indices of its pieces (the
opening ``<svg>`` tag and the closing one left out: the script fills the page's board
with the rest). A node also gives its caption, pip counts, position link, the position in
words, and the nodes to step to (indices; ``null`` where there is none).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from notation.engine.position_id import position_ids
from webviewer.pages.board_view import describe, page_board
from webviewer.pages.kept_games import GameView, PageNode
from webviewer.pages.node_words import NodeWords
from webviewer.pages.tree import Links


def script_safe(text: str) -> str:
    """JSON text made safe inside an HTML ``<script>`` element: no ``</`` (which could
    close it), no ``<!--`` (which could make it swallow what follows), and no raw ``&``
    (the page holds none, as XML would have it), written instead as the JSON escapes
    ``<\\/``, ``\\u003c!--`` and ``\\u0026``, which read back as the same text.
    (``str.translate`` of every ``<``, ``>`` and ``&`` took 49 ms a game.)

    >>> script_safe('"</script><!--&"')
    '"<\\\\/script>\\\\u003c!--\\\\u0026"'
    """
    return text.replace("<!--", "\\u003c!--").replace("</", "<\\/").replace("&", "\\u0026")


def where(view: GameView, index: int, words: NodeWords) -> str:
    """"Ply 3 of 80" for the node at ``index``, counted along its own line."""
    node = view.nodes[index]
    return words.where(node.ply, view.nodes[node.end].ply)


def stepping_data(view: GameView, links: Links, flip: bool, numbers_on_roll: bool,
                  other_links: tuple[Links, Links],
                  position_page: Callable[[PageNode, str], str], words: NodeWords,
                  captions: Sequence[str], language: str, overlays: Mapping[int, str] | None = None) -> bytes:
    """The embedded data of a game's page (of one kind of link), as UTF-8 JSON safe inside
    a ``<script>`` element, in ``language`` (``words``: its fixed words; ``captions``: each
    node's caption); ``other_links``
    are those of the page flipped and of the page numbered the other way;
    ``position_page`` gives the address of a node's position page (given its position
    ID); ``overlays`` what is drawn over a node's board, by its index (the next turn's best
    play as arrows, :func:`webviewer.pages.analysis_view.next_best_arrows`)."""
    overlays = overlays or {}
    table: dict[str, int] = {}
    nodes = []
    ids = position_ids([node.position() for node in view.nodes])
    for index, node in enumerate(view.nodes):
        parts = page_board(node, view.rules, flip, numbers_on_roll, words.title(node.ply), language,
                           overlays.get(index, ""))[1:-1]
        board = [table.setdefault(part, len(table)) for part in parts]
        nodes.append({
            "where": where(view, index, words), "caption": captions[index],
            "address": node.address, "ply": node.ply,
            "parent": node.parent, "next": node.children[0] if node.children else None,
            "end": node.end, "main": None if node.branch == index else node.branch,
            "pips": list(node.pips()), "id": ids[index],
            "position": position_page(node, ids[index]), "words": describe(node.white_view(), language),
            "board": board,
        })
    data = {"before": links.before, "after": links.after, "flipAfter": other_links[0].after,
            "numbersAfter": other_links[1].after,
            "pieces": list(table), "nodes": nodes}
    return script_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":"))).encode()
