"""Named patterns that Sudoku Explainer lacks: single-digit patterns, W-Wing, finned fish, WXYZ.

These are the techniques HoDoKu (and most solving guides) name, used for friendlier hints and
for HoDoKu-style difficulty levels (see :mod:`sudokit.logic.hodoku`). Definitions and search
orders follow HoDoKu 2.2 (``SingleDigitPatternSolver``, ``ChainSolver``, ``WingSolver``,
``FishSolver``), generalised to every shape, rectangular boxes included.

Every technique here runs in the C engine (``src/sudokit/_clogic/patterns.c``); the pure-Python
reference is ``tests/logic/pyref/patterns.py``.

Terms:

- A **strong link** (or *conjugate pair*) on digit ``d``: a unit where ``d`` has exactly two
  places left. One of the two cells is ``d``.
- A **weak link** on ``d``: two cells that see each other and both have ``d``. At most one of
  them is ``d``.
- A **turbot fish** on ``d`` chains strong, weak, strong: ``A=B-C=D`` (``=`` strong, ``-``
  weak). If ``A`` is not ``d`` then ``B`` is, ``C`` is not, and ``D`` is; so ``A`` or ``D`` is
  ``d``, and ``d`` goes from every cell that sees both ends. Two shapes have their own names:
  the **skyscraper** (both strong links in rows, or both in columns, with ``B`` and ``C`` in
  one column, resp. row) and the **2-string kite** (one row and one column whose ``B`` and
  ``C`` share a box).
- An **empty rectangle** on ``d``: a box whose ``d``s all lie in one of its rows plus one of its
  columns (the "cross"), each arm having a ``d`` outside the crossing cell. With a strong link
  from the cross's row to a cell ``y`` elsewhere, the cell in ``y``'s row and the cross's
  column cannot be ``d`` (and likewise with rows and columns swapped).
- A **W-Wing**: two cells with the same two candidates ``xy``, and a strong link on ``y``
  whose ends see one cell each. Both cells cannot be ``y``, so one is ``x``: ``x`` goes from
  every cell seeing both.
- A **finned fish** of size ``k`` on ``d``: ``k`` base lines (rows, or columns) whose ``d``s
  lie in ``k`` cover lines except for some **fins**. Either a fin is ``d``, or the plain fish
  holds; so ``d`` goes from every cover cell outside the base lines that sees all the fins.
  It is **sashimi** when some base line has at most one ``d`` besides its fins (HoDoKu's
  test).
- A **WXYZ-Wing**: four cells of a line and a box that cross (some in the line only, some in
  the box only) holding exactly four digits, of which just one, ``z``, has cells that do not
  all see each other. Without ``z`` the four cells would need four digits from three that
  each fit at most once, so one of the ``z`` cells is ``z``.

Ratings (Sudoku Explainer has none of these): the fixed-size single-digit patterns and the
W-Wing take the ratings SukakuExplainer (the SE fork that has them) gives: skyscraper 4.0,
2-string kite 4.1, turbot fish and empty rectangle 4.2, W-Wing 4.4, WXYZ-Wing 5.5. Finned and
sashimi fish rate as the plain fish (3.2, 3.8, 5.2) plus 0.2, resp. 0.3.
"""

from __future__ import annotations

from ._native import finder, register_info
from ._step import Step, cell_list, digit_list, effects, register_explainer

__all__ = [
    "chain_text",
    "find_empty_rectangles",
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
    "length_bonus",
]


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


# Skyscraper, 2-string kite, turbot fish.

find_skyscrapers = finder(
    "skyscraper",
    "Two strong links in rows (then in columns) whose ends meet in one column (row), HoDoKu's\n"
    "order (rows for every digit, then columns; pairs of lines in order).",
)
find_two_string_kites = finder(
    "two-string-kite",
    "A strong link in a row and one in a column, with one end of each in a shared box.",
)
find_turbot_fish = finder(
    "turbot-fish",
    "Every chain ``A=B-C=D`` on one digit that removes something, HoDoKu's best first.",
)


# Empty rectangle.

find_empty_rectangles = finder(
    "empty-rectangle",
    "Empty rectangles, HoDoKu's order: digit, box, cross (last row/column of the box first).",
)


# W-Wing.

find_w_wings = finder(
    "w-wing",
    "Pairs of cells with the same two candidates, bridged by a strong link (HoDoKu order).",
)


# Finned and sashimi fish: HoDoKu's order. Digits in order; rows as base lines first, then
# columns; base line combinations in order; for each, the covers in order. The fins must share
# one box (otherwise no cover cell outside the base lines sees them all), and at most
# ``MAX_FINS`` of them.

#: HoDoKu's limit on the number of fins of a finned fish.
MAX_FINS = 5

_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}

find_finned_x_wings = finder("finned-x-wing", "Finned X-Wings (3.4), HoDoKu's order.")
find_sashimi_x_wings = finder("sashimi-x-wing", "Sashimi X-Wings (3.5), HoDoKu's order.")
find_finned_swordfish = finder("finned-swordfish", "Finned Swordfish (4.0), HoDoKu's order.")
find_sashimi_swordfish = finder("sashimi-swordfish", "Sashimi Swordfish (4.1), HoDoKu's order.")
find_finned_jellyfish = finder("finned-jellyfish", "Finned Jellyfish (5.4), HoDoKu's order.")
find_sashimi_jellyfish = finder("sashimi-jellyfish", "Sashimi Jellyfish (5.5), HoDoKu's order.")
for _size in (2, 3, 4):
    for _kind in ("finned-", "sashimi-"):
        register_info(_kind + _FISH_NAMES[_size], lambda raw: (("fins", tuple(raw)),))


