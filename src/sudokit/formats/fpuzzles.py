"""f-puzzles / SudokuPad puzzle JSON: the variant community's file and link format.

Terms (the fields as f-puzzles writes them, and SudokuPad's importer reads them):

- ``size``: the side n; ``grid``: n rows of n cell objects. A cell's ``value`` with
  ``"given": true`` is a clue (a value without it is a solver's entry, not part of the
  puzzle); ``region`` (0 to n-1) puts the cell in a region. Without ``region`` a cell is in
  f-puzzles' default box: boxes of ``h`` rows by ``n/h`` columns, ``h`` the largest divisor of
  n not above its square root (2x3 boxes for 6x6, 3x4 for 12x12).
- Rules, each a boolean field: ``diagonal+`` and ``diagonal-`` (both: sudokit's ``x``),
  ``antiknight``, ``antiking``, ``disjointgroups`` (``dg``), ``nonconsecutive`` (``nc``).
  ``extraregion`` lists extra houses as ``{"cells": ["R2C2", ...]}``: sudokit reads the
  windoku windows so, and writes ``windoku`` so. Regions that are not the default boxes
  make a jigsaw.
- ``title``, ``author``, ``ruleset`` (the rules in words), ``solution`` and f-puzzles' own
  settings carry no rule. ``killercage`` lists killer cages as ``{"cells": [...], "value":
  "<sum>"}`` (sudokit's ``killer`` rule; a cage without a sum is refused). Anything else
  (arrows, thermometers ...) is a rule sudokit does not know, and reading refuses it by name
  rather than drop it.
- The link form: lz-string's ``compressToBase64`` of the JSON text
  (:mod:`sudokit.formats.lzstring`), after ``https://www.f-puzzles.com/?load=`` or
  ``https://sudokupad.app/fpuzzles``.

>>> from sudokit import Grid
>>> g = Grid("1" + "." * 80, rules="x")
>>> data = to_fpuzzles(g)
>>> data["size"], data["diagonal+"], data["diagonal-"], data["grid"][0][0]
(9, True, True, {'value': 1, 'given': True})
>>> from_fpuzzles(fpuzzles_url(g)) == g
True
"""

from __future__ import annotations

import json
import math
import re
import urllib.parse
from collections.abc import Mapping
from typing import Any, Final

from .._grid import Grid
from .._shape import Shape, cell_name
from .._text import shared_shape
from ..cages import Cage, Cages
from ..errors import InvalidPuzzleError, InvalidRulesError, InvalidShapeError
from ..rules import Rules, geometry
from .lzstring import compress_to_base64, decompress_from_base64
from .statement import rules_statement

__all__ = [
    "FPUZZLES_LINK",
    "SUDOKUPAD_LINK",
    "default_box",
    "from_fpuzzles",
    "fpuzzles_url",
    "shape_and_regions",
    "sudokupad_url",
    "to_fpuzzles",
]

#: Where f-puzzles opens a compressed puzzle.
FPUZZLES_LINK: Final = "https://www.f-puzzles.com/?load="
#: Where SudokuPad opens one.
SUDOKUPAD_LINK: Final = "https://sudokupad.app/fpuzzles"

#: sudokit's extras and the f-puzzles field of each (``x`` takes both diagonals).
_FIELDS: Final = {
    "antiknight": "antiknight",
    "antiking": "antiking",
    "dg": "disjointgroups",
    "nc": "nonconsecutive",
}
#: Fields that carry no rule: metadata, and f-puzzles' own settings.
_INERT: Final = frozenset(
    {
        "size",
        "grid",
        "title",
        "author",
        "ruleset",
        "solution",
        "highlightConflicts",
        "disabledlogic",
        "truecandidatesoptions",
        "activeConstraints",
        "version",
    }
)
_CELL: Final = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)
_CELL_FIELDS: Final = frozenset(
    {"value", "given", "region", "c", "cArray", "highlight", "highlightArray"}
    | {"centerPencilMarks", "cornerPencilMarks", "givenPencilMarks", "candidates"}
)


def default_box(n: int) -> tuple[int, int]:
    """f-puzzles' default box (rows, columns) for side ``n``: ``h`` rows, ``h`` the largest
    divisor of ``n`` not above its square root, by ``n/h`` columns."""
    h = math.isqrt(n)
    while h > 1 and n % h:
        h -= 1
    return h, n // h


