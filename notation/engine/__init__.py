"""The rules engine: the board and position IDs, dice, plays and their text, the move
generator, the checker of a written play, entering a play step by step, the game state
with its game-level rules, and the rule sets (``rules/``). It imports no format."""
