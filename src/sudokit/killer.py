"""Killer generation: a random solution grid, a random cage layout, refined until unique.

The work is the exact engine's (``_ckiller/generate.c``); this module checks the request and
turns what the engine makes into rules and grids. A request for killer puzzles names
``killer`` without a cage map (alone or with extras: ``killer+x``): each puzzle gets a layout
of its own. Its steps:

- a random complete grid of the rules without cages, and, with ``clues=N``, N givens (whole
  orbits of the symmetry);
- a random layout of connected cages of ``lo..hi`` cells (the request's ``cage_sizes``,
  default 1-5 and never more than the side), the digits of each different in the grid; with a
  symmetry, every cage's images under it are cages too;
- while the puzzle of the cages' sums has a second solution, a cage holding a cell where the
  two differ is split (a random connected piece holding that cell comes off it, with its
  images), so every puzzle is proven unique by the engine;
- asked for ``minimal``, side-touching cages are merged while the puzzle stays unique. A
  layout is **minimal in cages** when no two side-touching cages whose digits differ and whose
  cells number at most ``hi`` (with a symmetry: together with their images) can be merged
  into one cage of their total without losing uniqueness.

A split that would leave a cage below ``lo`` cells gives the layout up for a new one.

>>> from sudokit import generate
>>> p = generate(rules="killer", seed=1, symmetry="none")
>>> p.puzzle.clue_count, p.puzzle.rules.cages is not None
(0, True)
>>> generate(rules="killer", seed=1, symmetry="none") == p
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from . import _engine
from ._shape import Shape
from .cages import Cages
from .errors import GenerationError, InvalidRulesError
from .layouts import cell_maps, layout_extras, short
from .rules import CAGE_MAX_SIDE, Rules, geometry

__all__ = [
    "DEFAULT_CAGE_SIZES",
    "EXTREME_CAGE_SIZES",
    "cage_sizes_of",
    "is_killer",
    "make_killer",
]

#: The cage sizes of a killer request that gives none (clipped to the side).
DEFAULT_CAGE_SIZES = (1, 5)

#: ... and of one for the extreme killer level: no one-cell cages (each is a given in
#: disguise), which makes extreme killers nearly twice as fast (docs/performance.md, "Killer").
EXTREME_CAGE_SIZES = (2, 5)

#: Layouts the engine draws for one grid before a new grid is tried.
_TRIES = 20

#: Nodes a uniqueness search may visit: past it the layout is given up (or, merging, the pair
#: is left apart and minimality is not claimed).
_BUDGET = 200_000


def is_killer(rules: object) -> bool:
    """Whether a request's rules ask for killer puzzles with fresh layouts (the text
    ``killer`` or ``killer+<extras>``)."""
    return isinstance(rules, str) and rules.partition("+")[0] == "killer"


def cage_sizes_of(value: object, shape: Shape, rules: object) -> tuple[int, int] | None:
    """A request's ``cage_sizes``, checked: None, or ``(lo, hi)`` (also as text ``"2-4"`` or
    ``"3"``) with ``1 <= lo <= hi <= n``, for killer requests only. ValueError names it."""
    if value is None:
        return None
    if not is_killer(rules):
        raise ValueError(
            f"cage_sizes={value!r} is for killer puzzles (rules 'killer'); these rules are "
            f"{short(str(rules))!r}"
        )
    pair: tuple[object, ...]
    if isinstance(value, str):
        pair = tuple(value.split("-", 1)) if "-" in value else (value, value)
    elif isinstance(value, tuple | list):
        pair = tuple(value)
    else:
        raise TypeError(f"cage_sizes must be (lo, hi) or text such as '1-5', got {value!r}")
    try:
        lo, hi = (int(str(x).strip()) for x in pair)
    except ValueError:
        raise ValueError(
            f"cage_sizes={value!r}: expected two whole numbers, as 1-5 or (1, 5)"
        ) from None
    if not 1 <= lo <= hi <= shape.n:
        raise ValueError(
            f"cage_sizes={lo}-{hi}: a cage holds 1 to {shape.n} cells on a {shape.n}x{shape.n} "
            "grid, and the least size must not pass the greatest"
        )
    return lo, hi


def check_killer(grid: Shape, text: str, most: int | None) -> None:
    """Refuse a killer request (of ``text``, on ``grid``'s shape, with clue cap ``most``) no
    puzzle can meet, by name."""
    if grid.n > CAGE_MAX_SIDE:
        raise InvalidRulesError(
            f"rules {text!r} on shape {grid}: killer cages are taken on sides up to {CAGE_MAX_SIDE}"
        )
    if most is not None:
        raise ValueError("killer puzzles take clues=N (givens beside the cages), not max_clues")


class KillerDig(Protocol):
    """The fields of a request (:class:`sudokit.generator.Dig`) a killer puzzle is made of."""

    @property
    def shape(self) -> Shape: ...
    @property
    def rules(self) -> Rules | str: ...
    @property
    def cage_sizes(self) -> tuple[int, int] | None: ...
    @property
    def clues(self) -> int | None: ...
    @property
    def minimal(self) -> bool: ...


def make_killer(
    dig: KillerDig, symmetry: str, seeds: Callable[[int], int], deadline: float | None
) -> tuple[Rules, bytes, bytes, bool | None, int]:
    """One killer puzzle of ``dig`` (whose rules are ``killer[+extras]``) with ``symmetry``:
    its rules (with the cages), its givens, its solution, whether it is minimal in cages
    (None when not asked, or a search ran past its budget) and the grids tried.
    ``seeds(attempt)`` is the engine's seed of each attempt. GenerationError past
    ``deadline`` (a ``time.monotonic()`` value)."""
    shape, rules, sizes = dig.shape, str(dig.rules), dig.cage_sizes
    clues, minimal = dig.clues or 0, dig.minimal
    extras = layout_extras(rules)
    n = shape.n
    lo, hi = sizes if sizes is not None else (DEFAULT_CAGE_SIZES[0], min(DEFAULT_CAGE_SIZES[1], n))
    blob = geometry(shape, extras).blob
    maps = b"".join(c.to_bytes(2, "little") for m in cell_maps(n, symmetry) for c in m)
    attempt = 0
    while True:
        made = _engine.killer_generate(
            shape.box_rows, shape.box_cols, seeds(attempt), blob, lo, hi, maps, clues,
            minimal, _BUDGET, _TRIES,
        )  # fmt: skip
        attempt += 1
        if isinstance(made, tuple):
            cages_blob, givens, solution, proven = made
            cages = Cages.from_blob(n, cages_blob)
            made_rules = Rules.of(extras.extras, cages=cages)
            return (
                made_rules,
                givens,
                solution,
                (bool(proven) or None) if minimal else None,
                attempt,
            )
        if made is None:  # the engine's search (unbudgeted) proved there is none
            raise InvalidRulesError(
                f"rules {short(rules)!r} on shape {shape} have no complete grid"
            )
        if deadline is not None and time.monotonic() > deadline:
            why = f"{made} layouts a grid failed"
            raise GenerationError(
                f"no killer puzzle of rules {short(rules)!r} (cages of {lo}-{hi} cells, "
                f"symmetry {symmetry}) in {attempt} grids ({why})"
            )
