"""The pure-Python reference for the C engine's aligned pair and triple exclusion
(src/sudokit/_clogic/exclusion.c).

The terms and the rules: :mod:`sudokit.logic.exclusion`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

from sudokit._shape import Shape
from sudokit.logic._state import Candidates, bits, geometry, house_order, visible_order
from sudokit.logic._step import Step
from sudokit.rules import Rules

__all__ = ["find_aligned_pair_exclusions", "find_aligned_triple_exclusions"]


def find_aligned_pair_exclusions(state: Candidates) -> Iterator[Step]:
    """Aligned pair exclusions (6.2) in Sudoku Explainer's order."""
    return _search(state, 2)


def find_aligned_triple_exclusions(state: Candidates) -> Iterator[Step]:
    """Aligned triple exclusions (7.5) in Sudoku Explainer's order."""
    return _search(state, 3)


def _search(state: Candidates, degree: int) -> Iterator[Step]:
    cand, peer_mask = state.cand, state.geo.peer_mask
    small = singles = 0
    for c, m in enumerate(cand):
        k = m.bit_count()
        if k == 1:
            singles |= 1 << c
        elif 2 <= k <= degree:
            small |= 1 << c
    base_mask = 0
    excl: dict[int, int] = {}
    for c, m in enumerate(cand):
        if m.bit_count() >= 2 and not peer_mask[c] & singles and peer_mask[c] & small:
            base_mask |= 1 << c
            excl[c] = peer_mask[c] & small
    if len(excl) < degree:
        return
    kinds_memo: dict[int, frozenset[int]] = {}
    shape, rules = state.shape, state.rules

    def kinds(cells: int) -> frozenset[int]:
        """The distinct candidate masks of ``cells``: all that matters of the excluders."""
        found = kinds_memo.get(cells)
        if found is None:
            found = kinds_memo[cells] = frozenset(cand[x] for x in bits(cells))
        return found

    tried: set[int] = set()
    for b in sorted(excl):
        excl_b, mb, peers_b, bit_b = excl[b], cand[b], peer_mask[b], 1 << b
        # The earlier base cells sharing two excluders with b, in SE's pair order; a pair
        # with fewer cannot work, nor can any triple built on it.
        partners = _seen_twice(shape, rules, excl_b) & base_mask & (bit_b - 1)
        while partners:
            bit_a = partners & -partners
            partners ^= bit_a
            a = bit_a.bit_length() - 1
            common = excl[a] & excl_b
            ab = peer_mask[a] >> b & 1
            if degree == 2:
                gone2 = _pair_verdict(cand[a], mb, ab, kinds(common))
                if gone2 != (0, 0):
                    yield _step(state, (a, b), gone2, common)
                continue
            viable = (
                (excl[a] | excl_b) & base_mask & _seen_twice(shape, rules, common) & ~bit_a & ~bit_b
            )
            if not viable:
                continue
            ma, peers_a = cand[a], peer_mask[a]
            hits = []
            while viable:
                bit_t = viable & -viable
                viable ^= bit_t
                # The same three cells come up again from another of their pairs: same verdict,
                # and any removals were yielded the first time.
                trio = bit_a | bit_b | bit_t
                if trio in tried:
                    continue
                tried.add(trio)
                t = bit_t.bit_length() - 1
                shared = common & excl[t]
                found = kinds_memo.get(shared)
                gone3 = _triple_verdict(
                    ma,
                    mb,
                    cand[t],
                    ab,
                    peers_a >> t & 1,
                    peers_b >> t & 1,
                    found if found is not None else kinds(shared),
                )
                if gone3 != (0, 0, 0):
                    hits.append((t, gone3, shared))
            if hits:  # rare: put them in SE's twin-area order
                rank = _twin_rank(shape, rules, a, b, excl[a])
                for t, gone3, shared in sorted(hits, key=lambda hit: rank(hit[0])):
                    yield _step(state, (a, b, t), gone3, shared)


def _twin_rank(shape: Shape, rules: Rules, a: int, b: int, excl_a: int) -> Callable[[int], int]:
    """The position of a third cell in SE's twin area of (a, b): ``a``'s excluders (in its
    house order: box, row, column), then ``b``'s."""
    pos = _house_pos(shape, rules)
    pos_a, pos_b = pos[a], pos[b]
    return lambda t: pos_a[t] if excl_a >> t & 1 else len(pos_a) + pos_b[t]


