"""Text formats for grids: read leniently, write exactly.

Terms:

- A **symbol** is the one character that stands for a digit in text. By default digit ``d`` is
  ``DEFAULT_ALPHABET[d - 1]``: ``1-9``, then ``A-Z`` (10-35), then ``a-z`` (36-61).
- An **alphabet** is the string of symbols for digits ``1, 2, 3, ...``; ``"0123456789ABCDEF"``
  makes ``0`` the digit 1 of a 16x16 grid. Alphabets may not use ``. - _ * | + = #`` or spaces.
- An **empty marker** stands for an empty cell: ``.``, ``-``, ``_``, ``*``, and ``0`` whenever
  ``0`` is not a digit symbol. Writers write ``.`` unless told otherwise.
- A **rule line** is a line made only of ``- + = |`` and spaces (``------+-------+------``):
  it separates bands of boxes and is skipped (but see rule 6). ``|`` and spaces inside a row
  are skipped too.

Formats (the names ``line``, ``pretty`` and ``json`` are what :func:`format_grid` takes):

- **line**: the ``n*n`` symbols on one line, row-major: 81 characters for 9x9.
- **pretty**: one row per line, with or without ``|`` and rule lines (see :meth:`Grid.to_pretty`).
- **json**: ``{"shape": "3x3", "cells": "53..7...."}``; ``{"grid": [[5, 3, 0, ...], ...]}``
  (``0`` = empty) and ``"puzzle"`` in place of ``"cells"`` (as ``sudokit generate`` writes)
  are read too.
- **candidates** (pencil marks): a bitmask per cell, bit ``d-1`` for digit ``d``, read from and
  written as a grid of cell tokens (``123 4 5689``, HoDoKu / SudokuWiki style) or as a
  *candidates line* of ``n*n*n`` characters (each cell ``n`` characters, the digit or ``.``).

Lenient reading rules:

1. Case: letters read case-insensitively when no two digit symbols differ only by case, i.e.
   for n <= 35 with the default alphabet (``a`` = ``A`` = 10).
2. Zero: ``0`` is empty unless it is a digit symbol. Without an explicit alphabet, a grid of
   side 10 to 35 is read with the 0-based alphabet ``0-9A-Z`` (``0-F`` for 16x16) when its text
   holds ``0`` but not the symbol of digit n (``G`` for 16x16), and either marks empty cells
   another way (``. - _ *``) or holds exactly n zeros (a complete grid). Otherwise ``0`` is
   empty. Pass ``alphabet=`` to be sure.
3. Shape: when not given, a square-box shape is inferred from the cell count (16, 81, 256,
   625, 1296 cells ...); for a pretty grid, equal ``|``-separated groups in a row give the box
   width (``1 2 3 | 4 5 6`` is a 2x3 box grid). Otherwise ``shape=`` is required.
4. Comments: ``#`` starts a comment that runs to the end of its line.
5. Extra fields: when a whole line is not a puzzle, the puzzle is its first *field* (fields are
   separated by whitespace, commas or semicolons) holding exactly n*n cells (any inferable
   count when the shape is unknown). So ``<81 symbols> ED=1.2/1.2/1.2``, ``<81>,label,8.9`` and
   ``hash <81> 7.2`` all read the 81-symbol puzzle.
6. A line of dashes only (no ``+`` or ``=``) with exactly n dashes is a row of empty cells
   (when n is not known yet, only if the dashes are spaced out or split by ``|``). A line of
   n*n dashes is a one-line empty puzzle. Rule lines outside any grid are skipped.

:func:`read_puzzles` streams a file: one puzzle per line, or pretty grids of several lines
separated by blank lines (a line holding n cells, or a rule line, starts one; it ends at a blank
line, once it has n rows and its bottom rule, or before a line holding a whole grid's square
count of cells, more than a row's: a short bad line above puzzle lines is one bad record and
the puzzles below it are read), or JSON documents one per line (a line starting
with ``{`` or ``[``). With no shape given, a line of 16 or 36 cells is a row of a 16x16 or
36x36 grid only if it has ``|``, spaces between cells, or a symbol above 4 or 6; otherwise it
is a whole 4x4 or 6x6 puzzle. Give ``shape=`` to be sure.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import chain, islice, repeat
from typing import Generic, TextIO, TypeVar

from ._candidates import format_candidates, format_candidates_line, parse_candidates
from ._grid import Grid, conflict_reason, require_classic
from ._shape import MAX_SIDE, Shape, cell_name
from ._text import (
    DEFAULT_ALPHABET,
    EMPTY_SYMBOLS,
    INFERABLE,
    SQUARE_SIDES,
    Bad,
    box_cols_hint,
    choose,
    clean_cells,
    decode,
    decode_slow,
    infer_shape,
    shared_shape,
    shorten,
    symbols,
    to_error,
)
from .errors import InvalidPuzzleError, InvalidShapeError

# json and csv are imported where a record of theirs is read or written: the start-up of
# ``sudokit solve`` on puzzle lines (tests/test_imports.py) needs neither.

__all__ = [
    "DEFAULT_ALPHABET",
    "EMPTY_SYMBOLS",
    "FORMATS",
    "Record",
    "format_candidates",
    "format_candidates_line",
    "format_grid",
    "format_line",
    "format_pretty",
    "from_json",
    "parse_candidates",
    "parse_cells",
    "reads_alone",
    "parse_grid",
    "Lines",
    "PuzzleSource",
    "RecordReader",
    "checked_cells",
    "symbol_table",
    "raw_pieces",
    "read_puzzles",
    "to_json",
]

#: The grid formats :func:`format_grid` writes.
FORMATS = ("line", "pretty", "json")

_DASHY = re.compile(r"[-+=|\s]+")
_FIELD = re.compile(r"[^\s,;]+")
_TOKEN = re.compile(r"[^\s|]+")
#: Sides that are also the cell count of a smaller grid (a 16-cell line: 4x4 puzzle or row?).
_AMBIGUOUS_SIDES = {
    k * k: k
    for k in range(4, math.isqrt(MAX_SIDE) + 1)
    if any(k % a == 0 and k // a >= 2 for a in range(2, k))  # k is the side of some shape
}


# Grid text -------------------------------------------------------------------------------------


def _cells_of(
    segments: Sequence[tuple[int, str, int, int]],
    shape: Shape | None,
    alphabet: str | None,
    box_cols: int | None = None,
) -> tuple[Shape, bytes]:
    """Read all cells of ``segments`` (see :func:`decode_slow`) as one grid."""
    clean = "".join(clean_cells(line[start:stop]) for _, line, start, stop in segments)
    lineno, line = segments[0][0], segments[0][1]
    try:
        sh = shape if shape is not None else infer_shape(len(clean), box_cols)
    except Bad as bad:
        raise Bad(bad.reason, lineno, None, line) from None
    if len(clean) != sh.size:
        raise Bad(f"expected {sh.size} cells, got {len(clean)}", lineno, None, line)
    syms = choose(sh.n, clean, alphabet)
    out = decode(clean, syms)
    if out is None:
        out = decode_slow(segments, syms)
    return sh, out


def _one_line(
    line: str, lineno: int, shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes]:
    """A one-line puzzle, allowing a comment and extra fields (rules 4 and 5)."""
    hash_at = line.find("#")
    body = line if hash_at < 0 else line[:hash_at]
    try:
        return _cells_of(((lineno, line, 0, len(body)),), shape, alphabet)
    except Bad as bad:
        whole = bad
    fields = [m.span() for m in _FIELD.finditer(body)]
    if len(fields) < 2:
        raise whole
    for start, stop in fields:
        count = stop - start - body.count("|", start, stop)
        if count == shape.size if shape is not None else count in INFERABLE:
            return _cells_of(((lineno, line, start, stop),), shape, alphabet)
    start, stop = max(fields, key=lambda f: f[1] - f[0])
    if stop - start >= 16:  # the most puzzle-like field explains the failure best
        return _cells_of(((lineno, line, start, stop),), shape, alphabet)
    raise whole


def _dash_kind(s: str, n: int | None) -> str | None:
    """For a line of only ``- + = |`` and spaces: ``"rule"`` or ``"row"``; else ``None``."""
    if not _DASHY.fullmatch(s):
        return None
    if "+" in s or "=" in s or "-" not in s:
        return "rule"
    k = s.count("-")
    if n is None:  # unknown side: only spaced dashes (``- - - | - - -``) look like a row
        spaced = len(s.split()) > 1 or "|" in s
        return "row" if spaced and k in SQUARE_SIDES else "rule"
    return "row" if k == n else "rule"


def _block(
    lines: Sequence[tuple[int, str]], shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes]:
    """A pretty grid from its non-blank lines ``(line number, text without comment)``."""
    n = shape.n if shape is not None else None
    if n is None:
        firsts = [s for _, s in lines if _dash_kind(s.strip(), None) != "rule"]
        if firsts:
            n = len(clean_cells(firsts[0]))
    rows = [(ln, s) for ln, s in lines if _dash_kind(s.strip(), n) != "rule"]
    if not rows:
        raise Bad("no rows: only rule lines", lines[0][0], None, lines[0][1])
    definite = [s for _, s in rows if _dash_kind(s.strip(), n) is None]
    box_cols = box_cols_hint(definite[0]) if definite and shape is None else None
    segments = [(ln, s, 0, len(s)) for ln, s in rows]
    try:
        return _cells_of(segments, shape, alphabet, box_cols)
    except Bad as bad:
        total = sum(len(clean_cells(s)) for _, s in rows)
        if bad.col is not None or n is None or total == n * n or not 4 <= n <= MAX_SIDE:
            raise  # a bad symbol or shape: already well placed; else explain the count
        reason = bad.reason
    hint = ""
    tokens = _TOKEN.findall(rows[0][1])
    if len(tokens) >= 4 and max(map(len, tokens)) > 1:
        hint = "; this looks like a pencil-mark grid (read it with parse_candidates)"
    for ln, s in rows:
        count = len(clean_cells(s))
        if count != n and len(rows) == n:
            raise Bad(f"expected {n} cells in this row, got {count}{hint}", ln, None, s)
    if all(len(clean_cells(s)) == n for _, s in rows):
        reason = f"expected {n} rows of {n} cells, got {len(rows)} rows"
    raise Bad(reason + hint, rows[0][0], None, rows[0][1])


def _json_cells(
    text: str, lineno: int, shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes]:
    """A grid from a JSON object (``shape`` and ``cells`` or ``grid``; ``puzzle`` is read as
    ``cells``, so sudokit's generated records read back) or a list of rows."""
    import json

    try:
        obj = json.loads(text)
    except RecursionError:
        raise Bad("invalid JSON: nested too deeply", lineno) from None
    except ValueError as exc:
        raise Bad(f"invalid JSON: {exc}", lineno) from None
    jshape: Shape | None = None
    if isinstance(obj, list):
        return _json_grid(obj, shape, lineno)
    if not isinstance(obj, dict):
        raise Bad("a JSON puzzle must be an object or a list of rows", lineno)
    spec = obj.get("shape")
    try:
        if isinstance(spec, str):
            parsed = Shape.parse(spec)
            jshape = shared_shape(parsed.box_rows, parsed.box_cols)
        elif isinstance(spec, list) and len(spec) == 2 and all(type(x) is int for x in spec):
            jshape = shared_shape(spec[0], spec[1])
        elif spec is not None:
            raise Bad(f'JSON "shape" must be like "3x3", got {repr(spec)[:40]}', lineno)
    except InvalidShapeError as exc:
        raise Bad(f'JSON "shape": {exc}', lineno) from None
    if shape is not None and jshape is not None and shape != jshape:
        raise Bad(f"JSON shape {jshape} differs from the shape given, {shape}", lineno)
    sh = shape if shape is not None else jshape
    jalpha = obj.get("alphabet")
    if jalpha is not None and not isinstance(jalpha, str):
        raise Bad('JSON "alphabet" must be a string', lineno)
    key = "cells" if "cells" in obj or "puzzle" not in obj else "puzzle"
    cells = obj.get(key)
    if isinstance(cells, str):
        try:
            return _cells_of(((lineno, cells, 0, len(cells)),), sh, alphabet or jalpha)
        except Bad as bad:
            at = f" (character {bad.col})" if bad.col is not None else ""
            raise Bad(f'JSON "{key}": {bad.reason}{at}', lineno) from None
    if cells is not None:
        raise Bad(f'JSON "{key}" must be a string', lineno)
    if "grid" in obj:
        return _json_grid(obj["grid"], sh, lineno)
    raise Bad('a JSON puzzle needs "cells" (a string) or "grid" (a list of rows)', lineno)


def _json_grid(rows: object, shape: Shape | None, lineno: int) -> tuple[Shape, bytes]:
    if not isinstance(rows, list) or not rows:
        raise Bad('JSON "grid" must be a list of rows of digits (0 = empty)', lineno)
    nested = all(isinstance(r, list) for r in rows)
    flat: list[object] = [x for r in rows for x in r] if nested else rows
    if nested:
        n = shape.n if shape is not None else len(rows)
        for i, r in enumerate(rows):
            if len(r) != n:
                raise Bad(f'JSON "grid": row {i + 1} has {len(r)} cells, expected {n}', lineno)
    try:
        sh = shape if shape is not None else infer_shape(len(flat))
    except Bad as bad:
        raise Bad(f'JSON "grid": {bad.reason}', lineno) from None
    n = sh.n
    if len(flat) != sh.size:
        raise Bad(f'JSON "grid": expected {sh.size} cells, got {len(flat)}', lineno)
    for cell, x in enumerate(flat):
        if type(x) is not int or not 0 <= x <= n:
            raise Bad(
                f'JSON "grid": {cell_name(cell, n)} holds {repr(x)[:20]}, '
                f"expected a digit 0-{n} (0 = empty)",
                lineno,
            )
    return sh, bytes(flat)  # type: ignore[arg-type]  # every item checked to be an int


def _parse(text: str, shape: Shape | None, alphabet: str | None) -> tuple[Shape, bytes, str]:
    """Shape, cells and format name of any supported grid text; raise :class:`Bad`."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        return (*_json_cells(stripped, 1, shape, alphabet), "json")
    lines = []
    for i, raw in enumerate(text.splitlines(), 1):
        body = _cut(raw)
        if body.strip():
            lines.append((i, body))
    if not lines:
        raise Bad("no puzzle: the text is blank or only comments")
    if len(lines) == 1:
        return (*_one_line(lines[0][1], lines[0][0], shape, alphabet), "line")
    return (*_block(lines, shape, alphabet), "pretty")


def checked_cells(
    text: str, shape: Shape | str | None, alphabet: str | None, allow_conflicts: bool
) -> tuple[Shape, bytes]:
    """The shape and cells of a grid's text, checked (conflicting clues raise unless
    ``allow_conflicts``): what ``Grid(text)`` is built from. ``shape`` may be given as its
    text (:meth:`Shape.of`)."""
    if not isinstance(text, str):
        raise TypeError(f"expected the text of a puzzle, got {type(text).__name__} {text!r:.40}")
    shape = None if shape is None else Shape.of(shape)
    try:
        sh, cells, _ = _parse(text, shape, alphabet)
        if not allow_conflicts:
            reason = conflict_reason(sh, cells)
            if reason is not None:
                raise Bad(reason)
    except Bad as bad:
        multi = len(text.splitlines()) > 1 and not text.strip().startswith(("{", "["))
        raise to_error(bad, text=text, show_line=multi) from None
    return sh, cells


def parse_cells(
    text: str, *, shape: Shape | str | None = None, alphabet: str | None = None
) -> tuple[Shape, bytes]:
    """The shape and cell digits (``bytes``, 0 = empty) of a grid in any supported text form.

    Conflicting clues are *not* checked here (:func:`parse_grid` checks them).

    >>> shape, cells = parse_cells("1.3. ..12 .... 4..3")
    >>> shape, list(cells)
    (Shape(2, 2), [1, 0, 3, 0, 0, 0, 1, 2, 0, 0, 0, 0, 4, 0, 0, 3])
    """
    return checked_cells(text, shape, alphabet, allow_conflicts=True)


def parse_grid(
    text: str,
    *,
    shape: Shape | str | None = None,
    alphabet: str | None = None,
    allow_conflicts: bool = False,
) -> Grid:
    """A :class:`Grid` from a one-line, pretty (multi-line) or JSON text; see the module rules.

    Raise :class:`InvalidPuzzleError` naming what is wrong and where, and only that.
    """
    sh, cells = checked_cells(text, shape, alphabet, allow_conflicts)
    return Grid.unchecked(sh, cells)


def from_json(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: str | None = None,
    allow_conflicts: bool = False,
) -> Grid:
    """A :class:`Grid` from its JSON form (see :func:`to_json`)."""
    if not text.strip().startswith(("{", "[")):
        raise InvalidPuzzleError(f"not a JSON object: {shorten(text)}")
    return parse_grid(text, shape=shape, alphabet=alphabet, allow_conflicts=allow_conflicts)


# Writers ---------------------------------------------------------------------------------------


@lru_cache(maxsize=128)
def symbol_table(n: int, alphabet: str | None, empty: str) -> tuple[str, ...]:
    """Symbols to write, indexed by cell value (0 = empty)."""
    if alphabet is None:
        if n > len(DEFAULT_ALPHABET):
            raise ValueError(f"a {n}x{n} grid needs an explicit alphabet of {n} symbols")
        digits = DEFAULT_ALPHABET[:n]
    else:
        try:
            digits = symbols(n, alphabet).alphabet[:n]
        except Bad as bad:
            raise ValueError(bad.reason) from None
    if len(empty) != 1 or empty in digits or empty.isspace() or empty in "|#":
        raise ValueError(f"empty marker {empty!r} must be one character that is not a digit")
    return (empty, *digits)


@lru_cache(maxsize=128)
def _line_table(n: int, alphabet: str | None, empty: str) -> bytes | None:
    """A ``bytes.translate`` table from cell values to ASCII symbols, if they are all ASCII."""
    written = symbol_table(n, alphabet, empty)
    if not all(ch.isascii() for ch in written):
        return None
    table = bytearray(range(256))
    for value, ch in enumerate(written):
        table[value] = ord(ch)
    return bytes(table)


def format_line(grid: Grid, *, alphabet: str | None = None, empty: str = ".") -> str:
    """The one-line form: ``n*n`` symbols, row-major."""
    table = _line_table(grid.shape.n, alphabet, empty)
    if table is not None:
        return grid.cells.translate(table).decode("ascii")
    written = symbol_table(grid.shape.n, alphabet, empty)
    return "".join(map(written.__getitem__, grid.cells))


def format_pretty(grid: Grid, *, separators: bool = True, alphabet: str | None = None) -> str:
    """One row per line, cells separated by spaces; ``|`` and rule lines between boxes.

    See :meth:`Grid.to_pretty` for an example.
    """
    require_classic(grid, "the pretty text form")
    written = symbol_table(grid.shape.n, alphabet, ".")
    n, br, bc = grid.shape.n, grid.shape.box_rows, grid.shape.box_cols
    cells = grid.cells
    rule = "-+-".join("-" * (2 * bc - 1) for _ in range(n // bc))
    out = []
    for r in range(n):
        row = [written[d] for d in cells[r * n : r * n + n]]
        if not separators:
            out.append(" ".join(row))
            continue
        if r and r % br == 0:
            out.append(rule)
        out.append(" | ".join(" ".join(row[c : c + bc]) for c in range(0, n, bc)))
    return "\n".join(out)


def to_json(grid: Grid) -> str:
    """``{"shape": "3x3", "cells": "53..7...."}`` (a ``grid`` list of rows past 61 digits)."""
    require_classic(grid, "the JSON form")
    import json

    n = grid.shape.n
    if n <= len(DEFAULT_ALPHABET):
        return json.dumps({"shape": str(grid.shape), "cells": format_line(grid)})
    rows = [list(grid.cells[r * n : r * n + n]) for r in range(n)]
    return json.dumps({"shape": str(grid.shape), "grid": rows})


def format_grid(grid: Grid | str, fmt: str, *, alphabet: str | None = None) -> str:
    """``grid`` in one of :data:`FORMATS` (``"line"``, ``"pretty"`` or ``"json"``), with digits
    written in ``alphabet`` when one is given (JSON keeps digits)."""
    grid = Grid.of(grid)
    if fmt == "line":
        return format_line(grid, alphabet=alphabet)
    if fmt == "pretty":
        return format_pretty(grid, alphabet=alphabet)
    if fmt == "json":
        return to_json(grid)
    raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


# Streaming reader ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """One puzzle read from a stream: a grid, or the error that stopped it.

    ``line`` is the 1-based number of the line where the puzzle's text starts; ``text`` is that
    text as read (several lines joined by ``\\n`` for a pretty grid); ``fmt`` is ``"line"``,
    ``"pretty"`` or ``"json"``, the format to answer in (see :func:`format_grid`). ``note`` is
    the comment that goes with the puzzle: the one on its line, or else the comment line just
    above it (where ``sudokit generate --format grid`` states a record's index and seed).
    """

    line: int
    grid: Grid | None
    error: InvalidPuzzleError | None
    text: str
    fmt: str
    note: str = ""

    @property
    def ok(self) -> bool:
        """Whether the puzzle was read (``grid`` is set and ``error`` is ``None``)."""
        return self.error is None


class _Lines:
    """Numbered lines of a stream, without their line ends, with one line of push-back."""

    __slots__ = ("_back", "_it", "_n")

    def __init__(self, lines: Iterable[str], first_line: int = 1) -> None:
        self._it = iter(lines)
        self._n = first_line - 1
        self._back: tuple[int, str] | None = None

    def next(self) -> tuple[int, str] | None:
        if self._back is not None:
            item, self._back = self._back, None
            return item
        raw = next(self._it, None)
        if raw is None:
            return None
        self._n += 1
        if self._n == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        return self._n, raw.rstrip("\r\n")

    def push(self, item: tuple[int, str]) -> None:
        self._back = item


def _cut(raw: str) -> str:
    """``raw`` without its ``#`` comment."""
    hash_at = raw.find("#")
    return raw if hash_at < 0 else raw[:hash_at]


def _body(raw: str) -> str:
    """``raw`` without its comment, stripped."""
    return _cut(raw).strip()


def _starts_block(s: str, shape: Shape | None) -> bool:
    """Whether line ``s`` (no comment, stripped) starts a pretty grid rather than being one."""
    kind = _dash_kind(s, shape.n if shape is not None else None)
    if kind is not None:
        if kind == "rule" and ("+" in s or "=" in s):
            return True
        k = s.count("-")
        return k != shape.size if shape is not None else k not in INFERABLE
    count = len(clean_cells(s))
    if shape is not None:
        return count == shape.n
    if not 4 <= count <= MAX_SIDE:
        return False
    side = _AMBIGUOUS_SIDES.get(count)
    if side is not None:  # a whole small puzzle, unless it looks like a row (module rules)
        allowed = DEFAULT_ALPHABET[:side] + EMPTY_SYMBOLS
        return "|" in s or len(s.split()) > 1 or any(ch not in allowed for ch in s)
    return math.isqrt(count) ** 2 == count or "|" in s


def _is_dash_puzzle(s: str, n: int | None) -> bool:
    """Whether ``s`` is a one-line puzzle written all in dashes (every cell empty)."""
    if not _DASHY.fullmatch(s) or "+" in s or "=" in s:
        return False
    k = s.count("-")
    return k == n * n if n is not None else k in INFERABLE


def _collect(
    first: tuple[int, str], src: _Lines, shape: Shape | None
) -> tuple[list[tuple[int, str]], int]:
    """The lines of the pretty grid that starts with ``first``, and how many are rows.

    The grid ends at a blank line, at the end of the stream, or before a line that is not a
    rule once it has n rows (a rule line right after the last row is its bottom border). A
    line that cannot start a grid ends a grid that has no rows yet (a lone rule line).
    """
    block = [first]
    n = shape.n if shape is not None else None
    rows = 0

    def take(s: str) -> None:
        nonlocal n, rows
        if _dash_kind(s, n) != "rule":
            if n is None:
                n = len(clean_cells(s))
            rows += 1

    take(_body(first[1]))
    while True:
        item = src.next()
        if item is None:
            break
        raw = item[1]
        if not raw.strip():
            break
        s = _body(raw)
        if not s:
            if n is not None and rows >= n:  # a comment after a whole grid belongs to what follows
                src.push(item)
                break
            continue
        row = _dash_kind(s, n) != "rule"
        if (
            raw.lstrip().startswith(("{", "["))
            or (row and n is not None and (rows >= n or _whole_grid(s, n)))
            or (row and rows == 0 and not _starts_block(s, shape))
            or _is_dash_puzzle(s, n)
            or len(block) > 2 * (n or MAX_SIDE) + 8
        ):
            src.push(item)
            break
        block.append(item)
        take(s)
    return block, rows


def _whole_grid(s: str, n: int) -> bool:
    """Whether line ``s``, met where a row of ``n`` cells should be, is rather a whole grid:
    more cells than a row and a square count. It starts a record of its own, so that a short
    line above it (junk, a typo) is one bad record and does not swallow the puzzles below."""
    count = len(clean_cells(s))
    return count > n and math.isqrt(count) ** 2 == count


def _square_sides(n: int) -> tuple[int, int]:
    root = math.isqrt(n)
    if root * root != n:
        raise InvalidShapeError(f"side {n} has no square boxes")
    return root, root


def read_puzzles(
    lines: Iterable[str],
    *,
    shape: Shape | str | None = None,
    alphabet: str | None = None,
    source: str = "<stdin>",
    first_line: int = 1,
) -> Iterator[Record]:
    """Read puzzles from ``lines`` (an open file, a list of lines, or one string), streaming.

    Yields one :class:`Record` per puzzle, in order, holding the grid or the error; a bad puzzle
    does not stop the reading. Errors start with ``source`` and the line number. Blank lines
    and ``#`` comment lines are skipped; see the module rules for what a line may hold.
    ``first_line`` is the number of the first line (for lines that start inside a stream).

    >>> text = "# two 4x4 puzzles\\n1.3...12....4..3\\n1.1.............\\n"
    >>> for record in read_puzzles(text, source="x.txt"):
    ...     print(record.line, record.grid, record.error)
    2 1.3...12....4..3 None
    3 None x.txt, line 3: conflicting clues: digit 1 at r1c1 and r1c3 (row 1): '1.1.............'
    """
    shape = None if shape is None else Shape.of(shape)
    if shape is None and alphabet is not None:
        # An explicit alphabet names the side: n symbols for n digits (square boxes).
        with contextlib.suppress(InvalidShapeError):
            shape = shared_shape(*_square_sides(len(alphabet)))
    src = _Lines(io.StringIO(lines, newline=None) if isinstance(lines, str) else lines, first_line)
    stated: Shape | None = None  # from a comment line such as sudokit's "# index=… shape=2x3"
    columns: dict[str, int] | None = None  # from a CSV header line
    solution_next = False  # after a "# solution" line: the grid that follows is no puzzle
    above = ""  # the comment line just read, the note of a puzzle that follows it
    while True:
        item = src.next()
        if item is None:
            return
        lineno, raw = item
        if raw.lstrip().startswith(("{", "[")):
            yield _record(lineno, raw, "json", source, shape, alphabet, None)
            above = ""
            continue
        s = _body(raw)
        if not s:
            stated = _stated_shape(raw) or stated
            solution_next = solution_next or raw.strip() == "# solution"
            above = raw.strip() if raw.strip() else above
            continue
        note = raw[raw.index("#") :].strip() if "#" in raw else above
        above = ""
        if columns is None and _is_csv_header(s):
            columns = _csv_columns(s)
            continue
        own = shape or _stated_shape(raw) or stated
        stated = None
        if columns is not None and "puzzle" in columns:
            text, own = _csv_puzzle(s, columns, own)
            yield _record(lineno, text, "line", source, own, alphabet, None, note)
        elif _starts_block(s, own):
            block, rows = _collect(item, src, own)
            if not rows:
                continue  # rule lines outside any grid, e.g. section separators
            if solution_next:  # sudokit's grid records: "# solution", then the solution
                solution_next = False
                continue
            text = "\n".join(line for _, line in block)
            yield _record(lineno, text, "pretty", source, own, alphabet, block, note)
        else:
            yield _record(lineno, raw, "line", source, own, alphabet, None, note)


def reads_alone(raw: str) -> bool:
    """Whether :func:`read_puzzles` reads the line ``raw`` (without its line end) as one
    record that leaves the reading of later lines as it was: a puzzle line or a bad line, not
    a comment or blank line, a csv header, the start of a pretty grid, or text a reader of
    text splits into lines."""
    if "\r" in raw or "\n" in raw:
        return False
    if raw.lstrip().startswith(("{", "[")):
        return True
    s = _body(raw)
    return bool(s) and not _is_csv_header(s) and not _starts_block(s, _stated_shape(raw))


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")


class PuzzleSource:
    """Where a command's puzzles come from, given as one argument: ``-`` (standard input), the
    path of a file, or the text of the puzzles itself (a puzzle line, in quotes).

    A name that is neither a file nor a puzzle is reported as a missing file, not as a
    puzzle of the wrong length. ``records()`` reads it (once); ``count()`` counts a file's
    puzzles ahead, for a progress bar's total (None for standard input and text).

    >>> [r.grid.to_line() for r in PuzzleSource("1.3...12....4..3").records()]
    ['1.3...12....4..3']
    >>> next(PuzzleSource("/no/such/file.txt").records())
    Traceback (most recent call last):
      ...
    FileNotFoundError: [Errno 2] No such file or directory: '/no/such/file.txt'
    """

    #: Longer arguments are always puzzle text (no path is this long).
    _PATH_MAX = 4096

    def __init__(
        self,
        source: str,
        *,
        shape: Shape | None = None,
        alphabet: str | None = None,
        stdin: Iterable[str] | None = None,
    ) -> None:
        self.source = source
        self.shape = shape
        self.alphabet = alphabet
        #: Lines read in place of standard input (None: ``sys.stdin``).
        self.stdin = stdin
        self.kind = "stdin" if source == "-" else self._kind(source)
        #: How errors name it: the path, ``<stdin>`` or ``<argument>``.
        self.name = {"stdin": "<stdin>", "text": "<argument>"}.get(self.kind, source)

    @classmethod
    def _kind(cls, source: str) -> str:
        if len(source) > cls._PATH_MAX or "\n" in source:
            return "text"
        if os.path.exists(source):
            return "file"
        # Not a file: puzzle text if it reads as one puzzle, else a mistyped file name.
        parsed = list(read_puzzles([source]))
        if len(parsed) == 1 and parsed[0].ok:
            return "text"
        # A path separator, a file extension, or fewer symbols than the smallest puzzle.
        extension = _EXTENSION.search(source) is not None and source.count(".") <= 2
        named = os.sep in source or extension or len(source) < 16
        return "missing" if named else "text"

    def records(self) -> Iterator[Record]:
        """The puzzles, as :func:`read_puzzles` reads them. Raises OSError (at the first
        ``next``) for a file that cannot be read."""
        read = partial(read_puzzles, shape=self.shape, alphabet=self.alphabet, source=self.name)
        if self.kind == "stdin":
            yield from read(self.stdin if self.stdin is not None else sys.stdin)
        elif self.kind == "text":
            yield from read(self.source.splitlines())
        else:
            with open(self.source, encoding="utf-8", errors="replace") as f:
                yield from read(f)

    def count(self) -> int | None:
        """The number of puzzles in a file (a quick pass), or None for other sources."""
        if self.kind != "file" or not os.path.isfile(self.source):
            return None
        return sum(1 for _ in self.records())


_STATED_SHAPE = re.compile(r"#.*?\bshape=(\d+)x(\d+)\b")
_HEADER_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")
#: CSV column names that hold the puzzle (sudokit's own records say ``puzzle``).
_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "cells", "grid")


