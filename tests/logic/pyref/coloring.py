"""The pure-Python reference for the C engine's colouring and simple chains
(src/sudokit/_clogic/coloring.c).

The terms and the rules: :mod:`sudokit.logic.coloring`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Link, Step

from .patterns import hodoku_sum, length_bonus, strong_partners

__all__ = ["find_remote_pairs", "find_simple_colors", "find_x_chains", "find_xy_chains"]

#: HoDoKu's default maximum chain length, in links.
MAX_LINKS = 20

CHAIN_RATING = 6.6


def _rating(length: int) -> float:
    return round(CHAIN_RATING + length_bonus(length), 1)


# Simple colouring.


def _clusters(state: Candidates, digit: int) -> list[tuple[int, int]]:
    """The two-coloured clusters of strong links on ``digit``: (first colour, second colour).

    HoDoKu's order: clusters by their lowest cell; the colour of that cell comes first.
    """
    strong = strong_partners(state, digit)
    left = sum(1 << c for c in strong)
    out = []
    while left:
        start = (left & -left).bit_length() - 1
        colours = [0, 0]
        todo = [(start, 0)]
        left &= ~(1 << start)
        while todo:
            cell, colour = todo.pop()
            colours[colour] |= 1 << cell
            for other in bits(strong[cell] & left):
                left &= ~(1 << other)
                todo.append((other, 1 - colour))
        out.append((colours[0], colours[1]))
    return out


def _sees_itself(state: Candidates, cells: int) -> bool:
    peer = state.geo.peer_mask
    return any(peer[c] & cells for c in bits(cells))


def find_simple_colors(state: Candidates) -> Iterator[Step]:
    """Color wraps and color traps, digit by digit, cluster by cluster (HoDoKu's order)."""
    peer = state.geo.peer_mask
    for d in range(1, state.n + 1):
        where = state.where[d]
        for first, second in _clusters(state, d):
            coloured = first | second
            rating = _rating(coloured.bit_count())
            info = (("colors", (tuple(bits(first)), tuple(bits(second)))),)
            wrapped = 0
            for colour in (first, second):
                if _sees_itself(state, colour):
                    wrapped |= colour
            if wrapped:
                yield Step(
                    state.shape,
                    "color-wrap",
                    rating,
                    eliminations=tuple((c, d) for c in bits(wrapped)),
                    cells=tuple(bits(coloured)),
                    digits=(d,),
                    complexity=coloured.bit_count(),
                    info=info,
                )
            seen_first = seen_second = 0
            for c in bits(first):
                seen_first |= peer[c]
            for c in bits(second):
                seen_second |= peer[c]
            trapped = where & seen_first & seen_second & ~coloured
            if trapped:
                yield Step(
                    state.shape,
                    "color-trap",
                    rating,
                    eliminations=tuple((c, d) for c in bits(trapped)),
                    cells=tuple(bits(coloured)),
                    digits=(d,),
                    complexity=coloured.bit_count(),
                    info=info,
                )


# Chains: shared sorting.


def _best_first(found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]]) -> Iterator[Step]:
    """HoDoKu's order for collected chains: most eliminations, weighted index sum, length."""
    ranked = sorted(
        (-len(step.eliminations), hodoku_sum(list(step.eliminations)), length, order, step)
        for length, order, step in found.values()
    )
    for *_, step in ranked:
        yield step


def _keep(
    found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]],
    step: Step,
    length: int,
) -> None:
    """Record ``step`` unless a chain as short or shorter removes the same candidates."""
    key = frozenset(step.eliminations)
    old = found.get(key)
    if old is None or length < old[0]:
        found[key] = (length, len(found) if old is None else old[1], step)


# X-Chain.


def find_x_chains(state: Candidates) -> Iterator[Step]:
    """X-Chains of 3 to 20 links, the most eliminations first."""
    found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]] = {}
    peer = state.geo.peer_mask
    for d in range(1, state.n + 1):
        where = state.where[d]
        strong = strong_partners(state, d)
        for start in sorted(strong):
            # Breadth first from "start is not d": layer k holds the cells reached after k
            # links; odd layers are "is d" (after a strong link), even layers "is not d".
            layers = [1 << start]
            seen = [1 << start, 1 << start]  # by parity: reached as "not d", as "d"
            while len(layers) <= MAX_LINKS and layers[-1]:
                k = len(layers)
                reach = 0
                for c in bits(layers[-1]):
                    reach |= strong.get(c, 0) if k % 2 else peer[c] & where
                reach &= ~seen[k % 2]
                seen[k % 2] |= reach
                layers.append(reach)
                if k % 2 and k >= 3:
                    for end in bits(reach):
                        removed = where & peer[start] & peer[end]
                        if removed:
                            path = _trace(layers, end, strong, peer)
                            if len(set(path)) == len(path):
                                _keep(found, _x_chain_step(state, d, path, removed), k)
    yield from _best_first(found)


def _trace(layers: list[int], end: int, strong: dict[int, int], peer: tuple[int, ...]) -> list[int]:
    """Walk back from ``end`` (in the last layer) to the start, one layer at a time."""
    path = [end]
    for k in range(len(layers) - 1, 0, -1):
        cell = path[-1]
        back = layers[k - 1] & (strong.get(cell, 0) if k % 2 else peer[cell])
        path.append((back & -back).bit_length() - 1)
    path.reverse()
    return path


def _x_chain_step(state: Candidates, d: int, path: list[int], removed: int) -> Step:
    return Step(
        state.shape,
        "x-chain",
        _rating(len(path)),
        eliminations=tuple((c, d) for c in bits(removed)),
        cells=tuple(path),
        digits=(d,),
        links=tuple(Link(a, d, b, d, i % 2 == 0) for i, (a, b) in enumerate(_pairs(path))),
        complexity=len(path),
    )


