"""The generator: puzzles with exactly one solution, from random complete grids.

Terms:

- A **symmetry** is a group of geometric maps of the grid onto itself (rotations, mirrors);
  the clue pattern of a puzzle made with it is unchanged by every map in the group.
- An **orbit** is a set of cells that the symmetry maps onto each other; the generator adds
  and removes clues a whole orbit at a time.
- **Digging**: start from a random complete grid and remove orbits in a random order, keeping
  a removal only while the puzzle still has one solution.
- A puzzle is **minimal** when no single clue can be removed without losing uniqueness, and
  **orbit-minimal** when no whole orbit can. Without symmetry the two are the same; with one, a
  puzzle dug until no orbit can go is orbit-minimal and usually *not* minimal (most symmetric
  puzzles have a clue that could go alone), so both facts are reported.

Every puzzle returned has been proven unique by the exact engine, whatever the options. The
result is a function of the options and ``seed`` (and ``index`` in a batch): puzzle ``i`` of a
batch with seed ``s`` is ``generate(seed=s, index=i)``, whatever the number of processes.

>>> from sudokit import generate
>>> p = generate(seed=2024)
>>> p.puzzle.clue_count == p.clues, p.orbit_minimal, p.symmetry
(True, True, 'rot180')
>>> generate(seed=2024) == p
True
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, fields, replace
from functools import partial
from itertools import chain
from operator import attrgetter
from typing import Any, Generic, Protocol, TypedDict, TypeVar, Unpack

from . import _engine
from ._grid import Grid, rules_blob
from ._parallel import (
    CHUNKS_BIG,
    CHUNKS_CLUSTER,
    CHUNKS_QUICK,
    CHUNKS_SLOW,
    ordered_map,
    plan_chunks,
)
from ._shape import Shape
from .errors import GenerationError, InvalidRulesError
from .killer import cage_sizes_of, check_killer, is_killer, make_killer
from .layouts import (
    SYMMETRIES,
    layout_extras,
    layout_symmetries,
    orbit_ids,
    orbits,
    random_layout,
    reachable,
    request_rules,
    short,
    symmetries_kept,
    symmetry_of,
)
from .rules import CLASSIC, Rules, geometry

__all__ = [
    "SYMMETRIES",
    "Acceptance",
    "Batch",
    "Dig",
    "DigFields",
    "Generated",
    "PuzzleStream",
    "as_dig",
    "check_timeout",
    "generate",
    "generate_many",
    "is_minimal",
    "minimise",
    "orbits",
    "symmetries_kept",
    "symmetry_of",
]

#: Fewest clues a puzzle of a shape can have and stay unique, where it is known
#: (9x9: McGuire, Tugemann and Civario, 2012); otherwise n - 1 (a puzzle missing two digits
#: entirely has a second solution with those two swapped).
_KNOWN_MIN_CLUES = {(2, 2): 4, (2, 3): 8, (3, 2): 8, (3, 3): 17}

#: A search that visits more nodes than this gives up (on big grids a few uniqueness proofs
#: near minimality take minutes); the clue is then kept, so the puzzle stays proven unique,
#: but minimality can no longer be claimed. 0 = no limit.
_BUDGETS = {9: 0, 12: 0, 16: 200_000}
_BIG_BUDGET = 2_000

_SEED_MASK = (1 << 64) - 1


#: The budget of a search under rules beyond the classic ones on sides up to 9: the general
#: path's propagation is weaker than the 9x9 one's, and a few proofs near minimality (anti-
#: knight, nc) would take seconds; past it the clue is kept, as on big grids.
_RULES_BUDGET = 20_000


#: Nodes a cell the search for a complete grid of a random jigsaw layout may take before the
#: layout is dropped for the next one: a layout that has grids gives one within a few hundred
#: nodes, and one without (about 2 in 100) may take seconds to prove so.
_LAYOUT_GRID_NODES = 16


def _budget(shape: Shape, rules: Rules | None = None) -> int:
    if rules is not None and not rules.is_classic and shape.n <= 9:
        return _RULES_BUDGET
    return _BUDGETS.get(shape.n, 0 if shape.n < 9 else _BIG_BUDGET)


def is_minimal(puzzle: Grid, solution: Grid) -> bool | None:
    """Whether no single clue of ``puzzle`` (unique, with ``solution``) can go without losing
    uniqueness; None when the engine's search budget for the shape ran out before deciding.

    >>> p = generate(seed=3, symmetry="none")
    >>> is_minimal(p.puzzle, p.solution), is_minimal(p.solution, p.solution)
    (True, False)
    """
    shape = puzzle.shape
    removable, unsure = _engine.removable(
        shape.box_rows,
        shape.box_cols,
        puzzle.cells,
        solution.cells,
        _budget(shape, puzzle.rules),
        True,
        rules_blob(puzzle),
    )
    return False if removable else (None if unsure else True)


def minimise(puzzle: Grid, solution: Grid, *, seed: int) -> tuple[Grid, bool | None]:
    """A minimal puzzle inside ``puzzle`` (unique, with ``solution``): clues that can go
    without losing uniqueness are taken out one at a time, each drawn at random among those
    that can (the result is a function of the puzzle and ``seed``), until none can. Returns
    it and whether it is proven minimal (None when the engine's search budget for the shape
    ran out; the puzzle is still unique).

    >>> p = generate(seed=5, symmetry="none")
    >>> minimise(p.solution, p.solution, seed=1)[0].clue_count < 40
    True
    """
    shape = puzzle.shape
    cells = bytearray(puzzle.cells)
    rng = random.Random(seed)
    budget = _budget(shape, puzzle.rules)
    blob = rules_blob(puzzle)
    rules = None if blob is None else puzzle.rules
    while True:
        removable, unsure = _engine.removable(
            shape.box_rows, shape.box_cols, bytes(cells), solution.cells, budget, False, blob
        )
        if not removable:
            return Grid.unchecked(shape, bytes(cells), rules=rules), None if unsure else True
        cells[rng.choice(removable)] = 0


def derive_seed(seed: int, *parts: int) -> int:
    """A 64-bit engine seed from the user's seed and positions (index, attempt): the same on
    every machine and every Python version."""
    text = "/".join(str(x) for x in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated puzzle, its solution, and the facts that made it.

    ``generate(shape=…, symmetry=…, <same targets>, seed=seed, index=index)`` makes it again.
    ``minimal`` and ``orbit_minimal`` are None where they were not established (a clue target
    stopped the digging early, or a search on a big grid gave up before deciding).
    """

    puzzle: Grid
    solution: Grid
    seed: int
    index: int
    symmetry: str
    minimal: bool | None
    orbit_minimal: bool | None
    attempts: int

    @property
    def shape(self) -> Shape:
        return self.puzzle.shape

    @property
    def clues(self) -> int:
        return self.puzzle.clue_count


