"""Chunks of work as tasks on a Dask cluster: the other backend of :mod:`sudokit._parallel`.

Terms:

- An **address** names the cluster: ``local`` (a cluster of this machine, a worker process a
  core, started for the run and stopped after it), ``local:N`` (N worker processes), or a
  Dask scheduler's address (``tcp://host:8786``, ``tls://…``; ``host:8786`` means tcp).
- The **width** of a cluster is the number of tasks it runs at once: its workers' threads
  when the run starts.
- A **task** is one call ``fn(item)`` of :func:`ordered_map`: the same chunk functions the
  process pool runs, sent to the scheduler with ``Client.submit``. A task is *pure*: its key
  is a hash of the function and the item (a generator's chunk holds its seed and its range of
  indexes), so a task submitted twice is run once and gives the same result.

Faults: a worker lost mid-task (killed, its machine gone) has its tasks run again elsewhere by
the scheduler (up to ``distributed.scheduler.allowed-failures`` times, 3 by default); an error
raised by ``fn`` is a result, raised here as the process pool raises it, not retried.

Dask (``pip install "sudokit[cluster]"``) is imported by the functions that need it, never at
import time: without an address, sudokit never imports it.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from ._parallel import default_jobs
from .errors import ClusterError, MissingExtraError

__all__ = [
    "ClusterError",
    "Connection",
    "check",
    "connect",
    "connected",
    "ordered_map",
    "parse_address",
    "width",
]

T = TypeVar("T")
R = TypeVar("R")

#: Tasks in flight per unit of width: enough that no worker waits for the client between
#: tasks (the scheduler's round trip is milliseconds), few enough that the client's memory
#: stays flat however many tasks a run has.
AHEAD = 8

#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 5.0

#: Seconds to wait for a first worker to join a scheduler that has none yet.
WORKER_TIMEOUT = 60.0

#: The schemes of the addresses Dask's client connects to.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")

_HOST_PORT = re.compile(r"(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})")


def _missing() -> MissingExtraError:
    return MissingExtraError("cluster", "distributed", feature="--cluster")


def parse_address(address: str) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local[:N]``, else ``(scheduler address, None)``.
    ClusterError names a malformed address: a scheduler's address is ``HOST:PORT``, or
    ``SCHEME://HOST:PORT`` with one of Dask's :data:`SCHEMES`."""
    text = address.strip()
    if text == "local":
        return "local", None
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(
                f"bad cluster address {address!r}: expected local:N with N a number of worker "
                "processes, at least 1"
            )
        return "local", int(count)
    scheme, sep, rest = text.rpartition("://")
    if sep and scheme.lower() not in SCHEMES:
        raise ClusterError(
            f"bad cluster address {address!r}: unknown address scheme {scheme!r}; expected "
            f"one of {', '.join(SCHEMES)}"
        )
    if scheme.lower() == "inproc" and rest:
        return text, None
    m = _HOST_PORT.fullmatch(rest)
    if m is None or int(m.group(1)) > 65535:
        raise ClusterError(
            f"bad cluster address {address!r}: expected local, local:N or a scheduler's "
            "address, HOST:PORT or tcp://HOST:PORT (such as tcp://host:8786)"
        )
    return text, None


def check(address: str) -> None:
    """ClusterError for a malformed address, MissingExtraError when Dask is not installed:
    what a command can say before it starts (without importing Dask, nor reaching the
    scheduler)."""
    parse_address(address)
    if importlib.util.find_spec("distributed") is None:
        raise _missing()


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise _missing() from None
    return distributed


@dataclass(frozen=True)
class Connection:
    """A client of the cluster at ``address`` (``client``: a ``distributed.Client``), for
    several :func:`ordered_map` calls in a row (a hunt's rounds): one connection, and for
    ``local`` one cluster, for the whole run."""

    address: str
    client: Any


@contextmanager
def connect(address: str, *, timeout: float | None = None) -> Iterator[Connection]:
    """A :class:`Connection` to the cluster at ``address``, closed afterwards (with the
    cluster itself for ``local``). MissingExtraError when Dask is missing; ClusterError when
    the address is bad, or no scheduler answers within ``timeout`` seconds (default
    :data:`CONNECT_TIMEOUT`)."""
    where, count = parse_address(address)
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    distributed = _dask()
    cluster = None
    try:
        if where == "local":
            cluster = distributed.LocalCluster(
                n_workers=count or default_jobs(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never a clash with another run
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(cluster, timeout=timeout)
        else:
            client = distributed.Client(where, timeout=timeout)
    except ValueError as e:  # an unknown scheme, a malformed host or port
        raise ClusterError(f"bad cluster address {address!r}: {e}") from None
    except OSError as e:  # nothing answered: timed out, refused
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {e}") from None
    try:
        yield Connection(address, client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def connected(where: str | Connection) -> Iterator[Connection]:
    """``where`` itself when it is a :class:`Connection`; else a connection to that address,
    for the ``with`` block."""
    if isinstance(where, Connection):
        yield where
        return
    with connect(where) as connection:
        yield connection


def width(client: Any, *, timeout: float | None = None) -> int:
    """The number of tasks ``client``'s cluster runs at once (its workers' threads), waiting
    up to ``timeout`` seconds for a first worker to join (workers of a batch system often come
    after the client; default :data:`WORKER_TIMEOUT`)."""
    timeout = WORKER_TIMEOUT if timeout is None else timeout
    threads: int = sum(client.nthreads().values())
    if threads == 0:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"no Dask worker joined the scheduler at {client.scheduler.address} within "
                f"{timeout:g} s"
            ) from None
        threads = sum(client.nthreads().values())
    return max(1, threads)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T] | Callable[[int], Iterable[T]],
    *,
    address: str | Connection,
) -> Generator[R, None, None]:
    """Yield ``fn(item)`` for every item, in order, each call a task on the cluster at
    ``address`` (or of a :class:`Connection`, kept open), with at most :data:`AHEAD` tasks in
    flight per unit of its width. ``items``
    may be a function of the width giving the items (so chunk sizes can fit the cluster).
    ``fn`` and the items must pickle (cloudpickle: a module-level function, a partial of one).
    When the caller stops early (``close()``, or an error from ``fn``), the tasks in flight
    are cancelled."""
    with connected(address) as connection:
        client, where = connection.client, connection.address
        wide = width(client)
        work = items(wide) if callable(items) else items
        pending: deque[Any] = deque()
        finished = False
        try:
            for item in work:
                pending.append(client.submit(fn, item, pure=True))
                if len(pending) >= AHEAD * wide:
                    yield _result(pending.popleft(), where)
            while pending:
                yield _result(pending.popleft(), where)
            finished = True
        finally:
            if not finished and pending:
                client.cancel(list(pending), force=True)


def _result(future: Any, address: str) -> Any:
    """The result of a task; what ``fn`` raised is raised as it is, the cluster's failures
    (the scheduler gone, a task that killed every worker it ran on) as ClusterError."""
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker as e:
        raise ClusterError(
            f"the Dask cluster at {address!r} lost every worker a task ran on: {e}"
        ) from None
    except (CancelledError, CommClosedError) as e:
        raise ClusterError(
            f"lost the Dask scheduler at {address!r}: {e or type(e).__name__}"
        ) from None


def worker_pids(client: Any) -> dict[str, int]:
    """The process id of each worker of ``client``'s cluster, by worker address (tests and
    benchmarks kill one to see its tasks rerun)."""
    return dict(client.run(os.getpid))
