"""The technique table: every technique the logic engine knows, and the orders it tries them in.

A **technique** here is what Sudoku Explainer calls a hint producer: a function from a
candidate state to the steps it can find, in its own search order. One technique may name its
steps more finely (the hidden-single technique yields ``full-house`` and ``hidden-single``
steps). ``best=True`` marks techniques whose cheapest step (by rating, then complexity) is
taken rather than the first found, as Sudoku Explainer does for its chaining producers.

``SE_ORDER`` is Sudoku Explainer 1.2.1's order; the solver tries techniques in it and applies
the first step found (the rules in full: ``docs/rating.md`` in the repository).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

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
    "SE_ORDER",
    "TECHNIQUES",
    "Technique",
    "select",
]


@dataclass(frozen=True)
class Technique:
    """A named way of finding steps (a hint producer)."""

    slug: str
    name: str
    rating: float
    find: Callable[[Candidates], Iterable[Step]]
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


T = Technique
SE_ORDER: tuple[Technique, ...] = (
    # A full house is the simplest hidden single: naming hidden singles allows it too.
    T("full-house", "Full house", 1.0, find_full_houses, groups=("singles", "hidden-single")),
    T("hidden-single", "Hidden single", 1.2, find_hidden_singles, groups=("singles",)),
    T(
        "direct-intersections",
        "Direct pointing and claiming",
        1.7,
        find_direct_intersections,
        steps=("direct-pointing", "direct-claiming"),
        groups=("direct", "intersections"),
    ),
    T(
        "direct-hidden-pair",
        "Direct hidden pair",
        2.0,
        find_direct_hidden_pairs,
        groups=("direct",),
    ),
    T("naked-single", "Naked single", 2.3, find_naked_singles, groups=("singles",)),
    T(
        "direct-hidden-triple",
        "Direct hidden triple",
        2.5,
        find_direct_hidden_triples,
        groups=("direct",),
    ),
    T(
        "intersections",
        "Pointing and claiming",
        2.6,
        find_intersections,
        steps=("pointing", "claiming"),
        groups=("intersections", "pointing-claiming", "locked-candidates"),
    ),
    T("naked-pair", "Naked pair", 3.0, find_naked_pairs, groups=("pairs", "subsets")),
    T("x-wing", "X-Wing", 3.2, find_x_wings, groups=("fish",)),
    T("hidden-pair", "Hidden pair", 3.4, find_hidden_pairs, groups=("pairs", "subsets")),
    T("naked-triple", "Naked triple", 3.6, find_naked_triples, groups=("triples", "subsets")),
    T("swordfish", "Swordfish", 3.8, find_swordfish, groups=("fish",)),
    T("hidden-triple", "Hidden triple", 4.0, find_hidden_triples, groups=("triples", "subsets")),
    T("xy-wing", "XY-Wing", 4.2, find_xy_wings, groups=("wings",)),
    T("xyz-wing", "XYZ-Wing", 4.4, find_xyz_wings, groups=("wings",)),
    # SE sorts this producer's hints by (rating, type): the finder yields them in that order,
    # so the first one, not the least complex, is SE's.
    T(
        "unique-rectangle",
        "Unique rectangles and loops",
        4.5,
        find_unique_loops,
        steps=("unique-rectangle", "unique-loop"),
        groups=("uniqueness",),
    ),
    T("naked-quad", "Naked quad", 5.0, find_naked_quads, groups=("quads", "subsets")),
    T("jellyfish", "Jellyfish", 5.2, find_jellyfish, groups=("fish",)),
    T("hidden-quad", "Hidden quad", 5.4, find_hidden_quads, groups=("quads", "subsets")),
    T("bug", "Bivalue universal grave", 5.6, find_bug, groups=("uniqueness",)),
    T(
        "aligned-pair-exclusion",
        "Aligned pair exclusion",
        6.2,
        find_aligned_pair_exclusions,
        groups=("exclusion",),
    ),
    # SE takes the cheapest hint of each chaining producer (by unrounded rating, then node
    # count); the finders yield just that one.
    T(
        "forcing-chains",
        "Forcing chains and cycles",
        6.5,
        find_forcing_chains,
        steps=(
            "x-cycle",
            "y-cycle",
            "xy-cycle",
            "forcing-x-chain",
            "forcing-y-chain",
            "forcing-chain",
        ),
        best=True,
        groups=("chains",),
    ),
    T(
        "aligned-triple-exclusion",
        "Aligned triple exclusion",
        7.5,
        find_aligned_triple_exclusions,
        groups=("exclusion",),
    ),
    T(
        "nishio",
        "Nishio forcing chains",
        7.5,
        find_nishio,
        steps=("nishio-forcing-chain",),
        best=True,
        groups=("chains",),
    ),
    T(
        "multiple-forcing-chains",
        "Multiple forcing chains",
        8.0,
        find_multiple_forcing_chains,
        steps=("cell-forcing-chain", "region-forcing-chain"),
        best=True,
        groups=("chains",),
    ),
    T(
        "dynamic-forcing-chains",
        "Dynamic forcing chains",
        8.5,
        find_dynamic_forcing_chains,
        steps=("dynamic-forcing-chain",),
        best=True,
        groups=("chains",),
    ),
    T(
        "dynamic-forcing-chains-plus",
        "Dynamic forcing chains (+)",
        9.0,
        find_dynamic_plus,
        steps=("dynamic-forcing-chain-plus",),
        best=True,
        groups=("chains",),
    ),
    *(
        T(
            f"nested-forcing-chains-{level}",
            f"Nested forcing chains, level {level}",
            9.0 + 0.5 * (level - 1),
            find_nested(level),
            steps=(f"nested-forcing-chain-{level}",),
            best=True,
            groups=("chains", "nested-forcing-chains"),
        )
        for level in (2, 3, 4, 5)
    ),
)

#: Common named techniques Sudoku Explainer lacks (HoDoKu's), for friendlier hints and
#: HoDoKu-style grading. Their ratings are SE-like: fixed patterns a little above the basic
#: technique they resemble, chains at SE's chain ratings with its length bonus.
EXTRA: tuple[Technique, ...] = (
    T(
        "locked-subsets",
        "Locked pair and triple",
        3.0,
        patterns.find_locked_subsets,
        steps=("locked-pair", "locked-triple"),
        groups=("subsets",),
    ),
    T("finned-x-wing", "Finned X-Wing", 3.4, patterns.find_finned_x_wings, groups=("fish",)),
    T("sashimi-x-wing", "Sashimi X-Wing", 3.5, patterns.find_sashimi_x_wings, groups=("fish",)),
    T("skyscraper", "Skyscraper", 4.0, patterns.find_skyscrapers, groups=("single-digit",)),
    T(
        "finned-swordfish",
        "Finned Swordfish",
        4.0,
        patterns.find_finned_swordfish,
        groups=("fish",),
    ),
    T(
        "two-string-kite",
        "2-String Kite",
        4.1,
        patterns.find_two_string_kites,
        groups=("single-digit",),
    ),
    T(
        "sashimi-swordfish",
        "Sashimi Swordfish",
        4.1,
        patterns.find_sashimi_swordfish,
        groups=("fish",),
    ),
    T("turbot-fish", "Turbot Fish", 4.2, patterns.find_turbot_fish, groups=("single-digit",)),
    T(
        "empty-rectangle",
        "Empty Rectangle",
        4.2,
        patterns.find_empty_rectangles,
        groups=("single-digit",),
    ),
    T("w-wing", "W-Wing", 4.4, patterns.find_w_wings, groups=("wings",)),
    T(
        "finned-jellyfish",
        "Finned Jellyfish",
        5.4,
        patterns.find_finned_jellyfish,
        groups=("fish",),
    ),
    T(
        "sashimi-jellyfish",
        "Sashimi Jellyfish",
        5.5,
        patterns.find_sashimi_jellyfish,
        groups=("fish",),
    ),
    T("wxyz-wing", "WXYZ-Wing", 5.5, patterns.find_wxyz_wings, groups=("wings",)),
    T("remote-pair", "Remote Pair", 6.6, coloring.find_remote_pairs, groups=("chains",)),
    T(
        "simple-coloring",
        "Simple colouring",
        6.6,
        coloring.find_simple_colors,
        steps=("color-trap", "color-wrap"),
        groups=("coloring",),
    ),
    T("x-chain", "X-Chain", 6.6, coloring.find_x_chains, groups=("chains",)),
    T("xy-chain", "XY-Chain", 6.6, coloring.find_xy_chains, groups=("chains",)),
    T("als-xz", "ALS-XZ", 7.0, als.find_als_xz, groups=("als",)),
)

#: Every technique, SE's and the others, by base rating (SE's keep their relative order):
#: the order a chosen subset is tried in.
ALL_ORDER: tuple[Technique, ...] = tuple(sorted((*SE_ORDER, *EXTRA), key=lambda t: t.rating))

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
