"""The play page: the HTML the server sends, and self-contained offline pages.

Both come from one template, ``static/play.html``, with three slots filled in: the style, the
**page data** (JSON in a ``<script id="sudokit-data" type="application/json">`` element that
the page's script reads) and the script. The served page links ``static/play.css`` and
``static/play.js``; the offline page inlines them, so one copy of each serves both.

An offline page carries, for each puzzle, its solution and its **hint path**: the logic
engine's solve path from the clues, each step with its level 1, 2 and 3 hint texts and its
data (:meth:`sudokit.logic.Step.to_dict`, the one step schema). With no server, a hint is
the next step of that path that the player has not made yet; the page also carries
:data:`sudokit.web.api.HINT_WORDS`, so every hint it shows is worded by Python.

A puzzle with rules beyond the classic ones also carries its rules (their text form) and its
**layout**: the houses, each cell's neighbour-rule peers and nc relation (what the page
checks conflicts against: the script knows no rule of its own) and what to draw (the marks
of :mod:`sudokit.render.marks`: region borders, diagonals, windows, group tints, and the
statement of the rules). A killer's layout lists its **cages**: each one's cells, sum,
outline (the dotted path, in cell units) and the digit sets that make its sum
(:func:`sudokit.cages.sum_sets`, as masks), which the page's cage-sum helper narrows to those
the digits entered in the cage (and, where the player keeps marks, the marks) still allow.

A puzzle whose rules the logic engine does not read yet (``nc``) has no hint path: its offline
page carries none, and a hint reveals a cell. A killer's level is its killer level (easy to
extreme, :func:`sudokit.rating.killer_level`), the scale killers are graded on.

>>> from sudokit import Grid
>>> data = puzzle_data(Grid("1.3...12....4..3"))
>>> data["shape"], len(data["steps"]), data["steps"][0]["hints"][0]
('2x2', 10, 'Look for a full house in box 2')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from .._grid import Grid
from ..engine import unique_solution
from ..errors import InvalidRulesError
from ..logic import Candidates, solve_steps
from ..rating import UNSOLVED_RATING, Level, killer_level
from .api import HINT_WORDS, hint_texts, reveal_order

__all__ = ["ASSETS", "asset", "board_data", "offline_page", "puzzle_data", "served_page"]

#: The files under ``static/`` the server hands out, with their content types.
ASSETS: dict[str, str] = {
    "play.css": "text/css; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
}

_SLOTS = ("<!--sudokit:style-->", "<!--sudokit:data-->", "<!--sudokit:script-->")


def asset(name: str) -> bytes:
    """The bytes of a file shipped in ``sudokit/web/static``."""
    return resources.files("sudokit.web").joinpath("static", name).read_bytes()


def _text(name: str) -> str:
    return asset(name).decode("utf-8")


def _script_json(data: object) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _fill(style: str, data: object, script: str) -> str:
    page = _text("play.html")
    data_tag = f'<script id="sudokit-data" type="application/json">{_script_json(data)}</script>'
    for slot, value in zip(_SLOTS, (style, data_tag, script), strict=True):
        head, sep, tail = page.partition(slot)
        if not sep:  # pragma: no cover - the template ships with its slots
            raise RuntimeError(f"play.html lacks its {slot} slot")
        page = head + value + tail
    return page


def served_page() -> str:
    """The page the puzzle service sends at ``/``: it links the shared stylesheet and script."""
    return _fill(
        '<link rel="stylesheet" href="static/play.css">',
        {"mode": "served"},
        '<script src="static/play.js"></script>',
    )


def rules_layout(puzzle: Grid) -> dict[str, Any] | None:
    """The layout of a puzzle with rules, as the page reads it (see the module notes), or
    None for classic rules (the page derives rows, columns and boxes itself)."""
    rules = puzzle.rules
    if rules.is_classic:
        return None
    from ..render.marks import GROUP_TINTS, WINDOW_TINT, rule_marks
    from ..rules import geometry

    geo = geometry(puzzle.shape, rules)
    marks = rule_marks(puzzle.shape, rules)
    return {
        "houses": [list(h) for h in geo.houses],
        "neighbours": [list(p) for p in geo.neighbours],
        "related": [list(p) for p in geo.related],
        "borders": [list(b) for b in marks.borders],
        "diagonals": marks.diagonals,
        "windows": [list(w) for w in marks.windows],
        "tints": (
            None
            if marks.groups is None
            else [GROUP_TINTS[k % len(GROUP_TINTS)] for k in marks.groups]
        ),
        "window_tint": WINDOW_TINT,
        "statement": marks.statement,
        "cages": _cages(puzzle),
    }


def _cages(puzzle: Grid) -> list[dict[str, Any]]:
    """The cages of a killer's layout (see the module notes); none without cages."""
    from ..cages import sum_sets
    from ..render.marks import rule_marks

    cages = puzzle.rules.cages
    if cages is None:
        return []
    outlines = rule_marks(puzzle.shape, puzzle.rules).cages
    n = puzzle.shape.n
    return [
        {
            "cells": list(cage.cells),
            "sum": cage.total,
            "outline": [[list(p) for p in loop] for loop in loops],
            "sets": list(sum_sets(n, len(cage.cells), cage.total)),
        }
        for cage, loops in zip(cages, outlines, strict=True)
    ]


