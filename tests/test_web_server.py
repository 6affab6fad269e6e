"""The play server: routes, answers, and the refusal of every kind of bad request."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Grid, Shape, generate
from sudokit.cli import _parser, main
from sudokit.logic import Candidates, hint
from sudokit.web import DEFAULT_PORT, MAX_BODY, PlayServer, make_server
from sudokit.web.api import new_puzzle

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


@pytest.fixture(scope="module")
def server() -> Iterator[PlayServer]:
    with make_server(port=0, timeout_new=5.0).serving() as srv:
        yield srv


def request(
    srv: PlayServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def post_json(srv: PlayServer, payload: object) -> tuple[int, Any]:
    body = json.dumps(payload).encode()
    status, _, data = request(srv, "POST", "/api/hint", body, {"Content-Type": "application/json"})
    return status, json.loads(data)


def get_json(srv: PlayServer, path: str) -> tuple[int, Any]:
    status, headers, data = request(srv, "GET", path)
    assert headers["content-type"].startswith("application/json")
    return status, json.loads(data)


def raw(srv: PlayServer, data: bytes) -> bytes:
    """Send bytes as they are and read the whole answer (for requests http.client won't make)."""
    with socket.create_connection((srv.host, srv.port), timeout=30) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def hint_body(detail: int = 1, **changes: object) -> dict[str, object]:
    cells = [int(ch) if ch != "." else 0 for ch in EASY]
    body: dict[str, object] = {
        "shape": "3x3",
        "puzzle": cells,
        "grid": list(cells),
        "marks": None,
        "detail": detail,
    }
    body.update(changes)
    return body


# Binding, page and assets -----------------------------------------------------------------------


def test_binds_loopback_by_default(server: PlayServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    assert server.loopback() and server.url == f"http://127.0.0.1:{server.port}/"
    assert _parser().parse_args(["play"]).host == "127.0.0.1"
    assert _parser().parse_args(["play"]).port is None  # 8765, else any free port


def test_page_and_assets(server: PlayServer) -> None:
    status, headers, body = request(server, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in headers["content-security-policy"]
    page = body.decode()
    assert 'src="static/play.js"' in page and 'href="static/play.css"' in page
    assert '"mode":"served"' in page
    for name, kind in (("play.css", "text/css"), ("play.js", "text/javascript")):
        status, headers, body = request(server, "GET", f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(kind) and len(body) > 1000
    status, headers, body = request(server, "HEAD", "/")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 1000


# New puzzles ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "n"), [("4", 4), ("6", 6), ("9", 9), ("3x4", 12)])
def test_new_puzzle(server: PlayServer, shape: str, n: int) -> None:
    status, data = get_json(server, f"/api/new?level=easy&shape={shape}&seed=7")
    assert status == 200
    assert data["n"] == n and data["box_rows"] * data["box_cols"] == n
    puzzle = Grid.from_cells(data["puzzle"], Shape.parse(data["shape"]))
    solution = Grid.from_cells(data["solution"], puzzle.shape)
    assert solution.is_complete()
    assert all(p in (0, s) for p, s in zip(puzzle, solution, strict=True))
    assert data["level"] == "easy" and data["note"] is None and data["seed"] == "7"
    again = get_json(server, f"/api/new?level=easy&shape={shape}&seed=7")[1]
    assert again["puzzle"] == data["puzzle"]  # the seed makes it again


def test_new_puzzle_defaults(server: PlayServer) -> None:
    status, data = get_json(server, "/api/new")
    assert status == 200 and data["n"] == 9 and data["asked"] == "easy"


def test_new_puzzle_gives_the_closest_when_the_level_is_out_of_reach() -> None:
    # No 4x4 puzzle is diabolical: after the timeout, the closest one comes with a note.
    data = new_puzzle({"level": "diabolical", "shape": "4"}, timeout=0.2)
    assert data["note"] and "closest" in data["note"] and data["n"] == 4
    assert data["level"] != "diabolical"


# Hints ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_hint_every_level(server: PlayServer, level: int) -> None:
    status, data = post_json(server, hint_body(level))
    assert status == 200
    expected = hint(Grid(EASY), level)
    assert expected is not None
    assert data["kind"] == "step" and data["detail"] == level and data["text"] == expected.text
    step = data["step"]
    assert set(step) >= {"technique", "placements", "eliminations", "cells", "links", "text"}
    assert set(step) >= {"units", "digits", "candidates"}
    for row, col, mask in step["candidates"]:  # what the step sees, the answer among it
        cell = (row - 1) * 9 + col - 1
        assert EASY[cell] == "." and mask >> (int(EASY_SOLUTION[cell]) - 1) & 1
    assert step["technique"] == expected.step.technique
    for row, col, digit in step["placements"]:
        assert EASY_SOLUTION[(row - 1) * 9 + col - 1] == str(digit)


def test_hint_uses_the_players_marks(server: PlayServer) -> None:
    # A generated puzzle, with the pencil marks a step of its path leaves: the hint must be
    # the one the logic engine gives for that very position.
    made = generate(level="easy", seed=3)
    state = Candidates.from_grid(made.puzzle)
    marks = state.masks()
    body = {
        "shape": "3x3",
        "puzzle": list(made.puzzle.cells),
        "grid": list(made.puzzle.cells),
        "marks": [0 if v else m for v, m in zip(made.puzzle.cells, marks, strict=True)],
        "detail": 3,
    }
    status, data = post_json(server, body)
    expected = hint(Candidates.from_masks(made.puzzle, body["marks"]), 3)  # type: ignore[arg-type]
    assert status == 200 and expected is not None and data["text"] == expected.text


def test_hint_points_at_mistakes(server: PlayServer) -> None:
    grid = [int(ch) if ch != "." else 0 for ch in EASY]
    grid[0] = 1  # r1c1 is 4 in the solution; 1 makes no conflict there
    status, data = post_json(server, hint_body(1, grid=grid))
    assert status == 200 and data["kind"] == "mistake" and "undo" in data["text"]
    assert data["step"]["cells"] == []  # level 1 does not say where
    status, data = post_json(server, hint_body(2, grid=grid))
    assert "r1c1" in data["text"] and data["step"]["cells"] == [[1, 1]]


def test_hint_points_at_marks_that_leave_out_the_answer(server: PlayServer) -> None:
    marks = [0] * 81
    marks[0] = 0b1  # r1c1 marked "1" only; its digit is 4
    status, data = post_json(server, hint_body(2, marks=marks))
    assert status == 200 and data["kind"] == "mistake" and "r1c1" in data["text"]


def test_hint_on_a_solved_grid(server: PlayServer) -> None:
    status, data = post_json(server, hint_body(1, grid=[int(ch) for ch in EASY_SOLUTION]))
    assert status == 200 and data["kind"] == "solved" and data["step"] is None


# Refusals ---------------------------------------------------------------------------------------

_JSON = {"Content-Type": "application/json"}


def assert_refused(
    status: int, headers: dict[str, str], body: bytes, code: int, words: str
) -> None:
    assert status == code, body
    assert headers["content-type"].startswith("application/json")
    message = json.loads(body)["error"]
    assert isinstance(message, str) and words in message, message
    assert "Traceback" not in message


@pytest.mark.parametrize(
    ("changes", "code", "words"),
    [
        ({"detail": "1"}, 400, "'detail' must be 1, 2 or 3"),
        ({"detail": 4}, 400, "'detail' must be 1, 2 or 3"),
        ({"detail": True}, 400, "'detail' must be 1, 2 or 3"),
        ({"shape": 9}, 400, "'shape' must be a text"),
        ({"shape": "5x5"}, 400, "at most 16x16"),
        ({"shape": "1x9"}, 400, "invalid shape"),
        ({"shape": "2x2"}, 400, "must hold 16 numbers"),
        ({"grid": "..3.2.6"}, 400, "'grid' must be a list"),
        ({"grid": [0] * 80}, 400, "must hold 81 numbers"),
        ({"grid": ["1"] * 81}, 400, "grid[0] must be a whole number 0-9"),
        ({"grid": [True] * 81}, 400, "grid[0] must be a whole number 0-9"),
        ({"grid": [10] * 81}, 400, "grid[0] must be a whole number 0-9"),
        ({"grid": [1.0] * 81}, 400, "grid[0] must be a whole number 0-9"),
        ({"marks": [512] * 81}, 400, "marks[0] must be a whole number 0-511"),
        ({"marks": {"0": 1}}, 400, "'marks' must be a list"),
        ({"extra": 1}, 400, "unknown key 'extra'"),
        ({"grid": [0] * 81}, 422, "changes the clue at r1c3"),
        ({"puzzle": [1, 1] + [0] * 79, "grid": [1, 1] + [0] * 79}, 422, "conflicting"),
        ({"puzzle": [0] * 81, "grid": [0] * 81}, 422, "more than one solution"),
    ],
)
def test_hint_refuses_bad_values(
    server: PlayServer, changes: dict[str, object], code: int, words: str
) -> None:
    body = json.dumps({**hint_body(1), **changes}).encode()
    assert_refused(*request(server, "POST", "/api/hint", body, _JSON), code, words)


def test_hint_refuses_missing_keys(server: PlayServer) -> None:
    body = hint_body(1)
    del body["grid"]
    assert_refused(
        *request(server, "POST", "/api/hint", json.dumps(body).encode(), _JSON), 400, "'grid'"
    )


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        (b'{"shape": "3x3", ', 400, "malformed JSON"),
        (b"", 400, "malformed JSON"),
        (b"[1, 2, 3]", 400, "must be a JSON object, got list"),
        (b'"hello"', 400, "must be a JSON object, got str"),
        (b"\xff\xfe{}", 400, "not UTF-8"),
        (b'{"detail": ' + b"9" * 5000 + b"}", 400, "unreadable JSON"),
        (b"[" * 30000 + b"]" * 30000, 400, "JSON"),
        (b" " * (MAX_BODY + 1), 413, "body too large"),
    ],
)
def test_hint_refuses_bad_bodies(server: PlayServer, body: bytes, code: int, words: str) -> None:
    assert_refused(*request(server, "POST", "/api/hint", body, _JSON), code, words)


def test_hint_refuses_other_content_types(server: PlayServer) -> None:
    body = json.dumps(hint_body(1)).encode()
    headers = {"Content-Type": "text/plain"}
    assert_refused(*request(server, "POST", "/api/hint", body, headers), 415, "application/json")


def test_hint_needs_a_length(server: PlayServer) -> None:
    answer = raw(
        server,
        b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.0 411") and b"Content-Length" in answer
    answer = raw(
        server,
        b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: -5\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.0 400") and b"bad Content-Length" in answer


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("level=impossible", "unknown level 'impossible'"),
        ("shape=7", "unknown side 7"),
        ("shape=5x5", "at most 16x16"),
        ("shape=nine", "invalid shape"),
        ("seed=-1", "seed must be a whole number"),
        ("seed=abc", "seed must be a whole number"),
        ("seed=99999999999999999999999", "seed must be a whole number"),
        ("level=easy&level=hard", "given twice"),
        ("colour=blue", "unknown parameter 'colour'"),
        ("level", "malformed query string"),
    ],
)
def test_new_refuses_bad_queries(server: PlayServer, query: str, words: str) -> None:
    assert_refused(*request(server, "GET", f"/api/new?{query}"), 400, words)


def test_new_refuses_long_queries(server: PlayServer) -> None:
    assert_refused(*request(server, "GET", "/api/new?seed=" + "1" * 600), 414, "too long")


@pytest.mark.parametrize(
    "path", ["/nope", "/api", "/api/new/", "/static/", "/static/play.html", "/static/../api.py"]
)
def test_unknown_paths(server: PlayServer, path: str) -> None:
    assert_refused(*request(server, "GET", path), 404, "no such path")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/api/hint", "POST"),
        ("POST", "/", "GET, HEAD"),
        ("POST", "/api/new", "GET, HEAD"),
        ("PUT", "/api/hint", "POST"),
        ("DELETE", "/api/new", "GET, HEAD"),
        ("PATCH", "/", "GET, HEAD"),
        ("OPTIONS", "/api/hint", "POST"),
    ],
)
def test_wrong_methods(server: PlayServer, method: str, path: str, allow: str) -> None:
    body = b"{}" if method in ("POST", "PUT", "PATCH") else None
    status, headers, data = request(server, method, path, body, _JSON)
    assert_refused(status, headers, data, 405, "not allowed")
    assert headers["allow"] == allow


