"""Sudoku Explainer's chaining engine, in pure Python: the reference for the C engine's chains
(src/sudokit/_clogic/chains.c).

Terms (Sudoku Explainer's; see ``pyref/chains.py`` and ``sudokit/logic/chains.py`` for the
techniques built on them):

- A **candidate** is ``cand = cell * n + digit - 1``. A **potential** is a candidate with a
  truth value: "on" (the digit is in the cell) or "off" (it is not); ``key = cand * 2 + on``.
- A :class:`Pot` is a potential together with the potentials it was **deduced from** (its
  ``parents``) and the rule that deduced it (its ``cause``). Following parents from a
  conclusion back to the assumption gives the chain; a potential may have several parents
  (dynamic chains: "r1c1 is 5 because 3, 7 and 9 were removed from it").
- The **implication rules**: an "on" potential turns "off" the other candidates of its cell
  (Y-links; not used by X-only searches) and the same digit in the cell's units (X-links); an
  "off" potential turns "on" the other candidate of a cell left with two (Y) and the other
  place of a unit left with two places for the digit (X).
- **Dynamic** chaining applies every "off" it derives to a scratch grid, so later rules see
  the reduced grid; the extra parents ("hidden parents") record which removals were needed.
  At nesting 1 and above, when the basic rules are exhausted, simpler techniques (intersections,
  hidden and naked pairs, X-Wings; from nesting 2 forcing chains themselves) run on the scratch
  grid and their eliminations join the chain (the "advanced" rules).
- The **complexity** of a hint is the number of distinct potentials in its chains, plus the
  complexity of nested chains; the rating adds 0.1 each time ``complexity - 2`` passes a
  ceiling 4, 6, 8, 12, 16, 24, ... .

The search orders, tie-breaks and counting follow Sudoku Explainer 1.2.1 exactly (cells
row-major, digits ascending, units box, row, column), because the chosen hint and its rating
depend on them. The engine works on any shape.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from functools import lru_cache

from sudokit._shape import Shape
from sudokit.logic._state import extra_houses, visible_order
from sudokit.logic._state import geometry as logic_geometry
from sudokit.rules import CLASSIC, Rules
from sudokit.rules import geometry as rules_geometry

__all__ = [
    "ADVANCED",
    "CELL",
    "Deduction",
    "NONE",
    "Pot",
    "ancestor_count",
    "chain_of",
    "hints",
    "length_bonus",
]

# Causes. A cause >= 0 is the unit whose last-two-places rule (or, for an "off", whose
# one-digit-per-unit rule) gave the potential.
NONE = -1  # the assumption
CELL = -2  # the cell rule
ADVANCED = -3  # an elimination of a simpler technique run on the scratch grid


class Pot:
    """A potential with its parents and the cause that deduced it (equality is by ``key``)."""

    __slots__ = ("cause", "key", "nested", "parents")

    def __init__(
        self, key: int, parents: list[Pot], cause: int, nested: Deduction | None = None
    ) -> None:
        self.key = key
        self.parents = parents
        self.cause = cause
        self.nested = nested

    @property
    def on(self) -> bool:
        return bool(self.key & 1)

    @property
    def cand(self) -> int:
        return self.key >> 1

    def __repr__(self) -> str:
        return f"Pot({self.key >> 1}, {'on' if self.key & 1 else 'off'})"


def length_bonus(complexity: int) -> float:
    """Sudoku Explainer's length bonus, summed exactly as it does (the floats matter)."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


def chain_of(target: Pot) -> list[Pot]:
    """The potentials of the chain ending at ``target``, breadth-first, one per key."""
    result: list[Pot] = []
    done: set[int] = set()
    todo = [target]
    while todo:
        nxt: list[Pot] = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                result.append(p)
                nxt.extend(p.parents)
        todo = nxt
    return result


def ancestor_count(target: Pot) -> int:
    done: set[int] = set()
    todo = [target]
    while todo:
        nxt: list[Pot] = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                nxt.extend(p.parents)
        todo = nxt
    return len(done)


# Deduction kinds (Sudoku Explainer calls these hints).
CYCLE, FORCING, BINARY, CELL_REDUCTION, REGION_REDUCTION = range(5)


