"""The generator: uniqueness, symmetry, clue targets, minimality, determinism, resume."""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sudokit
from sudokit import GenerationError, Shape, generate, generate_many
from sudokit._parallel import plan_chunks
from sudokit.cli import main
from sudokit.generator import (
    SYMMETRIES,
    Batch,
    is_minimal,
    orbits,
    symmetry_of,
)
from sudokit.layouts import MAPS as _MAPS
from sudokit.output import format_record, format_records

from reference import count_solutions as ref_count

SMALL_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(4, 2)]
ALL_SYMMETRIES = list(SYMMETRIES)


def pattern(grid: sudokit.Grid) -> set[int]:
    return {c for c in range(grid.shape.size) if grid[c]}


def is_symmetric(grid: sudokit.Grid, symmetry: str) -> bool:
    n = grid.n
    clues = pattern(grid)
    for name in SYMMETRIES[symmetry]:
        f = _MAPS[name]
        if {f(c // n, c % n, n)[0] * n + f(c // n, c % n, n)[1] for c in clues} != clues:
            return False
    return True


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)])
@pytest.mark.parametrize("symmetry", ALL_SYMMETRIES)
def test_symmetry_of_names_the_group_of_maps_a_pattern_keeps(shape: Shape, symmetry: str) -> None:
    for seed in range(4):
        p = generate(shape=shape, symmetry=symmetry, seed=seed)
        found = symmetry_of(p.puzzle)
        assert set(SYMMETRIES[found]) >= set(SYMMETRIES[symmetry])
        kept = {name for name in SYMMETRIES if is_symmetric(p.puzzle, name)}
        assert set(SYMMETRIES[found]) == {m for name in kept for m in SYMMETRIES[name]}
        assert is_minimal(p.puzzle, p.solution) == p.minimal


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)])
def test_symmetry_of_random_patterns_matches_the_maps_one_by_one(shape: Shape) -> None:
    """Symmetric patterns made by closing random cells under a group, and their breakages:
    the answer is the group of every map the pattern keeps (checked cell by cell)."""
    rng = random.Random(shape.n)
    n = shape.n
    for trial in range(300):
        symmetry = ALL_SYMMETRIES[trial % len(ALL_SYMMETRIES)]
        cells = bytearray(n * n)
        for cell in rng.sample(range(n * n), rng.randrange(1, n * n // 3)):
            for name in SYMMETRIES[symmetry]:
                r, c = _MAPS[name](cell // n, cell % n, n)
                cells[r * n + c] = 1
        if trial % 3 == 0:  # break the symmetry, sometimes
            cells[rng.randrange(n * n)] ^= 1
        grid = sudokit.Grid.from_cells(bytes(cells), shape, allow_conflicts=True)
        found = symmetry_of(grid)
        kept = {name for name in SYMMETRIES if is_symmetric(grid, name)}
        assert set(SYMMETRIES[found]) == {m for name in kept for m in SYMMETRIES[name]}


def without(cells: bytes, remove: tuple[int, ...] | list[int]) -> bytes:
    out = bytearray(cells)
    for c in remove:
        out[c] = 0
    return bytes(out)


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=str)
@pytest.mark.parametrize("symmetry", ALL_SYMMETRIES)
def test_small_shapes_every_symmetry_checked_by_reference(shape: Shape, symmetry: str) -> None:
    for seed in range(3):
        p = generate(shape=shape, symmetry=symmetry, seed=seed)
        cells = p.puzzle.cells
        count, solution = ref_count(shape, cells, limit=2)
        assert count == 1, p
        assert solution is not None and bytes(solution) == p.solution.cells
        assert is_symmetric(p.puzzle, symmetry)
        # Orbit-minimal: taking out any whole orbit of clues loses uniqueness.
        assert p.orbit_minimal is True
        for orbit in orbits(shape, symmetry):
            if cells[orbit[0]]:
                assert ref_count(shape, without(cells, orbit), limit=2)[0] == 2
        # The cell-minimality fact is true to the reference.
        singles_removable = any(
            ref_count(shape, without(cells, [c]), limit=2)[0] == 1
            for c in range(shape.size)
            if cells[c]
        )
        assert p.minimal is (not singles_removable)


@pytest.mark.parametrize("symmetry", ALL_SYMMETRIES)
def test_9x9_every_symmetry(symmetry: str) -> None:
    for seed in range(5):
        p = generate(symmetry=symmetry, seed=seed)
        assert sudokit.count_solutions(p.puzzle, limit=2) == 1
        assert is_symmetric(p.puzzle, symmetry)
        assert all(a in (0, b) for a, b in zip(p.puzzle.cells, p.solution.cells, strict=True))
        assert p.solution.is_complete() and sudokit.solve(p.puzzle) == p.solution
        for orbit in orbits(Shape(3, 3), symmetry):
            if p.puzzle[orbit[0]]:
                reduced = sudokit.Grid.unchecked(Shape(3, 3), without(p.puzzle.cells, orbit))
                assert sudokit.count_solutions(reduced, limit=2) == 2


def test_minimal_without_symmetry_checked_by_reference_on_9x9() -> None:
    p = generate(symmetry="none", seed=11)
    assert p.minimal is True and p.orbit_minimal is True
    assert ref_count(p.shape, p.puzzle.cells, limit=2)[0] == 1
    for c in range(81):
        if p.puzzle[c]:
            assert ref_count(p.shape, without(p.puzzle.cells, [c]), limit=2)[0] == 2


@pytest.mark.parametrize("path", sudokit._engine.paths())
def test_every_engine_path_digs_the_same_minimal_puzzles(path: str) -> None:
    """The 9x9 dig (batches, unavoidable sets from failed batches, searches from a shared
    state one clue at a time) on each search path the build holds: the portable path's
    puzzles, unique and minimal by the reference (cells, or orbits with a symmetry)."""
    engine = sudokit._engine
    before = engine.path()
    made: dict[str, list[sudokit.Generated]] = {}
    try:
        for name in ("portable", path):
            engine.use_path(name)
            made[name] = [generate(symmetry="none", seed=3), generate(symmetry="rot180", seed=4)]
    finally:
        engine.use_path(before)
    assert made[path] == made["portable"]
    for p in made[path]:
        cells = p.puzzle.cells
        assert ref_count(p.shape, cells, limit=2)[0] == 1, p
        for orbit in orbits(p.shape, p.symmetry):
            if cells[orbit[0]]:
                assert ref_count(p.shape, without(cells, orbit), limit=2)[0] == 2, (p, orbit)


def _digest(**options: object) -> str:
    h = hashlib.sha256()
    for p in generate_many(**options):  # type: ignore[arg-type]
        h.update(p.puzzle.cells + p.solution.cells)
        h.update(bytes([p.minimal is True, p.orbit_minimal is True]))
    return h.hexdigest()[:16]


#: What the generator made for these seeds when the dig's shortcuts were added (the grid's own
#: unavoidable sets, the solution's digit first in its searches): shortcuts must not change a
#: puzzle. Changing these is a deliberate, versioned change, as for the random grids.
GOLDEN_DIGS = [
    ({"count": 200, "seed": 1, "symmetry": "none"}, "d770b21616b2d502"),
    ({"count": 100, "seed": 2, "symmetry": "rot180"}, "007b40744be69fb7"),
    ({"count": 100, "seed": 3, "symmetry": "none", "clues": 30}, "cc3b24e7567c93b6"),
    ({"count": 4, "seed": 4, "shape": Shape(2, 3), "symmetry": "none"}, "9d4551e2014a41d3"),
    ({"count": 30, "seed": 4, "shape": Shape(3, 4), "symmetry": "none"}, "5a8cc17d13e59e13"),
    ({"count": 2, "seed": 5, "shape": Shape(4, 4), "symmetry": "none"}, "94f0e7727f2d67b0"),
]


@pytest.mark.parametrize(("options", "expected"), GOLDEN_DIGS, ids=lambda x: str(x)[:40])
def test_generated_puzzles_are_pinned(options: dict[str, object], expected: str) -> None:
    assert _digest(**options) == expected


def test_minimal_9x9_clue_counts_are_plausible() -> None:
    counts = [generate(symmetry="none", seed=s).clues for s in range(300)]
    mean = sum(counts) / len(counts)
    assert 23.0 < mean < 26.5, mean
    assert min(counts) >= 17


@pytest.mark.parametrize(("symmetry", "clues"), [("none", 30), ("rot180", 28), ("full", 33)])
def test_exact_clue_count(symmetry: str, clues: int) -> None:
    for seed in range(5):
        p = generate(symmetry=symmetry, clues=clues, seed=seed)
        assert p.clues == clues
        assert sudokit.is_unique(p.puzzle)
        assert is_symmetric(p.puzzle, symmetry)


def test_max_clues_and_minimal_with_exact_clues() -> None:
    p = generate(symmetry="full", max_clues=32, seed=3)
    assert p.clues <= 32 and sudokit.is_unique(p.puzzle)
    q = generate(symmetry="none", clues=23, minimal=True, seed=3)
    assert q.clues == 23 and q.minimal is True


def test_other_shapes_unique_and_symmetric() -> None:
    for shape, symmetry in [
        (Shape(3, 4), "rot180"),
        (Shape(4, 3), "mirror-v"),
        (Shape(4, 4), "none"),
    ]:
        p = generate(shape=shape, symmetry=symmetry, seed=1)
        assert sudokit.count_solutions(p.puzzle, limit=2) == 1
        assert is_symmetric(p.puzzle, symmetry)
        assert p.orbit_minimal is True


def test_random_symmetry_is_recorded_and_reproducible() -> None:
    chosen = {generate(symmetry="random", seed=s).symmetry for s in range(30)}
    assert len(chosen) > 3 and "none" not in chosen
    p = generate(symmetry="random", seed=4)
    assert is_symmetric(p.puzzle, p.symmetry)


def test_seed_and_index_determine_the_result() -> None:
    batch = list(generate_many(6, seed=99, symmetry="none", chunk=2))
    assert [p.index for p in batch] == list(range(6))
    for p in batch:
        assert generate(seed=99, index=p.index, symmetry="none") == p
    assert len({p.puzzle for p in batch}) == 6
    parallel = list(generate_many(6, seed=99, symmetry="none", chunk=2, jobs=2))
    assert parallel == batch
    tail = list(generate_many(3, seed=99, symmetry="none", start=3))
    assert tail == batch[3:]


@given(
    start=st.integers(0, 10**6),
    count=st.integers(0, 50_000),
    jobs=st.integers(1, 16),
    smallest=st.integers(1, 40),
    extra=st.integers(0, 600),
)
def test_chunks_cover_the_indexes_in_order_and_feed_every_worker(
    start: int, count: int, jobs: int, smallest: int, extra: int
) -> None:
    sizes = (smallest, smallest + extra)
    workers, planned = plan_chunks(start, count, jobs, sizes)
    chunks = list(planned(workers))
    assert [i for r in chunks for i in r] == list(range(start, start + count))
    assert 1 <= workers <= jobs
    assert workers <= len(chunks) or count == 0
    lengths = [len(r) for r in chunks]
    assert all(smallest <= n <= smallest + extra for n in lengths[:-1])
    assert lengths == sorted(lengths, reverse=True)  # shrinking as the work runs out


@given(
    count=st.integers(0, 3_000_000),
    width=st.integers(1, 2000),
)
def test_cluster_chunks_grow_with_the_cluster(count: int, width: int) -> None:
    # On a cluster of many workers, chunks grow (the scheduler's tasks a second stay flat),
    # still covering the indexes in order and shrinking at the end.
    _, planned = plan_chunks(5, count, 2, (512, 2048), cluster=True)
    lengths = [len(r) for r in planned(width)]
    assert sum(lengths) == count
    largest = 2048 * max(1, width // 16)
    assert all(512 <= n <= largest for n in lengths[:-1])
    assert lengths == sorted(lengths, reverse=True)
    if count >= 4 * width * largest:
        assert lengths[0] == largest


def _where(batch: list[sudokit.Generated]) -> tuple[int, int]:
    return os.getpid(), len(batch)


@pytest.mark.parametrize("jobs", [1, 2])
def test_batches_are_rendered_where_they_are_made(jobs: int) -> None:
    flat = list(generate_many(40, seed=8, symmetry="none"))
    made = list(generate_many(40, seed=8, symmetry="none", chunk=16, jobs=jobs).rendered(_where))
    assert [n for _, n in made] == [16, 16, 8]
    assert {pid == os.getpid() for pid, _ in made} == {jobs == 1}
    batches = generate_many(40, seed=8, symmetry="none", jobs=jobs).rendered(list)
    assert [g for batch in batches for g in batch] == flat
    for keep in (False, True):
        render = partial(format_records, fmt="json", with_solution=True, keep=keep)
        stream = generate_many(40, seed=8, symmetry="none", chunk=7, jobs=jobs)
        records = list(stream.rendered(render))
        assert "".join(r.text for r in records) == "".join(
            format_record(g, "json", with_solution=True) for g in flat
        )
        assert [r.count for r in records] == [7] * 5 + [5]
        assert [g for r in records for g in r.puzzles] == (flat if keep else [])
    bare = list(generate_many(40, seed=8, jobs=jobs).rendered(partial(format_records, fmt=None)))
    assert sum(r.count for r in bare) == 40 and not any(r.text or r.puzzles for r in bare)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"symmetry": "spiral"},
        {"clues": 16},
        {"clues": 82},
        {"max_clues": 3, "shape": Shape(2, 2)},
        {"clues": 30, "symmetry": "full"},
        {"clues": 30, "max_clues": 30},
        {"timeout": 0},
    ],
)
def test_bad_options_fail_before_work(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError) as e:
        generate(seed=1, **kwargs)  # type: ignore[arg-type]
    assert str(e.value)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"with_rating": True, "symmetry": "random"}, {"shape": Shape(2, 3), "clues": 14}],
)
def test_a_batch_pickles_compactly_and_whole(kwargs: dict[str, object]) -> None:
    batch = Batch(generate_many(12, seed=5, **kwargs))  # type: ignore[arg-type]
    data = pickle.dumps(batch)
    back = pickle.loads(data)
    assert type(back) is Batch and back == batch
    assert len(data) < len(pickle.dumps(list(batch)))
    empty = pickle.loads(pickle.dumps(Batch()))
    assert type(empty) is Batch and empty == []


