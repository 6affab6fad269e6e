"""The solver loop: try techniques in order, apply the first step found, repeat.

Like Simon Tatham's solo and Sudoku Explainer, the loop is also the grader: restricted to a set
of techniques, or capped at a rating, it answers "can a person solve this using only these?".
The state is never guessed at: a puzzle that no allowed technique can advance ends "stuck",
with the state reached.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from .. import _logic
from .._grid import Grid
from ..rules import Rules
from ._native import CAPPED, IN_C, SOLVED, STUCK, TECH_ID, StepPath, from_data, path, position
from ._state import Candidates
from ._step import Step, apply, cell_list
from ._table import KILLER, SE_ORDER, Technique, select

__all__ = [
    "RULES_TECHNIQUES",
    "Hint",
    "PathEnd",
    "SolveResult",
    "hint",
    "next_step",
    "for_rules",
    "rules_cut",
    "run_path",
    "solve_path",
    "solve_steps",
    "with_killer",
]


def _state_of(puzzle: Grid | Candidates | str) -> Candidates:
    """A copy of a position, or the position of a puzzle (a Grid or its text)."""
    if isinstance(puzzle, Candidates):
        return puzzle.copy()
    return Candidates.from_grid(Grid.of(puzzle))


def _techniques(techniques: Iterable[str] | Sequence[Technique] | None) -> Sequence[Technique]:
    if techniques is None:
        return SE_ORDER
    if isinstance(techniques, tuple) and _known(techniques) is not None:
        return techniques  # (seen before: its items were checked then)
    # A tuple stays itself, so that _ids knows it again by identity.
    items = techniques if isinstance(techniques, tuple) else list(techniques)
    if all(isinstance(t, Technique) for t in items):
        return items  # type: ignore[return-value]
    return select(str(t) for t in items)


#: The techniques that run under rules beyond the classic ones (the C engine's list).
RULES_TECHNIQUES: frozenset[str] = frozenset(_logic.RULES_TECHNIQUES)


@lru_cache(maxsize=64)
def _rules_prefix(techniques: tuple[Technique, ...]) -> tuple[Technique, ...]:
    cut = rules_cut(techniques)
    return techniques if cut is None else techniques[: techniques.index(cut)]


def rules_cut(techniques: Sequence[Technique]) -> Technique | None:
    """The first of ``techniques`` that does not run under rules beyond the classic ones yet,
    or None when they all do."""
    return next((t for t in techniques if t.slug not in RULES_TECHNIQUES), None)


def for_rules(techniques: Sequence[Technique], rules: Rules) -> Sequence[Technique]:
    """``techniques`` as the solver tries them under ``rules``: all of them for the classic
    rules; else those before the first that does not run under rules yet (a later technique
    alone would take steps the missing one would have taken first, and the path would not be
    Sudoku Explainer's). Under killer cages, an order that names no killer technique (SE's,
    by default) takes them all, each at its rating's place (:func:`with_killer`)."""
    if rules.is_classic:
        return techniques
    if rules.cages is not None:
        techniques = with_killer(tuple(techniques))
    return _rules_prefix(tuple(techniques))


@lru_cache(maxsize=64)
def with_killer(techniques: tuple[Technique, ...]) -> tuple[Technique, ...]:
    """``techniques`` with killer's (:data:`~sudokit.logic.KILLER`) merged in by rating, each
    after the techniques rated no higher, unless it names one of them already (a chosen set
    is kept as chosen: a rating capped below some killer techniques passes them capped)."""
    if any(t in KILLER for t in techniques):
        return techniques
    merged: list[Technique] = []
    rest = list(KILLER)
    for t in techniques:
        while rest and rest[0].rating < t.rating:
            merged.append(rest.pop(0))
        merged.append(t)
    return (*merged, *rest)


def in_c(techniques: Sequence[Technique]) -> tuple[int, ...] | None:
    """The C engine's ids of ``techniques`` when it runs them all, else None."""
    if all(t.slug in IN_C for t in techniques):
        return tuple(TECH_ID[t.slug] for t in techniques)
    return None


#: :func:`in_c` of the tuples of techniques run most (SE's order, a rating's capped orders),
#: by identity: working them out again was a tenth of a quick rating's time.
_IDS: dict[int, tuple[Sequence[Technique], tuple[int, ...] | None]] = {}


def _known(techniques: Sequence[Technique] | Iterable[str]) -> tuple[tuple[int, ...] | None] | None:
    """``(in_c(techniques),)`` when ``techniques`` is a tuple :func:`_ids` has seen, else None."""
    known = _IDS.get(id(techniques))
    return (known[1],) if known is not None and known[0] is techniques else None


