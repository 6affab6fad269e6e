"""Symmetries of the clue pattern and the rules they keep; a request's rules, and random
jigsaw layouts for them (the generator's geometry, apart from digging).

>>> symmetries_kept(Shape(3, 3), Rules("x")) == tuple(SYMMETRIES)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from ._grid import Grid
from ._shape import Shape
from .canon import symmetries_of_cells
from .errors import InvalidRulesError
from .rules import CLASSIC, Rules, geometry
from .rules import random_regions as _grow

__all__ = [
    "MAPS",
    "SYMMETRIES",
    "orbit_ids",
    "orbits",
    "reachable",
    "symmetry_of",
    "box_regions",
    "cell_maps",
    "layout_extras",
    "layout_symmetries",
    "random_layout",
    "request_rules",
    "short",
    "symmetries_kept",
]

_Map = Callable[[int, int, int], tuple[int, int]]

MAPS: dict[str, _Map] = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),  # top <-> bottom
    "mirror-v": lambda r, c, n: (r, n - 1 - c),  # left <-> right
    "diagonal": lambda r, c, n: (c, r),  # across the main diagonal
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}

#: Each symmetry, as the group of maps that leave its clue patterns unchanged.
SYMMETRIES: dict[str, tuple[str, ...]] = {
    "none": ("identity",),
    "rot180": ("identity", "rot180"),
    "rot90": ("identity", "rot90", "rot180", "rot270"),
    "mirror-h": ("identity", "mirror-h"),
    "mirror-v": ("identity", "mirror-v"),
    "diagonal": ("identity", "diagonal"),
    "antidiagonal": ("identity", "antidiagonal"),
    "mirror-both": ("identity", "mirror-h", "mirror-v", "rot180"),
    "diagonal-both": ("identity", "diagonal", "antidiagonal", "rot180"),
    "full": tuple(MAPS),
}


@lru_cache(maxsize=64)
def cell_maps(n: int, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """Each map of ``symmetry`` but the identity, as the image of every cell of a side-n grid."""
    return tuple(
        tuple(r * n + c for r, c in (MAPS[m](*divmod(cell, n), n) for cell in range(n * n)))
        for m in SYMMETRIES[symmetry]
        if m != "identity"
    )


def _keeps(
    houses: Iterable[Iterable[int]], pairs: Iterable[tuple[int, ...]], cell_map: tuple[int, ...]
) -> bool:
    """Whether ``cell_map`` maps the set of ``houses`` onto itself and every cell's
    ``pairs`` (its neighbours or related cells) onto the image cell's."""
    kept = {frozenset(h) for h in houses}
    if any(frozenset(cell_map[c] for c in h) not in kept for h in kept):
        return False
    pairs = tuple(pairs)
    return all(
        sorted(cell_map[p] for p in pairs[c]) == sorted(pairs[cell_map[c]])
        for c in range(len(pairs))
    )


@lru_cache(maxsize=256)
def symmetries_kept(shape: Shape, rules: Rules = CLASSIC) -> tuple[str, ...]:
    """The symmetries of :data:`SYMMETRIES` a clue pattern may have under ``rules``: those
    whose every map takes what the rules add (the extra houses, a jigsaw's regions, the
    neighbour rules' and the relation's pairs) onto itself. Classic rules keep them all (a
    clue pattern's symmetry does not need the boxes to map onto boxes).

    >>> symmetries_kept(Shape(3, 3), Rules("x")) == tuple(SYMMETRIES)
    True
    >>> symmetries_kept(Shape(2, 2), Rules("jigsaw:1112122234443334"))
    ('none', 'mirror-h')
    """
    if rules.is_classic:
        return tuple(SYMMETRIES)
    geo = geometry(shape, rules)
    n = shape.n
    added = geo.houses[2 * n :] if rules.regions is not None else geo.houses[3 * n :]
    kept = []
    for name in SYMMETRIES:
        if all(
            _keeps(added, geo.neighbours, m) and _keeps((), geo.related, m)
            for m in cell_maps(n, name)
        ):
            kept.append(name)
    return tuple(kept)


def random_layout(shape: Shape, symmetry: str, seed: int) -> tuple[int, ...]:
    """A random jigsaw layout of ``shape``'s side that ``symmetry`` maps onto itself, a
    function of the arguments (see :func:`sudokit.rules.random_regions`).

    >>> r = random_layout(Shape(3, 3), "rot180", 7)
    >>> Rules.of(regions=r).side, all(r[c] == 8 - r[80 - c] for c in range(81))
    (9, True)
    """
    return _grow(shape, cell_maps(shape.n, symmetry), seed)


