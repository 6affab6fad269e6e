"""ipuz Sudoku (``"kind": ["http://ipuz.org/sudoku#1"]``): the open puzzle-file format.

Terms (ipuz's Sudoku fields, and how sudokit uses them):

- ``puzzle``: the rows of givens (0 = empty); ``solution``: the rows of the solution;
  ``charset``: the digit symbols; ``boxes``: whether the boxes are houses (false for a
  jigsaw).
- ``zones``: extra houses, each a GroupSpec ``{"cells": [[column, row], ...]}`` (1-based, as
  ipuz counts cells). sudokit writes every house its rules add: a jigsaw's regions (with
  ``"boxes": false``), the two diagonals, the windows, the disjoint groups. Reading, it
  recognises them from their cells; zones that are none of these are refused by name.
- ``cages``: killer cages, each a CalcSpec ``{"cells": [[column, row], ...], "value": sum,
  "operator": "+"}`` (cells counted like the zones'); sudokit writes them with
  ``"cageborder": "dashed"`` and ``"showoperators": false`` (a killer's cages all add), and
  reads cages whose operator is ``+`` or left out. A cage's errors name it (its sum and first
  cell).
- The neighbour rules and the relation (anti-knight, anti-king, non-consecutive) have no
  ipuz field: sudokit writes its rules' text form as the extension field ``sudokit:rules``
  (which it reads back first) and states them in words in ``intro``, which ipuz readers
  show.

>>> from sudokit import Grid
>>> g = Grid("1" + "." * 80, rules="x")
>>> data = to_ipuz(g)
>>> data["kind"], len(data["zones"]), data["zones"][0]["cells"][:2]
(['http://ipuz.org/sudoku#1'], 2, [[1, 1], [2, 2]])
>>> from_ipuz(data) == g
True
>>> killer = "killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2"
>>> k = to_ipuz(Grid("." * 16, shape=Shape(2, 2), rules=killer))
>>> k["cages"][0], k["cageborder"]
({'cells': [[1, 1], [2, 1]], 'value': 3, 'operator': '+'}, 'dashed')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .._grid import Grid
from .._shape import Shape, cell_name
from .._text import DEFAULT_ALPHABET
from ..cages import Cage, Cages
from ..errors import InvalidPuzzleError, InvalidRulesError
from ..rules import Rules, geometry
from .fpuzzles import default_box, shape_and_regions
from .statement import rules_statement

__all__ = ["IPUZ_KIND", "RULES_FIELD", "from_ipuz", "to_ipuz"]

#: The ipuz kind of a Sudoku.
IPUZ_KIND: Final = "http://ipuz.org/sudoku#1"
#: The extension field holding the rules' text form.
RULES_FIELD: Final = "sudokit:rules"
_VERSION: Final = "http://ipuz.org/v2"
#: Name prefixes of the extra houses (Geometry.house_names) that zones hold.
_ZONE_HOUSES: Final = ("region", "diagonal", "window ", "group")


def _zone(cells: tuple[int, ...], n: int) -> dict[str, Any]:
    return {"cells": [[c % n + 1, c // n + 1] for c in cells]}


def to_ipuz(
    grid: Grid | str, *, solution: Grid | None = None, title: str | None = None
) -> dict[str, Any]:
    """The ipuz Sudoku object of ``grid``: its givens, its rules' extra houses as ``zones``, its
    rules as ``sudokit:rules`` and in words as ``intro``; ``solution`` and ``title`` when
    given."""
    grid = Grid.of(grid)
    shape, rules, n = grid.shape, grid.rules, grid.shape.n
    out: dict[str, Any] = {"version": _VERSION, "kind": [IPUZ_KIND]}
    if title is not None:
        out["title"] = title
    statement = rules_statement(rules, n)
    if statement:
        out["intro"] = statement
        out[RULES_FIELD] = str(rules)
    # ipuz has no box shape: a shape other than the usual one for its side (2x3 for 6x6, as
    # f-puzzles has it) is written as regions, which read back as that shape's boxes
    boxes = rules.regions is None and (shape.box_rows, shape.box_cols) == default_box(n)
    out["charset"] = DEFAULT_ALPHABET[:n]
    out["displaycharset"] = True
    out["boxes"] = boxes
    out["puzzle"] = [list(grid.cells[r * n : r * n + n]) for r in range(n)]
    if solution is not None:
        if solution.shape != shape:
            raise InvalidPuzzleError(f"the solution is {solution.shape}, the puzzle {shape}")
        out["solution"] = [list(solution.cells[r * n : r * n + n]) for r in range(n)]
    if not boxes or not rules.is_classic:
        geo = geometry(shape, rules)
        out["zones"] = [
            _zone(house, n)
            for house, name in zip(geo.houses, geo.house_names, strict=True)
            if name.startswith(_ZONE_HOUSES) or (not boxes and name.startswith("box"))
        ]
    if rules.cages is not None:
        out["cageborder"] = "dashed"
        out["showoperators"] = False
        out["cages"] = [
            {**_zone(cage.cells, n), "value": cage.total, "operator": "+"} for cage in rules.cages
        ]
    return out


def _digit(value: object, charset: str, n: int, where: str) -> int:
    if value is None or value in (0, "0", "", "."):
        return 0
    if isinstance(value, Mapping):
        return _digit(value.get("given", value.get("value")), charset, n, where)
    if type(value) is int and 1 <= value <= n:
        return value
    if isinstance(value, str) and len(value) == 1 and value in charset:
        return charset.index(value) + 1
    raise InvalidPuzzleError(f"{where}: {value!r} is not a digit of the charset {charset!r}")


def _rows(obj: Mapping[str, Any], key: str, n: int, charset: str) -> bytes:
    rows = obj[key]
    if not isinstance(rows, list) or len(rows) != n:
        raise InvalidPuzzleError(f'ipuz "{key}": expected {n} rows')
    out = bytearray()
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            raise InvalidPuzzleError(f'ipuz "{key}": row {r + 1} does not have {n} cells')
        for c, value in enumerate(row):
            out.append(_digit(value, charset, n, f'ipuz "{key}" at {cell_name(r * n + c, n)}'))
    return bytes(out)


def from_ipuz(data: Mapping[str, Any] | str) -> Grid:
    """The :class:`Grid`, with its rules, of an ipuz Sudoku (the object or its JSON text).

    The rules are those of ``sudokit:rules`` when present, else those the zones and
    ``boxes`` make. Raise :class:`InvalidPuzzleError` naming what is wrong (not a Sudoku,
    a cell that is no digit, a zone that is no house sudokit knows)."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise InvalidPuzzleError(f"ipuz JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise InvalidPuzzleError("ipuz: the puzzle must be a JSON object")
    kinds = data.get("kind")
    if not isinstance(kinds, list) or not any(
        isinstance(k, str) and k.startswith("http://ipuz.org/sudoku") for k in kinds
    ):
        raise InvalidPuzzleError(f'ipuz "kind" {kinds!r}: not a Sudoku (http://ipuz.org/sudoku)')
    if "puzzle" not in data:
        raise InvalidPuzzleError('ipuz: a Sudoku needs "puzzle"')
    rows = data["puzzle"]
    n = len(rows) if isinstance(rows, list) else 0
    if not 4 <= n <= len(DEFAULT_ALPHABET):
        raise InvalidPuzzleError(f'ipuz "puzzle": {n} rows; sudokit reads sides 4 to 61')
    charset = data.get("charset", DEFAULT_ALPHABET[:n])
    if not isinstance(charset, str) or len(charset) != n:
        raise InvalidPuzzleError(f'ipuz "charset" {charset!r}: needs {n} symbols')
    cells = _rows(data, "puzzle", n, charset)
    stated = data.get(RULES_FIELD)
    if stated is not None and not isinstance(stated, str):
        raise InvalidPuzzleError(f'ipuz "{RULES_FIELD}" must be text such as "x+windoku"')
    extras, labels = _houses_of_zones(data, n)
    shape, regions = shape_and_regions(n, labels, "ipuz")
    rules = Rules.of(extras, regions=regions, cages=_cages(data, n))
    if stated is not None:
        given = Rules(stated)
        if (
            given.regions != rules.regions
            or not set(rules.extras) <= set(given.extras)
            or (rules.cages is not None and given.cages != rules.cages)
        ):
            raise InvalidPuzzleError(
                f'ipuz "{RULES_FIELD}" {stated!r} differs from the houses its zones make '
                f"({str(rules)!r})"
            )
        rules = given
    return Grid.from_cells(cells, shape, rules=rules)