class Deduction:
    """One chaining deduction, as Sudoku Explainer's ChainingHint subclasses describe it.

    ``removable`` maps cell -> digit mask of the eliminations; ``result`` is the potential the
    hint concludes (a placement when it is "on"); ``targets`` are the chain ends
    (getChainsTargets); ``base`` is the rating before the length bonus.
    """

    __slots__ = (
        "_complexity",
        "_difficulty",
        "absurd",
        "base",
        "kind",
        "nishio",
        "region",
        "removable",
        "result",
        "sort_key",
        "source",
        "targets",
        "value",
        "x",
        "y",
    )

    def __init__(
        self,
        kind: int,
        base: float,
        sort_key: int,
        removable: dict[int, int],
        targets: list[Pot],
        result: Pot | None,
        *,
        source: int = -1,
        region: int = -1,
        value: int = 0,
        x: bool = True,
        y: bool = True,
        absurd: bool = False,
        nishio: bool = False,
    ) -> None:
        self.kind = kind
        self.base = base
        self.sort_key = sort_key
        self.removable = removable
        self.targets = targets
        self.result = result
        self.source = source  # the assumed candidate (forcing/binary) or cell (cell chains)
        self.region = region
        self.value = value
        self.x = x
        self.y = y
        self.absurd = absurd
        self.nishio = nishio
        self._complexity = -1
        self._difficulty: float | None = None

    def flat_complexity(self) -> int:
        if self.kind == CYCLE:
            return ancestor_count(self.targets[0])
        return sum(ancestor_count(t) for t in self.targets)

    def nested_complexity(self) -> int:
        total = 0
        seen: set[object] = set()
        for target in self.targets:
            for p in chain_of(target):
                if p.nested is not None:
                    sig = p.nested.signature()
                    if sig not in seen:
                        seen.add(sig)
                        total += p.nested.complexity
        return total

    def signature(self) -> object:
        """Sudoku Explainer's FullChain identity: the targets and the keys of their chains."""
        return tuple((t.key, tuple(p.key for p in chain_of(t))) for t in self.targets)

    @property
    def complexity(self) -> int:
        if self._complexity < 0:
            self._complexity = self.flat_complexity() + self.nested_complexity()
        return self._complexity

    @property
    def difficulty(self) -> float:
        if self._difficulty is not None:
            return self._difficulty
        return self.base + length_bonus(self.complexity)

    def removable_key(self) -> frozenset[tuple[int, int]]:
        return frozenset(self.removable.items())


class _Geo:
    """Per-shape tables for the engine."""

    def __init__(self, shape: Shape, rules: Rules = CLASSIC) -> None:
        n = shape.n
        self.n = n
        self.size = shape.size
        houses = shape.units if rules.is_classic else rules_geometry(shape, rules).houses
        self.unit_mask = [sum(1 << c for c in unit) for unit in houses]
        self.unit_cells = [tuple(unit) for unit in houses]
        # SE's unit order for a cell: box, row, column; under rules then its disjoint group,
        # window and diagonals (SukakuExplainer's order).
        extra = [] if rules.is_classic else [h for kind in extra_houses(shape, rules) for h in kind]
        units_of = (
            shape.units_of
            if rules.is_classic
            else [h[:3] for h in rules_geometry(shape, rules).houses_of]  # row, column, region
        )
        self.se_units: list[tuple[int, ...]] = [
            (u[2], u[0], u[1], *(h for h in extra if self.unit_mask[h] >> c & 1))
            for c, u in enumerate(units_of)
        ]
        # Peers of a cell in SE's order: box, then row outside the box, then column outside
        # (then each extra house outside those before it).
        self.peer_parts: list[tuple[tuple[int, int], ...]] = []
        # The peers no house gives (neighbour rules), in SukakuExplainer's order.
        self.neighbours: list[tuple[int, ...]] = []
        peers = logic_geometry(shape, rules).peer_mask
        order = visible_order(shape, rules) if not rules.is_classic else None
        for c in range(shape.size):
            listed = 1 << c
            parts = []
            for u in self.se_units[c]:
                parts.append((self.unit_mask[u] & ~listed, u))
                listed |= self.unit_mask[u]
            self.peer_parts.append(tuple(parts))
            rest = peers[c] & ~listed
            self.neighbours.append(
                () if order is None else tuple(q for q in order[c] if rest >> q & 1)
            )
        self.rows = list(range(n))
        self.cols = list(range(n, 2 * n))
        self.boxes = list(range(2 * n, 3 * n))
        # The cell's peers as a mask.
        self.house = list(peers)
        self.pairs = [
            (i, j) for j in range(n) for i in range(j)
        ]  # SE's Permutations(2, n) order: masks 0b11, 0b101, 0b110, ...
        # Locking pairs (unit1, unit2) that cross, in SE's order.
        self.locking: list[tuple[int, int]] = []
        for kind1, kind2 in (
            (self.boxes, self.cols),
            (self.boxes, self.rows),
            (self.cols, self.boxes),
            (self.rows, self.boxes),
        ):
            for u1 in kind1:
                for u2 in kind2:
                    if self.unit_mask[u1] & self.unit_mask[u2]:
                        self.locking.append((u1, u2))


