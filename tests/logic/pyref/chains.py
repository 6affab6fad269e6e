"""The pure-Python reference for the C engine's chains (src/sudokit/_clogic/chains.c).

Chains: Sudoku Explainer's forcing chains and cycles, Nishio, multiple, dynamic and nested
(the techniques are described in src/sudokit/logic/chains.py). The hints come from the
reference chaining engine (``chain_engine.py``); each producer's finder yields the one hint
Sudoku Explainer takes (the first of the sorted list: unrounded rating, then node count and
its tie-breaks) as a step; :func:`chain_steps` lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sudokit._shape import Shape
from sudokit.logic._state import Candidates
from sudokit.logic._step import Link, Step

from . import chain_engine as eng
from .chain_engine import ADVANCED, Deduction, Pot, chain_of

__all__ = [
    "chain_steps",
    "find_dynamic_forcing_chains",
    "find_dynamic_plus",
    "find_forcing_chains",
    "find_multiple_forcing_chains",
    "find_nested",
    "find_nishio",
]

# Producer settings (multiple, dynamic, nishio, nesting), as Sudoku Explainer builds them.
FORCING = (False, False, False, 0)
NISHIO = (False, True, True, 0)
MULTIPLE = (True, False, False, 0)
DYNAMIC = (True, True, False, 0)


def _nested(nesting: int) -> tuple[bool, bool, bool, int]:
    return (True, True, False, nesting)


def _hints(state: Candidates, spec: tuple[bool, bool, bool, int]) -> list[Deduction]:
    multiple, dynamic, nishio, nesting = spec
    return eng.hints(
        state.shape,
        state.values,
        state.cand,
        multiple=multiple,
        dynamic=dynamic,
        nishio=nishio,
        nesting=nesting,
        rules=state.rules,
    )


def chain_steps(state: Candidates, producer: str | int = "forcing") -> list[Step]:
    """Every hint of one chaining producer, cheapest first, as steps.

    ``producer``: ``"forcing"``, ``"nishio"``, ``"multiple"``, ``"dynamic"`` or an int 1..5
    (dynamic forcing chains with that nesting).
    """
    spec = _spec(producer)
    return [_step(state.shape, h, spec) for h in _hints(state, spec)]


def _spec(producer: str | int) -> tuple[bool, bool, bool, int]:
    if isinstance(producer, int):
        if not 1 <= producer <= 5:
            raise ValueError(f"nesting must be 1..5, got {producer}")
        return _nested(producer)
    specs = {"forcing": FORCING, "nishio": NISHIO, "multiple": MULTIPLE, "dynamic": DYNAMIC}
    if producer not in specs:
        raise ValueError(f"unknown chaining producer {producer!r}; known: {', '.join(specs)}")
    return specs[producer]


def _best(state: Candidates, spec: tuple[bool, bool, bool, int]) -> Iterator[Step]:
    found = _hints(state, spec)
    if found:
        yield _step(state.shape, found[0], spec)


def find_forcing_chains(state: Candidates) -> Iterator[Step]:
    return _best(state, FORCING)


def find_nishio(state: Candidates) -> Iterator[Step]:
    return _best(state, NISHIO)


def find_multiple_forcing_chains(state: Candidates) -> Iterator[Step]:
    return _best(state, MULTIPLE)


def find_dynamic_forcing_chains(state: Candidates) -> Iterator[Step]:
    return _best(state, DYNAMIC)


def find_dynamic_plus(state: Candidates) -> Iterator[Step]:
    return _best(state, _nested(1))


def find_nested(nesting: int) -> Callable[[Candidates], Iterator[Step]]:
    """The finder of nested dynamic forcing chains at ``nesting`` 2..5."""
    if not 2 <= nesting <= 5:
        raise ValueError(f"nesting must be 2..5, got {nesting}")
    spec = _nested(nesting)

    def find(state: Candidates) -> Iterator[Step]:
        return _best(state, spec)

    find.__name__ = f"find_nested_forcing_chains_{nesting}"
    return find


# ---------------------------------------------------------------------- steps


def _technique(h: Deduction, spec: tuple[bool, bool, bool, int]) -> str:
    multiple, dynamic, nishio, nesting = spec
    if h.kind == eng.CYCLE:
        return "xy-cycle" if h.x and h.y else ("y-cycle" if h.y else "x-cycle")
    if h.kind == eng.FORCING:
        return "forcing-chain" if h.x and h.y else ("forcing-y-chain" if h.y else "forcing-x-chain")
    if nishio:
        return "nishio-forcing-chain"
    if not dynamic:
        return "cell-forcing-chain" if h.kind == eng.CELL_REDUCTION else "region-forcing-chain"
    if nesting == 0:
        return "dynamic-forcing-chain"
    if nesting == 1:
        return "dynamic-forcing-chain-plus"
    return f"nested-forcing-chain-{nesting}"


def _pot_name(shape: Shape, key: int) -> str:
    c, d0 = divmod(key >> 1, shape.n)
    return f"({d0 + 1}){shape.cell_name(c)}"


def _spine(shape: Shape, target: Pot) -> str:
    """The chain to ``target`` along first parents, from the assumption, in Eureka notation."""
    nodes: list[Pot] = []
    p: Pot | None = target
    while p is not None:
        nodes.append(p)
        p = p.parents[0] if p.parents else None
    nodes.reverse()
    out = [_pot_name(shape, nodes[0].key)]
    for prev, node in zip(nodes, nodes[1:], strict=False):
        sym = "=" if (not prev.key & 1 and node.key & 1) else "-"
        extra = ""
        if len(node.parents) > 1:
            extra = "{+" + ",".join(_pot_name(shape, q.key) for q in node.parents[1:]) + "}"
        elif node.cause == ADVANCED:
            extra = "{+}"
        out.append(f"{sym}{extra}{_pot_name(shape, node.key)}")
    return "".join(out)


def _links(shape: Shape, h: Deduction) -> tuple[Link, ...]:
    n = shape.n
    links: dict[tuple[int, int, int, int], Link] = {}
    targets = h.targets[:1] if h.kind == eng.CYCLE else h.targets
    for target in targets:
        for p in chain_of(target):
            if len(p.parents) > 6:
                continue
            c2, d2 = divmod(p.key >> 1, n)
            for q in p.parents:
                c1, d1 = divmod(q.key >> 1, n)
                k = (c1, d1, c2, d2)
                if k not in links:
                    strong = not q.key & 1 and bool(p.key & 1)
                    links[k] = Link(c1, d1 + 1, c2, d2 + 1, strong)
    return tuple(links.values())


def _step(shape: Shape, h: Deduction, spec: tuple[bool, bool, bool, int]) -> Step:
    n = shape.n
    eliminations = tuple(
        (c, d0 + 1) for c in sorted(h.removable) for d0 in eng._bits(h.removable[c])
    )
    placements: tuple[tuple[int, int], ...] = ()
    if h.result is not None and h.result.key & 1:
        c, d0 = divmod(h.result.key >> 1, n)
        placements = ((c, d0 + 1),)
        eliminations = tuple((cc, d) for cc, d in eliminations if cc != c)
    nodes: dict[int, None] = {}
    targets = h.targets[:1] if h.kind == eng.CYCLE else h.targets
    for target in targets:
        for p in chain_of(target):
            nodes.setdefault(p.key >> 1)
    cells = tuple(dict.fromkeys(cand // n for cand in nodes))
    digits = tuple(sorted({cand % n + 1 for cand in nodes}))
    chains = tuple(_spine(shape, t) for t in targets)
    info: list[tuple[str, object]] = [("chains", chains), ("kind", _KIND_NAMES[h.kind])]
    if h.kind == eng.CELL_REDUCTION:
        info.append(("cell", h.source))
    elif h.kind == eng.REGION_REDUCTION:
        info.append(("unit", h.region))
        info.append(("digit", h.value))
    elif h.kind == eng.BINARY:
        info.append(("assumption", (h.source >> 1, h.source % 2)))
        info.append(("contradiction", h.absurd))
    elif h.kind == eng.FORCING:
        info.append(("assumption", (h.source, 1 - (h.targets[0].key & 1))))
    nesting = spec[3]
    if nesting:
        info.append(("nesting", nesting))
    return Step(
        shape,
        _technique(h, spec),
        round(h.difficulty, 1),
        placements=placements,
        eliminations=eliminations,
        cells=cells,
        units=(h.region,) if h.kind == eng.REGION_REDUCTION else (),
        digits=digits,
        links=_links(shape, h),
        complexity=h.complexity,
        info=tuple(info),
    )


_KIND_NAMES = {
    eng.CYCLE: "cycle",
    eng.FORCING: "forcing",
    eng.BINARY: "binary",
    eng.CELL_REDUCTION: "cell",
    eng.REGION_REDUCTION: "region",
}