def _zone_cells(
    zone: object, n: int, index: int, base: int, field: str = "zones"
) -> frozenset[int]:
    cells = zone.get("cells") if isinstance(zone, Mapping) else None
    if not isinstance(cells, list) or not cells:
        raise InvalidPuzzleError(f'ipuz "{field}" {index + 1}: needs "cells"')
    out = set()
    for xy in cells:
        ok = isinstance(xy, list) and len(xy) == 2 and all(type(v) is int for v in xy)
        x, y = (xy[0] - base, xy[1] - base) if ok else (-1, -1)
        if not (0 <= x < n and 0 <= y < n):
            raise InvalidPuzzleError(
                f'ipuz "{field}" {index + 1}: {xy!r} is not a cell [column, row] of the grid'
            )
        out.add(y * n + x)
    return frozenset(out)


def _base(groups: list[Any]) -> int:
    """1, as ipuz counts cells, unless a cell of ``groups`` has a coordinate 0 (some writers
    count from 0)."""
    coords = [
        v
        for z in groups
        if isinstance(z, Mapping) and isinstance(z.get("cells"), list)
        for xy in z["cells"]
        if isinstance(xy, list)
        for v in xy
    ]
    return 0 if 0 in coords else 1


def _cages(data: Mapping[str, Any], n: int) -> Cages | None:
    """The killer cages of ``cages`` (None when there are none): CalcSpecs that add."""
    specs = data.get("cages")
    if not specs:
        return None
    if not isinstance(specs, list):
        raise InvalidPuzzleError('ipuz "cages" must be a list')
    base = _base(specs)
    made = []
    for i, spec in enumerate(specs):
        cells = _zone_cells(spec, n, i, base, "cages")
        value = spec.get("value")
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if type(value) is not int:
            raise InvalidPuzzleError(f'ipuz "cages" {i + 1}: "value" {value!r} is not a sum')
        operator = spec.get("operator", "+")
        if operator != "+":
            raise InvalidPuzzleError(
                f'ipuz "cages" {i + 1}: operator {operator!r}; sudokit reads killer cages, '
                'which add ("+")'
            )
        made.append(Cage(tuple(sorted(cells)), value))
    return Cages(n, made)


