"""The puzzle service under rules, run for real (``sudokit serve`` over a SQLite bank that
holds classic, x and windoku puzzles): ``GET /puzzle?rules=...`` served from the bank with the
rules kept, the catalog by rules, and ``rules`` beside the puzzle in the POST calls."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest

from sudokit import Grid, Shape, random_grid
from sudokit.bank import Bank, Entry, entry_of
from sudokit.canon import canonical_id
from sudokit.engine import count_solutions, is_unique, unique_solution
from sudokit.rating import Rating
from sudokit.web import ids

from service import Service, running_service

SUDOKU = Shape(3, 3)


def _unique_under(rules: str, seed: int) -> Grid:
    full = random_grid(SUDOKU, rules=rules, seed=seed)
    rng = random.Random(seed)
    puzzle = full
    cells = list(range(81))
    rng.shuffle(cells)
    for c in cells:
        fewer = puzzle.without(c)
        if is_unique(fewer):
            puzzle = fewer
    return puzzle


def _entry(rules: str, seed: int) -> Entry:
    return entry_of(
        _unique_under(rules, seed),
        Rating(1.2, 1.2, 1.2, True, None),  # stated: easy
        techniques=None,
        minimal=True,
        symmetry=None,
        source=f"test:{seed}",
    )


@pytest.fixture(scope="module")
def bank_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("serve-rules") / "bank.db")
    with Bank(path) as bank:
        entries = [_entry("classic", 1), _entry("x", 2), _entry("x", 3), _entry("windoku", 4)]
        list(bank.add(entries))
    return path


@pytest.fixture(scope="module")
def service(bank_path: str) -> Iterator[Service]:
    with running_service(bank_path, jobs=1, time_limit=5.0) as srv:
        yield srv


@pytest.fixture
def client(service: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=30) as c:
        yield c


def refused(r: httpx.Response, code: int, words: str) -> None:
    assert r.status_code == code, r.text
    message = r.json()["error"]
    assert words in message, message
    assert "Traceback" not in message


def test_puzzles_of_rules_are_served_with_their_rules(client: httpx.Client, bank_path: str) -> None:
    with Bank(bank_path) as bank:
        secret = bank.secret()
    seen = set()
    for _ in range(6):
        r = client.get("api/v1/puzzle", params={"rules": "x", "level": "easy"})
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["rules"] == "x"
        grid = Grid(data["text"], rules="x")  # keeps the diagonals
        assert is_unique(grid)
        named = ids.decode(data["id"], secret)
        assert named is not None and named[0].startswith("9x9-x-")
        assert canonical_id(grid) == named[0]
        seen.add(named[0])
        again = client.get(f"api/v1/puzzle/{data['id']}").json()
        assert again["text"] == data["text"] and again["rules"] == "x"
        sol = client.get(f"api/v1/puzzle/{data['id']}/solution").json()
        assert sol["text"] == unique_solution(grid).to_line()
    assert len(seen) == 2
    plain = client.get("api/v1/puzzle", params={"level": "easy"}).json()
    assert plain["rules"] == "classic"  # no rules named: classic puzzles only
    w = client.get("api/v1/puzzle", params={"rules": "hyper"}).json()
    assert w["rules"] == "windoku" and is_unique(Grid(w["text"], rules="windoku"))


def test_rules_the_bank_lacks_and_bad_rules(client: httpx.Client) -> None:
    r = client.get("api/v1/puzzle", params={"rules": "antiking", "level": "easy"})
    assert r.status_code == 200, r.text  # made on demand, under its rules, and kept
    made = r.json()
    assert made["rules"] == "antiking" and made["level"] == "easy"
    grid = Grid(made["text"], rules="antiking")
    assert count_solutions(grid, limit=2) == 1
    refused(client.get("api/v1/puzzle", params={"rules": "bogus"}), 400, "unknown rule 'bogus'")
    refused(client.get("api/v1/puzzle", params={"rules": "windoku", "shape": "6"}), 422, "rules")


def test_catalog_by_rules(client: httpx.Client) -> None:
    data = client.get("api/v1/catalog").json()
    nine = next(s for s in data["shapes"] if s["n"] == 9)
    assert nine["levels"]["easy"] == 1  # classic only
    x9 = next(s for s in data["rules"]["x"] if s["n"] == 9)
    assert x9["levels"]["easy"] == 2
    assert {"x", "windoku"} <= set(data["rules"]) <= {"x", "windoku", "antiking"}


def test_post_calls_take_rules(client: httpx.Client) -> None:
    x = _unique_under("x", 3)
    text = x.to_line()
    assert count_solutions(Grid(text), limit=2) == 2  # unique only under its rules
    r = client.post("api/v1/solve", json={"puzzle": text, "rules": "x"})
    assert r.status_code == 200, r.text
    assert r.json()["text"] == unique_solution(x).to_line()
    refused(client.post("api/v1/solve", json={"puzzle": text}), 422, "solution")
    digits = list(x.cells)
    r = client.post("api/v1/solve", json={"puzzle": digits, "rules": "x"})
    assert r.status_code == 200 and r.json()["text"] == unique_solution(x).to_line()
    board = list(x.cells)
    empty = board.index(0)
    solution = unique_solution(x)
    board[empty] = solution[empty] % 9 + 1
    r = client.post("api/v1/check", json={"puzzle": text, "grid": board, "rules": "x"})
    assert r.status_code == 200, r.text
    assert r.json()["wrong"] == [[empty // 9 + 1, empty % 9 + 1]]
    refused(client.post("api/v1/solve", json={"puzzle": text, "rules": "nope"}), 400, "'rules'")
    broken = "11" + "." * 79  # breaks the rows whatever the rules
    refused(client.post("api/v1/solve", json={"puzzle": broken, "rules": "x"}), 422, "digit 1")
    diagonal = "1" + "." * 29 + "1" + "." * 50  # r1c1 and r4c4: the diagonal under x only
    assert client.post("api/v1/solve", json={"puzzle": diagonal}).status_code == 422  # many
    refused(client.post("api/v1/solve", json={"puzzle": diagonal, "rules": "x"}), 422, "diagonal 1")
    refused(
        client.post("api/v1/solve", json={"puzzle": text, "rules": "jigsaw:1234"}), 400, "rules"
    )
    for path in ("api/v1/rate", "api/v1/hint"):
        r = client.post(path, json={"puzzle": text, "rules": "x"})
        # a layer that does not read rules yet refuses them by name; never a 500
        assert r.status_code in (200, 422), r.text
        if r.status_code == 422:  # where the techniques that run under rules end
            assert "do not run under rules" in r.json()["error"]
