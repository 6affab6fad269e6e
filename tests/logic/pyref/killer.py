"""The pure-Python reference for the C engine's killer techniques (src/sudokit/_clogic/killer.c,
killer45.c, killer_sums.c).

The terms and the rules: :mod:`sudokit.logic.killer`. A sum's support is found here by a
plain search: for cells that are all peers, a memoized walk over (cell index, digits used);
for others, every filling of the candidates with the peer rule checked pair by pair.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

__all__ = [
    "find_cage_combinations_2",
    "find_cage_combinations_3",
    "find_cage_combinations_4",
    "find_cage_confinement",
    "find_cage_overlap",
    "find_cage_single",
    "find_rule_of_45",
    "find_rule_of_45_groups",
    "find_rule_of_45_groups_single",
    "find_rule_of_45_single",
]

LOOSE_MAX = 5  # cells that are not all peers: sums of at most this many are searched
MAX_COMBOS = 64  # combinations a step lists


@dataclass
class Sum:
    cells: list[int]
    total: int
    supp: list[int]
    clique: bool
    required: int
    combos: list[int]  # every digit set that makes it (cells all peers), ascending


def _solve(state: Candidates, cells: list[int], total: int) -> Sum | None:
    if not cells or state.n > 16 or any(not state.cand[c] for c in cells):
        return None
    peer = state.geo.peer_mask
    k = len(cells)
    clique = all(peer[a] >> b & 1 for i, a in enumerate(cells) for b in cells[i + 1 :])
    cand = [state.cand[c] for c in cells]
    if clique:

        @cache
        def ok(i: int, used: int) -> bool:
            if i == k:
                return sum(d + 1 for d in bits(used)) == total
            return any(ok(i + 1, used | 1 << d0) for d0 in bits(cand[i] & ~used))

        if not ok(0, 0):
            return None
        supp = [0] * k
        combos: set[int] = set()
        seen: set[tuple[int, int]] = set()

        def walk(i: int, used: int) -> None:
            if (i, used) in seen:
                return
            seen.add((i, used))
            if i == k:
                combos.add(used)
                return
            for d0 in bits(cand[i] & ~used):
                if ok(i + 1, used | 1 << d0):
                    supp[i] |= 1 << d0
                    walk(i + 1, used | 1 << d0)

        walk(0, 0)
        required = (1 << state.n) - 1
        for m in combos:
            required &= m
        return Sum(cells, total, supp, True, required, sorted(combos))
    if k > LOOSE_MAX:
        return None
    supp = [0] * k
    digits = [0] * k
    low = [0] * (k + 1)  # the least and the most cells i.. can add
    high = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        low[i] = low[i + 1] + (cand[i] & -cand[i]).bit_length()
        high[i] = high[i + 1] + cand[i].bit_length()

    def fill(i: int, made: int) -> None:
        if not made + low[i] <= total <= made + high[i]:
            return
        if i == k:
            if made == total:
                for j in range(k):
                    supp[j] |= 1 << (digits[j] - 1)
            return
        for d0 in bits(cand[i]):
            if any(digits[j] == d0 + 1 and peer[cells[i]] >> cells[j] & 1 for j in range(i)):
                continue
            digits[i] = d0 + 1
            fill(i + 1, made + d0 + 1)

    fill(0, 0)
    if not any(supp):
        return None
    return Sum(cells, total, supp, False, 0, [])


def _placing(state: Candidates, q: Sum, i: int) -> bool:
    c = state.cand[q.cells[i]]
    sp = q.supp[i] & c
    return bool(sp) and not sp & (sp - 1) and (c != sp or len(q.cells) == 1)


def _changes(state: Candidates, q: Sum) -> bool:
    return any(
        state.cand[c] != q.supp[i] & state.cand[c] or len(q.cells) == 1
        for i, c in enumerate(q.cells)
    )


def _effects(state: Candidates, q: Sum) -> tuple[tuple[tuple[int, int], ...], ...]:
    places = tuple(
        (c, (q.supp[i] & state.cand[c]).bit_length())
        for i, c in enumerate(q.cells)
        if _placing(state, q, i)
    )
    elims = tuple(
        (c, d0 + 1)
        for i, c in enumerate(q.cells)
        if not _placing(state, q, i)
        for d0 in bits(state.cand[c] & ~q.supp[i])
    )
    return places, elims


def _digits(q: Sum) -> tuple[int, ...]:
    union = 0
    for m in q.supp:
        union |= m
    return tuple(d0 + 1 for d0 in bits(union))


def _combo_info(q: Sum) -> tuple[tuple[str, object], ...]:
    return (("combination_count", len(q.combos)), ("combinations", tuple(q.combos[:MAX_COMBOS])))


def _cages(state: Candidates) -> list[tuple[tuple[int, ...], int]]:
    cages = state.rules.cages
    return [] if cages is None else [(c.cells, c.total) for c in cages]


def _cage_sum(state: Candidates, cells: tuple[int, ...], total: int) -> tuple[list[int], int]:
    empty = [c for c in cells if not state.values[c]]
    return empty, total - sum(state.values[c] for c in cells)


def _combinations(state: Candidates, lo: int, hi: int, rating: float) -> Iterator[Step]:
    for k, (cells, total) in enumerate(_cages(state)):
        empty, left = _cage_sum(state, cells, total)
        if not lo <= len(empty) <= hi:
            continue
        q = _solve(state, empty, left)
        if q is None or not _changes(state, q):
            continue
        places, elims = _effects(state, q)
        kind = "cage-single" if len(empty) == 1 else "cage-combination"
        info = (("cage", k), ("sum", left), *_combo_info(q))
        yield Step(
            state.shape,
            kind,
            rating,
            places,
            elims,
            tuple(empty),
            (),
            _digits(q),
            info=info,
            rules=state.rules,
        )


def find_cage_single(state: Candidates) -> Iterator[Step]:
    return _combinations(state, 1, 1, 1.0)


def find_cage_combinations_2(state: Candidates) -> Iterator[Step]:
    return _combinations(state, 2, 2, 1.6)


def find_cage_combinations_3(state: Candidates) -> Iterator[Step]:
    return _combinations(state, 3, 3, 2.0)


def find_cage_combinations_4(state: Candidates) -> Iterator[Step]:
    return _combinations(state, 4, state.n, 2.4)


def _classic_houses(state: Candidates) -> list[int]:
    return [state.geo.unit_mask[u] for u in range(3 * state.n)]


def find_cage_confinement(state: Candidates) -> Iterator[Step]:
    houses = _classic_houses(state)
    for k, (cells, total) in enumerate(_cages(state)):
        empty, left = _cage_sum(state, cells, total)
        if len(empty) < 2:
            continue
        q = _solve(state, empty, left)
        if q is None:
            continue
        cage = sum(1 << c for c in cells)
        for d0 in bits(q.required):
            d = d0 + 1
            holding = state.where[d] & cage
            seen = state.geo.all_cells
            for c in bits(holding):
                seen &= state.geo.peer_mask[c]
            hit = seen & state.where[d] & ~cage
            if not hit:
                continue
            units = tuple(u for u, m in enumerate(houses) if holding & ~m == 0)
            yield Step(
                state.shape,
                "cage-confinement",
                2.5,
                (),
                tuple((c, d) for c in bits(hit)),
                tuple(bits(holding)),
                units,
                (d,),
                info=(("cage", k),),
                rules=state.rules,
            )


def find_cage_overlap(state: Candidates) -> Iterator[Step]:
    cages = [(sum(1 << c for c in cells), k) for k, (cells, _) in enumerate(_cages(state))]
    for u, mask in enumerate(_classic_houses(state)):
        for d in range(1, state.n + 1):
            places = state.where[d] & mask
            for cage, k in cages:
                if places and places & ~cage == 0:
                    hit = state.where[d] & cage & ~mask
                    if hit:
                        yield Step(
                            state.shape,
                            "cage-overlap",
                            2.7,
                            (),
                            tuple((c, d) for c in bits(hit)),
                            tuple(bits(places)),
                            (u,),
                            (d,),
                            info=(("cage", k),),
                            rules=state.rules,
                        )


def _groups(state: Candidates) -> list[tuple[int, ...]]:
    """Each row, column and box; two and three adjacent rows, then columns; two boxes side by
    side or one above the other (not for a jigsaw); each of the rules' other houses."""
    n = state.n
    groups: list[tuple[int, ...]] = [(u,) for u in range(3 * n)]
    for size in (2, 3):
        groups += [tuple(range(r, r + size)) for r in range(n - size + 1)]
        groups += [tuple(range(n + c, n + c + size)) for c in range(n - size + 1)]
    if state.rules.regions is None:
        shape = state.shape
        per_band, per_stack = n // shape.box_cols, n // shape.box_rows
        for b in range(n):
            if b % per_band < per_band - 1:
                groups.append((2 * n + b, 2 * n + b + 1))
            if b // per_band < per_stack - 1:
                groups.append((2 * n + b, 2 * n + b + per_band))
    groups += [(h,) for h in range(3 * n, len(state.geo.units))]
    return groups


