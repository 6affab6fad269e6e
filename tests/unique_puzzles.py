"""Puzzles under rules for the tests, made with sudokit's exact engine (not an oracle)."""

from __future__ import annotations

import random

from sudokit import Grid, Rules, is_unique, random_grid


def unique_under(rules: Rules | str, seed: int) -> Grid:
    """A puzzle unique under ``rules`` and minimal there: clues taken out of a random 9x9 grid
    of the rules, in random order, while the puzzle stays unique."""
    rng = random.Random(seed)
    puzzle = random_grid(rules=rules, seed=seed)
    for cell in rng.sample(range(81), 81):
        fewer = puzzle.without(cell)
        if is_unique(fewer):
            puzzle = fewer
    return puzzle
