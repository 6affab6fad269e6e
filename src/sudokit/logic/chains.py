"""Chains: Sudoku Explainer's forcing chains and cycles, Nishio, multiple, dynamic and nested.

Terms (see ``tests/logic/pyref/chain_engine.py``, the reference, for the implication rules
and the node counting):

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
Explainer's exact floating ratings and tie-breaks.

>>> from sudokit import Grid
>>> from sudokit.logic import Candidates
>>> puzzle = "7.49......6184.9.7.8.1......56.7.8.........7.8.2.....492..8.64.6.8...2.9........."
>>> (step,) = find_forcing_chains(Candidates.from_grid(Grid(puzzle)))
>>> step.technique, step.rating, step.complexity
('forcing-x-chain', 6.6, 4)
>>> print(step.text.replace(": ", ":\\n"))
Forcing X-chain (the assumption leads to its own negation):
(9)r5c3-(9)r5c2=(9)r6c2-(9)r5c3 => remove 9 from r5c3

The chaining engine runs in C, in the logic engine ``sudokit._logic``
(``src/sudokit/_clogic/chains.c``); its pure-Python reference is ``tests/logic/pyref/chains.py``
and ``chain_engine.py``, which the differential tests compare it with.

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

from collections.abc import Callable, Iterator, Sequence
from functools import cache

from .._shape import Shape
from ._native import finder, register_info
from ._state import Candidates
from ._step import Step, effects, register_explainer

__all__ = [
    "find_dynamic_forcing_chains",
    "find_dynamic_plus",
    "find_forcing_chains",
    "find_multiple_forcing_chains",
    "find_nested",
    "find_nested_forcing_chains",
    "find_nishio",
]

find_forcing_chains = finder(
    "forcing-chains",
    "Forcing chains and cycles (X, Y and mixed): 6.5-7.0 plus the length bonus.",
)
find_nishio = finder("nishio", "Nishio forcing chains: 7.5 plus the length bonus.")
find_multiple_forcing_chains = finder(
    "multiple-forcing-chains", "Cell and region forcing chains (static): 8.0 plus the length bonus."
)
find_dynamic_forcing_chains = finder(
    "dynamic-forcing-chains", "Dynamic forcing chains: 8.5 plus the length bonus."
)
find_dynamic_plus = finder(
    "dynamic-forcing-chains-plus",
    "Dynamic forcing chains (+), with simple techniques inside: 9.0 plus the length bonus.",
)
_NESTED = {
    level: finder(
        f"nested-forcing-chains-{level}", f"Nested dynamic forcing chains, nesting {level}."
    )
    for level in (2, 3, 4, 5)
}


def find_nested(nesting: int) -> Callable[[Candidates], Iterator[Step]]:
    """The finder of nested dynamic forcing chains at ``nesting`` 2..5 (9.5 .. 11.0 + bonus)."""
    if not 2 <= nesting <= 5:
        raise ValueError(f"nesting must be 2..5, got {nesting}")
    return _NESTED[nesting]


def find_nested_forcing_chains(state: Candidates, nesting: int = 2) -> Iterator[Step]:
    """Nested dynamic forcing chains at ``nesting`` (2..5)."""
    return find_nested(nesting)(state)


# ---------------------------------------------------------------------- info

_KIND_NAMES = ("cycle", "forcing", "binary", "cell", "region")


@cache
def _shape(box_rows: int, box_cols: int) -> Shape:
    return Shape(box_rows, box_cols)


def _pot_name(shape: Shape, key: int) -> str:
    c, d0 = divmod(key >> 1, shape.n)
    return f"({d0 + 1}){shape.cell_name(c)}"


def _decode(raw: Sequence[int]) -> tuple[tuple[str, object], ...]:
    """Step.info from the engine's raw ints: the shape, the hint kind, the nesting, the kind's
    three fields, then each chain's spine (per node: key, advanced, extra parents' keys)."""
    br, bc, kind, nesting, a, b, c, ntarg = raw[:8]
    shape = _shape(br, bc)
    pos = 8
    chains: list[str] = []
    for _ in range(ntarg):
        length = raw[pos]
        pos += 1
        out: list[str] = []
        prev = -1
        for i in range(length):
            key, adv, m = raw[pos], raw[pos + 1], raw[pos + 2]
            extra = raw[pos + 3 : pos + 3 + m]
            pos += 3 + m
            if i == 0:
                out.append(_pot_name(shape, key))
            else:
                sym = "=" if (not prev & 1 and key & 1) else "-"
                more = ""
                if m:
                    more = "{+" + ",".join(_pot_name(shape, q) for q in extra) + "}"
                elif adv:
                    more = "{+}"
                out.append(f"{sym}{more}{_pot_name(shape, key)}")
            prev = key
        chains.append("".join(out))
    info: list[tuple[str, object]] = [("chains", tuple(chains)), ("kind", _KIND_NAMES[kind])]
    if kind == 3:
        info.append(("cell", a))
    elif kind == 4:
        info.append(("unit", a))
        info.append(("digit", b))
    elif kind == 2:
        info.append(("assumption", (a, b)))
        info.append(("contradiction", bool(c)))
    elif kind == 1:
        info.append(("assumption", (a, b)))
    if nesting:
        info.append(("nesting", nesting))
    return tuple(info)


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
    register_info(_name, _decode)
