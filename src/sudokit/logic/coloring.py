"""Simple colouring and HoDoKu's simple chains: X-Chain, XY-Chain, Remote Pair.

Terms (see also :mod:`sudokit.logic.patterns` for strong and weak links):

- **Simple colouring** on digit ``d``: the cells joined by strong links on ``d`` form clusters;
  colour each cluster with two colours, alternating along every strong link. In each cluster
  exactly one colour is ``d``. A **color wrap**: two cells of one colour see each other, so
  that colour is false and ``d`` goes from all its cells. A **color trap**: a cell that sees
  both colours cannot be ``d``.
- An **X-Chain** on ``d``: strong and weak links on ``d`` alternating, starting and ending
  with a strong link: ``A=B-C=...=Z``. ``A`` or ``Z`` is ``d``, so ``d`` goes from every cell
  seeing both.
- An **XY-Chain**: bivalue cells ``S, T, ..., E``, each sharing a digit with the next, the
  chain's digits running ``(x=y)-(y=z)-...-(w=x)``. ``S`` or ``E`` is ``x``, so ``x`` goes from
  every cell seeing both.
- A **Remote Pair**: an XY-Chain of four or more cells that all hold the same two digits.
  Cells an odd number of steps (three or more) apart hold different digits, so both digits go
  from every cell that sees such a pair.

Search follows HoDoKu 2.2 (``ColoringSolver``, ``ChainSolver``). Colouring takes the first
step found (digits in order, clusters from their lowest cell; a wrap before a trap). The chain
techniques collect every chain (up to HoDoKu's 20 links), keep the shortest chain for each set
of eliminations, and try the one that removes most first (ties: HoDoKu's weighted index sum).
Chains are found breadth-first, so the chain kept is a shortest one.

Every technique here runs in the C engine (``src/sudokit/_clogic/coloring.c``); the pure-Python
reference is ``tests/logic/pyref/coloring.py``.

Ratings follow Sudoku Explainer's chains, which these are: a forcing X-chain or Y-chain rates
6.6 plus SE's length bonus. The length is the number of chain cells for X-Chains (SE's node
count minus 2), twice that for XY-Chains and Remote Pairs (each cell is two nodes), and the
number of coloured cells for colouring.
"""

from __future__ import annotations

from ._native import finder, register_info
from ._step import Step, digit_list, effects, register_explainer
from .patterns import chain_text

__all__ = ["find_remote_pairs", "find_simple_colors", "find_x_chains", "find_xy_chains"]

# Simple colouring.

find_simple_colors = finder(
    "simple-coloring",
    "Color wraps and color traps, digit by digit, cluster by cluster (HoDoKu's order).",
)


def _decode_colors(raw: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
    k = raw[0]
    return (("colors", (tuple(raw[1 : 1 + k]), tuple(raw[1 + k :]))),)


for _kind in ("color-wrap", "color-trap"):
    register_info(_kind, _decode_colors)


# Chains (HoDoKu's collect-then-sort: most eliminations first, then its weighted index sum,
# then the chain length, then the order found).

find_x_chains = finder("x-chain", "X-Chains of 3 to 20 links, the most eliminations first.")
find_xy_chains = finder(
    "xy-chain", "XY-Chains of 2 to 10 bivalue cells, the most eliminations first."
)
find_remote_pairs = finder(
    "remote-pair",
    "Remote Pairs of 4 to 10 cells, the most eliminations first. Every path of cells with the\n"
    "same two digits is tried; the chain ends where its last cell holds the start's first digit.",
)


# Explanations.


def _colors(step: Step) -> str:
    d = step.digits[0]
    size = len(step.cells)
    if step.technique == "color-wrap":
        return (
            f"Color wrap on {d}: in a {size}-cell chain of strong links, two cells of one "
            f"colour see each other, so that colour is not {d}; {effects(step)}"
        )
    return (
        f"Color trap on {d}: one colour of a {size}-cell chain of strong links is {d}; "
        f"cells that see both colours lose it; {effects(step)}"
    )


def _x_chain(step: Step) -> str:
    d = step.digits[0]
    ends = f"{step.name(step.cells[0])} or {step.name(step.cells[-1])} is {d}"
    return f"X-Chain on {d}: {chain_text(step)}, so {ends}; {effects(step)}"


def _bivalue_chain(step: Step) -> str:
    parts = []
    for link in step.links:
        if link.cell == link.cell2:
            parts.append(f"{step.name(link.cell)}({link.digit}={link.digit2})")
    chain = "-".join(parts)
    if step.technique == "remote-pair":
        return f"Remote Pair {digit_list(step.digits)}: {chain}; {effects(step)}"
    x = step.digits[0]
    ends = f"{step.name(step.cells[0])} or {step.name(step.cells[-1])} is {x}"
    return f"XY-Chain on {x}: {chain}, so {ends}; {effects(step)}"


register_explainer("color-trap", _colors)
register_explainer("color-wrap", _colors)
register_explainer("x-chain", _x_chain)
register_explainer("xy-chain", _bivalue_chain)
register_explainer("remote-pair", _bivalue_chain)
