"""Running the service under uvicorn: bind a socket, start one or more server processes.

``sudokit serve`` and ``sudokit play`` are thin layers over :func:`bind` and :func:`run`;
the settings reach each uvicorn worker process through the environment (see
:func:`sudokit.web.app.from_env`), since uvicorn starts its workers from an import string.
Binding the socket here, before uvicorn starts, is what lets ``play`` fall back to a free port
and both commands say plainly what went wrong when an address is taken.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "LOOPBACK_NAMES",
    "bind",
    "is_loopback",
    "run",
    "spread",
    "url",
]

DEFAULT_HOST = "127.0.0.1"
#: The port ``sudokit serve`` listens on by default.
DEFAULT_PORT = 8000
#: The ``Host`` header names a service bound to a loopback address accepts (a defence
#: against DNS rebinding: a page from elsewhere cannot reach it under another name).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free one). Raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return _listener(family, (host.strip("[]"), port))


def _listener(family: int, address: Any, *, share: bool = False) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if share:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def spread(sock: socket.socket, count: int) -> list[socket.socket]:
    """``count`` listening sockets on ``sock``'s address, one for each server process, on
    Linux (SO_REUSEPORT: the kernel spreads new connections evenly over the sockets);
    elsewhere, or for one process, ``[sock]``, which every process shares.

    With one shared socket the process that wakes first accepts every connection waiting
    (the event loop takes them all at once): 50 connections opened together went 40 to 10
    or 50 to 0, and the busy process's queue set the tail latency. ``sock`` (bound without
    SO_REUSEPORT, so the port was free: no other server shares it) is closed and its address
    bound again by the new sockets, so the caller closes nothing but them."""
    if count < 2 or not sys.platform.startswith("linux"):
        return [sock]
    family, address = sock.family, sock.getsockname()
    sock.close()
    out: list[socket.socket] = []
    try:
        for _ in range(count):
            out.append(_listener(family, address, share=True))
    except OSError:
        for s in out:
            s.close()
        raise
    return out


def url(sock: socket.socket) -> str:
    """The address to open for a bound socket (``0.0.0.0`` and ``::`` shown as loopback)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = DEFAULT_HOST
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def run(
    sock: socket.socket,
    *,
    db: str,
    workers: int = 1,
    pool: int | None = None,
    time_limit: float | None = None,
    log_level: str = "info",
    access_log: bool = False,
    on_started: Callable[[], None] | None = None,
) -> None:
    """Serve the bank ``db`` on ``sock`` until interrupted: ``workers`` uvicorn processes,
    each with a pool of ``pool`` worker processes for CPU work (None: one per CPU, shared
    out among the server processes). A loopback socket accepts only loopback ``Host``
    names. ``on_started`` is called (in another thread) once a single server is up."""
    import uvicorn

    host = sock.getsockname()[0]
    os.environ["SUDOKIT_DB"] = db
    if pool is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        pool = max(1, cpus // max(1, workers))
    os.environ["SUDOKIT_POOL"] = str(pool)
    if time_limit is not None:
        os.environ["SUDOKIT_TIME_LIMIT"] = str(time_limit)
    if is_loopback(host):
        os.environ["SUDOKIT_HOSTS"] = ",".join(LOOPBACK_NAMES)
    else:
        os.environ.pop("SUDOKIT_HOSTS", None)
    config = uvicorn.Config(
        "sudokit.web.app:from_env",
        factory=True,
        workers=workers,
        log_level=log_level,
        access_log=access_log,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    if workers > 1:
        listeners = spread(sock, workers)
        try:
            _supervisor(config, listeners).run()
        finally:
            for s in listeners:
                s.close()
        return
    if on_started is not None:

        def wait() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                on_started()

        threading.Thread(target=wait, daemon=True).start()
    server.run(sockets=[sock])


def _supervisor(config: Any, listeners: list[socket.socket]) -> Any:
    """uvicorn's supervisor of worker processes (health checks, restarts, signals), each
    worker started on a listening socket of its own when there is one for each (see
    :func:`spread`). A worker uvicorn starts again later (after a crash, on SIGHUP or
    SIGTTIN) listens on all of them: every socket stays served, only less evenly."""
    from uvicorn.supervisors import Multiprocess
    from uvicorn.supervisors.multiprocess import Process

    class Supervisor(Multiprocess):
        def init_processes(self) -> None:
            if len(self.sockets) != self.processes_num:
                super().init_processes()
                return
            for sock in self.sockets:
                process = Process(self.config, [sock])
                process.start()
                self.processes.append(process)

    return Supervisor(config, sockets=listeners)
