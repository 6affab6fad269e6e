"""``--rules`` on the command line, run as users run it: ``sudokit`` as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit.formats import PuzzleSource
from sudokit.formats.comments import stated_rules
from sudokit.rules import RULES, Rules


def sudokit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
    )


def test_generate_with_rules_writes_records_that_read_back_with_them(tmp_path: Path) -> None:
    out = tmp_path / "x.txt"
    done = sudokit("generate", "-n", "4", "--rules", "x", "--seed", "5", "-o", str(out))
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert "rules=x " in lines[0]  # the options line
    records = list(PuzzleSource(str(out)).records())  # no options given: the records say
    assert len(records) == 4 and all(r.grid is not None for r in records)
    assert {r.grid.rules for r in records if r.grid is not None} == {Rules("x")}
    solved = sudokit("solve", str(out))
    assert solved.returncode == 0, solved.stderr
    for rec, line in zip(records, solved.stdout.splitlines(), strict=True):
        assert rec.grid is not None
        from sudokit import Grid, is_unique

        assert is_unique(rec.grid)
        assert Grid(line, rules="x").is_complete()


def test_jigsaw_records_state_their_layout_and_jobs_change_nothing() -> None:
    one = sudokit("generate", "-n", "6", "--rules", "jigsaw", "--seed", "3", "-j", "1")
    two = sudokit("generate", "-n", "6", "--rules", "jigsaw", "--seed", "3", "-j", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    layouts = {stated_rules(line) for line in one.stdout.splitlines()}
    assert len(layouts) == 6 and all(r is not None and r.startswith("jigsaw:") for r in layouts)
    back = sudokit("solve", "-", stdin=one.stdout)
    assert back.returncode == 0 and len(back.stdout.splitlines()) == 6, back.stderr


def test_json_records_state_the_rules() -> None:
    done = sudokit("generate", "-n", "2", "--rules", "antiking", "--format", "json", "--seed", "1")
    assert done.returncode == 0, done.stderr
    objs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["rules"] for o in objs] == ["antiking", "antiking"]
    recs = list(PuzzleSource(done.stdout).records())
    assert [r.grid.rules for r in recs if r.grid is not None] == [Rules("antiking")] * 2


def test_classic_records_are_unchanged() -> None:
    done = sudokit("generate", "-n", "2", "--seed", "1")
    assert done.returncode == 0 and "rules=" not in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rules", "bogus"], "unknown rule 'bogus'"),
        (["--rules", "windoku", "--shape", "2x3"], "windoku needs square boxes"),
        (["--rules", "jigsaw", "--shape", "2x3", "--symmetry", "rot90"], "breaks rules"),
        (["--rules", "x", "--format", "csv"], "csv cannot state rules"),
    ],
)
def test_generate_refuses_bad_rules_by_name(args: list[str], words: str) -> None:
    done = sudokit("generate", *args)
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()[-1]) > 0


def test_resume_keeps_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "w.txt"
    assert sudokit("generate", "-n", "2", "--rules", "windoku", "--seed", "2", "-o", str(out))
    again = sudokit("generate", "-n", "4", "--rules", "windoku", "-o", str(out), "--resume")
    assert again.returncode == 0, again.stderr
    whole = sudokit("generate", "-n", "4", "--rules", "windoku", "--seed", "2")
    assert out.read_text().splitlines()[1:] == whole.stdout.splitlines()
    classic = sudokit("generate", "-n", "5", "-o", str(out), "--resume")
    assert classic.returncode == 1 and "rules=windoku in the file, classic now" in classic.stderr


def test_generate_help_lists_the_rule_sets() -> None:
    done = sudokit("generate", "--help")
    text = " ".join(done.stdout.split())
    for name in RULES:
        assert f"{name}:" in text


X_PUZZLE = ".6........32..........18.....7............8.6....4...97.8..493...............9.57"


def test_solve_takes_rules() -> None:
    done = sudokit("solve", "--rules", "x", X_PUZZLE)
    assert done.returncode == 0, done.stderr
    from sudokit import Grid

    solution = Grid(done.stdout.strip(), rules="x")
    assert solution.is_complete()
    assert sudokit("solve", "--rules", "x", "--count", X_PUZZLE).stdout == "1\n"
    assert sudokit("solve", "--count", X_PUZZLE).stdout != "1\n"  # classic: not unique


@pytest.mark.parametrize("command", ["hint", "svg", "canon"])
def test_layers_read_rules_on_the_command_line(command: str) -> None:
    done = sudokit(command, "--rules", "x", X_PUZZLE)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_where_the_techniques_under_rules_end_is_said_in_one_line() -> None:
    done = sudokit("rate", "--rules", "x", X_PUZZLE)  # it needs Nishio or more
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "rules 'x'" in done.stderr and "needs nishio" in done.stderr
    done = sudokit("explain", "--rules", "x", X_PUZZLE)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "Stuck after" in done.stdout and "stops before nishio" in done.stdout


def test_pdf_draws_a_puzzle_with_rules(tmp_path: Path) -> None:
    book = tmp_path / "b.pdf"
    done = sudokit("pdf", "--rules", "x", X_PUZZLE, "-o", str(book))
    assert done.returncode == 0 and "1 puzzle on 2 pages" in done.stderr, done.stderr
    assert book.read_bytes().startswith(b"%PDF")


def test_bad_rules_on_a_reading_command_exit_2() -> None:
    done = sudokit("solve", "--rules", "jigsaw", X_PUZZLE)
    assert done.returncode == 2 and "jigsaw needs its region map" in done.stderr
