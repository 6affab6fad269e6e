"""``sudokit solve``: called as ``main([...])``, output read from capsys or files.

The command is a thin layer over :func:`sudokit.batch.solve_records`, so these tests check what
the layer adds: order, formats, counts, error reports with line numbers, exit statuses, worker
processes, files and stdin, and that a long stream goes through in flat memory.
"""

from __future__ import annotations

import io
import random
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from sudokit import Grid, Shape, random_grid, read_puzzles, solve
from sudokit.batch import solve_records
from sudokit.cli import main

import reference

SUDOKU = Shape(3, 3)
KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
KNOWN_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
#: No two equal clues in a unit, but r1c9 can only be 9 and column 9 already has one.
UNSOLVABLE = "12345678." + "........9" + "." * 63
#: Puzzles with exactly 2, 3 and 4 solutions (the reference agrees: see the count test).
TWO = "81.475..9.....815.572...834.21..67....7..4682.6.52.413..68.2.4....961.78.8.743..."
THREE = ".841..673967..2.1.......29.....138.75..8.4..273.6251.9..........1...74....2341..."
FOUR = ".74.365.88.6..7..........67...34.6..3...9..41..9..2873.97.2..35.83..971...15...86"

Capture = pytest.CaptureFixture[str]


def _write(path: Path, lines: Iterable[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def _puzzle(seed: int, keep: float = 0.45) -> str:
    """A solvable 9x9 puzzle line: a random grid with cells kept at random."""
    rng = random.Random(seed)
    return "".join(ch if rng.random() < keep else "." for ch in random_grid(seed=seed).to_line())


def checked_cells(puzzle: str, answer: str) -> None:
    """``answer`` (any text form) solves ``puzzle``, by the reference's check."""
    grid, solution = Grid(puzzle), Grid(answer)
    assert reference.is_valid_solution(grid.shape, solution.cells, grid.cells), puzzle


def test_solutions_are_printed_in_input_order(tmp_path: Path, capsys: Capture) -> None:
    puzzles = [_puzzle(s) for s in range(20)] + [KNOWN]
    path = _write(tmp_path / "in.txt", ["# a comment line", "", *puzzles])
    assert main(["solve", path]) == 0
    out, err = capsys.readouterr()
    answers = out.splitlines()
    assert err == "" and len(answers) == len(puzzles)
    for puzzle, answer in zip(puzzles, answers, strict=True):
        assert len(answer) == 81 and "." not in answer
        checked_cells(puzzle, answer)
        assert Grid(answer) == solve(Grid(puzzle))
    assert answers[-1] == KNOWN_SOLUTION


def test_pretty_input_gets_pretty_output(tmp_path: Path, capsys: Capture) -> None:
    six = Shape(2, 3)
    rng = random.Random(1)
    small = Grid.from_cells(
        bytes(d if rng.random() < 0.5 else 0 for d in random_grid(six, seed=5).cells), six
    )
    blocks = [small.to_pretty(), Grid(KNOWN).to_pretty(separators=False)]
    path = _write(tmp_path / "pretty.txt", [f"{blocks[0]}\n", blocks[1]])
    assert main(["solve", path]) == 0
    out, err = capsys.readouterr()
    answers = out.split("\n\n")
    assert err == "" and answers[-1] == "" and len(answers) == 3
    # Each answer is a full pretty grid (with rules, whatever the input had) of the right shape.
    for puzzle, answer in zip((small, Grid(KNOWN)), answers[:2], strict=True):
        solution = Grid(answer)
        assert solution.shape == puzzle.shape
        assert answer == solution.to_pretty()
        assert reference.is_valid_solution(puzzle.shape, solution.cells, puzzle.cells)
    assert Grid(answers[1]).to_line() == KNOWN_SOLUTION


def test_count_with_limit(tmp_path: Path, capsys: Capture) -> None:
    puzzles = [UNSOLVABLE, KNOWN, TWO, THREE, FOUR, "." * 81]
    expected = [reference.count_solutions(SUDOKU, Grid(p).cells, limit=3)[0] for p in puzzles[:5]]
    assert expected == [0, 1, 2, 3, 3]
    path = _write(tmp_path / "in.txt", puzzles)
    assert main(["solve", path, "--count", "--limit", "3"]) == 0
    assert capsys.readouterr() == ("0\n1\n2\n3\n3\n3\n", "")
    assert main(["solve", path, "--count", "--limit", "4"]) == 0
    assert capsys.readouterr().out == "0\n1\n2\n3\n4\n4\n"
    assert main(["solve", path, "--count"]) == 0  # the default limit is 1000
    assert capsys.readouterr().out == "0\n1\n2\n3\n4\n1000\n"


def test_bad_lines_are_reported_with_line_numbers(tmp_path: Path, capsys: Capture) -> None:
    lines = [
        KNOWN,
        KNOWN[:-1],  # line 2: 80 cells
        KNOWN[:-1] + "x",  # line 3: unknown symbol
        "44" + KNOWN[2:],  # line 4: two 4s in row 1
        "# comment",
        _puzzle(1),  # line 6
    ]
    path = _write(tmp_path / "bad.txt", lines)
    assert main(["solve", path]) == 1
    out, err = capsys.readouterr()
    answers = out.splitlines()
    assert answers[0] == KNOWN_SOLUTION and len(answers) == 2
    checked_cells(lines[5], answers[1])
    reports = err.splitlines()
    assert len(reports) == 3
    assert reports[0].startswith(f"{path}, line 2: expected 81 cells (9x9), got 80")
    assert reports[1].startswith(f"{path}, line 3, column 81: symbol 'x' is out of range")
    assert reports[2].startswith(
        f"{path}, line 4: conflicting clues: digit 4 at r1c1 and r1c2 (row 1)"
    )


def test_unsolvable_is_reported_and_the_rest_solved(tmp_path: Path, capsys: Capture) -> None:
    path = _write(tmp_path / "in.txt", [KNOWN, UNSOLVABLE, KNOWN])
    assert main(["solve", path]) == 1
    out, err = capsys.readouterr()
    assert out == f"{KNOWN_SOLUTION}\n{KNOWN_SOLUTION}\n"
    assert err == f"{path}, line 2: no solution\n"
    # Counting is not solving: a count of 0 is an answer, not an error.
    assert main(["solve", path, "--count"]) == 0
    assert capsys.readouterr() == ("1\n0\n1\n", "")


def _mixed_lines(count: int) -> list[str]:
    """Mostly solvable puzzles, with a bad line every 101 and an unsolvable one every 67."""
    lines = []
    for i in range(count):
        if i % 101 == 100:
            lines.append(KNOWN[:-3])
        elif i % 67 == 66:
            lines.append(UNSOLVABLE)
        else:
            lines.append(_puzzle(i, keep=0.3 + 0.3 * (i % 3) / 2))
    return lines


def test_two_jobs_give_the_same_output_as_one(tmp_path: Path, capsys: Capture) -> None:
    path = _write(tmp_path / "many.txt", _mixed_lines(2000))
    for extra in ([], ["--count", "--limit", "3"]):
        assert main(["solve", path, "--jobs", "1", *extra]) == 1  # the bad lines
        one = capsys.readouterr()
        assert main(["solve", path, "--jobs", "2", *extra]) == 1
        two = capsys.readouterr()
        assert two == one
        if extra:
            assert len(one.err.splitlines()) == 19
            counts = one.out.split()
            assert len(counts) == 2000 - 19 and {"0", "1", "2", "3"} <= set(counts)
        else:
            assert len(one.out.splitlines()) == 2000 - 19 - 29
            assert len(one.err.splitlines()) == 19 + 29


def test_output_file(tmp_path: Path, capsys: Capture) -> None:
    path = _write(tmp_path / "in.txt", [KNOWN, UNSOLVABLE])
    target = tmp_path / "out.txt"
    assert main(["solve", path, "-o", str(target)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"{path}, line 2: no solution\n"
    assert target.read_text(encoding="utf-8") == f"{KNOWN_SOLUTION}\n"
    assert main(["solve", path, "--count", "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == "1\n0\n"  # overwritten, not appended
    nowhere = tmp_path / "no-such-dir" / "out.txt"
    assert main(["solve", path, "-o", str(nowhere)]) == 1
    assert capsys.readouterr().err == (
        f"sudokit: cannot write {nowhere}: No such file or directory\n"
    )


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{KNOWN}\n{UNSOLVABLE}\n"))
    assert main(["solve", "-"]) == 1
    assert capsys.readouterr() == (f"{KNOWN_SOLUTION}\n", "<stdin>, line 2: no solution\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{TWO}\n"))
    assert main(["solve", "--count"]) == 0  # stdin is the default
    assert capsys.readouterr().out == "2\n"


@pytest.mark.parametrize("junk", ["1234", "123456789", "12"])
def test_a_short_first_line_is_one_bad_line(
    junk: str, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    """A short junk line above whole puzzles is reported alone; it does not start a grid
    written over several lines that swallows the puzzles below it."""
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{junk}\n{KNOWN}\n{KNOWN}\n{junk}\n{KNOWN}\n"))
    assert main(["solve"]) == 1
    out, err = capsys.readouterr()
    assert out == f"{KNOWN_SOLUTION}\n" * 3
    assert [line.split(":")[0] for line in err.splitlines()] == [
        "<stdin>, line 1",
        "<stdin>, line 4",
    ]


def test_shape_option(tmp_path: Path, capsys: Capture) -> None:
    six = Shape(2, 3)
    puzzle = random_grid(six, seed=3).without(0).without(7).without(20)
    path = _write(tmp_path / "in.txt", [puzzle.to_line()])
    assert main(["solve", path]) == 1  # 36 cells: 2x3 or 3x2 boxes?
    assert "give the shape" in capsys.readouterr().err
    assert main(["solve", path, "--shape", "2x3"]) == 0
    assert capsys.readouterr().out == f"{random_grid(six, seed=3).to_line()}\n"


def test_missing_file(tmp_path: Path, capsys: Capture) -> None:
    missing = tmp_path / "missing.txt"
    assert main(["solve", str(missing)]) == 1
    assert capsys.readouterr() == (
        "",
        f"sudokit: cannot read {missing}: No such file or directory\n",
    )


@pytest.mark.parametrize("option", ["--limit", "--jobs"])
def test_non_positive_numbers_are_usage_errors(option: str, capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", "-", option, "0"])
    assert exc.value.code == 2
    assert f"argument {option}" in capsys.readouterr().err


def test_alphabet_line_puzzle_answers_as_a_line(tmp_path: Path, capsys: Capture) -> None:
    path = _write(tmp_path / "in.txt", ["AB.............."])
    assert main(["solve", path, "--alphabet", "ABCD"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_alphabet_answers_use_the_alphabet(tmp_path: Path, capsys: Capture) -> None:
    letters = str.maketrans("123456789", "ABCDEFGHI")
    path = _write(tmp_path / "in.txt", [KNOWN.translate(letters)])
    assert main(["solve", path, "--alphabet", "ABCDEFGHI"]) == 0
    assert capsys.readouterr().out == KNOWN_SOLUTION.translate(letters) + "\n"


# Flat memory --------------------------------------------------------------------------------

STREAMED = 50_000
#: Peak traced memory allowed while streaming; keeping every result passes it by far.
PEAK_BOUND = 2_000_000
#: Small grids keep the run short: tracemalloc makes parsing about ten times slower.
FOUR_BY_FOUR = Shape(2, 2)


def _stream(count: int) -> Iterator[str]:
    """``count`` 4x4 puzzle lines made on the fly (never held in a list)."""
    base = [random_grid(FOUR_BY_FOUR, seed=s).without(s % 16).to_line() for s in range(64)]
    for i in range(count):
        yield base[i % len(base)]


def _peak(consume: Callable[[Iterator[str]], int], count: int) -> tuple[int, int]:
    """(result of ``consume`` on ``count`` streamed lines, peak bytes traced meanwhile)."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = consume(_stream(count))
        return result, tracemalloc.get_traced_memory()[1] - start
    finally:
        if not tracing:
            tracemalloc.stop()


def _solved_streaming(lines: Iterator[str]) -> int:
    records = read_puzzles(lines, shape=FOUR_BY_FOUR)
    return sum(sol is not None for _, sol, _ in solve_records(records))


def _solved_keeping_all(lines: Iterator[str]) -> int:
    kept = list(solve_records(read_puzzles(lines, shape=FOUR_BY_FOUR)))
    return sum(sol is not None for _, sol, _ in kept)


def test_solve_records_streams_in_flat_memory() -> None:
    solved, peak = _peak(_solved_streaming, STREAMED)
    assert solved == STREAMED
    assert peak < PEAK_BOUND, f"peak {peak:,} bytes"
    # The bound can fail: keeping the results of a fifth of the stream already passes it.
    kept, kept_peak = _peak(_solved_keeping_all, STREAMED // 5)
    assert kept == STREAMED // 5
    assert kept_peak > PEAK_BOUND, f"peak {kept_peak:,} bytes"


ONE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.mark.parametrize("command", ["hint", "svg"])
def test_one_puzzle_commands_refuse_anything_else(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input is exit 1 in every command (2 is for usage errors), with a message."""
    two = tmp_path / "two.txt"
    two.write_text(f"{ONE}\n{ONE}\n")
    assert main([command, str(two)]) == 1
    assert f"sudokit {command}: give exactly one puzzle, not 2" in capsys.readouterr().err
    assert main([command, ONE[:-1] + "x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sudokit {command}: <argument>, line 1") and "exactly one" not in err
    assert main([command, ONE]) == 0
    assert capsys.readouterr().out