def _stated_shape(raw: str) -> Shape | None:
    """The shape a comment states (``# … shape=2x3 …``, as sudokit's records do), if valid."""
    m = _STATED_SHAPE.search(raw)
    if m is None:
        return None
    try:
        return shared_shape(int(m[1]), int(m[2]))
    except InvalidShapeError:
        return None


def _is_csv_header(s: str) -> bool:
    """A line of comma-separated names, none of them a puzzle: a CSV file's header."""
    fields = [f.strip() for f in s.split(",")]
    return len(fields) >= 2 and all(_HEADER_FIELD.fullmatch(f) for f in fields)


def _csv_columns(s: str) -> dict[str, int]:
    names = [f.strip().lower() for f in s.split(",")]
    columns = {name: i for i, name in enumerate(names)}
    puzzle = next((name for name in _PUZZLE_COLUMNS if name in columns), None)
    if puzzle is not None:
        columns["puzzle"] = columns[puzzle]
    return columns


def _csv_puzzle(s: str, columns: dict[str, int], shape: Shape | None) -> tuple[str, Shape | None]:
    """A CSV row's puzzle text, and its shape where a ``shape`` column states one."""
    import csv

    row = next(csv.reader([s]))
    at = columns["puzzle"]
    text = row[at].strip() if at < len(row) else s
    if shape is None and "shape" in columns and columns["shape"] < len(row):
        with contextlib.suppress(InvalidShapeError, ValueError):
            stated = Shape.parse(row[columns["shape"]])
            shape = shared_shape(stated.box_rows, stated.box_cols)
    return text, shape


