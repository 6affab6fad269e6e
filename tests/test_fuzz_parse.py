"""Fuzzing the readers: on any text, the only exception a parser may raise is InvalidPuzzleError.

Inputs are random bytes decoded as a file reader would (UTF-8 with replacement, Latin-1),
random text over the characters the formats care about, valid puzzles in every format with
random edits, and random JSON documents. Whatever parses must be a valid grid that writes
back to itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit._grid import Grid
from sudokit._shape import Shape
from sudokit.errors import InvalidPuzzleError
from sudokit.formats import (
    format_candidates,
    format_candidates_line,
    format_grid,
    format_line,
    from_json,
    parse_candidates,
    parse_cells,
    parse_grid,
    read_puzzles,
)

from grid_strategies import candidate_masks, grids

#: Characters that mean something to some format, plus a few troublemakers.
SPECIAL = (
    "0123456789ABCDEFGHabcdefgxyz.-_*|+=:' \t\n\r#{}[]\",;\x00\x0b\x0c\x1c\x85\u2028\ufeff×é€😀"
)
SHAPE_OPTIONS = [None, Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)]
ALPHABET_OPTIONS = [None, "0123456789ABCDEF", "abcdefghi"]

Parser = Callable[[str, Shape | None, str | None], object]


def _read_all(text: str, shape: Shape | None, alphabet: str | None) -> object:
    records = list(read_puzzles(text, shape=shape, alphabet=alphabet, source="fuzz"))
    records += list(read_puzzles(text.splitlines(keepends=True), shape=shape, alphabet=alphabet))
    for record in records:
        assert (record.grid is None) != (record.error is None)
        if record.error is not None:
            assert isinstance(record.error, InvalidPuzzleError)
            assert str(record.error).startswith(("fuzz, line ", "<stdin>, line "))
        if record.grid is not None:
            _check_grid(record.grid, shape)
    return records


PARSERS: list[Parser] = [
    lambda t, s, a: _check_grid(parse_grid(t, shape=s, alphabet=a), s),
    lambda t, s, a: _check_grid(Grid(t, shape=s, alphabet=a), s),
    lambda t, s, a: parse_cells(t, shape=s, alphabet=a),
    lambda t, s, a: _check_grid(from_json(t, shape=s, alphabet=a), s),
    lambda t, s, a: parse_candidates(t, shape=s),
    _read_all,
]


def _check_grid(grid: Grid, shape: Shape | None) -> Grid:
    """A parsed grid is valid and writes back to itself."""
    assert shape is None or grid.shape == shape
    assert len(grid.cells) == grid.shape.size
    assert max(grid.cells, default=0) <= grid.n
    assert grid.conflicts() == []
    for fmt in ("line", "pretty", "json"):
        assert parse_grid(format_grid(grid, fmt), shape=grid.shape) == grid
    return grid


def _only_invalid_puzzle_errors(text: str, shape: Shape | None, alphabet: str | None) -> None:
    for parse in PARSERS:
        try:
            parse(text, shape, alphabet)
        except InvalidPuzzleError as exc:
            message = str(exc)
            assert message and len(message) < 1000
        except Exception as exc:  # pragma: no cover - the failure being tested for
            raise AssertionError(f"{type(exc).__name__} escaped on {text!r}") from exc


options = st.tuples(st.sampled_from(SHAPE_OPTIONS), st.sampled_from(ALPHABET_OPTIONS))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["utf-8", "latin-1"]), options)
def test_random_bytes(data: bytes, encoding: str, opts: tuple[Shape | None, str | None]) -> None:
    _only_invalid_puzzle_errors(data.decode(encoding, errors="replace"), *opts)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=SPECIAL, max_size=300), options)
def test_random_format_characters(text: str, opts: tuple[Shape | None, str | None]) -> None:
    _only_invalid_puzzle_errors(text, *opts)


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=200), options)
def test_random_unicode(text: str, opts: tuple[Shape | None, str | None]) -> None:
    _only_invalid_puzzle_errors(text, *opts)


def _mutate(text: str, rnd: random.Random, edits: int) -> str:
    chars = list(text)
    for _ in range(edits):
        op = rnd.randrange(6)
        at = rnd.randrange(len(chars) + 1)
        if op == 0:
            chars.insert(at, rnd.choice(SPECIAL))
        elif op == 1 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 2 and chars:
            chars[min(at, len(chars) - 1)] = rnd.choice(SPECIAL)
        elif op == 3:  # duplicate a slice (lines, rows, cells)
            end = min(len(chars), at + rnd.randrange(1, 40))
            chars[at:at] = chars[at:end]
        elif op == 4:  # cut the tail
            del chars[at:]
        else:
            chars.insert(at, rnd.choice(["\n", "\n\n", " ", "#", "|", "------+------"]))
    return "".join(chars)


@settings(max_examples=200, deadline=None)
@given(
    grids(),
    st.sampled_from(["line", "pretty", "json", "candidates", "candidates-line"]),
    st.randoms(use_true_random=False),
    st.integers(0, 6),
    options,
)
def test_mutated_valid_puzzles(
    grid: Grid,
    fmt: str,
    rnd: random.Random,
    edits: int,
    opts: tuple[Shape | None, str | None],
) -> None:
    if fmt == "candidates":
        masks = [1 << (d - 1) if d else (1 << grid.n) - 1 for d in grid.cells]
        text = format_candidates(grid.shape, masks)
    elif fmt == "candidates-line":
        text = format_candidates_line(grid.shape, [rnd.getrandbits(grid.n) for _ in grid.cells])
    else:
        text = format_grid(grid, fmt)
    _only_invalid_puzzle_errors(_mutate(text, rnd, edits), *opts)


@settings(max_examples=50, deadline=None)
@given(candidate_masks(), st.randoms(use_true_random=False), st.integers(1, 4))
def test_mutated_candidates(item: tuple[Shape, list[int]], rnd: random.Random, edits: int) -> None:
    shape, masks = item
    text = _mutate(format_candidates(shape, masks), rnd, edits)
    _only_invalid_puzzle_errors(text, None, None)
    _only_invalid_puzzle_errors(text, shape, None)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats()
    | st.text(alphabet=SPECIAL, max_size=40),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(["shape", "cells", "grid", "alphabet", "x"]), inner)
    ),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(json_values, options)
def test_random_json(value: object, opts: tuple[Shape | None, str | None]) -> None:
    _only_invalid_puzzle_errors(json.dumps(value), *opts)


@settings(max_examples=100, deadline=None)
@given(
    grids(),
    st.sampled_from(["shape", "cells", "grid", "alphabet"]),
    json_values,
)
def test_json_with_one_bad_field(grid: Grid, key: str, value: object) -> None:
    n = grid.n
    obj: dict[str, object] = {
        "shape": str(grid.shape),
        "cells": format_line(grid),
        "grid": [list(grid.cells[r * n : r * n + n]) for r in range(n)],
    }
    obj[key] = value
    _only_invalid_puzzle_errors(json.dumps(obj), None, None)


def test_pathological_inputs() -> None:
    for text in [
        "",
        "\0" * 10_000,
        "[" * 100_000,
        "{" * 100_000,
        '{"grid": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"grid": [1' + "0" * 5000 + "]}",
        "\n" * 10_000,
        "-" * 10_000,
        "+" * 10_000,
        "|" * 10_000,
        "1" * 100_000,
        "1 " * 50_000,
        "\ud800" * 100,  # lone surrogates survive str-level parsing
        "\n".join(["1 2 3 4"] * 1000),
        "\n".join(["-" * 9] * 200),
        "\n".join(["+---+"] * 500 + ["1234"]),
    ]:
        _only_invalid_puzzle_errors(text, None, None)
        _only_invalid_puzzle_errors(text, Shape(3, 3), None)