def _houses_of_zones(data: Mapping[str, Any], n: int) -> tuple[list[str], list[int | None]]:
    """The extras and region labels the zones and ``boxes`` make: zones equal to the
    diagonals, the windows or the disjoint groups add those rules; with ``"boxes": false``
    the rest are the regions (None labels: the default boxes)."""
    zones = data.get("zones") or []
    if not isinstance(zones, list):
        raise InvalidPuzzleError('ipuz "zones" must be a list')
    base = _base(zones)
    found = [_zone_cells(z, n, i, base) for i, z in enumerate(zones)]
    extras = []
    # the groups depend on the box shape, which the regions give only later: try each
    shapes = [Shape(a, n // a) for a in range(2, n // 2 + 1) if n % a == 0]
    for name in ("x", "windoku", "dg"):
        for shape in shapes:
            try:
                geo = geometry(shape, Rules(name))
            except InvalidRulesError:
                continue
            houses = {
                frozenset(h)
                for h, k in zip(geo.houses, geo.house_names, strict=True)
                if k.startswith(_ZONE_HOUSES)
            }
            if houses <= set(found):
                extras.append(name)
                found = [z for z in found if z not in houses]
                break
    labels: list[int | None] = [None] * (n * n)
    if data.get("boxes", True) is False:
        for k, zone in enumerate(found):
            for c in zone:
                labels[c] = k
        if len(found) != n or None in labels or sum(map(len, found)) != n * n:
            raise InvalidPuzzleError(
                f'ipuz "boxes": false needs zones that split the grid into {n} regions; '
                f"the zones left make {len(found)}"
            )
    elif found:
        raise InvalidPuzzleError(
            f'ipuz "zones": a zone of {len(found[0])} cells is no house sudokit knows '
            "(it reads the diagonals, windoku's windows, disjoint groups, and regions with "
            '"boxes": false)'
        )
    return extras, labels