@pytest.mark.parametrize(
    "kwargs",
    [{"count": -1}, {"chunk": 0}, {"jobs": 0}, {"symmetry": "spiral"}, {"allow": []}],
)
def test_bad_batch_options_fail_before_work(kwargs: dict[str, object]) -> None:
    options: dict[str, object] = {"count": 3, "seed": 1, **kwargs}
    with pytest.raises(ValueError) as e:
        next(generate_many(**options))  # type: ignore[arg-type]
    assert str(e.value).split()[0] in ("count", "chunk", "jobs", "unknown", "allow")


def test_a_stream_checks_options_at_once_and_runs_once() -> None:
    with pytest.raises(ValueError, match="count"):
        generate_many(-1)  # no next() needed
    stream = generate_many(40, seed=2, symmetry="none", jobs=2)
    first = next(stream)
    with pytest.raises(RuntimeError, match="started"):
        stream.rendered(list)
    stream.close()
    assert next(stream, None) is None
    assert first == generate(seed=2, index=0, symmetry="none")


def test_technique_lists_may_be_one_shot_iterators() -> None:
    (p,) = generate_many(1, seed=1, allow=iter(["singles"]), require=iter(["hidden-single"]))
    path = sudokit.logic.solve_path(p.puzzle, techniques=sudokit.logic.select(["singles"]))
    assert path.solved and "hidden-single" in {s.technique for s in path.steps}