def board_data(puzzle: Grid, solution: Grid | None = None) -> dict[str, Any]:
    """What the page needs to play ``puzzle`` without hints: its key, shape, clues and
    solution, and, with rules, the rules and their layout (:func:`rules_layout`)."""
    if solution is None:
        solution = unique_solution(puzzle)
    shape = puzzle.shape
    data: dict[str, Any] = {
        "key": f"{shape}:{puzzle.to_line()}",
        "shape": str(shape),
        "box_rows": shape.box_rows,
        "box_cols": shape.box_cols,
        "puzzle": list(puzzle.cells),
        "solution": list(solution.cells),
    }
    layout = rules_layout(puzzle)
    if layout is not None:
        data["key"] = f"{shape}:{puzzle.rules}:{puzzle.to_line()}"
        data["rules"] = str(puzzle.rules)
        data["layout"] = layout
    return data


def puzzle_data(puzzle: Grid, solution: Grid | None = None) -> dict[str, Any]:
    """One puzzle as an offline page holds it: :func:`board_data` and the hint path.

    Raises :class:`InvalidPuzzleError` when the puzzle does not have exactly one solution
    (``solution``, when given, is trusted).
    """
    data = board_data(puzzle, solution)
    try:
        state = Candidates.from_grid(puzzle)
    except InvalidRulesError:  # rules the logic engine does not read yet (nc)
        return data | {"level": None, "steps": [], "reveal": puzzle.empty_cells()}
    steps = []
    top = 0.0
    for step in solve_steps(state, in_place=True):
        steps.append({"hints": hint_texts(state, step), "step": step.to_dict(state)})
        top = max(top, step.rating)
    er = round(top, 1) if state.is_solved() else UNSOLVED_RATING
    killer = puzzle.rules.cages is not None  # (graded on a scale of its own)
    data |= {
        "level": str(killer_level(puzzle)) if killer else Level.of(er).name.lower(),
        "er": er,
        "steps": steps,
        # where the path stops short (the engine got stuck), the cells a reveal hint shows,
        # in the server's order (empty when the path solves the puzzle)
        "reveal": reveal_order(state),
    }
    return data


def offline_page(puzzles: Sequence[dict[str, Any]]) -> str:
    """A self-contained page (style and script inline, no server) to play ``puzzles``, each as
    :func:`puzzle_data` makes it. It works opened from a ``file://`` address."""
    keys = "\n".join(str(p["key"]) for p in puzzles)
    data = {
        "mode": "offline",
        "words": HINT_WORDS,
        "set": hashlib.blake2b(keys.encode(), digest_size=8).hexdigest(),
        "puzzles": list(puzzles),
    }
    style, script = _text("play.css"), _text("play.js")
    if "</style" in style.lower() or "</script" in script.lower():  # pragma: no cover
        raise RuntimeError("an inline asset would close its own element")
    return _fill(f"<style>\n{style}</style>", data, f"<script>\n{script}</script>")
