"""Text formats: round trips on every shape, lenient reading, exact writing, clear errors."""

from __future__ import annotations

import doctest
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import _candidates, formats
from sudokit._grid import Grid
from sudokit._shape import Shape
from sudokit.errors import InvalidPuzzleError
from sudokit.formats import (
    DEFAULT_ALPHABET,
    FORMATS,
    Record,
    format_candidates,
    format_candidates_line,
    format_grid,
    format_line,
    format_pretty,
    from_json,
    parse_candidates,
    parse_cells,
    parse_grid,
    read_puzzles,
    to_json,
)

from grid_strategies import SHAPES, candidate_masks, grids, solution_cells

DATA = Path(__file__).parents[1].parent / "shared" / "data"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SUDOKU = Shape(3, 3)
SQUARE = [s for s in SHAPES if s.box_rows == s.box_cols]


def grid_of(shape: Shape, seed: int = 1, keep: float = 0.5) -> Grid:
    rng = random.Random(seed)
    cells = bytes(d if rng.random() < keep else 0 for d in solution_cells(shape, rng))
    return Grid.from_cells(cells, shape)


def error_of(text: str, **kwargs: object) -> str:
    with pytest.raises(InvalidPuzzleError) as info:
        parse_grid(text, **kwargs)  # type: ignore[arg-type]
    return str(info.value)


def test_doctests() -> None:
    for module in (formats, _candidates):
        assert doctest.testmod(module).failed == 0


# Round trips on every shape ------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(grids())
def test_line_round_trip(grid: Grid) -> None:
    line = format_line(grid)
    assert len(line) == grid.shape.size and "\n" not in line
    assert parse_grid(line, shape=grid.shape) == grid
    assert Grid(line, shape=grid.shape) == grid
    if grid.shape.box_rows == grid.shape.box_cols:
        assert parse_grid(line) == grid
    if grid.n <= 9:
        assert parse_grid(format_line(grid, empty="0"), shape=grid.shape) == grid


@settings(max_examples=80, deadline=None)
@given(grids())
def test_pretty_round_trip(grid: Grid) -> None:
    pretty = format_pretty(grid)
    assert len(pretty.splitlines()) == grid.n + grid.n // grid.shape.box_rows - 1
    assert parse_grid(pretty, shape=grid.shape) == grid
    assert parse_grid(pretty) == grid  # box shape read from the | separators
    plain = format_pretty(grid, separators=False)
    assert "|" not in plain and len(plain.splitlines()) == grid.n
    assert parse_grid(plain, shape=grid.shape) == grid


@settings(max_examples=80, deadline=None)
@given(grids())
def test_json_round_trip(grid: Grid) -> None:
    text = to_json(grid)
    assert from_json(text) == grid == parse_grid(text) == Grid(text)
    obj = json.loads(text)
    assert obj == {"shape": str(grid.shape), "cells": format_line(grid)}
    n = grid.n
    rows = [list(grid.cells[r * n : r * n + n]) for r in range(n)]
    assert from_json(json.dumps({"shape": str(grid.shape), "grid": rows})) == grid


@settings(max_examples=60, deadline=None)
@given(grids(), st.sampled_from(FORMATS))
def test_format_grid_round_trip(grid: Grid, fmt: str) -> None:
    text = format_grid(grid, fmt)
    assert parse_grid(text, shape=grid.shape) == grid
    ((record),) = read_puzzles(
        [text + "\n"] if fmt != "pretty" else text.splitlines(), shape=grid.shape
    )
    assert record.grid == grid and record.fmt == fmt and record.error is None


@settings(max_examples=60, deadline=None)
@given(grids(), st.randoms(use_true_random=False))
def test_explicit_alphabet_round_trip(grid: Grid, rnd: random.Random) -> None:
    pool = list("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!$%&@^~")
    rnd.shuffle(pool)
    alphabet = "".join(pool[: grid.n])
    text = grid.to_line(alphabet=alphabet)
    assert parse_grid(text, shape=grid.shape, alphabet=alphabet) == grid
    pretty = format_pretty(grid, alphabet=alphabet)
    assert parse_grid(pretty, shape=grid.shape, alphabet=alphabet) == grid


