"""The technique table: every technique the logic engine knows, and the orders it tries them in.

A **technique** here is what Sudoku Explainer calls a hint producer: a function from a
candidate state to the steps it can find, in its own search order. One technique may name its
steps more finely (the hidden-single technique yields ``full-house`` and ``hidden-single``
steps). ``best=True`` marks techniques whose cheapest step (by rating, then complexity) is
taken rather than the first found, as Sudoku Explainer does for its chaining producers.

``SE_ORDER`` is Sudoku Explainer 1.2.1's order; the solver tries techniques in it and applies
the first step found (see ``RATING.md`` in the project's shared docs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ._state import Candidates
from ._step import Step
from .singles import find_hidden_singles, find_naked_singles

__all__ = ["SE_ORDER", "TECHNIQUES", "Technique", "select"]


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


SE_ORDER: tuple[Technique, ...] = (
    Technique(
        "hidden-single",
        "Hidden single",
        1.0,
        find_hidden_singles,
        steps=("full-house", "hidden-single"),
        groups=("singles",),
    ),
    Technique("naked-single", "Naked single", 2.3, find_naked_singles, groups=("singles",)),
)

TECHNIQUES: dict[str, Technique] = {t.slug: t for t in SE_ORDER}


def select(names: Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques named (slugs, step names or groups such as ``singles``), in SE order.

    >>> [t.slug for t in select(["singles"])]
    ['hidden-single', 'naked-single']
    """
    if names is None:
        return SE_ORDER
    wanted = {name.strip().lower().replace("_", "-").replace(" ", "-") for name in names}
    known = {t.slug for t in SE_ORDER} | {g for t in SE_ORDER for g in t.groups}
    known |= {s for t in SE_ORDER for s in t.step_names}
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(
            f"unknown technique {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
        )
    return tuple(
        t
        for t in SE_ORDER
        if t.slug in wanted or wanted & set(t.groups) or wanted & set(t.step_names)
    )