def _cell_ref(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def to_fpuzzles(
    grid: Grid | str,
    *,
    solution: Grid | None = None,
    title: str | None = None,
    author: str | None = None,
) -> dict[str, Any]:
    """The f-puzzles puzzle object of ``grid`` (its clues as givens, its rules as f-puzzles'
    fields, and the rules in words as ``ruleset``); ``solution``, ``title`` and ``author``
    are written when given."""
    grid = Grid.of(grid)
    shape, rules, n = grid.shape, grid.rules, grid.shape.n
    regions: tuple[int, ...] | None = rules.regions
    if regions is None and (shape.box_rows, shape.box_cols) != default_box(n):
        regions = tuple(shape.box_of(c) for c in range(shape.size))
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            digit = grid.cells[r * n + c]
            if digit:
                cell["value"] = digit
                cell["given"] = True
            if regions is not None:
                cell["region"] = regions[r * n + c]
            row.append(cell)
        rows.append(row)
    out: dict[str, Any] = {"size": n}
    if title is not None:
        out["title"] = title
    if author is not None:
        out["author"] = author
    statement = rules_statement(rules, n)
    if statement:
        out["ruleset"] = statement
    out["grid"] = rows
    if "x" in rules.extras:
        out["diagonal+"] = True
        out["diagonal-"] = True
    for name, field in _FIELDS.items():
        if name in rules.extras:
            out[field] = True
    if "windoku" in rules.extras:
        geo = geometry(shape, rules)
        out["extraregion"] = [
            {"cells": [_cell_ref(c, n) for c in house]}
            for house, name in zip(geo.houses, geo.house_names, strict=True)
            if name.startswith("window")
        ]
    if rules.cages is not None:
        out["killercage"] = [
            {"cells": [_cell_ref(c, n) for c in cage.cells], "value": str(cage.total)}
            for cage in rules.cages
        ]
    if solution is not None:
        if solution.shape != shape:
            raise InvalidPuzzleError(f"the solution is {solution.shape}, the puzzle {shape}")
        out["solution"] = list(solution.cells)
    return out


def fpuzzles_url(grid: Grid | str, *, link: str = FPUZZLES_LINK, **fields: Any) -> str:
    """A link that opens ``grid`` in f-puzzles (or, with ``link=SUDOKUPAD_LINK``, in
    SudokuPad): ``link`` followed by lz-string's base64 of :func:`to_fpuzzles`'s JSON.
    ``fields`` are :func:`to_fpuzzles`'s keyword arguments."""
    text = json.dumps(to_fpuzzles(grid, **fields), separators=(",", ":"))
    return link + compress_to_base64(text)


def sudokupad_url(grid: Grid | str, **fields: Any) -> str:
    """A link that opens ``grid`` in SudokuPad (see :func:`fpuzzles_url`)."""
    return fpuzzles_url(grid, link=SUDOKUPAD_LINK, **fields)


def _unpack(text: str) -> Any:
    """The puzzle object of JSON text, a compressed string or a link holding one."""
    body = text.strip()
    if not body.startswith("{"):
        for mark in ("load=", "/fpuzzles"):
            at = body.find(mark)
            if at >= 0:
                body = body[at + len(mark) :].split("&")[0].split("#")[0]
                break
        if "%" in body:
            body = urllib.parse.unquote(body)
        body = body.replace(" ", "+")  # a "+" a query string read as a space
        try:
            body = decompress_from_base64(body)
        except ValueError as exc:
            raise InvalidPuzzleError(f"f-puzzles link: {exc}") from None
    try:
        return json.loads(body)
    except ValueError as exc:
        raise InvalidPuzzleError(f"f-puzzles JSON: {exc}") from None


def from_fpuzzles(data: Mapping[str, Any] | str) -> Grid:
    """The :class:`Grid`, with its rules, of an f-puzzles puzzle: the object, its JSON text,
    its compressed (lz-string base64) form, or an f-puzzles / SudokuPad link holding it.

    Raise :class:`InvalidPuzzleError` naming what is wrong: a field of a rule sudokit does
    not know, a wrong size, a cell that is not a digit, regions that make no sudoku; or
    :class:`InvalidRulesError` for rules that do not fit together."""
    obj = _unpack(data) if isinstance(data, str) else data
    if not isinstance(obj, Mapping):
        raise InvalidPuzzleError("f-puzzles: the puzzle must be a JSON object")
    rows = obj.get("grid")
    size = obj.get("size", len(rows) if isinstance(rows, list) else None)
    if type(size) is not int or not 4 <= size <= 16:
        raise InvalidPuzzleError(
            f'f-puzzles "size" {size!r}: sudokit reads sizes 4 to 16 (as f-puzzles makes them)'
        )
    n = size
    if not isinstance(rows, list) or len(rows) != n:
        got = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise InvalidPuzzleError(f'f-puzzles "grid": expected {n} rows (size {n}), got {got}')
    cells = bytearray(n * n)
    labels: list[int | None] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise InvalidPuzzleError(f'f-puzzles "grid": row {r + 1} has {got} cells, not {n}')
        for c, cell in enumerate(row):
            where = f'f-puzzles "grid" at {cell_name(r * n + c, n)}'
            if not isinstance(cell, Mapping):
                raise InvalidPuzzleError(f"{where}: a cell must be an object")
            unknown = sorted(set(cell) - _CELL_FIELDS)
            if unknown:
                raise InvalidPuzzleError(f"{where}: unknown cell field {unknown[0]!r}")
            value = cell.get("value")
            if cell.get("given") and value is not None:
                if type(value) is not int or not 1 <= value <= n:
                    raise InvalidPuzzleError(f"{where}: given {value!r} is not a digit 1-{n}")
                cells[r * n + c] = value
            if "region" not in cell:
                labels.append(None)
                continue
            region = cell["region"]
            if type(region) is not int or not 0 <= region < n:
                raise InvalidPuzzleError(
                    f"{where}: region {region!r} is not a region number 0-{n - 1}"
                )
            labels.append(region)
    extras = _extras(obj)
    shape, regions = shape_and_regions(n, labels, "f-puzzles")
    try:
        windows = _windows(obj, shape, n)
    except InvalidRulesError as exc:
        raise InvalidPuzzleError(f'f-puzzles "extraregion": {exc}') from None
    if windows:
        extras.append("windoku")
    cages = _cages(obj.get("killercage"), n)
    return Grid.from_cells(
        bytes(cells), shape, rules=Rules.of(extras, regions=regions, cages=cages)
    )


def _cages(items: object, n: int) -> Cages | None:
    """The killer cages of ``killercage`` (each: ``cells`` and its sum as ``value``)."""
    if not items:
        return None
    if not isinstance(items, list):
        raise InvalidPuzzleError('f-puzzles "killercage" must be a list of cages')
    found = []
    for i, item in enumerate(items):
        where = f'f-puzzles "killercage" {i + 1}'
        if not isinstance(item, Mapping) or not isinstance(item.get("cells"), list):
            raise InvalidPuzzleError(f"{where}: a cage is an object with its cells")
        cells = tuple(_cell_index(ref, n, where) for ref in item["cells"])
        value = item.get("value")
        try:
            total = int(str(value).strip()) if value not in (None, "") else None
        except ValueError:
            total = None
        if total is None:
            at = cell_name(min(cells), n) if cells else "?"
            raise InvalidPuzzleError(
                f"{where} (at {at}): its sum {value!r} is not a whole number; sudokit's "
                "killer cages need their sums"
            )
        found.append(Cage(cells, total))
    return Cages(n, found)


def _cell_index(ref: object, n: int, where: str) -> int:
    m = _CELL.fullmatch(ref) if isinstance(ref, str) else None
    if m is None or not (1 <= int(m[1]) <= n and 1 <= int(m[2]) <= n):
        raise InvalidPuzzleError(f"{where}: {ref!r} is not a cell R1C1-R{n}C{n}")
    return (int(m[1]) - 1) * n + int(m[2]) - 1


def _extras(obj: Mapping[str, Any]) -> list[str]:
    """sudokit's extras from the rule fields; a field of a rule sudokit lacks is refused."""
    extras: list[str] = []
    known = {*_INERT, *_FIELDS.values(), "diagonal+", "diagonal-", "extraregion", "killercage"}
    for key, value in obj.items():
        if key in known or value in (None, False, [], {}, ""):
            continue
        if (
            key == "cage"
            and isinstance(value, list)
            and all(isinstance(x, Mapping) and not x.get("cells") for x in value)
        ):
            continue  # f-puzzles' metadata (title, rules ...) rides on cell-less cages
        supported = ", ".join(
            ["diagonal+", "diagonal-", "extraregion", "killercage", *_FIELDS.values()]
        )
        raise InvalidPuzzleError(
            f"f-puzzles constraint {key!r} is not one sudokit reads (it reads {supported}, "
            "and regions for a jigsaw)"
        )
    for key in ["diagonal+", "diagonal-", *_FIELDS.values()]:
        if key in obj and not isinstance(obj[key], bool):
            raise InvalidPuzzleError(f"f-puzzles {key!r} must be true or false, got {obj[key]!r}")
    plus, minus = bool(obj.get("diagonal+")), bool(obj.get("diagonal-"))
    if plus != minus:
        one, other = ("diagonal+", "diagonal-") if plus else ("diagonal-", "diagonal+")
        raise InvalidPuzzleError(
            f"f-puzzles {one!r} without {other!r}: sudokit's x rule makes both diagonals "
            "houses, and it has no rule for one"
        )
    if plus:
        extras.append("x")
    extras += [name for name, field in _FIELDS.items() if obj.get(field)]
    return extras


def shape_and_regions(
    n: int, labels: list[int | None], what: str
) -> tuple[Shape, tuple[int, ...] | None]:
    """The shape and, for a jigsaw, the regions that a side-``n`` grid's region labels make
    (None: the cell is in its default box, :func:`default_box`): boxes of some shape, in any
    numbering, are that shape's boxes. ``what`` names the format in errors."""
    rows, cols = default_box(n)
    try:
        default = shared_shape(rows, cols)
    except InvalidShapeError:
        default = None
    if all(label is None for label in labels):
        if default is None:
            raise InvalidPuzzleError(
                f"{what} size {n}: its default regions are rows, which make no sudoku; "
                "give the regions"
            )
        return default, None
    if default is not None:
        filled = [default.box_of(c) if label is None else label for c, label in enumerate(labels)]
    elif any(label is None for label in labels):
        raise InvalidPuzzleError(f"{what} size {n}: every cell needs its region")
    else:
        filled = [label for label in labels if label is not None]
    for a in range(2, n // 2 + 1):
        if n % a == 0:
            boxes = shared_shape(a, n // a)
            if _same_partition(filled, [boxes.box_of(c) for c in range(n * n)]):
                return boxes, None
    try:
        regions = Rules.of(regions=filled).regions
    except InvalidRulesError as exc:
        raise InvalidPuzzleError(f"{what} regions: {exc}") from None
    if default is None:
        raise InvalidPuzzleError(f"{what} size {n}: sudokit has no grid of side {n}")
    return default, regions


def _same_partition(a: list[int], b: list[int]) -> bool:
    """Whether labellings ``a`` and ``b`` group the cells alike (labels may differ)."""
    pairs = dict(zip(a, b, strict=True))
    same = all(pairs[x] == y for x, y in zip(a, b, strict=True))
    return same and len(set(pairs.values())) == len(pairs)


def _windows(obj: Mapping[str, Any], shape: Shape, n: int) -> bool:
    """Whether ``extraregion`` holds windoku's windows (and nothing else)."""
    items = obj.get("extraregion")
    if not items:
        return False
    if not isinstance(items, list):
        raise InvalidPuzzleError('f-puzzles "extraregion" must be a list')
    found = []
    for i, item in enumerate(items):
        refs = item.get("cells") if isinstance(item, Mapping) else None
        if not isinstance(refs, list):
            raise InvalidPuzzleError(f'f-puzzles "extraregion" {i + 1}: needs "cells"')
        where = f'f-puzzles "extraregion" {i + 1}'
        found.append(frozenset(_cell_index(ref, n, where) for ref in refs))
    geo = geometry(shape, Rules("windoku"))
    windows = {
        frozenset(h)
        for h, name in zip(geo.houses, geo.house_names, strict=True)
        if name.startswith("window")
    }
    if set(found) != windows or len(found) != len(windows):
        raise InvalidPuzzleError(
            'f-puzzles "extraregion": sudokit reads extra regions only as windoku\'s '
            f"{len(windows)} windows (r2c2, ...), and these are not they"
        )
    return True