@settings(max_examples=80, deadline=None)
@given(candidate_masks())
def test_candidates_round_trip(item: tuple[Shape, list[int]]) -> None:
    shape, masks = item
    text = format_candidates(shape, masks)
    assert parse_candidates(text, shape=shape) == (shape, masks)
    assert parse_candidates(text) == (shape, masks)  # shape read from the separators
    widths = {len(line) for line in text.splitlines()}
    assert len(widths) == 1  # aligned columns
    line = format_candidates_line(shape, masks)
    assert len(line) == shape.n**3
    assert parse_candidates(line, shape=shape) == (shape, masks)
    if shape.box_rows == shape.box_cols:
        assert parse_candidates(line) == (shape, masks)


def test_read_puzzles_round_trip_mixed() -> None:
    rng = random.Random(5)
    chunks: list[str] = []
    expected: list[tuple[int, Grid, str]] = []
    line = 1
    for i in range(60):
        grid = grid_of(SUDOKU, seed=i, keep=rng.random())
        fmt = rng.choice(FORMATS)
        text = format_grid(grid, fmt)
        expected.append((line, grid, fmt))
        chunks.append(text)
        line += text.count("\n") + 1
        if fmt == "pretty" or rng.random() < 0.3:
            chunks.append("")  # a blank line ends a pretty grid
            line += 1
    records = list(read_puzzles("\n".join(chunks) + "\n"))
    assert [(r.line, r.grid, r.fmt) for r in records] == expected


# Lenient reading -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        PUZZLE,
        f"  {PUZZLE}  \n",
        PUZZLE.replace(".", "0"),
        PUZZLE.replace(".", "-"),
        PUZZLE.replace(".", "_"),
        PUZZLE.replace(".", "*"),
        " ".join(PUZZLE[i : i + 9] for i in range(0, 81, 9)),
        "|".join(PUZZLE[i : i + 3] for i in range(0, 81, 3)),
        " ".join(PUZZLE),
        f"{PUZZLE} # a comment",
        f"{PUZZLE}#comment",
        f"{PUZZLE} ED=1.2/1.2/1.2",
        f"{PUZZLE}\t12\tsome label",
        f"{PUZZLE},HardestSudokusThread-00001;tarx0134,,,",
        f"00015097c6c3 {PUZZLE.replace('.', '0')}  7.2",
        "\n".join(PUZZLE[i : i + 9] for i in range(0, 81, 9)),
        "\n".join(PUZZLE[i : i + 27] for i in range(0, 81, 27)),
        f"# heading\n\n{PUZZLE}\n\n# trailer\n",
        f"\u3000{PUZZLE}\u00a0",  # unicode spaces around
    ],
)
def test_lenient_one_puzzle(text: str) -> None:
    assert parse_grid(text) == Grid(PUZZLE)


PRETTY_VARIANTS = [
    # classic, with rules
    Grid(PUZZLE).to_pretty(),
    # bordered, = rules, compact cells
    """
    +-----+-----+-----+
    |53.|.7.|...|
    |6..|195|...|
    |.98|...|.6.|
    +===+===+===+
    |8..|.6.|..3|
    |4..|8.3|..1|
    |7..|.2.|..6|
    +---+---+---+
    |.6.|...|28.|
    |...|419|..5|
    |...|.8.|.79|
    +---+---+---+
    """,
    # dashes for empty cells, and rows of dashes only
    "\n".join(" ".join(PUZZLE[r * 9 : r * 9 + 9].replace(".", "-")) for r in range(9)),
    # a comment line and a trailing comment inside the grid
    Grid(PUZZLE).to_pretty().replace("\n", "   # row\n", 1) + "\n# end",
]


@pytest.mark.parametrize("text", PRETTY_VARIANTS)
def test_lenient_pretty(text: str) -> None:
    assert parse_grid(text) == Grid(PUZZLE)


def test_dash_rows_are_empty_rows() -> None:
    g = Grid("1234" + "." * 12)
    text = "1 2 | 3 4\n- - | - -\n----+----\n- - | - -\n- - | - -"
    assert parse_grid(text) == g
    assert parse_grid("-" * 81) == Grid.empty(SUDOKU)


def test_shape_from_separators() -> None:
    g = grid_of(Shape(2, 3))
    assert parse_grid(g.to_pretty()).shape == Shape(2, 3)
    h = grid_of(Shape(3, 2))
    assert parse_grid(h.to_pretty()).shape == Shape(3, 2)
    msg = error_of(g.to_pretty(separators=False))
    assert "36 cells make a 6x6 grid whose boxes could be 2x3 or 3x2: give the shape" in msg
    assert "give the shape" in error_of(format_line(g))


