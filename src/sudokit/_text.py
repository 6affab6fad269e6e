"""Shared machinery of the text readers: symbols, shape inference and error placement.

Private: :mod:`sudokit.formats` documents the rules these helpers implement. Terms: a
**symbol** is one character standing for a digit; an **alphabet** is the string of symbols for
digits ``1, 2, ...``; a **segment** is ``(line number, line, start, stop)``, a piece of one input
line, kept so an error can name its line and column.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from ._shape import MAX_SIDE, Shape
from .errors import InvalidPuzzleError

#: Digit ``d`` is written ``DEFAULT_ALPHABET[d - 1]``.
DEFAULT_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: Characters read as an empty cell (``0`` only where it is not a digit symbol).
EMPTY_SYMBOLS = ".0-_*"
#: The 0-based alphabet (``0-F`` for 16x16) that lenient reading may infer.
ZERO_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Characters an alphabet may not use: empty markers, separators, comments.
RESERVED = frozenset(".-_*|+=#")
#: Sides of the grids with square boxes (k x k boxes, side k*k), up to the largest side.
SQUARE_SIDES = tuple(k * k for k in range(2, math.isqrt(MAX_SIDE) + 1))
#: Cell counts whose shape is inferred: side n = k*k gets k x k boxes.
INFERABLE = {n * n: n for n in SQUARE_SIDES}


class Bad(Exception):
    """A parse failure before it is placed in its source; ``line``/``col`` are 1-based."""

    def __init__(
        self, reason: str, line: int | None = None, col: int | None = None, text: str | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.col = col
        self.text = text


def shorten(text: str, col: int | None = None, width: int = 60) -> str:
    """``repr`` of ``text``, cut to a window of ``width`` characters (around ``col``)."""
    if len(text) <= width:
        return repr(text)
    start = 0 if col is None else max(0, min(col - 1 - width // 2, len(text) - width))
    end = start + width
    return (
        ("..." if start else "")
        + repr(text[start:end])
        + ("..." if end < len(text) else "")
        + f" ({len(text)} characters)"
    )


def to_error(
    bad: Bad, *, text: str, source: str | None = None, show_line: bool = True
) -> InvalidPuzzleError:
    where = [source] if source else []
    if bad.line is not None and (show_line or source):
        where.append(f"line {bad.line}")
    if bad.col is not None:
        where.append(f"column {bad.col}")
    shown = bad.text if bad.text is not None else text
    msg = f"{bad.reason}: {shorten(shown, bad.col)}" if shown.strip() else bad.reason
    return InvalidPuzzleError(f"{', '.join(where)}: {msg}" if where else msg)


def clean_cells(text: str) -> str:
    """The cell symbols of ``text``: whitespace and ``|`` removed."""
    return "".join(text.split()).replace("|", "")


# Symbols ---------------------------------------------------------------------------------------


class Symbols:
    """How one alphabet reads digits for one side ``n``.

    ``read`` maps each accepted character to its digit (0 = empty); ``table`` is the same for
    ASCII as a ``bytes.translate`` table with 255 for "not accepted".
    """

    __slots__ = ("alphabet", "n", "read", "table")

    def __init__(self, n: int, alphabet: str) -> None:
        self.n = n
        self.alphabet = alphabet
        digits = alphabet[:n]
        read = {ch: d for d, ch in enumerate(digits, 1)}
        if len({ch.lower() for ch in digits}) == len(digits):  # case folding is unambiguous
            for ch, d in list(read.items()):
                for other in (ch.lower(), ch.upper()):
                    if len(other) == 1:
                        read.setdefault(other, d)
        for ch in EMPTY_SYMBOLS:
            read.setdefault(ch, 0)
        table = bytearray(b"\xff" * 256)
        for ch, d in read.items():
            if ord(ch) < 128:
                table[ord(ch)] = d
        self.read = read
        self.table = bytes(table)

    def unknown(self, ch: str) -> str:
        """Why ``ch`` is not accepted."""
        n, digits = self.n, self.alphabet[: self.n]
        if any(c in self.alphabet[n:] for c in {ch, ch.upper(), ch.lower()}):
            return (
                f"symbol {ch!r} is out of range for a {n}x{n} grid "
                f"(digits are {digits[0]}-{digits[-1]})"
            )
        return f"unknown symbol {ch!r} (digits are {digits[0]}-{digits[-1]})"


@lru_cache(maxsize=128)
def symbols(n: int, alphabet: str) -> Symbols:
    if not isinstance(alphabet, str) or len(alphabet) < n:
        raise Bad(f"alphabet {alphabet!r} has fewer than {n} symbols")
    if len(set(alphabet)) != len(alphabet):
        raise Bad(f"alphabet {alphabet!r} repeats a symbol")
    bad = [ch for ch in alphabet if ch in RESERVED or ch.isspace() or not ch.isprintable()]
    if bad:
        raise Bad(f"alphabet {alphabet!r} uses reserved character {bad[0]!r}")
    return Symbols(n, alphabet)


def choose(n: int, clean: str, alphabet: str | None) -> Symbols:
    """The symbols to read ``clean`` (the text of a grid of side ``n``) with; see rule 2."""
    if alphabet is not None:
        return symbols(n, alphabet)
    if n > len(DEFAULT_ALPHABET):
        raise Bad(f"a {n}x{n} grid needs an alphabet of {n} symbols (the default has 61)")
    if 10 <= n <= 35 and "0" in clean:
        top = DEFAULT_ALPHABET[n - 1]
        if (
            top not in clean
            and top.lower() not in clean
            and (clean.count("0") == n or any(m in clean for m in ".-_*"))
        ):
            return symbols(n, ZERO_ALPHABET)
    return symbols(n, DEFAULT_ALPHABET)


def decode(clean: str, syms: Symbols) -> bytes | None:
    """Digits for cell symbols (fast path); ``None`` if a symbol is not plain and accepted."""
    if not clean.isascii():
        return None
    out = clean.encode("ascii").translate(syms.table)
    return None if 255 in out else out


def decode_slow(segments: Sequence[tuple[int, str, int, int]], syms: Symbols) -> bytes:
    """Digits for ``(line number, line, start, stop)`` pieces of text; raise at a bad symbol."""
    out = bytearray()
    read = syms.read
    for lineno, line, start, stop in segments:
        for i in range(start, stop):
            ch = line[i]
            if ch == "|" or ch.isspace():
                continue
            d = read.get(ch)
            if d is None:
                raise Bad(syms.unknown(ch), lineno, i + 1, line)
            out.append(d)
    return bytes(out)


# Shapes ----------------------------------------------------------------------------------------


def box_options(n: int) -> list[str]:
    return [f"{a}x{n // a}" for a in range(2, n // 2 + 1) if n % a == 0]


@lru_cache(maxsize=256)
def shared_shape(box_rows: int, box_cols: int) -> Shape:
    """One :class:`Shape` object per geometry, so its cached peers and units are reused."""
    return Shape(box_rows, box_cols)


def infer_shape(count: int, box_cols: int | None = None) -> Shape:
    """The shape of a grid of ``count`` cells: from ``box_cols`` if given, else square boxes."""
    n = math.isqrt(count)
    if n * n == count and 4 <= n <= MAX_SIDE:
        if box_cols and 2 <= box_cols <= n // 2 and n % box_cols == 0:
            return shared_shape(n // box_cols, box_cols)
        if count in INFERABLE:
            side = math.isqrt(n)
            return shared_shape(side, side)
        options = box_options(n)
        hint = _candidates_hint(count)
        if options:
            raise Bad(
                f"{count} cells make a {n}x{n} grid whose boxes could be "
                f"{' or '.join(options)}: give the shape{hint}"
            )
    if count == 0:
        raise Bad("no cells: empty input")
    size = min(INFERABLE, key=lambda s: (abs(s - count), s))
    side = INFERABLE[size]
    raise Bad(f"expected {size} cells ({side}x{side}), got {count}{_candidates_hint(count)}")


def _candidates_hint(count: int) -> str:
    root = round(count ** (1 / 3))
    if root**3 == count and root in SQUARE_SIDES:
        return " (a candidates line? read it with parse_candidates)"
    return ""


def box_cols_hint(row: str) -> int | None:
    """Box width from a row's ``|``-separated groups when they are equal, else ``None``."""
    counts = [len(clean_cells(part)) for part in row.split("|")]
    while counts and counts[0] == 0:
        counts.pop(0)
    while counts and counts[-1] == 0:
        counts.pop()
    if len(counts) >= 2 and len(set(counts)) == 1:
        return counts[0]
    return None
