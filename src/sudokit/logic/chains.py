"""Chains: Sudoku Explainer's forcing chains and cycles, Nishio, multiple, dynamic and nested.

Terms (see ``_chain_engine.py`` for the implication rules and the node counting):

- A **chain** follows implications from an assumption: "if r1c1 is 5 then r4c1 is not 5, so
  r4c7 is 5, ...". Links are written in Eureka notation: ``(5)r1c1-(5)r4c1`` is a weak link
  (the first true makes the second false), ``(5)r4c1=(5)r4c7`` a strong link (the first false
  makes the second true).
- **Forcing chains and cycles** (rating 6.5-7.0 plus the length bonus): a **cycle** is a
  closed loop of alternating links; every candidate seeing both colours of a digit goes. A
  **forcing chain** leads from an assumption to its own negation. **X** chains use one digit
  (unit links only), **Y** chains use cell links from bivalue cells, mixed chains use both:
  X- and Y-cycles rate 6.5, forcing X-chains 6.6, mixed cycles and chains 7.0.
- **Nishio** (7.5): assuming a candidate leads, through single-digit links on a grid that
  records every removal ("dynamic"), to a contradiction.
- **Multiple forcing chains** (8.0): every candidate of a cell, or every place of a digit in a
  unit, leads to the same conclusion (cell / region forcing chains).
- **Dynamic forcing chains** (8.5): chains of both kinds on a grid that records removals, with
  double chains (a candidate on and off both give the conclusion) and contradictions.
- **Dynamic forcing chains (+)** (9.0) let simple techniques (intersections, hidden and naked
  pairs, X-Wings) act inside the chain; **nested** chains, nesting 2..5 (9.5, 10.0, 10.5, 11.0) let
  forcing chains, multiple chains and dynamic chains themselves act inside it.

Each producer finds every hint and the solver takes the cheapest, by rating then node count
(``best=True``); the ``find_*`` functions yield just that one hint, chosen with Sudoku
Explainer's exact floating ratings and tie-breaks (:func:`chain_steps` lists them all).

>>> from sudokit import Grid
>>> from sudokit.logic import Candidates
>>> puzzle = "7.49......6184.9.7.8.1......56.7.8.........7.8.2.....492..8.64.6.8...2.9........."
>>> (step,) = find_forcing_chains(Candidates.from_grid(Grid(puzzle)))
>>> step.technique, step.rating, step.complexity
('forcing-x-chain', 6.6, 4)
>>> print(step.text.replace(": ", ":\\n"))
Forcing X-chain (the assumption leads to its own negation):
(9)r5c3-(9)r5c2=(9)r6c2-(9)r5c3 => remove 9 from r5c3

The work is done by the C extension ``sudokit._chains`` when it is built, else by the
pure-Python reference ``_chain_engine.py``; both give the same hints (the tests compare them).

Roads not taken:

- Shortest chains (as HoDoKu searches them) instead of Sudoku Explainer's breadth-first
  closures: the rating is defined by SE's node counts, so its search is mirrored exactly,
  including its quirks (cycles found from every candidate, contradictions stopping a closure
  early, the first unit kept when two give the same deduction).
- Yielding every hint and letting the solver pick: SE sorts on unrounded floats (6.6 + 0.6 is
  below 7.2), which rounded step ratings cannot reproduce, so the producer picks.
- Only the search loop in C: the whole engine (closures, advanced rules, nesting, hint
  sorting) is in C; Python only builds the chosen step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from .._shape import Shape
from . import _chain_engine as eng
from ._chain_engine import ADVANCED, CELL, Deduction, Pot, chain_of
from ._state import Candidates
from ._step import Link, Step, effects, register_explainer

__all__ = [
    "ENGINE",
    "chain_steps",
    "find_dynamic_forcing_chains",
    "find_dynamic_plus",
    "find_forcing_chains",
    "find_multiple_forcing_chains",
    "find_nested",
    "find_nested_forcing_chains",
    "find_nishio",
]

# Producer settings (multiple, dynamic, nishio, nesting), as Sudoku Explainer builds them.
FORCING = (False, False, False, 0)
NISHIO = (False, True, True, 0)
MULTIPLE = (True, False, False, 0)
DYNAMIC = (True, True, False, 0)


def _nested(nesting: int) -> tuple[bool, bool, bool, int]:
    return (True, True, False, nesting)


_c: ModuleType | None
try:
    from .. import _chains as _c
except ImportError:  # pragma: no cover - the pure-Python engine takes over
    _c = None

#: Which engine runs the chains: ``"c"`` (the extension) or ``"python"`` (the reference).
ENGINE = "c" if _c is not None else "python"


def _from_c(item: tuple[Any, ...], n: int) -> Deduction:
    """A hint as the C engine exports it, rebuilt as the reference engine's objects."""
    (
        kind,
        difficulty,
        complexity,
        sort_key,
        rem,
        result_key,
        source,
        region,
        value,
        x,
        y,
        absurd,
        targets,
        nodes,
    ) = item
    pots = [Pot(key, [], cause) for key, cause, _, _ in nodes]
    for pot, (_, _, parents, _) in zip(pots, nodes, strict=True):
        pot.parents = [pots[i] for i in parents]
    removable: dict[int, int] = {}
    for cand in rem:
        c, d0 = divmod(cand, n)
        removable[c] = removable.get(c, 0) | 1 << d0
    result = Pot(result_key, [], eng.NONE) if result_key >= 0 else None
    if kind in (eng.FORCING, eng.CELL_REDUCTION, eng.REGION_REDUCTION) and result is not None:
        result = pots[targets[0]]
    h = Deduction(
        kind,
        0.0,
        sort_key,
        removable,
        [pots[i] for i in targets],
        result,
        source=source,
        region=region,
        value=value,
        x=bool(x),
        y=bool(y),
        absurd=bool(absurd),
    )
    h._complexity = complexity
    h._difficulty = difficulty
    return h