def test_case_insensitive_up_to_35() -> None:
    g = grid_of(Shape(4, 4), keep=0.8)
    line = g.to_line()
    assert parse_grid(line.lower()) == g
    five = grid_of(Shape(5, 5), keep=0.8)
    assert parse_grid(five.to_line().lower()) == five
    six = Grid.empty(Shape(6, 6)).with_digit(0, 10).with_digit(1, 36)  # 'A' is 10, 'a' is 36
    assert six.to_line().startswith("Aa.") and parse_grid(six.to_line()) == six
    with pytest.raises(InvalidPuzzleError, match="symbol 'b' is out of range"):
        parse_grid("b" + "." * 1295)


def test_hex_zero_heuristic() -> None:
    hexa = "0123456789ABCDEF"
    g = grid_of(Shape(4, 4), keep=0.6)
    # 0-F with '.' for empty cells: 0 is a digit.
    assert parse_grid(g.to_line(alphabet=hexa)) == g
    assert parse_grid(g.to_line(alphabet=hexa).lower()) == g
    # A complete 0-F grid: exactly 16 zeros, no G.
    full = Grid.from_cells(solution_cells(Shape(4, 4), random.Random(3)), Shape(4, 4))
    assert parse_grid(full.to_line(alphabet=hexa)) == full
    # 1-G with 0 for empty cells (G present): 0 is empty.
    with_g = Grid.from_cells(bytes(0 if d == 1 else d for d in full.cells), Shape(4, 4))
    assert "G" in with_g.to_line() and with_g.to_line(empty="0").count("0") == 16
    assert parse_grid(with_g.to_line(empty="0")) == with_g
    # 1-G without G and more than 16 zeros: 0 is empty.
    no_g = Grid.from_cells(bytes(d if d < 16 else 0 for d in g.cells), Shape(4, 4))
    assert parse_grid(no_g.to_line(empty="0")) == no_g
    # An explicit alphabet always wins.
    assert parse_grid(no_g.to_line(empty="0"), alphabet=DEFAULT_ALPHABET) == no_g
    assert parse_grid(g.to_line(alphabet=hexa), alphabet=hexa) == g


def test_inferred_shapes_are_shared() -> None:
    # One Shape object per geometry, so cached geometry (peers, units) is computed once.
    assert parse_grid(PUZZLE).shape is parse_grid(PUZZLE.replace(".", "0")).shape
    assert from_json(
        '{"shape": "2x3", "grid": [' + ",".join(["[0,0,0,0,0,0]"] * 6) + "]}"
    ).shape is (parse_grid(grid_of(Shape(2, 3)).to_pretty()).shape)


def test_zero_is_empty_for_small_grids() -> None:
    assert parse_grid("0" * 16) == Grid.empty(Shape(2, 2))
    assert parse_grid(PUZZLE.replace(".", "0"), alphabet="123456789") == Grid(PUZZLE)


def test_json_forms() -> None:
    g = Grid(PUZZLE)
    rows = [list(g.cells[r * 9 : r * 9 + 9]) for r in range(9)]
    assert from_json(json.dumps({"grid": rows})) == g
    assert from_json(json.dumps({"shape": [3, 3], "grid": list(g.cells)})) == g
    assert from_json(json.dumps(rows)) == g
    assert from_json(json.dumps({"cells": PUZZLE, "note": "ignored"})) == g
    six = grid_of(Shape(2, 3))
    assert from_json(json.dumps({"cells": format_line(six)}), shape=Shape(2, 3)) == six
    assert (
        from_json(json.dumps({"alphabet": "abcdefghi", "cells": g.to_line(alphabet="abcdefghi")}))
        == g
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "invalid JSON"),
        ("[" * 50_000, "invalid JSON: nested too deeply"),
        ('"cells"', "not a JSON object"),
        ("{}", 'needs "cells" (a string) or "grid"'),
        ('{"cells": 5}', 'JSON "cells" must be a string'),
        ('{"cells": "12"}', 'JSON "cells": expected 16 cells (4x4), got 2'),
        ('{"cells": "1?' + "." * 14 + '"}', "unknown symbol '?' (digits are 1-4) (character 2)"),
        ('{"shape": "1x9", "cells": ""}', 'JSON "shape": invalid shape 1x9'),
        ('{"shape": 7, "cells": ""}', 'JSON "shape" must be like "3x3", got 7'),
        ('{"shape": "2x3", "grid": []}', "must be a list of rows"),
        ('{"grid": [[1, 2], [3]]}', "row 2 has 1 cells, expected 2"),
        ('{"grid": [[1, 2], [3, 4]]}', "expected 16 cells (4x4), got 4"),
        ('{"grid": [[1, 2, 3, 4], [1, 2, 3], [1], [1]]}', "row 2 has 3 cells, expected 4"),
        ('{"grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 5]]}', "r4c4 holds 5"),
        ('{"grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1.0]]}', "r4c4 holds 1.0"),
        ('{"grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, null]]}', "holds None"),
        ('{"grid": [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}', "r1c1 and r1c2"),
    ],
)
def test_json_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidPuzzleError) as info:
        from_json(text)
    assert message in str(info.value)


