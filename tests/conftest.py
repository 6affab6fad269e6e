"""Shared fixtures: a real, throw-away PostgreSQL server for the bank's tests.

``postgres_server`` (session scope) starts one with :func:`pg_server.throwaway_postgres` (an
unprivileged user, a free loopback port, a temporary folder; everything removed at the end)
and skips, saying why, where PostgreSQL or psycopg is missing (fails instead when
``SUDOKIT_REQUIRE_POSTGRES`` is set, as .ci/run sets it once PostgreSQL is installed, so CI
cannot pass with those tests silently skipped). ``postgres_url`` gives each
test a database of its own on that server; ``bank_url`` runs a test twice, on a new SQLite
file and on such a database.

``live_service`` (session scope) is the real puzzle service, ``sudokit serve`` in a
subprocess over ``live_bank``, for the tests of the service as it is deployed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pg_server import PostgresServer, Unavailable, throwaway_postgres
from service import Service


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        with throwaway_postgres() as server:
            yield server
    except Unavailable as e:
        if os.environ.get("SUDOKIT_REQUIRE_POSTGRES"):  # set by .ci/run once it is installed
            pytest.fail(f"PostgreSQL is required here: {e}")
        pytest.skip(str(e))


_databases = itertools.count()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A new, empty database on the test server, for one test."""
    import psycopg

    name = f"bank_{os.getpid()}_{next(_databases)}"
    with psycopg.connect(postgres_server.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return postgres_server.url(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def bank_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new bank's location: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "bank.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="session")
def live_bank(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A throw-away SQLite bank for the live service: 9x9 puzzles of every level, and 16x16
    ones of the levels the generator makes in a few seconds (easy to fiendish)."""
    from service import make_bank

    path = str(tmp_path_factory.mktemp("live") / "bank.db")
    make_bank(path)
    make_bank(path, shape="4x4", levels=("easy", "medium", "hard", "fiendish"))
    return path


@pytest.fixture(scope="session")
def live_service(live_bank: str) -> Iterator[Service]:
    """``sudokit serve`` as it is deployed (uvicorn with the ``[server]`` extra's event loop,
    uvloop, and a pool of worker processes) over :func:`live_bank`, on a free loopback port,
    for the whole session; stopped at its end."""
    from service import running_service

    with running_service(live_bank, jobs=2, time_limit=5.0) as srv:
        yield srv
