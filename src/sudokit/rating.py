"""Difficulty ratings compatible with Sudoku Explainer (SE 1.2.1 / serate 1.2.1.3).

Terms (the rules in full: ``docs/rating.md`` in the repository):

- The solver tries techniques in SE's order and applies the first step found, repeatedly.
- **ER** (the rating) is the highest step rating along that path;
- **EP** (the pearl) is the highest rating up to and including the first step that places a
  value;
- **ED** (the diamond) is the rating of the very first step.
- A puzzle no technique can finish is rated 20.0, as SE does.
- A **pearl** has EP = ER; a **diamond** has ED = EP = ER.

Named levels are SE's generator ranges: Easy 1.0–1.2, Medium 1.3–1.5, Hard 1.6–2.5,
Fiendish 2.6–6.0, Diabolical 6.1 and over. Killer puzzles have levels of their own
(:class:`KillerLevel`): easy (singles and cage combinations alone), medium, hard, extreme.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import lru_cache

from ._grid import Grid, grids_of
from .engine import unique_solution
from .errors import InvalidRulesError, NotUniqueError
from .logic import (
    ALL_ORDER,
    HODOKU_TECHNIQUES,
    KILLER,
    SE_ORDER,
    Candidates,
    PathEnd,
    Step,
    StepPath,
    Technique,
    rules_cut,
    run_path,
    select,
    solve_path,
    with_killer,
)
from .logic.hodoku import HodokuGrade, hodoku_grade
from .rules import Rules

__all__ = [
    "ER_SCALE",
    "KILLER_LEVEL_TECHNIQUES",
    "UNSOLVED_RATING",
    "KillerLevel",
    "Level",
    "Rating",
    "Screened",
    "er_range",
    "hodoku",
    "killer_level",
    "rate",
    "rate_many",
    "screen",
]

#: SE's rating for a puzzle its techniques cannot solve.
UNSOLVED_RATING = 20.0

#: Sudoku Explainer's scale, inclusive: every ER lies in it.
ER_SCALE = (1.0, UNSOLVED_RATING)


def er_range(lo: float, hi: float) -> tuple[float, float]:
    """``(lo, hi)`` when it is a range of ERs on the scale; ValueError naming the problem
    (out of :data:`ER_SCALE`, not a number, backwards) otherwise: a target outside the scale
    can never be met, and quietly narrowing it to the scale would search for something else.

    >>> er_range(6.5, 8)
    (6.5, 8.0)
    """
    low, top = ER_SCALE
    if not (low <= lo <= top and low <= hi <= top):  # also refuses NaN
        what = f"ER {lo:g}" if lo == hi else f"ER range {lo:g}-{hi:g}"
        raise ValueError(f"{what} is outside Sudoku Explainer's scale ({low:g}-{top:g})")
    if lo > hi:
        raise ValueError(f"ER range {lo:g}-{hi:g} is empty")
    return float(lo), float(hi)


def parse_er_range(text: str) -> tuple[float, float]:
    """An ER range written ``LO-HI`` (or one ER), checked as :func:`er_range` checks it.

    >>> parse_er_range("6.5-8"), parse_er_range("7.1")
    ((6.5, 8.0), (7.1, 7.1))
    """
    lo, sep, hi = text.partition("-")
    try:
        low = float(lo)
        high = float(hi) if sep else low
    except ValueError:
        raise ValueError(
            f"expected an ER or ER range: a number, or LO-HI like 6.5-8.0; got {text!r}"
        ) from None
    return er_range(low, high)


class Level(IntEnum):
    """SE's named levels, in order of difficulty."""

    EASY = 1
    MEDIUM = 2
    HARD = 3
    FIENDISH = 4
    DIABOLICAL = 5

    @classmethod
    def of(cls, er: float) -> Level:
        """The level of an ER rating.

        >>> Level.of(1.2).name, Level.of(2.6).name, Level.of(7.1).name
        ('EASY', 'FIENDISH', 'DIABOLICAL')
        """
        r = round(er, 1)
        if r <= 1.2:
            return cls.EASY
        if r <= 1.5:
            return cls.MEDIUM
        if r <= 2.5:
            return cls.HARD
        if r <= 6.0:
            return cls.FIENDISH
        return cls.DIABOLICAL

    @classmethod
    def parse(cls, text: str) -> Level:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(level.name.lower() for level in cls)
            raise ValueError(f"unknown level {text!r}; choose from {names}") from None

    def __str__(self) -> str:
        """The level's name, as users write it (``str(Level.EASY) == "easy"``)."""
        return self.name.lower()

    @property
    def range(self) -> tuple[float, float]:
        """The ER range of the level, inclusive."""
        return _RANGES[self]


