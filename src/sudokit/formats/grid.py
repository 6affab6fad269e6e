"""Grid text: reading one grid's text in any supported form, and writing the formats.

The text forms are those :mod:`sudokit.formats` describes. The helpers that read one line,
one pretty grid or one JSON document (:func:`line_cells`, :func:`block_cells`,
:func:`json_cells`) raise :class:`~sudokit._text.Bad`; the stream reader
(:mod:`sudokit.formats.records`) places it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .._grid import Grid, as_rules, conflict_reason, rules_conflicts
from .._shape import MAX_SIDE, Shape, cell_name
from .._text import (
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
from ..errors import InvalidPuzzleError, InvalidRulesError, InvalidShapeError

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = [
    "FORMATS",
    "block_cells",
    "checked_cells",
    "checked_parts",
    "cut_comment",
    "dash_kind",
    "format_grid",
    "format_line",
    "format_pretty",
    "from_json",
    "is_dash_puzzle",
    "json_cells",
    "json_parts",
    "line_cells",
    "parse_cells",
    "parse_grid",
    "starts_block",
    "symbol_table",
    "to_json",
]

#: The grid formats :func:`format_grid` writes.
FORMATS = ("line", "pretty", "json")

_DASHY = re.compile(r"[-+=|\s]+")
_FIELD = re.compile(r"[^\s,;]+")
_TOKEN = re.compile(r"[^\s|]+")
#: A pretty grid's header comment stating its rules and shape (``# rules=x shape=3x3``).
_STATED_RULES = re.compile(r"#.*?\brules=(\S+)")
_STATED_SHAPE = re.compile(r"#.*?\bshape=(\d+)x(\d+)\b")
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


def line_cells(
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


def dash_kind(s: str, n: int | None) -> str | None:
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


def block_cells(
    lines: Sequence[tuple[int, str]], shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes]:
    """A pretty grid from its non-blank lines ``(line number, text without comment)``."""
    n = shape.n if shape is not None else None
    if n is None:
        firsts = [s for _, s in lines if dash_kind(s.strip(), None) != "rule"]
        if firsts:
            n = len(clean_cells(firsts[0]))
    rows = [(ln, s) for ln, s in lines if dash_kind(s.strip(), n) != "rule"]
    if not rows:
        raise Bad("no rows: only rule lines", lines[0][0], None, lines[0][1])
    definite = [s for _, s in rows if dash_kind(s.strip(), n) is None]
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


def json_cells(
    text: str, lineno: int, shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes]:
    """A grid from a JSON object (``shape`` and ``cells`` or ``grid``; ``puzzle`` is read as
    ``cells``, so sudokit's generated records read back) or a list of rows."""
    sh, cells, _ = json_parts(text, lineno, shape, alphabet)
    return sh, cells


def json_parts(
    text: str, lineno: int, shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes, Rules | None]:
    """:func:`json_cells`, and the rules its ``"rules"`` field states (their text form, as
    :class:`~sudokit.rules.Rules` reads it), or None when it has none."""
    import json

    try:
        obj = json.loads(text)
    except RecursionError:
        raise Bad("invalid JSON: nested too deeply", lineno) from None
    except ValueError as exc:
        raise Bad(f"invalid JSON: {exc}", lineno) from None
    jshape: Shape | None = None
    if isinstance(obj, list):
        return (*_json_grid(obj, shape, lineno), None)
    if not isinstance(obj, dict):
        raise Bad("a JSON puzzle must be an object or a list of rows", lineno)
    stated = obj.get("rules")
    rules: Rules | None = None
    if stated is not None:
        if not isinstance(stated, str):
            raise Bad(f'JSON "rules" must be text such as "x+windoku", got {repr(stated)[:40]}')
        try:
            rules = as_rules(stated)
        except InvalidRulesError as exc:
            raise Bad(f'JSON "rules": {exc}', lineno) from None
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
            return (*_cells_of(((lineno, cells, 0, len(cells)),), sh, alphabet or jalpha), rules)
        except Bad as bad:
            at = f" (character {bad.col})" if bad.col is not None else ""
            raise Bad(f'JSON "{key}": {bad.reason}{at}', lineno) from None
    if cells is not None:
        raise Bad(f'JSON "{key}" must be a string', lineno)
    if "grid" in obj:
        return (*_json_grid(obj["grid"], sh, lineno), rules)
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


def _stated(lines: Sequence[str]) -> tuple[Rules | None, Shape | None]:
    """The rules and shape a pretty grid's header comment states (``# rules=x shape=3x3``)."""
    rules: Rules | None = None
    shape: Shape | None = None
    for lineno, raw in enumerate(lines, 1):
        found = _STATED_RULES.match(raw.strip())
        if found is not None:
            try:
                rules = as_rules(found.group(1))
            except InvalidRulesError as exc:
                raise Bad(f"stated rules: {exc}", lineno, None, raw) from None
        size = _STATED_SHAPE.match(raw.strip())
        if size is not None:
            try:
                shape = shared_shape(int(size.group(1)), int(size.group(2)))
            except InvalidShapeError as exc:
                raise Bad(f"stated shape: {exc}", lineno, None, raw) from None
    return rules, shape


def _parse(
    text: str, shape: Shape | None, alphabet: str | None
) -> tuple[Shape, bytes, str, Rules | None]:
    """Shape, cells, format name and stated rules of any supported grid text; raise
    :class:`Bad`."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        sh, cells, rules = json_parts(stripped, 1, shape, alphabet)
        return sh, cells, "json", rules
    lines = []
    raw_lines = text.splitlines()
    for i, raw in enumerate(raw_lines, 1):
        body = cut_comment(raw)
        if body.strip():
            lines.append((i, body))
    if not lines:
        raise Bad("no puzzle: the text is blank or only comments")
    if len(lines) == 1:
        return (*line_cells(lines[0][1], lines[0][0], shape, alphabet), "line", None)
    rules, stated_shape = _stated(raw_lines)
    if stated_shape is not None:
        if shape is not None and shape != stated_shape:
            raise Bad(f"the text states shape {stated_shape}, the shape given is {shape}")
        shape = stated_shape
    return (*block_cells(lines, shape, alphabet), "pretty", rules)


def checked_cells(
    text: str, shape: Shape | str | None, alphabet: str | None, allow_conflicts: bool
) -> tuple[Shape, bytes]:
    """The shape and cells of a grid's text, checked (conflicting clues raise unless
    ``allow_conflicts``), under the rules the text states if any. ``shape`` may be given as
    its text (:meth:`Shape.of`)."""
    sh, cells, _ = checked_parts(text, shape, alphabet, allow_conflicts)
    return sh, cells


def checked_parts(
    text: str,
    shape: Shape | str | None,
    alphabet: str | None,
    allow_conflicts: bool,
    rules: Rules | str | None = None,
) -> tuple[Shape, bytes, Rules | None]:
    """What ``Grid(text)`` is built from: the shape, cells and rules (None: classic) of a
    grid's text, checked. The rules are those given or, when none are given, those the text
    states (a JSON ``"rules"`` field, a pretty grid's ``# rules=...`` header); given rules
    that differ from stated ones are refused. Clues are checked under the rules: conflicting
    ones raise unless ``allow_conflicts``."""
    if not isinstance(text, str):
        raise TypeError(f"expected the text of a puzzle, got {type(text).__name__} {text!r:.40}")
    shape = None if shape is None else Shape.of(shape)
    given = None if rules is None else as_rules(rules)
    try:
        sh, cells, _, stated = _parse(text, shape, alphabet)
        if rules is not None and stated is not None and given != stated:
            raise Bad(
                f"the text states rules {str(stated)!r}, the rules given are "
                f"{str(given) if given is not None else 'classic'!r}"
            )
        kept = given if rules is not None else stated
        if kept is not None:
            from ..rules import geometry

            geometry(sh, kept)  # InvalidRulesError when they do not fit the shape
        if not allow_conflicts and kept is None:
            reason = conflict_reason(sh, cells)
            if reason is not None:
                raise Bad(reason)
    except Bad as bad:
        multi = len(text.splitlines()) > 1 and not text.strip().startswith(("{", "["))
        raise to_error(bad, text=text, show_line=multi) from None
    if not allow_conflicts and kept is not None:
        found = rules_conflicts(sh, kept, cells)
        if found:  # the sentence names the cells and the house or rule: the text adds nothing
            raise InvalidPuzzleError(found[0])
    return sh, cells, kept


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
    sh, cells, rules = checked_parts(text, shape, alphabet, allow_conflicts)
    return Grid.unchecked(sh, cells, rules=rules)


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

    A grid with rules beyond the classic ones starts with a comment line stating them and its
    shape (``# rules=x shape=3x3``), which :func:`parse_grid` reads back; a jigsaw's
    separators are its regions' borders (``|`` between cells of two regions, ``-`` below a
    cell whose region differs from the one under it, ``+`` where borders meet).

    See :meth:`Grid.to_pretty` for an example.
    """
    written = symbol_table(grid.shape.n, alphabet, ".")
    n, br, bc = grid.shape.n, grid.shape.box_rows, grid.shape.box_cols
    cells = grid.cells
    rules = grid.rules
    out = []
    if not rules.is_classic:
        out.append(f"# rules={rules} shape={grid.shape}")
    if rules.regions is not None and separators:
        return "\n".join(out + _region_rows(grid.cells, rules.regions, n, written))
    rule = "-+-".join("-" * (2 * bc - 1) for _ in range(n // bc))
    for r in range(n):
        row = [written[d] for d in cells[r * n : r * n + n]]
        if not separators:
            out.append(" ".join(row))
            continue
        if r and r % br == 0:
            out.append(rule)
        out.append(" | ".join(" ".join(row[c : c + bc]) for c in range(0, n, bc)))
    return "\n".join(out)


def _region_rows(
    cells: bytes, regions: tuple[int, ...], n: int, written: tuple[str, ...]
) -> list[str]:
    """A jigsaw's rows with its region borders drawn: each cell is followed by ``|`` (a border
    to its right) or a space; between two rows, a line with ``-`` under each cell on a border,
    ``|`` where a border runs on down, ``+`` where borders turn or meet (no line where no border
    runs between the rows). A border line with a ``-`` holds a ``+`` or is all dashes, so
    readers take every one for a rule line."""

    def wall(r: int, c: int) -> bool:  # border between (r, c) and (r, c + 1)
        return 0 <= r < n and c + 1 < n and regions[r * n + c] != regions[r * n + c + 1]

    def floor(r: int, c: int) -> bool:  # border between (r, c) and (r + 1, c)
        return 0 <= c < n and regions[r * n + c] != regions[(r + 1) * n + c]

    out = []
    for r in range(n):
        if r:
            line = []
            for c in range(n):
                line.append("-" if floor(r - 1, c) else " ")
                if c + 1 < n:
                    up, down = wall(r - 1, c), wall(r, c)
                    left, right = floor(r - 1, c), floor(r - 1, c + 1)
                    if up and down and not (left or right):
                        line.append("|")
                    elif left and right and not (up or down):
                        line.append("-")
                    else:
                        line.append("+" if up or down or left or right else " ")
            text = "".join(line).rstrip()
            if text:
                out.append(text)
        row = []
        for c in range(n):
            row.append(written[cells[r * n + c]])
            if c + 1 < n:
                row.append("|" if wall(r, c) else " ")
        out.append("".join(row))
    return out


def to_json(grid: Grid) -> str:
    """``{"shape": "3x3", "cells": "53..7...."}`` (a ``grid`` list of rows past 61 digits);
    a grid with rules beyond the classic ones has their text form as ``"rules"``."""
    import json

    n = grid.shape.n
    obj: dict[str, Any] = {"shape": str(grid.shape)}
    if not grid.rules.is_classic:
        obj["rules"] = str(grid.rules)
    if n <= len(DEFAULT_ALPHABET):
        obj["cells"] = format_line(grid)
    else:
        obj["grid"] = [list(grid.cells[r * n : r * n + n]) for r in range(n)]
    return json.dumps(obj)


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


def cut_comment(raw: str) -> str:
    """``raw`` without its ``#`` comment."""
    hash_at = raw.find("#")
    return raw if hash_at < 0 else raw[:hash_at]


def starts_block(s: str, shape: Shape | None) -> bool:
    """Whether line ``s`` (no comment, stripped) starts a pretty grid rather than being one."""
    kind = dash_kind(s, shape.n if shape is not None else None)
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


def is_dash_puzzle(s: str, n: int | None) -> bool:
    """Whether ``s`` is a one-line puzzle written all in dashes (every cell empty)."""
    if not _DASHY.fullmatch(s) or "+" in s or "=" in s:
        return False
    k = s.count("-")
    return k == n * n if n is not None else k in INFERABLE