def _record(
    lineno: int,
    text: str,
    fmt: str,
    source: str,
    shape: Shape | None,
    alphabet: str | None,
    block: list[tuple[int, str]] | None,
    note: str = "",
) -> Record:
    try:
        if fmt == "json":
            sh, cells = _json_cells(text.strip(), lineno, shape, alphabet)
        elif fmt == "line":
            sh, cells = _one_line(text, lineno, shape, alphabet)
        else:
            lines = [(ln, _cut(line)) for ln, line in block or ()]
            sh, cells = _block([(ln, s) for ln, s in lines if s.strip()], shape, alphabet)
        reason = conflict_reason(sh, cells)
        if reason is not None:
            raise Bad(reason, lineno)
    except Bad as bad:
        if bad.line is None:
            bad.line = lineno
        return Record(lineno, None, to_error(bad, text=text, source=source), text, fmt, note)
    return Record(lineno, Grid.unchecked(sh, cells), None, text, fmt, note)


# Reading in pieces -----------------------------------------------------------------------------

#: What a :class:`RecordReader` makes of each puzzle it reads: from its record, where it was
#: read (``NAME:LINE``) and its csv row by column name (None when it has none).
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Lines:
    """Plain lines (see :class:`RecordReader`) of a source, to be read where they are used
    (:meth:`RecordReader.resume`, in a worker process): the source's name, the number of
    lines before them and the comment lines since the last record, and whether they are
    all puzzle lines (checked so when they were cut: then they are read without checking
    each line again)."""

    name: str
    line: int
    above: tuple[str, ...]
    lines: list[str]
    puzzles_only: bool = False  # every line a puzzle line (no comment line among them)