_RANGES = {
    Level.EASY: (1.0, 1.2),
    Level.MEDIUM: (1.3, 1.5),
    Level.HARD: (1.6, 2.5),
    Level.FIENDISH: (2.6, 6.0),
    Level.DIABOLICAL: (6.1, UNSOLVED_RATING),
}


class KillerLevel(IntEnum):
    """Killer's named levels, in order of difficulty: the least of these sets of techniques
    that solves the puzzle (:func:`killer_level`; the rating of each killer technique and
    why: ``docs/rating.md``, "Killer"):

    - **easy**: singles and cage combinations (a cage single, the combinations of a cage's
      sum, a digit every combination holds kept to the cage);
    - **medium**: also one innie or outie of a house (the rule of 45), cage and house
      overlap, and SE's pointing and claiming and direct hidden pairs and triples;
    - **hard**: also the rule of 45's virtual cages (two or more innies or outies of a house)
      and its groups of two or three adjacent houses, naked and hidden pairs and triples,
      X-Wings and Swordfish;
    - **extreme**: none of these solves it.
    """

    EASY = 1
    MEDIUM = 2
    HARD = 3
    EXTREME = 4

    @classmethod
    def parse(cls, text: str) -> KillerLevel:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(level.name.lower() for level in cls)
            raise ValueError(f"unknown killer level {text!r}; choose from {names}") from None

    def __str__(self) -> str:
        return self.name.lower()


_KILLER_EASY = ("singles", "cage-combinations")
_KILLER_MEDIUM = (
    *_KILLER_EASY,
    "rule-of-45-single",
    "cage-overlap",
    "direct-intersections",
    "intersections",
    "direct-hidden-pair",
    "direct-hidden-triple",
)
_KILLER_HARD = (
    *_KILLER_MEDIUM,
    "rule-of-45",
    "rule-of-45-groups-single",
    "rule-of-45-groups",
    "naked-pair",
    "hidden-pair",
    "naked-triple",
    "hidden-triple",
    "x-wing",
    "swordfish",
)

#: The techniques of each killer level but the last (names as ``solve_path`` takes them).
KILLER_LEVEL_TECHNIQUES: dict[KillerLevel, tuple[str, ...]] = {
    KillerLevel.EASY: _KILLER_EASY,
    KillerLevel.MEDIUM: _KILLER_MEDIUM,
    KillerLevel.HARD: _KILLER_HARD,
}


@lru_cache(maxsize=8)
def _killer_set(level: KillerLevel) -> tuple[tuple[Technique, ...], frozenset[str]]:
    """The techniques of ``level`` (one tuple, known again by the solver) and the step names
    only they take (a path of those steps alone is theirs: the rule of 45's steps, which
    techniques of several levels take, are not among them below the hard level)."""
    chosen = select(KILLER_LEVEL_TECHNIQUES[level])
    others = {name for t in ALL_ORDER if t not in chosen for name in t.step_names}
    return chosen, frozenset(name for t in chosen for name in t.step_names) - others


