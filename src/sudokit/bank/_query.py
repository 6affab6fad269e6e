"""Reading the bank: what ``bank query`` selects (:class:`Filters`), a puzzle read back
(:class:`Stored`), and the scans behind random picks and the hardest first."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .. import generator
from .._grid import Grid
from .._shape import Shape
from .._text import DEFAULT_ALPHABET, decode, symbols
from ..canon import Transform, canonical, random_isomorph
from ..difficulty import level_of, step_names
from ..engine import unique_solution
from ..formats import parse_grid
from ..rating import KillerLevel, Level, Rating
from ..rules import CLASSIC, Rules
from ._entries import KILLER_COLUMNS
from ._schema import puzzles, techniques

__all__ = ["Filters", "Stored", "hardest_first", "in_key_order", "rules_kind", "stored_of"]


@dataclass(frozen=True, slots=True)
class Filters:
    """What ``bank query`` selects; every filter given must hold.

    ``level`` is SE's level (:class:`~sudokit.rating.Level`), or for killers their own
    (:class:`~sudokit.rating.KillerLevel`): a name is read as the killer level when the
    rules ask for killers only (``killer``, ``killer+x``, a cage layout), or when it is
    ``extreme`` (no SE level), else as SE's level. A killer is stored by its killer level
    alone: SE's ``easy`` does not select killers, the killer level ``easy`` selects killers
    only."""

    level: Level | KillerLevel | str | None = None
    er: tuple[float, float] | None = None
    require: tuple[str, ...] = ()  # techniques or groups: the solve path uses each
    clues: tuple[int, int] | None = None
    shape: Shape | str | None = None  # given as its text ("2x3"), kept as a Shape
    symmetry: str | None = None
    rules: Rules | str | None = None  # given as its text ("x+windoku"), kept as Rules

    def __post_init__(self) -> None:
        if self.rules is not None:
            object.__setattr__(self, "rules", _rules_filter(str(self.rules)))
        if self.level is not None:
            object.__setattr__(self, "level", _level_filter(self.level, self.killers_only()))
            if isinstance(self.level, KillerLevel) and self.no_killers():
                raise ValueError(
                    f"level {str(self.level)!r} is a killer level; rules {str(self.rules)!r} "
                    "have no cages (ask for rules killer)"
                )
        if self.shape is not None:
            object.__setattr__(self, "shape", Shape.of(self.shape))
        for name in self.require:
            step_names(name)  # ValueError for an unknown technique, at once
        if self.symmetry is not None and self.symmetry not in generator.SYMMETRIES:
            raise ValueError(
                f"unknown symmetry {self.symmetry!r}; choose from {', '.join(generator.SYMMETRIES)}"
            )

    def levels(self) -> tuple[list[str], list[str]]:
        """The level columns a matching puzzle can have, as two lists: SE's levels, easiest
        first (a stored SE level is :meth:`Level.of` its ER, which grows with the ER), and
        the killer levels (whose ER may be anything, or 0.0 for a killer the rating cannot
        finish). The level asked for, else those an ER range reaches and every killer level
        (when killers can match), else all that can match. Random picks and the hardest first
        go level by level over the ``(level, rkey)`` index, so an ER range reads only its
        levels' rows."""
        if isinstance(self.level, KillerLevel):
            return [], [_column(self.level)]
        if self.level is not None:
            return [_column(self.level)], []
        killers = [] if self.no_killers() else list(KILLER_COLUMNS.values())
        if self.er is not None:
            lo, hi = self.er
            if lo > hi:
                return [], []
            return [str(lv) for lv in Level if Level.of(lo) <= lv <= Level.of(hi)], killers
        return ([] if self.killers_only() else list(map(str, Level))), killers

    def killers_only(self) -> bool:
        """Whether only killers can match (the rules asked for have cages, or name killer)."""
        return isinstance(self.rules, str) or (
            isinstance(self.rules, Rules) and self.rules.cages is not None
        )

    def no_killers(self) -> bool:
        """Whether no killer can match (rules without cages asked for, or SE's level)."""
        return isinstance(self.level, Level) or (
            isinstance(self.rules, Rules) and self.rules.cages is None
        )

    def killer_kind(self) -> tuple[str, ...] | None:
        """The other rules asked for with ``killer`` named bare (any cages): ``()`` for
        ``killer``, ``("x",)`` for ``killer+x``; None when the filter is not of that kind."""
        if not isinstance(self.rules, str):
            return None
        return tuple(p for p in self.rules.split("+") if p != "killer")

    def where(self) -> list[sa.ColumnElement[bool]]:
        p = puzzles.c
        out: list[sa.ColumnElement[bool]] = []
        if self.level is not None:
            out.append(p.level == _column(self.level))
        if self.er is not None:
            out.append(p.er.between(self.er[0], self.er[1]))
        if self.clues is not None:
            out.append(p.clues.between(self.clues[0], self.clues[1]))
        if self.shape is not None:
            out.append(p.shape == str(self.shape))
        if self.symmetry is not None:
            out.append(p.symmetry == self.symmetry)
        kind = self.killer_kind()
        if kind is not None:  # the cage map holds no '+': the extras follow the first one
            extras = "".join(f"+{e}" for e in kind)
            out.append(p.rules.like(f"killer:%{extras}"))
            out.append(sa.not_(p.rules.like(f"killer:%+%{extras}")))
        elif self.rules is not None:
            out.append(p.rules == str(self.rules))
        for name in self.require:
            used = sa.select(techniques.c.id).where(
                techniques.c.id == p.id, techniques.c.technique.in_(sorted(step_names(name)))
            )
            out.append(used.exists())
        return out


