"""The service's JSON: one request schema for a puzzle and one answer schema for a grid,
as typed models (pydantic) that the routes validate with and the OpenAPI schema is made from.

Terms:

- A **grid value** in a request (``puzzle``, ``grid``) is a text sudokit reads (the
  81-character line, a pretty grid, JSON) or ``n*n`` digits, 0 empty; ``shape`` (box rows x
  box columns) is needed only for digits of a grid whose boxes are not square. Every call
  that takes a puzzle takes it this way (:class:`PuzzleIn` and its kin).
- A **grid** in an answer is ``{"shape", "text", "cells"}``: the box shape, the one-line
  text ('.' empty) and the ``n*n`` digits (0 empty), the same three keys in every answer
  (:class:`GridOut` and the answers built on it).
- What does not fit these models (a wrong type, a missing or unknown key, a value out of
  range) is a 400 naming the key; a request that fits but cannot be answered (a puzzle
  without exactly one solution, a board that changes a clue) is a 422.

Importing this module needs pydantic (the ``server`` extra).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from .._shape import MAX_SIDE

__all__ = [
    "MAX_DIGIT",
    "CheckIn",
    "ErrorOut",
    "GridOut",
    "HintIn",
    "PuzzleIn",
    "Served",
    "SolutionOut",
]

#: The largest digit of a posted grid: the side of the largest grid the engines take.
MAX_DIGIT = MAX_SIDE

_STRICT = ConfigDict(extra="forbid", strict=True)


def _digits_or_text(value: object, info: ValidationInfo) -> object:
    """A grid value's own check, so that a wrong one is named as such ("'puzzle' must be a
    text or a list of digits, got object"; "puzzle[3] must be a whole number 0-36, got 99")
    rather than by the first alternative of the union that failed."""
    name = info.field_name
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for i, v in enumerate(value):
            # bool is an int in Python, but true/false in JSON is a client's bug.
            if type(v) is not int or not 0 <= v <= MAX_DIGIT:
                raise PydanticCustomError(
                    "grid_digit",
                    "{key}[{i}] must be a whole number 0-{top} (0 empty), got {got}",
                    {"key": name, "i": i, "top": MAX_DIGIT, "got": repr(v)[:40]},
                )
        return value
    kind = {dict: "an object", int: "a number", float: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__
    )
    raise PydanticCustomError(
        "grid_type",
        "'{key}' must be a text or a list of digits, got {kind}",
        {"key": name, "kind": "null" if value is None else kind},
    )


def _masks(value: object, info: ValidationInfo) -> object:
    if isinstance(value, list):
        top = (1 << MAX_DIGIT) - 1
        for i, v in enumerate(value):
            if type(v) is not int or not 0 <= v <= top:
                raise PydanticCustomError(
                    "mark_mask",
                    "{key}[{i}] must be a digit mask (bit d-1 for digit d), got {got}",
                    {"key": info.field_name, "i": i, "got": repr(v)[:40]},
                )
    return value


Digits = list[Annotated[int, Field(ge=0, le=MAX_DIGIT)]]
GridValue = Annotated[
    str | Digits,
    BeforeValidator(_digits_or_text),
    Field(
        description="A text sudokit reads (the 81-character line, '.' or '0' empty; a pretty "
        "grid; JSON), or n*n digits, 0 empty (give 'shape' when the boxes are not square).",
        max_length=8192,
        examples=[
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ],
    ),
]
ShapeText = Annotated[
    str,
    Field(
        description="Box rows x box columns, e.g. '3x3' (9x9) or '2x3' (6x6); needed for a "
        "list of digits whose boxes are not square.",
        max_length=16,
        examples=["3x3"],
    ),
]


RulesText = Annotated[
    str,
    Field(
        description="The rules the puzzle keeps, e.g. 'x', 'x+windoku', 'jigsaw:<region map>' "
        "(default classic).",
        max_length=4096,
        examples=["x"],
    ),
]


class PuzzleIn(BaseModel):
    """A puzzle: as text, or as digits with a shape; and the rules it keeps, if not classic."""

    model_config = _STRICT
    puzzle: GridValue
    shape: ShapeText | None = None
    rules: RulesText | None = None


class CheckIn(PuzzleIn):
    """A player's board to check against the puzzle's solution."""

    grid: Annotated[
        GridValue, Field(description="The board, in the puzzle's form: clues and the player's.")
    ]


class HintIn(PuzzleIn):
    """A player's position: the puzzle, the board and the pencil marks."""

    grid: Annotated[
        GridValue | None,
        Field(description="The board, clues included (default: the puzzle, nothing played)."),
    ] = None
    marks: Annotated[
        Annotated[list[Annotated[int, Field(ge=0)]], Field(max_length=1296)] | None,
        BeforeValidator(_masks),
        Field(description="Pencil marks: one digit mask a cell (bit d-1 for digit d); 0 none."),
    ] = None
    detail: Annotated[
        Literal[1, 2, 3], Field(description="1: where to look; 2: what; 3: the whole step.")
    ] = 1


class GridOut(BaseModel):
    """A grid: its shape, its one-line text and its digits (the same keys in every answer)."""

    shape: str = Field(description="Box rows x box columns, e.g. '3x3'.")
    text: str = Field(description="The grid as one line ('.' empty).")
    cells: list[int] = Field(description="n*n digits, 0 empty, row by row.")


class Served(GridOut):
    """A served puzzle: a random isomorph of a stored one."""

    id: str = Field(description="The puzzle id: give it to /puzzle/{id} and /puzzle/{id}/solution.")
    n: int
    box_rows: int
    box_cols: int
    clues: int
    symmetry: str
    level: str = Field(
        description="SE's level of the ER; a killer's its own (easy, medium, hard, extreme)."
    )
    rules: str = Field(default="classic", description="The rules the puzzle keeps.")
    er: float = Field(description="SE's rating; 0.0 for a killer the rating cannot finish.")
    ep: float
    ed: float
    hardest: str | None
    date: str | None = Field(default=None, description="The day of a daily puzzle.")


class SolutionOut(GridOut):
    """The solution of a served puzzle, in the puzzle's own form."""

    id: str


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, naming the parameter or key.")