@dataclass(frozen=True, slots=True)
class Dig:
    """What the generator is asked to dig, as one value, checked once when made.

    - ``shape``: the box shape (a :class:`Shape` or text such as ``"2x3"``; default 3x3);
    - ``symmetry``: one of :data:`SYMMETRIES` or ``"random"`` (the clue pattern has it);
    - ``clues=N``: exactly N clues; ``max_clues=N``: at most N;
    - ``minimal``: dig until no clue (with a symmetry: no orbit of clues) can go. Left out
      (None), it becomes True unless a clue target is given; with ``clues=N`` too, the
      puzzle must be both;
    - ``rules``: the rules the puzzles keep (a :class:`~sudokit.rules.Rules` or its text,
      such as ``"x+windoku"``; classic by default). ``"jigsaw"`` without a region map (alone
      or with extras, ``"jigsaw+x"``) asks for a fresh random layout for each puzzle, with
      the request's symmetry (see :func:`random_regions`); it is then kept as that text.
      ``"killer"`` (``"killer+x"``) asks for killer puzzles, a random cage layout each, of
      ``cage_sizes=(lo, hi)`` cells (default 1-5); ``clues=N``: N givens (default none);
      ``minimal`` (not the default): minimal in cages (see :mod:`sudokit.killer`).

    Raises ValueError for what no puzzle can meet (a clue count below the known minimum,
    one the symmetry's orbits cannot add up to, rules that do not fit the shape, a symmetry
    the rules break: :class:`~sudokit.errors.InvalidRulesError` for the last two) and
    TypeError for a value of the wrong kind.
    The difficulty layer's :class:`sudokit.difficulty.Request` is a Dig with targets.
    """

    shape: Shape = Shape(3, 3)
    symmetry: str = "rot180"
    clues: int | None = None
    max_clues: int | None = None
    minimal: bool = None  # type: ignore[assignment]  # None: resolved when made
    rules: Rules | str = CLASSIC
    cage_sizes: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "shape", Shape.of(self.shape))
        put(self, "rules", request_rules(self.rules))
        put(self, "cage_sizes", cage_sizes_of(self.cage_sizes, self.shape, self.rules))
        if not isinstance(self.symmetry, str):
            raise TypeError(f"symmetry must be a name, got {self.symmetry!r}")
        put(self, "symmetry", self.symmetry.strip().lower())
        for name in ("clues", "max_clues"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be a whole number or None, got {value!r}")
        if self.minimal is None:
            killer = is_killer(self.rules)  # (a killer's minimal: in cages, when asked)
            put(self, "minimal", self.clues is None and self.max_clues is None and not killer)
        elif not isinstance(self.minimal, bool):
            raise TypeError(f"minimal must be True, False or None, got {self.minimal!r}")
        if self.symmetry != "random" and self.symmetry not in SYMMETRIES:
            raise ValueError(
                f"unknown symmetry {self.symmetry!r}; "
                f"choose from {', '.join([*SYMMETRIES, 'random'])}"
            )
        if self.clues is not None and self.max_clues is not None:
            raise ValueError("give clues= or max_clues=, not both")
        shape = self.shape
        lowest = _KNOWN_MIN_CLUES.get((shape.box_rows, shape.box_cols), shape.n - 1)
        if is_killer(self.rules):  # the cages tell the rest: any number of givens
            check_killer(shape, str(self.rules), self.max_clues)
            lowest = 0
        for name in ("clues", "max_clues"):
            value = getattr(self, name)
            if value is None:
                continue
            if not 0 <= value <= shape.size:
                raise ValueError(f"{name}={value} is outside 0..{shape.size} for a {shape} grid")
            if value < lowest:
                raise ValueError(
                    f"{name}={value} is impossible: no {shape.n}x{shape.n} puzzle with fewer "
                    f"than {lowest} clues has a unique solution"
                )
        self.check_reachable(self.symmetry)
        self._check_rules()

    def _check_rules(self) -> None:
        """Refuse rules that do not fit the shape, and a symmetry they break, by name."""
        if self.rules == CLASSIC:
            return
        kept = self.symmetries
        if self.symmetry != "random" and self.symmetry not in kept:
            what = "its random jigsaw layouts" if self.random_layout else "they"
            raise InvalidRulesError(
                f"symmetry {self.symmetry!r} breaks rules {short(self.rules)!r} on shape "
                f"{self.shape}: {what} keep only {', '.join(kept)}"
            )

    @property
    def random_layout(self) -> bool:
        """Whether each puzzle gets a fresh random jigsaw layout (``rules`` is the text
        ``jigsaw`` or ``jigsaw+<extras>``)."""
        return isinstance(self.rules, str)

    @property
    def symmetries(self) -> tuple[str, ...]:
        """The symmetries the request's rules keep (see :func:`symmetries_kept`); for random
        jigsaw layouts, those the shape's boxes and the extras keep."""
        if is_killer(self.rules):  # the cages are grown with the symmetry: the extras decide
            return symmetries_kept(self.shape, layout_extras(str(self.rules)))
        if isinstance(self.rules, str):
            return layout_symmetries(self.shape, self.rules)
        return symmetries_kept(self.shape, self.rules)

    def rules_of(self, seed: int, index: int, attempt: int) -> Rules:
        """The rules of puzzle ``index``'s attempt ``attempt``: the request's, or with a
        random layout, the one drawn for it (with the puzzle's symmetry)."""
        if is_killer(self.rules):
            return _killer(self, seed, index, attempt, time.monotonic() + 60.0)[0]
        if isinstance(self.rules, str):
            sym = _choose_symmetry(self.symmetry, seed, index, self.symmetries)
            regions = random_layout(self.shape, sym, derive_seed(seed, index, attempt, -2))
            return Rules.of(layout_extras(self.rules).extras, regions=regions)
        return self.rules

    def check_reachable(self, symmetry: str) -> None:
        """ValueError when the clue count cannot be made of ``symmetry``'s orbits (the
        request's own symmetry, or the one drawn for a puzzle when it asks for ``random``)."""
        clues = self.clues
        if clues is None or symmetry in ("random", "none"):
            return
        if not (reachable(self.shape, symmetry) >> clues) & 1:
            raise ValueError(
                f"clues={clues} is impossible with symmetry {symmetry!r}: its orbits (of "
                f"sizes {sorted({len(o) for o in orbits(self.shape, symmetry)})}) cannot add "
                f"up to {clues}"
            )


def check_timeout(timeout: float | None) -> None:
    """Raise ValueError unless ``timeout`` is None or a positive number of seconds."""
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be positive, got {timeout}")


class DigFields(TypedDict, total=False):
    """The fields of a :class:`Dig` as keyword arguments (the library's sugar: every function
    that takes a Dig takes these too, and they change its fields)."""

    shape: Shape | str | None
    symmetry: str | None
    clues: int | None
    max_clues: int | None
    minimal: bool | None
    rules: Rules | str | None
    cage_sizes: tuple[int, int] | str | None


def as_dig(dig: Dig | None, **fields: Any) -> Dig:
    """``dig`` with the fields given (not None) changed, or a new :class:`Dig` of them: where
    keyword arguments become one value (a :class:`~sudokit.difficulty.Request` stays one)."""
    given = {k: v for k, v in fields.items() if v is not None}
    if dig is None:
        return Dig(**given)
    given = {k: v for k, v in given.items() if getattr(dig, k) != v}
    if not given:
        return dig  # nothing changes: the value made and checked already
    if "minimal" not in given and ("clues" in given or "max_clues" in given):
        given["minimal"] = None  # resolved again for the new clue target
    return replace(dig, **given)


class Acceptance(Protocol):
    """A test every puzzle must pass besides its clue target, set by a layer above the
    generator (difficulty targets, see :mod:`sudokit.difficulty`): the generator knows nothing
    of what it tests.

    - ``logic``: the engine's dig constraint, one of ``_engine.LOGIC_NONE``, ``LOGIC_BOX``,
      ``LOGIC_HIDDEN``, ``LOGIC_SINGLES`` (keep a removal only while singles of that kind still
      solve the puzzle), so that easy targets are met while digging;
    - ``judge(found, deadline)``: how far ``found`` is from passing (0.0: it passes), and the
      result to keep (``found`` itself, or a richer one such as a rated puzzle). It may raise
      TimeoutError past ``deadline`` (a ``time.monotonic()`` value);
    - ``describe()``: what it asks for, for error messages ("ER 6.1-20.0");
    - ``summary(found)``: what a judged result came to, for error messages (", ER 5.8").

    Acceptances travel to worker processes, so they must pickle.
    """

    @property
    def logic(self) -> int: ...

    def judge(self, found: Generated, deadline: float | None) -> tuple[float, Generated]: ...

    def describe(self) -> str: ...

    def summary(self, found: Generated) -> str: ...


def _choose_symmetry(
    symmetry: str, seed: int, index: int, kept: tuple[str, ...] = tuple(SYMMETRIES)
) -> str:
    if symmetry != "random":
        return symmetry
    names = [s for s in kept if s != "none"] or ["none"]
    return names[derive_seed(seed, index, -1) % len(names)]


def generate(
    dig: Dig | None = None,
    *,
    seed: int | None = None,
    index: int = 0,
    timeout: float | None = 60.0,
    accept: Acceptance | None = None,
    **fields: Unpack[DigFields],
) -> Generated:
    """Make one puzzle with exactly one solution.

    - ``dig``: what to dig (a :class:`Dig`); or its fields as keywords (``shape``,
      ``symmetry``, ``clues``, ``max_clues``, ``minimal``, ``rules``), which change those of
      ``dig``.
    - ``seed``: the result is a function of the arguments and the seed (random when None; the
      seed used is in the result). ``index`` picks the puzzle's place in a batch.
    - ``timeout``: when a target cannot be met from one full grid, new grids are tried for up to
      this many seconds, then :class:`GenerationError` says what was tried and holds the
      closest result in ``closest``.
    - ``accept``: a further test each puzzle must pass (:class:`Acceptance`); difficulty
      targets come this way from :func:`sudokit.difficulty.generate`, which is
      ``sudokit.generate``.
    """
    dig = as_dig(dig, **fields)
    check_timeout(timeout)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    shape, clues, max_clues, minimal = dig.shape, dig.clues, dig.max_clues, dig.minimal
    classic = dig.rules == CLASSIC
    sym = _choose_symmetry(
        dig.symmetry, seed, index, tuple(SYMMETRIES) if classic else dig.symmetries
    )
    if sym != dig.symmetry:
        dig.check_reachable(sym)
    ids = orbit_ids(shape, sym)
    budget = _budget(shape)
    # What the engine digs to, and what a result must meet.
    target = 0 if minimal else (clues if clues is not None else max_clues or 0)
    exact = clues is not None and not minimal

    def meets(count: int) -> bool:
        if clues is not None:
            return count == clues
        return max_clues is None or count <= max_clues

    goal = clues if clues is not None else max_clues
    logic = accept.logic if accept is not None else _engine.LOGIC_NONE
    deadline = None if timeout is None else time.monotonic() + timeout
    closest: Generated | None = None
    best = (float("inf"), float("inf"))
    attempt = 0
    killer = is_killer(dig.rules)  # a fresh cage layout each attempt, made by the engine
    while True:
        if killer:
            caged, puzzle, solution, proven, tries = _killer(dig, seed, index, attempt, deadline)
            attempt += tries
            made_p, made_s = (Grid.unchecked(shape, g, rules=caged) for g in (puzzle, solution))
            result = Generated(made_p, made_s, seed, index, sym, proven, proven, attempt)
            count = result.clues  # (the givens asked for: the engine places exactly those)
        else:
            engine_seed = derive_seed(seed, index, attempt) & _SEED_MASK
            rules = None if classic else dig.rules_of(seed, index, attempt)
            attempt += 1
            if rules is None:
                made = _engine.generate(
                    shape.box_rows, shape.box_cols, engine_seed, ids, target, exact, budget, logic
                )
            else:
                blob = geometry(shape, rules).blob
                made = _engine.generate(
                    shape.box_rows,
                    shape.box_cols,
                    engine_seed,
                    ids,
                    target,
                    exact,
                    _budget(shape, rules),
                    logic,
                    blob,
                    _LAYOUT_GRID_NODES * shape.size if dig.random_layout else 0,
                )
                if made is None:  # no complete grid (none found within the engine's budget)
                    if dig.random_layout:
                        continue  # another layout
                    raise InvalidRulesError(
                        f"rules {short(rules)!r} on shape {shape}: no complete grid found"
                    )
            assert made is not None  # (classic rules always have a complete grid)
            puzzle, solution, count, exhausted, gave_up = made
            if exact and count < target:  # pragma: no cover - the engine never overshoots
                raise AssertionError("engine dug below its target")
            result = _facts(
                Grid.unchecked(shape, puzzle, rules=rules),
                Grid.unchecked(shape, solution, rules=rules),
                sym,
                seed,
                index,
                attempt,
                exhausted and not logic,
                gave_up,
            )
        clue_gap = 0 if meets(count) else abs(count - goal) if goal is not None else 1
        gap = 0.0
        if accept is not None and not clue_gap:
            try:
                gap, result = accept.judge(result, deadline)
            except TimeoutError:  # a judgement that would run past the deadline: give up now
                gap = float("inf")
        if not clue_gap and not gap:
            return _with_minimal(result)
        if (clue_gap, gap) < best:
            best, closest = (clue_gap, gap), _with_minimal(result)
        if deadline is not None and time.monotonic() > deadline:
            wanted = []
            if clues is not None or max_clues is not None:
                wanted.append(
                    f"exactly {clues} clues" if clues is not None else f"at most {max_clues} clues"
                )
            if accept is not None:
                wanted.append(accept.describe())
            assert closest is not None
            near = f"{closest.clues} clues"
            if accept is not None:
                near += accept.summary(closest)
            kind = (
                f"{'minimal ' if minimal else ''}{'' if classic else short(str(dig.rules)) + ' '}"
            )
            raise GenerationError(
                f"no {kind}{shape.n}x{shape.n} puzzle (boxes {shape}) "
                f"with {' and '.join(wanted)} (symmetry {sym}) in {attempt} full grids within "
                f"{timeout:g} s; the closest had {near}",
                closest=closest,
            )


def _killer(
    dig: Dig, seed: int, index: int, attempt: int, deadline: float | None
) -> tuple[Rules, bytes, bytes, bool | None, int]:
    sym = _choose_symmetry(dig.symmetry, seed, index, dig.symmetries)
    seeds = lambda k: derive_seed(seed, index, attempt + k) & _SEED_MASK  # noqa: E731
    return make_killer(dig, sym, seeds, deadline)


def _facts(
    puzzle: Grid,
    solution: Grid,
    symmetry: str,
    seed: int,
    index: int,
    attempts: int,
    exhausted: bool,
    gave_up: bool,
) -> Generated:
    """The facts of a dug puzzle; with a symmetry, ``minimal`` is left for
    :func:`_with_minimal` (most puzzles a target rejects are never asked)."""
    orbit_minimal: bool | None = True if exhausted and not gave_up else None
    minimal = orbit_minimal if symmetry == "none" else None
    return Generated(
        puzzle=puzzle,
        solution=solution,
        seed=seed,
        index=index,
        symmetry=symmetry,
        minimal=minimal,
        orbit_minimal=orbit_minimal,
        attempts=attempts,
    )


_G = TypeVar("_G", bound=Generated)


def _with_minimal(found: _G) -> _G:
    """``found`` (a result of :func:`_facts`, or what an acceptance made of it) with whether
    it is minimal, which a symmetric dig does not tell."""
    shape = found.puzzle.shape
    if found.symmetry == "none" or shape.n > 16 or found.puzzle.rules.cages is not None:
        return found
    return replace(found, minimal=is_minimal(found.puzzle, found.solution))


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class _Task(Generic[R]):
    indexes: range
    options: dict[str, object]
    render: Callable[[list[Generated]], R]


def _run(task: _Task[R]) -> R:
    made = [generate(index=i, **task.options) for i in task.indexes]  # type: ignore[arg-type]
    return task.render(made)


def generate_many(
    count: int,
    dig: Dig | None = None,
    *,
    seed: int | None = None,
    start: int = 0,
    jobs: int = 1,
    timeout: float | None = 60.0,
    chunk: int | None = None,
    accept: Acceptance | None = None,
    cluster: str | None = None,
    **fields: Unpack[DigFields],
) -> PuzzleStream:
    """``count`` puzzles, indexes ``start .. start+count-1``, in order, as a
    :class:`PuzzleStream` (an iterator; options are checked at once, work starts on demand).

    Puzzle ``i`` is ``generate(..., seed=seed, index=i)``: the same whatever ``jobs`` is. With
    ``jobs > 1`` the work is spread over that many processes, a chunk of indexes at a time.
    ``chunk`` fixes the chunk size; by default chunks are big for quick 9x9 puzzles and small
    for slow ones, and shrink as the work runs out. ``cluster`` (an address, see
    :mod:`sudokit.cluster`) runs the chunks as tasks on a Dask cluster instead of ``jobs``
    processes; the puzzles are the same.
    """
    dig = as_dig(dig, **fields)
    check_timeout(timeout)
    shape = dig.shape
    if count < 0:
        raise ValueError(f"count must be at least 0, got {count}")
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if chunk is not None:
        sizes = (chunk, chunk)
    elif shape.n > 9:
        sizes = CHUNKS_BIG
    elif accept is not None:
        sizes = CHUNKS_SLOW
    elif cluster is not None:
        sizes = CHUNKS_CLUSTER
    else:
        sizes = CHUNKS_QUICK
    options: dict[str, object] = {
        "dig": dig,
        "seed": seed,
        "timeout": timeout,
        "accept": accept,
    }
    plan = plan_chunks(start, count, jobs, sizes, cluster=cluster is not None and chunk is None)
    return PuzzleStream(plan, options, cluster)


class PuzzleStream(Iterator[Generated]):
    """The puzzles of :func:`generate_many`, in index order.

    Iterate over it for the puzzles one by one, or, instead, call :meth:`rendered` for them a
    chunk at a time, turned into whatever the caller needs where they were made.
    """

    def __init__(
        self,
        plan: tuple[int, Callable[[int], Iterator[range]]],
        options: dict[str, object],
        cluster: str | None = None,
    ) -> None:
        self._plan: tuple[int, Callable[[int], Iterator[range]]] | None = plan
        self._options = options
        self._cluster = cluster
        self._puzzles: Iterator[Generated] | None = None
        self._running: Generator[Any, None, None] | None = None

    def __next__(self) -> Generated:
        if self._puzzles is None:
            self._puzzles = chain.from_iterable(self.rendered(Batch))
        return next(self._puzzles)

    def rendered(self, render: Callable[[list[Generated]], R]) -> Iterator[R]:
        """The puzzles as ``render(chunk)`` for consecutive chunks, in order.

        ``render`` runs where the chunk was made: in a worker process when ``jobs > 1`` or on
        a cluster's worker (then it and what it returns must pickle), so turning puzzles into
        output there (``sudokit generate`` formats its records this way) leaves the main
        process only the writing.
        How the puzzles are split into chunks depends on ``count`` and ``jobs`` unless
        ``chunk`` fixes it; only the puzzles, in order, are the same whatever ``jobs`` is, so a
        ``render`` whose result depends on the split gives output that does too.

        A stream runs once: this raises RuntimeError when it has started already.
        """
        if self._plan is None:
            raise RuntimeError("this stream of puzzles has started already; ask for a new one")
        (jobs, chunks), self._plan = self._plan, None
        options = self._options

        def tasks(width: int) -> Iterator[_Task[R]]:
            return (_Task(r, options, render) for r in chunks(width))

        running = ordered_map(_run, tasks, jobs=jobs, cluster=self._cluster)
        self._running = running
        return running

    def close(self) -> None:
        """Stop now rather than when the stream is collected: no more chunks start, and the
        worker processes are stopped at once."""
        self._plan = None
        self._puzzles = iter(())
        if self._running is not None:
            self._running.close()


def _facts_getter(kind: type[Generated]) -> Callable[[Generated], tuple[Any, ...]]:
    """The fields of ``kind`` (Generated or a subclass) after the two grids, as one tuple:
    what Batch sends as plain values."""
    names = tuple(f.name for f in fields(kind)[2:])
    return attrgetter(*names)


class Batch(list[Generated]):
    """Consecutive generated puzzles, pickled compactly for the trip back from a worker.

    The cells of every grid travel end to end in two byte strings, and the other fields as a
    plain tuple a puzzle: far cheaper to pickle and unpickle than each ``Generated`` with its
    two grids, and unpickling is all the main process does for a batch.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        kind = type(self[0]) if self else Generated
        if not self or any(
            type(g) is not kind
            or g.shape != self[0].shape
            or type(g.puzzle) is not type(self[0].puzzle)  # a grid's class holds its rules
            for g in self
        ):
            return (Batch, (list(self),))  # mixed kinds, shapes or rules: the plain way
        facts_of = _facts_getter(kind)
        facts = [facts_of(g) for g in self]
        puzzles = b"".join(g.puzzle.cells for g in self)
        solutions = b"".join(g.solution.cells for g in self)
        rules = None if type(self[0].puzzle) is Grid else self[0].puzzle.rules
        return (_unpack, (kind, self[0].shape, puzzles, solutions, facts, rules))


def _unpack(
    kind: type[Generated],
    shape: Shape,
    puzzles: bytes,
    solutions: bytes,
    facts: list[tuple[Any, ...]],
    rules: Rules | None = None,
) -> Batch:
    size = shape.size
    grid = partial(Grid.unchecked, rules=rules) if rules is not None else Grid.unchecked
    batch = Batch()
    for i, fact in enumerate(facts):
        cells = slice(i * size, (i + 1) * size)
        batch.append(kind(grid(shape, puzzles[cells]), grid(shape, solutions[cells]), *fact))
    return batch