def _rule_of_45(state: Candidates, multi: bool, lo: int, hi: int, rating: float) -> Iterator[Step]:
    n = state.n
    cages = [(sum(1 << c for c in cells), total) for cells, total in _cages(state)]
    cage_of = {c: k for k, (cells, _) in enumerate(_cages(state)) for c in cells}
    for houses in _groups(state):
        if (len(houses) > 1) != multi:
            continue
        group = 0
        for u in houses:
            group |= state.geo.unit_mask[u]
        inside = sum(t for m, t in cages if m & ~group == 0)
        covered = 0
        for m, _ in cages:
            if m & ~group == 0:
                covered |= m
        crossing = [(m, t) for m, t in cages if m & group and m & ~group]
        full = len(houses) * n * (n + 1) // 2
        sums = [("innies", group & ~covered, full - inside, inside)] if covered else []
        loose = any(c not in cage_of and not state.values[c] for c in bits(group))
        if crossing and not loose:
            placed = sum(state.values[c] for c in bits(group) if c not in cage_of)
            across = sum(t for _, t in crossing)
            outies = 0
            for m, _ in crossing:
                outies |= m
            outies &= ~group
            sums.append(("outies", outies, inside + across + placed - full, inside + across))
        for kind, cells, total, from_cages in sums:
            if not cells:
                continue
            empty = [c for c in bits(cells) if not state.values[c]]
            left = total - sum(state.values[c] for c in bits(cells))
            if not lo <= len(empty) <= hi:
                continue
            q = _solve(state, empty, left)
            if q is None or not _changes(state, q):
                continue
            places, elims = _effects(state, q)
            info = (("sum", left), ("total", total), ("cages_total", from_cages), *_combo_info(q))
            yield Step(
                state.shape,
                kind,
                rating,
                places,
                elims,
                tuple(empty),
                houses,
                _digits(q),
                info=info,
                rules=state.rules,
            )


def find_rule_of_45_single(state: Candidates) -> Iterator[Step]:
    return _rule_of_45(state, False, 1, 1, 1.5)


def find_rule_of_45(state: Candidates) -> Iterator[Step]:
    return _rule_of_45(state, False, 2, state.n * state.n, 2.9)


def find_rule_of_45_groups_single(state: Candidates) -> Iterator[Step]:
    return _rule_of_45(state, True, 1, 1, 3.1)


def find_rule_of_45_groups(state: Candidates) -> Iterator[Step]:
    return _rule_of_45(state, True, 2, state.n * state.n, 3.5)
