"""Comparing game trees, for the tests."""

from __future__ import annotations

from notation.tree.game import Node


def same_tree(a: Node, b: Node) -> bool:
    """Whether two trees say the same thing: the same turns (kind, player, dice and the
    position each play leads to), comments, NAGs and variations, in the same order.
    Iterative, so long games need no deep recursion."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if x.comments != y.comments or x.starting_comments != y.starting_comments \
                or x.nags != y.nags or len(x.variations) != len(y.variations):
            return False
        if (x.turn is None) != (y.turn is None):
            return False
        if x.turn is not None:
            tx, ty = x.turn, y.turn
            if (tx.kind, tx.player, tx.dice) != (ty.kind, ty.player, ty.dice):
                return False
            if (tx.play is None) != (ty.play is None) or (
                    tx.play is not None and tx.play.result != ty.play.result):
                return False
        pending.extend(zip(x.variations, y.variations, strict=True))
    return True