def short(rules: Rules | str, limit: int = 60) -> str:
    text = str(rules)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def request_rules(value: object) -> Rules | str:
    """A request's rules: a :class:`Rules`, or the canonical text ``jigsaw[+extras]`` of a
    jigsaw with a random layout a puzzle, or ``killer[+extras]`` of killer puzzles with a
    random cage layout a puzzle (see :mod:`sudokit.killer`)."""
    if isinstance(value, Rules):
        _refuse_cages(value)
        return value
    if not isinstance(value, str):
        raise TypeError(f"rules must be a Rules or its text, got {value!r}")
    parts = [p.strip() for p in value.split("+")]
    if "killer" in (p.lower() for p in parts):  # a fresh cage layout a puzzle
        rest = [p for p in parts if p.lower() != "killer"]
        if any(p.lower().startswith("killer") for p in rest):
            raise InvalidRulesError(f"rules {short(value)!r}: two killers")
        extras = Rules("+".join(rest) or "classic")
        if extras.regions is not None:
            raise InvalidRulesError(f"rules {short(value)!r}: killer with a jigsaw is not made yet")
        return "+".join(["killer", *extras.extras])
    if "jigsaw" in (p.lower() for p in parts):
        rest = [p for p in parts if p.lower() != "jigsaw"]
        if any(p.lower().startswith("jigsaw") for p in rest):
            raise InvalidRulesError(f"rules {short(value)!r}: two jigsaws")
        extras = Rules("+".join(rest) or "classic")
        _refuse_cages(extras)
        return "+".join(["jigsaw", *extras.extras])
    rules = Rules(value)
    _refuse_cages(rules)
    return rules


def _refuse_cages(rules: Rules) -> None:
    if rules.cages is not None:
        raise InvalidRulesError(
            f"the generator makes its own cages: ask for rules 'killer' (a fresh cage layout "
            f"a puzzle), not for these cages ({short(rules)!r})"
        )


def layout_extras(text: str) -> Rules:
    """The extras of a random-layout request's text: ``jigsaw[+extras]`` or
    ``killer[+extras]`` (a fresh region or cage layout a puzzle, with these rules beside)."""
    return Rules(text.partition("+")[2] or "classic")


@lru_cache(maxsize=64)
def layout_symmetries(shape: Shape, text: str) -> tuple[str, ...]:
    """The symmetries random jigsaw layouts ``text`` (``jigsaw[+extras]``) on ``shape`` can
    keep: those the shape's boxes and the extras keep (cached: each puzzle asks)."""
    try:
        return symmetries_kept(
            shape, Rules.of(layout_extras(text).extras, regions=box_regions(shape))
        )
    except InvalidRulesError as e:  # say it of the request's rules, not of the boxes
        reason = str(e).rpartition(": ")[2]
        raise InvalidRulesError(f"rules {text!r} on shape {shape}: {reason}") from None


@lru_cache(maxsize=64)
def box_regions(shape: Shape) -> tuple[int, ...]:
    region = [0] * shape.size
    for k, box in enumerate(shape.boxes):
        for c in box:
            region[c] = k
    return tuple(region)


@lru_cache(maxsize=64)
def orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells of ``shape`` grouped in orbits of ``symmetry``, in order of their first cell.

    >>> orbits(Shape(2, 2), "rot180")[:3]
    ((0, 15), (1, 14), (2, 13))
    >>> sorted({len(o) for o in orbits(Shape(3, 3), "full")})
    [1, 4, 8]
    """
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    n = shape.n
    maps = [MAPS[m] for m in SYMMETRIES[symmetry]]
    seen: set[int] = set()
    out = []
    for cell in range(shape.size):
        if cell in seen:
            continue
        r, c = divmod(cell, n)
        orbit = sorted({rr * n + cc for rr, cc in (f(r, c, n) for f in maps)})
        seen.update(orbit)
        out.append(tuple(orbit))
    return tuple(out)


def symmetry_of(puzzle: Grid) -> str:
    """The largest symmetry of :data:`SYMMETRIES` that the clue pattern of ``puzzle`` has.

    The maps that leave a pattern unchanged form a group, and every subgroup of the square's
    eight maps is one of :data:`SYMMETRIES`, so the answer is exact, never a choice (found
    in C: :func:`sudokit.canon.symmetries_of_cells`).

    >>> from sudokit import generate
    >>> symmetry_of(generate(seed=1, symmetry="rot90").puzzle) in ("rot90", "full")
    True
    >>> symmetry_of(Grid(".1" + "." * 14)), symmetry_of(Grid("1" + "." * 15))
    ('none', 'diagonal')
    """
    return symmetries_of_cells(puzzle.shape.n, puzzle.cells)[0]


@lru_cache(maxsize=64)
def orbit_ids(shape: Shape, symmetry: str) -> bytes:
    ids = [0] * shape.size
    for k, orbit in enumerate(orbits(shape, symmetry)):
        for cell in orbit:
            ids[cell] = k
    return b"".join(i.to_bytes(2, "little") for i in ids)


@lru_cache(maxsize=64)
def reachable(shape: Shape, symmetry: str) -> int:
    """A bit set of the clue counts that whole orbits can add up to."""
    reach = 1
    for orbit in orbits(shape, symmetry):
        reach |= reach << len(orbit)
    return reach
