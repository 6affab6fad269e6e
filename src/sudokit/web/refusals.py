"""How the service refuses: every error is JSON, ``{"error": "what was wrong"}``, with the
status that says whose fault it is (:data:`ERRORS` documents them in the schema), and the
message of a request that does not fit the schema names the first problem and where."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ._pool import JobFailed
from .api import RequestError
from .schema import ErrorOut

__all__ = ["ERRORS", "OWN_CHECKS", "add_handlers", "error", "invalid_message"]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": what}
    for code, what in (
        (
            400,
            "The request does not fit the schema: malformed JSON, a missing or unknown key, "
            "a value of the wrong type, out of range or unreadable.",
        ),
        (404, "No such puzzle or path, or no stored puzzle that fits."),
        (413, "The body is too large."),
        (
            422,
            "A well-formed request that cannot be answered: a puzzle without exactly one "
            "solution, a board that changes a clue, a level or rating no puzzle of the shape "
            "reaches, a day without a daily puzzle.",
        ),
        (503, "The work did not finish within the time limit."),
    )
}


#: Errors of the request schema's own checks (sudokit.web.schema): their message names the
#: key and the problem, and goes first among a union's alternatives.
OWN_CHECKS = ("grid_type", "grid_digit", "mark_mask")


def invalid_message(errors: Sequence[Any]) -> str:
    """The message of a 400 for a request that does not fit the schema: the first problem,
    naming the key or parameter (``'puzzle' must be a text or a list of digits, got an
    object``; ``missing key 'puzzle'``; ``level: Input should be 'easy', ...``)."""
    if not errors:
        return "the request does not fit the schema"
    first = next((err for err in errors if err.get("type") in OWN_CHECKS), errors[0])
    kind = first.get("type")
    if kind == "json_invalid":
        return f"malformed JSON: {first.get('ctx', {}).get('error', 'not JSON')}"
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    # Drop the union's branch names pydantic puts in the location (str, list[int], ...).
    loc = [p for p in loc if not p.startswith(("str", "list[", "function-", "nullable["))]
    where = ".".join(loc)
    if kind in OWN_CHECKS:
        return str(first.get("msg"))
    if kind == "missing":
        return f"missing key {where!r}" if where else "missing body"
    if kind == "extra_forbidden":
        return f"unknown key {where!r}"
    if kind == "model_attributes_type" or (kind == "dict_type" and not where):
        return "the body must be a JSON object"
    return f"{where or 'the request'}: {first.get('msg', 'invalid value')}"


def error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=status, headers={"Cache-Control": "no-store", **headers}
    )


# The handlers ----------------------------------------------------------------------------------


async def request_error(_request: Request, e: RequestError) -> JSONResponse:
    extra = {"Retry-After": "5"} if e.status == 503 else {}
    return error(e.status, str(e), **extra)


async def invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
    return error(400, invalid_message(e.errors()))


async def http_error(request: Request, e: HTTPException) -> JSONResponse:
    path = request.url.path
    if e.status_code == 404:
        return error(404, f"no such path {path!r:.80}")
    if e.status_code == 405:
        return error(
            405,
            f"method {request.method} is not allowed on {path:.80}",
            **(e.headers or {}),
        )
    return error(e.status_code, str(e.detail))


async def failed(_request: Request, e: JobFailed) -> JSONResponse:  # the pool logged it
    return error(500, "internal error in the sudokit server")


async def bug(_request: Request, e: Exception) -> JSONResponse:  # logged by the server
    return error(500, "internal error in the sudokit server")


def add_handlers(app: FastAPI) -> None:
    """Answer every error ``app`` meets as JSON, with its status."""
    app.add_exception_handler(RequestError, request_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(JobFailed, failed)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, bug)
