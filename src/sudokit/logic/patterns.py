"""Named patterns that Sudoku Explainer lacks: single-digit patterns, W-Wing, finned fish, WXYZ.

These are the techniques HoDoKu (and most solving guides) name, used for friendlier hints and
for HoDoKu-style difficulty levels (see :mod:`sudokit.logic.hodoku`). Definitions and search
orders follow HoDoKu 2.2 (``SingleDigitPatternSolver``, ``ChainSolver``, ``WingSolver``,
``FishSolver``), generalised to every shape, rectangular boxes included.

Locked pair/triple, skyscraper, 2-string kite, turbot fish, empty rectangle and W-Wing run in
the C engine (``src/sudokit/_clogic/patterns.c``); their pure-Python reference is
``tests/logic/pyref/patterns.py``.

Terms:

- A **strong link** (or *conjugate pair*) on digit ``d``: a unit where ``d`` has exactly two
  places left. One of the two cells is ``d``.
- A **weak link** on ``d``: two cells that see each other and both have ``d``. At most one of
  them is ``d``.
- A **turbot fish** on ``d`` chains strong, weak, strong: ``A=B-C=D`` (``=`` strong, ``-``
  weak). If ``A`` is not ``d`` then ``B`` is, ``C`` is not, and ``D`` is; so ``A`` or ``D`` is
  ``d``, and ``d`` goes from every cell that sees both ends. Two shapes have their own names:
  the **skyscraper** (both strong links in rows, or both in columns, with ``B`` and ``C`` in
  one column, resp. row) and the **2-string kite** (one row and one column whose ``B`` and
  ``C`` share a box).
- An **empty rectangle** on ``d``: a box whose ``d``s all lie in one of its rows plus one of its
  columns (the "cross"), each arm having a ``d`` outside the crossing cell. With a strong link
  from the cross's row to a cell ``y`` elsewhere, the cell in ``y``'s row and the cross's
  column cannot be ``d`` (and likewise with rows and columns swapped).
- A **W-Wing**: two cells with the same two candidates ``xy``, and a strong link on ``y``
  whose ends see one cell each. Both cells cannot be ``y``, so one is ``x``: ``x`` goes from
  every cell seeing both.
- A **finned fish** of size ``k`` on ``d``: ``k`` base lines (rows, or columns) whose ``d``s
  lie in ``k`` cover lines except for some **fins**. Either a fin is ``d``, or the plain fish
  holds; so ``d`` goes from every cover cell outside the base lines that sees all the fins.
  It is **sashimi** when some base line has at most one ``d`` besides its fins (HoDoKu's
  test).
- A **WXYZ-Wing**: four cells of a line and a box that cross (some in the line only, some in
  the box only) holding exactly four digits, of which just one, ``z``, has cells that do not
  all see each other. Without ``z`` the four cells would need four digits from three that
  each fit at most once, so one of the ``z`` cells is ``z``.

Ratings (Sudoku Explainer has none of these): the fixed-size single-digit patterns and the
W-Wing take the ratings SukakuExplainer (the SE fork that has them) gives: skyscraper 4.0,
2-string kite 4.1, turbot fish and empty rectangle 4.2, W-Wing 4.4, WXYZ-Wing 5.5. Finned and
sashimi fish rate as the plain fish (3.2, 3.8, 5.2) plus 0.2, resp. 0.3.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from .._shape import Shape
from ._native import finder
from ._state import Candidates, bits, geometry
from ._step import Link, Step, cell_list, digit_list, effects, register_explainer

__all__ = [
    "chain_text",
    "find_empty_rectangles",
    "find_finned_jellyfish",
    "find_finned_swordfish",
    "find_finned_x_wings",
    "find_sashimi_jellyfish",
    "find_sashimi_swordfish",
    "find_sashimi_x_wings",
    "find_skyscrapers",
    "find_turbot_fish",
    "find_two_string_kites",
    "find_w_wings",
    "find_wxyz_wings",
    "hodoku_sum",
    "length_bonus",
    "strong_partners",
]

#: HoDoKu's limit on the number of fins of a finned fish.
MAX_FINS = 5


def length_bonus(length: int) -> float:
    """Sudoku Explainer's chain length bonus: 0.1 for each ceiling 4, 6, 8, 12, 16, ... passed.

    >>> [length_bonus(k) for k in (4, 5, 6, 7, 9, 13, 17)]
    [0.0, 0.1, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    steps, ceiling, up = 0, 4, True
    while length > ceiling:
        steps += 1
        ceiling = ceiling * 3 // 2 if up else ceiling * 4 // 3
        up = not up
    return steps / 10


def hodoku_sum(eliminations: list[tuple[int, int]]) -> int:
    """HoDoKu's tie-break between steps that remove as many candidates: a weighted index sum.

    HoDoKu sorts the steps it collects by the number of eliminations (most first), then, for
    different eliminations, by this sum (smallest first), taken over the list in its order.
    """
    total, weight = 0, 1
    for cell, digit in eliminations:
        total += cell * weight + digit
        weight += 80
    return total


class _Layout:
    """Per-shape tables: each cell's row, column and box number, and each box's rows/columns."""

    __slots__ = ("band", "box", "col", "row", "stack")

    def __init__(self, shape: Shape) -> None:
        n = shape.n
        self.row = tuple(c // n for c in range(shape.size))
        self.col = tuple(c % n for c in range(shape.size))
        self.box = tuple(shape.box_of(c) for c in range(shape.size))
        across = n // shape.box_cols  # boxes side by side
        br, bc = shape.box_rows, shape.box_cols
        # band[b]: the rows of box b; stack[b]: its columns.
        self.band = tuple(tuple(range(b // across * br, (b // across + 1) * br)) for b in range(n))
        self.stack = tuple(tuple(range(b % across * bc, (b % across + 1) * bc)) for b in range(n))


@lru_cache(maxsize=32)
def layout(shape: Shape) -> _Layout:
    return _Layout(shape)


def _pairs(state: Candidates, digit: int, units: range) -> list[tuple[int, int, int]]:
    """The strong links on ``digit`` in ``units``: ``(unit, first cell, second cell)``."""
    where, unit_mask = state.where[digit], state.geo.unit_mask
    out = []
    for u in units:
        m = where & unit_mask[u]
        if m.bit_count() == 2:
            low = m & -m
            out.append((u, low.bit_length() - 1, (m ^ low).bit_length() - 1))
    return out


def strong_partners(state: Candidates, digit: int) -> dict[int, int]:
    """For each cell in a strong link on ``digit``: the cells it is strongly linked to (a mask)."""
    where, unit_mask = state.where[digit], state.geo.unit_mask
    out: dict[int, int] = {}
    for u in range(3 * state.n):
        m = where & unit_mask[u]
        if m.bit_count() == 2:
            low = m & -m
            a, b = low.bit_length() - 1, (m ^ low).bit_length() - 1
            out[a] = out.get(a, 0) | (1 << b)
            out[b] = out.get(b, 0) | (1 << a)
    return out


def _x_links(cells: tuple[int, ...], digit: int) -> tuple[Link, ...]:
    """Links of an alternating single-digit chain that starts with a strong link."""
    return tuple(
        Link(cells[i], digit, cells[i + 1], digit, i % 2 == 0) for i in range(len(cells) - 1)
    )


def _elims(mask: int, digit: int) -> tuple[tuple[int, int], ...]:
    return tuple((c, digit) for c in bits(mask))


# Skyscraper, 2-string kite, turbot fish.

find_skyscrapers = finder(
    "skyscraper",
    "Two strong links in rows (then in columns) whose ends meet in one column (row), HoDoKu's\n"
    "order (rows for every digit, then columns; pairs of lines in order).",
)
find_two_string_kites = finder(
    "two-string-kite",
    "A strong link in a row and one in a column, with one end of each in a shared box.",
)
find_turbot_fish = finder(
    "turbot-fish",
    "Every chain ``A=B-C=D`` on one digit that removes something, HoDoKu's best first.",
)


# Empty rectangle.

find_empty_rectangles = finder(
    "empty-rectangle",
    "Empty rectangles, HoDoKu's order: digit, box, cross (last row/column of the box first).",
)


# W-Wing.

find_w_wings = finder(
    "w-wing",
    "Pairs of cells with the same two candidates, bridged by a strong link (HoDoKu order).",
)


# Finned and sashimi fish.

_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
_FISH_RATINGS = {2: 3.2, 3: 3.8, 4: 5.2}


def _finned_fish(state: Candidates, size: int, sashimi: bool) -> Iterator[Step]:
    """Finned (or sashimi) fish of ``size``, HoDoKu's order (see :func:`_fish_of_size`)."""
    for step, is_sashimi in _fish_of_size(state.shape, tuple(state.where), size):
        if is_sashimi == sashimi:
            yield step


@lru_cache(maxsize=16)
def _fish_of_size(
    shape: Shape, where_by_digit: tuple[int, ...], size: int
) -> tuple[tuple[Step, bool], ...]:
    """All finned and sashimi fish of ``size`` (with their kind), in HoDoKu's order.

    Digits in order; rows as base lines first, then columns; base line combinations in order;
    for each, cover line combinations in order. The fins must share one box: otherwise no
    cover cell outside the base lines can see them all. So a cover is the base lines' cross
    lines minus one to ``width`` cross lines of one box (a stack of columns, or a band of
    rows), the fins are the base candidates on those, and the eliminations are the cover
    candidates in the fins' box outside the base lines.

    Lines are handled as position masks: bit ``k`` of ``pos[i]`` is set when line ``i`` has
    the digit at cross position ``k``. Cached on the candidates, so the finned and the
    sashimi search share one enumeration.
    """
    n, unit_mask = shape.n, geometry(shape).unit_mask
    full = (1 << n) - 1
    out = []
    for d in range(1, n + 1):
        where = where_by_digit[d]
        row_pos = [(where >> (r * n)) & full for r in range(n)]
        for rows_first in (True, False):
            if rows_first:
                pos, base_off, cover_off = row_pos, 0, n
                width, height = shape.box_cols, shape.box_rows
            else:
                pos = [0] * n
                for r, m in enumerate(row_pos):
                    for c in bits(m):
                        pos[c] |= 1 << r
                base_off, cover_off = n, 0
                width, height = shape.box_rows, shape.box_cols
            for base, crossed in _base_lines(pos, size, width):
                extra = crossed.bit_count() - size
                if extra < 1:
                    continue
                found = []
                for g in range(0, n, width):
                    group = ((1 << width) - 1) << g
                    in_group = crossed & group
                    if in_group.bit_count() < extra:
                        continue
                    for dropped in combinations(bits(in_group), extra):
                        fin_pos = sum(1 << k for k in dropped)
                        fin_lines = [i for i in base if pos[i] & fin_pos]
                        band = fin_lines[0] // height
                        if any(i // height != band for i in fin_lines[1:]):
                            continue  # fins in two boxes
                        if sum((pos[i] & fin_pos).bit_count() for i in fin_lines) > MAX_FINS:
                            continue
                        cover = crossed & ~fin_pos
                        hits = [
                            (line, pos[line] & cover & group)
                            for line in range(band * height, (band + 1) * height)
                            if line not in base and pos[line] & cover & group
                        ]
                        if hits:
                            found.append((tuple(bits(cover)), fin_pos, hits))
                found.sort()
                for cover_lines, fin_pos, hits in found:
                    base_cells = 0
                    for i in base:
                        base_cells |= unit_mask[base_off + i]
                    base_cells &= where
                    removed = 0
                    for line, at in hits:
                        for k in bits(at):
                            removed |= unit_mask[base_off + line] & unit_mask[cover_off + k]
                    fins = 0
                    for k in bits(fin_pos):
                        fins |= base_cells & unit_mask[cover_off + k]
                    is_sashimi = any((pos[i] & ~fin_pos).bit_count() <= 1 for i in base)
                    kind = "sashimi-" if is_sashimi else "finned-"
                    rating = _FISH_RATINGS[size] + (0.3 if is_sashimi else 0.2)
                    step = Step(
                        shape,
                        kind + _FISH_NAMES[size],
                        round(rating, 1),
                        eliminations=_elims(removed, d),
                        cells=tuple(bits(base_cells)),
                        units=(
                            *(base_off + i for i in base),
                            *(cover_off + k for k in cover_lines),
                        ),
                        digits=(d,),
                        complexity=size,
                        info=(("fins", tuple(bits(fins))),),
                    )
                    out.append((step, is_sashimi))
    return tuple(out)


def _base_lines(pos: list[int], size: int, width: int) -> list[tuple[tuple[int, ...], int]]:
    """Combinations of ``size`` lines (in order) that could be a finned fish's base, with the
    cross positions they span: all but ``size`` of those positions must lie in one group of
    ``width`` (the columns of one stack, or the rows of one band)."""
    n = len(pos)
    everything = (1 << n) - 1
    outside = [everything & ~(((1 << width) - 1) << g) for g in range(0, n, width)]
    lines = [i for i in range(n) if 0 < pos[i].bit_count() <= size + width]
    out: list[tuple[tuple[int, ...], int]] = []

    def extend(start: int, chosen: tuple[int, ...], crossed: int) -> None:
        if len(chosen) == size:
            out.append((chosen, crossed))
            return
        for idx in range(start, len(lines) - (size - len(chosen)) + 1):
            spanned = crossed | pos[lines[idx]]
            if any((spanned & rest).bit_count() <= size for rest in outside):
                extend(idx + 1, (*chosen, lines[idx]), spanned)

    extend(0, (), 0)
    return out


def find_finned_x_wings(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 2, False)


def find_sashimi_x_wings(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 2, True)


def find_finned_swordfish(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 3, False)


def find_sashimi_swordfish(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 3, True)


def find_finned_jellyfish(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 4, False)


def find_sashimi_jellyfish(state: Candidates) -> Iterator[Step]:
    return _finned_fish(state, 4, True)


# WXYZ-Wing.


def find_wxyz_wings(state: Candidates) -> Iterator[Step]:
    """WXYZ-Wings as bent quads: lines (rows, then columns) crossed with each box they meet."""
    n, geo, lay, cand = state.n, state.geo, layout(state.shape), state.cand
    unit_mask = geo.unit_mask
    seen: set[int] = set()  # a quad can lie in several line/box pairs
    for line in range(2 * n):
        line_cells = unit_mask[line]
        boxes = sorted({lay.box[c] for c in geo.units[line]})
        for b in boxes:
            box_cells = unit_mask[2 * n + b]
            outside = (c for c in geo.units[2 * n + b] if not line_cells >> c & 1)
            region = [c for c in (*geo.units[line], *outside) if 2 <= cand[c].bit_count() <= 4]
            yield from _bent_quads(state, region, line_cells, box_cells, seen)


def _bent_quads(
    state: Candidates, region: list[int], line_cells: int, box_cells: int, seen: set[int]
) -> Iterator[Step]:
    cand, peer = state.cand, state.geo.peer_mask
    size = len(region)
    for i in range(size - 3):
        mi = cand[region[i]]
        for j in range(i + 1, size - 2):
            mj = mi | cand[region[j]]
            if mj.bit_count() > 4:
                continue
            for k in range(j + 1, size - 1):
                mk = mj | cand[region[k]]
                if mk.bit_count() > 4:
                    continue
                for m in range(k + 1, size):
                    union = mk | cand[region[m]]
                    if union.bit_count() != 4:
                        continue
                    quad = (region[i], region[j], region[k], region[m])
                    cells = sum(1 << c for c in quad)
                    if not cells & line_cells & ~box_cells or not cells & box_cells & ~line_cells:
                        continue
                    if cells in seen:
                        continue
                    z = 0
                    for d0 in bits(union):
                        holders = cells & state.where[d0 + 1]
                        if holders & ~line_cells and holders & ~box_cells:
                            if z:
                                break
                            z = d0 + 1
                    else:
                        if not z:
                            continue
                        removed = state.where[z]
                        for c in bits(cells & state.where[z]):
                            removed &= peer[c]
                        if removed:
                            seen.add(cells)
                            yield Step(
                                state.shape,
                                "wxyz-wing",
                                5.5,
                                eliminations=_elims(removed, z),
                                cells=tuple(sorted(quad)),
                                digits=tuple(d0 + 1 for d0 in bits(union)),
                                complexity=4,
                                info=(("z", z), ("holders", tuple(bits(cells & state.where[z])))),
                            )


# Explanations.


def chain_text(step: Step) -> str:
    """A single-digit chain in Eureka-like notation: ``r1c1=r1c5-r3c6=r8c6``."""
    parts = [step.name(step.links[0].cell)] if step.links else []
    for link in step.links:
        parts.append(("=" if link.strong else "-") + step.name(link.cell2))
    return "".join(parts)


def _both_ends(step: Step) -> str:
    d = step.digits[0]
    first, last = step.links[0].cell, step.links[-1].cell2
    return f"{step.name(first)} or {step.name(last)} is {d}; {effects(step)}"


def _skyscraper(step: Step) -> str:
    u1, u2 = step.units
    shape = step.shape
    across = 1 if u1 < shape.n else 0  # rows meet in a column, columns in a row
    base = shape.unit_name(shape.units_of[step.cells[1]][across])
    lines = f"{shape.unit_name(u1)} and {shape.unit_name(u2)}"
    return f"Skyscraper on {step.digits[0]}: {lines} meet in {base}, so {_both_ends(step)}"


def _kite(step: Step) -> str:
    row, col, box = (step.shape.unit_name(u) for u in step.units)
    return (
        f"2-String Kite on {step.digits[0]}: {row} and {col} meet in {box}, so {_both_ends(step)}"
    )


def _turbot(step: Step) -> str:
    return f"Turbot Fish on {step.digits[0]}: {chain_text(step)}, so {_both_ends(step)}"


def _empty_rectangle(step: Step) -> str:
    box, line, cross, _ = (step.shape.unit_name(u) for u in step.units)
    x, y = step.cells[:2]
    return (
        f"Empty Rectangle on {step.digits[0]} in {box} ({line} and {cross}) with "
        f"{step.name(x)}={step.name(y)}: {effects(step)}"
    )


def _w_wing(step: Step) -> str:
    i, j, p, q = step.cells
    x, y = step.digits
    return (
        f"W-Wing: {step.name(i)} and {step.name(j)} are both {min(x, y)}/{max(x, y)}, and "
        f"{step.name(p)}={step.name(q)} on {y} keeps {y} out of one of them, so one is {x}; "
        f"{effects(step)}"
    )


def _finned(step: Step) -> str:
    size = len(step.units) // 2
    base = ", ".join(str(u % step.shape.n + 1) for u in step.units[:size])
    cover = ", ".join(str(u % step.shape.n + 1) for u in step.units[size:])
    lines, crosses = ("rows", "columns") if step.units[0] < step.shape.n else ("columns", "rows")
    name = step.technique.replace("-", " ").title().replace("X Wing", "X-Wing")
    fins = step.detail("fins", ())
    fin_word = "fin" if isinstance(fins, tuple) and len(fins) == 1 else "fins"
    return (
        f"{name} on {step.digits[0]} in {lines} {base} ({crosses} {cover}), "
        f"{fin_word} {cell_list(step.shape, fins)}: {effects(step)}"
    )


def _wxyz(step: Step) -> str:
    z, holders = step.detail("z"), step.detail("holders", ())
    return (
        f"WXYZ-Wing: {cell_list(step.shape, step.cells)} hold only {digit_list(step.digits)} "
        f"and every digit but {z} fits there at most once, so {z} is in one of "
        f"{cell_list(step.shape, holders)}; {effects(step)}"
    )


register_explainer("skyscraper", _skyscraper)
register_explainer("two-string-kite", _kite)
register_explainer("turbot-fish", _turbot)
register_explainer("empty-rectangle", _empty_rectangle)
register_explainer("w-wing", _w_wing)
for _size in (2, 3, 4):
    for _kind in ("finned-", "sashimi-"):
        register_explainer(_kind + _FISH_NAMES[_size], _finned)
register_explainer("wxyz-wing", _wxyz)

find_locked_subsets = finder(
    "locked-subsets",
    "Locked pair and locked triple (HoDoKu): a naked pair or triple whose cells all lie where a\n"
    "box meets a row or column. Boxes in order, rows then columns, pairs before triples.",
)


def _locked_subset(step: Step) -> str:
    kind = "pair" if len(step.cells) == 2 else "triple"
    where = " and ".join(step.shape.unit_name(u) for u in step.units)
    digits = "/".join(map(str, step.digits))
    cells = ", ".join(step.name(c) for c in step.cells)
    return f"Locked {kind} {digits} in {cells} ({where}): {effects(step)}"


register_explainer("locked-pair", _locked_subset)
register_explainer("locked-triple", _locked_subset)