class RecordReader(Generic[T]):
    """The records of a source in pieces (lists of at most ``size``), what
    :func:`read_puzzles` gives, read fast where the input allows.

    Lines as ``sudokit generate`` writes them (81 cells of ``1-9`` and ``.``, maybe a ``#``
    comment) take a fast path that gives the records :func:`read_puzzles` gives, except that
    it leaves the check for repeated digits to the caller (a puzzle that has them has no
    solution; the exact engine finds that). From the first line of any other kind on,
    :func:`read_puzzles` reads the rest. From standard input, a piece also ends where the
    input has nothing more for now, so a slow pipe is handled as it comes.

    Each read puzzle becomes ``make(record, where, row)`` (``where`` is ``NAME:LINE``, ``row``
    its csv row by column name, or None); a bad record stays a :class:`Record`.
    """

    def __init__(
        self,
        source: PuzzleSource | None,
        size: int,
        make: Callable[[Record, str, dict[str, str] | None], T],
        name: str = "",
    ) -> None:
        self.name = source.name if source is not None else name
        self.size = size
        self.make = make
        # The fast path applies to a source read with default options only.
        self.fast = source is None or (source.shape in (None, _SUDOKU) and source.alphabet is None)
        self.source = source
        self.line = 0  # lines read
        self.above: list[str] = []  # the comment and blank lines since the last record
        self.any_record = False
        # From standard input, a piece is what the input had to give.
        self.piecewise = source is not None and source.kind == "stdin"
        self.at_end = False  # the line last handed to read_puzzles ended its piece

    @classmethod
    def resume(
        cls, task: Lines, make: Callable[[Record, str, dict[str, str] | None], T]
    ) -> RecordReader[T]:
        """A reader where the lines of ``task`` start (they are all plain: see :meth:`tasks`)."""
        reader = cls(None, len(task.lines), make, task.name)
        reader.line, reader.above = task.line, list(task.above)
        return reader

    def read(self) -> Iterator[list[T | Record]]:
        """The pieces of the reader's source. Raises OSError (at the first ``next``) for a
        file that cannot be read."""
        assert self.source is not None, "a reader of a source"
        yield from self.pieces(raw_pieces(self.source, self.size))

    def pieces(self, pieces: Iterable[list[str]]) -> Iterator[list[T | Record]]:
        """The records of the given pieces of lines, in pieces of at most ``size``."""
        it = iter(pieces)
        out: list[T | Record] = []
        for piece in it:
            for k, raw in enumerate(piece) if self.fast else ():
                item = self.plain(raw)
                if item is not None:
                    out.append(item)
                    if len(out) >= self.size:
                        yield out
                        out = []
                elif not self.fast:  # this line, and all after it, the general way
                    piece = piece[k:]
                    break
            else:
                if self.fast:
                    if out and self.piecewise:
                        yield out
                        out = []
                    continue
            if out:
                yield out
            yield from self._slow(chain([piece], it))
            return
        if out:
            yield out

    def scan(self, raw: str) -> tuple[re.Match[str], str] | None:
        """What one line does to the reader's state, without making its record: for a
        puzzle line, its match (the cells are its group 1) and its note; None for a comment or
        blank line, and for a line the fast path does not take (``self.fast`` is then False,
        the state as before it)."""
        if self.line == 0 and raw.startswith("\ufeff"):
            raw = raw[1:]
        m = _PLAIN.fullmatch(raw)
        if m is None:
            body = raw.strip()
            comment = not body or body.startswith("#")
            if comment and body != "# solution" and _sudoku_or_none(body):
                self.line += 1
                self.above.append(raw)
                return None
            self.fast = False
            return None
        note = m.group(2)
        if note is not None and not _sudoku_or_none(note):
            self.fast = False
            return None
        self.line += 1
        if note is None:  # the comment line just above, as the reader takes it
            note = next((a.strip() for a in reversed(self.above) if a.strip()), "")
        else:
            note = note.strip()
        self.above.clear()
        self.any_record = True
        return m, note

    def plain(self, raw: str) -> T | None:
        """What one line read the fast way makes; None for a comment or blank line, and for
        a line the fast path does not take (``self.fast`` is then False)."""
        found = self.scan(raw)
        if found is None:
            return None
        m, note = found
        record = self.record_of(self.line, m.string, note)
        return self.make(record, f"{self.name}:{self.line}", None)

    @staticmethod
    def record_of(line: int, raw: str, note: str) -> Record:
        """The record of a puzzle line :meth:`scan` takes (``line``: its number, ``raw`` the
        line without a byte order mark, ``note`` what scan gives)."""
        grid = Grid.unchecked(_SUDOKU, RecordReader.cells_of(raw[:81]))
        return Record(line, grid, None, raw.rstrip("\r\n"), "line", note)

    @staticmethod
    def puzzle_lines(task: Lines) -> Iterator[tuple[int, str, str]]:
        """The puzzle lines of ``task`` as :meth:`scan` takes them: each line's number, the
        line (without a byte order mark: its cells are its first 81 characters) and its note.
        Lines checked as all puzzle lines when cut are sliced, not matched again."""
        if not task.puzzles_only:
            reader = RecordReader.resume(task, lambda r, w, row: r)
            for raw in task.lines:
                found = reader.scan(raw)
                if found is not None:
                    yield reader.line, found[0].string, found[1]
            assert reader.fast, "a task's lines were all checked plain"
            return
        above = next((a.strip() for a in reversed(task.above) if a.strip()), "")
        for k, raw in enumerate(task.lines, task.line + 1):
            yield k, raw, raw[81:].strip() or above
            above = ""

    @staticmethod
    def cells_of(text: str) -> bytes:
        """The cell values of the cells of plain lines (``1-9`` and ``.``), given as text."""
        return text.translate(_CELLS).encode("latin-1")

    def tasks(self, pieces: Iterable[list[str]]) -> Iterator[Lines | list[T | Record]]:
        """:meth:`pieces`, with the pieces the fast path takes whole left as :class:`Lines`
        (and the reader's state at their start) for a worker process to read: checking that
        a piece is plain costs less here than making its records and sending those. A piece
        of puzzle lines only is checked by one regular expression over the whole piece; one
        with comment lines (or anything the check is not sure of) line by line."""
        it = iter(pieces)
        for piece in it:
            if not self.fast:
                yield from self._slow(chain([piece], it))
                return
            line, above = self.line, tuple(self.above)
            if self._all_plain(piece):
                self.line += len(piece)
                self.above.clear()
                self.any_record = self.any_record or bool(piece)
                yield Lines(self.name, line, above, piece, puzzles_only=True)
                continue
            stop = next((k for k, raw in enumerate(piece) if not self._plain_line(raw)), None)
            if stop is None:
                yield Lines(self.name, line, above, piece)
                continue
            if stop:
                yield Lines(self.name, line, above, piece[:stop])
            yield from self._slow(chain([piece[stop:]], it))
            return

    def _all_plain(self, piece: list[str]) -> bool:
        """Whether every line of ``piece`` is a puzzle line :meth:`scan` takes (no comment
        or blank line among them, no byte order mark, no shape stated but 3x3): a sure
        answer when True; False sends the piece through :meth:`scan` line by line."""
        text = "".join(piece)
        if text.count("\n") < len(piece) - 1 or (self.line == 0 and text.startswith("\ufeff")):
            return False  # lines without their line ends (text split by lines); a BOM
        if not text.endswith("\n"):
            text += "\n"
        if _PLAIN_RUN.fullmatch(text) is None:
            return False
        # Every "shape=" a 3x3 one (or the lines say no shape at all).
        return "shape=" not in text or text.count("shape=") == len(_SHAPE_3X3.findall(text))

    def _plain_line(self, raw: str) -> bool:
        """:meth:`scan` of ``raw``: whether the fast path takes it."""
        self.scan(raw)
        return self.fast

    def _slow(self, pieces: Iterable[list[str]]) -> Iterator[list[T | Record]]:
        """The rest of the input through :func:`read_puzzles`, from the comment lines that
        came just before (they may state the shape of what follows); blank lines stand for
        the lines read before them, so the line numbers stay right."""
        skipped = self.line - len(self.above)
        lines = chain(repeat("\n", skipped), self.above, self._lines(pieces))
        tee = _Tee(lines, seen_body=self.any_record)
        src = self.source
        assert src is not None, "only a reader of a source hands over"
        read = read_puzzles(tee, shape=src.shape, alphabet=src.alphabet, source=src.name)
        out: list[T | Record] = []
        for rec in read:
            if rec.grid is None:
                out.append(rec)
            else:
                row = None
                raw = tee.raw.get(rec.line, "")
                if tee.columns is not None and rec.fmt == "line" and "," in raw:
                    import csv

                    values = next(csv.reader([raw]), [])
                    if len(values) == len(tee.columns):
                        row = dict(zip(tee.columns, values, strict=True))
                tee.forget_before(rec.line)
                out.append(self.make(rec, f"{self.name}:{rec.line}", row))
            if len(out) >= self.size or (self.piecewise and self.at_end):
                yield out
                out = []
        if out:
            yield out

    def _lines(self, pieces: Iterable[list[str]]) -> Iterator[str]:
        for piece in pieces:
            last = len(piece) - 1
            for k, line in enumerate(piece):
                self.at_end = k == last
                yield line


