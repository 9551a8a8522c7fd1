"""What the browser walk-throughs of ``narde`` and ``fevga`` share (tests/test_relatives_*):
the sample games' turns as a scorer enters them, and the men a page's board draws, read
back from the SVG the browser shows."""

from __future__ import annotations

from pathlib import Path

from notation.engine.board import OFF, Position
from notation.formats import read_file
from notation.tree.game import Game

SAMPLES = Path(__file__).parent.parent / "samples"
WHITE, BLACK = "#fdfdf8", "#222222"


def sample(variant: str) -> Game:
    """The annotated sample game of ``variant`` (``samples/<variant>/annotated-game.jqn``)."""
    [game] = list(read_file(SAMPLES / variant / "annotated-game.jqn"))
    assert not game.errors
    return game


def drawn_men(page, scope: str = "") -> dict[str, dict[int, int]]:
    """The men the board in ``scope`` draws, by colour (``White``, ``Black``) and White's
    number of the point: the men drawn on it, or the count written over them (more than five),
    and the men borne off in the trays."""
    drawn = page.evaluate("""([scope, white, black]) => {
      const men = {White: {}, Black: {}};
      for (const column of document.querySelectorAll(scope + ' svg g.column')) {
        const point = Number(column.dataset.point);
        for (const [side, fill, label] of [['White', white, '#000'], ['Black', black, '#fff']]) {
          const circles = column.querySelectorAll('circle.man[fill="' + fill + '"]').length;
          const written = column.querySelector('text[font-weight="bold"][fill="' + label + '"]');
          const count = written ? Number(written.textContent) : circles;
          if (count) men[side][point] = count;
        }
      }
      for (const [side, fill] of [['White', white], ['Black', black]]) {
        const off = document.querySelectorAll(scope + ' svg g.tray rect.off[fill="' + fill + '"]').length;
        if (off) men[side][0] = off;
      }
      return men;
    }""", [scope, WHITE, BLACK])
    return {side: {int(point): count for point, count in counts.items()} for side, counts in drawn.items()}


def expected_men(position: Position, white_to_move: bool, opposite: tuple[int, ...]) -> dict[str, dict[int, int]]:
    """The men of ``position`` (seen by the player on roll) by colour and White's number of
    the point (0: borne off), as :func:`drawn_men` gives them."""
    white, black = ((position.mover, position.opponent) if white_to_move
                    else (position.opponent, position.mover))
    men: dict[str, dict[int, int]] = {
        "White": {p: white[p] for p in range(1, 25) if white[p]},
        "Black": {opposite[p]: black[p] for p in range(1, 25) if black[p]},
    }
    for side, board in (("White", white), ("Black", black)):
        if board[OFF]:
            men[side][0] = board[OFF]
    return men