def _pairs(path: list[int]) -> list[tuple[int, int]]:
    return [(path[i], path[i + 1]) for i in range(len(path) - 1)]


# XY-Chain and Remote Pair.


def find_xy_chains(state: Candidates) -> Iterator[Step]:
    """XY-Chains of 2 to 10 bivalue cells, the most eliminations first."""
    found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]] = {}
    cand, where, peer = state.cand, state.where, state.geo.peer_mask
    bivalue = 0
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            bivalue |= 1 << c
    for start in bits(bivalue):
        for x0 in bits(cand[start]):
            x = x0 + 1
            # States (cell, digit it holds if start is not x), breadth first.
            first = (start, (cand[start] & ~(1 << x0)).bit_length())
            parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
            frontier = [first]
            cells = 1
            while frontier and 2 * cells + 1 <= MAX_LINKS:
                cells += 1
                nxt = []
                for cell, v in frontier:
                    for other in bits(bivalue & where[v] & peer[cell] & ~(1 << start)):
                        state_ = (other, (cand[other] & ~(1 << (v - 1))).bit_length())
                        if state_ in parent:
                            continue
                        parent[state_] = (cell, v)
                        nxt.append(state_)
                        if state_[1] == x:
                            removed = where[x] & peer[start] & peer[other]
                            if removed:
                                path = _walk(parent, state_)
                                if len({c for c, _ in path}) == len(path):
                                    step = _xy_step(state, "xy-chain", x, path, removed, x)
                                    _keep(found, step, 2 * len(path))
                frontier = nxt
    yield from _best_first(found)


def _walk(
    parent: dict[tuple[int, int], tuple[int, int] | None], last: tuple[int, int]
) -> list[tuple[int, int]]:
    path = [last]
    while (prev := parent[path[-1]]) is not None:
        path.append(prev)
    path.reverse()
    return path


def _xy_step(
    state: Candidates,
    technique: str,
    x: int,
    path: list[tuple[int, int]],
    removed: int | list[tuple[int, int]],
    first_digit: int,
) -> Step:
    """A step for a bivalue chain; ``path`` holds (cell, digit it takes if the start is off)."""
    links = []
    off = first_digit
    for i, (cell, on) in enumerate(path):
        links.append(Link(cell, off, cell, on, True))
        if i + 1 < len(path):
            links.append(Link(cell, on, path[i + 1][0], on, False))
        off = on
    if isinstance(removed, int):
        elims = tuple((c, x) for c in bits(removed))
        digits: tuple[int, ...] = (x,)
    else:
        elims = tuple(removed)
        digits = tuple(sorted({d for _, d in path}))
    return Step(
        state.shape,
        technique,
        _rating(2 * len(path)),
        eliminations=elims,
        cells=tuple(c for c, _ in path),
        digits=digits,
        links=tuple(links),
        complexity=2 * len(path),
    )


def find_remote_pairs(state: Candidates) -> Iterator[Step]:
    """Remote Pairs of 4 to 10 cells, the most eliminations first.

    Every path of cells with the same two digits is tried (HoDoKu does the same; the cells
    of one pair of digits form a graph of degree at most three in a valid grid). The chain
    ends where its last cell holds the start's first digit, i.e. at an even number of cells.
    """
    found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]] = {}
    cand = state.cand
    by_pair: dict[int, int] = {}
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            by_pair[m] = by_pair.get(m, 0) | (1 << c)
    budget = [100_000]  # caps the search on broken states with dense pair graphs
    for pair, cells in by_pair.items():
        if cells.bit_count() < 4:
            continue
        low = pair & -pair
        x, y = low.bit_length(), (pair ^ low).bit_length()
        for start in bits(cells):
            for first in (x, y):
                other = y if first == x else x
                _extend_pairs(state, [start], cells, first, other, found, budget)
    yield from _best_first(found)


def _extend_pairs(
    state: Candidates,
    path: list[int],
    cells: int,
    x: int,
    y: int,
    found: dict[frozenset[tuple[int, int]], tuple[int, int, Step]],
    budget: list[int],
) -> None:
    budget[0] -= 1
    if budget[0] < 0 or 2 * len(path) + 1 > MAX_LINKS:
        return
    peer = state.geo.peer_mask
    used = sum(1 << c for c in path)
    for nxt in bits(cells & peer[path[-1]] & ~used):
        path.append(nxt)
        if len(path) >= 4 and len(path) % 2 == 0:
            removed = _remote_eliminations(state, path, x, y)
            if removed:
                chain = [(c, y if i % 2 == 0 else x) for i, c in enumerate(path)]
                step = _xy_step(state, "remote-pair", x, chain, removed, x)
                _keep(found, step, 2 * len(path))
        _extend_pairs(state, path, cells, x, y, found, budget)
        path.pop()


def _remote_eliminations(
    state: Candidates, path: list[int], x: int, y: int
) -> list[tuple[int, int]]:
    """Both digits from cells seeing two chain cells 3, 5, 7, ... apart (HoDoKu: ends only
    for four cells); ``x`` first, then ``y``, each by cell."""
    peer, where = state.geo.peer_mask, state.where
    hit = 0
    pairs = (
        [(0, 3)]
        if len(path) == 4
        else [(i, j) for i in range(len(path)) for j in range(i + 3, len(path), 2)]
    )
    for i, j in pairs:
        hit |= peer[path[i]] & peer[path[j]]
    return [(c, x) for c in bits(hit & where[x])] + [(c, y) for c in bits(hit & where[y])]