def _ids(techniques: Sequence[Technique]) -> tuple[int, ...] | None:
    known = _known(techniques)
    if known is not None:
        return known[0]
    ids = in_c(techniques)
    if isinstance(techniques, tuple):  # (a list could change after)
        if len(_IDS) >= 64:
            _IDS.clear()
        _IDS[id(techniques)] = (techniques, ids)  # holds it: its id is not reused meanwhile
    return ids


def next_step(
    state: Candidates,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
    max_rating: float | None = None,
) -> Step | None:
    """The step the solver would take next from ``state``, or None when stuck."""
    chosen = for_rules(_techniques(techniques), state.rules)
    ids = in_c(chosen)
    if ids is not None:
        cap = -1.0 if max_rating is None else max_rating
        data = _logic.next_step(ids, cap, *position(state))
        return None if data is None else from_data(state.shape, data, state.rules)
    for t in chosen:
        if max_rating is not None and t.rating > max_rating:
            continue  # (orders other than SE's, such as HoDoKu's, do not grow in rating)
        found = (s for s in t.find(state) if max_rating is None or s.rating <= max_rating)
        if t.best:
            best = min(found, key=lambda s: (s.rating, s.complexity), default=None)
            if best is not None:
                return best
        else:
            first = next(found, None)
            if first is not None:
                return first
    return None


class PathEnd(Enum):
    """How a :func:`run_path` ended."""

    SOLVED = "solved"
    STUCK = "stuck"
    CAPPED = "capped"  # the next step is rated above ``stop_above``
    OUT_OF_TIME = "out of time"


_ENDS = {SOLVED: PathEnd.SOLVED, STUCK: PathEnd.STUCK, CAPPED: PathEnd.CAPPED}


def run_path(
    puzzle: Grid | Candidates | str,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
    max_rating: float | None = None,
    stop_above: float | None = None,
    deadline: float | None = None,
) -> tuple[PathEnd, StepPath]:
    """Run the solver loop on a puzzle or a position and return how it ended and the steps
    taken (a sequence of :class:`Step`, each made when first read). A :class:`Candidates`
    position is changed in place: it ends where the path ends.

    ``max_rating`` skips techniques and steps rated above it (as :func:`next_step`);
    ``stop_above`` ends the path at the first step rated above it, which is returned as the
    last step but not applied (:attr:`PathEnd.CAPPED`); ``deadline``, a
    :func:`time.monotonic` value, ends it when passed (checked between steps).
    """
    if not isinstance(puzzle, Candidates):
        puzzle = Grid.of(puzzle)
    chosen = for_rules(_techniques(techniques), puzzle.rules)
    ids = _ids(chosen)
    if ids is not None:
        code, found = path(
            puzzle, ids, max_rating=max_rating, stop_above=stop_above, deadline=deadline
        )
        return _ENDS.get(code, PathEnd.OUT_OF_TIME), StepPath(
            puzzle.shape, data=found, rules=puzzle.rules
        )
    state = puzzle if isinstance(puzzle, Candidates) else Candidates.from_grid(puzzle)
    steps: list[Step] = []
    end = PathEnd.SOLVED
    while not state.is_solved():
        if deadline is not None and time.monotonic() > deadline:
            end = PathEnd.OUT_OF_TIME
            break
        step = next_step(state, techniques=chosen, max_rating=max_rating)
        if step is None:
            end = PathEnd.STUCK
            break
        steps.append(step)
        if stop_above is not None and step.rating > stop_above:
            end = PathEnd.CAPPED
            break
        if not apply(state, step):
            raise RuntimeError(f"internal error: a {step.technique} step changed nothing: {step}")
    return end, StepPath(state.shape, steps=steps)


def solve_steps(
    puzzle: Grid | Candidates | str,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
    max_rating: float | None = None,
    in_place: bool = False,
) -> Iterator[Step]:
    """Yield each step of the solve path, applying it as it goes, until solved or stuck.

    ``puzzle`` may be a Grid or a Candidates state (a player's position with their own pencil
    marks). It is not modified unless ``in_place`` is set for a Candidates state: then each
    step is yielded *before* it is applied to that state, so a caller can show the position the
    step is taken from, and the state ends where the path ends.
    """
    if in_place and not isinstance(puzzle, Candidates):
        raise TypeError("in_place needs a Candidates state")
    state = puzzle if in_place and isinstance(puzzle, Candidates) else _state_of(puzzle)
    chosen = _techniques(techniques)
    if in_c(chosen) is None:
        # Step by step, so that a caller that stops early does not pay for the rest.
        while not state.is_solved():
            step = next_step(state, techniques=chosen, max_rating=max_rating)
            if step is None:
                return
            yield step
            if not apply(state, step):
                raise RuntimeError(f"internal error: a {step.technique} step changed nothing")
        return
    # The loop runs in C on a copy; the steps are applied here as they are yielded.
    _, steps = run_path(state.copy(), techniques=chosen, max_rating=max_rating)
    for step in steps:
        yield step
        apply(state, step)