def _hints(
    state: Candidates, spec: tuple[bool, bool, bool, int], best: bool = False
) -> list[Deduction]:
    multiple, dynamic, nishio, nesting = spec
    shape = state.shape
    if _c is not None:
        found = _c.hints(
            shape.box_rows,
            shape.box_cols,
            bytes(state.values),
            state.cand,
            multiple,
            dynamic,
            nishio,
            nesting,
            best,
        )
        return [_from_c(item, shape.n) for item in found]
    return eng.hints(
        state.shape,
        state.values,
        state.cand,
        multiple=multiple,
        dynamic=dynamic,
        nishio=nishio,
        nesting=nesting,
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
    found = _hints(state, spec, best=True)
    if found:
        yield _step(state.shape, found[0], spec)


def find_forcing_chains(state: Candidates) -> Iterator[Step]:
    """Forcing chains and cycles (X, Y and mixed): 6.5-7.0 plus the length bonus."""
    return _best(state, FORCING)


def find_nishio(state: Candidates) -> Iterator[Step]:
    """Nishio forcing chains: 7.5 plus the length bonus."""
    return _best(state, NISHIO)


def find_multiple_forcing_chains(state: Candidates) -> Iterator[Step]:
    """Cell and region forcing chains (static): 8.0 plus the length bonus."""
    return _best(state, MULTIPLE)


def find_dynamic_forcing_chains(state: Candidates) -> Iterator[Step]:
    """Dynamic forcing chains: 8.5 plus the length bonus."""
    return _best(state, DYNAMIC)


def find_dynamic_plus(state: Candidates) -> Iterator[Step]:
    """Dynamic forcing chains (+), with simple techniques inside: 9.0 plus the length bonus."""
    return _best(state, _nested(1))


def find_nested(nesting: int) -> Callable[[Candidates], Iterator[Step]]:
    """The finder of nested dynamic forcing chains at ``nesting`` 2..5 (9.5 .. 11.0 + bonus)."""
    if not 2 <= nesting <= 5:
        raise ValueError(f"nesting must be 2..5, got {nesting}")
    spec = _nested(nesting)

    def find(state: Candidates) -> Iterator[Step]:
        return _best(state, spec)

    find.__name__ = f"find_nested_forcing_chains_{nesting}"
    find.__doc__ = f"Nested dynamic forcing chains, nesting {nesting}."
    return find


def find_nested_forcing_chains(state: Candidates, nesting: int = 2) -> Iterator[Step]:
    """Nested dynamic forcing chains at ``nesting`` (2..5)."""
    return find_nested(nesting)(state)


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

_TITLES = {
    "x-cycle": "X-cycle",
    "y-cycle": "Y-cycle",
    "xy-cycle": "Bidirectional cycle",
    "forcing-x-chain": "Forcing X-chain",
    "forcing-y-chain": "Forcing Y-chain",
    "forcing-chain": "Forcing chain",
    "nishio-forcing-chain": "Nishio forcing chain",
    "cell-forcing-chain": "Cell forcing chains",
    "region-forcing-chain": "Region forcing chains",
    "dynamic-forcing-chain": "Dynamic forcing chains",
    "dynamic-forcing-chain-plus": "Dynamic forcing chains (+)",
}


def _explain(step: Step) -> str:
    title = _TITLES.get(step.technique)
    if title is None:
        title = f"Nested forcing chains (nesting {step.detail('nesting')})"
    kind = step.detail("kind")
    chains = step.detail("chains", ())
    assert isinstance(chains, tuple)
    shape = step.shape
    if kind == "cell":
        cell = step.detail("cell")
        assert isinstance(cell, int)
        where = f"every candidate of {shape.cell_name(cell)} leads to it"
    elif kind == "region":
        unit, digit = step.detail("unit"), step.detail("digit")
        assert isinstance(unit, int)
        where = f"every place of {digit} in {shape.unit_name(unit)} leads to it"
    elif kind == "binary":
        assumption = step.detail("assumption")
        assert isinstance(assumption, tuple)
        cand, on = assumption
        name = f"{cand % shape.n + 1}{'=' if on else '≠'}{shape.cell_name(cand // shape.n)}"
        if step.detail("contradiction"):
            where = f"assuming {name} leads to a contradiction"
        else:
            where = f"assuming {name} or its opposite leads to it"
    elif kind == "cycle":
        where = "a closed loop"
    else:
        where = "the assumption leads to its own negation"
    lines = "; ".join(chains)
    return f"{title} ({where}): {lines} => {effects(step)}"


for _name in (
    *_TITLES,
    "nested-forcing-chain-2",
    "nested-forcing-chain-3",
    "nested-forcing-chain-4",
    "nested-forcing-chain-5",
):
    register_explainer(_name, _explain)

_ = CELL  # re-exported cause constant kept for readers of the chain info
