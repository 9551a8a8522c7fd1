"""The game tree over the engine: games and their nodes, the walk every reader and writer
shares (:mod:`notation.tree.walk`), tags, matches, and random games."""
