"""The play server: a small local HTTP server for the play page (stdlib ``http.server``).

Routes (anything else is a 404; a known path with another method is a 405):

=======  ===================  ==========================================================
GET      ``/``                the play page
GET      ``/static/NAME``     the page's stylesheet and script (:data:`page.ASSETS`)
GET      ``/api/new``         a new puzzle: ``?level=easy&shape=9[&seed=N]``
POST     ``/api/hint``        a hint for a position (JSON body, see :func:`api.hint_request`)
=======  ===================  ==========================================================

HEAD works wherever GET does. Every error is JSON, ``{"error": "what was wrong"}``, with a 4xx
status for bad requests; a bug in the server answers 500 with a short message, never a
traceback. Requests are checked for method, path, query values, body size (at most
:data:`MAX_BODY` bytes), content type and JSON shape. The server binds ``127.0.0.1`` unless
told otherwise; on a loopback address it also refuses requests whose ``Host`` header names
another host (a defence against DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

from . import page
from .api import RequestError, hint_request, new_puzzle

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "MAX_BODY", "PlayServer", "make_server"]

DEFAULT_HOST = "127.0.0.1"
#: The port ``sudokit play`` tries first: a fixed one keeps the page's origin, and so the
#: progress the browser saved for it, from one run to the next.
DEFAULT_PORT = 8765
#: The largest request body accepted, in bytes (a 16x16 hint request is about 3 KiB).
MAX_BODY = 64 * 1024
_MAX_QUERY = 512
_MAX_DRAIN = 1024 * 1024

_log = logging.getLogger("sudokit.web")

_GET_ROUTES = {"/", "/index.html", "/api/new"} | {f"/static/{name}" for name in page.ASSETS}
_POST_ROUTES = {"/api/hint"}

_PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class PlayServer(ThreadingHTTPServer):
    """A threading HTTP server that serves the play page; ``url`` is where to open it.

    ``timeout_new`` is how long ``/api/new`` may look for a puzzle of the asked level.
    """

    daemon_threads = True
    block_on_close = False

    def __init__(self, host: str, port: int, *, timeout_new: float = 15.0) -> None:
        self.timeout_new = timeout_new
        self._page = page.served_page().encode("utf-8")
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), PlayHandler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def host(self) -> str:
        return str(self.server_address[0])

    @property
    def url(self) -> str:
        host = self.host
        if host in ("0.0.0.0", "::"):
            host = DEFAULT_HOST
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:  # pragma: no cover - server_address is numeric
            return False

    def start(self) -> threading.Thread:
        """Serve in a daemon thread (for tests and embedding); stop with ``shutdown()``."""
        thread = threading.Thread(target=self.serve_forever, name="sudokit-play", daemon=True)
        thread.start()
        return thread

    @contextmanager
    def serving(self) -> Iterator[Self]:
        """Serve in a daemon thread for the ``with`` block, then stop and close the server."""
        thread = self.start()
        try:
            yield self
        finally:
            self.shutdown()
            self.server_close()
            thread.join(5)


def make_server(
    host: str = DEFAULT_HOST, port: int = 0, *, timeout_new: float = 15.0
) -> PlayServer:
    """A play server bound to ``host:port`` (port 0: any free port; see ``server.port``).

    Call ``serve_forever()`` (or ``start()`` for a background thread), then ``shutdown()``
    and ``server_close()``.
    """
    return PlayServer(host, port, timeout_new=timeout_new)


class PlayHandler(BaseHTTPRequestHandler):
    """Answers one request; every answer has a body and a Content-Length."""

    server: PlayServer
    server_version = "sudokit-play"
    sys_version = ""
    timeout = 30  # seconds a client may take to send its request
    # Answers to unreadable request lines carry a status line too (no HTTP/0.9 here).
    default_request_version = "HTTP/1.0"

    # Plumbing.

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        _log.debug("%s " + format, self.address_string(), *args)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's errors (bad request lines, unknown methods) as JSON too."""
        if code == HTTPStatus.NOT_IMPLEMENTED:  # an unknown method
            code = HTTPStatus.METHOD_NOT_ALLOWED
            message = f"method {self.command!r:.20} is not allowed"
        elif code == HTTPStatus.HTTP_VERSION_NOT_SUPPORTED:  # bad input: a 4xx like the rest
            code = HTTPStatus.BAD_REQUEST
        self.close_connection = True
        self._json(code, {"error": message or HTTPStatus(code).phrase})

    def _send(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: object, **headers: str) -> None:
        body = json.dumps(data, separators=(",", ":")).encode("utf-8")
        self._send(
            status, body, "application/json; charset=utf-8", Cache_Control="no-store", **headers
        )

    def _fail(self, error: RequestError) -> None:
        self.close_connection = True
        headers = {}
        if error.status == HTTPStatus.METHOD_NOT_ALLOWED:
            headers["Allow"] = "GET, HEAD" if self._path() in _GET_ROUTES else "POST"
        self._json(error.status, {"error": str(error)}, **headers)

    def _path(self) -> str:
        return urlsplit(self.path).path

    def _run(self, handle: Any) -> None:
        try:
            self._check_host()
            handle()
        except RequestError as e:
            self._fail(e)
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:  # a bug: log it, tell the client little
            _log.exception("error answering %s %s", self.command, self.path)
            self.close_connection = True
            self._json(500, {"error": "internal error in the sudokit server"})

    def _check_host(self) -> None:
        if not self.server.loopback():
            return
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in ("127.0.0.1", "localhost", "[::1]", "") and not name.startswith("127."):
            raise RequestError(f"unexpected Host header {host!r:.60}", 403)

    # Methods.

    def do_GET(self) -> None:
        self._run(self._get)

    def do_HEAD(self) -> None:
        self._run(self._get)

    def do_POST(self) -> None:
        self._run(self._post)

    def _not_allowed(self) -> None:
        path = self._path()
        if path not in _GET_ROUTES and path not in _POST_ROUTES:
            raise RequestError(f"no such path {path!r:.80}", 404)
        raise RequestError(f"method {self.command} is not allowed on {path}", 405)

    def do_PUT(self) -> None:
        self._run(self._not_allowed)

    def do_DELETE(self) -> None:
        self._run(self._not_allowed)

    def do_PATCH(self) -> None:
        self._run(self._not_allowed)

    def do_OPTIONS(self) -> None:
        self._run(self._not_allowed)

    # Routes.

    def _get(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        if path in _POST_ROUTES:
            raise RequestError(f"method {self.command} is not allowed on {path}", 405)
        if path in ("/", "/index.html"):
            self._send(
                200,
                self.server._page,
                "text/html; charset=utf-8",
                Content_Security_Policy=_PAGE_POLICY,
                Cache_Control="no-cache",
            )
        elif path.startswith("/static/") and path[8:] in page.ASSETS:
            name = path[8:]
            self._send(200, page.asset(name), page.ASSETS[name], Cache_Control="no-cache")
        elif path == "/api/new":
            self._json(200, new_puzzle(self._query(parts.query), timeout=self.server.timeout_new))
        else:
            raise RequestError(f"no such path {path!r:.80}", 404)

    def _query(self, text: str) -> dict[str, str]:
        if len(text) > _MAX_QUERY:
            raise RequestError(f"query string too long ({len(text)} characters)", 414)
        try:
            pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text))
        except ValueError:
            raise RequestError(f"malformed query string {text!r:.80}") from None
        query: dict[str, str] = {}
        for key, value in pairs:
            if key in query:
                raise RequestError(f"parameter {key!r:.40} given twice")
            query[key] = value
        return query

    def _post(self) -> None:
        path = self._path()
        if path not in _POST_ROUTES:
            self._not_allowed()
        if urlsplit(self.path).query:
            raise RequestError("the hint endpoint takes no query string")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise RequestError(
                f"the body must be JSON (Content-Type: application/json), got {kind or 'none'!r}",
                415,
            )
        if self.headers.get("Transfer-Encoding"):
            raise RequestError("send the body with a Content-Length, not chunked", 411)
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise RequestError("a Content-Length header is required", 411)
        if not length_text.strip().isdecimal():
            raise RequestError(f"bad Content-Length {length_text!r:.40}")
        length = int(length_text)
        if length > MAX_BODY:
            self._drain(length)
            raise RequestError(f"body too large: {length} bytes, at most {MAX_BODY}", 413)
        raw = self.rfile.read(length)
        if len(raw) != length:
            raise RequestError(f"body ended after {len(raw)} of {length} bytes")
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise RequestError("the body is not UTF-8 text") from None
        except json.JSONDecodeError as e:
            where = f"line {e.lineno} column {e.colno}"
            raise RequestError(f"malformed JSON: {e.msg} at {where}") from None
        except (ValueError, RecursionError) as e:  # e.g. a number of 5000 digits, deep nesting
            raise RequestError(f"unreadable JSON: {str(e)[:80] or type(e).__name__}") from None
        self._json(200, hint_request(body))

    def _drain(self, length: int) -> None:
        """Read and drop a refused body that is not huge, so the client gets to read our
        answer (closing a socket with unread data resets the connection)."""
        if length > _MAX_DRAIN:
            return
        self.connection.settimeout(2.0)
        left = length
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)
