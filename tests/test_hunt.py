"""The hunt: every find unique (by the reference solver too), minimal, new, of ER at least the
threshold by a full rating done apart; the screen agrees with the rating; runs repeat for a
seed; the command writes, resumes and banks without duplicates."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import Grid, Shape, Vicinity, canonical_id, generate, hunt, is_unique, solve
from sudokit.cli import main
from sudokit.formats import read_puzzles
from sudokit.generator import is_minimal, minimise
from sudokit.hunting import Explore, Find, HuntStats, Judge, _draw, band, explore, judge
from sudokit.output import record_label
from sudokit.rating import rate, screen

from reference import count_solutions as ref_count

#: Puzzles of magictour's top1465 (public) of 23-25 clues, ER 7.1-9.0, each rated in well
#: under a second; 43 to 145 of the -1+1 draws of each are unique.
SEEDS = [
    Grid(line)
    for line in (
        "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56",
        "53..2.9...24.3..5...9..........1.827...7.........981.............64....91.2.5.43.",
        "....8.4..4.......7..69....3.......7...7..62.5.9...2..1..3....5..8..14......32..1.",
        ".4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2..",
        ".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7",
    )
]
HARDEST = Path(__file__).resolve().parents[2] / "shared" / "data" / "hardest_1106.csv"


def _grid(cells: bytes) -> Grid:
    return Grid.from_cells(cells, Shape(3, 3))


def test_vicinity_text() -> None:
    assert Vicinity.parse("-2+2") == Vicinity(2, 2)
    assert Vicinity.parse("{-1+0}") == Vicinity(1, 0)
    assert str(Vicinity(3, 1)) == "-3+1"
    with pytest.raises(ValueError, match="-K\\+M"):
        Vicinity.parse("2+2")
    with pytest.raises(ValueError, match="at least one"):
        Vicinity(0, 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 3))
def test_a_draw_takes_k_clues_and_puts_m_without_a_conflict(seed: int, k: int, m: int) -> None:
    if k + m == 0:
        return
    puzzle = SEEDS[seed % len(SEEDS)]
    solution = solve(puzzle)
    assert solution is not None
    drawn = _draw(puzzle.cells, solution.cells, puzzle.shape, Vicinity(k, m), random.Random(seed))
    if drawn is None:  # the one cell forced to another digit left no solution
        return
    assert drawn is not None
    before, after = puzzle.cells, drawn
    removed = [c for c in range(81) if before[c] and not after[c]]
    added = [c for c in range(81) if after[c] and not before[c]]
    changed = [c for c in range(81) if before[c] and after[c] and before[c] != after[c]]
    assert (len(removed), len(added), changed) == (k, m, [])
    _grid(after)  # a conflict (two equal digits in a unit) would be refused here


def test_explore_gives_unique_minimal_distinct_neighbours_with_their_ids() -> None:
    got = explore(Explore(SEEDS[3], Vicinity(1, 1), 400, seed=5))
    assert got.tried > 200 and 0 < len(got.ids) <= got.unique
    assert len(set(got.ids)) == len(got.ids)
    for k, cid in enumerate(got.ids[:3]):  # the reference solver takes seconds a puzzle
        cells = got.puzzles[81 * k : 81 * (k + 1)]
        solution = got.solutions[81 * k : 81 * (k + 1)]
        count, first = ref_count(Shape(3, 3), list(cells))  # the reference solver, not C
        assert count == 1 and bytes(first or []) == solution
        assert got.minimal[k] is True and is_minimal(_grid(cells), _grid(solution))
        assert canonical_id(_grid(cells)) == cid
    again = explore(Explore(SEEDS[3], Vicinity(1, 1), 400, seed=5))
    assert (again.puzzles, again.ids, again.tried) == (got.puzzles, got.ids, got.tried)


def test_explore_without_minimising_keeps_the_draws_as_they_are() -> None:
    got = explore(Explore(SEEDS[4], Vicinity(1, 1), 400, seed=9, minimise=False))
    assert got.ids
    seed = SEEDS[4].cells
    for k in range(len(got.ids)):
        cells = got.puzzles[81 * k : 81 * (k + 1)]
        assert sum(a != b for a, b in zip(cells, seed, strict=True)) <= 2
        assert got.minimal[k] == is_minimal(
            _grid(cells), _grid(got.solutions[81 * k : 81 * (k + 1)])
        )


def test_minimise_leaves_a_minimal_unique_puzzle_inside_the_given_one() -> None:
    p = generate(seed=8, symmetry="none")
    out, minimal = minimise(p.solution, p.solution, seed=3)
    assert minimal is True and is_unique(out) and is_minimal(out, p.solution)
    assert all(not v or v == s for v, s in zip(out.cells, p.solution.cells, strict=True))
    assert minimise(p.solution, p.solution, seed=3) == (out, minimal)


@pytest.mark.parametrize("floor", [1.1, 2.0, 4.0, 7.0, 8.5, 9.0, 12.0])
def test_screen_then_finish_is_the_rating(floor: float) -> None:
    puzzles = [*SEEDS, *(generate(seed=s, symmetry="none").puzzle for s in range(6))]
    for p in puzzles:
        full = rate(p)
        screened = screen(p, floor)
        assert screened.passed == (full.er >= floor)
        if not screened.passed:
            assert screened.rating.er == full.er  # below the floor the screen's rating is exact
        done = screened.finish()
        assert (done.er, done.ep, done.ed, done.hardest, len(done.steps)) == (
            full.er,
            full.ep,
            full.ed,
            full.hardest,
            len(full.steps),
        )


def test_judge_rates_as_rate_does() -> None:
    judged = judge(Judge(Shape(3, 3), b"".join(g.cells for g in SEEDS), 8.4))
    for g, rating, passed in zip(SEEDS, judged.ratings, judged.passed, strict=True):
        assert (rating.er, rating.ep, rating.ed) == (rate(g).er, rate(g).ep, rate(g).ed)
        assert passed == (rating.er >= 8.4)


def _run(**options: object) -> tuple[list[Find], HuntStats]:
    stats = HuntStats()
    defaults: dict[str, object] = {"min_er": 6.5, "seed": 4, "count": 6, "per_seed": 300}
    finds = list(hunt(SEEDS, stats=stats, **{**defaults, **options}))  # type: ignore[arg-type]
    return finds, stats


def test_every_find_is_unique_minimal_new_and_at_least_the_threshold() -> None:
    finds, stats = _run()
    assert len(finds) == 6 == stats.found
    seed_ids = {canonical_id(g) for g in SEEDS}
    ids = [canonical_id(f.puzzle) for f in finds]
    assert len(set(ids)) == len(ids) and not set(ids) & seed_ids
    for k, f in enumerate(finds):
        assert f.id == ids[k] and f.index == k and f.seed == 4
        assert is_unique(f.puzzle)  # by the reference solver too, for one of them:
        assert f.minimal is True and is_minimal(f.puzzle, f.solution)
        full = rate(f.puzzle)  # a full rating, apart from the hunt's screen
        assert f.rating is not None
        assert full.er >= 6.5 and (f.rating.er, f.rating.ep, f.rating.ed) == (
            full.er,
            full.ep,
            full.ed,
        )
        assert f.origin is not None
    assert ref_count(Shape(3, 3), list(finds[0].puzzle.cells))[0] == 1
    assert stats.tried >= stats.unique >= stats.new >= stats.survived >= stats.found
    assert sum(stats.bands.values()) == 6 and band(7.5) == "7.5-7.9" == band(7.94)
    assert "found 6" in stats.summary() and stats.per_core_hour > 0 and stats.per_cpu_hour > 0


def test_a_hunt_repeats_for_a_seed_whatever_the_jobs() -> None:
    first = [(f.puzzle, str(f.rating), f.origin) for f in _run(count=4)[0]]
    assert [(f.puzzle, str(f.rating), f.origin) for f in _run(count=4)[0]] == first
    assert [(f.puzzle, str(f.rating), f.origin) for f in _run(count=4, jobs=2)[0]] == first


def test_known_ids_are_never_rated_nor_found() -> None:
    finds, _ = _run(count=3)
    banned = {f.id for f in finds}
    asked: list[str] = []

    def known(ids: list[str]) -> set[str]:
        asked.extend(ids)
        return {i for i in ids if i in banned}

    again, _ = _run(count=3, known=known)
    assert asked and not banned & {f.id for f in again}


def test_random_seeds_when_none_are_given() -> None:
    finds = list(hunt(None, min_er=2.0, seed=1, count=3, random_seeds=4, per_seed=60))
    assert len(finds) == 3
    assert all(f.rating is not None and f.rating.er >= 2.0 and is_unique(f.puzzle) for f in finds)


def test_a_time_limit_stops_after_a_round() -> None:
    stats = HuntStats()
    list(hunt(SEEDS, min_er=6.5, seed=2, time_limit=1e-9, per_seed=20, stats=stats))
    assert stats.rounds == 1


def test_bad_options_are_refused_at_once() -> None:
    with pytest.raises(ValueError, match="scale"):
        next(hunt(SEEDS, min_er=25.0))
    with pytest.raises(ValueError, match="-K\\+M"):
        next(hunt(SEEDS, min_er=7.0, vicinity="+1"))
    with pytest.raises(ValueError, match="no seeds"):
        next(hunt([], min_er=7.0))


# The command ------------------------------------------------------------------------------


def _seeds_file(tmp_path: Path) -> Path:
    path = tmp_path / "seeds.txt"
    path.write_text(
        "\n".join(g.to_line() for g in SEEDS) + "\nnot a puzzle\n" + "." * 81 + "\n",
        encoding="utf-8",
    )
    return path


def _hunt(tmp_path: Path, *more: str) -> list[str]:
    return [
        "hunt", "--min-er", "6.5", "--seeds", str(_seeds_file(tmp_path)), "--seed", "6",
        "-j", "1", "--per-seed", "300", *more,
    ]  # fmt: skip


def test_cli_writes_records_with_the_seed_each_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sudokit.cli.making.HUNT_LOG_EVERY", 0.0)  # a progress line every round
    out = tmp_path / "finds.txt"
    assert main([*_hunt(tmp_path, "-n", "3", "-o", str(out))]) == 1  # two bad seed lines
    err = capsys.readouterr().err
    assert "line 6" in err and "line 7" in err and "found 3" in err and "per core-hour" in err
    assert "tried=" in err and "found=" in err and "per_hour=" in err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# sudokit hunt ")
    records = list(read_puzzles(text.splitlines()))
    assert len(records) == 3
    for k, rec in enumerate(records):
        assert rec.grid is not None and rec.note is not None
        label = record_label(rec)
        assert label.index == k and label.seed == 6 and label.er is not None and label.er >= 6.5
        origin = rec.note.split("from=")[1].split()[0]
        assert Grid(origin) in SEEDS or len(origin) == 81


def test_cli_resume_after_a_kill_goes_on_without_duplicates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "finds.txt"
    main([*_hunt(tmp_path, "-n", "3", "-o", str(out))])
    whole = out.read_text(encoding="utf-8")
    out.write_text(whole + whole.splitlines()[2][:40], encoding="utf-8")  # a cut-off record
    main([*_hunt(tmp_path, "-n", "6", "-o", str(out), "--resume")])
    capsys.readouterr()
    records = list(read_puzzles(out.read_text(encoding="utf-8").splitlines()))
    assert len(records) == 6 and [record_label(r).index for r in records] == list(range(6))
    ids = {canonical_id(r.grid) for r in records if r.grid is not None}
    assert len(ids) == 6 and not ids & {canonical_id(g) for g in SEEDS}


def test_cli_stores_in_the_bank_and_never_twice(
    tmp_path: Path, bank_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudokit.bank import Bank

    assert main([*_hunt(tmp_path, "-n", "2", "--db", bank_url)]) == 1  # two bad seed lines
    assert main([*_hunt(tmp_path, "-n", "2", "--db", bank_url)]) == 1  # the same seed again
    with Bank(bank_url) as bank:
        stored = bank.query()
        assert len(stored) == 4 and all(s.rating.er >= 6.5 for s in stored)
        assert all(s.source.startswith("hunt seed=6") for s in stored)
        assert not {s.id for s in stored} & {canonical_id(g) for g in SEEDS}
        assert bank.held([stored[0].id, canonical_id(SEEDS[0])]) == {stored[0].id}
    assert main(["hunt", "--min-er", "6.5", "--from-bank", "2", "--db", bank_url, "-n", "1",
                 "-j", "1", "--seed", "1", "--per-seed", "300"]) == 0  # fmt: skip
    with Bank(bank_url) as bank:
        assert bank.count() == 5
    capsys.readouterr()


def test_cli_random_seeds_and_no_minimising(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["hunt", "--min-er", "2.0", "-n", "2", "--seed", "3", "-j", "1", "--per-seed", "50"]
    assert main([*args, "--no-minimise", "--format", "json", "--vicinity", "-2+2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        obj = json.loads(line)
        assert obj["er"] >= 2.0 and obj["minimal"] in (True, False) and len(obj["from"]) == 81
        assert is_unique(Grid(obj["puzzle"]))


def test_a_killed_hunt_resumes_without_duplicates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "killed.txt"
    args = _hunt(tmp_path, "-n", "40", "-o", str(out))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 3):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = out.read_bytes().count(b"\n") - 1  # the options line
    assert 2 <= kept < 40, "the kill must land in the middle of the run"
    main([*_hunt(tmp_path, "-n", str(kept + 3), "-o", str(out), "--resume")])
    capsys.readouterr()
    records = list(read_puzzles(out.read_text(encoding="utf-8").splitlines()))
    assert [record_label(r).index for r in records] == list(range(kept + 3))
    ids = {canonical_id(r.grid) for r in records if r.grid is not None}
    assert len(ids) == kept + 3


def test_cli_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hunt", "--min-er", "7", "--vicinity", "2"]) == 2
    with pytest.raises(SystemExit) as refused:  # refused by its parser, as --er is
        main(["hunt", "--min-er", "30"])
    assert refused.value.code == 2
    assert main(["hunt", "--min-er", "7", "--resume"]) == 2
    assert main(["hunt", "--min-er", "7", "--from-bank"]) == 2
    assert "-K+M" in capsys.readouterr().err


# The forum's hardest as seeds ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not HARDEST.exists(), reason="shared data absent")
def test_hardest_seeds_give_new_minimal_puzzles_of_er_10() -> None:
    with HARDEST.open(encoding="utf-8") as text:
        seeds = [Grid(row["puzzle"]) for row in csv.DictReader(text)][:40]
    finds = list(hunt(seeds, min_er=10.0, seed=1, count=3, per_seed=100))
    ids = {canonical_id(g) for g in seeds}
    assert len(finds) == 3
    for f in finds:
        assert rate(f.puzzle).er >= 10.0 and f.id not in ids and is_minimal(f.puzzle, f.solution)
