"""Pencil-mark (candidates) text: read leniently, write exactly.

Terms: the **candidates** of a cell are the digits it may still hold, kept as a **mask**, an
int with bit ``d-1`` set for digit ``d``; a **token** is one cell's candidates written as their
symbols (``1-9A-Za-z``, ascending: ``"1569"``); a cell with no candidates is written ``.``.

Two forms, both read by :func:`parse_candidates`:

- a **pencil-mark grid**: one row per line, cell tokens separated by spaces, ``|`` between boxes,
  rule lines (no digits, some ``-`` or ``=``, e.g. ``+-----+`` or HoDoKu's ``:---+---:``)
  between bands. Columns need not be aligned. A solved cell is a single digit.
- a **candidates line**: ``n*n*n`` characters, each cell ``n`` of them, position ``d-1`` holding
  the digit ``d`` or an empty marker (``.``, ``0``, ``-``, ``_``, ``*``). 729 characters for 9x9.

A single line of ``n*n`` space-separated tokens is read as a pencil-mark grid too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._shape import Shape, cell_name
from ._text import DEFAULT_ALPHABET, Bad, infer_shape, symbols, to_error
from .errors import InvalidPuzzleError

__all__ = ["format_candidates", "format_candidates_line", "parse_candidates"]

_TOKEN = re.compile(r"[^\s|]+")


def _is_rule(s: str) -> bool:
    return not any(ch.isalnum() for ch in s) and ("-" in s or "=" in s)


def _mask_of(token: str, lineno: int, line: str, col: int, n: int) -> int:
    if all(ch == "." for ch in token):
        return 0
    read = symbols(n, DEFAULT_ALPHABET).read
    mask = 0
    for i, ch in enumerate(token):
        d = read.get(ch)
        if not d:
            reason = symbols(n, DEFAULT_ALPHABET).unknown(ch)
            if d == 0:
                reason = f"empty marker {ch!r} inside a candidates token"
            raise Bad(reason, lineno, col + i, line)
        mask |= 1 << (d - 1)
    return mask


def _parse_tokens(
    rows: Sequence[tuple[int, str]], shape: Shape | None, one_line: bool
) -> tuple[Shape, list[int]]:
    """Masks from a pencil-mark grid given as its row lines ``(line number, line)``."""
    tokens = [(ln, line, m.start(), m.group()) for ln, line in rows for m in _TOKEN.finditer(line)]
    if one_line:
        try:
            sh = shape if shape is not None else infer_shape(len(tokens))
        except Bad as bad:
            raise Bad(bad.reason, rows[0][0], None, rows[0][1]) from None
        if len(tokens) != sh.size:
            raise Bad(f"expected {sh.size} cells, got {len(tokens)}", rows[0][0], None, rows[0][1])
    else:
        n = shape.n if shape is not None else len(_TOKEN.findall(rows[0][1]))
        for ln, line in rows:
            count = len(_TOKEN.findall(line))
            if count != n:
                raise Bad(f"expected {n} cells in this row, got {count}", ln, None, line)
        if len(rows) != n:
            raise Bad(f"expected {n} rows, got {len(rows)}", rows[0][0], None, rows[0][1])
        sh = shape if shape is not None else infer_shape(n * n, _box_cols(rows[0][1]))
    return sh, [_mask_of(tok, ln, line, start + 1, sh.n) for ln, line, start, tok in tokens]


def _box_cols(row: str) -> int | None:
    counts = [len(_TOKEN.findall(part)) for part in row.split("|")]
    counts = [c for c in counts if c] if counts else []
    return counts[0] if len(counts) >= 2 and len(set(counts)) == 1 else None


def _parse_line(lineno: int, line: str, shape: Shape | None) -> tuple[Shape, list[int]]:
    """Masks from a candidates line of ``n*n*n`` characters."""
    clean = "".join(line.split())
    size = len(clean)
    if shape is not None:
        n = shape.n
    else:
        root = round(size ** (1 / 3))
        n = next((r for r in (root - 1, root, root + 1) if r > 0 and r**3 == size), 0)
    if n == 0 or n**3 != size:
        expected = f"{shape.n**3}" if shape is not None else "n*n*n (729 for 9x9)"
        raise Bad(f"expected {expected} characters in a candidates line, got {size}", lineno)
    sh = shape if shape is not None else infer_shape(n * n)
    read = symbols(n, DEFAULT_ALPHABET).read
    masks = []
    for cell in range(n * n):
        mask = 0
        for j, ch in enumerate(clean[cell * n : cell * n + n]):
            d = read.get(ch)
            if d == j + 1:
                mask |= 1 << j
            elif d != 0:
                raise Bad(
                    f"expected {DEFAULT_ALPHABET[j]!r} or '.' for {cell_name(cell, n)} "
                    f"at character {cell * n + j + 1}, got {ch!r}",
                    lineno,
                    None,
                    line,
                )
        masks.append(mask)
    return sh, masks


def parse_candidates(text: str, *, shape: Shape | None = None) -> tuple[Shape, list[int]]:
    """The shape and candidate masks (bit ``d-1`` for digit ``d``) of a pencil-mark text.

    Raise :class:`InvalidPuzzleError`, and only that, for text that is not one.

    >>> shape, masks = parse_candidates('''
    ... +-------+-------+
    ... | 1  34 | 2  34 |
    ... | 2  34 | 1  34 |
    ... +-------+-------+
    ... | 34 1  | 34 2  |
    ... | 34 2  | 34 1  |
    ... +-------+-------+''')
    >>> shape, [bin(m) for m in masks[:2]]
    (Shape(2, 2), ['0b1', '0b1100'])
    """
    lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
    try:
        if not lines:
            raise Bad("empty input: no candidates")
        rows = [(i, line) for i, line in lines if not _is_rule(line)]
        if not rows:
            raise Bad("no rows: only rule lines", lines[0][0], None, lines[0][1])
        if len(rows) == 1:
            ln, line = rows[0]
            if len(_TOKEN.findall(line)) > 1:
                return _parse_tokens(rows, shape, one_line=True)
            return _parse_line(ln, line, shape)
        return _parse_tokens(rows, shape, one_line=False)
    except Bad as bad:
        raise to_error(bad, text=text, show_line=len(lines) > 1) from None


def _check_masks(shape: Shape, masks: Sequence[int]) -> None:
    if shape.n > len(DEFAULT_ALPHABET):
        raise ValueError(f"candidates of a {shape.n}x{shape.n} grid have no text form")
    if len(masks) != shape.size:
        raise InvalidPuzzleError(f"expected {shape.size} masks, got {len(masks)}")
    limit = 1 << shape.n
    for cell, mask in enumerate(masks):
        if not 0 <= mask < limit:
            raise InvalidPuzzleError(
                f"mask {repr(mask)[:30]} of {cell_name(cell, shape.n)} "
                f"is not a set of digits 1-{shape.n}"
            )


def _token(mask: int, n: int) -> str:
    return "".join(DEFAULT_ALPHABET[d] for d in range(n) if mask >> d & 1) or "."


def format_candidates(shape: Shape, masks: Sequence[int]) -> str:
    """A pencil-mark grid: aligned columns, ``|`` between boxes, ``+---+`` rules around bands.

    >>> print(format_candidates(Shape(2, 2), [1, 12, 2, 12, 2, 12, 1, 12] + [12, 1, 12, 2] * 2))
    +-------+-------+
    | 1  34 | 2  34 |
    | 2  34 | 1  34 |
    +-------+-------+
    | 34 1  | 34 2  |
    | 34 1  | 34 2  |
    +-------+-------+
    """
    _check_masks(shape, masks)
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    tokens = [_token(m, n) for m in masks]
    widths = [max(len(tokens[r * n + c]) for r in range(n)) for c in range(n)]
    stacks = range(0, n, bc)
    rule = "+" + "+".join("-" * (sum(widths[s : s + bc]) + bc + 1) for s in stacks) + "+"
    out = [rule]
    for r in range(n):
        row = tokens[r * n : r * n + n]
        parts = (" ".join(row[c].ljust(widths[c]) for c in range(s, s + bc)) for s in stacks)
        out.append("| " + " | ".join(parts) + " |")
        if (r + 1) % br == 0:
            out.append(rule)
    return "\n".join(out)


def format_candidates_line(shape: Shape, masks: Sequence[int]) -> str:
    """The candidates line: for each cell, ``n`` characters, the digit's symbol or ``.``.

    >>> format_candidates_line(Shape(2, 2), [0b1001] + [0b1111] * 15)[:8]
    '1..41234'
    """
    _check_masks(shape, masks)
    n = shape.n
    symbols_ = DEFAULT_ALPHABET[:n]
    return "".join(
        "".join(symbols_[d] if mask >> d & 1 else "." for d in range(n)) for mask in masks
    )
