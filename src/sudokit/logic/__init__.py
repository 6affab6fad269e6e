"""The logic engine: solve like a person, step by step, and explain each step.

>>> from sudokit import Grid
>>> from sudokit.logic import solve_path, hint
>>> puzzle = Grid(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
... )
>>> result = solve_path(puzzle)
>>> result.solved, result.steps[0].technique, result.steps[0].rating
(True, 'hidden-single', 1.2)
>>> hint(puzzle, 1).text
'Look for a hidden single in box 1'
"""

from __future__ import annotations

from ._native import StepPath
from ._solver import (
    RULES_TECHNIQUES,
    Hint,
    PathEnd,
    SolveResult,
    for_rules,
    hint,
    next_step,
    rules_cut,
    run_path,
    solve_path,
    solve_steps,
    with_killer,
)
from ._state import Candidates
from ._step import STEP_SCHEMA, Link, Step, apply
from ._table import (
    ALL_ORDER,
    HODOKU_TECHNIQUES,
    KILLER,
    SE_ORDER,
    TECHNIQUES,
    Technique,
    select,
)

__all__ = [
    "ALL_ORDER",
    "RULES_TECHNIQUES",
    "HODOKU_TECHNIQUES",
    "KILLER",
    "SE_ORDER",
    "STEP_SCHEMA",
    "TECHNIQUES",
    "Candidates",
    "Hint",
    "Link",
    "PathEnd",
    "SolveResult",
    "Step",
    "StepPath",
    "Technique",
    "apply",
    "for_rules",
    "with_killer",
    "hint",
    "next_step",
    "rules_cut",
    "run_path",
    "select",
    "solve_path",
    "solve_steps",
]