#: A line as ``sudokit generate`` writes a 9x9 puzzle: its cells, maybe a comment.
_PLAIN = re.compile(r"([1-9.]{81})[ \t]*(#.*)?\r?\n?")
#: Lines of :data:`_PLAIN` only, each with its line end.
_PLAIN_RUN = re.compile(r"(?:[1-9.]{81}[ \t]*(?:#[^\n]*)?\r?\n)*")
_SHAPE_3X3 = re.compile(r"shape=3x3\b")
_SUDOKU = shared_shape(3, 3)
_CELLS = str.maketrans({".": "\0", **{str(d): chr(d) for d in range(1, 10)}})
_SHAPE_WORD = re.compile(r"\bshape=\d+x\d+\b")


def _sudoku_or_none(comment: str) -> bool:
    """Whether ``comment`` (from its ``#`` on) states no shape, or 3x3."""
    if "shape=" not in comment:
        return True
    m = _SHAPE_WORD.search(comment)
    return m is None or m.group() == "shape=3x3" or _stated_shape(comment) in (None, _SUDOKU)


def raw_pieces(source: PuzzleSource, size: int) -> Iterator[list[str]]:
    """The lines of ``source`` in pieces (from standard input: what it has to give at a time, see
    :func:`_available`)."""
    if source.kind == "stdin":
        yield from _available(sys.stdin, size)
    elif source.kind == "text":
        yield source.source.splitlines()
    else:
        with open(source.source, encoding="utf-8", errors="replace") as f:
            yield from iter(lambda: f.readlines(256 * size), [])