@lru_cache(maxsize=16)
def _geo(shape: Shape, rules: Rules = CLASSIC) -> _Geo:
    return _Geo(shape, rules)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_ToSet = dict[int, Pot]  # cand -> potential (a LinkedSet of one sign)
_Cache = dict[int, tuple[_ToSet, _ToSet, tuple[Pot, Pot] | None]]


def _rule_difficulty(multiple: bool, dynamic: bool, nishio: bool, nesting: int) -> float:
    if nesting >= 2:
        return 9.5 + 0.5 * (nesting - 2)
    if nesting > 0:
        return 8.5 + 0.5 * nesting
    if nishio:
        return 7.5
    if dynamic:
        return 8.5
    if multiple:
        return 8.0
    raise ValueError("static forcing chains rate themselves")


class Engine:
    """One of Sudoku Explainer's Chaining producers, run on a candidate grid.

    ``values`` (0 for empty), ``cand`` (digit masks, 0 for filled cells) and ``where`` (cell
    bitsets per digit index 0..n-1) are the grid; dynamic chaining edits ``cand``/``where``
    and restores them.
    """

    def __init__(
        self,
        shape: Shape,
        multiple: bool,
        dynamic: bool,
        nishio: bool,
        nesting: int,
        rules: Rules = CLASSIC,
    ) -> None:
        self.geo = _geo(shape, rules)
        self.rules = rules
        self.shape = shape
        self.n = shape.n
        self.multiple = multiple
        self.dynamic = dynamic
        self.nishio = nishio
        self.nesting = nesting
        self.values: list[int] = []
        self.cand: list[int] = []
        self.where: list[int] = []
        self._others: list[Callable[[list[int], list[int], _ToSet], list[Pot]]] | None = None
        self._inner: list[Engine] = []

    # ------------------------------------------------------------------ basic rules

    def on_to_off(self, p: Pot, y_links: bool) -> list[Pot]:
        n = self.n
        cand = p.key >> 1
        c, d0 = divmod(cand, n)
        out: list[Pot] = []
        if y_links:
            m = self.cand[c] & ~(1 << d0)
            base = c * n
            while m:
                low = m & -m
                out.append(Pot((base + low.bit_length() - 1) * 2, [p], CELL))
                m ^= low
        w = self.where[d0]
        for mask, u in self.geo.peer_parts[c]:
            m = w & mask
            while m:
                low = m & -m
                out.append(Pot(((low.bit_length() - 1) * n + d0) * 2, [p], u))
                m ^= low
        for q in self.geo.neighbours[c]:  # neighbour rules: by the cell's cause
            if w >> q & 1:
                out.append(Pot((q * n + d0) * 2, [p], CELL))
        return out

    def off_to_on(
        self,
        p: Pot,
        source: tuple[list[int], list[int]] | None,
        offs: _ToSet,
        y_links: bool,
        x_links: bool,
    ) -> list[Pot]:
        n = self.n
        cand = p.key >> 1
        c, d0 = divmod(cand, n)
        out: list[Pot] = []
        if y_links:
            m = self.cand[c]
            if m.bit_count() == 2:
                first = (m & -m).bit_length() - 1
                other = first if first != d0 else (m & (m - 1)).bit_length() - 1
                q = Pot((c * n + other) * 2 + 1, [p], CELL)
                if source is not None:
                    gone = source[0][c] & ~m
                    while gone:
                        low = gone & -gone
                        q.parents.append(offs[c * n + low.bit_length() - 1])
                        gone ^= low
                out.append(q)
        if x_links:
            w = self.where[d0]
            seen = 0
            geo = self.geo
            for u in geo.se_units[c]:
                um = geo.unit_mask[u]
                pos = w & um
                if pos.bit_count() == 2:
                    first = (pos & -pos).bit_length() - 1
                    other = first if first != c else (pos & (pos - 1)).bit_length() - 1
                    if seen >> other & 1:
                        continue  # LinkedHashSet: the first unit giving it wins
                    seen |= 1 << other
                    q = Pot((other * n + d0) * 2 + 1, [p], u)
                    if source is not None:
                        gone = source[1][d0] & um & ~w
                        while gone:
                            low = gone & -gone
                            q.parents.append(offs[(low.bit_length() - 1) * n + d0])
                            gone ^= low
                    out.append(q)
        return out

    @staticmethod
    def is_parent(child: Pot, key: int) -> bool:
        p = child
        while p.parents:
            p = p.parents[0]
            if p.key == key:
                return True
        return False

    # ------------------------------------------------------------------ static chains

    def do_cycles(
        self,
        to_on: _ToSet,
        to_off: _ToSet,
        y_links: bool,
        x_links: bool,
        cycles: list[Pot],
        source: Pot,
    ) -> None:
        pending_on = list(to_on.values())
        pending_off = list(to_off.values())
        length = 0
        skey = source.key
        while pending_on or pending_off:
            length += 1
            for p in pending_on:
                for q in self.on_to_off(p, y_links):
                    if not self.is_parent(p, q.key):
                        pending_off.append(q)
                        to_off[q.key >> 1] = q
            pending_on = []
            length += 1
            for p in pending_off:
                for q in self.off_to_on(p, None, to_off, y_links, x_links):
                    if length >= 4 and q.key == skey:
                        cycles.append(q)
                    cand = q.key >> 1
                    if cand not in to_on:
                        pending_on.append(q)
                        to_on[cand] = q
            pending_off = []

    def do_forcing_chains(
        self,
        to_on: _ToSet,
        to_off: _ToSet,
        y_links: bool,
        chains: list[Pot],
        source: Pot,
    ) -> None:
        pending_on = list(to_on.values())
        pending_off = list(to_off.values())
        found: set[int] = set()
        skey = source.key
        while pending_on or pending_off:
            for p in pending_on:
                for q in self.on_to_off(p, y_links):
                    if q.key ^ 1 == skey and q.key not in found:
                        found.add(q.key)
                        chains.append(q)
                    if not self.is_parent(p, q.key):
                        cand = q.key >> 1
                        if cand not in to_off:
                            pending_off.append(q)
                            to_off[cand] = q
            pending_on = []
            for p in pending_off:
                for q in self.off_to_on(p, None, to_off, y_links, True):
                    if q.key ^ 1 == skey and q.key not in found:
                        found.add(q.key)
                        chains.append(q)
                    cand = q.key >> 1
                    if cand not in to_on:
                        pending_on.append(q)
                        to_on[cand] = q
            pending_off = []

    def loops(self, y_links: bool, x_links: bool, result: list[Deduction]) -> None:
        n = self.n
        for c in range(self.geo.size):
            m = self.cand[c]
            if self.values[c] or m.bit_count() <= 1:
                continue
            for d0 in _bits(m):
                self.unary(c * n + d0, y_links, x_links, result)

    def unary(self, cand: int, y_links: bool, x_links: bool, result: list[Deduction]) -> None:
        c = cand // self.n
        if self.cand[c].bit_count() > 2 and not x_links:
            return
        p_on = Pot(cand * 2 + 1, [], NONE)
        cycles: list[Pot] = []
        chains: list[Pot] = []
        self.do_cycles({cand: p_on}, {}, y_links, x_links, cycles, p_on)
        if x_links:
            self.do_forcing_chains({cand: p_on}, {}, y_links, chains, p_on)
            p_off = Pot(cand * 2, [], NONE)
            self.do_forcing_chains({}, {cand: p_off}, y_links, chains, p_off)
        for dst_on in cycles:
            hint = self.cycle_hint(dst_on, y_links, x_links)
            if hint.removable:
                result.append(hint)
        for target in chains:
            hint = self.forcing_hint(target, y_links, x_links)
            if hint.removable:
                result.append(hint)

    def cycle_hint(self, dst_on: Pot, y_links: bool, x_links: bool) -> Deduction:
        n = self.n
        cells = 0
        p = dst_on
        while p.parents:
            cells |= 1 << (p.key >> 1) // n
            p = p.parents[0]
        forw: set[int] = set()
        back: set[int] = set()
        p = dst_on
        while p.parents:
            c, d0 = divmod(p.key >> 1, n)
            m = self.where[d0] & self.geo.house[c] & ~cells
            (forw if p.key & 1 else back).update(q * n + d0 for q in _bits(m))
            p = p.parents[0]
        removable: dict[int, int] = {}
        for cand in sorted(forw & back):
            c, d0 = divmod(cand, n)
            removable[c] = removable.get(c, 0) | 1 << d0
        both = x_links and y_links
        return Deduction(
            CYCLE,
            7.0 if both else 6.5,
            4 if both else (3 if y_links else 2),
            removable,
            [dst_on, _reversed_cycle(dst_on)],
            None,
            source=dst_on.key >> 1,
            x=x_links,
            y=y_links,
        )

    def forcing_hint(self, target: Pot, y_links: bool, x_links: bool) -> Deduction:
        c, d0 = divmod(target.key >> 1, self.n)
        keep = self.cand[c] & ~(1 << d0)  # an "on" target keeps only its digit
        removable = {c: keep} if target.key & 1 else {c: 1 << d0}
        both = x_links and y_links
        return Deduction(
            FORCING,
            7.0 if both else 6.6,
            4 if both else (3 if y_links else 2),
            removable,
            [target],
            target,
            source=target.key >> 1,
            x=x_links,
            y=y_links,
        )

    # ------------------------------------------------------------------ dynamic chains

    def do_chaining(self, to_on: _ToSet, to_off: _ToSet) -> tuple[Pot, Pot] | None:
        """Complete ``to_on``/``to_off`` with every consequence; the contradiction if any."""
        cand_save = self.cand.copy()
        where_save = self.where.copy()
        source = (cand_save, where_save)
        y_links = not self.nishio
        dynamic = self.dynamic
        try:
            pending_on = deque(to_on.values())
            pending_off = deque(to_off.values())
            while pending_on or pending_off:
                if pending_on:
                    p = pending_on.popleft()
                    for q in self.on_to_off(p, y_links):
                        cand = q.key >> 1
                        hit = to_on.get(cand)
                        if hit is not None:
                            return hit, q
                        if cand not in to_off:
                            to_off[cand] = q
                            pending_off.append(q)
                else:
                    p = pending_off.popleft()
                    made = self.off_to_on(p, source, to_off, y_links, True)
                    if dynamic:
                        c, d0 = divmod(p.key >> 1, self.n)
                        self.cand[c] &= ~(1 << d0)
                        self.where[d0] &= ~(1 << c)
                    for q in made:
                        cand = q.key >> 1
                        hit = to_off.get(cand)
                        if hit is not None:
                            return q, hit
                        if cand not in to_on:
                            to_on[cand] = q
                            pending_on.append(q)
                if not pending_on and not pending_off and self.nesting > 0:
                    for q in self.advanced(source, to_off):
                        cand = q.key >> 1
                        if cand not in to_off:
                            to_off[cand] = q
                            pending_off.append(q)
            return None
        finally:
            self.cand[:] = cand_save
            self.where[:] = where_save

    def multiple_chains(self, result: list[Deduction]) -> None:
        n = self.n
        cache: _Cache = {}
        for c in range(self.geo.size):
            if self.values[c]:
                continue
            card = self.cand[c].bit_count()
            if card > 2 or (card > 1 and self.dynamic):
                self.cell_chains(c, card, result, cache)
        del n

    def cell_chains(
        self,
        c: int,
        card: int,
        result: list[Deduction],
        cache: _Cache,
    ) -> None:
        n = self.n
        value_to_on: dict[int, _ToSet] = {}
        value_to_off: dict[int, _ToSet] = {}
        cell_on: _ToSet | None = None
        cell_off: _ToSet = {}
        for d0 in _bits(self.cand[c]):
            cand = c * n + d0
            p_on = Pot(cand * 2 + 1, [], NONE)
            p_off = Pot(cand * 2, [], NONE)
            do_double = card >= 3 and not self.nishio and self.dynamic
            do_contradiction = self.dynamic or self.nishio
            on_on, on_off = self.binary_chaining(
                p_on, p_off, result, do_double, do_contradiction, cache
            )
            if not self.nishio:
                self.region_chainings(result, c, d0, on_on, on_off, cache)
            value_to_on[d0] = on_on
            value_to_off[d0] = on_off
            if cell_on is None:
                cell_on = dict(on_on)
                cell_off = dict(on_off)
            else:
                cell_on = {k: v for k, v in cell_on.items() if k in on_on}
                cell_off = {k: v for k, v in cell_off.items() if k in on_off}
        if self.nishio or cell_on is None:
            return
        if card == 2 or (self.multiple and card > 2):
            for outcomes, targets in ((value_to_on, cell_on), (value_to_off, cell_off)):
                for p in targets.values():
                    hint = self.reduction_hint(
                        CELL_REDUCTION, p, [outcomes[d0][p.key >> 1] for d0 in outcomes]
                    )
                    hint.source = c
                    if hint.removable:
                        result.append(hint)

    def closure_on(self, cand: int, cache: _Cache) -> tuple[_ToSet, _ToSet, tuple[Pot, Pot] | None]:
        """The consequences of assuming ``cand`` on (cached: they depend only on the grid)."""
        hit = cache.get(cand)
        if hit is not None:
            return hit
        p_on = Pot(cand * 2 + 1, [], NONE)
        to_on: _ToSet = {cand: p_on}
        to_off: _ToSet = {}
        absurd = self.do_chaining(to_on, to_off)
        cache[cand] = (to_on, to_off, absurd)
        return to_on, to_off, absurd

    def binary_chaining(
        self,
        p_on: Pot,
        p_off: Pot,
        result: list[Deduction],
        do_reduction: bool,
        do_contradiction: bool,
        cache: _Cache,
    ) -> tuple[_ToSet, _ToSet]:
        cand = p_on.key >> 1
        on_on, on_off, absurd = self.closure_on(cand, cache)
        if do_contradiction and absurd is not None:
            result.append(self.binary_hint(absurd[0], absurd[1], p_on, p_on, True, False))
        off_on: _ToSet = {}
        off_off: _ToSet = {cand: p_off}
        absurd = self.do_chaining(off_on, off_off)
        if do_contradiction and absurd is not None:
            hint = self.binary_hint(absurd[0], absurd[1], p_off, p_off, True, True)
            if hint.removable:
                result.append(hint)
        if do_reduction:
            for k, p in on_on.items():
                q = off_on.get(k)
                if q is not None:
                    hint = self.binary_hint(p, q, p_on, p, False, True)
                    if hint.removable:
                        result.append(hint)
            for k, p in on_off.items():
                q = off_off.get(k)
                if q is not None:
                    result.append(self.binary_hint(p, q, p_off, q, False, False))
        return on_on, on_off

    def _removable_of(self, target: Pot) -> dict[int, int]:
        c, d0 = divmod(target.key >> 1, self.n)
        if target.key & 1:
            m = self.cand[c] & ~(1 << d0)
            return {c: m} if m else {}
        return {c: 1 << d0}

    def binary_hint(
        self, dst_on: Pot, dst_off: Pot, source: Pot, target: Pot, absurd: bool, on: bool
    ) -> Deduction:
        """createChainingOnHint (``on``: keep only the target's digit in its cell) or
        createChainingOffHint (remove the target's digit), whatever the target's sign."""
        c, d0 = divmod(target.key >> 1, self.n)
        if on:
            m = self.cand[c] & ~(1 << d0)
            removable = {c: m} if m else {}
        else:
            removable = {c: 1 << d0}
        if absurd or self.nishio:
            result: Pot | None = Pot(source.key ^ 1, [], NONE)
        else:
            result = dst_on
        return Deduction(
            BINARY,
            _rule_difficulty(self.multiple, self.dynamic, self.nishio, self.nesting),
            7 if absurd else 1,
            removable,
            [dst_on, dst_off],
            result,
            source=source.key,  # the assumption, with its sign
            absurd=absurd,
            nishio=self.nishio,
        )

    def reduction_hint(self, kind: int, target: Pot, chains: list[Pot]) -> Deduction:
        return Deduction(
            kind,
            _rule_difficulty(self.multiple, self.dynamic, self.nishio, self.nesting),
            5 if kind == CELL_REDUCTION else 6,
            self._removable_of(target),
            chains,
            chains[0],
        )

    def region_chainings(
        self,
        result: list[Deduction],
        c: int,
        d0: int,
        on_on: _ToSet,
        on_off: _ToSet,
        cache: _Cache,
    ) -> None:
        n = self.n
        geo = self.geo
        w = self.where[d0]
        for u in geo.se_units[c]:
            positions = w & geo.unit_mask[u]
            card = positions.bit_count()
            if not (card == 2 or (self.multiple and card > 2)):
                continue
            if (positions & -positions).bit_length() - 1 != c:
                continue
            pos_on: list[_ToSet] = []
            pos_off: list[_ToSet] = []
            region_on: _ToSet = {}
            region_off: _ToSet = {}
            for q in _bits(positions):
                if q == c:
                    pos_on.append(on_on)
                    pos_off.append(on_off)
                    region_on = dict(on_on)
                    region_off = dict(on_off)
                else:
                    other_on, other_off, _ = self.closure_on(q * n + d0, cache)
                    pos_on.append(other_on)
                    pos_off.append(other_off)
                    region_on = {k: v for k, v in region_on.items() if k in other_on}
                    region_off = {k: v for k, v in region_off.items() if k in other_off}
            for outcomes, targets in ((pos_on, region_on), (pos_off, region_off)):
                for p in targets.values():
                    hint = self.reduction_hint(
                        REGION_REDUCTION, p, [o[p.key >> 1] for o in outcomes]
                    )
                    hint.region = u
                    hint.value = d0 + 1
                    if hint.removable:
                        result.append(hint)

    # ------------------------------------------------------------------ advanced rules

    def advanced(self, source: tuple[list[int], list[int]], offs: _ToSet) -> list[Pot]:
        """Eliminations of simpler techniques on the scratch grid that the chain caused."""
        if self._others is None:
            rules: list[Callable[[list[int], list[int], _ToSet], list[Pot]]] = [
                self._locking,
                self._hidden_pairs,
                self._naked_pairs,
                self._x_wings,
            ]
            inner: list[tuple[bool, bool, bool, int]] = []
            if self.nesting < 4:
                if self.nesting >= 2:
                    inner.append((False, False, False, 0))
                if self.nesting >= 3:
                    inner.append((True, False, False, 0))
            else:
                inner.append((True, True, False, 0))
                if self.nesting >= 5:
                    inner.append((True, True, False, self.nesting - 3))
            for spec in inner:
                engine = Engine(self.shape, *spec, self.rules)
                self._inner.append(engine)
                rules.append(self._nested_rule(engine))
            self._others = rules
        for rule in self._others:
            found = rule(source[0], source[1], offs)
            if found:
                return found
        return []

    def _emit(
        self,
        out: list[Pot],
        removable: Iterable[tuple[int, int]],
        parents: list[int],
        offs: _ToSet,
        nested: Deduction | None = None,
    ) -> None:
        """Add the hint's eliminations, caused by the removed candidates ``parents``."""
        if not parents:
            return  # the hint holds without the chain: not part of it
        real = [offs[k] for k in parents]
        for c, d0 in removable:
            out.append(Pot((c * self.n + d0) * 2, list(real), ADVANCED, nested))

    def _locking(self, src_cand: list[int], src_where: list[int], offs: _ToSet) -> list[Pot]:
        n, geo, where = self.n, self.geo, self.where
        out: list[Pot] = []
        for u1, u2 in geo.locking:
            m1, m2 = geo.unit_mask[u1], geo.unit_mask[u2]
            for d0 in range(n):
                pos = where[d0] & m1
                if pos.bit_count() > 1 and not pos & ~m2:
                    rem = where[d0] & m2 & ~m1
                    if rem:
                        gone = src_where[d0] & m1 & ~where[d0] & ~m2
                        self._emit(
                            out,
                            [(c, d0) for c in _bits(rem)],
                            [c * n + d0 for c in _bits(gone)],
                            offs,
                        )
        return out

    def _hidden_pairs(self, src_cand: list[int], src_where: list[int], offs: _ToSet) -> list[Pot]:
        n, geo, where = self.n, self.geo, self.where
        out: list[Pot] = []
        for u in (*geo.boxes, *geo.cols, *geo.rows):
            um = geo.unit_mask[u]
            empty = sum(1 for c in geo.unit_cells[u] if not self.values[c])
            if empty <= 4:
                continue
            for a, b in geo.pairs:
                pa, pb = where[a] & um, where[b] & um
                if pa.bit_count() <= 1 or pb.bit_count() <= 1:
                    continue
                union = pa | pb
                if union.bit_count() != 2:
                    continue
                pair = 1 << a | 1 << b
                rem = [(c, d0) for c in _bits(union) for d0 in _bits(self.cand[c] & ~pair)]
                if not rem:
                    continue
                parents = [
                    c * n + d0
                    for c in geo.unit_cells[u]
                    if not union >> c & 1
                    for d0 in (a, b)
                    if src_cand[c] >> d0 & 1
                ]
                self._emit(out, rem, parents, offs)
        return out

    def _naked_pairs(self, src_cand: list[int], src_where: list[int], offs: _ToSet) -> list[Pot]:
        n, geo, cand = self.n, self.geo, self.cand
        out: list[Pot] = []
        for u in (*geo.boxes, *geo.cols, *geo.rows):
            cells = geo.unit_cells[u]
            empty = sum(1 for c in cells if not self.values[c])
            if empty < 4:
                continue
            for i, j in geo.pairs:
                ca, cb = cells[i], cells[j]
                ma, mb = cand[ca], cand[cb]
                if ma.bit_count() <= 1 or mb.bit_count() <= 1:
                    continue
                union = ma | mb
                if union.bit_count() != 2:
                    continue
                rem = [
                    (c, d0) for c in cells if c != ca and c != cb for d0 in _bits(cand[c] & union)
                ]
                if not rem:
                    continue
                parents = [c * n + d0 for c in (ca, cb) for d0 in _bits(src_cand[c] & ~union)]
                self._emit(out, rem, parents, offs)
        return out

    def _x_wings(self, src_cand: list[int], src_where: list[int], offs: _ToSet) -> list[Pot]:
        n, geo, where = self.n, self.geo, self.where
        out: list[Pot] = []
        placed = [0] * n
        for v in self.values:
            if v:
                placed[v - 1] += 1
        for bases, covers in ((geo.cols, geo.rows), (geo.rows, geo.cols)):
            for i, j in geo.pairs:
                b1, b2 = bases[i], bases[j]
                m1, m2 = geo.unit_mask[b1], geo.unit_mask[b2]
                for d0 in range(n):
                    if placed[d0] + 4 > n:
                        continue
                    p1, p2 = where[d0] & m1, where[d0] & m2
                    if p1.bit_count() <= 1 or p2.bit_count() <= 1:
                        continue
                    cover_units = {
                        u for c in _bits(p1 | p2) for u in covers if geo.unit_mask[u] >> c & 1
                    }
                    if len(cover_units) != 2:
                        continue
                    cover_mask = 0
                    for u in cover_units:
                        cover_mask |= geo.unit_mask[u]
                    rem_mask = where[d0] & cover_mask & ~(m1 | m2)
                    if not rem_mask:
                        continue
                    gone = src_where[d0] & (m1 | m2) & ~where[d0] & ~cover_mask
                    # Parents in SE's order: first base line's cells, then the second's.
                    parents = [c * n + d0 for c in _bits(gone & m1)]
                    parents += [c * n + d0 for c in _bits(gone & m2)]
                    self._emit(out, [(c, d0) for c in _bits(rem_mask)], parents, offs)
        return out

    def _nested_rule(self, engine: Engine) -> Callable[[list[int], list[int], _ToSet], list[Pot]]:
        def rule(src_cand: list[int], src_where: list[int], offs: _ToSet) -> list[Pot]:
            engine.values = self.values
            engine.cand = self.cand.copy()
            engine.where = self.where.copy()
            out: list[Pot] = []
            for hint in engine.hint_list():
                parents = self._rule_parents(hint, src_cand, src_where)
                rem = [(c, d0) for c in sorted(hint.removable) for d0 in _bits(hint.removable[c])]
                self._emit(out, rem, parents, offs, hint)
            return out

        return rule

    def _rule_parents(
        self, hint: Deduction, src_cand: list[int], src_where: list[int]
    ) -> list[int]:
        """The removed candidates a nested chain relies on (getRuleParents), in SE's order."""
        n, geo = self.n, self.geo
        seen: dict[int, None] = {}
        for target in hint.targets:
            done: set[int] = set()
            todo = [target]
            while todo:
                nxt: list[Pot] = []
                for p in todo:
                    if p.key in done:
                        continue
                    done.add(p.key)
                    cause = p.cause
                    if cause == NONE:
                        if hint.kind == CELL_REDUCTION:
                            cause = CELL
                        elif hint.kind == REGION_REDUCTION:
                            cause = hint.region
                    if p.key & 1 and cause != NONE:
                        c, d0 = divmod(p.key >> 1, n)
                        if cause == CELL:
                            for v in _bits(src_cand[c] & ~self.cand[c]):
                                seen.setdefault(c * n + v)
                        elif cause >= 0:
                            u = _same_kind_unit(geo, cause, c)
                            gone = src_where[d0] & geo.unit_mask[u] & ~self.where[d0]
                            for q in _bits(gone):
                                seen.setdefault(q * n + d0)
                    nxt.extend(p.parents)
                todo = nxt
        return list(seen)

    # ------------------------------------------------------------------ entry

    def hint_list(self) -> list[Deduction]:
        """All hints of this producer, sorted and deduplicated as Sudoku Explainer does."""
        result: list[Deduction] = []
        if self.multiple or self.dynamic:
            self.multiple_chains(result)
        else:
            self.loops(False, True, result)
            self.loops(True, False, result)
            self.loops(True, True, result)
        result.sort(key=lambda h: (h.difficulty, h.complexity, h.sort_key))
        unique: list[Deduction] = []
        seen: set[frozenset[tuple[int, int]]] = set()
        for h in result:
            k = h.removable_key()
            if k not in seen:
                seen.add(k)
                unique.append(h)
        return unique


