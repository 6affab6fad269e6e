"""The pure-Python reference for the C engine's fish (src/sudokit/_clogic/fish.c).

The terms and the rules: :mod:`sudokit.logic.fish`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.logic._state import Candidates, bits
from sudokit.logic._step import Step

from .subsets import colex_combinations

__all__ = ["find_jellyfish", "find_swordfish", "find_x_wings"]

_NAME = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
_RATING = {2: 3.2, 3: 3.8, 4: 5.2}


def _fish(state: Candidates, k: int) -> Iterator[Step]:
    n, where, geo = state.n, state.where, state.geo
    full = (1 << n) - 1
    placed = [0] * (n + 1)
    for v in state.values:
        placed[v] += 1
    for base_first, cover_first in ((n, 0), (0, n)):  # column bases, then row bases
        found: list[tuple[int, int, Step]] = []
        for d in range(1, n + 1):
            if placed[d] + 2 * k > n:
                continue
            # For each base line, the cover lines holding the digit's places, as a bitset.
            w = where[d]
            if base_first == 0:
                covers = [(w >> (i * n)) & full for i in range(n)]
            else:
                covers = [0] * n
                for i in range(n):
                    on_line = w & geo.unit_mask[n + i]
                    if 2 <= on_line.bit_count() <= k:
                        covers[i] = sum(1 << (c // n) for c in bits(on_line))
            pool = [i for i in range(n) if 2 <= covers[i].bit_count() <= k]
            for combo in colex_combinations(len(pool), k):
                union = 0
                for j in combo:
                    union |= covers[pool[j]]
                if union.bit_count() != k:
                    continue
                lines = [pool[j] for j in combo]
                base_cells = cover_cells = 0
                for i in lines:
                    base_cells |= geo.unit_mask[base_first + i]
                for i in bits(union):
                    cover_cells |= geo.unit_mask[cover_first + i]
                removed = where[d] & cover_cells & ~base_cells
                if not removed:
                    continue
                step = Step(
                    state.shape,
                    _NAME[k],
                    _RATING[k],
                    eliminations=tuple((c, d) for c in bits(removed)),
                    cells=tuple(bits(where[d] & cover_cells & base_cells)),
                    units=(
                        *(base_first + i for i in lines),
                        *(cover_first + i for i in bits(union)),
                    ),
                    digits=(d,),
                )
                found.append((sum(1 << i for i in lines), d, step))
        found.sort(key=lambda t: (t[0], t[1]))
        for _, _, step in found:
            yield step


def find_x_wings(state: Candidates) -> Iterator[Step]:
    """X-Wings (3.2): Sudoku Explainer's ``Fisherman(2)``."""
    return _fish(state, 2)


def find_swordfish(state: Candidates) -> Iterator[Step]:
    """Swordfish (3.8): Sudoku Explainer's ``Fisherman(3)``."""
    return _fish(state, 3)


def find_jellyfish(state: Candidates) -> Iterator[Step]:
    """Jellyfish (5.2): Sudoku Explainer's ``Fisherman(4)``."""
    return _fish(state, 4)
