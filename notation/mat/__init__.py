"""Jellyfish / GNU Backgammon match files (``.mat``): reading every dialect found in real
exports, and writing GNU Backgammon's own."""

from .parser import parse_mat
from .reader import games_of, read_mat

__all__ = ["parse_mat", "games_of", "read_mat"]