def killer_level(puzzle: Grid | Candidates, path: Sequence[Step] | None = None) -> KillerLevel:
    """The killer level of ``puzzle`` (:class:`KillerLevel`): the first level whose
    techniques solve it. ``path``, a path that solved it, spares solving again at each level
    whose techniques took every step of it."""
    used = None if path is None else {_step_name(path, i) for i in range(len(path))}
    for level in (KillerLevel.EASY, KillerLevel.MEDIUM, KillerLevel.HARD):
        chosen, names = _killer_set(level)
        if used is not None and used <= names:
            return level
        start = puzzle.copy() if isinstance(puzzle, Candidates) else puzzle
        if run_path(start, techniques=chosen)[0] is PathEnd.SOLVED:  # (no steps read)
            return level
    return KillerLevel.EXTREME


def _step_name(steps: Sequence[Step], i: int) -> str:
    return steps.technique(i) if isinstance(steps, StepPath) else steps[i].technique


@dataclass(frozen=True)
class Rating:
    """A puzzle's SE ratings, its level, the hardest technique used and the step path."""

    er: float
    ep: float
    ed: float
    solved: bool
    hardest: str | None  # the technique of the first step with the highest rating
    steps: Sequence[Step] = ()  # made when first read (a StepPath) when rate() returns it
    capped: bool = False  # rate() stopped at its max_rating: SE's ER is at least ``er``
    hodoku: HodokuGrade | None = None  # HoDoKu-style level and score, when asked for
    killer: KillerLevel | None = None  # a killer puzzle's level (its cages' rules)

    @property
    def level(self) -> Level:
        """SE's level of the ER (a killer's own level is :attr:`killer`)."""
        return Level.of(self.er)

    @property
    def level_name(self) -> str:
        """The puzzle's level as users read it: the killer level for a killer, else SE's."""
        return str(self.killer) if self.killer is not None else self.level.name.lower()

    def to_dict(self) -> dict[str, object]:
        return {
            "er": self.er,
            "ep": self.ep,
            "ed": self.ed,
            "level": self.level_name,
            "hardest": self.hardest,
            "solved": self.solved,
            **(
                {"hodoku_level": self.hodoku.level, "hodoku_score": self.hodoku.score}
                if self.hodoku is not None
                else {}
            ),
        }

    def __str__(self) -> str:
        """SE's form, ``ED=ER/EP/ED``."""
        return f"ED={self.er:.1f}/{self.ep:.1f}/{self.ed:.1f}"


def hodoku(puzzle: Grid | Candidates | str) -> HodokuGrade:
    """HoDoKu-style grade: solve in HoDoKu's order with HoDoKu's techniques (SE's chains stand
    in for the ones sudokit lacks) and score the path by HoDoKu's rule (see
    :mod:`sudokit.logic.hodoku`). Agrees with HoDoKu 2.2's level on 350 of the 362 puzzles of
    the project's dev set.

    >>> from sudokit import Grid
    >>> easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    >>> hodoku(Grid(easy))
    HodokuGrade(level='Easy', score=196)
    """
    rules = puzzle.rules if isinstance(puzzle, Candidates) else Grid.of(puzzle).rules
    if not rules.is_classic:
        raise InvalidRulesError(
            f"the HoDoKu grade handles classic rules only; this grid has rules {str(rules)!r}"
        )
    result = solve_path(puzzle, techniques=HODOKU_TECHNIQUES)
    return hodoku_grade((s.technique for s in result.steps), solved=result.solved)


