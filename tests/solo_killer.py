"""Read Simon Tatham's solo game ids for killer puzzles (``sgt-solo --generate N 3x3k...``),
for the tests that compare with solo: ``RxCk:<givens>,<cage borders>,<sums>``.

The format, as solo writes it: the givens and the sums are grids in reading order where a
letter is a run of empty cells (``a`` one ... ``z`` twenty-six, continued by the next letter)
and numbers stand in their cells (``_`` between two numbers that touch); each cage's sum sits
on its first cell in reading order. The cage borders list, for the ``n*(n-1)`` vertical lines
between side-by-side cells in reading order and then the ``n*(n-1)`` horizontal lines between
cells one above the other (column by column), the count of places without a border before
each border (``_`` none, ``a`` one ... ``y`` twenty-five; ``z`` twenty-five and no border)."""

from __future__ import annotations


def _grid(text: str, area: int) -> list[int]:
    cells: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "_":
            i += 1
        elif ch.isalpha():
            cells.extend([0] * (ord(ch) - ord("a") + 1))
            i += 1
        else:
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            cells.append(int(text[i:j]))
            i = j
    if len(cells) != area:
        raise ValueError(f"a solo grid of {len(cells)} cells, expected {area}")
    return cells


def _borders(text: str, n: int) -> list[bool]:
    places = 2 * n * (n - 1)
    border: list[bool] = []
    for ch in text:
        if ch == "_":
            border.append(True)
        elif ch == "z":
            border.extend([False] * 25)
        else:
            border.extend([False] * (ord(ch) - ord("a") + 1))
            border.append(True)
    if len(border) != places + 1:  # the last border is the end, after every place
        raise ValueError(f"solo cage borders for {len(border) - 1} places, expected {places}")
    return border[:places]


def read(game_id: str) -> tuple[int, int, list[int], list[tuple[list[int], int]]]:
    """(box_rows, box_cols, givens, cages as (cells, sum)) of a solo killer game id."""
    params, _, desc = game_id.strip().partition(":")
    size, _, kind = params.partition("x")
    side = int("".join(ch for ch in kind if ch.isdigit()))
    if "k" not in kind or int(size) != side:
        raise ValueError(f"{params!r} is not a killer game id with square boxes")
    n = side * side
    givens_text, borders_text, sums_text = desc.split(",")
    givens = _grid(givens_text, n * n)
    border = _borders(borders_text, n)
    parent = list(range(n * n))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for i, is_border in enumerate(border):
        if is_border:
            continue
        if i < n * (n - 1):
            y, x = divmod(i, n - 1)
            a, b = y * n + x, y * n + x + 1
        else:
            x, y = divmod(i - n * (n - 1), n - 1)
            a, b = y * n + x, (y + 1) * n + x
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for c in range(n * n):
        groups.setdefault(root(c), []).append(c)
    sums = _grid(sums_text, n * n)
    cages = []
    for cells in sorted(groups.values()):
        total = sums[cells[0]]
        if not total or any(sums[c] for c in cells[1:]):
            raise ValueError(f"cage at cell {cells[0]}: its sum is not on its first cell alone")
        cages.append((cells, total))
    return side, side, givens, cages