def test_json_shape_mismatch() -> None:
    with pytest.raises(
        InvalidPuzzleError, match="JSON shape 2x3 differs from the shape given, 3x2"
    ):
        from_json('{"shape": "2x3", "cells": ""}', shape=Shape(3, 2))


def test_parse_cells_does_not_check_conflicts() -> None:
    shape, cells = parse_cells("11" + "." * 14)
    assert shape == Shape(2, 2) and cells[:3] == b"\x01\x01\x00"
    assert parse_grid("11" + "." * 14, allow_conflicts=True).conflicts() == [(0, 1, 0), (0, 1, 8)]


# Error messages ------------------------------------------------------------------------------


def test_error_wrong_length() -> None:
    assert "expected 81 cells, got 80" in error_of(PUZZLE[:80], shape=SUDOKU)
    assert "expected 81 cells (9x9), got 80" in error_of(PUZZLE[:80])
    assert "expected 81 cells (9x9), got 82" in error_of(PUZZLE + "1")
    assert "expected 16 cells, got 81" in error_of(PUZZLE, shape=Shape(2, 2))
    assert "candidates line" in error_of("1" * 729)


def test_error_unknown_symbol() -> None:
    msg = error_of(PUZZLE[:10] + "!" + PUZZLE[11:])
    assert "column 11: unknown symbol '!'" in msg and "'53..7....6!" in msg
    msg = error_of(PUZZLE[:3] + "A" + PUZZLE[4:])
    assert "column 4: symbol 'A' is out of range for a 9x9 grid (digits are 1-9)" in msg
    assert "symbol 'h' is out of range" in error_of("h" + "." * 15)
    assert "unknown symbol 'é'" in error_of("é" + PUZZLE[1:])
    assert "unknown symbol '\\x00'" in error_of("\0" + PUZZLE[1:])
    hexa = "0123456789ABCDEF"
    assert "unknown symbol 'G' (digits are 0-F)" in error_of("G" + "." * 255, alphabet=hexa)


def test_error_in_pretty_grid_names_line_and_column() -> None:
    lines = Grid(PUZZLE).to_pretty().splitlines()
    lines[5] = lines[5][:4] + "?" + lines[5][5:]
    msg = error_of("\n".join(lines))
    assert msg.startswith("line 6, column 5: unknown symbol '?'")
    lines = Grid(PUZZLE).to_pretty().splitlines()
    lines[2] = lines[2][:-2]
    msg = error_of("\n".join(lines))
    assert msg.startswith("line 3: expected 9 cells in this row, got 8")
    lines = Grid(PUZZLE).to_pretty().splitlines()
    msg = error_of("\n".join(lines[:-1]))
    assert "expected 9 rows of 9 cells, got 8 rows" in msg


def test_error_conflict_names_cells_and_unit() -> None:
    msg = error_of("5...5" + "." * 76)
    assert "conflicting clues: digit 5 at r1c1 and r1c5 (row 1)" in msg
    assert "r1c1 and r9c1 (column 1)" in error_of("7" + "." * 71 + "7" + "." * 8)


def test_error_pencil_marks_hint() -> None:
    text = format_candidates(SUDOKU, [0b111] * 81)
    assert "parse_candidates" in error_of(text)


