"""Variant puzzles through the command line's bank and the variant community's formats, run as
users run them: ``sudokit`` as a process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudokit.formats import PuzzleSource
from sudokit.rules import Rules


def sudokit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
    )


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite bank holding 3 x puzzles and 2 classic ones, added from generate's records."""
    where = tmp_path_factory.mktemp("bank")
    db = str(where / "bank.db")
    for name, rules in (("x.txt", ["--rules", "x", "-n", "3"]), ("c.txt", ["-n", "2"])):
        made = sudokit(
            "generate", *rules, "--seed", "1", "--level", "easy", "--rate", "-o", str(where / name)
        )
        assert made.returncode == 0, made.stderr
        added = sudokit("bank", "--db", db, "add", str(where / name))
        assert added.returncode == 0, added.stderr
    return db


def test_bank_query_filters_by_rules_and_states_them(bank: str) -> None:
    x = sudokit("bank", "--db", bank, "query", "--rules", "x")
    assert x.returncode == 0, x.stderr
    assert len(x.stdout.splitlines()) == 3 and all(
        " rules=x " in line for line in x.stdout.splitlines()
    )
    # the records read back with their rules (the bank kept them from generate's records)
    records = list(PuzzleSource(x.stdout).records())
    assert {r.grid.rules for r in records if r.grid is not None} == {Rules("x")}
    classic = sudokit("bank", "--db", bank, "query", "--rules", "classic")
    assert classic.returncode == 0, classic.stderr
    assert len(classic.stdout.splitlines()) == 2 and "rules=" not in classic.stdout
    everything = sudokit("bank", "--db", bank, "query")
    assert len(everything.stdout.splitlines()) == 5
    none = sudokit("bank", "--db", bank, "query", "--rules", "x+windoku")
    assert none.returncode == 0 and none.stdout == ""


@pytest.mark.parametrize("form", ["--canonical", "--isomorph"])
def test_bank_query_served_forms_state_the_rules(bank: str, form: str) -> None:
    done = sudokit("bank", "--db", bank, "query", "--rules", "x", form, "--format", "json")
    assert done.returncode == 0, done.stderr
    objs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["rules"] for o in objs] == ["x"] * 3


def test_bank_query_refuses_csv_for_variant_puzzles_and_bad_rules(bank: str) -> None:
    csv = sudokit("bank", "--db", bank, "query", "--rules", "x", "--format", "csv")
    assert csv.returncode == 2 and "csv cannot state rules x" in csv.stderr
    bad = sudokit("bank", "--db", bank, "query", "--rules", "bogus")
    assert bad.returncode == 2 and "unknown rule 'bogus'" in bad.stderr


def test_bank_stats_counts_by_rules(bank: str) -> None:
    as_json = sudokit("bank", "--db", bank, "stats", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["rules"] == {"x": 3, "classic": 2}
    text = sudokit("bank", "--db", bank, "stats")
    assert "by rules:\n  x        3\n  classic  2\n" in text.stdout
