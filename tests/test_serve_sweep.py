"""The service as it is deployed: ``sudokit serve`` (uvicorn with the ``[server]`` extra's
event loop, uvloop, and a pool of worker processes) in a subprocess, the session's
``live_service``: large answers come back whole, every endpoint at every level on 9x9 and
16x16, and a bug's 500 is logged with its traceback."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sudokit import Grid
from sudokit.engine import unique_solution

from service import Service

#: The issue's puzzle: its explanation (about 34 KB) came back as a 500 under uvloop.
HARD = "....64...21.....34..51...9.5...29....3.....2....73...1.6...78..19.....62...61...."


@pytest.fixture
def client(live_service: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_service.url, timeout=60) as c:
        yield c


def _served(client: httpx.Client, level: str, shape: str) -> dict[str, object]:
    r = client.get("api/v1/puzzle", params={"level": level, "shape": shape})
    assert r.status_code == 200, r.text
    data: dict[str, object] = r.json()
    return data


def test_large_answers_come_back_whole(client: httpx.Client, live_service: Service) -> None:
    """The worker's answer is read as its bytes come: an explanation larger than what one
    read of the socket gives (here 30-120 KB) is answered whole, not a 500."""
    sixteen = _served(client, "fiendish", "16")["text"]
    for puzzle in (HARD, sixteen) * 3:
        r = client.post("api/v1/explain", json={"puzzle": puzzle})
        assert r.status_code == 200, (r.text, live_service.log()[-3000:])
        assert len(r.content) > 30_000
        data = r.json()
        assert data["solved"] and data["puzzle"] == Grid(str(puzzle)).to_line()
    assert unique_solution(Grid(HARD))