def test_error_messages_are_short_for_huge_input() -> None:
    for text in ("1" * 1_000_000, "x" * 1_000_000, PUZZLE + "\n" + "." * 500_000):
        msg = error_of(text)
        assert len(msg) < 300


def test_errors_on_empty_input() -> None:
    for text in ("", "   ", "\n\n", "# just a comment\n"):
        assert "no puzzle" in error_of(text)


def test_bad_alphabet() -> None:
    for alphabet in ("12345678", "1234567899", "12345678.", "1234 56789", "12345678#"):
        with pytest.raises(InvalidPuzzleError, match="alphabet"):
            parse_grid(PUZZLE, alphabet=alphabet)


def test_format_grid_rejects_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'svg'"):
        format_grid(Grid(PUZZLE), "svg")


# Candidates --------------------------------------------------------------------------------


HODOKU_STYLE = """
.----------------.-----------------.--------------.
| 5   3    124   | 268   7    1268 | 1489 1249 248 |
| 6   247  247   | 1     9    5    | 3478 234  2478|
| 12  9    8     | 23    34   234  | 1345 6    247 |
:----------------+-----------------+--------------:
| 8   1257 12579 | 579   6    147  | 4579 2459 3   |
| 4   25   2569  | 8     5    3    | 579  259  1   |
| 7   15   1359  | 59    2    14   | 4589 459  6   |
:----------------+-----------------+--------------:
| 9   6    1     | 357   35   7    | 2    8    4   |
| 23  278  27    | 4     1    9    | 36   23   5   |
| 23  245  2345  | 2356  8    26   | 136  7    9   |
'----------------'-----------------'--------------'
"""


def test_parse_candidates_hodoku_style() -> None:
    shape, masks = parse_candidates(HODOKU_STYLE)
    assert shape == SUDOKU and len(masks) == 81
    assert masks[0] == 1 << 4 and masks[2] == 0b1011
    assert masks[9 * 8 + 8] == 1 << 8


def test_candidates_one_line_of_tokens() -> None:
    masks = [(1 << 4) - 1] * 16
    text = " ".join(["1234"] * 16)
    assert parse_candidates(text) == (Shape(2, 2), masks)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("+---+\n+---+", "only rule lines"),
        ("1" * 728, "expected n*n*n (729 for 9x9) characters in a candidates line, got 728"),
        ("2" + "." * 728, "expected '1' or '.' for r1c1 at character 1, got '2'"),
        (HODOKU_STYLE.replace("1268", "12?8"), "line 3, column 33: unknown symbol '?'"),
        (HODOKU_STYLE.replace("1268", "1.68"), "empty marker '.' inside a candidates token"),
        (HODOKU_STYLE.replace(" 2478|", " |"), "line 4: expected 9 cells in this row, got 8"),
        ("\n".join(HODOKU_STYLE.splitlines()[:-3]), "line 3: expected 9 rows, got 7"),
    ],
)
def test_candidates_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidPuzzleError) as info:
        parse_candidates(text)
    assert message in str(info.value)


def test_format_candidates_rejects_bad_masks() -> None:
    with pytest.raises(InvalidPuzzleError, match="expected 16 masks, got 2"):
        format_candidates(Shape(2, 2), [1, 2])
    with pytest.raises(InvalidPuzzleError, match="r1c1 is not a set of digits 1-4"):
        format_candidates(Shape(2, 2), [16] + [1] * 15)
    with pytest.raises(InvalidPuzzleError, match="not a set of digits"):
        format_candidates_line(Shape(2, 2), [-1] * 16)


# Streaming reader --------------------------------------------------------------------------


BORDERED_ROWS = "\n".join(
    "| " + " | ".join(" ".join(PUZZLE[r * 9 + c : r * 9 + c + 3]) for c in (0, 3, 6)) + " |"
    for r in range(9)
)
MIXED = f"""# A file of puzzles, mixed
{PUZZLE}
{PUZZLE[:80]}

{PUZZLE} # trailing comment
5...5{"." * 76}
{Grid(PUZZLE).to_pretty()}

not a puzzle at all
{{"shape": "2x2", "cells": "1234341221434321"}}
+-------+-------+-------+
{BORDERED_ROWS}
+-------+-------+-------+
{PUZZLE.replace(".", "0")}
"""


