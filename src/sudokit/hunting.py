"""The hunt: vicinity search for puzzles of high SE rating, new ones only.

Terms (the method and its choices in full: ``docs/hunt.md`` in the repository):

- A **vicinity** ``{-k+m}`` of a puzzle: take ``k`` of its clues away and put ``m`` clues
  back in other cells (cells that were empty, not the ones just emptied), with any digits. A
  **neighbour** is one such puzzle that still has exactly one solution; its digits are drawn
  so that draws with no solution at all are not made (see ``_draw``).
- The neighbours are **minimised** by default (clues that can go without losing uniqueness
  go, in a random order) and then identified by their canonical id (:mod:`sudokit.canon`),
  so that isomorphs count once.
- A **find** is a new neighbour (not an isomorph of a seed, of an earlier find, of anything
  rated before in the run, or of a puzzle the caller already holds, such as the bank's) whose
  exact SE rating is at least ``min_er``.
- Cheap filters first: uniqueness by the exact engine, in one call into C for a whole chunk;
  then the **screen** (:func:`sudokit.rating.screen`): the SE path with only the techniques
  rated below ``min_er``, stopping at the first step rated ``min_er`` or more; a puzzle it
  solves is rated below ``min_er`` and dropped (its rating is exact all the same). Only the
  survivors' paths go on to the exact rating, from where the screen stopped.
- The **pool**: the puzzles that seed the next rounds. It starts with the caller's seeds
  and takes every newly rated neighbour, finds and near misses alike (the screen rates the
  near misses exactly for free), keeping the ``pool`` best by (explorations, -ER). Each round
  explores the first ``round_size`` of it: the hardest puzzles explored least often, so the
  search climbs from easy random seeds and stays on the hardest ground from hard ones; a
  seed whose ER is unknown (a file stating none) counts as the hardest.

The work comes in two pure functions of picklable tasks, which any executor may run
(:func:`sudokit._parallel.ordered_map`: a process pool, or a Dask cluster with ``cluster``):
:func:`explore` (a seed, a vicinity, a count and an rng seed -> the unique, minimised
neighbours with their canonical ids) and :func:`judge` (puzzles and ``min_er`` -> their
ratings). The driver,
:func:`hunt`, dedupes between them and keeps the pool; with ``jobs=1`` (or any ``jobs``:
results come back in order) the finds are a function of the seeds, the options and ``seed``.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from . import _engine
from ._grid import Grid, batch_shape
from ._parallel import cluster_session, ordered_map, stop_pool, width_of, worker_pool
from ._shape import Shape
from .canon import forms_of_cells, ids_of_forms
from .difficulty import Rated
from .engine import search_cells
from .generator import derive_seed, generate, is_minimal, minimise, symmetry_of
from .rating import Rating, screen

if TYPE_CHECKING:
    from .cluster import Connection

__all__ = [
    "Explore",
    "Explored",
    "Find",
    "HuntStats",
    "Judge",
    "Judged",
    "Vicinity",
    "explore",
    "hunt",
    "judge",
]

STAGES = ("neighbours", "uniqueness", "minimise", "canon", "filter", "exact")


@dataclass(frozen=True, slots=True)
class Vicinity:
    """``{-remove+add}``: take ``remove`` clues away, put ``add`` clues in other cells."""

    remove: int
    add: int

    def __post_init__(self) -> None:
        if self.remove < 0 or self.add < 0 or self.remove + self.add < 1:
            raise ValueError(
                f"a vicinity removes or adds at least one clue, got -{self.remove}+{self.add}"
            )

    @classmethod
    def parse(cls, text: str) -> Vicinity:
        """``-2+2``, ``{-2+2}``, ``-1+0`` (the forum's notation).

        >>> Vicinity.parse("{-2+1}")
        Vicinity(remove=2, add=1)
        """
        m = re.fullmatch(r"\s*\{?\s*-(\d+)\s*\+(\d+)\s*\}?\s*", text)
        if m is None:
            raise ValueError(f"vicinity {text!r} is not of the form -K+M (for example -2+2)")
        return cls(int(m.group(1)), int(m.group(2)))

    def __str__(self) -> str:
        return f"-{self.remove}+{self.add}"


# Exploring: a seed's neighbours -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Explore:
    """A task of :func:`explore`: ``count`` draws from the vicinity of ``puzzle``."""

    puzzle: Grid
    vicinity: Vicinity
    count: int
    seed: int
    minimise: bool = True


@dataclass(frozen=True, slots=True)
class Explored:
    """What :func:`explore` made of a task: the distinct unique (minimised) neighbours as
    cells back to back, their solutions likewise, their canonical ids and minimality, and
    what it counted and timed (``tried``: neighbours drawn; ``unique``: of those, unique)."""

    shape: Shape
    puzzles: bytes
    solutions: bytes
    ids: tuple[str, ...]
    minimal: tuple[bool | None, ...]
    tried: int
    unique: int
    seconds: dict[str, float]


@lru_cache(maxsize=16)
def _peers(shape: Shape) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(p)) for p in shape.peers)


def _draw(
    puzzle: bytes,
    solution: bytes,
    shape: Shape,
    vicinity: Vicinity,
    rng: random.Random,
    spots: tuple[list[int], list[int]] | None = None,
) -> bytes | None:
    """One draw from the vicinity of ``puzzle`` (whose one solution is ``solution``), or None
    when the draw can have no solution. ``spots``: the puzzle's clue cells and empty cells,
    when the caller has them.

    Adding clues only takes solutions away, so a neighbour that is unique has one of the
    solutions of the puzzle with the ``k`` clues removed. The ``m`` digits are therefore
    read from such a solution: half the draws the seed's own, the others one found by the
    exact engine with one added cell forced to another digit than the seed's (a digit its
    peers allow). Every unique neighbour can still be drawn; draws that have no solution
    for sure are not made.
    """
    clues, empty = spots if spots is not None else _spots(puzzle)
    if len(clues) < vicinity.remove or len(empty) < vicinity.add:
        return None
    cells = bytearray(puzzle)
    for c in rng.sample(clues, vicinity.remove):
        cells[c] = 0
    chosen = rng.sample(empty, vicinity.add)  # cells empty in the seed: not the ones emptied
    target = solution
    if chosen and rng.random() < 0.5:
        first = chosen[0]
        held = {cells[p] for p in _peers(shape)[first]} | {solution[first]}
        free = [d for d in range(1, shape.n + 1) if d not in held]
        if not free:
            return None
        cells[first] = rng.choice(free)
        found, _ = _engine.solve(shape.box_rows, shape.box_cols, bytes(cells))
        if found is None:
            return None
        target = found
    for c in chosen:
        cells[c] = target[c]
    return bytes(cells)


def _spots(puzzle: bytes) -> tuple[list[int], list[int]]:
    """The clue cells and the empty cells of ``puzzle``."""
    return [c for c, v in enumerate(puzzle) if v], [c for c, v in enumerate(puzzle) if not v]


def explore(task: Explore) -> Explored:
    """Draw ``task.count`` neighbours of ``task.puzzle``, keep the unique ones (one call into
    the exact engine), minimise them (unless asked not to), and give each its canonical id;
    isomorphs among them and the seed itself come back once at most. A pure function of the
    task."""
    seconds = dict.fromkeys(STAGES[:4], 0.0)
    shape = task.puzzle.shape
    size = shape.size
    rng = random.Random(task.seed)
    t0 = time.process_time()
    drawn: dict[bytes, None] = {}
    seed_solution, _ = _engine.solve(shape.box_rows, shape.box_cols, task.puzzle.cells)
    if seed_solution is None:
        raise ValueError(f"seed {task.puzzle.to_line()} has no solution")
    spots = _spots(task.puzzle.cells)
    for _ in range(task.count):
        cells = _draw(task.puzzle.cells, seed_solution, shape, task.vicinity, rng, spots)
        if cells is not None and cells != task.puzzle.cells:
            drawn.setdefault(cells)
    batch = list(drawn)
    t1 = time.process_time()
    seconds["neighbours"] = t1 - t0
    solutions, counts = search_cells(shape, b"".join(batch), 2) if batch else (b"", [])
    t2 = time.process_time()
    seconds["uniqueness"] = t2 - t1
    kept: list[tuple[bytes, bytes, bool | None]] = []
    for k, count in enumerate(counts):
        if count != 1:
            continue
        puzzle = Grid.unchecked(shape, batch[k])
        solution = Grid.unchecked(shape, solutions[k * size : (k + 1) * size])
        if task.minimise:
            puzzle, minimal = minimise(puzzle, solution, seed=rng.getrandbits(64))
        else:
            minimal = is_minimal(puzzle, solution)
        kept.append((puzzle.cells, solution.cells, minimal))
    t3 = time.process_time()
    seconds["minimise"] = t3 - t2
    ids = ids_of_forms(shape, forms_of_cells(shape, b"".join(p for p, _, _ in kept)))
    seen: set[str] = set()
    out: list[int] = []
    for k, i in enumerate(ids):
        if i not in seen:
            seen.add(i)
            out.append(k)
    seconds["canon"] = time.process_time() - t3
    return Explored(
        shape,
        b"".join(kept[k][0] for k in out),
        b"".join(kept[k][1] for k in out),
        tuple(ids[k] for k in out),
        tuple(kept[k][2] for k in out),
        len(batch) if task.count else 0,
        sum(1 for c in counts if c == 1),
        seconds,
    )


# Judging: the screen, then the exact rating -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Judge:
    """A task of :func:`judge`: rate ``puzzles`` (cells back to back) against ``min_er``."""

    shape: Shape
    puzzles: bytes
    min_er: float


@dataclass(frozen=True, slots=True)
class Judged:
    """The ratings :func:`judge` gave (exact, without step paths), whether each passed the
    screen, and the seconds the screen and the exact ratings took."""

    ratings: tuple[Rating, ...]
    passed: tuple[bool, ...]
    seconds: dict[str, float]


def judge(task: Judge) -> Judged:
    """The exact rating of each puzzle, the cheap way for those below ``min_er``: the screen
    (:func:`sudokit.rating.screen`) rates them, and only the others' paths go on. A pure
    function of the task."""
    size = task.shape.size
    ratings: list[Rating] = []
    passed: list[bool] = []
    seconds = {"filter": 0.0, "exact": 0.0}
    for k in range(0, len(task.puzzles), size):
        puzzle = Grid.unchecked(task.shape, task.puzzles[k : k + size])
        t0 = time.process_time()
        screened = screen(puzzle, task.min_er)
        t1 = time.process_time()
        seconds["filter"] += t1 - t0
        rating = screened.finish()
        seconds["exact"] += time.process_time() - t1
        ratings.append(Rating(rating.er, rating.ep, rating.ed, rating.solved, rating.hardest))
        passed.append(screened.passed)
    return Judged(tuple(ratings), tuple(passed), seconds)


# The driver ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Find(Rated):
    """A find: a :class:`~sudokit.Rated` puzzle (``seed`` is the run's seed, ``index`` the
    find's number in the run), its canonical ``id`` and the puzzle it came from
    (``origin``)."""

    id: str = ""
    origin: Grid | None = None


@dataclass
class HuntStats:
    """What a hunt has done so far: neighbours ``tried`` (drawn), ``unique``, ``new`` (after
    minimising and the canonical dedupe, not seen before: these are rated), ``survived``
    (passed the screen), ``found``; finds by ER band (half points), CPU seconds per stage
    (summed over the workers: on a busy machine, wall-clock time says more of the others' work
    than of the hunt's), wall-clock seconds and the number of worker processes."""

    tried: int = 0
    unique: int = 0
    new: int = 0
    survived: int = 0
    found: int = 0
    rounds: int = 0
    bands: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    elapsed: float = 0.0
    jobs: int = 1

    @property
    def per_hour(self) -> float:
        """Finds per hour of wall-clock time."""
        return self.found * 3600.0 / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def per_core_hour(self) -> float:
        """Finds per core-hour: per hour of wall-clock time of each worker process."""
        return self.per_hour / self.jobs

    @property
    def per_cpu_hour(self) -> float:
        """Finds per hour of CPU time spent in the stages (what a core-hour gives on a machine
        with nothing else to do)."""
        cpu = sum(self.seconds.values())
        return self.found * 3600.0 / cpu if cpu > 0 else 0.0

    def add_seconds(self, seconds: dict[str, float]) -> None:
        for k, v in seconds.items():
            self.seconds[k] += v

    def summary(self) -> str:
        """The end-of-run report, several lines of text."""
        total = sum(self.seconds.values()) or 1.0
        stages = ", ".join(
            f"{k} {v:.1f} s ({100 * v / total:.0f}%)" for k, v in self.seconds.items()
        )
        bands = ", ".join(f"{k}: {v}" for k, v in sorted(self.bands.items())) or "none"
        return (
            f"neighbours tried {self.tried}, unique {self.unique}, rated {self.new}, "
            f"survived the screen {self.survived}, found {self.found}\n"
            f"found by ER band: {bands}\n"
            f"CPU time per stage: {stages}\n"
            f"{self.elapsed:.1f} s on {self.jobs} process(es): {self.per_hour:.0f} finds per "
            f"hour, {self.per_core_hour:.0f} per core-hour, {self.per_cpu_hour:.0f} per hour "
            "of CPU in the stages\n"
        )

    def progress(self) -> dict[str, object]:
        """The figures a progress line shows."""
        return {
            "tried": self.tried,
            "unique": self.unique,
            "rated": self.new,
            "survived": self.survived,
            "found": self.found,
            "per_hour": round(self.per_hour),
        }


def band(er: float) -> str:
    """The half-point ER band of ``er``: ``"10.0-10.4"``."""
    lo = int(round(er, 1) * 2) / 2
    return f"{lo:.1f}-{lo + 0.4:.1f}"


@dataclass
class _Seed:
    puzzle: Grid
    er: float | None  # None: not known (rank as the hardest)
    order: int
    visits: int = 0

    def hardness(self) -> float:
        return self.er if self.er is not None else 99.0

    def next_key(self) -> tuple[int, float, int]:
        """The order seeds are explored in: least explored, then hardest, then oldest."""
        return (self.visits, -self.hardness(), self.order)

    def keep_key(self) -> tuple[float, int, int]:
        """The order the pool keeps them in: hardest, then least explored, then oldest."""
        return (-self.hardness(), self.visits, self.order)


def _random_seeds(count: int, seed: int, min_er: float) -> list[tuple[Grid, float]]:
    """``count`` random minimal puzzles, rated (cheaply below ``min_er``)."""
    out = []
    for i in range(count):
        p = generate(seed=derive_seed(seed, -2), index=i, symmetry="none", timeout=None)
        out.append((p.puzzle, screen(p.puzzle, min_er).finish().er))
    return out


def hunt(
    seeds: Iterable[Grid | str | tuple[Grid | str, float | None]] | None = None,
    *,
    min_er: float,
    vicinity: Vicinity | str = Vicinity(1, 1),
    minimise: bool = True,
    seed: int | None = None,
    jobs: int = 1,
    count: int | None = None,
    time_limit: float | None = None,
    known: Callable[[Sequence[str]], set[str]] | None = None,
    pool: int = 256,
    round_size: int | None = None,
    per_seed: int = 200,
    random_seeds: int = 32,
    start: int = 0,
    stats: HuntStats | None = None,
    on_round: Callable[[HuntStats], None] | None = None,
    cluster: str | None = None,
) -> Generator[Find, None, None]:
    """Search the vicinities of ``seeds`` for new puzzles of ER ``min_er`` or more; yield
    each find as soon as its round is rated (see the module's terms).

    - ``seeds``: grids, or (grid, ER) pairs when the ER is known; None: ``random_seeds``
      random minimal puzzles made from ``seed``. Seeds of other shapes than the first are
      ValueError.
    - ``vicinity``: ``Vicinity`` or its text (``"-2+2"``); ``minimise``: minimal finds only
      (False: keep the neighbours as drawn; ``minimal`` then says whether each is).
    - ``seed``: the run is a function of the seeds, the options and it (random when None);
      ``start``: the number of finds made before (a resumed run): the finds are numbered from
      it and the draws differ from the first run's.
    - ``count``, ``time_limit`` (seconds): stop after that many finds, or after the round
      that passes the time (at least one round is run); None and None: until stopped.
    - ``jobs``: worker processes; ``known``: a function telling which canonical ids are held
      elsewhere (the bank's :meth:`~sudokit.bank.Bank.held`), never rated nor yielded.
    - ``cluster``: the address of a Dask cluster to run the rounds' tasks on instead of
      ``jobs`` processes (:mod:`sudokit.cluster`; connected once for the run); its width
      (worker threads) stands for ``jobs``, so the finds are those of ``jobs`` = that width.
    - ``pool``, ``round_size`` (default ``max(4, 2 * jobs)``), ``per_seed``: the pool's size,
      the seeds explored a round, and the neighbours drawn from each.
    - ``stats`` is updated as the work goes on; ``on_round`` is called with it after each
      round and when ``count`` is reached (progress reports: the library never prints).
    """
    if not 1.0 <= min_er <= 20.0:
        raise ValueError(f"min_er must be on Sudoku Explainer's scale, 1.0-20.0, got {min_er}")
    for name, value in (("pool", pool), ("per_seed", per_seed), ("jobs", jobs)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    if count is not None and count < 0:
        raise ValueError(f"count must be at least 0, got {count}")
    if isinstance(vicinity, str):
        vicinity = Vicinity.parse(vicinity)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    with cluster_session(cluster) as where:
        yield from _hunt(
            seeds,
            min_er=min_er,
            vicinity=vicinity,
            minimise=minimise,
            seed=seed,
            jobs=width_of(where, jobs),
            where=where,
            count=count,
            time_limit=time_limit,
            known=known,
            pool=pool,
            round_size=round_size,
            per_seed=per_seed,
            random_seeds=random_seeds,
            start=start,
            stats=stats,
            on_round=on_round,
        )


def _hunt(
    seeds: Iterable[Grid | str | tuple[Grid | str, float | None]] | None,
    *,
    min_er: float,
    vicinity: Vicinity,
    minimise: bool,
    seed: int,
    jobs: int,
    where: str | Connection | None,
    count: int | None,
    time_limit: float | None,
    known: Callable[[Sequence[str]], set[str]] | None,
    pool: int,
    round_size: int | None,
    per_seed: int,
    random_seeds: int,
    start: int,
    stats: HuntStats | None,
    on_round: Callable[[HuntStats], None] | None,
) -> Generator[Find, None, None]:
    """:func:`hunt` once its options are checked, on ``jobs`` processes or the cluster
    session ``where``."""
    rounds = round_size or max(4, 2 * jobs)
    stats = stats if stats is not None else HuntStats()
    stats.jobs = jobs
    began = time.monotonic()
    deadline = None if time_limit is None else began + time_limit

    given: list[tuple[Grid, float | None]]
    if seeds is None:
        given = list(_random_seeds(random_seeds, seed, min_er))
    else:
        # A seed is a Grid or its text (Grid.of), alone or with its ER.
        given = [
            (Grid.of(s[0]), s[1]) if isinstance(s, tuple) else (Grid.of(s), None) for s in seeds
        ]
    if not given:
        raise ValueError("no seeds to hunt from")
    shape = batch_shape([g for g, _ in given])
    size = shape.size
    queue = [_Seed(g, er, k) for k, (g, er) in enumerate(given)]
    seen: set[str] = set(
        ids_of_forms(shape, forms_of_cells(shape, b"".join(g.cells for g, _ in given)))
    )
    order = len(queue)
    found = 0

    # One pool of workers for the whole hunt: rounds can take well under the second it
    # takes to start one.
    before = set(multiprocessing.active_children())
    workers = worker_pool(jobs) if jobs > 1 and where is None else None
    try:
        round_no = 0
        while count is None or found < count:
            queue.sort(key=_Seed.next_key)
            chosen = queue[:rounds]
            tasks = [
                Explore(
                    s.puzzle, vicinity, per_seed, derive_seed(seed, start, round_no, k), minimise
                )
                for k, s in enumerate(chosen)
            ]
            for s in chosen:
                s.visits += 1
            fresh: list[tuple[bytes, bytes, str, bool | None, Grid]] = []
            exploring = ordered_map(explore, tasks, jobs=jobs, pool=workers, cluster=where)
            with closing(exploring) as explored:
                results = list(explored)
            for task, got in zip(tasks, results, strict=True):
                stats.tried += got.tried
                stats.unique += got.unique
                stats.add_seconds(got.seconds)
                for k, i in enumerate(got.ids):
                    if i not in seen:
                        seen.add(i)
                        at = slice(k * size, (k + 1) * size)
                        fresh.append(
                            (got.puzzles[at], got.solutions[at], i, got.minimal[k], task.puzzle)
                        )
            if known is not None and fresh:
                held = known([f[2] for f in fresh])
                fresh = [f for f in fresh if f[2] not in held]
            stats.new += len(fresh)
            # A few puzzles a task: their ratings take from milliseconds to seconds.
            step = 2
            judge_tasks = [
                Judge(shape, b"".join(f[0] for f in fresh[k : k + step]), min_er)
                for k in range(0, len(fresh), step)
            ]
            k = 0
            judging = ordered_map(judge, judge_tasks, jobs=jobs, pool=workers, cluster=where)
            for judged in judging:
                stats.add_seconds(judged.seconds)
                for rating, passed in zip(judged.ratings, judged.passed, strict=True):
                    cells, solution, cid, minimal, origin = fresh[k]
                    k += 1
                    stats.survived += passed
                    puzzle = Grid.unchecked(shape, cells)
                    queue.append(_Seed(puzzle, rating.er, order))
                    order += 1
                    if rating.er < min_er:
                        continue
                    stats.found += 1
                    stats.bands[band(rating.er)] += 1
                    stats.elapsed = time.monotonic() - began
                    yield Find(
                        puzzle=puzzle,
                        solution=Grid.unchecked(shape, solution),
                        seed=seed,
                        index=start + found,
                        symmetry=symmetry_of(puzzle),
                        minimal=minimal,
                        orbit_minimal=None,
                        attempts=1,
                        rating=rating,
                        id=cid,
                        origin=origin,
                    )
                    found += 1
                    if count is not None and found >= count:
                        judging.close()
                        if on_round is not None:
                            on_round(stats)  # the last figures
                        return
                if deadline is not None and time.monotonic() >= deadline:
                    judging.close()  # what is rated is yielded; the rest of the round is dropped
                    break
            queue.sort(key=_Seed.keep_key)
            del queue[pool:]
            round_no += 1
            stats.rounds = round_no
            stats.elapsed = time.monotonic() - began
            if on_round is not None:
                on_round(stats)
            if deadline is not None and time.monotonic() >= deadline:
                return
    finally:
        if workers is not None:
            stop_pool(workers, before)
            workers.shutdown(wait=True)