def _column(level: Level | KillerLevel | str) -> str:
    """The level column of puzzles of ``level``."""
    if isinstance(level, KillerLevel):
        return KILLER_COLUMNS[str(level)]
    return str(level)


def _level_filter(level: Level | KillerLevel | str, killers: bool) -> Level | KillerLevel:
    """The level a filter asks for (see :class:`Filters`; also as its level column names it,
    ``killer-hard``): of the killer scale for killers only, else of either."""
    if isinstance(level, str) and level.strip().lower().startswith("killer-"):
        level, killers = level.strip()[len("killer-") :], True
    found = level_of(level, True if killers else None)
    assert found is not None
    return found


def _rules_filter(text: str) -> Rules | str:
    """The rules a filter asks for: a :class:`Rules` value, or, when ``killer`` is named
    without its cages (any killer), the kind's canonical text (``killer``, ``killer+x``)."""
    parts = [p.strip() for p in text.split("+")]
    if "killer" not in (p.lower() for p in parts):
        return Rules.parse(text)
    others = Rules.parse("+".join(p for p in parts if p.lower() != "killer") or "classic")
    if others.regions is not None:
        raise ValueError(f"rules {text!r}: killer with a jigsaw needs its cages")
    return "+".join(("killer", *others.extras))


def rules_kind(text: str) -> str:
    """A rules text as ``bank stats`` counts it: killer cages left out (``killer``,
    ``killer+x``), since every killer layout is its own rules; others as they are."""
    return "+".join("killer" if p.startswith("killer:") else p for p in text.split("+"))


@dataclass(frozen=True, slots=True)
class Stored:
    """A puzzle read back from the bank."""

    id: str
    shape: Shape
    puzzle: Grid  # canonical form
    solution: Grid  # of the canonical form
    shown: Grid  # as it came in
    symmetry: str  # of the shown form
    minimal: bool | None
    rating: Rating  # no steps; hardest None when the record that brought it did not say
    # (a killer's has its killer level; one stored without an ER has ER, EP and ED 0.0:
    # see ``rated``)
    techniques: tuple[str, ...] | None  # None: path not known
    source: str
    seed: int | None
    index: int | None
    added: datetime
    rules: Rules = CLASSIC  # the grids carry them too

    @property
    def rated(self) -> bool:
        """Whether the puzzle has a rating (a killer may be stored without one)."""
        return self.rating.er > 0.0

    @property
    def level_name(self) -> str | None:
        """The level users read (:attr:`Rating.level_name`): a killer's killer level, with or
        without an ER; None for a puzzle stored without either."""
        return self.rating.level_name if self.rated or self.rating.killer is not None else None

    def isomorph(self, rng: random.Random) -> tuple[Grid, Grid]:
        """A random relabelled and transformed copy of the puzzle and its solution, with the
        shown form's symmetry (:func:`sudokit.canon.random_isomorph`, as the service serves
        them), never equal to the stored texts unless the puzzle has no other such form."""
        t = self.isomorph_transform(rng)
        return t.apply(self.shown), t.apply(self.shown_solution())

    def isomorph_transform(self, rng: random.Random) -> Transform:
        """The random transform :meth:`isomorph` applies to the shown form (for a caller that
        wants the copy of the puzzle, and its solution only when asked)."""
        for _ in range(20):
            t, grid = random_isomorph(self.shown, rng, self.symmetry)
            if grid not in (self.shown, self.puzzle):
                break
        return t

    def shown_solution(self) -> Grid:
        """The solution in the shown form's coordinates."""
        return unique_solution(self.shown)


