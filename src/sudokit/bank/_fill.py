"""What ``bank fill`` asks of the generator: its request checked (:func:`check_fill`), its
run's key (:func:`run_key`), and the acceptance that keeps each puzzle's technique path."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Unpack

from .. import generator
from ..difficulty import (
    Difficulty,
    RateAll,
    Rated,
    Request,
    RequestFields,
    beyond_the_rating,
    rated,
)
from ..errors import InvalidRulesError
from ..generator import Dig, Generated
from ..rating import rate
from ._entries import Entry, from_generated, hodoku_of

__all__ = ["Banked", "KeepPath", "check_fill", "entries_of", "run_key"]


@dataclass(frozen=True, slots=True)
class Banked(Rated):
    """A generated puzzle rated by ``bank fill``, with the techniques of its SE path."""

    techniques: tuple[str, ...] = ()


@dataclass(frozen=True)
class KeepPath:
    """An acceptance (see :class:`sudokit.generator.Acceptance`) wrapping a difficulty target
    that keeps what the bank stores of each accepted puzzle: the techniques of its path and
    its HoDoKu grade (the difficulty layer drops the steps once it has judged)."""

    inner: Difficulty | RateAll

    @property
    def logic(self) -> int:
        return self.inner.logic

    def judge(self, found: Generated, deadline: float | None) -> tuple[float, Generated]:
        target = self.inner if isinstance(self.inner, Difficulty) else None
        try:
            if target is not None:
                ok, rating, gap = target.check(found.puzzle, deadline)
            else:
                ok, rating, gap = True, rate(found.puzzle, deadline=deadline), 0.0
        except InvalidRulesError as e:  # kept unrated (from_generated stores its killer level)
            return beyond_the_rating(found, target, e)
        if not ok:
            return gap, rated(found, rating)
        used = tuple(sorted({s.technique for s in rating.steps}))
        if rating.hodoku is None:
            rating = replace(rating, hodoku=hodoku_of(found.puzzle))
        facts = {f.name: getattr(found, f.name) for f in fields(Generated)}
        return 0.0, Banked(**facts, rating=replace(rating, steps=()), techniques=used)

    def describe(self) -> str:
        return self.inner.describe()

    def summary(self, found: Generated) -> str:
        return self.inner.summary(found)


def entries_of(batch: list[Generated]) -> list[Entry]:
    """A chunk of generated puzzles as entries (in the worker that made them; a killer the
    rating cannot finish comes unrated, and is stored with its killer level)."""
    return [from_generated(g, g.techniques if isinstance(g, Banked) else None) for g in batch]


def check_fill(
    count: int,
    request: Dig | None = None,
    *,
    timeout: float | None = 60.0,
    **fields: Unpack[RequestFields],
) -> Request:
    """The request :meth:`Bank.fill` generates for (``request`` with the ``fields`` given,
    rated); ValueError for what no puzzle can meet (an unknown level or technique, an ER
    range outside the level, a bad count, symmetry or timeout). Needs no bank: ``bank fill``
    checks its options with it before it opens (or makes) one."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    generator.check_timeout(timeout)
    return Request.of(request, **{**fields, "rate": True})


def run_key(request: Request, seed: int | None) -> str:
    """The ``runs`` key of a fill of ``request`` (and its seed when one was given)."""
    key = request.key()
    return key if seed is None else f"{key} seed={seed}"