def test_read_mixed_file() -> None:
    records = list(read_puzzles(MIXED.splitlines(keepends=True), source="mixed.txt"))
    summary = [(r.line, r.fmt, r.ok) for r in records]
    assert summary == [
        (2, "line", True),
        (3, "line", False),
        (5, "line", True),
        (6, "line", False),
        (7, "pretty", True),
        (19, "line", False),
        (20, "json", True),
        (21, "pretty", True),
        (32, "line", True),
    ]
    errors = [str(r.error) for r in records if r.error]
    assert errors[0].startswith("mixed.txt, line 3: expected 81 cells (9x9), got 80")
    assert errors[1].startswith("mixed.txt, line 6: conflicting clues: digit 5 at r1c1 and r1c5")
    assert errors[2].startswith("mixed.txt, line 19:")
    assert all(r.grid == Grid(PUZZLE) for r in records if r.ok and r.fmt != "json")
    assert records[4].text == Grid(PUZZLE).to_pretty()
    assert records[7].text.count("\n") == 10
    assert all(isinstance(r, Record) and (r.grid is None) == (r.error is not None) for r in records)


def test_read_string_crlf_and_bom() -> None:
    text = "\ufeff" + PUZZLE + "\r\n" + "\r\n" + PUZZLE + "\r\n"
    assert [(r.line, r.ok) for r in read_puzzles(text)] == [(1, True), (3, True)]
    assert [(r.line, r.ok) for r in read_puzzles(text.splitlines(keepends=True))] == [
        (1, True),
        (3, True),
    ]


def test_read_error_mentions_source_line_and_column() -> None:
    (record,) = read_puzzles(["", "# c", "?" + PUZZLE[1:]], source="p.txt")
    assert str(record.error).startswith("p.txt, line 3, column 1: unknown symbol '?'")
    (record,) = read_puzzles(["", *Grid(PUZZLE).to_pretty().replace("8", "?").splitlines()])
    assert str(record.error).startswith("<stdin>, line 4, column 5: unknown symbol '?'")


def test_read_pretty_grids_back_to_back() -> None:
    pretty = Grid(PUZZLE).to_pretty(separators=False)
    lines = (pretty + "\n" + pretty + "\n" + PUZZLE).splitlines()
    records = list(read_puzzles(lines, shape=SUDOKU))
    assert [(r.line, r.fmt, r.ok) for r in records] == [
        (1, "pretty", True),
        (10, "pretty", True),
        (19, "line", True),
    ]


def test_read_small_and_big_rows_without_shape() -> None:
    four = "1234341221434321"
    sixteen = grid_of(Shape(4, 4), keep=0.9)
    text = "\n".join([four, four, "", sixteen.to_pretty(separators=False), "", four])
    records = list(read_puzzles(text))
    assert [(r.line, r.fmt, r.grid) for r in records] == [
        (1, "line", Grid(four)),
        (2, "line", Grid(four)),
        (4, "pretty", sixteen),
        (21, "line", Grid(four)),
    ]


def test_read_six_by_six() -> None:
    g = grid_of(Shape(2, 3))
    lines = [format_line(g), *g.to_pretty().splitlines(), "", format_line(g)]
    records = list(read_puzzles(lines, shape=Shape(2, 3)))
    assert [(r.line, r.fmt, r.grid == g) for r in records] == [
        (1, "line", True),
        (2, "pretty", True),
        (11, "line", True),
    ]
    records = list(read_puzzles(lines))  # without the shape: only the pretty grid can be read
    assert [(r.line, r.ok) for r in records] == [(1, False), (2, True), (11, False)]
    assert "give the shape" in str(records[0].error)


def test_read_rule_lines_between_puzzles_are_skipped() -> None:
    lines = ["=" * 20, PUZZLE, "-" * 30, PUZZLE, "+-----+", "", PUZZLE, "-" * 81, "----"]
    records = list(read_puzzles(lines))
    assert [(r.line, r.ok) for r in records] == [(2, True), (4, True), (7, True), (8, True)]
    assert records[3].grid == Grid.empty(SUDOKU)


def test_read_truncated_pretty_grid_then_puzzle() -> None:
    lines = Grid(PUZZLE).to_pretty().splitlines()[:6] + ["", PUZZLE]
    records = list(read_puzzles(lines))
    assert [(r.line, r.ok) for r in records] == [(1, False), (8, True)]
    assert "expected 9 rows of 9 cells, got 5 rows" in str(records[0].error)


