"""Every entry point of the C extensions, given random and hostile arguments.

The promise: no argument from Python can crash the process or make C read or write out of
bounds. A bad argument raises ``ValueError`` (or ``TypeError`` for a wrong type, or
``OverflowError``, a ``ValueError`` kind of its own for ints C cannot hold, from argument
parsing); a failed allocation raises ``MemoryError``. Nothing else may come out. Valid
arguments still give right answers, checked where cheap.

These tests run in the ordinary suite and, under AddressSanitizer and UndefinedBehaviorSanitizer,
in ``tools/sanitize.sh`` (see the README's development section), where an out-of-bounds access
that happens to go unnoticed here stops the run.

Shapes are drawn from small valid ones (so a valid call stays quick) and from invalid ones
chosen to break careless checks: sides of 0, 1 and negative, products that overflow a C int
(65536 x 65536), and sides just past the limit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import MAX_SIDE, Grid, Shape, _engine, _logic, random_grid
from sudokit.generator import orbits

#: What may come out. OverflowError (an ArithmeticError) is what argument parsing raises for
#: an int that the C type cannot hold, with a message naming it: a ValueError in all but name.
ALLOWED = (ValueError, TypeError, MemoryError, OverflowError)

SMALL = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]
BAD = [
    (0, 0),
    (1, 9),
    (9, 1),
    (-3, -3),
    (-65536, -65536),
    (65536, 65536),
    (46341, 46341),
    (2**31 - 1, 2),
    (2, 2**31 - 1),
    (MAX_SIDE // 2 + 1, 2),
    (MAX_SIDE, MAX_SIDE),
]

shapes = st.one_of(st.sampled_from(SMALL), st.sampled_from(BAD))
ints = st.one_of(
    st.integers(-5, 100),
    st.sampled_from([-(2**63), -(2**31), 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**64 - 1, 2**64]),
)


def call(f: Callable[..., Any], *args: Any) -> Any:
    """Call ``f``; return its result, or None when it refused with an allowed error."""
    try:
        return f(*args)
    except ALLOWED:
        return None


@st.composite
def cells_for(draw: st.DrawFn, shape: tuple[int, int]) -> bytes:
    """Cell bytes for a shape: mostly the right length with digits in range (some too high),
    sometimes any bytes at all."""
    br, bc = shape
    n = br * bc if 4 <= br * bc <= 81 else 9
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.binary(max_size=2 * n * n))
    size = n * n * draw(st.sampled_from([1, 1, 1, 2, 3]))
    top = n if kind < 3 else 255
    return bytes(draw(st.lists(st.integers(0, top), min_size=size, max_size=size)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_solve_and_solve_batch(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    cells = data.draw(cells_for(shape))
    limit = data.draw(st.one_of(st.integers(-3, 5), ints))
    generic = data.draw(st.booleans())
    one = call(_engine.solve, *shape, cells, limit, generic)
    if one is not None:
        solution, count = one
        assert 0 <= count <= max(limit, 1)
        assert (solution is None) == (count == 0)
    batch = call(_engine.solve_batch, *shape, cells, limit, generic)
    if batch is not None:
        solutions, counts = batch
        assert len(solutions) == len(cells) and len(counts) * shape[0] ** 2 * shape[1] ** 2 == len(
            cells
        )


@settings(max_examples=200, deadline=None)
@given(shapes, ints)
def test_random_grid(shape: tuple[int, int], seed: int) -> None:
    grid = call(_engine.random_grid, *shape, seed)
    if grid is not None:
        assert Grid.from_cells(grid, Shape(*shape)).is_complete()


@st.composite
def orbit_ids(draw: st.DrawFn, shape: tuple[int, int]) -> bytes:
    br, bc = shape
    if draw(st.booleans()) and shape in SMALL:
        symmetry = draw(st.sampled_from(["none", "rot180", "full"]))
        ids = [0] * (br * bc) ** 2
        for k, orbit in enumerate(orbits(Shape(br, bc), symmetry)):
            for c in orbit:
                ids[c] = k
        if draw(st.booleans()):  # one id bumped: an orbit may go empty or run past the cells
            i = draw(st.integers(0, len(ids) - 1))
            ids[i] = draw(st.integers(0, 2**16 - 1))
        return b"".join(i.to_bytes(2, "little") for i in ids)
    return draw(st.binary(max_size=200))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generate(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    ids = data.draw(orbit_ids(shape))
    target = data.draw(st.one_of(st.integers(-2, 90), ints))
    exact = data.draw(st.booleans())
    budget = data.draw(st.one_of(st.sampled_from([0, 1, 50, 2000]), ints))
    logic = data.draw(st.one_of(st.integers(-2, 5), ints))
    seed = data.draw(st.integers(0, 2**64 - 1))
    found = call(_engine.generate, *shape, seed, ids, target, exact, budget, logic)
    if found is not None:
        puzzle, solution, clues, _, _ = found
        n = shape[0] * shape[1]
        assert len(puzzle) == len(solution) == n * n
        assert sum(1 for v in puzzle if v) == clues
        assert all(p in (0, s) for p, s in zip(puzzle, solution, strict=True))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_removable(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    br, bc = shape
    if shape in SMALL and data.draw(st.booleans()):
        solution = bytearray(random_grid(Shape(br, bc), seed=data.draw(st.integers(0, 99))).cells)
        keep = data.draw(st.floats(0.3, 1.0))
        rng = random.Random(data.draw(st.integers(0, 99)))
        puzzle = bytearray(v if rng.random() < keep else 0 for v in solution)
        spoil = data.draw(st.integers(0, 3))
        if spoil == 1:
            puzzle[rng.randrange(len(puzzle))] = rng.randrange(256)
        elif spoil == 2:
            solution[rng.randrange(len(solution))] = rng.randrange(256)
        elif spoil == 3:
            i, j = rng.sample(range(len(solution)), 2)
            solution[i], solution[j] = solution[j], solution[i]
    else:
        puzzle = bytearray(data.draw(cells_for(shape)))
        solution = bytearray(data.draw(cells_for(shape)))
    budget = data.draw(st.one_of(st.sampled_from([0, 10, 1000]), ints))
    found = call(_engine.removable, br, bc, bytes(puzzle), bytes(solution), budget, True)
    if found is not None:
        cells, _ = found
        assert all(puzzle[c] for c in cells)


@st.composite
def masks_for(draw: st.DrawFn, shape: tuple[int, int]) -> list[Any]:
    br, bc = shape
    n = br * bc if 4 <= br * bc <= 81 else 9
    size = n * n if draw(st.integers(0, 5)) else draw(st.integers(0, 2 * n * n))
    full = (1 << n) - 1
    mask = st.one_of(
        st.integers(0, full),
        st.integers(0, full),
        st.just(full),
        st.sampled_from([1 << n, 1 << 63, 2**64 - 1, 2**64, -1]),
    )
    items: list[Any] = draw(st.lists(mask, min_size=size, max_size=size))
    if items and draw(st.integers(0, 20)) == 0:
        items[0] = draw(st.sampled_from([None, "1", 1.5]))
    return items


#: The chain producers' technique ids in the logic engine, and which are cheap on any grid.
CHAIN_IDS = {
    row[0]: i for i, row in enumerate(_logic.TECHNIQUES) if "chains" in row[0] or row[0] == "nishio"
}
CHEAP_CHAINS = [
    CHAIN_IDS[s]
    for s in ("forcing-chains", "nishio", "multiple-forcing-chains", "dynamic-forcing-chains")
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_chain_finders(data: st.DataObject) -> None:
    """The chain engine through the logic engine's entry points: find, next_step, path."""
    shape = data.draw(shapes)
    n = shape[0] * shape[1]
    values = data.draw(cells_for(shape))
    cand = data.draw(masks_for(shape))
    # Nested levels on a dense 9x9 state can take long: keep them to small grids.
    ids = list(CHAIN_IDS.values()) if n <= 6 else CHEAP_CHAINS
    tech = data.draw(
        st.one_of(st.sampled_from(ids), st.sampled_from([-1, len(_logic.TECHNIQUES), 2**31]))
    )
    entry = data.draw(st.integers(0, 2))
    if entry == 0:
        found = call(_logic.find, tech, *shape, values, cand)
        if found is not None:
            assert isinstance(found, list) and len(found) <= 1
    elif entry == 1:
        call(_logic.next_step, [tech], -1.0, *shape, values, cand)
    else:
        call(_logic.path, [0, 1, tech], -1.0, -1.0, -1.0, *shape, values, cand)


