"""Reading a source's records in pieces (:class:`RecordReader`), fast where the input is
lines as ``sudokit generate`` writes them, and handing plain pieces to worker processes
(:class:`Lines`)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice, repeat
from typing import Generic, TextIO, TypeVar

from .._grid import Grid
from .._text import shared_shape
from .comments import SOLUTION_MARK, only_sudoku_shapes, sudoku_or_none
from .records import PuzzleSource, Record, read_puzzles

__all__ = ["Lines", "RecordReader", "raw_pieces"]

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
            if comment and body != SOLUTION_MARK and sudoku_or_none(body):
                self.line += 1
                self.above.append(raw)
                return None
            self.fast = False
            return None
        note = m.group(2)
        if note is not None and not sudoku_or_none(note):
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
        return only_sudoku_shapes(text)

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