def test_unknown_methods_and_garbage(server: PlayServer) -> None:
    answer = raw(server, b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 405") and b'"error"' in answer
    for line in (b"GET / HTTP/1.1 and more", b"GET / HTTP/9.9", b"GET / HTTP/one"):
        answer = raw(server, line + b"\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer.startswith(b"HTTP/1.0 400") and b'{"error":' in answer, answer
    answer = raw(server, b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 414") and b'{"error":' in answer


def test_refuses_other_hosts(server: PlayServer) -> None:
    status, headers, body = request(server, "GET", "/", headers={"Host": "evil.example:80"})
    assert_refused(status, headers, body, 403, "Host")
    assert request(server, "GET", "/", headers={"Host": f"localhost:{server.port}"})[0] == 200


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)
_values = _json | st.lists(st.integers(-2, 600), min_size=81, max_size=81)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=_json
    | st.fixed_dictionaries(
        {"shape": _json | st.sampled_from(["3x3", "9", "2x2"]), "detail": _json | st.just(1)},
        optional={"puzzle": _values, "grid": _values, "marks": _values, "more": _json},
    )
)
def test_no_body_makes_a_server_error(server: PlayServer, body: object) -> None:
    status, data = post_json(server, body)
    assert status == 200 or 400 <= status < 500, data
    if status != 200:
        assert isinstance(data["error"], str) and data["error"]


# The command ------------------------------------------------------------------------------------


def test_cli_play_serves_and_opens_the_browser(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)

    original = PlayServer.serve_forever

    def answer_one(self: PlayServer, poll_interval: float = 0.5) -> None:
        thread = threading.Thread(target=original, args=(self,), daemon=True)
        thread.start()
        try:
            assert request(self, "GET", "/")[0] == 200  # answered while serving
        finally:
            self.shutdown()
            thread.join(5)
        raise KeyboardInterrupt

    monkeypatch.setattr(PlayServer, "serve_forever", answer_one)
    assert main(["play", "--port", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Playing at http://127.0.0.1:") and opened and opened[0] in out
    opened.clear()
    monkeypatch.setattr(PlayServer, "serve_forever", lambda self, poll_interval=0.5: None)
    with make_server(port=DEFAULT_PORT) if port_free(DEFAULT_PORT) else nullcontext():
        # The default port is taken (by us, or by someone else): any free one is used.
        assert main(["play", "--no-browser"]) == 0 and not opened
    assert f":{DEFAULT_PORT}/" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"), [(["--port", "70000"], "outside"), (["--timeout", "0"], "positive")]
)
def test_cli_play_refuses_bad_options(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--no-browser", *args]) == 2
    assert words in capsys.readouterr().err


def test_cli_play_reports_a_busy_port(
    server: PlayServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--no-browser", "--port", str(server.port)]) == 1
    assert "cannot listen" in capsys.readouterr().err
