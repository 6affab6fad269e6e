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
  A grid with rules (:mod:`sudokit.rules`) starts with a comment stating them and its shape,
  ``# rules=x shape=3x3``, read back with the grid; a jigsaw's separators are its region
  borders.
- **json**: ``{"shape": "3x3", "cells": "53..7...."}``; ``{"grid": [[5, 3, 0, ...], ...]}``
  (``0`` = empty) and ``"puzzle"`` in place of ``"cells"`` (as ``sudokit generate`` writes)
  are read too. ``"rules"`` holds the rules' text form (``"x+windoku"``) when not classic.
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


Other tools' formats: :mod:`~sudokit.formats.fpuzzles` (f-puzzles / SudokuPad JSON and links:
:func:`to_fpuzzles`, :func:`from_fpuzzles`, :func:`fpuzzles_url`, :func:`sudokupad_url`) and
:mod:`~sudokit.formats.ipuz` (ipuz Sudoku files: :func:`to_ipuz`, :func:`from_ipuz`).

The package's modules: :mod:`~sudokit.formats.grid` (one grid's text, and the writers),
:mod:`~sudokit.formats.records` (streams of records, :class:`PuzzleSource`),
:mod:`~sudokit.formats.reading` (reading in pieces, fast where it can) and
:mod:`~sudokit.formats.comments` (what a record's comment states).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._candidates import format_candidates, format_candidates_line, parse_candidates
from .._text import DEFAULT_ALPHABET, EMPTY_SYMBOLS
from .grid import (
    FORMATS,
    checked_cells,
    checked_parts,
    format_grid,
    format_line,
    format_pretty,
    from_json,
    parse_cells,
    parse_grid,
    symbol_table,
    to_json,
)
from .reading import Lines, RecordReader, raw_pieces
from .records import PuzzleSource, Record, read_puzzles, reads_alone

# json and csv are imported where a record of theirs is read or written: the start-up of
# ``sudokit solve`` on puzzle lines (tests/test_imports.py) needs neither. Other tools'
# formats load on first use of one of their names (PEP 562), for the same reason.
_LAZY = {
    "from_fpuzzles": "fpuzzles",
    "from_ipuz": "ipuz",
    "fpuzzles_url": "fpuzzles",
    "sudokupad_url": "fpuzzles",
    "to_fpuzzles": "fpuzzles",
    "to_ipuz": "ipuz",
}

if TYPE_CHECKING:
    from .fpuzzles import fpuzzles_url, from_fpuzzles, sudokupad_url, to_fpuzzles
    from .ipuz import from_ipuz, to_ipuz


def __getattr__(name: str) -> object:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


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
    "from_fpuzzles",
    "from_ipuz",
    "from_json",
    "fpuzzles_url",
    "parse_candidates",
    "parse_cells",
    "reads_alone",
    "parse_grid",
    "Lines",
    "PuzzleSource",
    "RecordReader",
    "checked_cells",
    "checked_parts",
    "symbol_table",
    "raw_pieces",
    "read_puzzles",
    "sudokupad_url",
    "to_fpuzzles",
    "to_ipuz",
    "to_json",
]
