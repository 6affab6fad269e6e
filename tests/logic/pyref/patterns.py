"""The pure-Python reference for the C engine's patterns (src/sudokit/_clogic/patterns.c).

The terms and the rules: :mod:`sudokit.logic.patterns`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from sudokit._shape import Shape
from sudokit.logic._state import Candidates, bits, geometry
from sudokit.logic._step import Link, Step

__all__ = [
    "find_empty_rectangles",
    "find_locked_subsets",
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


def find_skyscrapers(state: Candidates) -> Iterator[Step]:
    """Two strong links in rows (then in columns) whose ends meet in one column (row).

    HoDoKu's order: rows for every digit, then columns for every digit; within a digit, pairs
    of lines in order. HoDoKu only pairs first ends with first ends and second with second;
    the crossed pairings are tried here too (after those), so a few skyscrapers HoDoKu leaves
    to its turbot fish search are named skyscrapers here.
    """
    n, peer, lay = state.n, state.geo.peer_mask, layout(state.shape)
    for lines, cross in ((range(n), lay.col), (range(n, 2 * n), lay.row)):
        for d in range(1, n + 1):
            pairs = _pairs(state, d, lines)
            for i, (u1, a1, b1) in enumerate(pairs):
                for u2, a2, b2 in pairs[i + 1 :]:
                    ends = (
                        (a1, b1, a2, b2),
                        (b1, a1, b2, a2),
                        (a1, b1, b2, a2),
                        (b1, a1, a2, b2),
                    )
                    match = next((e for e in ends if cross[e[0]] == cross[e[2]]), None)
                    if match is None:
                        continue
                    base1, free1, base2, free2 = match
                    if cross[free1] == cross[free2]:
                        continue  # an X-Wing
                    removed = state.where[d] & peer[free1] & peer[free2]
                    if removed:
                        cells = (free1, base1, base2, free2)
                        yield Step(
                            state.shape,
                            "skyscraper",
                            4.0,
                            eliminations=_elims(removed, d),
                            cells=cells,
                            units=(u1, u2),
                            digits=(d,),
                            links=_x_links(cells, d),
                            complexity=4,
                        )


def find_two_string_kites(state: Candidates) -> Iterator[Step]:
    """A strong link in a row and one in a column, with one end of each in a shared box.

    HoDoKu's order (digit, row link, column link). HoDoKu removes only the candidate where the
    free ends' row and column cross; here every cell seeing both free ends loses it, which is
    the same cell except in rare layouts.
    """
    n, peer, lay = state.n, state.geo.peer_mask, layout(state.shape)
    box = lay.box
    for d in range(1, n + 1):
        rows, cols = _pairs(state, d, range(n)), _pairs(state, d, range(n, 2 * n))
        for ur, r1, r2 in rows:
            for uc, c1, c2 in cols:
                ends = (
                    (r1, r2, c1, c2),
                    (r1, r2, c2, c1),
                    (r2, r1, c1, c2),
                    (r2, r1, c2, c1),
                )
                match = next((e for e in ends if box[e[0]] == box[e[2]]), None)
                if match is None:
                    continue
                rb, rf, cb, cf = match
                if len({r1, r2, c1, c2}) < 4:
                    continue
                removed = state.where[d] & peer[rf] & peer[cf]
                if removed:
                    cells = (rf, rb, cb, cf)
                    yield Step(
                        state.shape,
                        "two-string-kite",
                        4.1,
                        eliminations=_elims(removed, d),
                        cells=cells,
                        units=(ur, uc, 2 * n + box[rb]),
                        digits=(d,),
                        links=_x_links(cells, d),
                        complexity=4,
                    )


def find_turbot_fish(state: Candidates) -> Iterator[Step]:
    """Every chain ``A=B-C=D`` on one digit that removes something, HoDoKu's best first.

    HoDoKu collects all of them and sorts: most eliminations first, then by its weighted
    index sum; among chains with the same eliminations, the first found (start cell, then
    the next cells, in cell order).
    """
    n, peer = state.n, state.geo.peer_mask
    found: list[tuple[int, int, int, Step]] = []
    for d in range(1, n + 1):
        where = state.where[d]
        strong = strong_partners(state, d)
        for a in sorted(strong):
            for b in bits(strong[a]):
                for c in bits(where & peer[b] & ~(1 << a)):
                    if c not in strong:
                        continue
                    for e in bits(strong[c] & ~((1 << a) | (1 << b))):
                        removed = where & peer[a] & peer[e]
                        if not removed:
                            continue
                        elims = _elims(removed, d)
                        cells = (a, b, c, e)
                        step = Step(
                            state.shape,
                            "turbot-fish",
                            4.2,
                            eliminations=elims,
                            cells=cells,
                            digits=(d,),
                            links=_x_links(cells, d),
                            complexity=4,
                        )
                        found.append((-len(elims), hodoku_sum(list(elims)), len(found), step))
    found.sort(key=lambda t: t[:3])
    for *_, step in found:
        yield step


# Empty rectangle.


def find_empty_rectangles(state: Candidates) -> Iterator[Step]:
    """Empty rectangles, HoDoKu's order: digit, box, cross (last row/column of the box first)."""
    n, geo, lay = state.n, state.geo, layout(state.shape)
    unit_mask = geo.unit_mask
    for d in range(1, n + 1):
        where = state.where[d]
        for b in range(n):
            inbox = where & unit_mask[2 * n + b]
            count = inbox.bit_count()
            if count < 2 or count > len(lay.band[b]) + len(lay.stack[b]) - 1:
                continue
            for r in reversed(lay.band[b]):
                row = unit_mask[r]
                for c in reversed(lay.stack[b]):
                    col = unit_mask[n + c]
                    if inbox & ~(row | col):
                        continue
                    on_row, on_col = inbox & row, inbox & col
                    if not on_row & ~col or not on_col & ~row:
                        continue
                    if on_row.bit_count() < 2 and on_col.bit_count() < 2:
                        continue  # two lone candidates: a 2-string kite, not an ER
                    yield from _er_eliminations(state, d, b, r, n + c, inbox)
                    yield from _er_eliminations(state, d, b, n + c, r, inbox)


