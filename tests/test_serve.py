"""The puzzle service, run for real (``sudokit serve``: uvicorn on a free loopback port) over a
SQLite bank, and over PostgreSQL where it is installed: every served puzzle unique and of the
level asked, ids that map back to the stored puzzle, the engines' answers, the time limit,
and the refusal of bad requests."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from sudokit import Grid, Shape
from sudokit.bank import Bank, Filters
from sudokit.canon import canonical_id
from sudokit.cli import main
from sudokit.engine import unique_solution
from sudokit.generator import symmetry_of
from sudokit.logic import STEP_SCHEMA, Candidates, hint
from sudokit.rating import Level, rate
from sudokit.web import ids

from procs import children
from service import Service, make_bank, running_service, slow_puzzle

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
LEVELS = ("easy", "medium", "hard", "fiendish", "diabolical")


@pytest.fixture(scope="module")
def bank_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("serve") / "bank.db")
    make_bank(path)
    return path


@pytest.fixture(scope="module")
def service(bank_path: str) -> Iterator[Service]:
    with running_service(bank_path, jobs=2, time_limit=3.0) as srv:
        yield srv


@pytest.fixture
def client(service: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=30) as c:
        yield c


def secret(target: str) -> bytes:
    with Bank(target) as bank:
        return bank.secret()


def refused(r: httpx.Response, code: int, words: str) -> None:
    assert r.status_code == code, r.text
    assert r.headers["content-type"].startswith("application/json")
    message = r.json()["error"]
    assert isinstance(message, str) and words in message, message
    assert "Traceback" not in message


# Puzzles from the bank -----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_served_puzzles_are_unique_and_of_the_level_asked(
    client: httpx.Client, bank_path: str, level: str
) -> None:
    with Bank(bank_path) as bank:
        assert bank.count(Filters(level=Level.parse(level))) > 0  # served from the bank
    for _ in range(3):
        r = client.get("api/v1/puzzle", params={"level": level})
        assert r.status_code == 200, r.text
        data = r.json()
        grid = Grid.from_cells(bytes(data["cells"]), Shape(3, 3))
        assert grid.to_line() == data["text"]
        unique_solution(grid)  # raises unless exactly one solution
        rating = rate(grid)
        assert rating.level.name.lower() == level == data["level"]
        # The stored ER is the stored form's: with chains, SE's search order (by cell and
        # digit) can rate an isomorph a tenth or two apart; the level is what is promised.
        assert abs(rating.er - data["er"]) <= 0.2 and grid.clue_count == data["clues"]


def test_er_range_and_require(client: httpx.Client) -> None:
    r = client.get("api/v1/puzzle", params={"er": "1.5-4"})
    assert r.status_code == 200, r.text
    assert 1.5 <= rate(Grid(r.json()["text"])).er <= 4
    r = client.get("api/v1/puzzle", params={"require": "pointing", "shape": "9"})
    assert r.status_code == 200, r.text
    path = {s.technique for s in rate(Grid(r.json()["text"])).steps}
    assert any("pointing" in t for t in path), path


def test_an_isomorph_maps_back_to_its_stored_puzzle(client: httpx.Client, bank_path: str) -> None:
    key = secret(bank_path)
    seen = set()
    with Bank(bank_path) as bank:
        for _ in range(5):
            data = client.get("api/v1/puzzle", params={"level": "medium"}).json()
            named = ids.decode(data["id"], key)
            assert named is not None
            cid, t = named
            stored = bank.get(cid)
            assert stored is not None
            served = Grid(data["text"])
            assert t.inverse().apply(served) == stored.shown  # back to the stored form
            assert canonical_id(served) == cid
            assert served not in (stored.shown, stored.puzzle)  # never the stored text
            assert symmetry_of(served) == stored.symmetry == data["symmetry"]
            seen.add(data["text"])
    assert len(seen) == 5  # random copies


def test_puzzle_by_id_and_its_solution(client: httpx.Client) -> None:
    data = client.get("api/v1/puzzle", params={"level": "easy"}).json()
    again = client.get(f"api/v1/puzzle/{data['id']}")
    assert again.status_code == 200 and again.json() == data
    sol = client.get(f"api/v1/puzzle/{data['id']}/solution").json()
    assert sol["text"] == unique_solution(Grid(data["text"])).to_line()
    assert sol["cells"] == list(unique_solution(Grid(data["text"])).cells)


def test_ids_are_checked(client: httpx.Client, bank_path: str) -> None:
    good = client.get("api/v1/puzzle", params={"level": "easy"}).json()["id"]
    body, tag = good.split(".")
    flipped = body[:-2] + ("A" if body[-2] != "A" else "B") + body[-1]
    for bad in (f"{flipped}.{tag}", f"{body}.{tag[::-1]}", "abc", "a.b"):
        refused(client.get(f"api/v1/puzzle/{bad}"), 404, "unknown puzzle id")
        refused(client.get(f"api/v1/puzzle/{bad}/solution"), 404, "unknown puzzle id")
    refused(client.get(f"api/v1/puzzle/{'x' * 300}"), 400, "puzzle_id")
    # An id signed with another bank's secret names nothing here.
    named = ids.decode(good, secret(bank_path))
    assert named is not None
    other = ids.encode(named[0], named[1], b"k" * 32)
    refused(client.get(f"api/v1/puzzle/{other}"), 404, "unknown puzzle id")


def test_a_puzzle_the_bank_lacks_is_made_stored_and_served(
    client: httpx.Client, bank_path: str
) -> None:
    with Bank(bank_path) as bank:
        before = bank.count(Filters(shape=Shape(2, 3)))
    r = client.get("api/v1/puzzle", params={"level": "easy", "shape": "6"})
    assert r.status_code == 200, r.text
    grid = Grid.from_cells(bytes(r.json()["cells"]), Shape(2, 3))
    assert rate(grid).level == Level.EASY
    with Bank(bank_path) as bank:
        assert bank.count(Filters(shape=Shape(2, 3))) == before + 1


def test_daily_is_the_same_for_everybody(client: httpx.Client) -> None:
    a = client.get("api/v1/daily", params={"level": "hard", "date": "2026-01-02"}).json()
    b = client.get("api/v1/daily", params={"level": "hard", "date": "2026-01-02"}).json()
    c = client.get("api/v1/daily", params={"level": "hard", "date": "2026-01-03"}).json()
    assert a == b and a["date"] == "2026-01-02" and c["text"] != a["text"]
    assert rate(Grid(a["text"])).level == Level.HARD
    today = client.get("api/v1/daily", params={"level": "easy"})
    assert today.status_code == 200 and today.json()["level"] == "easy"


def test_catalog_counts_the_bank(client: httpx.Client, bank_path: str) -> None:
    data = client.get("api/v1/catalog").json()
    nine = next(s for s in data["shapes"] if s["n"] == 9)
    with Bank(bank_path) as bank:
        assert nine["levels"]["easy"] == bank.count(Filters(level=Level.EASY, shape=Shape(3, 3)))


# Work on any puzzle -------------------------------------------------------------------------


def test_solve_rate_explain(client: httpx.Client) -> None:
    r = client.post("api/v1/solve", json={"puzzle": EASY})
    assert r.status_code == 200 and r.json()["text"] == EASY_SOLUTION
    digits = [int(c) if c != "." else 0 for c in EASY]
    assert client.post("api/v1/solve", json={"puzzle": digits}).json()["text"] == EASY_SOLUTION
    r = client.post("api/v1/rate", json={"puzzle": EASY})
    assert r.json()["er"] == 1.2 and r.json()["level"] == "easy" and r.json()["hodoku_level"]
    r = client.post("api/v1/explain", json={"puzzle": EASY})
    data = r.json()
    assert data["solved"] and len(data["steps"]) > 10
    for s in data["steps"]:
        jsonschema.validate(s["step"], STEP_SCHEMA)  # the one step schema
        assert len(s["hints"]) == 3
    refused(client.post("api/v1/solve", json={"puzzle": "." * 81}), 422, "more than one solution")
    refused(client.post("api/v1/rate", json={"puzzle": "11" + "." * 79}), 422, "not a valid grid")
    refused(client.post("api/v1/rate", json={"puzzle": "1" * 80}), 400, "cannot be read")


def test_hint_at_each_level_from_the_players_position(client: httpx.Client) -> None:
    cells = [int(c) if c != "." else 0 for c in EASY]
    for detail in (1, 2, 3):
        body = {"shape": "3x3", "puzzle": cells, "grid": cells, "marks": None, "detail": detail}
        data = client.post("api/v1/hint", json=body).json()
        expected = hint(Grid(EASY), detail)
        assert expected is not None and data["kind"] == "step" and data["text"] == expected.text
        jsonschema.validate(data["step"], STEP_SCHEMA)
    # The player's own pencil marks are the position.
    state = Candidates.from_grid(Grid(EASY))
    marks = [0 if v else m for v, m in zip(cells, state.masks(), strict=True)]
    body = {"shape": "3x3", "puzzle": cells, "grid": cells, "marks": marks, "detail": 3}
    expected = hint(Candidates.from_masks(Grid(EASY), marks), 3)
    assert expected is not None
    assert client.post("api/v1/hint", json=body).json()["text"] == expected.text
    wrong = list(cells)
    wrong[0] = 1
    body = {"shape": "3x3", "puzzle": cells, "grid": wrong, "detail": 2}
    data = client.post("api/v1/hint", json=body).json()
    assert data["kind"] == "mistake" and "r1c1" in data["text"]


def test_check(client: httpx.Client) -> None:
    board = list(EASY)
    board[0], board[1] = "4", "1"  # right, wrong
    data = client.post("api/v1/check", json={"puzzle": EASY, "grid": "".join(board)}).json()
    assert data == {"wrong": [[1, 2]], "empty": EASY.count(".") - 2, "solved": False}
    data = client.post("api/v1/check", json={"puzzle": EASY, "grid": EASY_SOLUTION}).json()
    assert data["solved"]
    moved = EASY[:2] + "4" + EASY[3:]  # r1c3 is a clue, 3
    refused(client.post("api/v1/check", json={"puzzle": EASY, "grid": moved}), 422, "r1c3")


# Refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "code", "words"),
    [
        ("GET", "api/v1/puzzle", {"params": {"level": "hardest"}}, 400, "level"),
        ("GET", "api/v1/puzzle", {"params": {"shape": "5x5"}}, 400, "at most 16x16"),
        ("GET", "api/v1/puzzle", {"params": {"shape": "1x9"}}, 400, "shape"),
        ("GET", "api/v1/puzzle", {"params": {"er": "9-7"}}, 400, "backwards"),
        ("GET", "api/v1/puzzle", {"params": {"er": "x"}}, 400, "er must be"),
        ("GET", "api/v1/puzzle", {"params": {"require": "nonsense"}}, 400, "require"),
        ("GET", "api/v1/puzzle", {"params": {"symmetry": "spiral"}}, 400, "symmetry"),
        ("GET", "api/v1/puzzle", {"params": {"shape": "3x" + "3" * 20}}, 400, "shape"),
        ("GET", "api/v1/puzzle", {"params": {"shape": "7x7"}}, 400, "7x7"),
        ("GET", "api/v1/daily", {"params": {"date": "2026-13-01"}}, 400, "date"),
        ("GET", "api/v1/daily", {"params": {"level": "bogus"}}, 400, "level"),
        ("GET", "api/v1/nothing", {}, 404, "no such path"),
        ("GET", "static/../../etc/passwd", {}, 404, ""),
        ("GET", "static/%2e%2e%2fapp.py", {}, 404, "no such"),
        ("DELETE", "api/v1/puzzle", {}, 405, "not allowed"),
        ("GET", "api/v1/solve", {}, 405, "not allowed"),
        ("POST", "api/v1/rate", {"content": b'{"puzzle": '}, 400, "malformed JSON"),
        ("POST", "api/v1/rate", {"content": b"\xff\xfe"}, 400, "malformed JSON"),
        ("POST", "api/v1/rate", {"json": [1, 2]}, 400, "must be a JSON object"),
        ("POST", "api/v1/rate", {"json": {}}, 400, "missing key 'puzzle'"),
        ("POST", "api/v1/rate", {"json": {"puzzle": 5}}, 400, "'puzzle' must be a text or"),
        ("POST", "api/v1/rate", {"json": {"puzzle": {"a": 1}}}, 400, "got an object"),
        ("POST", "api/v1/rate", {"json": {"puzzle": [99] * 81}}, 400, "puzzle[0] must be"),
        ("POST", "api/v1/rate", {"json": {"puzzle": [-1] * 81}}, 400, "got -1"),
        ("POST", "api/v1/rate", {"json": {"puzzle": [10] + [0] * 80}}, 400, "0-9, got 10"),
        ("POST", "api/v1/rate", {"json": {"puzzle": EASY, "x": 1}}, 400, "unknown key 'x'"),
        ("POST", "api/v1/rate", {"json": {"puzzle": [1] * 80}}, 400, "80 digits"),
        ("POST", "api/v1/rate", {"json": {"puzzle": [True] * 81}}, 400, "got True"),
        ("POST", "api/v1/rate", {"json": {"puzzle": EASY, "shape": "2x2"}}, 400, "cannot be read"),
        ("POST", "api/v1/rate", {"json": {"puzzle": EASY, "shape": "7x7"}}, 400, "maximum of 36"),
        ("POST", "api/v1/solve", {"json": {"puzzle": "." * 81}}, 422, "more than one"),
        ("POST", "api/v1/hint", {"json": {"shape": "3x3"}}, 400, "missing key 'puzzle'"),
        ("POST", "api/v1/hint", {"json": {"puzzle": EASY, "detail": 4}}, 400, "detail"),
        (
            "POST",
            "api/v1/hint",
            {"json": {"puzzle": EASY, "grid": EASY[:2] + "4" + EASY[3:]}},
            422,
            "r1c3",
        ),
        ("POST", "api/v1/check", {"json": {"puzzle": EASY}}, 400, "missing key 'grid'"),
        ("POST", "api/v1/hint", {"content": b" " * 70000}, 413, "body too large"),
    ],
)
def test_bad_requests_are_4xx_with_a_message(
    client: httpx.Client, method: str, path: str, kwargs: dict[str, Any], code: int, words: str
) -> None:
    headers = {"Content-Type": "application/json"} if "content" in kwargs else {}
    refused(client.request(method, path, headers=headers, **kwargs), code, words)


def test_other_hosts_are_refused(client: httpx.Client) -> None:
    refused(client.get("api/v1/catalog", headers={"Host": "evil.example"}), 403, "Host")
    assert client.get("api/v1/catalog", headers={"Host": "localhost:1"}).status_code == 200


def test_chunked_bodies_over_the_limit(service: Service) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024

    with httpx.Client(base_url=service.url, timeout=30) as c:
        r = c.post("api/v1/rate", content=chunks(), headers={"Content-Type": "application/json"})
    refused(r, 413, "body too large")


def test_the_page_and_the_docs(client: httpx.Client) -> None:
    r = client.get("")
    assert r.status_code == 200 and 'id="sudokit-data"' in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert client.get("static/play.js").headers["content-type"].startswith("text/javascript")
    schema = client.get("api/v1/openapi.json").json()
    assert {"/api/v1/puzzle", "/api/v1/hint", "/api/v1/daily"} <= set(schema["paths"])
    assert schema["components"]["schemas"]["Step"]["required"] == STEP_SCHEMA["required"]
    docs = client.get("api/v1/docs").text
    assert "/api/v1/puzzle/{puzzle_id}/solution" in docs and "<script" not in docs
    assert "`" not in docs  # inline code in the descriptions is set as code
    assert "<code>symmetry</code> (query): The clue pattern" in docs


# Time limits and hang-ups -------------------------------------------------------------------


def test_slow_work_is_cut_at_the_limit_and_quick_work_goes_on(service: Service) -> None:
    """The issue's case, made sure to be slow: three requests at once whose work outlasts the
    limit (3 s here) on a pool of two: each is answered 503 by the limit, while quick requests
    are answered meanwhile; then the pool works again."""
    body = {"puzzle": slow_puzzle(), "shape": "5x5"}
    with httpx.Client(base_url=service.url, timeout=30) as c:

        def slow() -> tuple[int, float, str]:
            t = time.monotonic()
            r = c.post("api/v1/solve", json=body)
            return r.status_code, time.monotonic() - t, r.text

        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            futures = [ex.submit(slow) for _ in range(3)]
            time.sleep(0.5)
            t = time.monotonic()
            quick = c.get("api/v1/puzzle", params={"level": "easy"})
            assert quick.status_code == 200 and time.monotonic() - t < 1.0
            answers = [f.result() for f in futures]
        for status, took, text in answers:
            assert status == 503 and "within 3 s" in text, text
            assert took < 4.5, took
        r = c.post("api/v1/solve", json={"puzzle": EASY})  # the killed workers were replaced
        assert r.status_code == 200


def test_a_client_that_hangs_up_prints_no_traceback(service: Service) -> None:
    host, port = service.url.removeprefix("http://").rstrip("/").split(":")
    body = json.dumps({"puzzle": EASY}).encode()
    head = (
        f"POST /api/v1/explain HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    for payload in (head + body, head + body[:10], head[:20]):
        with socket.create_connection((host, int(port))) as s:
            s.sendall(payload)
        # gone before the answer
    with socket.create_connection((host, int(port))) as s:  # a slow one, then gone
        s.sendall(
            b"GET /api/v1/puzzle?level=diabolical&shape=16 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        time.sleep(0.3)
    time.sleep(3.5)
    with httpx.Client(base_url=service.url) as c:
        assert c.post("api/v1/solve", json={"puzzle": EASY}).status_code == 200
    log = service.log()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


# PostgreSQL, and the commands -----------------------------------------------------------------


def test_over_postgresql(postgres_url: str) -> None:
    make_bank(postgres_url, count=20)
    with (
        running_service(postgres_url, jobs=1) as srv,
        httpx.Client(base_url=srv.url, timeout=30) as c,
    ):
        data = c.get("api/v1/puzzle").json()
        named = ids.decode(data["id"], secret(postgres_url))
        assert named is not None
        with Bank(postgres_url) as bank:
            stored = bank.get(named[0])
        assert stored is not None and named[1].inverse().apply(Grid(data["text"])) == stored.shown
        sol = c.get(f"api/v1/puzzle/{data['id']}/solution").json()
        assert sol["text"] == unique_solution(Grid(data["text"])).to_line()
        r = c.get("api/v1/puzzle", params={"level": "easy", "shape": "4"})  # made and stored
        assert r.status_code == 200, r.text
        assert c.get("api/v1/daily", params={"level": "medium"}).status_code == 200


def _tcp(port: int, state: str) -> set[str]:
    """The inodes of the IPv4 sockets on local ``port`` in ``state`` (Linux's /proc/net/tcp:
    ``0A`` listening, ``01`` established)."""
    rows = (ln.split() for ln in Path("/proc/net/tcp").read_text().splitlines()[1:])
    return {r[9] for r in rows if r[1].endswith(f":{port:04X}") and r[3] == state}


def _held(pid: int, inodes: set[str]) -> int:
    """How many of the sockets ``inodes`` process ``pid`` holds (as ``ss -p`` finds them)."""
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            link = os.readlink(fd)
        except OSError:
            continue
        held += link.startswith("socket:[") and link[8:-1] in inodes
    return held


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT spreading: Linux")
def test_each_server_process_listens_on_a_socket_of_its_own(bank_path: str) -> None:
    """--workers 2: a listening socket for each process (SO_REUSEPORT), so a burst of
    connections opened together reaches both, where one shared socket let the first process to
    wake take nearly all of them; and the port is still this service's alone."""
    with running_service(bank_path, workers=2, jobs=1) as srv:
        port = int(srv.url.rsplit(":", 1)[1].strip("/"))
        listening = _tcp(port, "0A")
        assert len(listening) == 2
        with pytest.raises(OSError):
            socket.create_server(("127.0.0.1", port))
        clients = [httpx.Client(base_url=srv.url, timeout=30) for _ in range(40)]
        try:
            with concurrent.futures.ThreadPoolExecutor(40) as ex:
                codes = list(ex.map(lambda c: c.get("api/v1/catalog").status_code, clients))
            assert codes == [200] * 40
            servers = [p for p in children(srv.process.pid) if _held(p, listening)]
            established = _tcp(port, "01")
            held = {p: _held(p, established) for p in servers}
        finally:
            for c in clients:
                c.close()
        assert len(held) == 2 and sum(held.values()) == 40, held
        # The kernel hashes each connection to one of the sockets: fewer than 5 of 40 on one
        # side has a chance of about 2e-7.
        assert min(held.values()) >= 5, held