#: Every other technique of the logic engine: cheap enough on any state of the small shapes.
OTHER_IDS = [i for i in range(len(_logic.TECHNIQUES)) if i not in CHAIN_IDS.values()]

#: Technique lists as a caller might (wrongly) pass them.
tech_lists = st.one_of(
    st.lists(st.sampled_from(OTHER_IDS), max_size=8),
    st.lists(st.one_of(st.sampled_from(OTHER_IDS), ints), max_size=8),
    st.lists(st.sampled_from([None, "1", 1.5, -1]), min_size=1, max_size=3),
    st.sampled_from([None, 3, "abc", b"\x00\x01"]),
)
ratings = st.one_of(
    st.floats(-2.0, 12.0),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e308]),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_logic_entry_points(data: st.DataObject) -> None:
    """Every technique but the chains (above) through find, next_step and path, with hostile
    shapes, cells, masks, technique lists, ratings and deadlines; and None for the masks (the
    engine derives them from the cells)."""
    shape = data.draw(shapes)
    values = data.draw(cells_for(shape))
    cand = data.draw(st.one_of(masks_for(shape), st.none()))
    entry = data.draw(st.integers(0, 2))
    if entry == 0:
        tech = data.draw(st.one_of(st.sampled_from(OTHER_IDS), ints))
        found = call(_logic.find, tech, *shape, values, cand)
        if found is not None:
            assert isinstance(found, list)
    elif entry == 1:
        techs = data.draw(tech_lists)
        call(_logic.next_step, techs, data.draw(ratings), *shape, values, cand)
    else:
        techs = data.draw(tech_lists)
        cap, stop = data.draw(ratings), data.draw(ratings)
        deadline = data.draw(st.one_of(st.just(-1.0), st.floats(0.0, 1.0), ratings))
        found = call(_logic.path, techs, cap, stop, deadline, *shape, values, cand)
        if found is not None:
            assert len(found) == 4


