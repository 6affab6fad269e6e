"""Property tests of the service from its own OpenAPI schema (schemathesis): requests made
from the schema, valid and not, against the real server. No request may make a server error;
every refusal is JSON naming the problem; every answer matches the schema.

The one 5xx the API documents is the 503 of work that did not finish within the time limit
(here 1 s: a 16x16 diabolical puzzle the bank lacks): that answer must say so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import pytest
import schemathesis
from fastapi import FastAPI, Query
from hypothesis import HealthCheck, given, settings
from pydantic import Field
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sudokit.generator import SYMMETRIES
from sudokit.web.api import QUERY_LEVELS
from sudokit.web.app import create_app

from service import Service, make_bank, running_service


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    bank = str(tmp_path_factory.mktemp("schema-bank") / "bank.db")
    make_bank(bank, count=40)
    with running_service(bank, jobs=2, time_limit=1.0) as srv:
        yield srv


#: The schema as the app makes it (no bank needed), so the operations are known when the
#: tests are collected; the requests go to the running service.
SCHEMA = create_app("unused.db").openapi()
#: Requests drawn per operation and mode (more: SUDOKIT_SCHEMA_EXAMPLES=200).
EXAMPLES = int(os.environ.get("SUDOKIT_SCHEMA_EXAMPLES", "15"))
CASES = [
    (path, method.upper(), mode)
    for path, ops in SCHEMA["paths"].items()
    for method, op in ops.items()
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    # a call that takes nothing has no wrong form to make
    if mode is GenerationMode.POSITIVE or op.get("parameters") or op.get("requestBody")
]


@pytest.mark.parametrize(
    ("path", "method", "mode"), CASES, ids=[f"{m} {p} {g.value}" for p, m, g in CASES]
)
def test_no_request_makes_a_server_error(
    service: Service, path: str, method: str, mode: GenerationMode
) -> None:
    operation = schemathesis.openapi.from_dict(SCHEMA)[path][method]
    base = service.url.rstrip("/")

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: schemathesis.Case[Any]) -> None:
        response = case.call(base_url=base, timeout=30)
        status = response.status_code
        if status >= 400:
            assert response.headers["content-type"][0].startswith("application/json")
            message = response.json()["error"]
            assert isinstance(message, str) and message and "Traceback" not in message
        if status == 503:  # documented: the time limit
            assert re.search(r"within 1 s|in time", response.json()["error"]), response.text
            return
        assert status < 500, (response.text, service.log()[-3000:])
        if mode is GenerationMode.POSITIVE and status < 400:
            case.validate_response(
                response,
                checks=[
                    status_code_conformance,
                    content_type_conformance,
                    response_schema_conformance,
                ],
            )

    check()


#: The oracle for the parameters of GET /puzzle: the same ones declared one by one with
#: FastAPI's ``Query``, as the route declared them before it validated them with a model.
_ORACLE = FastAPI()


@_ORACLE.get("/q")
def _declared(
    level: Annotated[
        Literal[QUERY_LEVELS] | None,  # type: ignore[valid-type]
        Query(description="SE level; for killers (rules=killer) easy, medium, hard or extreme."),
    ] = None,
    er: Annotated[
        str | None, Query(description="SE rating or range, e.g. '7-9'.", max_length=16)
    ] = None,
    require: Annotated[
        list[Annotated[str, Field(max_length=64)]] | None,
        Query(description="Techniques (or groups) the solve path uses.", max_length=8),
    ] = None,
    shape: Annotated[
        str, Query(description="Side ('9') or boxes ('3x3'), up to 16x16.", max_length=16)
    ] = "3x3",
    symmetry: Annotated[
        Literal[tuple(SYMMETRIES)] | None,  # type: ignore[valid-type]
        Query(description="The clue pattern's symmetry: " + ", ".join(SYMMETRIES) + "."),
    ] = None,
    rules: Annotated[
        str | None,
        Query(
            description="The rules, e.g. 'x', 'x+windoku', 'jigsaw:<region map>', 'killer' "
            "(any cages), 'killer+x' (default classic).",
            max_length=4096,
        ),
    ] = None,
) -> None:
    """Never called: only its schema is read."""


def test_the_puzzle_query_is_in_the_schema_as_declared_parameters() -> None:
    """``GET /puzzle`` validates its query with a model and writes the schema's parameters
    from it (FastAPI's own handling of them cost a fifth of the request): they must read as
    FastAPI writes the same parameters declared with ``Query``."""
    expected = _ORACLE.openapi()["paths"]["/q"]["get"]["parameters"]
    assert SCHEMA["paths"]["/api/v1/puzzle"]["get"]["parameters"] == expected
