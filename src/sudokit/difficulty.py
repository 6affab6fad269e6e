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

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Unpack

from . import _engine, generator
from ._grid import Grid
from ._shape import Shape
from .errors import InvalidRulesError
from .generator import Generated, PuzzleStream
from .killer import EXTREME_CAGE_SIZES, is_killer
from .logic import Technique, select, solve_path
from .logic.hodoku import HODOKU_LEVELS
from .rating import (
    ER_SCALE,
    UNSOLVED_RATING,
    KillerLevel,
    Level,
    Rating,
    er_range,
    hodoku,
    killer_level,
    parse_er_range,
    rate,
)
from .rules import CLASSIC as _CLASSIC

__all__ = [
    "REQUEST_FIELDS",
    "Difficulty",
    "RateAll",
    "Rated",
    "Request",
    "RequestFields",
    "beyond_the_rating",
    "difficulty",
    "level_of",
    "generate",
    "generate_many",
    "refuse_unreachable",
    "step_names",
    "top_er",
    "top_level",
]

# The engine's dig constraints come from C; with the highest SE rating a puzzle that its
# singles solve can have.
LOGIC_NONE, LOGIC_BOX = _engine.LOGIC_NONE, _engine.LOGIC_BOX
LOGIC_HIDDEN, LOGIC_SINGLES = _engine.LOGIC_HIDDEN, _engine.LOGIC_SINGLES
_LOGIC_TOP = ((LOGIC_BOX, 1.2), (LOGIC_HIDDEN, 1.5), (LOGIC_SINGLES, 2.3))

#: The highest ER of a puzzle with one solution, for the shapes (box rows, box columns) where it
#: is known to lie below the top of the scale. 4x4: every clue subset of both essentially
#: different 4x4 grids was rated, and all 91,428 with one solution rate ER 1.2 at most (a
#: hidden single in a box is always there). Other shapes reach the hardest levels.
_TOP_ER: dict[tuple[int, int], float] = {(2, 2): 1.2}


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
        try:
            return 0.0, rated(found, rate(found.puzzle, deadline=deadline))
        except InvalidRulesError as e:
            return beyond_the_rating(found, None, e)

    def describe(self) -> str:
        return "any difficulty"

    def summary(self, found: Generated) -> str:
        return _summary(found)


def _summary(found: Generated) -> str:
    if isinstance(found, Rated) and found.rating is not None:
        return f", ER {found.rating.er:.1f}{'+' if found.rating.capped else ''}"
    return ""


def beyond_the_rating(
    found: Generated, target: Difficulty | None, error: InvalidRulesError
) -> tuple[float, Generated]:
    """How an acceptance judges ``found`` when its rating raised ``error``: a killer the
    rating cannot finish (a technique it needs does not run under cages yet) is extreme when
    none of the killer levels' techniques solves it. It meets any difficulty (``target``
    None) and a target of the extreme killer level alone, coming unrated
    (:class:`~sudokit.generator.Generated`, 0.0); any other target passes it over (1.0).
    ``error`` is raised again for a puzzle without cages."""
    if found.puzzle.rules.cages is None:
        raise error
    if target is None:
        return 0.0, found
    if target.beyond_the_rating_is_extreme() and (
        killer_level(found.puzzle) is KillerLevel.EXTREME
    ):
        return 0.0, found  # extreme, with no ER (the rating cannot finish it)
    return 1.0, found