def _available(stream: TextIO, size: int) -> Iterator[list[str]]:
    """The lines of ``stream`` in lists of what it has to give now (a pipe: what was written;
    at least one line, at most about ``size``)."""
    try:
        fd = stream.fileno()
        stream.buffer  # noqa: B018 - a text stream over bytes, or not
    except (AttributeError, OSError, ValueError):
        yield from (
            [line, *islice(stream, size - 1)] for line in stream
        )  # not a file: no way to ask what is there
        return
    import select

    tail = b""
    while True:
        data = os.read(fd, 1 << 16)
        if not data:
            break
        while len(data) < (1 << 20) and select.select([fd], [], [], 0)[0]:
            more = os.read(fd, 1 << 16)
            if not more:
                break
            data += more
        lines = (tail + data).split(b"\n")
        tail = lines.pop()
        if lines:
            text = [line.decode("utf-8", "replace") + "\n" for line in lines]
            for i in range(0, len(text), size):
                yield text[i : i + size]
    if tail:
        yield [tail.decode("utf-8", "replace")]


class _Tee:
    """The lines of a stream as :func:`read_puzzles` takes them, keeping the recent ones by
    line number (a record's csv row is its raw line) and the csv header when there is one."""

    def __init__(self, lines: Iterable[str], *, seen_body: bool = False) -> None:
        self._it = iter(lines)
        self.raw: dict[int, str] = {}
        self.columns: list[str] | None = None
        self._n = 0
        self._seen_body = seen_body  # a header is the first line with a body, or none

    def __iter__(self) -> Iterator[str]:
        for line in self._it:
            self._n += 1
            self.raw[self._n] = line
            body = line.strip()
            if not self._seen_body and body and not body.startswith("#"):
                self._seen_body = True
                names = [f.strip().lower() for f in body.split(",")]
                if len(names) >= 2 and all(_NAME.fullmatch(f) for f in names):
                    self.columns = names
            yield line

    def forget_before(self, line: int) -> None:
        for k in [k for k in self.raw if k < line]:
            del self.raw[k]


_NAME = re.compile(r"[a-z_][a-z0-9_ ]*")
