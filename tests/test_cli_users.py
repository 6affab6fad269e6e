"""What a new user tripped over, each as it was reported, and what they get now.

Broken puzzles are refused at once by every command that needs one solution; bad file names
and unwritable outputs get a message, never a traceback; commands agree on what they accept
and on their exit statuses (0 done, 1 bad input, 2 usage error); books are never replaced
by a broken or empty one.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, Shape, generate, solve
from sudokit.cli import main
from sudokit.render import pdf as pdf_module

Capture = pytest.CaptureFixture[str]

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
#: Four solutions (a published counterexample) and none (r1c1 needs the 1 that r2c1 holds).
SEVERAL = ".74.365.88.6..7..........67...34.6..3...9..41..9..2873.97.2..35.83..971...15...86"
NONE = "." + "23456789" + "1" + "." * 71


def _file(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def test_rate_and_explain_refuse_broken_puzzles_at_once(tmp_path: Path, capsys: Capture) -> None:
    """An unsolvable puzzle used to run for minutes; one with several solutions got a rating."""
    path = _file(tmp_path, "mixed.txt", [SEVERAL, EASY, NONE])
    assert main(["rate", path, "-j", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == f"{EASY} ED=1.2/1.2/1.2\n"
    assert f"{path}, line 1: more than one solution" in err
    assert f"{path}, line 3: no solution" in err
    assert main(["explain", path]) == 1
    out, err = capsys.readouterr()
    assert out.count("Solved.") == 1 and "line 1: more than one solution" in err
    for command in (["hint", SEVERAL], ["svg", NONE, "--step"]):
        assert main(command) == 1
        assert "solution" in capsys.readouterr().err


def test_every_reading_command_takes_a_puzzle_or_a_file(capsys: Capture) -> None:
    assert main(["rate", EASY]) == 0
    assert capsys.readouterr().out == f"{EASY} ED=1.2/1.2/1.2\n"
    assert main(["solve", EASY, "-j", "1"]) == 0
    assert capsys.readouterr().out.strip() == str(solve(Grid(EASY)))


@pytest.mark.parametrize("command", ["explain", "hint", "svg", "rate", "solve"])
def test_a_mistyped_file_name_is_reported_as_missing(command: str, capsys: Capture) -> None:
    assert main([command, "/nonexistent/puzzles.txt"]) == 1
    err = capsys.readouterr().err
    assert "cannot read /nonexistent/puzzles.txt: No such file or directory" in err
    assert "expected" not in err


def test_hint_on_a_solved_grid_is_no_failure(capsys: Capture) -> None:
    solved = str(solve(Grid(EASY)))
    assert main(["hint", solved]) == 0
    assert "solved" in capsys.readouterr().out
    assert main(["explain", solved]) == 0


@pytest.mark.parametrize(
    "command",
    [
        ["generate", "-n", "3", "-j", "1"],
        ["solve", EASY, "-j", "1"],
        ["rate", EASY, "-j", "1"],
        ["explain", EASY],
    ],
)
def test_unwritable_outputs_get_a_message(command: list[str], tmp_path: Path) -> None:
    """``-o`` a missing folder, a folder, a full device, and stdout on a full device."""
    targets = [str(tmp_path / "missing" / "x.txt"), str(tmp_path)]
    if os.path.exists("/dev/full"):
        targets.append("/dev/full")
    for target in targets:
        r = subprocess.run(
            [sys.executable, "-m", "sudokit", *command, "-o", target],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 1, (target, r.stderr)
        assert "cannot write" in r.stderr and "Traceback" not in r.stderr, r.stderr
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = subprocess.run(
                [sys.executable, "-m", "sudokit", *command],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        assert r.returncode == 1 and "cannot write standard output" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr


def test_rate_csv_is_real_csv(tmp_path: Path, capsys: Capture) -> None:
    path = _file(tmp_path, "p.txt", [EASY, EASY])
    assert main(["rate", path, "--format", "csv", "-j", "1"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["puzzle"] for r in rows] == [EASY, EASY]
    assert rows[0]["er"] == "1.2" and rows[0]["level"] == "easy" and rows[0]["solved"] == "yes"
    # and what rate writes, rate reads back (the header is a header, not a bad puzzle)
    again = _file(tmp_path, "r.csv", [",".join(rows[0]), *(",".join(r.values()) for r in rows)])
    assert main(["rate", again, "-j", "1"]) == 0


def test_rate_sends_each_puzzle_as_its_own_task(tmp_path: Path, capsys: Capture) -> None:
    """Chunks of 16 made 4 hard puzzles take as long with -j 2 as with -j 1; now each puzzle
    is a task, and results keep the input order."""
    made = [generate(seed=s, symmetry="none").puzzle.to_line() for s in range(6)]
    path = _file(tmp_path, "p.txt", made)
    assert main(["rate", path, "-j", "2", "--format", "json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["puzzle"] for line in lines] == made


def test_a_book_is_replaced_only_by_a_good_one(tmp_path: Path, capsys: Capture) -> None:
    book = tmp_path / "book.pdf"
    good = _file(tmp_path, "good.txt", [EASY])
    assert main(["pdf", good, "-o", str(book)]) == 0
    before = book.read_bytes()
    bad = _file(tmp_path, "bad.txt", [NONE, SEVERAL, "conflict 55......"])
    assert main(["pdf", bad, "-o", str(book)]) == 1
    err = capsys.readouterr().err
    assert "line 1: no solution" in err and "line 2: more than one solution" in err
    assert "no puzzle to print" in err and "was not written" in err
    assert book.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".part"] == []
    mixed = _file(tmp_path, "mixed.txt", [NONE, generate(seed=1).puzzle.to_line()])
    assert main(["pdf", mixed, "-o", str(book)]) == 1  # the good one printed, the bad reported
    assert book.read_bytes() != before


def test_book_options_for_publishers(tmp_path: Path, capsys: Capture) -> None:
    from pypdf import PdfReader

    book = tmp_path / "b.pdf"
    rec = generate(seed=3)
    line = f"{rec.puzzle.to_line()} # index=0 seed=3"
    src = _file(tmp_path, "p.txt", [line])
    title = "A very long title for a collection of puzzles " * 4
    assert main(["pdf", src, "-o", str(book), "--title", title, "--no-labels"]) == 0
    text = PdfReader(book).pages[0].extract_text()
    assert "seed" not in text and "A very long title" in text
    sixteen = generate(shape=Shape(4, 4), seed=1, symmetry="none").puzzle
    big = _file(tmp_path, "16.txt", [sixteen.to_line()])
    capsys.readouterr()
    assert main(["pdf", big, "-o", str(book), "--per-page", "4"]) == 0
    assert "printed 2 a page, not 4" in capsys.readouterr().err


def test_cjk_titles_are_printed_or_refused_clearly(tmp_path: Path, capsys: Capture) -> None:
    book = tmp_path / "b.pdf"
    src = _file(tmp_path, "p.txt", [EASY])
    status = main(["pdf", src, "-o", str(book), "--title", "数独パズル 100"])
    if any(f.is_file() for f in pdf_module.FALLBACK_FONTS):
        assert status == 0
        from pypdf import PdfReader

        fonts = PdfReader(book).pages[0]["/Resources"]["/Font"]  # type: ignore[index]
        names = [str(f.get_object()["/BaseFont"]) for f in fonts.values()]
        assert any("Droid" in n for n in names), names  # embedded, as a subset
        assert "数独パズル" in PdfReader(book).pages[0].extract_text()
    else:
        assert status == 1
        assert "fonts-droid-fallback" in capsys.readouterr().err and not book.exists()
    assert main(["pdf", src, "-o", str(book), "--title", "ᚠᚢᚦᚨᚱᚲ"]) == 1  # runes: no font has them
    assert "no font here has the characters" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--level", "diabolical", "--allow", "singles"], "rates at most ER 2.3, below the ER 6.1"),
        (["--require", "x-wing", "--allow", "singles"], "x-wing is required but not among"),
        (["--require", "x-wing", "--level", "easy"], "x-wing rates ER 3.2"),
        (["--er", "50"], "ER 50 is outside Sudoku Explainer's scale"),
        (["--er", "20-30"], "ER range 20-30 is outside Sudoku Explainer's scale (1-20)"),
        (["--er", "0.5-3"], "ER range 0.5-3 is outside Sudoku Explainer's scale (1-20)"),
        (["--er", "nan"], "outside Sudoku Explainer's scale"),
        (["--timeout", "nan"], "expected a positive number of seconds, got 'nan'"),
        (["--timeout", "inf"], "expected a positive number of seconds, got 'inf'"),
        (["--timeout", "-1"], "expected a positive number of seconds, got '-1'"),
        (["--er", "1.0-1.2", "--level", "diabolical"], "outside level diabolical (ER 6.1-20.0)"),
    ],
)
def test_impossible_targets_fail_before_any_work(
    options: list[str], message: str, capsys: Capture
) -> None:
    status: int | str | None
    try:  # the library's refusal, or argparse's for a value no target takes
        status = main(["generate", "--timeout", "600", *options])
    except SystemExit as e:
        status = e.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and "None" not in err


@pytest.mark.parametrize("er", [(20.0, 30.0), (0.0, 3.0), (float("nan"), 5.0), (25.0, 25.0)])
def test_the_library_refuses_an_er_range_off_the_scale(er: tuple[float, float]) -> None:
    """A range partly off the scale is an error, not quietly narrowed (20-30 to 20.0-20.0)."""
    from sudokit.difficulty import difficulty

    with pytest.raises(ValueError, match="outside Sudoku Explainer's scale"):
        difficulty(rating=er)


@pytest.mark.parametrize(
    "args",
    [
        ["hunt", "--min-er", "25", "-n", "1"],
        ["hunt", "--min-er", "7", "--time", "nan", "-n", "1"],
        ["serve", "--time-limit", "inf"],
        ["play", "--timeout", "0"],
        ["bank", "fill", "--timeout", "nan"],
    ],
)
def test_numbers_off_their_range_are_usage_errors(args: list[str], capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_a_rating_past_the_deadline_stops_the_generator() -> None:
    """A hard target's rating can take seconds: the timeout now holds inside it too."""
    import time

    from sudokit import GenerationError

    start = time.monotonic()
    with pytest.raises(GenerationError, match="within 0.5 s"):
        generate(er=(10.5, 11.0), timeout=0.5, seed=1)
    assert time.monotonic() - start < 30  # one chaining step at most past the deadline


def test_small_things_users_met() -> None:
    from sudokit.rating import Level

    assert str(Level.DIABOLICAL) == "diabolical" and f"{Level.EASY}" == "easy"
    with pytest.raises(TypeError, match="not NoneType"):
        Grid(None)  # type: ignore[arg-type]


def test_technique_names_are_listed_and_accepted(capsys: Capture) -> None:
    """The names ratings print (claiming) are accepted, and listed for users to find."""
    assert main(["techniques"]) == 0
    listing = capsys.readouterr().out
    assert "claiming" in listing and "x-wing" in listing and "singles" in listing
    assert main(["explain", EASY, "--techniques", "claiming,singles"]) == 0


def test_the_timeout_holds_with_several_jobs() -> None:
    """--er 9.0-9.5 --timeout 10 failed after 31 s with 2 jobs: the failing chunk's partners
    ran to their own ends before the command could exit. Workers now stop at once."""
    import time

    start = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "sudokit", "generate", "--er", "10.5-11", "--timeout", "1"]
        + ["-j", "2", "-n", "10"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1 and "within 1 s" in r.stderr
    assert time.monotonic() - start < 25  # a one-second limit, generously: never a minute
