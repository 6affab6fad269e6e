"""Reading puzzles from a stream, record by record (:func:`read_puzzles`), and where a
command's puzzles come from (:class:`PuzzleSource`)."""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from .._grid import Grid, conflict_reason
from .._shape import MAX_SIDE, Shape
from .._text import Bad, clean_cells, shared_shape, to_error
from ..errors import InvalidPuzzleError, InvalidShapeError
from .comments import SOLUTION_MARK, stated_rules, stated_shape
from .grid import (
    block_cells,
    cut_comment,
    dash_kind,
    is_dash_puzzle,
    json_cells,
    line_cells,
    starts_block,
)

__all__ = ["PuzzleSource", "Record", "make_record", "read_puzzles", "reads_alone"]

# Streaming reader ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """One puzzle read from a stream: a grid, or the error that stopped it.

    ``line`` is the 1-based number of the line where the puzzle's text starts; ``text`` is that
    text as read (several lines joined by ``\\n`` for a pretty grid); ``fmt`` is ``"line"``,
    ``"pretty"`` or ``"json"``, the format to answer in (see :func:`format_grid`). ``note`` is
    the comment that goes with the puzzle: the one on its line, or else the comment line just
    above it (where ``sudokit generate --format pretty`` states a record's index and seed).
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


def _body(raw: str) -> str:
    """``raw`` without its comment, stripped."""
    return cut_comment(raw).strip()


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
        if dash_kind(s, n) != "rule":
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
        row = dash_kind(s, n) != "rule"
        if (
            raw.lstrip().startswith(("{", "["))
            or (row and n is not None and (rows >= n or _whole_grid(s, n)))
            or (row and rows == 0 and not starts_block(s, shape))
            or is_dash_puzzle(s, n)
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
    rules: str | None = None,
) -> Iterator[Record]:
    """Read puzzles from ``lines`` (an open file, a list of lines, or one string), streaming.

    Yields one :class:`Record` per puzzle, in order, holding the grid or the error; a bad puzzle
    does not stop the reading. Errors start with ``source`` and the line number. Blank lines
    and ``#`` comment lines are skipped; see the module rules for what a line may hold.
    ``first_line`` is the number of the first line (for lines that start inside a stream).
    ``rules`` (text such as ``x``) are the rules of the puzzles whose records state none.

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
    stated_as: str | None = None  # the rules such a line states (its "rules=x"), if any
    columns: dict[str, int] | None = None  # from a CSV header line
    solution_next = False  # after a "# solution" line: the grid that follows is no puzzle
    above = ""  # the comment line just read, the note of a puzzle that follows it
    while True:
        item = src.next()
        if item is None:
            return
        lineno, raw = item
        if _LINK.fullmatch(raw):
            yield _foreign_record(lineno, raw, "line", source)
            above = ""
            continue
        if raw.lstrip().startswith(("{", "[")):
            yield make_record(lineno, raw, "json", source, shape, alphabet, None, "", rules)
            above = ""
            continue
        s = _body(raw)
        if not s:
            stated = stated_shape(raw) or stated
            stated_as = stated_rules(raw) or stated_as
            solution_next = solution_next or raw.strip() == SOLUTION_MARK
            above = raw.strip() if raw.strip() else above
            continue
        note = raw[raw.index("#") :].strip() if "#" in raw else above
        above = ""
        if columns is None and _is_csv_header(s):
            columns = _csv_columns(s)
            continue
        own = shape or stated_shape(raw) or stated
        ruled = stated_rules(raw) or stated_as or rules
        stated, stated_as = None, None
        if columns is not None and "puzzle" in columns:
            text, own = _csv_puzzle(s, columns, own)
            yield make_record(lineno, text, "line", source, own, alphabet, None, note, ruled)
        elif starts_block(s, own):
            block, rows = _collect(item, src, own)
            if not rows:
                continue  # rule lines outside any grid, e.g. section separators
            if solution_next:  # sudokit's grid records: "# solution", then the solution
                solution_next = False
                continue
            text = "\n".join(line for _, line in block)
            yield make_record(lineno, text, "pretty", source, own, alphabet, block, note, ruled)
        else:
            yield make_record(lineno, raw, "line", source, own, alphabet, None, note, ruled)


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
    return bool(s) and not _is_csv_header(s) and not starts_block(s, stated_shape(raw))


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
        rules: str | None = None,
    ) -> None:
        self.source = source
        self.shape = shape
        self.alphabet = alphabet
        #: The rules of puzzles whose records state none (text; None: classic).
        self.rules = rules
        #: Lines read in place of standard input (None: ``sys.stdin``).
        self.stdin = stdin
        self.kind = "stdin" if source == "-" else self._kind(source)
        #: How errors name it: the path, ``<stdin>`` or ``<argument>``.
        self.name = {"stdin": "<stdin>", "text": "<argument>"}.get(self.kind, source)

    @classmethod
    def _kind(cls, source: str) -> str:
        if len(source) > cls._PATH_MAX or "\n" in source or _LINK.fullmatch(source):
            return "text"  # (a link that does not read is a bad puzzle, not a missing file)
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
        read = partial(
            read_puzzles,
            shape=self.shape,
            alphabet=self.alphabet,
            source=self.name,
            rules=self.rules,
        )
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


_HEADER_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")
#: CSV column names that hold the puzzle (sudokit's own records say ``puzzle``).
_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "cells", "grid")


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


def make_record(
    lineno: int,
    text: str,
    fmt: str,
    source: str,
    shape: Shape | None,
    alphabet: str | None,
    block: list[tuple[int, str]] | None,
    note: str = "",
    rules: str | None = None,
) -> Record:
    """The record of a puzzle's text (a grid, or the error naming what is wrong and where).
    ``rules``: the text of the rules its record states (None: classic; a JSON record states
    them as its ``rules`` member)."""
    if fmt == "json" and (('"size"' in text and _FPUZZLES_JSON.match(text)) or _IPUZ_KIND in text):
        return _foreign_record(lineno, text, fmt, source)
    try:
        if fmt == "json":
            sh, cells = json_cells(text.strip(), lineno, shape, alphabet)
            if '"rules"' in text:
                rules = _json_rules(text, lineno)
        elif fmt == "line":
            sh, cells = line_cells(text, lineno, shape, alphabet)
        else:
            lines = [(ln, cut_comment(line)) for ln, line in block or ()]
            sh, cells = block_cells([(ln, s) for ln, s in lines if s.strip()], shape, alphabet)
        if rules is not None:
            return Record(lineno, _ruled(sh, cells, rules, lineno), None, text, fmt, note)
        reason = conflict_reason(sh, cells)
        if reason is not None:
            raise Bad(reason, lineno)
    except Bad as bad:
        if bad.line is None:
            bad.line = lineno
        return Record(lineno, None, to_error(bad, text=text, source=source), text, fmt, note)
    return Record(lineno, Grid.unchecked(sh, cells), None, text, fmt, note)


#: A line holding an f-puzzles or SudokuPad link to a puzzle (``?load=`` or ``/fpuzzles``
#: followed by the compressed puzzle object).
_LINK = re.compile(r"\s*https?://\S*(?:load=|/fpuzzles)\S+\s*")
#: The start of an f-puzzles puzzle object: its ``size`` (which sudokit's JSON records lack)
#: before or after its ``grid`` of cell objects.
_FPUZZLES_JSON = re.compile(r'\s*\{.*"(?:size"\s*:\s*\d|grid"\s*:\s*\[\s*\[\s*\{)', re.DOTALL)


#: What an ipuz Sudoku object states as its kind.
_IPUZ_KIND = '"http://ipuz.org/sudoku#'


def _foreign_record(lineno: int, text: str, fmt: str, source: str) -> Record:
    """The record of an f-puzzles / SudokuPad link, an f-puzzles puzzle object or an ipuz
    Sudoku object: the grid with the rules the puzzle states (its own, whatever the reader
    was told), or the error naming what is wrong."""
    from ..errors import InvalidRulesError
    from .fpuzzles import from_fpuzzles
    from .ipuz import from_ipuz

    try:
        grid = (from_ipuz if _IPUZ_KIND in text else from_fpuzzles)(text.strip())
    except (InvalidPuzzleError, InvalidRulesError) as e:
        bad = Bad(str(e), lineno)
        return Record(lineno, None, to_error(bad, text=text, source=source), text, fmt)
    return Record(lineno, grid, None, text.rstrip("\r\n"), fmt)


def _json_rules(text: str, lineno: int) -> str | None:
    """The ``rules`` member of a JSON record (text, or None when classic)."""
    import json  # (only records that state rules: not loaded to read plain lines)

    value = json.loads(text).get("rules")
    if value is None or value == "classic":
        return None
    if not isinstance(value, str):
        raise Bad(f"rules must be text such as 'x+windoku', got {value!r}", lineno)
    return value


def _ruled(shape: Shape, cells: bytes, rules: str, lineno: int) -> Grid:
    """The grid of a record that states ``rules``: read under them, so its clues are checked
    against them (a jigsaw's regions, not the boxes)."""
    from ..errors import InvalidRulesError

    try:
        return Grid.from_cells(bytes(cells), shape, rules=rules)
    except (InvalidRulesError, InvalidPuzzleError) as e:
        raise Bad(str(e), lineno) from None