def test_unreachable_target_reports_the_closest() -> None:
    with pytest.raises(GenerationError) as e:
        generate(clues=17, symmetry="full", seed=1, timeout=0.3)
    closest = e.value.closest
    assert isinstance(closest, sudokit.Generated)
    assert "17 clues" in str(e.value) and f"closest had {closest.clues} clues" in str(e.value)


def test_cli_generate_default_is_one_minimal_rot180_9x9(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--seed", "5"]) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1
    assert "symmetry=rot180" in line and "orbit_minimal=yes" in line
    g = sudokit.parse_grid(line.split()[0])
    assert g.shape == Shape(3, 3) and sudokit.is_unique(g)


@pytest.mark.parametrize("fmt", ["line", "pretty", "json", "csv"])
def test_cli_output_is_the_same_whatever_jobs(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 300 puzzles split differently for each --jobs: 75, 56, 42, ... against 37, 32, 28, ...
    args = ["generate", "-n", "300", "--seed", "3", "--format", fmt, "--with-solution"]
    assert main([*args, "-j", "1", "-o", str(tmp_path / "a")]) == 0
    a = (tmp_path / "a").read_bytes()
    for jobs in ("2", "3"):
        assert main([*args, "-j", jobs, "-o", str(tmp_path / jobs)]) == 0
        assert a == (tmp_path / jobs).read_bytes()
    puzzles = [r.grid for r in sudokit.read_puzzles(a.decode().splitlines()) if r.grid]
    assert len(puzzles) >= 300  # with --with-solution some formats read back solutions too


def test_cli_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--clues", "16"]) == 2
    assert "impossible" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "--symmetry", "spiral"])
    with pytest.raises(SystemExit):
        main(["generate", "--shape", "1x9"])
    assert main(["generate", "--resume"]) == 2