def _same_kind_unit(geo: _Geo, u: int, c: int) -> int:
    """The unit of ``c`` of the same kind (row, column or box) as unit ``u``."""
    b, r, col = geo.se_units[c]
    n = geo.n
    if u < n:
        return r
    if u < 2 * n:
        return col
    return b


def _reversed_cycle(dst_on: Pot) -> Pot:
    """The cycle read backwards (getReversedCycle): each node negated, causes kept in place."""
    nodes: list[Pot] = []
    org: Pot | None = dst_on
    while org is not None:
        nodes.append(Pot(org.key ^ 1, [], org.cause))
        org = org.parents[0] if org.parents else None
    nodes.reverse()
    for prev, nxt in zip(nodes, nodes[1:], strict=False):
        prev.parents.append(nxt)
    return nodes[0]


def hints(
    shape: Shape,
    values: list[int],
    cand: list[int],
    *,
    multiple: bool,
    dynamic: bool,
    nishio: bool,
    nesting: int,
    rules: Rules = CLASSIC,
) -> list[Deduction]:
    """Every hint of one producer on the grid, cheapest first (Sudoku Explainer's order)."""
    n = shape.n
    where = [0] * n
    for c, m in enumerate(cand):
        while m:
            low = m & -m
            where[low.bit_length() - 1] |= 1 << c
            m ^= low
    engine = Engine(shape, multiple, dynamic, nishio, nesting, rules)
    engine.values = values
    engine.cand = list(cand)
    engine.where = where
    return engine.hint_list()