def rate(
    puzzle: Grid | Candidates | str,
    *,
    max_rating: float | None = None,
    deadline: float | None = None,
    with_hodoku: bool = False,
) -> Rating:
    """Rate ``puzzle`` as Sudoku Explainer does; ``with_hodoku``: with its HoDoKu grade too
    (:func:`hodoku`) when the path solved it under classic rules (HoDoKu grades no others).
    A killer's rating has its killer level too (:attr:`Rating.killer`).

    With ``max_rating``, give up as soon as the step SE would take next is rated above it; the
    result then has ``capped`` set, ``solved`` False and ``er`` the rating of that step, or of
    the first technique beyond the cap (SE's ER is at least that). Techniques beyond the cap
    are never run, so this is a quick, exact "is it at most this hard?".

    >>> from sudokit import Grid
    >>> easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    >>> r = rate(Grid(easy))
    >>> str(r), r.level.name, r.hardest
    ('ED=1.2/1.2/1.2', 'EASY', 'hidden-single')
    >>> rate(Grid(easy), max_rating=1.0).capped
    True

    With ``deadline`` (a :func:`time.monotonic` value), raise TimeoutError if the path is not
    done by then (checked between steps).

    A grid without exactly one solution has no rating: :class:`~sudokit.errors.NotUniqueError`
    says "no solution" or "more than one solution" at once (a position given as
    :class:`Candidates` is rated as it stands).
    """
    if isinstance(puzzle, Candidates):
        start: Grid | Candidates = puzzle.copy()
    else:
        start = Grid.of(puzzle)  # a Grid, or its text
        unique_solution(start)
    killer = start.rules.cages is not None
    techniques = SE_ORDER if max_rating is None else _up_to(max_rating, killer)
    end, steps = run_path(start, techniques=techniques, stop_above=max_rating, deadline=deadline)
    _check_rules_path(end, techniques, start.rules)
    rating = _rating_of(end, steps, max_rating, killer)
    if killer:
        rating = _with_killer_level(rating, start)
    if with_hodoku and rating.solved and start.rules.is_classic:  # (HoDoKu's: classic only)
        rating = replace(rating, hodoku=hodoku(puzzle if isinstance(puzzle, Candidates) else start))
    return rating


def _check_rules_path(end: PathEnd, techniques: Sequence[Technique], rules: Rules) -> None:
    """Under rules beyond the classic ones the path runs SE's techniques up to the first that
    does not run there yet (:func:`~sudokit.logic.for_rules`): a path stuck there has no SE
    rating, so refuse it, naming that technique, rather than call the puzzle unsolved."""
    if end is not PathEnd.STUCK or rules.is_classic:
        return
    cut = rules_cut(techniques)
    if cut is not None:
        raise InvalidRulesError(
            f"rating under rules {str(rules)!r}: this puzzle needs {cut.slug} or a technique "
            f"after it, which do not run under rules beyond the classic ones yet"
        )


def _with_killer_level(rating: Rating, puzzle: Grid | Candidates) -> Rating:
    """``rating`` with the killer level of ``puzzle``."""
    path = rating.steps if rating.solved else None
    return replace(rating, killer=killer_level(puzzle, path))


@lru_cache(maxsize=64)
def _up_to(max_rating: float, killer: bool = False) -> tuple[Technique, ...]:
    """SE's order (with the killer techniques, for a ``killer``) without the techniques rated
    above ``max_rating`` (one tuple per cap: the solver knows it again by identity)."""
    order = with_killer(SE_ORDER) if killer else SE_ORDER
    return tuple(t for t in order if t.rating <= max_rating)


def _rating_of(
    end: PathEnd, steps: StepPath, max_rating: float | None, killer: bool = False
) -> Rating:
    """The rating of an SE path that ended with ``end`` (its steps; run with the techniques
    up to ``max_rating`` and stopping above it, when that is given). The last step of a
    capped path, not applied, is taken off ``steps``."""
    if end is PathEnd.OUT_OF_TIME:
        raise TimeoutError("the rating ran out of time")
    ratings = steps.ratings()  # the steps' Step objects are made only if someone reads them
    over = None
    if end is PathEnd.CAPPED:
        over = ratings.pop()
        steps = steps.without_last()
    elif end is PathEnd.STUCK and max_rating is not None:
        beyond = (*SE_ORDER, *KILLER) if killer else SE_ORDER  # (a killer's path takes both)
        over = min((t.rating for t in beyond if t.rating > max_rating), default=UNSOLVED_RATING)
    er = ep = ed = 0.0  # ep stays 0 until a step places a value, as in SE
    hardest = None  # the technique of the first step with the highest rating
    if ratings:
        er, ed = max(ratings), ratings[0]
        hardest = steps.technique(ratings.index(er))
        first = steps.first_placing()
        if first is not None:
            ep = max(ratings[: first + 1])
    if over is not None:
        return Rating(over, ep, ed, False, hardest, steps, capped=True)
    if end is PathEnd.STUCK:
        return Rating(UNSOLVED_RATING, ep, ed, False, hardest, steps)
    return Rating(round(er, 1), round(ep, 1), round(ed, 1), True, hardest, steps)