class _CountingBank(Bank):
    """The real bank, counting its queries."""

    queries = 0

    def query(self, *args: Any, **kwargs: Any) -> Any:
        type(self).queries += 1
        return super().query(*args, **kwargs)


def test_picks_share_queries_and_refill_before_running_dry(bank_path: str) -> None:
    """The service's random picks (runs of stored puzzles, refilled from the bank): every
    request for a filter the bank can serve gets a puzzle that fits, however many come
    together; requests waiting together share one query; a filter nothing fits gives None."""
    from sudokit.web.state import Picks

    async def go() -> tuple[list[Any], list[Any], Any, int]:
        with _CountingBank(bank_path) as bank:
            picks = Picks(bank, size=8)
            easy = Filters(level=Level.EASY)
            together = await asyncio.gather(*(picks.take(easy) for _ in range(30)))
            queries = _CountingBank.queries
            one_by_one = []
            for _ in range(40):
                one_by_one.append(await picks.take(easy))
                await asyncio.sleep(0.001)  # the loop turns, as it does between requests
            nothing = await picks.take(Filters(er=(11.9, 12.0)))
            return together, one_by_one, nothing, queries

    _CountingBank.queries = 0
    together, one_by_one, nothing, queries = asyncio.run(go())
    assert all(p is not None and p.rating.level is Level.EASY for p in together + one_by_one)
    assert queries <= 6  # 30 at once from runs of 8: 4 runs, shared by those who waited
    assert nothing is None


