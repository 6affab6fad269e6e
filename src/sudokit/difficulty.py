"""Difficulty targets: generating puzzles of a level, an ER range, with or without techniques.

This layer sits above both the generator and the rater (the generator knows nothing of
ratings): it turns the user's options into an :class:`~sudokit.generator.Acceptance` that the
generator applies to every puzzle it digs, and gives the public :func:`generate` and
:func:`generate_many` (``sudokit.generate``), whose results are :class:`Rated` when a
difficulty or a rating was asked for.

A :class:`Difficulty` says what a generated puzzle must satisfy:

- ``lo <= ER <= hi`` on Sudoku Explainer's scale (from ``level=`` or ``rating=``);
- ``require``: the SE solve path uses each named technique (a technique, a step name such
  as ``full-house``, or a group such as ``fish``: any of the group counts);
- ``allow``: the puzzle can be solved with the allowed techniques alone.

``logic`` is the engine's dig constraint that makes easy targets cheap: when every allowed
technique, or every step up to ``hi``, is a single, the engine keeps a removal only while
singles still solve the puzzle, so what it digs already meets the target's upper end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from . import _engine, generator
from ._grid import Grid
from ._shape import Shape
from .generator import Generated, PuzzleStream
from .logic import Technique, select, solve_path
from .logic.hodoku import HODOKU_LEVELS
from .rating import ER_SCALE, Level, Rating, er_range, hodoku, rate

__all__ = [
    "Difficulty",
    "RateAll",
    "Rated",
    "difficulty",
    "generate",
    "generate_many",
    "step_names",
    "target",
]

# The engine's dig constraints come from C; with the highest SE rating a puzzle that its
# singles solve can have.
LOGIC_NONE, LOGIC_BOX = _engine.LOGIC_NONE, _engine.LOGIC_BOX
LOGIC_HIDDEN, LOGIC_SINGLES = _engine.LOGIC_HIDDEN, _engine.LOGIC_SINGLES
_LOGIC_TOP = ((LOGIC_BOX, 1.2), (LOGIC_HIDDEN, 1.5), (LOGIC_SINGLES, 2.3))


@dataclass(frozen=True, slots=True)
class Rated(Generated):
    """A generated puzzle with its rating (Sudoku Explainer's ER/EP/ED, level, hardest
    technique; the HoDoKu grade when a HoDoKu level was asked for). The rating carries no
    step path: :func:`sudokit.logic.solve_path` gives it."""

    rating: Rating | None = None


def rated(found: Generated, rating: Rating) -> Rated:
    """``found`` with ``rating`` (its steps dropped: cheap to keep and to send)."""
    facts = {f.name: getattr(found, f.name) for f in fields(Generated)}
    return Rated(**facts, rating=replace(rating, steps=()))


@dataclass(frozen=True)
class RateAll:
    """The acceptance that takes every puzzle and rates it (``with_rating=True``)."""

    logic: int = LOGIC_NONE

    def judge(self, found: Generated, deadline: float | None) -> tuple[float, Generated]:
        return 0.0, rated(found, rate(found.puzzle, deadline=deadline))

    def describe(self) -> str:
        return "any difficulty"

    def summary(self, found: Generated) -> str:
        return _summary(found)


def _summary(found: Generated) -> str:
    if isinstance(found, Rated) and found.rating is not None:
        return f", ER {found.rating.er:.1f}{'+' if found.rating.capped else ''}"
    return ""


@dataclass(frozen=True)
class Difficulty:
    lo: float
    hi: float
    require: tuple[tuple[str, frozenset[str]], ...]  # (name as given, step names that count)
    allow: tuple[Technique, ...] | None
    logic: int
    hodoku_level: str | None = None

    def check(self, puzzle: Grid, deadline: float | None = None) -> tuple[bool, Rating, float]:
        """Whether ``puzzle`` meets the target, its rating (capped at ``hi`` when that is all
        it takes to reject it), and how far its ER is from the range (0 inside it).

        Raises TimeoutError when the rating is still going at ``deadline`` (a
        ``time.monotonic()`` value): a hard puzzle's rating can take seconds.
        """
        capped = self.hi < 20.0 and not self.require
        rating = rate(puzzle, max_rating=self.hi if capped else None, deadline=deadline)
        er = rating.er
        distance = max(self.lo - er, er - self.hi, 0.0)
        if rating.capped or not rating.solved or distance > 0:
            return False, rating, max(distance, 0.1)
        if self.require:  # (reading the steps makes their Step objects: only when needed)
            used = {s.technique for s in rating.steps}
            for _, names in self.require:
                if not used & names:
                    return False, rating, 0.05
        if (
            self.allow is not None
            and not self._engine_proves_allow()
            and not solve_path(puzzle, techniques=self.allow).solved
        ):
            return False, rating, 0.05
        if self.hodoku_level is not None:
            grade = hodoku(puzzle)
            rating = replace(rating, hodoku=grade)
            if grade.level != self.hodoku_level:
                return False, rating, 0.05
        return True, rating, 0.0

    def judge(self, found: Generated, deadline: float | None) -> tuple[float, Generated]:
        """The generator's acceptance test: 0.0 and ``found`` rated when it meets the target,
        else how far it is (and it rated as far as that took)."""
        ok, rating, gap = self.check(found.puzzle, deadline)
        return (0.0 if ok else gap), rated(found, rating)

    def summary(self, found: Generated) -> str:
        return _summary(found)

    def _engine_proves_allow(self) -> bool:
        """The engine's singles constraint uses only allowed techniques, so what it digs is
        solvable with them."""
        if self.allow is None or self.logic == LOGIC_NONE:
            return False
        slugs = {t.slug for t in self.allow}
        needed = {"full-house", "hidden-single"}
        if self.logic == LOGIC_SINGLES:
            needed.add("naked-single")
        return needed <= slugs

    def describe(self) -> str:
        parts = []
        if (self.lo, self.hi) != (1.0, 20.0):
            parts.append(f"ER {self.lo:.1f}-{self.hi:.1f}")
        if self.require:
            parts.append("a solve path using " + " and ".join(name for name, _ in self.require))
        if self.allow is not None:
            parts.append("a solution with " + ", ".join(t.slug for t in self.allow) + " alone")
        if self.hodoku_level is not None:
            parts.append(f"HoDoKu level {self.hodoku_level}")
        return " and ".join(parts) or "any difficulty"


def lo_hi_text(level: Level | str) -> str:
    lv = level if isinstance(level, Level) else Level.parse(level)
    lo, hi = lv.range
    return f"{lo:.1f}-{hi:.1f}"


def step_names(name: str) -> frozenset[str]:
    """The step names that count for technique (or group) ``name`` in ``require``: the
    names a solve path's steps carry. Raises ValueError for an unknown name."""
    chosen = select([name])
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    names = {key}
    for t in chosen:
        if key == t.slug or key in t.groups:
            names.update(t.step_names)
    return frozenset(names)


