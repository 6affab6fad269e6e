"""Rules: what a grid's digits must satisfy, as a value beside its :class:`~sudokit.Shape`.

Terms (as in ``DESIGN.md``, "One request, many rules"):

- A **house** is a set of ``n`` cells that holds each digit once: the rows, the columns, the
  boxes (or, in a **jigsaw**, ``n`` irregular regions that replace the boxes), and the extra
  houses some rules add: the two **diagonals** (``x``), the **windows** (``windoku``), the
  **disjoint groups** (``dg``).
- The **peers** of a cell are the cells it must differ from: everything sharing a house with
  it, plus the cells a **neighbour rule** adds (``antiknight``, ``antiking``).
- A **relation** constrains pairs of adjacent cells beyond "differ": ``nc`` (non-consecutive)
  forbids consecutive digits in orthogonally adjacent cells.

:class:`Rules` is the value (frozen, hashable, picklable; its text form such as ``x+windoku``
or ``jigsaw:<region map>+x`` is what :meth:`Rules.parse` reads and ``str`` writes, in one
canonical order); :class:`Geometry` is what a rule set means on a shape: its houses, each
cell's peers and the cells its relation ties it to, built once per (shape, rules).

>>> r = Rules.parse("windoku+x")
>>> str(r), r
('x+windoku', Rules('x+windoku'))
>>> g = geometry(Shape(3, 3), r)
>>> len(g.houses), len(g.peers[40])
(38, 32)
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from functools import cached_property, lru_cache
from typing import Final

from . import _engine
from ._shape import MAX_SIDE, Shape, cell_name
from .cages import Cages, reached
from .errors import InvalidRulesError

__all__ = ["CLASSIC", "RULES", "Geometry", "Rules", "geometry", "random_regions"]

#: The rule sets sudokit knows, each with what it means (for docs and the command line).
RULES: Final[dict[str, str]] = {
    "classic": "rows, columns and boxes each hold every digit once (the default)",
    "x": "both main diagonals are houses too (Sudoku-X)",
    "windoku": "extra 3x3 windows are houses (on 9x9 at r2c2, r2c6, r6c2, r6c6; also 'hyper')",
    "dg": "disjoint groups: the cells at the same place in each box form a house",
    "antiknight": "cells a chess knight's move apart hold different digits",
    "antiking": "cells that touch diagonally hold different digits",
    "nc": "non-consecutive: orthogonally adjacent cells never hold consecutive digits",
    "jigsaw": "jigsaw:<region map>: n irregular regions of n connected cells replace the boxes",
    "killer": "killer:<cage map>/<sums>: cages of connected cells whose different digits add "
    "up to their sums",
}

#: Other names accepted for a rule.
ALIASES: Final[dict[str, str]] = {"hyper": "windoku"}

# The extras in their canonical order: the text form lists them so.
_EXTRAS: Final = ("x", "windoku", "dg", "antiknight", "antiking", "nc")

# Region labels in the canonical text form: the first region met (row-major) is "1".
_LABELS: Final = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0#$%&"

_KNIGHT: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_DIAGONAL: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONAL: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))

#: The largest side killer cages are taken on (the exact engine's digit-set tables hold every
#: subset of the digits; _engine.c's CAGE_MAX_SIDE).
CAGE_MAX_SIDE: Final = 16


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_regions(text: str) -> tuple[int, ...]:
    """Read a region map (one label per cell, whitespace ignored) into labels 0..n-1 numbered
    in order of first appearance, checking that it makes n connected regions of n cells."""
    labels = [ch for ch in text if not ch.isspace()]
    size = len(labels)
    n = math.isqrt(size)
    if size == 0 or n * n != size:
        raise InvalidRulesError(
            f"jigsaw region map {_shorten(text)!r}: {size} labels is not a square grid "
            "(give one label per cell, row by row)"
        )
    if not 4 <= n <= min(MAX_SIDE, len(_LABELS)):
        raise InvalidRulesError(
            f"jigsaw region map {_shorten(text)!r}: side {n} is outside 4..{MAX_SIDE}"
        )
    number: dict[str, int] = {}
    for ch in labels:
        number.setdefault(ch, len(number))
    if len(number) != n:
        raise InvalidRulesError(
            f"jigsaw region map {_shorten(text)!r}: {len(number)} regions on a side-{n} grid "
            f"(it needs {n})"
        )
    regions = tuple(number[ch] for ch in labels)
    members: list[list[int]] = [[] for _ in range(n)]
    for c, k in enumerate(regions):
        members[k].append(c)
    for label, k in number.items():
        cells = members[k]
        if len(cells) != n:
            raise InvalidRulesError(
                f"jigsaw region {label!r} has {len(cells)} cells, starting at "
                f"{cell_name(cells[0], n)} (each region needs {n})"
            )
        seen = reached(cells[0], set(cells), n)
        if len(seen) != n:
            apart = min(set(cells) - seen)
            raise InvalidRulesError(
                f"jigsaw region {label!r} is not connected: {cell_name(cells[0], n)} and "
                f"{cell_name(apart, n)} are not joined by side-touching cells of the region"
            )
    return regions


class Rules:
    """A rule set: the extras on top of rows and columns, and a jigsaw's regions if any.

    Made from its text form (``Rules("x+windoku")``, same as :meth:`parse`); ``str`` gives the
    canonical form, which ``repr`` shows and :meth:`parse` reads back.

    >>> Rules("antiknight+x") == Rules("x+antiknight"), str(Rules("hyper"))
    (True, 'windoku')
    >>> CLASSIC, CLASSIC.is_classic
    (Rules('classic'), True)
    """

    __slots__ = ("_hash", "cages", "extras", "regions")

    #: The extras in canonical order (names from :data:`RULES`, never ``jigsaw``/``killer``).
    extras: tuple[str, ...]
    #: A jigsaw's region of each cell (0..n-1, numbered by first appearance), or None: boxes.
    regions: tuple[int, ...] | None
    #: Killer cages (:class:`~sudokit.cages.Cages`), or None.
    cages: Cages | None
    _hash: int

    def __init__(self, text: str = "classic") -> None:
        if not isinstance(text, str):
            raise InvalidRulesError(f"rules must be text such as 'x+windoku', got {text!r}")
        extras: set[str] = set()
        regions: tuple[int, ...] | None = None
        cages: Cages | None = None
        parts = [p.strip() for p in text.split("+")]
        if parts == [""]:
            parts = ["classic"]
        for part in parts:
            name, colon, rest = part.partition(":")
            name = ALIASES.get(name.strip().lower(), name.strip().lower())
            if name == "jigsaw":
                if not colon or not rest.strip():
                    raise InvalidRulesError(
                        f"rules {_shorten(text)!r}: jigsaw needs its region map, "
                        "as jigsaw:<one label per cell>"
                    )
                if regions is not None:
                    raise InvalidRulesError(f"rules {_shorten(text)!r}: two jigsaw region maps")
                regions = _read_regions(rest)
                continue
            if name == "killer":
                if not colon or not rest.strip():
                    raise InvalidRulesError(
                        f"rules {_shorten(text)!r}: killer needs its cages, as "
                        "killer:<cage map>/<sums>"
                    )
                if cages is not None:
                    raise InvalidRulesError(f"rules {_shorten(text)!r}: two killer cage maps")
                cages = Cages.parse(rest)
                continue
            if colon:
                raise InvalidRulesError(
                    f"rules {_shorten(text)!r}: rule {name!r} takes no ':' argument"
                )
            if name == "classic":
                if len(parts) > 1:
                    raise InvalidRulesError(
                        f"rules {_shorten(text)!r}: 'classic' means no extras; leave it out "
                        "when combining rules"
                    )
                continue
            if name not in _EXTRAS:
                known = ", ".join([*RULES, *ALIASES])
                raise InvalidRulesError(
                    f"rules {_shorten(text)!r}: unknown rule {name!r} (known: {known})"
                )
            if name in extras:
                raise InvalidRulesError(f"rules {_shorten(text)!r}: rule {name!r} given twice")
            extras.add(name)
        if regions is not None and cages is not None and len(regions) != cages.n * cages.n:
            raise InvalidRulesError(
                f"rules {_shorten(text)!r}: the jigsaw map and the cages are for grids of "
                "different sides"
            )
        self._set(tuple(e for e in _EXTRAS if e in extras), regions, cages)

    def _set(
        self, extras: tuple[str, ...], regions: tuple[int, ...] | None, cages: Cages | None
    ) -> None:
        object.__setattr__(self, "extras", extras)
        object.__setattr__(self, "regions", regions)
        object.__setattr__(self, "cages", cages)
        object.__setattr__(self, "_hash", hash((extras, regions, cages)))

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a text form: rule names joined by ``+`` (``x+windoku``, ``jigsaw:<map>+x``),
        ``classic`` or an empty string for none. Raises :class:`InvalidRulesError`."""
        return cls(text)

    @classmethod
    def of(
        cls,
        extras: Iterable[str] = (),
        *,
        regions: Iterable[int] | None = None,
        cages: Cages | None = None,
    ) -> Rules:
        """The rules with these extras (names or aliases, any order), jigsaw regions (one
        label per cell, row-major) and killer cages if given."""
        names = [str(e) for e in extras]
        if cages is not None:
            names.insert(0, f"killer:{cages}")
        if regions is not None:
            labels = list(regions)
            if any(not isinstance(k, int) or not 0 <= k < len(_LABELS) for k in labels):
                raise InvalidRulesError(f"jigsaw region labels must be 0..{len(_LABELS) - 1}")
            names.insert(0, "jigsaw:" + "".join(_LABELS[k] for k in labels))
        return cls("+".join(names) or "classic")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Rules is immutable: cannot set {name!r}")

    @property
    def is_classic(self) -> bool:
        """No extras, no jigsaw, no cages: rows, columns and boxes only."""
        return not self.extras and self.regions is None and self.cages is None

    @property
    def without_cages(self) -> Rules:
        """These rules without their killer cages (the same rules when they have none)."""
        return self if self.cages is None else _uncaged(self.extras, self.regions)

    @property
    def side(self) -> int | None:
        """The grid side a jigsaw's map or the cages fix, or None (the rules fit any side
        they fit)."""
        if self.regions is not None:
            return math.isqrt(len(self.regions))
        return None if self.cages is None else self.cages.n

    def __str__(self) -> str:
        parts = list(self.extras)
        if self.cages is not None:
            parts.insert(0, f"killer:{self.cages}")
        if self.regions is not None:
            parts.insert(0, "jigsaw:" + "".join(_LABELS[k] for k in self.regions))
        return "+".join(parts) or "classic"

    def __repr__(self) -> str:
        return f"Rules({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return (self.extras, self.regions, self.cages) == (
            other.extras,
            other.regions,
            other.cages,
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Rules], tuple[str]]:
        return (Rules, (str(self),))


