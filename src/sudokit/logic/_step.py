"""Steps: one deduction each, as data.

A :class:`Step` names its technique, carries its rating (Sudoku Explainer's scale), the
placements and eliminations it makes, and what justifies them — the cells, units and digits of
the pattern, and for chains the links — so a renderer can highlight them. Its plain-English
``text`` is rendered from that data by the technique's explainer, only when asked for.

Cells are ints inside; ``r5c3`` names and 1-based unit numbers appear only in text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from .._shape import Shape
from ..rules import CLASSIC, Rules
from ..rules import geometry as rules_geometry
from ._state import Candidates

__all__ = [
    "STEP_SCHEMA",
    "Link",
    "Step",
    "apply",
    "cell_list",
    "digit_list",
    "register_explainer",
]


class Link(NamedTuple):
    """An inference from candidate (cell, digit) to candidate (cell2, digit2).

    ``strong``: if the first is false, the second is true ("off → on"); otherwise the link is
    weak: if the first is true, the second is false ("on → off").
    """

    cell: int
    digit: int
    cell2: int
    digit2: int
    strong: bool


_EXPLAINERS: dict[str, Callable[[Step], str]] = {}


def register_explainer(technique: str, explain: Callable[[Step], str]) -> None:
    """Say how steps of ``technique`` are put in words (each technique module does this)."""
    _EXPLAINERS[technique] = explain


@dataclass(frozen=True, slots=True, eq=False)
class Step:
    """One deduction: technique, rating, what it places and eliminates, and why.

    ``placements`` and ``eliminations`` are (cell, digit) pairs; ``cells``, ``units``, ``digits``
    and ``links`` describe the pattern; ``complexity`` counts chain nodes (Sudoku Explainer picks
    the simplest hint by rating, then complexity); ``info`` holds technique-specific facts as
    (name, value) pairs for the explanation (e.g. ``("type", 2)`` for a unique rectangle).
    """

    shape: Shape
    technique: str
    rating: float
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    links: tuple[Link, ...] = ()
    complexity: int = 0
    info: tuple[tuple[str, object], ...] = field(default=())
    rules: Rules = CLASSIC  # the grid's rules: they name the houses beyond rows, columns, boxes

    @property
    def text(self) -> str:
        """The deduction in plain English, e.g. ``Hidden single: in box 2, 7 fits only in r3c5``."""
        explain = _EXPLAINERS.get(self.technique)
        if explain is not None:
            return explain(self)
        return generic_text(self)

    def detail(self, name: str, default: object = None) -> object:
        for key, value in self.info:
            if key == name:
                return value
        return default

    def name(self, cell: int) -> str:
        return self.shape.cell_name(cell)

    def unit_name(self, unit: int) -> str:
        """``row 3``, ``box 7``, ``diagonal 1``, ``window 2``, ``region 4``... for a house."""
        if self.rules.is_classic:
            return self.shape.unit_name(unit)
        return rules_geometry(self.shape, self.rules).house_names[unit]

    def _unit_entry(self, unit: int) -> list[object]:
        kind, _, number = self.unit_name(unit).rpartition(" ")
        return [kind, int(number)]

    def __repr__(self) -> str:
        return f"<Step {self.technique} {self.rating:.1f}: {self.text}>"

    def to_dict(self, state: Candidates | None = None) -> dict[str, object]:
        """The step as JSON-ready data, in the one schema every output uses
        (:data:`STEP_SCHEMA`: ``explain --format json``, the play page, the server). Rows,
        columns and unit numbers are 1-based:

        - ``technique``, ``rating``, ``text``;
        - ``placements`` and ``eliminations``: ``[row, col, digit]``;
        - ``cells``: ``[row, col]``, the cells the deduction rests on;
        - ``links``: ``[row, col, digit, row2, col2, digit2, strong]``;
        - ``units``: ``[kind, number]``, kind ``"row"``, ``"column"`` or ``"box"``; under
          rules also ``"region"``, ``"diagonal"``, ``"window"``, ``"implied window"`` or
          ``"group"``;
        - ``digits``: the digits it is about;
        - ``candidates``, given the ``state`` the step was found in: ``[row, col, mask]`` for
          the empty cells of the pattern and of the eliminations (so a player without pencil
          marks sees what the step sees).
        """
        n = self.shape.n
        data: dict[str, object] = {
            "technique": self.technique,
            "rating": self.rating,
            "placements": [[c // n + 1, c % n + 1, d] for c, d in self.placements],
            "eliminations": [[c // n + 1, c % n + 1, d] for c, d in self.eliminations],
            "cells": [[c // n + 1, c % n + 1] for c in self.cells],
            "links": [
                [a // n + 1, a % n + 1, d, b // n + 1, b % n + 1, d2, bool(strong)]
                for a, d, b, d2, strong in self.links
            ],
            "units": [self._unit_entry(u) for u in self.units],
            "digits": list(self.digits),
            "text": self.text,
        }
        if state is not None:
            cells = sorted({*self.cells, *(c for c, _ in self.eliminations)})
            data["candidates"] = [
                [c // n + 1, c % n + 1, state.cand[c]] for c in cells if not state.values[c]
            ]
        return data


_CELL = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2}
_ENTRY = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 3, "maxItems": 3}

#: The JSON Schema (draft 2020-12) of a step, as :meth:`Step.to_dict` writes it.
STEP_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "sudokit step",
    "type": "object",
    "required": [
        "technique",
        "rating",
        "placements",
        "eliminations",
        "cells",
        "links",
        "units",
        "digits",
        "text",
    ],
    "additionalProperties": False,
    "properties": {
        "technique": {"type": "string"},
        "rating": {"type": "number", "minimum": 0},
        "placements": {"type": "array", "items": _ENTRY},
        "eliminations": {"type": "array", "items": _ENTRY},
        "cells": {"type": "array", "items": _CELL},
        "links": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [{"type": "integer", "minimum": 1}] * 6 + [{"type": "boolean"}],
                "minItems": 7,
                "maxItems": 7,
            },
        },
        "units": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [
                    {
                        "enum": [
                            "row",
                            "column",
                            "box",
                            "region",
                            "diagonal",
                            "window",
                            "implied window",
                            "group",
                        ]
                    },
                    {"type": "integer", "minimum": 1},
                ],
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "digits": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "text": {"type": "string"},
        "candidates": {"type": "array", "items": _ENTRY},
    },
}


def cell_list(shape: Shape, cells: object) -> str:
    """``r1c2, r3c4`` for an iterable of cells."""
    return ", ".join(shape.cell_name(c) for c in cells)  # type: ignore[attr-defined]


def digit_list(digits: object) -> str:
    """``1/4/7`` for an iterable of digits."""
    return "/".join(str(d) for d in digits)  # type: ignore[attr-defined]


def effects(step: Step) -> str:
    """What a step does, in words: ``r1c2=5; remove 3 from r4c4, r4c5``."""
    parts = [f"{step.name(c)}={d}" for c, d in step.placements]
    by_digit: dict[int, list[int]] = {}
    for c, d in step.eliminations:
        by_digit.setdefault(d, []).append(c)
    parts += [
        f"remove {d} from {cell_list(step.shape, sorted(cells))}"
        for d, cells in sorted(by_digit.items())
    ]
    return "; ".join(parts)


def generic_text(step: Step) -> str:
    title = step.technique.replace("-", " ").capitalize()
    return f"{title}: {effects(step)}"


def apply(state: Candidates, step: Step) -> bool:
    """Make the step's placements, then its eliminations, on ``state``; return whether that
    changed anything."""
    changed = False
    for cell, digit in step.placements:
        if not state.values[cell]:
            state.place(cell, digit)
            changed = True
    for cell, digit in step.eliminations:
        changed |= state.eliminate(cell, digit)
    return changed