def test_serve_warns_when_not_on_loopback(bank_path: str) -> None:
    with running_service(bank_path, jobs=1, extra=("--host", "0.0.0.0")) as srv:
        assert "warning: listening on 0.0.0.0" in srv.log()


def test_play_starts_the_service_and_opens_the_page(bank_path: str, tmp_path: Path) -> None:
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    env = {**os.environ, "BROWSER": str(browser)}
    args = [sys.executable, "-m", "sudokit", "play", "--db", bank_path, "--port", "0"]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as p:
        try:
            assert p.stdout is not None
            line = p.stdout.readline().decode()
            assert line.startswith("Playing at http://127.0.0.1:"), line
            url = line.split()[2]
            deadline = time.monotonic() + 30
            while not opened.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert opened.read_text().strip() == url
            assert httpx.get(url, timeout=10).status_code == 200
        finally:
            p.send_signal(2)
            p.wait(15)


def test_serve_refusals(capsys: pytest.CaptureFixture[str], bank_path: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--db", bank_path, "--port", str(port)]) == 1
        assert "cannot listen" in capsys.readouterr().err
    assert main(["serve", "--db", bank_path, "--port", "70000"]) == 2
    assert "outside" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # by its parser, as every time option is
        main(["serve", "--db", bank_path, "--time-limit", "0"])
    assert refused.value.code == 2
    assert "positive" in capsys.readouterr().err


def test_serve_without_the_extra_says_what_to_install(
    capsys: pytest.CaptureFixture[str], bank_path: str
) -> None:
    # A Python where fastapi cannot be imported: the command names the extra.
    code = (
        "import sys; sys.modules['fastapi'] = None; "
        "import importlib.util as u; real = u.find_spec; "
        "u.find_spec = lambda n, *a: None if n == 'fastapi' else real(n, *a); "
        "from sudokit.cli import main; "
        f"sys.exit(main(['serve', '--db', {bank_path!r}, '--port', '0']))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip() == (
        'sudokit serve: the service needs the [server] extra: pip install "sudokit[server]" '
        "(fastapi is not installed)"
    )


@pytest.mark.slow
def test_the_issues_case_at_the_default_limit(bank_path: str) -> None:
    """Three 16x16 diabolical requests at once with the default 15 s limit and two workers:
    each answered within the limit (a 503 when none was made), give or take a second."""
    with running_service(bank_path, jobs=2, time_limit=15.0) as srv:
        with httpx.Client(base_url=srv.url, timeout=60) as c:

            def slow() -> tuple[int, float]:
                t = time.monotonic()
                r = c.get("api/v1/puzzle", params={"level": "diabolical", "shape": "16"})
                return r.status_code, time.monotonic() - t

            with concurrent.futures.ThreadPoolExecutor(3) as ex:
                answers = list(ex.map(lambda _: slow(), range(3)))
        assert all(status in (200, 503) and took < 16.0 for status, took in answers), answers
        assert "Traceback" not in srv.log()