@dataclass(frozen=True)
class Difficulty:
    lo: float
    hi: float
    require: tuple[tuple[str, frozenset[str]], ...]  # (name as given, step names that count)
    allow: tuple[Technique, ...] | None
    logic: int
    hodoku_level: str | None = None
    killer_level: KillerLevel | None = None

    def check(self, puzzle: Grid, deadline: float | None = None) -> tuple[bool, Rating, float]:
        """Whether ``puzzle`` meets the target, its rating (capped at ``hi`` when that is all
        it takes to reject it), and how far its ER is from the range (0 inside it).

        Raises TimeoutError when the rating is still going at ``deadline`` (a
        ``time.monotonic()`` value): a hard puzzle's rating can take seconds.
        """
        capped = self.hi < 20.0 and not self.require and self.killer_level is None
        rating = rate(puzzle, max_rating=self.hi if capped else None, deadline=deadline)
        if self.killer_level is not None and rating.killer != self.killer_level:
            assert rating.killer is not None  # (a killer's rating has its killer level)
            return False, rating, 0.1 * abs(rating.killer - self.killer_level)
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
        else how far it is (and it rated as far as that took); a killer the rating cannot
        finish as :func:`beyond_the_rating` judges it."""
        try:
            ok, rating, gap = self.check(found.puzzle, deadline)
        except InvalidRulesError as e:
            return beyond_the_rating(found, self, e)
        return (0.0 if ok else gap), rated(found, rating)

    def summary(self, found: Generated) -> str:
        return _summary(found)

    def beyond_the_rating_is_extreme(self) -> bool:
        """Whether the target is the extreme killer level and nothing a rating would tell."""
        plain = (self.lo, self.hi) == ER_SCALE and not self.require and self.allow is None
        return self.killer_level is KillerLevel.EXTREME and plain and self.hodoku_level is None

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
        if self.killer_level is not None:
            parts.append(f"killer level {self.killer_level}")
        return " and ".join(parts) or "any difficulty"


_TEXT_NONE = "-"
#: The fields of a :class:`Request`, in the order of its text form.
REQUEST_FIELDS = (
    "shape",
    "rules",
    "cage_sizes",
    "symmetry",
    "clues",
    "max_clues",
    "minimal",
    "level",
    "er",
    "require",
    "allow",
    "hodoku_level",
    "rate",
)


@dataclass(frozen=True, slots=True)
class Request(generator.Dig):
    """What a user asks of the generator, as one value: made and checked once, then passed
    to :func:`generate`, :func:`generate_many`, ``Bank.fill``, the cluster's tasks, the
    service and ``--resume`` alike.

    - ``shape``, ``rules``, ``cage_sizes``, ``symmetry``, ``clues``, ``max_clues``,
      ``minimal``: the dig (see
      :class:`sudokit.generator.Dig`); ``minimal`` left out becomes True (dig until no
      clue, with a symmetry no orbit of clues, can go) unless a clue target is given;
      ``rules`` (a :class:`~sudokit.rules.Rules` or its text; ``jigsaw`` without a map: a
      random layout a puzzle) is left out of the text form when classic;
    - ``level``, ``er=(lo, hi)``, ``require``, ``allow``, ``hodoku_level``: the difficulty
      target (see :func:`difficulty`); ``rate``: rate every puzzle even without a target.

    Text forms are accepted where a user would write them (``shape="2x3"``, ``level="hard"``,
    ``er="6-8"``, ``require="xy-wing,fish"``) and stored in one spelling. Making one raises
    ValueError (TypeError for a value of the wrong kind) for what no puzzle can meet, naming
    the field; the value then holds its :class:`~sudokit.generator.Acceptance`.

    :meth:`text` is its stable text form and :meth:`parse` reads it back:

    >>> r = Request(shape="2x3", level="fiendish", require=["x-wing"])
    >>> r.text()
    'shape=2x3 symmetry=rot180 clues=- max_clues=- minimal=orbits level=fiendish er=- \
require=x-wing allow=- hodoku_level=- rate=yes'
    >>> Request.parse(r.text()) == r
    True
    >>> Request(rules="hyper+x", symmetry="none").text()[:50]
    'shape=3x3 rules=x+windoku symmetry=none clues=- ma'
    """

    level: Level | KillerLevel | None = None
    er: tuple[float, float] | None = None
    require: tuple[str, ...] = ()
    allow: tuple[str, ...] | None = None
    hodoku_level: str | None = None
    rate: bool = False
    accept: Difficulty | RateAll | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        generator.Dig.__post_init__(self)  # (no zero-argument super() in a slotted dataclass)
        put = object.__setattr__
        put(self, "level", level_of(self.level, is_killer(self.rules)))
        if self.level is KillerLevel.EXTREME and self.cage_sizes is None:
            lo, hi = EXTREME_CAGE_SIZES  # (stated in the request: its text says what was made)
            put(self, "cage_sizes", (lo, min(hi, self.shape.n)))
        put(self, "er", _er_of(self.er))
        put(self, "require", _names_of("require", self.require) or ())
        put(self, "allow", _names_of("allow", self.allow))
        if self.hodoku_level is not None:
            put(self, "hodoku_level", _hodoku_of(self.hodoku_level))
        wanted = difficulty(
            level=self.level,
            rating=self.er,
            require=self.require or None,
            allow=self.allow,
            hodoku_level=self.hodoku_level,
        )
        if wanted is not None:
            if is_killer(self.rules):
                if wanted.hodoku_level is not None:
                    raise ValueError(
                        "HoDoKu grades classic puzzles only: no hodoku_level for killer"
                    )
                wanted = replace(wanted, logic=LOGIC_NONE)  # no digging: none of its shortcuts
            refuse_unreachable(wanted, self.shape)
        accept = RateAll() if wanted is None and self.rate else wanted
        put(self, "rate", self.rate or accept is not None)
        put(self, "accept", accept)

    @classmethod
    def of(cls, request: generator.Dig | None = None, /, **changes: Any) -> Request:
        """``request`` with the ``changes`` given (not None) made, or a new request of
        them: where the library's keyword arguments become one value. A plain
        :class:`~sudokit.generator.Dig` gains the targets."""
        given = {k: v for k, v in changes.items() if v is not None}
        given["er"] = _er_alias(given.get("er"), given.pop("rating", None))
        if given.pop("with_rating", False):
            given["rate"] = True
        given = {k: v for k, v in given.items() if v is not None}
        if request is None:
            try:  # the same keywords again (generate(...) in a loop): the same value
                return _request_of(tuple(sorted(given.items())))
            except TypeError:  # an unhashable value, such as a list of techniques
                return cls(**given)
        if not isinstance(request, Request):
            dig = {f.name: getattr(request, f.name) for f in fields(generator.Dig)}
            return cls(**{**dig, **given})
        found = generator.as_dig(request, **given)
        assert isinstance(found, Request)
        return found

    def text(self) -> str:
        """The stable text form: ``name=value`` for every field, ``-`` for none."""
        return " ".join(f"{name}={value}" for name, value in self.items().items())

    def items(self) -> dict[str, str]:
        """The fields as the text form writes them, by name, in :data:`REQUEST_FIELDS`'
        order."""
        return {
            name: self._text_of(name)
            for name in REQUEST_FIELDS
            if name != "rules" or self.rules != _CLASSIC  # classic: as before rules existed
            if name != "cage_sizes" or self.cage_sizes is not None  # (killer requests only)
        }

    def _text_of(self, name: str) -> str:
        value = getattr(self, name)
        if name == "minimal" and self.minimal and self.symmetry != "none":
            return "orbits"  # no orbit of clues can go; the records say which are minimal
        if value is None:
            return _TEXT_NONE
        if isinstance(value, bool):
            return "yes" if value else "no"
        if name == "er":
            return f"{value[0]:g}-{value[1]:g}"
        if name == "cage_sizes":
            return f"{value[0]}-{value[1]}"
        if isinstance(value, tuple):
            return ",".join(value) or _TEXT_NONE
        if name == "rules":
            return str(value)  # a jigsaw map's labels are case-sensitive
        return str(value).lower()

    @classmethod
    def parse(cls, text: str) -> Request:
        """The request of :meth:`text` (fields left out keep their defaults; names this
        value does not know, such as an output file's ``format``, are skipped). Raises
        ValueError naming what cannot be read."""
        given: dict[str, object] = {}
        for item in text.split():
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"expected name=value, got {item!r}")
            if name not in REQUEST_FIELDS or value == _TEXT_NONE:
                continue
            given[name] = _parsed(name, value)
        return cls(**given)  # type: ignore[arg-type]

    def key(self) -> str:
        """The key of a bank run made of this request: what decides which puzzles a run
        makes, in a form that never changes (fields at their defaults are left out, so a
        field added later keeps the keys of runs made before it)."""
        parts = [f"shape={self.shape}", f"symmetry={self.symmetry}"]
        if self.rules != _CLASSIC:
            parts.insert(1, f"rules={self.rules}")
        if self.cage_sizes is not None:
            parts.insert(2, f"cage_sizes={self._text_of('cage_sizes')}")
        if self.level is not None:
            parts.append(f"level={self.level}")
        if self.er is not None:
            parts.append(f"er={self._text_of('er')}")
        if self.require:
            parts.append("require=" + ",".join(sorted(self.require)))
        for name in ("clues", "max_clues", "allow", "hodoku_level"):
            if getattr(self, name) is not None:
                parts.append(f"{name}={self._text_of(name)}")
        if self.minimal != (self.clues is None and self.max_clues is None):
            parts.append(f"minimal={self._text_of('minimal')}")
        return " ".join(parts)


@lru_cache(maxsize=256)
def _request_of(items: tuple[tuple[str, Any], ...]) -> Request:
    """The request of these fields, made and checked once for each set of them: a library
    user's ``generate(shape=..., seed=i)`` in a loop asks for the same value every time."""
    return Request(**dict(items))


def level_of(value: object, killer: bool | None) -> Level | KillerLevel | None:
    """A level, from a level or its name: SE's (:class:`~sudokit.rating.Level`), or for
    killer rules the killer levels (:class:`~sudokit.rating.KillerLevel`); with ``killer``
    None (puzzles of either kind), the kind the name or value is of, ``extreme`` a killer
    level and the names both scales have SE's. A level of the other scale is taken by its
    name where the asked scale has it (easy, medium, hard), else ValueError names it."""
    if value is None:
        return None
    if killer is None:
        if isinstance(value, Level | KillerLevel):
            return value
        killer = isinstance(value, str) and value.strip().lower() == str(KillerLevel.EXTREME)
    kind: type[Level] | type[KillerLevel] = KillerLevel if killer else Level
    if isinstance(value, kind):
        return value
    if isinstance(value, Level | KillerLevel):
        if value.name in kind.__members__:  # easy, medium and hard are on both scales
            return kind[value.name]
        what = "killer's levels" if killer else "SE's levels (killer's are for killer rules)"
        raise ValueError(
            f"level {str(value)!r} is not one of {what}: {', '.join(str(lv) for lv in kind)}"
        )
    if isinstance(value, str):
        return kind.parse(value)
    raise TypeError(f"level must be a Level or its name, got {value!r}")


def _er_of(value: object) -> tuple[float, float] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return parse_er_range(value)
    if isinstance(value, tuple | list) and len(value) == 2:
        try:
            lo, hi = float(value[0]), float(value[1])
        except (TypeError, ValueError):
            raise TypeError(f"er must be two numbers (lo, hi), got {value!r}") from None
        return er_range(lo, hi)
    raise TypeError(f"er must be (lo, hi) or text such as '6.5-8', got {value!r}")


def _names_of(name: str, value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, Iterable):
        raise TypeError(f"{name} must be technique names, got {value!r}")
    names = []
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{name} must be technique names, got {item!r}")
        slug = item.strip().lower().replace("_", "-").replace(" ", "-")
        if slug:
            names.append(slug)
    return tuple(names)


def _hodoku_of(value: object) -> str:
    text = value.strip().lower() if isinstance(value, str) else None
    found = next((h for h in HODOKU_LEVELS if h.lower() == text), None)
    if found is None:
        raise ValueError(f"unknown HoDoKu level {value!r}; choose from {', '.join(HODOKU_LEVELS)}")
    return found


def _parsed(name: str, value: str) -> object:
    if name in ("clues", "max_clues"):
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{name} must be a whole number, got {value!r}") from None
    if name in ("minimal", "rate"):
        if value not in ("yes", "no", "orbits"):
            raise ValueError(f"{name} must be yes or no, got {value!r}")
        return value != "no"
    return value


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


def top_er(shape: Shape) -> float:
    """The highest ER a puzzle of ``shape`` with one solution can rate (the top of the scale
    where no lower bound is known).

    >>> top_er(Shape(2, 2)), top_er(Shape(3, 3))
    (1.2, 20.0)
    """
    return _TOP_ER.get((shape.box_rows, shape.box_cols), UNSOLVED_RATING)


def top_level(shape: Shape) -> Level:
    """The hardest level a puzzle of ``shape`` can reach (see :func:`top_er`).

    >>> top_level(Shape(2, 2)).name, top_level(Shape(4, 4)).name
    ('EASY', 'DIABOLICAL')
    """
    return Level.of(top_er(shape))


def refuse_unreachable(target: Difficulty, shape: Shape) -> None:
    """ValueError, naming why, when no puzzle of ``shape`` can meet ``target``: its ER range
    or a required technique lies above :func:`top_er` of the shape. Such a search would run
    until its time limit and find nothing."""
    top = top_er(shape)
    if top >= UNSOLVED_RATING:
        return
    side = f"{shape.n}x{shape.n}"
    if target.lo > top:
        raise ValueError(
            f"no {side} puzzle rates ER {target.lo:.1f} or more: the hardest rate ER "
            f"{top:.1f} ({top_level(shape)})"
        )
    for name, _ in target.require:
        cheapest = min(t.rating for t in select([name]))
        if cheapest > top:
            raise ValueError(
                f"{name} rates ER {cheapest:.1f}, and no {side} puzzle needs anything above "
                f"ER {top:.1f}"
            )


def difficulty(
    *,
    level: Level | KillerLevel | str | None = None,
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
    killer = level if isinstance(level, KillerLevel) else None
    lv = None if level is None or killer is not None else Level.parse(str(level))
    if lv is not None:
        lo, hi = lv.range
    if rating is not None:
        rlo, rhi = er_range(*rating)
        lo, hi = max(lo, rlo), min(hi, rhi)
        if lo > hi and lv is not None:  # within the scale, so only SE's level can empty it
            name = str(level).lower()
            raise ValueError(
                f"ER range {rlo:g}-{rhi:g} is outside level {name} (ER {lo_hi_text(lv)})"
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
    return Difficulty(lo, hi, req, allowed, logic, hod, killer)


class RequestFields(generator.DigFields, total=False):
    """The fields of a :class:`Request` as keyword arguments (every function that takes a
    request takes these too, and they change its fields); ``rating`` is the old name of
    ``er`` and ``with_rating`` of ``rate``."""

    level: Level | KillerLevel | str | None
    er: tuple[float, float] | str | None
    rating: tuple[float, float] | None
    require: Iterable[str] | None
    allow: Iterable[str] | None
    hodoku_level: str | None
    with_rating: bool
    rate: bool | None


def generate(
    request: generator.Dig | None = None,
    *,
    seed: int | None = None,
    index: int = 0,
    timeout: float | None = 60.0,
    **fields: Unpack[RequestFields],
) -> Generated:
    """Make one puzzle with exactly one solution: :func:`sudokit.generator.generate` (see it
    for the seed and timeout) of a :class:`Request`.

    The request's fields may come as keywords instead (they change those of ``request``):
    the dig (``shape``, ``symmetry``, ``clues``, ``max_clues``, ``minimal``) and the
    difficulty (Sudoku Explainer's scale; see :mod:`sudokit.rating`): ``level`` (a
    :class:`~sudokit.rating.Level` or its name), ``er=(lo, hi)`` on ER (``rating=`` is its
    old name), ``require`` (the solve path must use each named technique), ``allow`` (the
    puzzle must be solvable with these techniques alone), ``hodoku_level`` (HoDoKu's Easy ...
    Extreme, see :func:`sudokit.rating.hodoku`). The result is then :class:`Rated` (also with
    ``rate=True``).
    """
    req = Request.of(request, **fields)
    return generator.generate(req, seed=seed, index=index, timeout=timeout, accept=req.accept)


def generate_many(
    count: int,
    request: generator.Dig | None = None,
    *,
    seed: int | None = None,
    start: int = 0,
    jobs: int = 1,
    timeout: float | None = 60.0,
    chunk: int | None = None,
    cluster: str | None = None,
    **fields: Unpack[RequestFields],
) -> PuzzleStream:
    """``count`` puzzles of a :class:`Request` as :func:`sudokit.generator.generate_many`
    makes them (the request's fields may come as keywords, as in :func:`generate`); puzzle
    ``i`` is ``generate(..., index=i)``. ``cluster`` runs the work on the Dask cluster at
    that address (``local``, ``local:N``, ``tcp://host:8786``) instead of ``jobs``
    processes, with the same puzzles."""
    req = Request.of(request, **fields)
    return generator.generate_many(
        count,
        req,
        seed=seed,
        start=start,
        jobs=jobs,
        timeout=timeout,
        chunk=chunk,
        accept=req.accept,
        cluster=cluster,
    )


def _er_alias(
    er: tuple[float, float] | str | None, rating: tuple[float, float] | None
) -> tuple[float, float] | str | None:
    """``er``, or ``rating`` (its old name, kept for one release)."""
    if rating is None:
        return er
    if er is not None:
        raise TypeError("give er= or rating= (its old name), not both")
    warnings.warn("rating= is now er=", DeprecationWarning, stacklevel=4)
    return rating
