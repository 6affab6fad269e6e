"""The commands that run the web service: ``serve`` and ``play``."""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from typing import Any, TextIO

from ..errors import SudokitError
from .args import (
    Fail,
    positive,
    seconds,
)


def serve_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    sv = sub.add_parser(
        "serve",
        help="the puzzle service: an HTTP API over the bank, and the play page",
        description="Serve the bank over HTTP (uvicorn): puzzles by level, ER range, "
        "techniques, shape and symmetry as random isomorphs with signed ids, their solutions, "
        "a daily puzzle, and solving, rating, explaining, hints and checks for any puzzle, "
        "with the play page at / and the API's docs at /api/v1/docs. CPU work runs in worker "
        'processes with a time limit. Needs the server extra: pip install "sudokit[server]".',
    )
    if not full:
        return
    sv.add_argument(
        "--db",
        help="the bank: a SQLite file or postgresql://... (default: $SUDOKIT_DB, else "
        "sudokit.db in the working folder; made when missing)",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    sv.add_argument("--workers", type=positive, default=1, help="server processes (default 1)")
    sv.add_argument(
        "--jobs",
        type=positive,
        help="worker processes for CPU work, per server process (default: the CPUs shared "
        "out among the server processes)",
    )
    sv.add_argument(
        "--time-limit",
        type=seconds,
        default=15.0,
        help="seconds a request may spend on CPU work before a 503 (default 15)",
    )
    sv.add_argument("--access-log", action="store_true", help="log every request")
    sv.set_defaults(func=_serve)


def play_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    w = sub.add_parser(
        "play",
        help="play in the browser (starts the puzzle service on this machine)",
        description="Start the puzzle service on this machine (as sudokit serve, on a "
        "loopback address) and open the play page in the browser: puzzles by level and size "
        "from the bank (made on the spot when it has none), the daily puzzle, pencil marks, "
        "undo, checking, and hints from the logic engine. Progress is kept in the browser. "
        'Stop with Ctrl+C. Needs the server extra: pip install "sudokit[server]".',
    )
    if not full:
        return
    w.add_argument(
        "--db", help="the bank (default: $SUDOKIT_DB, else sudokit.db in the working folder)"
    )
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    w.add_argument(
        "--port",
        type=int,
        help="port to listen on; 0: any free port (default: 8765, or any free port when it "
        "is taken; a fixed port keeps the browser's saved progress from one run to the next)",
    )
    w.add_argument("--no-browser", action="store_true", help="do not open the browser")
    w.add_argument(
        "--timeout",
        type=seconds,
        default=15.0,
        help="seconds to make a puzzle the bank lacks before giving up (default 15)",
    )
    w.set_defaults(func=_play)


#: The port ``sudokit play`` tries first: a fixed one keeps the page's origin, and so the
#: progress the browser saved for it, from one run to the next.
PLAY_PORT = 8765


def _listen(command: str, host: str, ports: list[int]) -> Any:
    """A socket bound to the first of ``ports`` that is free on ``host``."""
    from ..web import require_server

    require_server()  # MissingExtraError: main says which extra to install
    from ..web.run import bind

    for i, port in enumerate(ports):
        if not 0 <= port <= 65535:
            raise Fail(f"sudokit {command}: error: port {port} is outside 0-65535", 2)
        try:
            return bind(host, port)
        except OSError as e:
            if i + 1 == len(ports):
                why = e.strerror or e
                raise Fail(f"sudokit {command}: cannot listen on {host}:{port}: {why}") from None
    raise AssertionError("no port given")  # pragma: no cover


def _service(command: str, args: argparse.Namespace, ports: list[int], err: TextIO) -> Any:
    """The bank checked and a socket bound for ``serve`` and ``play``: (db, socket)."""
    from ..bank import Bank
    from ..web.run import is_loopback

    db = args.db or os.environ.get("SUDOKIT_DB") or "sudokit.db"
    try:
        Bank(db).close()  # made when missing; a bad URL or a foreign file fails here
    except SudokitError as e:
        raise Fail(f"sudokit {command}: {e}") from None
    sock = _listen(command, args.host, ports)
    if not is_loopback(sock.getsockname()[0]):
        err.write(
            f"sudokit {command}: warning: listening on {args.host}, reachable from other "
            "machines; put it behind a reverse proxy with TLS (see docs/serve.md)\n"
        )
    return db, sock


def _open(webbrowser: Any, where: str) -> None:
    webbrowser.open(where)


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    db, sock = _service("serve", args, [args.port], err)
    from ..web.run import run, url

    where = url(sock)
    sys.stdout.write(f"Serving {db} at {where} (API docs: {where}api/v1/docs; Ctrl+C stops)\n")
    sys.stdout.flush()
    with sock:
        run(
            sock,
            db=db,
            workers=args.workers,
            pool=args.jobs,
            time_limit=args.time_limit,
            log_level="info",
            access_log=args.access_log,
        )
    return 0


def _play(args: argparse.Namespace, err: TextIO) -> int:
    import webbrowser

    args.time_limit = args.timeout
    ports = [PLAY_PORT, 0] if args.port is None else [args.port]
    db, sock = _service("play", args, ports, err)
    from ..web.run import run, url

    where = url(sock)
    sys.stdout.write(f"Playing at {where} (Ctrl+C to stop)\n")
    sys.stdout.flush()
    with sock:
        run(
            sock,
            db=db,
            time_limit=args.timeout,
            log_level="warning",
            on_started=None if args.no_browser else partial(_open, webbrowser, where),
        )
    return 0
