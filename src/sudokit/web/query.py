"""What a ``GET`` asks for: the query of ``/puzzle`` as a typed model (:class:`PuzzleQuery`)
and the checks of what it names (an ER range, techniques, a reachable target, a day with a
daily puzzle), each a 4xx naming the parameter."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import QueryParams

from .._shape import Shape
from ..bank import Filters
from ..difficulty import difficulty, refuse_unreachable, step_names
from ..generator import SYMMETRIES
from .api import QUERY_LEVELS, RequestError

__all__ = [
    "DAILY_FROM",
    "REPEATED",
    "PuzzleQuery",
    "daily_window",
    "er_range",
    "parameters",
    "reachable",
    "required",
]


class PuzzleQuery(BaseModel):
    """The query of ``GET /puzzle``: validated by this model in the route itself, and the
    operation's parameters in the schema are made from its fields (:func:`parameters`).
    FastAPI's own handling of five declared query parameters cost a fifth of the request."""

    level: Annotated[
        Literal[QUERY_LEVELS] | None,  # type: ignore[valid-type]
        Field(description="SE level; for killers (rules=killer) easy, medium, hard or extreme."),
    ] = None
    er: Annotated[
        str | None, Field(description="SE rating or range, e.g. '7-9'.", max_length=16)
    ] = None
    require: Annotated[
        list[Annotated[str, Field(max_length=64)]] | None,
        Field(description="Techniques (or groups) the solve path uses.", max_length=8),
    ] = None
    shape: Annotated[
        str, Field(description="Side ('9') or boxes ('3x3'), up to 16x16.", max_length=16)
    ] = "3x3"
    symmetry: Annotated[
        Literal[tuple(SYMMETRIES)] | None,  # type: ignore[valid-type]
        Field(description="The clue pattern's symmetry: " + ", ".join(SYMMETRIES) + "."),
    ] = None

    rules: Annotated[
        str | None,
        Field(
            description="The rules, e.g. 'x', 'x+windoku', 'jigsaw:<region map>', 'killer' "
            "(any cages), 'killer+x' (default classic).",
            max_length=4096,
        ),
    ] = None

    @classmethod
    def of(cls, query: QueryParams) -> PuzzleQuery:
        """The query's values (a list for ``require``, which may come more than once);
        :class:`RequestValidationError` as FastAPI raises it (``loc`` ``("query", name)``)."""
        raw = {
            k: query.getlist(k) if k in REPEATED else query[k]
            for k in cls.model_fields
            if k in query
        }
        try:
            return cls.model_validate(raw)
        except ValidationError as e:
            errors = [{**err, "loc": ("query", *err["loc"])} for err in e.errors()]
            raise RequestValidationError(errors) from None


REPEATED = ("require",)


def parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The OpenAPI query parameters of ``model``'s fields, as FastAPI writes a declared
    ``Query`` parameter (the field's JSON schema, its description beside it)."""
    schema = model.model_json_schema()
    out = []
    for name, prop in schema["properties"].items():
        param = {"name": name, "in": "query", "required": name in schema.get("required", ())}
        param["schema"] = prop
        if "description" in prop:
            param["description"] = prop["description"]
        out.append(param)
    return out


_ER = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2})?)\s*(?:(?:-|\.\.)\s*(\d{1,2}(?:\.\d{1,2})?))?\s*$")


def er_range(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    m = _ER.match(text)
    if m is None:
        raise RequestError(f"er must be a rating or a range such as '7-9', got {text!r:.40}")
    lo = float(m.group(1))
    hi = float(m.group(2)) if m.group(2) is not None else lo
    if lo > hi:
        raise RequestError(f"er range {text!r:.40} runs backwards")
    return lo, hi


def reachable(filters: Filters, shape: Shape) -> None:
    """A 422 naming why, when no puzzle of ``shape`` can meet ``filters`` (a level above what
    the shape reaches, an ER range outside the level, a technique rated above the range)."""
    try:
        wanted = difficulty(level=filters.level, rating=filters.er, require=filters.require or None)
        if wanted is not None:
            refuse_unreachable(wanted, shape)
    except ValueError as e:
        raise RequestError(str(e), 422) from None


#: The first day with a daily puzzle.
DAILY_FROM = dt.date(2026, 1, 1)
#: The earliest time zone's offset: its today is the last day with a daily puzzle.
_EARLIEST_ZONE = dt.timezone(dt.timedelta(hours=14))


def daily_window(day: dt.date) -> None:
    """A 422 for a day outside the daily puzzles' window, from :data:`DAILY_FROM` to today
    where it is latest (UTC+14): each day's puzzle is stored, so an open window would let
    any client add a puzzle to the bank for every date there is."""
    last = dt.datetime.now(_EARLIEST_ZONE).date()
    if not DAILY_FROM <= day <= last:
        raise RequestError(
            f"date {day.isoformat()} has no daily puzzle; there is one for every day from "
            f"{DAILY_FROM.isoformat()} to {last.isoformat()}",
            422,
        )


def required(values: list[str] | None) -> tuple[str, ...]:
    names = tuple(n.strip() for v in values or () for n in v.split(",") if n.strip())
    for name in names:
        try:
            step_names(name)
        except ValueError as e:
            raise RequestError(f"require: {e}") from None
    return names