def test_overflowing_shapes_are_refused_before_any_arithmetic() -> None:
    """The shape checks used to multiply first: 65536 * 65536 wrapped and crashed the engine."""
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
        (_engine.solve, (b"\0" * 81,)),
        (_engine.solve_batch, (b"\0" * 81,)),
        (_engine.random_grid, (1,)),
        (_engine.generate, (1, b"\0\0" * 81, 0, False, 0)),
        (_engine.removable, (b"\0" * 81, b"\1" * 81, 0)),
    ]
    for f, args in calls:
        with pytest.raises(ValueError, match="invalid shape 65536x65536"):
            f(65536, 65536, *args)
    with pytest.raises(ValueError, match="invalid shape 65536x65536"):
        _logic.find(CHAIN_IDS["nested-forcing-chains-5"], 65536, 65536, b"\0" * 81, [0] * 81)


def test_chain_values_and_masks_are_checked() -> None:
    """A value above n used to index past a stack array; a mask bit at or above n crashed."""
    full = [0x1FF] * 81
    dynamic = CHAIN_IDS["dynamic-forcing-chains"]
    with pytest.raises(ValueError, match="over the largest digit 9"):
        _logic.find(dynamic, 3, 3, bytes([10]) + b"\0" * 80, full)
    with pytest.raises(ValueError, match="bits at or above 9"):
        _logic.find(dynamic, 3, 3, b"\0" * 81, [0x3FF] + full[1:])
    with pytest.raises(ValueError, match="unknown technique id"):
        _logic.find(len(_logic.TECHNIQUES), 3, 3, b"\0" * 81, full)
    with pytest.raises(TypeError, match="mask 0 is not an int"):
        _logic.find(dynamic, 3, 3, b"\0" * 81, ["1", *full[1:]])  # type: ignore[list-item]


def test_removable_needs_a_solution_that_fits_the_puzzle() -> None:
    solution = random_grid(Shape(3, 3), seed=5).cells
    with pytest.raises(ValueError, match="solution: cell 0 holds 0"):
        _engine.removable(3, 3, solution, b"\0" + solution[1:], 0)
    other = bytes([solution[0] % 9 + 1]) + solution[1:]
    with pytest.raises(ValueError, match="clue"):
        _engine.removable(3, 3, other, solution, 0)


