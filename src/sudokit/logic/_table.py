"""The technique table: every technique the logic engine knows, and the orders it tries them in.

A **technique** here is what Sudoku Explainer calls a hint producer: a function from a
candidate state to the steps it can find, in its own search order. One technique may name its
steps more finely (the hidden-single technique yields ``full-house`` and ``hidden-single``
steps). ``best=True`` marks techniques whose cheapest step (by rating, then complexity) is
taken rather than the first found, as Sudoku Explainer does for its chaining producers.

``SE_ORDER`` is Sudoku Explainer 1.2.1's order; the solver tries techniques in it and applies
the first step found (the rules in full: ``docs/rating.md`` in the repository).

The C engine's table (``sudokit._logic.TECHNIQUES``) is the one source of each technique's
slug, name, rating, ``best`` flag and place in these orders; this module adds what only Python
uses: the finder, the step names and the groups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .. import _logic
from . import als, coloring, patterns
from ._state import Candidates
from ._step import Step
from .bug import find_bug
from .chains import (
    find_dynamic_forcing_chains,
    find_dynamic_plus,
    find_forcing_chains,
    find_multiple_forcing_chains,
    find_nested,
    find_nishio,
)
from .exclusion import find_aligned_pair_exclusions, find_aligned_triple_exclusions
from .fish import find_jellyfish, find_swordfish, find_x_wings
from .hodoku import HODOKU_ORDER
from .intersections import find_direct_intersections, find_intersections
from .killer import KILLER_FINDERS
from .singles import find_full_houses, find_hidden_singles, find_naked_singles
from .subsets import (
    find_direct_hidden_pairs,
    find_direct_hidden_triples,
    find_hidden_pairs,
    find_hidden_quads,
    find_hidden_triples,
    find_naked_pairs,
    find_naked_quads,
    find_naked_triples,
)
from .uniqueness import find_unique_loops
from .wings import find_xy_wings, find_xyz_wings

__all__ = [
    "ALL_ORDER",
    "EXTRA",
    "HODOKU_TECHNIQUES",
    "KILLER",
    "SE_ORDER",
    "TECHNIQUES",
    "Technique",
    "select",
]


_Finder = Callable[[Candidates], Iterable[Step]]


@dataclass(frozen=True)
class Technique:
    """A named way of finding steps (a hint producer)."""

    slug: str
    name: str
    rating: float
    find: _Finder
    steps: tuple[str, ...] = ()  # the step technique names it yields (default: its slug)
    best: bool = False
    groups: tuple[str, ...] = ()  # group names users may use to allow it ("singles", ...)

    @property
    def step_names(self) -> tuple[str, ...]:
        return self.steps or (self.slug,)

    def __reduce__(self) -> tuple[Callable[[str], Technique], tuple[str]]:
        # By name: a target that allows techniques travels to worker processes, and the
        # engine's finders are closures that do not pickle.
        return (_technique, (self.slug,))


def _technique(slug: str) -> Technique:
    return TECHNIQUES[slug]


_CHAINS = (
    "x-cycle",
    "y-cycle",
    "xy-cycle",
    "forcing-x-chain",
    "forcing-y-chain",
    "forcing-chain",
)

_KILLER_STEPS: dict[str, tuple[str, ...]] = {
    "cage-single": (),
    "rule-of-45-single": ("innies", "outies"),
    "cage-combinations-2": ("cage-combination",),
    "cage-combinations-3": ("cage-combination",),
    "cage-combinations-4": ("cage-combination",),
    "cage-confinement": (),
    "cage-overlap": (),
    "rule-of-45": ("innies", "outies"),
    "rule-of-45-groups-single": ("innies", "outies"),
    "rule-of-45-groups": ("innies", "outies"),
}
_COMBINATIONS = ("cage-combinations", "cage-combination")
_KILLER_GROUPS: dict[str, tuple[str, ...]] = {
    "cage-single": _COMBINATIONS,
    "rule-of-45-single": ("rule-of-45", "innies-outies"),
    "cage-combinations-2": _COMBINATIONS,
    "cage-combinations-3": _COMBINATIONS,
    "cage-combinations-4": _COMBINATIONS,
    # a digit every combination holds kept to the cage: part of reading its combinations
    "cage-confinement": _COMBINATIONS,
    "cage-overlap": (),
    "rule-of-45": ("innies-outies",),
    "rule-of-45-groups-single": ("rule-of-45", "innies-outies"),
    "rule-of-45-groups": ("rule-of-45", "innies-outies"),
}

#: What Python adds to each technique of the C table: its finder, the step names it yields
#: (when not just its slug) and the groups users may name it by.
_PYTHON_SIDE: dict[str, tuple[_Finder, tuple[str, ...], tuple[str, ...]]] = {
    # A full house is the simplest hidden single: naming hidden singles allows it too.
    "full-house": (find_full_houses, (), ("singles", "hidden-single")),
    "hidden-single": (find_hidden_singles, (), ("singles",)),
    "direct-intersections": (
        find_direct_intersections,
        ("direct-pointing", "direct-claiming"),
        ("direct", "intersections"),
    ),
    "direct-hidden-pair": (find_direct_hidden_pairs, (), ("direct",)),
    "naked-single": (find_naked_singles, (), ("singles",)),
    "direct-hidden-triple": (find_direct_hidden_triples, (), ("direct",)),
    "intersections": (
        find_intersections,
        ("pointing", "claiming"),
        ("intersections", "pointing-claiming", "locked-candidates"),
    ),
    "naked-pair": (find_naked_pairs, (), ("pairs", "subsets")),
    "x-wing": (find_x_wings, (), ("fish",)),
    "hidden-pair": (find_hidden_pairs, (), ("pairs", "subsets")),
    "naked-triple": (find_naked_triples, (), ("triples", "subsets")),
    "swordfish": (find_swordfish, (), ("fish",)),
    "hidden-triple": (find_hidden_triples, (), ("triples", "subsets")),
    "xy-wing": (find_xy_wings, (), ("wings",)),
    "xyz-wing": (find_xyz_wings, (), ("wings",)),
    # SE sorts this producer's hints by (rating, type): the finder yields them in that order,
    # so the first one, not the least complex, is SE's.
    "unique-rectangle": (find_unique_loops, ("unique-rectangle", "unique-loop"), ("uniqueness",)),
    "naked-quad": (find_naked_quads, (), ("quads", "subsets")),
    "jellyfish": (find_jellyfish, (), ("fish",)),
    "hidden-quad": (find_hidden_quads, (), ("quads", "subsets")),
    "bug": (find_bug, (), ("uniqueness",)),
    "aligned-pair-exclusion": (find_aligned_pair_exclusions, (), ("exclusion",)),
    # SE takes the cheapest hint of each chaining producer (by unrounded rating, then node
    # count); the finders yield just that one.
    "forcing-chains": (find_forcing_chains, _CHAINS, ("chains",)),
    "aligned-triple-exclusion": (find_aligned_triple_exclusions, (), ("exclusion",)),
    "nishio": (find_nishio, ("nishio-forcing-chain",), ("chains",)),
    "multiple-forcing-chains": (
        find_multiple_forcing_chains,
        ("cell-forcing-chain", "region-forcing-chain"),
        ("chains",),
    ),
    "dynamic-forcing-chains": (
        find_dynamic_forcing_chains,
        ("dynamic-forcing-chain",),
        ("chains",),
    ),
    "dynamic-forcing-chains-plus": (
        find_dynamic_plus,
        ("dynamic-forcing-chain-plus",),
        ("chains",),
    ),
    **{
        f"nested-forcing-chains-{level}": (
            find_nested(level),
            (f"nested-forcing-chain-{level}",),
            ("chains", "nested-forcing-chains"),
        )
        for level in (2, 3, 4, 5)
    },
    # Common named techniques Sudoku Explainer lacks (HoDoKu's), for friendlier hints and
    # HoDoKu-style grading. Their ratings are SE-like: fixed patterns a little above the basic
    # technique they resemble, chains at SE's chain ratings with its length bonus.
    "locked-subsets": (
        patterns.find_locked_subsets,
        ("locked-pair", "locked-triple"),
        ("subsets",),
    ),
    "finned-x-wing": (patterns.find_finned_x_wings, (), ("fish",)),
    "sashimi-x-wing": (patterns.find_sashimi_x_wings, (), ("fish",)),
    "skyscraper": (patterns.find_skyscrapers, (), ("single-digit",)),
    "finned-swordfish": (patterns.find_finned_swordfish, (), ("fish",)),
    "two-string-kite": (patterns.find_two_string_kites, (), ("single-digit",)),
    "sashimi-swordfish": (patterns.find_sashimi_swordfish, (), ("fish",)),
    "turbot-fish": (patterns.find_turbot_fish, (), ("single-digit",)),
    "empty-rectangle": (patterns.find_empty_rectangles, (), ("single-digit",)),
    "w-wing": (patterns.find_w_wings, (), ("wings",)),
    "finned-jellyfish": (patterns.find_finned_jellyfish, (), ("fish",)),
    "sashimi-jellyfish": (patterns.find_sashimi_jellyfish, (), ("fish",)),
    "wxyz-wing": (patterns.find_wxyz_wings, (), ("wings",)),
    "remote-pair": (coloring.find_remote_pairs, (), ("chains",)),
    "simple-coloring": (coloring.find_simple_colors, ("color-trap", "color-wrap"), ("coloring",)),
    "x-chain": (coloring.find_x_chains, (), ("chains",)),
    "xy-chain": (coloring.find_xy_chains, (), ("chains",)),
    "als-xz": (als.find_als_xz, (), ("als",)),
    # Killer's: they read the cages' sums (logic/killer.py). A technique per size of cage or
    # group, for the solver's order; users name them by their step names or groups.
    **{
        slug: (
            KILLER_FINDERS[slug],
            _KILLER_STEPS[slug],
            ("killer", *_KILLER_GROUPS[slug]),
        )
        for slug in _logic.KILLER_TECHNIQUES
    },
}


def _from_engine(in_se: bool, killer: bool = False) -> tuple[Technique, ...]:
    """The techniques of the C engine's table that Sudoku Explainer has (or lacks), in the
    table's order, with their Python side: killer's apart (``killer``)."""
    found = []
    for slug, name, rating, best, se, _ in _logic.TECHNIQUES:
        if se != in_se or (slug in _logic.KILLER_TECHNIQUES) != killer:
            continue
        find, steps, groups = _PYTHON_SIDE[slug]
        found.append(Technique(slug, name, rating, find, steps, best, groups))
    return tuple(found)


_missing = {row[0] for row in _logic.TECHNIQUES} ^ set(_PYTHON_SIDE)
if _missing:  # pragma: no cover - a build whose C table disagrees with this module
    raise ImportError(
        f"techniques in only one of the C table and logic/_table.py: {sorted(_missing)}"
    )

SE_ORDER: tuple[Technique, ...] = _from_engine(True)

#: Common named techniques Sudoku Explainer lacks (HoDoKu's), for friendlier hints and
#: HoDoKu-style grading.
EXTRA: tuple[Technique, ...] = _from_engine(False)

#: Killer's techniques (cage combinations, the rule of 45, ...), by rating: a killer puzzle's
#: path takes them among SE's (:func:`sudokit.logic.for_rules`).
KILLER: tuple[Technique, ...] = tuple(sorted(_from_engine(False, True), key=lambda t: t.rating))

#: Every technique, SE's and the others, by base rating (SE's keep their relative order):
#: the order a chosen subset is tried in.
ALL_ORDER: tuple[Technique, ...] = tuple(
    sorted((*SE_ORDER, *EXTRA, *KILLER), key=lambda t: t.rating)
)

TECHNIQUES: dict[str, Technique] = {t.slug: t for t in ALL_ORDER}

# HoDoKu's slots that sudokit fills with Sudoku Explainer's producers doing the same job.
_HODOKU_STAND_INS = {
    "locked-pair": ("locked-subsets",),
    "locked-triple": (),  # the locked-subsets technique finds triples too
    "pointing-claiming": ("intersections",),
    "nice-loop": ("forcing-chains",),
    "hodoku-forcing-chain": ("nishio", "multiple-forcing-chains"),
    "forcing-net": (
        "dynamic-forcing-chains",
        "dynamic-forcing-chains-plus",
        *(f"nested-forcing-chains-{level}" for level in (2, 3, 4, 5)),
    ),
}

#: HoDoKu's solving order (``hodoku.HODOKU_ORDER``) with sudokit's techniques: slots with no
#: finder yet are skipped, and SE's chains stand in for HoDoKu's nice loops and forcing
#: chains and nets.
HODOKU_TECHNIQUES: tuple[Technique, ...] = tuple(
    TECHNIQUES[slug]
    for slot in HODOKU_ORDER
    for slug in _HODOKU_STAND_INS.get(slot, (slot,))
    if slug in TECHNIQUES
)


def select(names: Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques named (slugs, step names or groups such as ``singles``), in the order of
    :data:`ALL_ORDER` (SE's order, with the others placed by rating).

    >>> [t.slug for t in select(["singles"])]
    ['full-house', 'hidden-single', 'naked-single']
    """
    if names is None:
        return SE_ORDER
    wanted = {name.strip().lower().replace("_", "-").replace(" ", "-") for name in names}
    known = {t.slug for t in ALL_ORDER} | {g for t in ALL_ORDER for g in t.groups}
    known |= {s for t in ALL_ORDER for s in t.step_names}
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(
            f"unknown technique {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
        )
    return tuple(
        t
        for t in ALL_ORDER
        if t.slug in wanted or wanted & set(t.groups) or wanted & set(t.step_names)
    )