def in_key_order(
    conn: Connection,
    base: sa.Select[Any],
    where: sa.ColumnElement[bool],
    want: int,
    levels: list[str],
) -> list[Any]:
    """The first ``want`` rows of ``base`` that match ``where``, in ``rkey`` order: one range
    scan of the ``(level, rkey)`` index a level that ``base`` can match, merged: the same rows
    as one scan of all levels would give, without an index of ``rkey`` alone for every
    insert to keep."""
    ordered = base.where(where).order_by(puzzles.c.rkey).limit(want)
    rows = [
        row for level in levels for row in conn.execute(ordered.where(puzzles.c.level == level))
    ]
    rows.sort(key=lambda row: row.rkey)
    return rows[:want]


def hardest_first(
    conn: Connection, base: sa.Select[Any], limit: int, levels: tuple[list[str], list[str]]
) -> list[Any]:
    """The first ``limit`` rows of ``base`` by ER from the highest (then id), from the SE
    levels and the killer levels of ``levels`` (:meth:`Filters.levels`). SE's go level by
    level from the hardest: a level's rows all rate above an easier level's, so only the
    levels that reach the limit are sorted, not the whole bank (there is no index of ER). A
    killer level's ERs may be anything: each gives its first ``limit``, and all are merged."""
    se, killers = levels
    rows: list[Any] = []

    def best(level: str, want: int) -> list[Any]:
        stmt = base.where(puzzles.c.level == level).order_by(puzzles.c.er.desc(), puzzles.c.id)
        return list(conn.execute(stmt.limit(want)))

    for level in reversed(se):
        if len(rows) >= limit:
            break
        rows += best(level, limit - len(rows))
    if killers:
        rows += [row for level in killers for row in best(level, limit)]
        rows.sort(key=lambda row: (-row.er, row.id))
    return rows[:limit]


def grid_of_line(text: str, shape: Shape, rules: Rules | None = None) -> Grid:
    """A grid as the bank stored it (its one-line form, ``Grid.to_line``'s symbols): read
    through the parser's own table of those symbols, else by the parser. The form and the
    values' range are checked, conflicts are not: the grid was checked when it was stored (a
    random pick of the service reads three). ``rules``: those it keeps, when not classic."""
    if len(text) == shape.size:
        cells = decode(text, symbols(shape.n, DEFAULT_ALPHABET))
        if cells is not None:
            return Grid.unchecked(shape, cells, rules=rules)
    grid = parse_grid(text, shape=shape, allow_conflicts=True)
    return grid if rules is None else Grid.unchecked(shape, grid.cells, rules=rules)


#: The killer levels by their level column.
_KILLER_LEVELS = {KILLER_COLUMNS[str(k)]: k for k in KillerLevel}


def stored_of(row: Any, path: tuple[str, ...]) -> Stored:
    shape = Shape.parse(row.shape)
    rules = CLASSIC if row.rules == "classic" else Rules.parse(row.rules)
    shown = grid_of_line(row.shown, shape, rules)
    # the rules column is the shown form's; a jigsaw's canonical form has its layout moved
    # and a killer's its cages
    form_rules = (
        rules if rules.regions is None and rules.cages is None else canonical(shown).grid.rules
    )
    grade = None
    if row.hodoku_level is not None and row.hodoku_score is not None:
        from ..logic.hodoku import HodokuGrade

        grade = HodokuGrade(row.hodoku_level, row.hodoku_score)
    killer = _KILLER_LEVELS.get(row.level) if rules.cages is not None else None
    solved = 0.0 < row.er < 20.0  # (a killer stored without an ER reads 0.0)
    rating = Rating(row.er, row.ep, row.ed, solved, row.hardest, hodoku=grade, killer=killer)
    added = row.added if row.added.tzinfo is not None else row.added.replace(tzinfo=UTC)
    return Stored(
        id=row.id,
        shape=shape,
        puzzle=grid_of_line(row.puzzle, shape, form_rules),
        solution=grid_of_line(row.solution, shape, form_rules),
        shown=shown,
        symmetry=row.symmetry,
        minimal=row.minimal,
        rating=rating,
        techniques=path if row.path_known else None,
        source=row.source,
        seed=int(row.seed) if row.seed is not None else None,
        index=row.seq,
        added=added,
        rules=rules,
    )
