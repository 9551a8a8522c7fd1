"""Jellyfish / GNU Backgammon match files (``.mat``): reading every dialect found in real
exports, and writing GNU Backgammon's own."""

from notation.formats.mat.parser import parse_mat
from notation.formats.mat.reader import games_of, read_mat

__all__ = ["games_of", "parse_mat", "read_mat"]