@dataclass(frozen=True)
class SolveResult:
    """A solve path: the steps, whether they solved the puzzle, and the state they reached."""

    steps: tuple[Step, ...]
    solved: bool
    state: Candidates

    @property
    def hardest(self) -> Step | None:
        """The first step with the highest rating (None for an already solved puzzle)."""
        return max(self.steps, key=lambda s: s.rating, default=None)


def solve_path(
    puzzle: Grid | Candidates | str,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
    max_rating: float | None = None,
) -> SolveResult:
    """Solve as a person would, with the allowed techniques (all, in SE order, by default).

    >>> from sudokit import Grid
    >>> easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    >>> r = solve_path(Grid(easy))
    >>> r.solved, len(r.steps), r.hardest.rating
    (True, 49, 1.2)
    >>> r.steps[0].text
    'Hidden single: in box 1, 6 fits only in r2c2'
    """
    state = _state_of(puzzle)
    steps = tuple(solve_steps(state, techniques=techniques, max_rating=max_rating, in_place=True))
    return SolveResult(steps, state.is_solved(), state)


@dataclass(frozen=True)
class Hint:
    """A hint at ``detail`` 1 (technique and where), 2 (cells and digits) or 3 (the
    deduction)."""

    detail: int
    text: str
    step: Step

    def where(self) -> list[int]:
        """The units (row, column, box indices as in :class:`Step`) a detail-1 hint names:
        the step's first two, or the boxes of its first two cells' boxes when it has none."""
        return _where(self.step)

    def to_dict(self, state: Candidates | None = None) -> dict[str, Any]:
        """The hint as JSON-ready data, ``{"detail", "text", "step"}``: ``step`` in the one
        step schema (:data:`STEP_SCHEMA`, every key there) but carrying only what the detail
        tells, so that a client cannot read more than it asked for:

        - 1: the technique, its rating and ``units``, where to look; no cells, digits,
          placements, eliminations or links;
        - 2: also the pattern's ``cells`` and ``digits`` (and, given the ``state`` the step was
          found in, those cells' ``candidates``); still no placements, eliminations or links;
        - 3: the whole step (:meth:`Step.to_dict`).

        The step's ``text`` is the hint's.
        """
        if self.detail == 3:
            return {"detail": 3, "text": self.text, "step": self.step.to_dict(state)}
        shape = self.step.shape
        n = shape.n
        data = self.step.to_dict()
        data.update(
            placements=[],
            eliminations=[],
            links=[],
            cells=[],
            digits=[],
            text=self.text,
            units=[[("row", "column", "box")[u // n], u % n + 1] for u in self.where()],
        )
        if self.detail == 2:
            cells = _pattern(self.step)
            data["cells"] = [[c // n + 1, c % n + 1] for c in cells]
            data["digits"] = list(self.step.digits)
            if state is not None:
                data["candidates"] = [
                    [c // n + 1, c % n + 1, state.cand[c]] for c in cells if not state.values[c]
                ]
        return {"detail": self.detail, "text": self.text, "step": data}


def _pattern(step: Step) -> list[int]:
    """The cells a detail-2 hint shows: the pattern's, else the cells placed."""
    return list(step.cells) or [c for c, _ in step.placements]


def _where(step: Step) -> list[int]:
    if step.units:
        return list(step.units[:2])
    shape = step.shape
    boxes = sorted({shape.box_of(c) for c in _pattern(step)})
    return [2 * shape.n + b for b in boxes[:2]]


def _article(name: str) -> str:
    """``a `` or ``an `` before a technique's name, nothing before a plural (innies)."""
    if name.endswith("ies"):
        return ""
    return "an " if name[0] in "aeio" else "a "  # (a unique rectangle)


def hint(
    puzzle: Grid | Candidates | str,
    detail: int = 1,
    *,
    techniques: Iterable[str] | Sequence[Technique] | None = None,
) -> Hint | None:
    """A progressive hint for the next step from a puzzle or a player's position.

    ``detail`` 1 names the technique and where to look; 2 adds the cells and digits; 3 gives
    the whole deduction. None when the puzzle is solved or no technique applies.
    """
    if detail not in (1, 2, 3):
        raise ValueError(f"hint detail must be 1, 2 or 3, got {detail}")
    state = _state_of(puzzle)
    step = next_step(state, techniques=techniques)
    if step is None:
        return None
    name = step.technique.replace("-", " ")
    shape = step.shape
    if detail == 3:
        text = step.text
    elif detail == 2:
        digits = "/".join(map(str, step.digits)) or "the marked digits"
        text = f"Look for {_article(name)}{name} on {digits} in {cell_list(shape, _pattern(step))}"
    else:
        where = " and ".join(step.unit_name(u) for u in _where(step))
        text = f"Look for {_article(name)}{name} in {where}"
    return Hint(detail, text, step)
