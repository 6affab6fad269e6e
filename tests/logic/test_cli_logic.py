"""``sudokit explain`` and ``sudokit hint``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sudokit
from sudokit.cli import main

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_explain_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", EASY]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1. [1.2] Hidden single: in box 1, 6 fits only in r2c2"
    assert lines[-1] == "Solved."
    assert len(lines) == 1 + sudokit.Grid(EASY).shape.size - sudokit.Grid(EASY).clue_count


def test_explain_json_and_technique_subset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", HARD17, "--format", "json", "--techniques", "singles"]) == 1
    objs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    *steps, final = objs
    assert final["solved"] is False and final["steps"] == len(steps)
    solution = sudokit.solve(sudokit.Grid(HARD17))
    assert solution is not None
    for s in steps:
        assert set(s) >= {"technique", "rating", "placements", "eliminations", "text"}
        for row, col, digit in s["placements"]:
            assert solution[(row - 1) * 9 + col - 1] == digit


def test_explain_candidates_and_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\nnot a puzzle\n", encoding="utf-8")
    assert main(["explain", str(f), "--candidates"]) == 1  # the bad line makes it fail
    captured = capsys.readouterr()
    assert "+-------" in captured.out and "Solved." in captured.out
    assert "line 2" in captured.err


def test_explain_says_where_rules_stop_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Under rules a stuck path names the first technique that does not run there yet; a
    classic stuck path (a chosen subset) names none; a rule the engine refuses is named."""
    needs_chains = (
        "...1.3.45.4.....9......9....2.......3..9.6.18...41..2...........7...2..1........."
    )
    assert main(["explain", "--rules", "dg", needs_chains]) == 1
    out = capsys.readouterr().out
    assert "Under rules 'dg' the logic engine stops before nishio" in out
    assert main(["explain", "--rules", "dg", "--format", "json", needs_chains]) == 1
    final = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert final["solved"] is False and final["needs"] == "nishio"
    assert main(["explain", HARD17, "--techniques", "singles"]) == 1
    assert "stops before" not in capsys.readouterr().out
    nc = "............5.8......7............4...........6............9......1.2............"
    assert main(["explain", "--rules", "nc", nc]) != 0
    assert "does not handle rule 'nc'" in capsys.readouterr().err


def test_explain_unknown_technique(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", EASY, "--techniques", "telepathy"]) == 2
    assert "telepathy" in capsys.readouterr().err


@pytest.mark.parametrize("level", ["1", "2", "3"])
def test_hint_levels(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", EASY, "--level", level]) == 0
    text = capsys.readouterr().out.strip()
    assert text == sudokit.logic.hint(sudokit.Grid(EASY), int(level)).text  # type: ignore[union-attr]


def test_hint_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "12345"]) == 1  # bad input: 1 in every command
    assert "cannot read 12345: No such file" in capsys.readouterr().err
