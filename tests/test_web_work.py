"""The service's work functions (sudokit.web.work), as the worker processes run them: each
takes the typed model its route validated the request with, so the schema's checks (keys,
types, ranges) are made once, there, and the work reads only what the puzzle tells."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

pytest.importorskip("pydantic")

from sudokit.web import work  # noqa: E402
from sudokit.web.api import RequestError  # noqa: E402
from sudokit.web.schema import CheckIn, HintIn, PuzzleIn  # noqa: E402

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
WEB = Path(work.__file__).parent


def test_work_takes_the_validated_models_as_the_pool_sends_them() -> None:
    digits = [int(c) if c != "." else 0 for c in EASY]
    for body in (PuzzleIn(puzzle=EASY), PuzzleIn(puzzle=digits, shape="3x3")):
        sent = pickle.loads(pickle.dumps(body))  # as the pool hands it to a worker
        assert work.solve(sent)["text"].startswith("483921657")
    assert work.rate_puzzle(PuzzleIn(puzzle=EASY), float("inf"))["level"] == "easy"
    assert work.explain(PuzzleIn(puzzle=EASY), float("inf"))["solved"] is True
    hint = work.hint(HintIn(puzzle=EASY, marks=[0] * 81, detail=3))
    assert hint["kind"] == "step" and hint["detail"] == 3
    wrong = "5" + EASY[1:]  # the solution has 4 there
    assert work.check(CheckIn(puzzle=EASY, grid=wrong))["wrong"] == [[1, 1]]
    # What only the puzzle tells is still read there: digits over the grid's side, a count
    # that fits no grid, a board that moves a clue.
    with pytest.raises(RequestError, match=r"puzzle\[0\] must be a whole number 0-9, got 10"):
        work.solve(PuzzleIn(puzzle=[10] + [0] * 80))
    with pytest.raises(RequestError, match="holds 80 digits"):
        work.solve(PuzzleIn(puzzle=[0] * 80))
    with pytest.raises(RequestError, match="r1c3") as refused:
        work.check(CheckIn(puzzle=EASY, grid=EASY[:2] + "4" + EASY[3:]))
    assert refused.value.status == 422


def _strings(path: Path) -> list[str]:
    """The texts of ``path``'s code, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in docs:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            found.append("".join(str(v.value) for v in node.values if isinstance(v, ast.Constant)))
    return found


@pytest.mark.parametrize(
    "message",
    [
        "must be a text or a list of digits",
        "'detail' must be 1, 2 or 3",
        "list of digit masks",
        "must be a short text",  # the query's shape: PuzzleQuery checks its type and length
    ],
)
def test_the_schemas_checks_are_not_made_again_by_hand(message: str) -> None:
    """A check the request schema makes (a grid value's type, the detail, the marks' type)
    has its message in no other module of the service."""
    again = [
        path.name
        for path in sorted(WEB.glob("*.py"))
        if path.name != "schema.py" and any(message in s for s in _strings(path))
    ]
    assert again == []


def test_the_service_rates_as_the_command_line_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rating record (Rating.to_dict, with the HoDoKu grade) for `sudokit rate --format
    json` and POST /rate alike: the service's worker and the command line used to build it
    each their own way."""
    import json
    import time

    from sudokit.cli import main

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    source = tmp_path / "p.txt"
    source.write_text(puzzle + "\n", encoding="utf-8")
    assert main(["rate", "--format", "json", str(source)]) == 0
    written = json.loads(capsys.readouterr().out)
    served = work.rate_puzzle(PuzzleIn(puzzle=puzzle), time.monotonic() + 600)
    assert {k: v for k, v in served.items() if k not in ("shape", "text", "cells")} == {
        k: v for k, v in written.items() if k != "puzzle"
    }
    assert {"er", "ep", "ed", "level", "hardest", "solved", "hodoku_level"} <= set(served)