@dataclass
class Screened:
    """A puzzle's SE path run only as far as it takes to tell whether its ER is below a
    ``floor`` (see :func:`screen`).

    ``rating`` is the exact rating when the path solved the puzzle below the floor
    (``passed`` False); when it reached a step rated at the floor or more (``passed`` True),
    ``rating`` is capped (SE's ER is at least ``rating.er``) and :meth:`finish` goes on from
    where the path stopped to the exact rating, without running the cheap part again.
    """

    rating: Rating
    _state: Candidates
    _cap: float
    _start: Grid | None = None  # the puzzle (a killer's level is found from it)

    @property
    def passed(self) -> bool:
        return self.rating.capped

    def finish(self, *, deadline: float | None = None) -> Rating:
        """The exact rating: the path goes on with every technique from where it stopped.
        Raises TimeoutError past ``deadline`` (a :func:`time.monotonic` value)."""
        if not self.passed:
            return self.rating
        end, rest = run_path(self._state.copy(), techniques=SE_ORDER, deadline=deadline)
        _check_rules_path(end, SE_ORDER, self._state.rules)
        steps = StepPath(self._state.shape, steps=(*self.rating.steps, *rest))
        rating = _rating_of(end, steps, None)
        if self._start is not None and self._start.rules.cages is not None:
            rating = _with_killer_level(rating, self._start)
        return rating


#: How far below a floor the screen's cap sits: step ratings are rounded to a tenth, so a
#: step the rating shows as the floor (9.96 shows as 10.0) stops the screen.
_FLOOR_MARGIN = 0.05


def screen(puzzle: Grid | str, floor: float, *, deadline: float | None = None) -> Screened:
    """Run ``puzzle``'s SE path with the techniques rated below ``floor`` only, stopping at
    the first step rated ``floor`` or more: the cheap half of "is its ER at least
    ``floor``?". Below the floor the result is the exact rating; at or above it,
    :meth:`Screened.finish` completes the path. ``rate(p)`` and ``screen(p, x).finish()`` are
    the same rating.

    >>> from sudokit import Grid
    >>> easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    >>> s = screen(Grid(easy), 1.1)
    >>> s.passed, str(s.finish())
    (True, 'ED=1.2/1.2/1.2')
    """
    puzzle = Grid.of(puzzle)
    unique_solution(puzzle)
    cap = floor - _FLOOR_MARGIN
    killer = puzzle.rules.cages is not None
    techniques = _up_to(cap, killer)
    state = Candidates.from_grid(puzzle)
    end, steps = run_path(state, techniques=techniques, stop_above=cap, deadline=deadline)
    _check_rules_path(end, techniques, puzzle.rules)
    rating = _rating_of(end, steps, cap, killer)
    if killer:
        rating = _with_killer_level(rating, puzzle)
    return Screened(rating, state, cap, puzzle)


def rate_many(
    grids: Sequence[Grid | str], with_hodoku: bool = False
) -> list[Rating | NotUniqueError]:
    """Rate each grid (with its HoDoKu grade when asked); the ratings carry no step paths
    (cheap to send between processes). A grid without exactly one solution gets its
    :class:`~sudokit.errors.NotUniqueError` in place of a rating."""
    out: list[Rating | NotUniqueError] = []
    for g in grids_of(grids):
        try:
            rating = rate(g, with_hodoku=with_hodoku)
        except NotUniqueError as e:
            out.append(e)
            continue
        out.append(replace(rating, steps=()))
    return out