def difficulty(
    *,
    level: Level | str | None = None,
    rating: tuple[float, float] | None = None,
    require: Iterable[str] | None = None,
    allow: Iterable[str] | None = None,
    hodoku_level: str | None = None,
) -> Difficulty | None:
    """Resolve the generator's difficulty options; None when there are none.

    Raises ValueError for unknown levels or techniques and for empty ranges.
    """
    if (level, rating, require, allow, hodoku_level) == (None, None, None, None, None):
        return None
    hod = None
    if hodoku_level is not None:
        hod = next((h for h in HODOKU_LEVELS if h.lower() == hodoku_level.strip().lower()), None)
        if hod is None:
            raise ValueError(
                f"unknown HoDoKu level {hodoku_level!r}; choose from {', '.join(HODOKU_LEVELS)}"
            )
    lo, hi = ER_SCALE
    if level is not None:
        lv = level if isinstance(level, Level) else Level.parse(level)
        lo, hi = lv.range
    if rating is not None:
        rlo, rhi = er_range(*rating)
        lo, hi = max(lo, rlo), min(hi, rhi)
        if lo > hi and level is not None:  # within the scale, so only a level can empty it
            name = str(level).lower()
            raise ValueError(
                f"ER range {rlo:g}-{rhi:g} is outside level {name} (ER {lo_hi_text(level)})"
            )
    req = tuple((name, step_names(name)) for name in (require or ()))
    allowed = select(list(allow)) if allow is not None else None
    if allowed == ():
        raise ValueError("allow names no technique; give at least one (for example singles)")
    # Targets no puzzle can meet fail here, at once, rather than after the whole timeout.
    for name, _ in req:
        chosen = select([name])
        if allowed is not None and not any(t in allowed for t in chosen):
            raise ValueError(
                f"{name} is required but not among the allowed techniques "
                f"({', '.join(t.slug for t in allowed)})"
            )
        cheapest = min(t.rating for t in chosen)
        if cheapest > hi:
            raise ValueError(
                f"{name} rates ER {cheapest:.1f}: a path using it cannot stay within ER {hi:.1f}"
            )
    if allowed is not None:
        top = max(t.rating for t in allowed)
        if top < lo:
            raise ValueError(
                f"a puzzle solved with {', '.join(t.slug for t in allowed)} alone rates at most "
                f"ER {top:.1f}, below the ER {lo:.1f} asked for"
            )
    logic = LOGIC_NONE
    if allowed is not None:
        slugs = {t.slug for t in allowed}
        if slugs <= {"full-house", "hidden-single"}:
            logic = LOGIC_HIDDEN
        elif slugs <= {"full-house", "hidden-single", "naked-single"}:
            logic = LOGIC_SINGLES
    if not req and hi < 2.6:
        # The most restrictive singles constraint that still reaches min(hi, 2.3): its
        # puzzles all rate at most that, and none of the target's easy end is lost.
        reach = min(hi, 2.3)
        by_rating = next(m for m, top in _LOGIC_TOP if top >= reach)
        logic = by_rating if logic == LOGIC_NONE else min(logic, by_rating)
    if hod is not None:
        logic = LOGIC_NONE  # HoDoKu's singles scores differ from SE's: no dig shortcut
    return Difficulty(lo, hi, req, allowed, logic, hod)