def test_reader_is_lazy() -> None:
    pulled = 0

    def lines() -> Iterator[str]:
        nonlocal pulled
        while True:
            pulled += 1
            yield PUZZLE + "\n"

    reader = read_puzzles(lines())
    for _ in range(10):
        assert next(reader).ok
    assert pulled <= 11


def test_reader_memory_is_flat() -> None:
    puzzles = [format_line(grid_of(SUDOKU, seed=i)) for i in range(20)]

    def lines(count: int) -> Iterator[str]:
        for i in range(count):
            yield (puzzles[i % 20] if i % 50 else "bad line") + "\n"

    blocks = {}
    good = 0
    for i, record in enumerate(read_puzzles(lines(50_000)), 1):
        good += record.ok
        if i in (5_000, 50_000):
            blocks[i] = sys.getallocatedblocks()
    assert good == 49_000
    assert blocks[50_000] - blocks[5_000] < 2_000  # nothing kept per record read


@pytest.mark.skipif(not DATA.is_dir(), reason="no shared data folder")
@pytest.mark.parametrize(
    ("name", "count", "bad"),
    [
        ("top1465.txt", 1465, 0),
        ("qqwing_expert.txt", 1000, 0),
        ("sudocue_learningcurve.txt", 2500, 0),
        ("grantm_diabolical_sample.txt", 320, 0),
        ("hardest_1106.csv", 375, 0),  # the CSV header is read as one, not as a bad puzzle
        ("se_rated_dev.csv", 362, 0),
        ("hodoku_exemplars.txt", 670, 1),  # one HoDoKu library-format line
        ("serg_benchmark.txt", 10_000, 0),
    ],
)
def test_shared_data_files(name: str, count: int, bad: int) -> None:
    with open(DATA / name, encoding="utf-8") as f:
        records = list(read_puzzles(f, source=name))
    assert len(records) == count
    assert sum(not r.ok for r in records) == bad
    assert all(r.grid is None or r.grid.shape == SUDOKU for r in records)


@pytest.mark.skipif(not DATA.is_dir(), reason="no shared data folder")
def test_shared_data_fields_read_right() -> None:
    with open(DATA / "grantm_diabolical_sample.txt", encoding="utf-8") as f:
        first = f.readline()
    ((record),) = read_puzzles([first])
    assert record.grid is not None
    assert format_line(record.grid, empty="0") == first.split()[1]
    with open(DATA / "hardest_1106.csv", encoding="utf-8") as f:
        f.readline()
        row = f.readline()
    ((record),) = read_puzzles([row])
    assert record.grid is not None and format_line(record.grid) == row.split(",")[0]


def test_line_numbers_with_comment_lines_inside_pretty_grid() -> None:
    lines = Grid(PUZZLE).to_pretty().splitlines()
    lines.insert(4, "# a note in the middle")
    lines += ["", "# x", PUZZLE]
    records = list(read_puzzles(lines))
    assert [(r.line, r.ok) for r in records] == [(1, True), (15, True)]


def test_error_text_formats_match_re() -> None:
    (record,) = read_puzzles([PUZZLE[:70]], source="f")
    assert re.fullmatch(
        r"f, line 1: expected 81 cells \(9x9\), got 70: '.*'\.\.\. \(70 characters\)",
        str(record.error),
    )


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 2), Shape(3, 4)])
@pytest.mark.parametrize("fmt", ["line", "pretty", "json", "csv"])
def test_generated_records_read_back_without_a_shape(shape: Shape, fmt: str) -> None:
    """What sudokit writes, sudokit reads: 6x6 and 12x12 records say their shape (a 36-cell
    line alone could be 2x3 or 3x2), and a grid record's solution is not read as a puzzle."""
    from sudokit import generate_many
    from sudokit.output import csv_header, format_record

    made = list(generate_many(3, shape=shape, seed=11))
    text = "".join(format_record(g, fmt, with_solution=True) for g in made)
    if fmt == "csv":
        text = csv_header(with_solution=True) + text
    records = list(read_puzzles(text))
    assert [r.error for r in records] == [None] * 3
    assert [r.grid for r in records] == [g.puzzle for g in made]