def test_one_size_limit_everywhere() -> None:
    """MAX_SIDE has one definition (the C header ``_limits.h``); every extension agrees."""
    import sudokit._shape

    assert sudokit.MAX_SIDE == sudokit._shape.MAX_SIDE == _engine.MAX_SIDE == _logic.MAX_SIDE
    br = max(b for b in range(2, MAX_SIDE) if MAX_SIDE % b == 0 and MAX_SIDE // b >= 2)
    assert _engine.solve(br, MAX_SIDE // br, b"\0" * MAX_SIDE**2)[1] == 1
    with pytest.raises(ValueError, match=f"at most {MAX_SIDE}"):
        _engine.random_grid(MAX_SIDE // 2 + 1, 2, 1)


def test_no_python_module_writes_the_size_limit_down_again() -> None:
    """The Python side takes the limit from the extension (``sudokit._shape.MAX_SIDE``): no
    module binds a MAX_ name to a number of its own equal to it (the service's shape check
    and largest digit once did)."""
    import ast
    from pathlib import Path

    import sudokit

    src = Path(sudokit.__file__).parent
    found = []
    for path in sorted(src.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                value = node.value
                if (
                    any(name.startswith("MAX_") for name in names)
                    and isinstance(value, ast.Constant)
                    and value.value == MAX_SIDE
                ):
                    found.append(f"{path.relative_to(src)}:{node.lineno} {names}")
    assert found == []


KNOWN_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.binary(max_size=400),
        st.lists(
            st.sampled_from(
                [
                    KNOWN_LINE,
                    "1" * 81,
                    "11" + "." * 79,
                    "",
                    "#",
                    "# solution",
                    "#shape=",
                    "x",
                    "12345678........." + "9" + "." * 63,  # no solution
                ]  # (no puzzle with many solutions: counting one to a huge limit takes forever)
            ),
            max_size=8,
        ).map(lambda ls: "\n".join(ls).encode()),
    ),
    limit=st.one_of(st.integers(-3, 5), st.sampled_from([2**63 - 1, 2**63, -(2**63)])),
    counts=st.booleans(),
)
def test_solve_lines_takes_any_bytes(text: bytes, limit: int, counts: bool) -> None:
    try:
        out, used, lines = _engine.solve_lines(text, limit, counts)
    except (ValueError, OverflowError):
        assert limit < 1 or limit >= 2**63
        return
    assert 0 <= used <= len(text)
    assert used in (0, len(text)) or text[used - 1 : used] == b"\n"
    assert lines == text[:used].count(b"\n") + (
        1 if used == len(text) and used and not text.endswith(b"\n") else 0
    )
    answers = out.split(b"\n")[:-1]
    if counts:
        assert all(a.isdigit() and 0 <= int(a) <= limit for a in answers)
    else:
        assert all(len(a) == 81 and a.isdigit() and b"0" not in a for a in answers)


@given(st.one_of(st.text(max_size=12), st.sampled_from(["auto", "portable", "x86-64-v3", ""])))
def test_use_path_takes_any_name(name: str) -> None:
    before = _engine.path()
    try:
        _engine.use_path(name)
    except ValueError as e:
        assert "engine path" in str(e)
    except UnicodeEncodeError:
        pass  # a lone surrogate has no UTF-8 form
    assert _engine.path() in _engine.paths()
    _engine.use_path(before)


class _Slotted:
    """Two slots of the names Grid has, on a plain class (not a Grid)."""

    __slots__ = ("_cells", "_shape")


#: Grid's own slot descriptors as class attributes of another class (their setters refuse
#: its instances).
_Borrowed = type(
    "_Borrowed", (), {"_cells": Grid.__dict__["_cells"], "_shape": Grid.__dict__["_shape"]}
)


class _DictSlotted(dict):  # type: ignore[type-arg]
    """A built-in's state that allocation alone would leave unset."""

    __slots__ = ("_cells", "_shape")


_CLASSES = [Grid, _Slotted, _Borrowed, _DictSlotted, int, type, object, bytes, Shape, list]
_PLAIN = Grid.unchecked(Shape(2, 2), bytes(16))
#: What a batch may hold (grids with unset slots among them: no repr, so drawn by index).
_OBJECTS = [_PLAIN, object.__new__(Grid), object.__new__(_Slotted), 1, "x", None, b"", []]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    cls=st.sampled_from(_CLASSES),
    shape=st.sampled_from([Shape(2, 2), None, 3, "x"]),
    cells=st.binary(max_size=40),
    size=st.one_of(st.integers(-3, 20), st.sampled_from([2**63 - 1, 2**63, -(2**63)])),
)
def test_grids_takes_any_class_and_buffer(cls: type, shape: Any, cells: bytes, size: int) -> None:
    """_engine.grids makes instances only of classes with the two slots that object.__new__
    could make (a class it could not make is refused before anything is allocated; a slot
    that belongs to another class refuses the instance)."""
    made = call(_engine.grids, cls, shape, cells, size)
    if made is None:
        return
    assert size >= 1 and len(cells) % size == 0
    assert cls in (Grid, _Slotted) or not cells  # nothing to make: no instance was set
    assert len(made) == len(cells) // size
    got = [(type(g), g._cells, g._shape) for g in made]
    assert got == [(cls, cells[i : i + size], shape) for i in range(0, len(cells), size)]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(0, len(_OBJECTS) - 1), max_size=4),
    container=st.sampled_from([list, tuple, iter, set]),
    cls=st.sampled_from(_CLASSES),
)
def test_batch_cells_takes_any_sequence_and_class(
    picks: list[int], container: Any, cls: type
) -> None:
    """_engine.batch_cells joins only exact instances of ``cls`` with set slots; for anything
    else it gives None or refuses the class."""
    items = [_OBJECTS[i] for i in picks]
    grids = container(items) if container is not set else set(map(id, items))
    joined = call(_engine.batch_cells, grids, cls)
    if joined is not None:
        assert cls is Grid and items and all(g is _PLAIN for g in items)
        assert joined == (_PLAIN.shape, _PLAIN.cells * len(items))