@pytest.mark.parametrize("fmt", ["line", "pretty", "json", "csv"])
def test_resume_after_partial_write(fmt: str, tmp_path: Path) -> None:
    full, part = tmp_path / "full", tmp_path / "part"
    args = ["generate", "-n", "30", "--seed", "8", "--format", fmt, "-j", "1"]
    assert main([*args, "-o", str(full)]) == 0
    data = full.read_bytes()
    # Cut in the middle of the 12th record: whole records before, a torn one after.
    cut = len(data) * 12 // 30 + 7
    part.write_bytes(data[:cut])
    assert main([*args, "-o", str(part), "--resume"]) == 0
    assert part.read_bytes() == data
    # Resuming a finished file changes nothing.
    assert main([*args, "-o", str(part), "--resume"]) == 0
    assert part.read_bytes() == data


def test_resume_refuses_a_foreign_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["generate", "-n", "3", "--seed", "1", "-o", str(out)]) == 0
    assert main(["generate", "-n", "5", "--seed", "2", "-o", str(out), "--resume"]) == 2
    assert "seed 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "stated"),
    [
        ([], "minimal=orbits"),  # the default: orbit-minimal (it said minimal=no)
        (["--minimal"], "minimal=orbits"),  # the same dig (it said minimal=yes)
        (["--symmetry", "none"], "minimal=yes"),
        (["--max-clues", "40"], "minimal=no"),
    ],
)
def test_the_options_line_says_how_minimal_the_puzzles_are(
    tmp_path: Path, extra: list[str], stated: str
) -> None:
    out = tmp_path / "out"
    args = ["generate", "-n", "3", "--seed", "4", "-j", "1", "-o", str(out), *extra]
    assert main(args) == 0
    first, *records = out.read_text(encoding="utf-8").splitlines()
    assert f" {stated} " in first
    if stated == "minimal=orbits":
        assert all("orbit_minimal=yes" in r for r in records)
    # a file from before, whose line said minimal=no for the default (yes with --minimal)
    # and rate=no, still resumes
    older = first.replace(stated, "minimal=yes" if "--minimal" in extra else "minimal=no")
    out.write_text("\n".join([older, records[0]]) + "\n", encoding="utf-8")
    assert main([*args[:2], "4", *args[3:], "--resume"]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[1:4] == records


def test_the_options_line_is_the_requests_text_form(tmp_path: Path) -> None:
    from sudokit import Request

    out = tmp_path / "out"
    args = ["generate", "-n", "2", "--seed", "4", "-j", "1", "-o", str(out), "--shape", "2x3"]
    assert main([*args, "--level", "easy"]) == 0
    first, *records = out.read_text(encoding="utf-8").splitlines()
    assert first.startswith("# sudokit generate format=line with_solution=no ")
    request = Request.parse(first.split(" ", 3)[3])
    assert request == Request.of(shape="2x3", level="easy")
    # files from before stated rate=no for rated puzzles of a level: they resume
    out.write_text(first.replace("rate=yes", "rate=no") + "\n" + records[0] + "\n", "utf-8")
    assert main([*args[:2], "3", *args[3:], "--level", "easy", "--resume"]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[1:3] == records


@pytest.mark.parametrize("fmt", ["line", "pretty", "json", "csv"])
def test_resume_refuses_other_options(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the seed used to be checked: resuming a 9x9 file with --shape 2x3 appended 6x6
    records to it. Every option that changes the records must be the same."""
    out = tmp_path / "out"
    base = ["generate", "-n", "4", "--seed", "5", "--format", fmt, "-j", "1", "-o", str(out)]
    assert main(base[:2] + ["2", *base[3:]]) == 0
    before = out.read_bytes()
    for extra, named in [
        (["--shape", "2x3"], "shape=3x3 in the file, 2x3 now"),
        (["--with-solution"], "with_solution=no in the file, yes now"),
        (["--symmetry", "none"], "symmetry=rot180 in the file, none now"),
    ]:
        assert main([*base, *extra, "--resume"]) == 1
        assert named in capsys.readouterr().err
        assert out.read_bytes() == before
    if fmt != "csv":
        assert main([*base, "--clues", "30", "--resume"]) == 1
        assert "clues=- in the file, 30 now" in capsys.readouterr().err
    assert main([*base, "--resume"]) == 0  # the same options go on
    assert out.read_bytes().startswith(before)


@pytest.mark.parametrize(
    ("count", "shape", "kill_at"),
    [
        (400, "3x4", 2_000),  # slow puzzles, one record a chunk
        (8_000, "3x3", 20_000),  # quick ones, hundreds of records a chunk
    ],
)
def test_killed_run_resumes_without_loss_or_duplicates(
    count: int, shape: str, kill_at: int, tmp_path: Path
) -> None:
    out = tmp_path / "killed.txt"
    args = ["generate", "-n", str(count), "--seed", "21", "--shape", shape, "--symmetry", "none"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args, "-j", "2", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < kill_at):
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    whole_records = out.read_bytes().count(b"\n")
    assert 0 < whole_records < count, "the kill must land in the middle of the run"
    assert main([*args, "-j", "2", "-o", str(out), "--resume"]) == 0
    reference = tmp_path / "reference.txt"
    assert main([*args, "-j", "1", "-o", str(reference)]) == 0
    assert out.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize(
    ("mode", "allowed", "max_er"), [(1, None, 1.2), (2, None, 1.5), (3, None, 2.3)]
)
def test_engine_logic_modes_dig_puzzles_singles_can_solve(
    mode: int, allowed: None, max_er: float
) -> None:
    from sudokit import _engine
    from sudokit.layouts import orbit_ids as _orbit_ids
    from sudokit.logic import solve_path
    from sudokit.rating import rate

    for shape in (Shape(3, 3), Shape(2, 3), Shape(3, 4)):
        ids = _orbit_ids(shape, "none")
        for seed in range(10):
            made = _engine.generate(shape.box_rows, shape.box_cols, seed, ids, 0, False, 0, mode)
            assert made is not None
            cells, solution, *_ = made
            puzzle = sudokit.Grid.unchecked(shape, cells)
            if shape.n < 9:
                assert ref_count(shape, cells, limit=2)[0] == 1
            assert sudokit.count_solutions(puzzle, limit=2) == 1
            path = solve_path(puzzle, techniques=["singles"])
            assert path.solved and path.state.to_grid().cells == solution
            if shape == Shape(3, 3):
                assert rate(puzzle).er <= max_er


def test_grid_is_the_old_name_of_the_pretty_record_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "pretty" (canon --format pretty) and "grid" (generate --format grid) named one layout:
    "pretty" is its name now, "grid" is read for one release, said on stderr, and a file an
    older version wrote with format=grid still resumes."""
    args = ["generate", "-n", "3", "--seed", "6", "-j", "1"]
    assert main([*args, "--format", "pretty", "-o", str(tmp_path / "new")]) == 0
    assert main([*args, "--format", "grid", "-o", str(tmp_path / "old")]) == 0
    assert "--format grid is now called --format pretty" in capsys.readouterr().err
    new = (tmp_path / "new").read_text(encoding="utf-8")
    assert new == (tmp_path / "old").read_text(encoding="utf-8")
    assert new.startswith("# sudokit generate format=pretty ")
    first, rest = new.split("\n", 1)
    records = rest.split("\n\n")
    (tmp_path / "older").write_text(
        first.replace("format=pretty", "format=grid") + "\n" + records[0] + "\n\n", "utf-8"
    )
    assert main([*args, "--format", "pretty", "-o", str(tmp_path / "older"), "--resume"]) == 0
    assert (tmp_path / "older").read_text(encoding="utf-8").split("\n", 1)[1] == rest
    from sudokit.output import record_format

    with pytest.warns(DeprecationWarning, match="'pretty'"):
        assert record_format("grid") == "pretty"