def test_csv_header_rows_are_read_by_their_columns() -> None:
    text = "puzzle,er,ep,ed\n1.3...12....4..3,1.2,1.2,1.2\nquiz,x\n"
    records = list(read_puzzles(text, source="r.csv"))
    assert records[0].grid == Grid("1.3...12....4..3")
    assert len(records) == 2 and records[1].error is not None  # a later line is data
    plain = list(read_puzzles("name,value\n1.3...12....4..3\n"))  # a header without a puzzle column
    assert [r.grid for r in plain] == [Grid("1.3...12....4..3")]


# The piecewise reader --------------------------------------------------------------------------

_PLAIN_9 = "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."


def test_record_reader_gives_what_read_puzzles_gives(tmp_path: Path) -> None:
    """formats.RecordReader (the bank's fast reader, moved here): plain lines the fast way,
    the rest handed to read_puzzles; the same records, in pieces of at most ``size``."""
    from sudokit.formats import Lines, PuzzleSource, RecordReader, raw_pieces, read_puzzles

    lines = [
        "\ufeff# made by hand shape=3x3",
        f"{_PLAIN_9} # index=1 seed=5",
        "# index=2 seed=5",
        _PLAIN_9,
        f"{_PLAIN_9}\t# shape=3x3 level=hard",
        "",
        "# shape=2x2",
        "1.3...12....4..3",
        _PLAIN_9,
    ]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    source = PuzzleSource(str(path))
    with open(path, encoding="utf-8") as f:
        general = list(read_puzzles(f, source=str(path)))

    def key(r: Record) -> tuple[object, ...]:
        return (r.line, r.grid, r.text, r.fmt, r.note, str(r.error))

    made: list[tuple[str, dict[str, str] | None]] = []

    def make(r: Record, where: str, row: dict[str, str] | None) -> Record:
        made.append((where, row))
        return r

    for size in (1, 2, 100):
        made.clear()
        pieces = list(RecordReader(source, size, make).read())
        assert all(1 <= len(p) <= size for p in pieces)
        assert [key(r) for p in pieces for r in p] == [key(r) for r in general]
        assert [w for w, _ in made] == [f"{path}:{r.line}" for r in general if r.ok]
    # As tasks: the plain pieces as Lines, read again where they are used.
    tasks = list(RecordReader(source, 2, make).tasks(raw_pieces(source, 2)))
    assert isinstance(tasks[0], Lines) and not isinstance(tasks[-1], Lines)
    read_back = [
        (n, note)
        for t in tasks
        if isinstance(t, Lines)
        for n, _, note in RecordReader.puzzle_lines(t)
    ]
    assert read_back == [(r.line, r.note) for r in general[: len(read_back)]]
    assert len(read_back) == 3


@pytest.mark.parametrize(
    ("extra", "whole"),
    [
        ("", True),
        (" # shape=3x3 seed=1", True),
        (" # shape=3x33", False),  # not sure: line by line
        (" # shape=4x4", False),  # another shape: read_puzzles decides
        ("  ", True),
    ],
)
def test_a_piece_of_puzzle_lines_is_checked_whole(extra: str, whole: bool) -> None:
    """A piece of nothing but puzzle lines goes to a worker as Lines marked puzzles_only
    (read by slicing there), with the same line numbers and notes as line by line."""
    from sudokit.formats import Lines, PuzzleSource, RecordReader

    piece = [f"{_PLAIN_9} # index={k}\n" for k in range(5)]
    piece[2] = f"{_PLAIN_9}{extra}\n"
    source = PuzzleSource("-")
    reader = RecordReader(source, 100, lambda r, w, row: r)
    tasks = list(reader.tasks([piece, piece]))
    if whole:
        assert [type(t) for t in tasks] == [Lines, Lines]
        assert all(isinstance(t, Lines) and t.puzzles_only for t in tasks)
        assert reader.line == 10
        by_slice = [x for t in tasks if isinstance(t, Lines) for x in RecordReader.puzzle_lines(t)]
        one_by_one = RecordReader(source, 100, lambda r, w, row: r)
        by_scan = []
        for raw in piece + piece:
            found = one_by_one.scan(raw)
            assert found is not None
            by_scan.append((one_by_one.line, found[0].string, found[1]))
        assert by_slice == by_scan
    else:
        assert not any(isinstance(t, Lines) and t.puzzles_only for t in tasks)