def _er_eliminations(
    state: Candidates, d: int, b: int, line: int, cross: int, inbox: int
) -> Iterator[Step]:
    """Strong links from ``line`` (outside box ``b``) whose far end's line meets ``cross``."""
    n, geo = state.n, state.geo
    where, unit_mask, units_of = state.where[d], geo.unit_mask, geo.units_of
    box_mask = unit_mask[2 * n + b]
    # A cell's unit across ``line`` (its column when ``line`` is a row) and along it.
    across, along = (1, 0) if line < n else (0, 1)
    for x in bits(where & unit_mask[line] & ~box_mask):
        link = where & unit_mask[units_of[x][across]]
        if link.bit_count() != 2:
            continue
        y = (link & ~(1 << x)).bit_length() - 1
        target = unit_mask[units_of[y][along]] & unit_mask[cross] & where & ~box_mask
        if target:
            z = target.bit_length() - 1
            yield Step(
                state.shape,
                "empty-rectangle",
                4.2,
                eliminations=((z, d),),
                cells=(x, y, *bits(inbox)),
                units=(2 * n + b, line, cross, units_of[x][across]),
                digits=(d,),
                links=(Link(x, d, y, d, True),),
                complexity=4,
            )


# W-Wing.


def find_w_wings(state: Candidates) -> Iterator[Step]:
    """Pairs of cells with the same two candidates, bridged by a strong link (HoDoKu order)."""
    n, geo, cand = state.n, state.geo, state.cand
    peer, unit_mask = geo.peer_mask, geo.unit_mask
    bivalue = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    for k, i in enumerate(bivalue):
        xy = cand[i]
        low = xy & -xy
        d1, d2 = low.bit_length(), (xy ^ low).bit_length()
        for j in bivalue[k + 1 :]:
            if cand[j] != xy:
                continue
            ends = (1 << i) | (1 << j)
            for x, y in ((d1, d2), (d2, d1)):
                removed = state.where[x] & peer[i] & peer[j]
                if not removed:
                    continue
                for u in range(3 * n):
                    m = state.where[y] & unit_mask[u]
                    if m.bit_count() != 2 or m & ends:
                        continue
                    p, q = bits(m)
                    if not (peer[p] >> i & 1 and peer[q] >> j & 1):
                        p, q = q, p
                        if not (peer[p] >> i & 1 and peer[q] >> j & 1):
                            continue
                    yield Step(
                        state.shape,
                        "w-wing",
                        4.4,
                        eliminations=_elims(removed, x),
                        cells=(i, j, p, q),
                        units=(u,),
                        digits=(x, y),
                        links=(
                            Link(i, x, i, y, True),
                            Link(i, y, p, y, False),
                            Link(p, y, q, y, True),
                            Link(q, y, j, y, False),
                            Link(j, y, j, x, True),
                        ),
                        complexity=6,
                    )
                    break


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


def find_locked_subsets(state: Candidates) -> Iterator[Step]:
    """Locked pair and locked triple (HoDoKu): a naked pair or triple whose cells all lie where
    a box meets a row or column. Its digits go from the rest of the box and of the line at once
    (HoDoKu scores that one step 40 or 60, less than a naked set and the intersections it
    replaces). Boxes in order, rows then columns, pairs before triples."""
    geo, cand, n = state.geo, state.cand, state.n
    for size in (2, 3):
        for box in range(2 * n, 3 * n):
            bmask = geo.unit_mask[box]
            for line in range(2 * n):
                seg = bmask & geo.unit_mask[line] & state.empty
                cells = [c for c in bits(seg) if cand[c].bit_count() <= size]
                for combo in combinations(cells, size):
                    digits = 0
                    for c in combo:
                        digits |= cand[c]
                    if digits.bit_count() != size:
                        continue
                    rest = (bmask | geo.unit_mask[line]) & state.empty
                    for c in combo:
                        rest &= ~(1 << c)
                    elims = tuple((c, d0 + 1) for c in bits(rest) for d0 in bits(cand[c] & digits))
                    if elims:
                        yield Step(
                            state.shape,
                            "locked-pair" if size == 2 else "locked-triple",
                            3.0 if size == 2 else 3.6,
                            (),
                            elims,
                            combo,
                            (box, line),
                            tuple(d0 + 1 for d0 in bits(digits)),
                        )