@lru_cache(maxsize=1 << 14)
def _seen_twice(shape: Shape, rules: Rules, cells: int) -> int:
    """The cells that see at least two of ``cells`` (peers under ``rules``)."""
    peer_mask = geometry(shape, rules).peer_mask
    once = twice = 0
    while cells:
        low = cells & -cells
        sees = peer_mask[low.bit_length() - 1]
        twice |= once & sees
        once |= sees
        cells ^= low
    return twice


@lru_cache(maxsize=32)
def _house_pos(shape: Shape, rules: Rules) -> tuple[dict[int, int], ...]:
    """For each cell, the position of each peer in its house order (box, row, column; under
    rules SukakuExplainer's visible order)."""
    orders = house_order(shape) if rules.is_classic else visible_order(shape, rules)
    return tuple({p: i for i, p in enumerate(order)} for order in orders)


def _step(state: Candidates, cells: tuple[int, ...], gone: tuple[int, ...], excluders: int) -> Step:
    cand = state.cand
    elims = tuple(sorted((c, d + 1) for c, m in zip(cells, gone, strict=True) for d in bits(m)))
    degree = len(cells)
    return Step(
        state.shape,
        "aligned-pair-exclusion" if degree == 2 else "aligned-triple-exclusion",
        6.2 if degree == 2 else 7.5,
        eliminations=elims,
        cells=cells,
        digits=tuple(sorted({d for _, d in elims})),
        info=(
            ("excluders", tuple(bits(excluders))),
            ("excluder_digits", tuple(_digits(cand[x]) for x in bits(excluders))),
        ),
    )


def _digits(mask: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in bits(mask))


@lru_cache(maxsize=1 << 16)
def _pair_verdict(ma: int, mb: int, ab: int, kinds: frozenset[int]) -> tuple[int, int]:
    """Candidates of two base cells found in no possible combination.

    For each value ``q`` of the cell with fewer candidates, the other cell's possible values
    are found at once as a mask: an excluder ``x`` rules out ``p`` when ``x`` is ``{p, q}``.
    """
    if ma.bit_count() < mb.bit_count():
        gone_b, gone_a = _pair_sweep(mb, ma, ab, kinds)
        return gone_a, gone_b
    return _pair_sweep(ma, mb, ab, kinds)


def _pair_sweep(mi: int, mj: int, ij: int, kinds: frozenset[int]) -> tuple[int, int]:
    ok_i = ok_j = 0
    for bq in _single_bits(mj):
        blocked = bq if ij else 0
        for x in kinds:
            left = x & ~bq
            if not left & (left - 1):
                blocked |= left
        p = mi & ~blocked
        if p:
            ok_i |= p
            ok_j |= bq
    return mi & ~ok_i, mj & ~ok_j


@lru_cache(maxsize=1 << 16)
def _triple_verdict(
    ma: int, mb: int, mc: int, ab: int, ac: int, bc: int, kinds: frozenset[int]
) -> tuple[int, int, int]:
    """Candidates of three base cells found in no possible combination.

    The two cells with fewest candidates are enumerated; for each choice (q, r) of theirs, the
    third cell's possible values are found at once as a mask: an excluder is used up by
    (p, q, r) exactly when its candidates outside {q, r} are none (then no p works) or just p.
    """
    ka, kb, kc = ma.bit_count(), mb.bit_count(), mc.bit_count()
    if ka >= kb and ka >= kc:
        return _triple_sweep(ma, mb, mc, ab, ac, bc, kinds)
    if kb >= kc:
        gb, ga, gc = _triple_sweep(mb, ma, mc, ab, bc, ac, kinds)
        return ga, gb, gc
    gc, ga, gb = _triple_sweep(mc, ma, mb, ac, bc, ab, kinds)
    return ga, gb, gc


def _triple_sweep(
    mi: int, mj: int, mk: int, ij: int, ik: int, jk: int, kinds: frozenset[int]
) -> tuple[int, int, int]:
    ok_i = ok_j = ok_k = 0
    for bq in _single_bits(mj):
        for br in _single_bits(mk):
            if jk and bq == br:
                continue
            used = bq | br
            blocked = (bq if ij else 0) | (br if ik else 0)
            for x in kinds:
                left = x & ~used
                if not left:
                    break
                if not left & (left - 1):
                    blocked |= left
            else:
                p = mi & ~blocked
                if p:
                    ok_i |= p
                    ok_j |= bq
                    ok_k |= br
                    if ok_i == mi and ok_j == mj and ok_k == mk:
                        return 0, 0, 0
    return mi & ~ok_i, mj & ~ok_j, mk & ~ok_k


@lru_cache(maxsize=1 << 12)
def _single_bits(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask`` as one-bit masks, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return tuple(out)