# WXYZ-Wing.

find_wxyz_wings = finder(
    "wxyz-wing",
    "WXYZ-Wings as bent quads: lines (rows, then columns) crossed with each box they meet.",
)
register_info("wxyz-wing", lambda raw: (("z", raw[0]), ("holders", tuple(raw[1:]))))


# Explanations.


def chain_text(step: Step) -> str:
    """A single-digit chain in Eureka-like notation: ``r1c1=r1c5-r3c6=r8c6``."""
    parts = [step.name(step.links[0].cell)] if step.links else []
    for link in step.links:
        parts.append(("=" if link.strong else "-") + step.name(link.cell2))
    return "".join(parts)


def _both_ends(step: Step) -> str:
    d = step.digits[0]
    first, last = step.links[0].cell, step.links[-1].cell2
    return f"{step.name(first)} or {step.name(last)} is {d}; {effects(step)}"


def _skyscraper(step: Step) -> str:
    u1, u2 = step.units
    shape = step.shape
    across = 1 if u1 < shape.n else 0  # rows meet in a column, columns in a row
    base = shape.unit_name(shape.units_of[step.cells[1]][across])
    lines = f"{shape.unit_name(u1)} and {shape.unit_name(u2)}"
    return f"Skyscraper on {step.digits[0]}: {lines} meet in {base}, so {_both_ends(step)}"


def _kite(step: Step) -> str:
    row, col, box = (step.unit_name(u) for u in step.units)
    return (
        f"2-String Kite on {step.digits[0]}: {row} and {col} meet in {box}, so {_both_ends(step)}"
    )


def _turbot(step: Step) -> str:
    return f"Turbot Fish on {step.digits[0]}: {chain_text(step)}, so {_both_ends(step)}"


def _empty_rectangle(step: Step) -> str:
    box, line, cross, _ = (step.unit_name(u) for u in step.units)
    x, y = step.cells[:2]
    return (
        f"Empty Rectangle on {step.digits[0]} in {box} ({line} and {cross}) with "
        f"{step.name(x)}={step.name(y)}: {effects(step)}"
    )


def _w_wing(step: Step) -> str:
    i, j, p, q = step.cells
    x, y = step.digits
    return (
        f"W-Wing: {step.name(i)} and {step.name(j)} are both {min(x, y)}/{max(x, y)}, and "
        f"{step.name(p)}={step.name(q)} on {y} keeps {y} out of one of them, so one is {x}; "
        f"{effects(step)}"
    )


def _finned(step: Step) -> str:
    size = len(step.units) // 2
    base = ", ".join(str(u % step.shape.n + 1) for u in step.units[:size])
    cover = ", ".join(str(u % step.shape.n + 1) for u in step.units[size:])
    lines, crosses = ("rows", "columns") if step.units[0] < step.shape.n else ("columns", "rows")
    name = step.technique.replace("-", " ").title().replace("X Wing", "X-Wing")
    fins = step.detail("fins", ())
    fin_word = "fin" if isinstance(fins, tuple) and len(fins) == 1 else "fins"
    return (
        f"{name} on {step.digits[0]} in {lines} {base} ({crosses} {cover}), "
        f"{fin_word} {cell_list(step.shape, fins)}: {effects(step)}"
    )


def _wxyz(step: Step) -> str:
    z, holders = step.detail("z"), step.detail("holders", ())
    return (
        f"WXYZ-Wing: {cell_list(step.shape, step.cells)} hold only {digit_list(step.digits)} "
        f"and every digit but {z} fits there at most once, so {z} is in one of "
        f"{cell_list(step.shape, holders)}; {effects(step)}"
    )


register_explainer("skyscraper", _skyscraper)
register_explainer("two-string-kite", _kite)
register_explainer("turbot-fish", _turbot)
register_explainer("empty-rectangle", _empty_rectangle)
register_explainer("w-wing", _w_wing)
for _size in (2, 3, 4):
    for _kind in ("finned-", "sashimi-"):
        register_explainer(_kind + _FISH_NAMES[_size], _finned)
register_explainer("wxyz-wing", _wxyz)

find_locked_subsets = finder(
    "locked-subsets",
    "Locked pair and locked triple (HoDoKu): a naked pair or triple whose cells all lie where a\n"
    "box meets a row or column. Boxes in order, rows then columns, pairs before triples.",
)


def _locked_subset(step: Step) -> str:
    kind = "pair" if len(step.cells) == 2 else "triple"
    where = " and ".join(step.unit_name(u) for u in step.units)
    digits = "/".join(map(str, step.digits))
    cells = ", ".join(step.name(c) for c in step.cells)
    return f"Locked {kind} {digits} in {cells} ({where}): {effects(step)}"


register_explainer("locked-pair", _locked_subset)
register_explainer("locked-triple", _locked_subset)