#: No extras: rows, columns and boxes.
CLASSIC: Final = Rules()


@lru_cache(maxsize=64)
def _uncaged(extras: tuple[str, ...], regions: tuple[int, ...] | None) -> Rules:
    rules = object.__new__(Rules)
    rules._set(extras, regions, None)
    return rules


def _square(cells: Iterable[tuple[int, int]], n: int) -> tuple[int, ...]:
    return tuple(sorted(r * n + c for r, c in cells))


class Geometry:
    """What ``rules`` mean on ``shape``: houses, peers and relation, derived once.

    Use :func:`geometry` (cached) rather than this constructor. Houses are listed rows
    (``0..n-1``), columns (``n..2n-1``), boxes or jigsaw regions (``2n..3n-1``), then the
    extra houses: diagonals, windows (the real windows first, then the implied ones), groups.
    """

    __slots__ = ("__dict__", "house_names", "houses", "n", "rules", "shape", "size")

    shape: Shape
    rules: Rules
    n: int
    size: int
    houses: tuple[tuple[int, ...], ...]
    house_names: tuple[str, ...]

    def __init__(self, shape: Shape, rules: Rules) -> None:
        n = shape.n
        self.shape, self.rules, self.n, self.size = shape, rules, n, n * n
        where = _Where(rules, shape)  # (the text of killer rules is made only for an error)
        if rules.side is not None and rules.side != n:
            raise InvalidRulesError(
                f"{where}: the {'jigsaw map' if rules.regions else 'cages'} are for side "
                f"{rules.side}, the grid's side is {n}"
            )
        if rules.cages is not None and n > CAGE_MAX_SIDE:
            raise InvalidRulesError(
                f"{where}: killer cages are taken on sides up to {CAGE_MAX_SIDE}"
            )
        if rules.cages is not None:  # the houses are those of the rules without cages
            plain = _geometry(shape, rules.without_cages)
            self.houses, self.house_names = plain.houses, plain.house_names
            return
        houses = list(shape.rows) + list(shape.cols)
        names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
        if rules.regions is None:
            houses += shape.boxes
            names += [f"box {i + 1}" for i in range(n)]
        else:
            regions = rules.regions
            members: list[list[int]] = [[] for _ in range(n)]
            for c, k in enumerate(regions):
                members[k].append(c)
            houses += [tuple(m) for m in members]
            names += [f"region {i + 1}" for i in range(n)]
        if "x" in rules.extras:
            houses.append(tuple(i * n + i for i in range(n)))
            houses.append(tuple(i * n + n - 1 - i for i in range(n)))
            names += ["diagonal 1", "diagonal 2"]
        if "windoku" in rules.extras:
            b = math.isqrt(n)
            if b * b != n or (rules.regions is None and shape.box_rows != shape.box_cols):
                raise InvalidRulesError(
                    f"{where}: windoku needs square boxes (windows of b x b cells on a side "
                    "of b*b), e.g. shapes 2x2, 3x3, 4x4"
                )
            # Windows are b x b squares at offsets 1 + k(b+1), k = 0..b-2, along each axis;
            # the b "gap" lines between and around them (0, b+1, 2(b+1), ...) form one more
            # group of b lines. Crossing the b-1 window bands and the gap group in rows with
            # the same in columns gives b*b squares of b*b cells: the (b-1)^2 windows, then
            # the 2b-1 implied houses. Every solution keeps the implied ones: the b rows of a
            # window band hold each digit b times; its b-1 windows hold it b-1 times; so its
            # gap columns hold it once (columns likewise); and the gap rows hold each digit b
            # times, b-1 of them in the (implied) houses just shown, so the gap x gap square
            # holds it once too.
            bands = [tuple(range(1 + k * (b + 1), 1 + k * (b + 1) + b)) for k in range(b - 1)]
            gaps = tuple(range(0, n, b + 1))
            for i, rows in enumerate(bands):
                for j, cols in enumerate(bands):
                    houses.append(_square(((r, c) for r in rows for c in cols), n))
                    names.append(f"window {i * (b - 1) + j + 1}")
            k = 0
            for rows in [*bands, gaps]:
                for cols in [*bands, gaps]:
                    if rows is gaps or cols is gaps:
                        k += 1
                        houses.append(_square(((r, c) for r in rows for c in cols), n))
                        names.append(f"implied window {k}")
        if "dg" in rules.extras:
            if rules.regions is not None:
                raise InvalidRulesError(
                    f"{where}: dg (disjoint groups) needs boxes, and a jigsaw replaces them"
                )
            boxes = shape.boxes
            houses += [tuple(sorted(box[p] for box in boxes)) for p in range(n)]
            names += [f"group {p + 1}" for p in range(n)]
        # Two rules may make the same set of cells a house (not on the shapes sudokit builds
        # today, but cheap to rule out): keep the first, so counts stay honest.
        seen: set[frozenset[int]] = set()
        kept: list[tuple[int, ...]] = []
        kept_names: list[str] = []
        for house, name in zip(houses, names, strict=True):
            key = frozenset(house)
            if key not in seen:
                seen.add(key)
                kept.append(house)
                kept_names.append(name)
        self.houses = tuple(kept)
        self.house_names = tuple(kept_names)

    def __repr__(self) -> str:
        return f"Geometry({self.shape!r}, {self.rules!r})"

    @cached_property
    def houses_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indexes into :attr:`houses` of the houses it is in."""
        found: list[list[int]] = [[] for _ in range(self.size)]
        for h, house in enumerate(self.houses):
            for c in house:
                found[c].append(h)
        return tuple(tuple(f) for f in found)

    def _steps(self, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        n = self.n
        if not steps:
            return ((),) * self.size
        out = []
        for cell in range(self.size):
            r, c = divmod(cell, n)
            out.append(
                tuple(
                    sorted(
                        (r + dr) * n + c + dc
                        for dr, dc in steps
                        if 0 <= r + dr < n and 0 <= c + dc < n
                    )
                )
            )
        return tuple(out)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells its neighbour rules (anti-knight, anti-king) add."""
        steps: tuple[tuple[int, int], ...] = ()
        if "antiknight" in self.rules.extras:
            steps += _KNIGHT
        if "antiking" in self.rules.extras:
            steps += _KING_DIAGONAL
        return self._steps(steps)

    @cached_property
    def cage_mates(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells of its killer cage (nothing without cages)."""
        cages = self.rules.cages
        if cages is None:
            return ((),) * self.size
        found: list[tuple[int, ...]] = []
        for c in range(self.size):
            cage = cages.cage_of(c)
            found.append(() if cage is None else tuple(x for x in cage.cells if x != c))
        return tuple(found)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells it must differ from, sorted."""
        houses, neighbours, mates = self.houses, self.neighbours, self.cage_mates
        found = []
        for c, (of, near, mate) in enumerate(zip(self.houses_of, neighbours, mates, strict=True)):
            cells = set(near).union(mate, *[houses[h] for h in of])
            cells.discard(c)
            found.append(tuple(sorted(cells)))
        return tuple(found)

    @cached_property
    def related(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells the ``nc`` relation ties it to (orthogonally adjacent
        ones), or nothing when the rules have no relation."""
        return self._steps(_ORTHOGONAL if "nc" in self.rules.extras else ())

    def cell_name(self, cell: int) -> str:
        return cell_name(cell, self.n)

    @cached_property
    def blob(self) -> bytes:
        """The geometry as the exact engine reads it: 32-bit ints ``[houses, stride, flags,
        boxes]``, then each house's n cells, then each cell's peers padded to ``stride`` by
        repeating its first (eliminating twice is harmless), then, with nc (flag 1), each
        cell's four orthogonal neighbours padded likewise, then, with cages (flag 2), the
        cages' :attr:`~sudokit.cages.Cages.blob`. ``boxes`` is 1 when the boxes are houses, so
        the engine's box/line step applies.

        With cages, all before them is the blob of the rules without cages (made once for
        them): the engine derives the rest itself (each cell's cage mates among its peers, and
        the sums the rule of 45 gives the cells of a house that its whole cages leave)."""
        cages = self.rules.cages
        if cages is not None:
            plain = _geometry(self.shape, self.rules.without_cages).blob
            flags = int.from_bytes(plain[8:12], "little") | 2
            return plain[:8] + flags.to_bytes(4, "little") + plain[12:] + cages.blob
        stride = max(len(p) for p in self.peers)
        flags = int("nc" in self.rules.extras)
        ints = [len(self.houses), stride, flags, int(self.rules.regions is None)]
        for house in self.houses:
            ints += house
        for p in self.peers:
            ints += p + (p[0],) * (stride - len(p))
        if flags & 1:
            for a in self.related:
                ints += a + (a[0],) * (4 - len(a))
        return struct.pack(f"<{len(ints)}i", *ints)


class _Where:
    """How an error names rules on a shape, written when it is shown."""

    def __init__(self, rules: Rules, shape: Shape) -> None:
        self.rules, self.shape = rules, shape

    def __format__(self, spec: str) -> str:
        return f"rules {_shorten(str(self.rules))!r} on shape {self.shape}"


def geometry(shape: Shape, rules: Rules = CLASSIC) -> Geometry:
    """The :class:`Geometry` of ``rules`` on ``shape``, built once per pair.

    Raises :class:`InvalidRulesError` when the rules do not fit the shape (windoku on boxes
    that are not square, a jigsaw map for another side, disjoint groups with a jigsaw)."""
    return _geometry(shape, rules)


@lru_cache(maxsize=256)
def _geometry(shape: Shape, rules: Rules) -> Geometry:
    return Geometry(shape, rules)


_SEED_MASK = (1 << 64) - 1


def random_regions(shape: Shape, maps: Sequence[Sequence[int]], seed: int) -> tuple[int, ...]:
    """A random jigsaw layout of side ``shape.n``: ``n`` connected regions of ``n`` cells
    (each cell's region, 0..n-1) that every map of ``maps`` (each the image of every cell:
    a symmetry's maps but the identity) takes onto regions, a function of the arguments.

    It starts from the shape's boxes and makes many random swaps: a cell of one region and a
    cell of a neighbouring region, both on the border between them, trade regions (with their
    images under the maps, so the layout keeps them) when both regions stay connected. The
    maps must take the shape's boxes onto boxes (any map of the square, for square boxes).
    Prime sides have no shape (no box is one cell thick), so no layout here.

    >>> r = random_regions(Shape(2, 2), [], 3)
    >>> len(r), sorted(r.count(k) for k in range(4))
    (16, [4, 4, 4, 4])
    """
    size = shape.size
    region = [0] * size
    for k, box in enumerate(shape.boxes):
        for c in box:
            region[c] = k
    for m in maps:
        image = [region[m[box[0]]] for box in shape.boxes]
        if any(region[m[c]] != image[region[c]] for c in range(size)):
            raise InvalidRulesError(
                f"a symmetry that does not map the boxes of shape {shape} onto boxes: no "
                "jigsaw layout grows from them with it"
            )
    images = b"".join(c.to_bytes(2, "little") for m in maps for c in m)
    return tuple(_engine.random_regions(shape.box_rows, shape.box_cols, images, seed & _SEED_MASK))
