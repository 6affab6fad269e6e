"""Killer cages: sets of orthogonally connected cells with a sum, whose digits differ.

A :class:`Cage` is its cells and its sum; :class:`Cages` is a layout of cages on a side-``n``
grid, checked when made: every cage connected, no larger than ``n``, its sum one that
different digits ``1..n`` can make in that many cells, and no cell in two cages. An error
names the cage by its first cell (row-major) and its sum.

The text form (what :meth:`Cages.parse` reads and ``str`` writes) is a cage map and the sums:
one label per cell, row by row (``.`` for a cell in no cage), then ``/`` and the sums in the
order the cages are first met. A cage is a connected group of cells with the same label, so
two cages may share a label when they do not touch. The written form gives each cage a label
of its own (A, B, ... in reading order) while there are labels enough, and beyond that the
first label none of the cages it touches has taken:

>>> layout = Cages.parse("AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2")
>>> len(layout), layout[0]
(8, Cage(cells=(0, 1), total=3))
>>> str(layout)
'AABBCCDBEEDFGGHF/3,9,7,5,4,6,5,2'
>>> Cages.parse("ABAB CCCC DDDD EEEE / 1,2,3,4,10,10,10") == Cages.parse(
...     "ABCD EEEE FFFF GGGG / 1,2,3,4,10,10,10")
True

:func:`sum_sets` lists the digit sets that make a sum, the table both a solver and a person
start from:

>>> [sorted(d + 1 for d in range(9) if m >> d & 1) for m in sum_sets(9, 3, 7)]
[[1, 2, 4]]
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final, overload

from . import _engine
from ._shape import MAX_SIDE, cell_name
from .errors import InvalidRulesError

__all__ = ["Cage", "Cages", "sum_range", "sum_sets"]

#: Labels of the written cage map, in the order they are tried.
LABELS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: The label of a cell in no cage.
NO_CAGE: Final = "."


@cache
def sum_sets(n: int, k: int, total: int) -> tuple[int, ...]:
    """The sets of ``k`` different digits ``1..n`` that add up to ``total``, as bit masks
    (bit ``d - 1`` for digit ``d``), in increasing order of the masks."""
    if not 1 <= n <= MAX_SIDE or not 0 <= k <= n:
        return ()
    found = [
        sum(1 << (d - 1) for d in digits)
        for digits in combinations(range(1, n + 1), k)
        if sum(digits) == total
    ]
    return tuple(sorted(found))


def sum_range(n: int, k: int) -> tuple[int, int]:
    """The least and the greatest sum of ``k`` different digits ``1..n``."""
    return k * (k + 1) // 2, k * (2 * n - k + 1) // 2


@dataclass(frozen=True, slots=True)
class Cage:
    """Cells (cell indexes, row-major, ascending) whose different digits add up to ``total``."""

    cells: tuple[int, ...]
    total: int

    def name(self, n: int) -> str:
        """How errors and explanations name the cage: its sum and its first cell."""
        return f"cage {self.total} at {cell_name(self.cells[0], n)}"


@cache
def side_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """For each cell of a side-``n`` grid, the cells that touch it by a side."""
    return tuple(
        tuple(
            (r + dr) * n + c + dc
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 0 <= r + dr < n and 0 <= c + dc < n
        )
        for r, c in (divmod(cell, n) for cell in range(n * n))
    )


def reached(start: int, cells: Container[int], n: int) -> set[int]:
    """The cells of ``cells`` joined to ``start`` by side-touching cells of ``cells`` (on a
    side-``n`` grid): all of them when ``cells`` is connected."""
    near = side_neighbours(n)
    seen, todo = {start}, [start]
    while todo:
        for other in near[todo.pop()]:
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _check_cage(cage: Cage, n: int) -> None:
    where = cage.name(n) if cage.cells and 0 <= cage.cells[0] < n * n else f"cage {cage.total}"
    if not cage.cells:
        raise InvalidRulesError(f"{where} has no cells")
    for cell in cage.cells:
        if not 0 <= cell < n * n:
            raise InvalidRulesError(f"{where}: cell {cell} is outside the {n}x{n} grid")
    if len(set(cage.cells)) != len(cage.cells):
        raise InvalidRulesError(f"{where} names a cell twice")
    k = len(cage.cells)
    if k > n:
        raise InvalidRulesError(f"{where} has {k} cells; a cage holds at most {n}")
    inside = set(cage.cells)
    seen = reached(cage.cells[0], inside, n)
    if len(seen) != k:
        apart = min(inside - seen)
        raise InvalidRulesError(
            f"{where} is not connected: {cell_name(cage.cells[0], n)} and "
            f"{cell_name(apart, n)} are not joined by side-touching cells of the cage"
        )
    if not sum_sets(n, k, cage.total):
        lo, hi = sum_range(n, k)
        raise InvalidRulesError(
            f"{where}: no {k} different digits 1-{n} add up to {cage.total} "
            f"({k} cells make {lo}..{hi})"
        )


def _ints(values: Iterable[int]) -> bytes:
    out = array("i", values)
    if sys.byteorder == "big":  # pragma: no cover - the engine reads little-endian
        out.byteswap()
    return out.tobytes()


class Cages(Sequence[Cage]):
    """A cage layout on a side-``n`` grid, checked when made (see the module's docstring);
    ``cover=True`` also asks every cell to be in a cage. Cages are kept in the order of their
    first cells, so equal layouts compare equal whatever order they were given in.

    The layout is held as :attr:`blob`, the cages as the exact engine reads them, and its
    :class:`Cage` values are made from it when first asked for: reading a cage map (in C) and
    handing it to the engine cost little."""

    __slots__ = ("_made", "blob", "n")

    n: int
    #: The cages as 32-bit little-endian ints: their count, then each one's size, sum and cells.
    blob: bytes
    _made: tuple[tuple[Cage, ...], tuple[int, ...]] | None

    def __init__(self, n: int, cages: Iterable[Cage], *, cover: bool = False) -> None:
        if not 1 <= n <= MAX_SIDE:
            raise InvalidRulesError(f"cages on a side-{n} grid: the side must be 1..{MAX_SIDE}")
        made = []
        for cage in cages:
            cage = Cage(tuple(sorted(cage.cells)), cage.total)
            _check_cage(cage, n)
            made.append(cage)
        made.sort(key=lambda cage: cage.cells[0])
        of = [-1] * (n * n)
        for i, cage in enumerate(made):
            for cell in cage.cells:
                if of[cell] >= 0:
                    raise InvalidRulesError(
                        f"{made[of[cell]].name(n)} and {cage.name(n)} overlap at "
                        f"{cell_name(cell, n)}"
                    )
                of[cell] = i
        if cover and -1 in of:
            raise InvalidRulesError(
                f"cell {cell_name(of.index(-1), n)} is in no cage (every cell needs one)"
            )
        self.n, self._made = n, (tuple(made), tuple(of))
        self.blob = _ints(
            [len(made), *(x for cage in made for x in (len(cage.cells), cage.total, *cage.cells))]
        )

    @classmethod
    def from_blob(cls, n: int, blob: bytes) -> Cages:
        """The layout of :attr:`blob` ``blob`` on a side-``n`` grid, checked as when made."""
        return cls(n, _decoded(n, blob)[0])

    @property
    def _cages(self) -> tuple[Cage, ...]:
        return self._unpacked()[0]

    @property
    def _of(self) -> tuple[int, ...]:
        return self._unpacked()[1]

    def _unpacked(self) -> tuple[tuple[Cage, ...], tuple[int, ...]]:
        if self._made is None:
            self._made = _decoded(self.n, self.blob)
        return self._made

    @classmethod
    def parse(cls, text: str, *, cover: bool = False) -> Cages:
        """Read the text form: a cage map (whitespace ignored), ``/``, the sums (comma- or
        space-separated) in the order the cages are first met."""
        got = _engine.cage_map(text)  # the cages: connected groups of equal labels
        if len(got) == 4:
            _, problem, a, b = got
            where = f"cages {_shorten(text)!r}"
            if problem == 1:
                raise InvalidRulesError(
                    f"{where}: {a} labels is not a square grid of side 1..{MAX_SIDE} (give one "
                    "label per cell, row by row)"
                )
            if problem == 2:
                raise InvalidRulesError(f"{where}: no '/' between the cage map and the sums")
            if problem == 3:
                sums = text.partition("/")[2].strip()
                raise InvalidRulesError(f"{where}: the sums {sums!r} are not whole numbers")
            raise InvalidRulesError(f"{where}: {a} cages in the map but {b} sums")
        n, blob, bad = got
        assert isinstance(blob, bytes)
        layout = object.__new__(cls)
        layout.n, layout.blob, layout._made = n, blob, None
        if bad >= 0:  # a cage too big, or a sum its cells cannot make: say which
            _check_cage(layout[bad], n)
        if cover and len(_unpack(blob)) != 1 + 2 * len(layout) + n * n:
            of = layout._of
            raise InvalidRulesError(
                f"cell {cell_name(of.index(-1), n)} is in no cage (every cell needs one)"
            )
        return layout

    def __str__(self) -> str:
        n = self.n
        labels = [NO_CAGE] * (n * n)
        own = len(self._cages) <= len(LABELS)
        for i, cage in enumerate(self._cages):  # in order of first cells: reading order
            if own:
                for cell in cage.cells:
                    labels[cell] = LABELS[i]
                continue
            taken = {
                labels[other]
                for cell in cage.cells
                for other in side_neighbours(n)[cell]
                if self._of[other] not in (-1, i)
            }
            label = next(ch for ch in LABELS if ch not in taken)
            for cell in cage.cells:
                labels[cell] = label
        return "".join(labels) + "/" + ",".join(str(cage.total) for cage in self._cages)

    def __repr__(self) -> str:
        return f"Cages.parse({str(self)!r})"

    def __len__(self) -> int:
        return int.from_bytes(self.blob[:4], "little")

    @overload
    def __getitem__(self, i: int) -> Cage: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Cage]: ...
    def __getitem__(self, i: int | slice) -> Cage | Sequence[Cage]:
        return self._cages[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cages):
            return NotImplemented
        return self.n == other.n and self.blob == other.blob

    def __hash__(self) -> int:
        return hash((self.n, self.blob))

    def cage_of(self, cell: int) -> Cage | None:
        """The cage ``cell`` is in, or None."""
        i = self._of[cell]
        return self._cages[i] if i >= 0 else None

    def check_givens(self, cells: Sequence[int]) -> None:
        """InvalidRulesError naming the first cage the given digits (``cells``: one per cell,
        0 for none) cannot stand in (see :meth:`given_conflicts`)."""
        found = self.given_conflicts(cells)
        if found:
            raise InvalidRulesError(found[0])

    def given_conflicts(self, cells: Sequence[int]) -> list[str]:
        """Every cage the given digits cannot stand in, one sentence each naming the cage: a
        digit twice, or no digit set of its sum holds them."""
        if not any(cells):
            return []
        n = self.n
        out = []
        for cage in self._cages:
            given = [(cell, cells[cell]) for cell in cage.cells if cells[cell]]
            if not given:
                continue
            mask = 0
            twice = None
            for cell, digit in given:
                bit = 1 << (digit - 1)
                if mask & bit and twice is None:
                    first = next(c for c, d in given if d == digit)
                    twice = (
                        f"{cage.name(n)} holds {digit} twice, at {cell_name(first, n)} and "
                        f"{cell_name(cell, n)}"
                    )
                mask |= bit
            if twice is not None:
                out.append(twice)
            elif not any(s & mask == mask for s in sum_sets(n, len(cage.cells), cage.total)):
                shown = ", ".join(f"{d} at {cell_name(c, n)}" for c, d in given)
                out.append(
                    f"{cage.name(n)}: no {len(cage.cells)} different digits adding up to "
                    f"{cage.total} include {shown}"
                )
        return out


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _decoded(n: int, blob: bytes) -> tuple[tuple[Cage, ...], tuple[int, ...]]:
    """The cages of a layout's :attr:`Cages.blob` on a side-``n`` grid, and each cell's cage
    (its index; -1: none)."""
    ints = _unpack(blob)
    of = [-1] * (n * n)
    cages, at = [], 1
    for i in range(ints[0] if ints else 0):
        k = ints[at]
        cells = tuple(ints[at + 2 : at + 2 + k])
        cages.append(Cage(cells, ints[at + 1]))
        for cell in cells:
            if 0 <= cell < n * n:  # (a blob from outside is checked by the caller)
                of[cell] = i
        at += 2 + k
    return tuple(cages), tuple(of)


def _unpack(blob: bytes) -> array[int]:
    out = array("i")
    out.frombytes(blob)
    if sys.byteorder == "big":  # pragma: no cover - the engine writes little-endian
        out.byteswap()
    return out
