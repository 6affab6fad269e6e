"""Killer puzzles served for real (``sudokit serve`` over a SQLite bank of solo's killers and
one beyond the rating): ``GET /puzzle?rules=killer&level=...`` by the killer levels (easy,
medium, hard, extreme), with any cages; one the bank lacks made on demand with a new cage
layout and kept; the catalog by killer level; the levels of the other kind refused by name."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from killer_grids import solo_killers
from sudokit import Grid, Rules, canonical_id
from sudokit.bank import Bank, Entry, Filters
from sudokit.bank._entries import Pending, prepare_many
from sudokit.engine import count_solutions
from sudokit.formats import Record
from sudokit.rating import KillerLevel, killer_level
from test_bank_killer import BEYOND

from service import Service, running_service


@pytest.fixture(scope="module")
def bank_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("serve-killer") / "bank.db")
    grids = [*solo_killers()[:3], BEYOND]  # easy, medium and extreme killers; no hard one
    items: list[Pending | Record] = [
        Pending(Record(i, g, None, g.to_line(), "line", ""), f"t:{i}")
        for i, g in enumerate(grids, 1)
    ]
    entries = [e for e in prepare_many(items) if isinstance(e, Entry)]
    assert len(entries) == 4
    with Bank(path) as bank:
        list(bank.add(entries))
        assert bank.count(Filters(rules="killer", level="hard")) == 0
    return path


@pytest.fixture(scope="module")
def service(bank_path: str) -> Iterator[Service]:
    with running_service(bank_path, jobs=1, time_limit=20.0) as srv:
        yield srv


@pytest.fixture
def client(service: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=60) as c:
        yield c


def _served(client: httpx.Client, level: str) -> tuple[dict[str, object], Grid]:
    r = client.get("api/v1/puzzle", params={"rules": "killer", "level": level})
    assert r.status_code == 200, r.text
    data = r.json()
    rules = Rules(str(data["rules"]))
    assert rules.cages is not None and data["level"] == level
    grid = Grid(str(data["text"]), rules=rules)
    assert count_solutions(grid, limit=2) == 1
    assert killer_level(grid) is KillerLevel.parse(level)  # the oracle: the levels' techniques
    return data, grid


def test_killers_are_served_by_killer_level(client: httpx.Client, bank_path: str) -> None:
    with Bank(bank_path) as bank:
        stored = {s.id: s for s in bank.query(Filters(rules="killer"))}
    for level in ("easy", "medium", "extreme"):
        data, grid = _served(client, level)
        held = stored[canonical_id(grid)]  # a random isomorph of a stored one
        assert held.rating.killer is KillerLevel.parse(level)
        assert data["er"] == held.rating.er  # 0.0 for the extreme one: beyond the rating
    assert data["er"] == 0.0 and data["hardest"] is None


def test_a_killer_level_the_bank_lacks_is_made_and_kept(
    client: httpx.Client, bank_path: str
) -> None:
    data, grid = _served(client, "hard")  # a new cage layout, graded hard
    assert float(str(data["er"])) >= 1.0
    with Bank(bank_path) as bank:
        kept = bank.get(canonical_id(grid))
        assert kept is not None and kept.rating.killer is KillerLevel.HARD
    assert _served(client, "hard")[1].rules.cages is not None  # now from the bank


def test_levels_of_the_other_kind_are_refused(client: httpx.Client) -> None:
    for params, words in (
        ({"rules": "killer", "level": "fiendish"}, "unknown killer level 'fiendish'"),
        ({"rules": "x", "level": "extreme"}, "'extreme' is a killer level"),
        ({"level": "extreme"}, "'extreme' is a killer level"),
        ({"rules": "killer+bogus"}, "unknown rule 'bogus'"),
    ):
        r = client.get("api/v1/puzzle", params=params)
        assert r.status_code in (400, 422), r.text
        assert words in r.json()["error"], r.text
    r = client.get("api/v1/puzzle", params={"rules": "killer", "level": "bogus"})
    assert r.status_code == 400 and "level" in r.text  # not a level of either kind


def test_catalog_counts_killers_by_killer_level(client: httpx.Client) -> None:
    data = client.get("api/v1/catalog").json()
    nine = next(s for s in data["rules"]["killer"] if s["n"] == 9)
    assert list(nine["levels"]) == ["easy", "medium", "hard", "extreme"]
    assert nine["levels"]["extreme"] == 1 and nine["levels"]["easy"] >= 1
