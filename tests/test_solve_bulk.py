"""``sudokit solve FILE``'s bulk path (:func:`sudokit.batch.solve_source`) against the general one.

The bulk path reads 9x9 puzzle lines as bytes, a block at a time, and solves and answers them in
C (``_engine.solve_lines``); every other line goes the general way. The oracle is the same
command with the bulk path turned off (``_bulk_stream`` answering None), which reads every
record with :func:`sudokit.read_puzzles` as before: the two must print the same answers, the
same messages with the same line numbers, and exit alike, on files that mix every kind of line,
cut into blocks anywhere (the block size is drawn small).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Grid, _engine, batch, read_puzzles
from sudokit.cli import main

KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
KNOWN_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
UNSOLVABLE = "12345678." + "........9" + "." * 63
CONFLICT = "11" + "." * 79
TWO = "81.475..9.....815.572...834.21..67....7..4682.6.52.413..68.2.4....961.78.8.743..."
THREE = ".841..673967..2.1.......29.....138.75..8.4..273.6251.9..........1...74....2341..."
PRETTY = [
    "4 . . | . . . | 8 . 5",
    ". 3 . | . . . | . . .",
    ". . . | 7 . . | . . .",
    "------+-------+------",
    ". 2 . | . . . | . 6 .",
    ". . . | . 8 . | 4 . .",
    ". . . | . 1 . | . . .",
    "------+-------+------",
    ". . . | 6 . 3 | . 7 .",
    "5 . . | 2 . . | . . .",
    "1 . 4 | . . . | . . .",
]

#: Kinds of line (each one or more lines), from the common to the odd.
KINDS: list[list[str]] = [
    [KNOWN],
    [KNOWN],
    [TWO],
    [THREE],
    [f"{KNOWN} # a note"],
    [f"{KNOWN}\t#shape=3x3 stated"],
    [f"{KNOWN} # shape=2x3 stated wrongly"],
    [UNSOLVABLE],
    [CONFLICT],
    [KNOWN[:80]],
    [KNOWN + "x"],
    [KNOWN.replace(".", "0")],
    [KNOWN.replace(".", "-")],
    ["[" + ",".join(str(int(c)) if c != "." else "0" for c in KNOWN) + "]"],
    [""],
    ["   "],
    ["# a comment"],
    ["# index=3 seed=1"],
    ["# shape=3x3"],
    ["# shape=2x3", "452631163245534162216453341526625314"],
    ["# solution", KNOWN_SOLUTION],
    ["# solution", *PRETTY],  # a grid record's solution: not a puzzle
    ["# solution", KNOWN, *PRETTY],  # the mark holds until a grid takes it
    PRETTY,
    ["puzzle,solution", f"{KNOWN},{KNOWN_SOLUTION}"],
    [f"{KNOWN}\r"],  # a CRLF line end, once written
    [f"{KNOWN[:40]}\r{KNOWN[40:]}"],  # a lone CR: two lines to a text reader
    ["# note\rwith a CR"],
    ["caf\u00e9 " * 20],
]


def _run(
    path: str, args: list[str], bulk: bool, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    if not bulk:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(batch, "_bulk_stream", lambda source: None)
            status = main(["solve", *args, "--jobs", "1", path])
    else:
        status = main(["solve", *args, "--jobs", "1", path])
    out, err = capsys.readouterr()
    return status, out, err


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kinds=st.lists(st.integers(0, len(KINDS) - 1), min_size=1, max_size=25),
    block=st.integers(40, 600),
    bom=st.booleans(),
    crlf=st.booleans(),
    last_newline=st.booleans(),
    count=st.booleans(),
)
def test_bulk_path_answers_as_the_general_path(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    kinds: list[int],
    block: int,
    bom: bool,
    crlf: bool,
    last_newline: bool,
    count: bool,
) -> None:
    monkeypatch.setattr(batch, "BLOCK", block)
    end = "\r\n" if crlf else "\n"
    text = end.join(line for k in kinds for line in KINDS[k])
    text = ("\ufeff" if bom else "") + text + (end if last_newline else "")
    path = tmp_path / "in.txt"
    path.write_bytes(text.encode("utf-8"))
    args = ["--count", "--limit", "3"] if count else []
    assert _run(str(path), args, True, capsys) == _run(str(path), args, False, capsys), text


@pytest.mark.parametrize("kinds", [["# solution", *PRETTY], [KNOWN, "# solution", KNOWN, *PRETTY]])
def test_a_solution_mark_holds_until_a_grid_takes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kinds: list[str]
) -> None:
    path = tmp_path / "in.txt"
    path.write_text("".join(f"{line}\n" for line in kinds), encoding="utf-8")
    bulk = _run(str(path), [], True, capsys)
    assert bulk == _run(str(path), [], False, capsys)
    assert "|" not in bulk[1]  # the grid after the mark is a solution, not a puzzle


def test_bulk_path_takes_a_whole_file_and_goes_on_after_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = _engine.solve_lines

    def counting(text: memoryview, limit: int, counts: bool) -> tuple[bytes, int, int]:
        found = real(text, limit, counts)
        calls.append(found[2])
        return found

    monkeypatch.setattr(_engine, "solve_lines", counting)
    lines = [KNOWN] * 5 + [CONFLICT] + [KNOWN] * 5 + ["short"] + [KNOWN] * 5
    path = tmp_path / "in.txt"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    assert main(["solve", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == f"{KNOWN_SOLUTION}\n" * 15
    assert f"{path}, line 6: conflicting clues" in err
    assert f"{path}, line 12: expected 81 cells, got 5" in err or f"{path}, line 12:" in err
    assert len(err.splitlines()) == 2
    assert calls == [5, 5, 5]  # the C path read all 15 puzzles, around the bad lines


def test_counts_stop_at_the_limit_even_at_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.txt"
    path.write_text(f"{THREE}\n{UNSOLVABLE}\n{KNOWN}\n", encoding="utf-8")
    assert main(["solve", "--count", "--limit", "1", str(path)]) == 0
    assert capsys.readouterr().out == "1\n0\n1\n"
    assert main(["solve", "--count", str(path)]) == 0
    assert capsys.readouterr().out == "3\n0\n1\n"


def test_standard_input_through_a_pipe_takes_the_bulk_path(tmp_path: Path) -> None:
    text = "".join(f"{line}\n" for line in [KNOWN, "# c", UNSOLVABLE, TWO] * 200)
    path = tmp_path / "in.txt"
    path.write_text(text, encoding="utf-8")
    cmd = [sys.executable, "-m", "sudokit", "solve", "--jobs", "1"]
    piped = subprocess.run([*cmd, "-"], input=text, capture_output=True, text=True)
    named = subprocess.run([*cmd, str(path)], capture_output=True, text=True)
    assert piped.returncode == named.returncode == 1
    assert piped.stdout == named.stdout and piped.stdout.count("\n") == 400
    assert piped.stderr == named.stderr.replace(str(path), "<stdin>")
    assert piped.stderr.count("no solution") == 200


def _pids(grids: list[Grid]) -> list[int]:
    """Which process handled each grid."""
    return [os.getpid()] * len(grids)


def test_worker_processes_only_for_more_than_one_chunk() -> None:
    records = list(read_puzzles([KNOWN] * 3))
    one = {pid for _, pid in batch.map_grids(_pids, records, jobs=2, chunk=3)}
    assert one == {os.getpid()}  # one chunk: solved here, no pool started for it
    more = {pid for _, pid in batch.map_grids(_pids, records, jobs=2, chunk=2)}
    assert more and os.getpid() not in more  # two chunks: the workers take them