def target(
    *,
    level: Level | str | None = None,
    rating: tuple[float, float] | None = None,
    require: Iterable[str] | None = None,
    allow: Iterable[str] | None = None,
    hodoku_level: str | None = None,
    with_rating: bool = False,
) -> Difficulty | RateAll | None:
    """The generator's acceptance for these options: a :class:`Difficulty`, :class:`RateAll`
    (only ``with_rating``), or None (no difficulty, no rating). Raises ValueError for options
    no puzzle can meet, before any work."""
    found = difficulty(
        level=level, rating=rating, require=require, allow=allow, hodoku_level=hodoku_level
    )
    if found is None and with_rating:
        return RateAll()
    return found


def generate(
    *,
    shape: Shape | None = None,
    symmetry: str = "rot180",
    clues: int | None = None,
    max_clues: int | None = None,
    minimal: bool | None = None,
    seed: int | None = None,
    index: int = 0,
    timeout: float | None = 60.0,
    level: Level | str | None = None,
    rating: tuple[float, float] | None = None,
    require: Iterable[str] | None = None,
    allow: Iterable[str] | None = None,
    with_rating: bool = False,
    hodoku_level: str | None = None,
) -> Generated:
    """Make one puzzle with exactly one solution: :func:`sudokit.generator.generate` (see it
    for the shape, symmetry, clue, seed and timeout options) with difficulty targets.

    - Difficulty (Sudoku Explainer's scale; see :mod:`sudokit.rating`): ``level`` (a
      :class:`~sudokit.rating.Level` or its name), ``rating=(lo, hi)`` on ER, ``require`` (the
      solve path must use each named technique), ``allow`` (the puzzle must be solvable with
      these techniques alone), ``hodoku_level`` (HoDoKu's Easy ... Extreme, see
      :func:`sudokit.rating.hodoku`). The result is then :class:`Rated` (also with
      ``with_rating=True``).
    """
    accept = target(
        level=level,
        rating=rating,
        require=require,
        allow=allow,
        hodoku_level=hodoku_level,
        with_rating=with_rating,
    )
    return generator.generate(
        shape=shape,
        symmetry=symmetry,
        clues=clues,
        max_clues=max_clues,
        minimal=minimal,
        seed=seed,
        index=index,
        timeout=timeout,
        accept=accept,
    )


def generate_many(
    count: int,
    *,
    shape: Shape | None = None,
    symmetry: str = "rot180",
    clues: int | None = None,
    max_clues: int | None = None,
    minimal: bool | None = None,
    seed: int | None = None,
    start: int = 0,
    jobs: int = 1,
    timeout: float | None = 60.0,
    chunk: int | None = None,
    level: Level | str | None = None,
    rating: tuple[float, float] | None = None,
    require: Iterable[str] | None = None,
    allow: Iterable[str] | None = None,
    with_rating: bool = False,
    hodoku_level: str | None = None,
    cluster: str | None = None,
) -> PuzzleStream:
    """``count`` puzzles as :func:`sudokit.generator.generate_many` makes them, with the
    difficulty options of :func:`generate`; puzzle ``i`` is ``generate(..., index=i)``.
    ``cluster`` runs the work on the Dask cluster at that address (``local``, ``local:N``,
    ``tcp://host:8786``) instead of ``jobs`` processes, with the same puzzles."""
    accept = target(
        level=level,
        rating=rating,
        require=require,
        allow=allow,
        hodoku_level=hodoku_level,
        with_rating=with_rating,
    )
    return generator.generate_many(
        count,
        shape=shape,
        symmetry=symmetry,
        clues=clues,
        max_clues=max_clues,
        minimal=minimal,
        seed=seed,
        start=start,
        jobs=jobs,
        timeout=timeout,
        chunk=chunk,
        accept=accept,
        cluster=cluster,
    )
