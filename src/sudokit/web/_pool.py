"""A pool of worker processes for the service's CPU work, driven from asyncio, where a job
that runs past its deadline is killed (its process with it) and replaced.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: it cannot stop one job. A hung
rating would hold its process until it ended, and after enough of them every quick request
would queue behind slow ones. Here each worker is one process with one socket pair; a job
takes an idle worker (waiting, within its deadline, for one to come free), sends ``(function,
args)`` and waits for the answer without blocking the event loop. At the
deadline the worker is killed and a new one started in the background; a worker that dies
on its own is replaced the same way. Workers run at a lower CPU priority (``nice``) than the
server, so on a busy machine the event loop and the quick requests go first.

Messages are **frames**: an 8-byte length, then that many bytes of pickle. The worker's end
of the socket blocks; the server's end is non-blocking and read by the event loop
(``sock_recv_into``) as the bytes come, until the frame is whole. Reading with
:meth:`multiprocessing.connection.Connection.recv` once the pipe turned readable was the road
not taken: it assumes a blocking descriptor, but uvloop's ``add_reader`` makes the descriptor
non-blocking (asyncio's own loop leaves it alone), so an answer not wholly written when the
reader woke (the explanation of a hard puzzle, some 30 KB and up) broke off mid-message with
``BlockingIOError`` and became a 500.

Errors come back as values, not pickled exceptions: a :class:`RequestError` keeps its status
and message; a bug in a job is logged by the parent with the worker's traceback, and a
worker lost mid-job (killed, crashed) with the parent's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

from .api import RequestError

__all__ = ["JobFailed", "JobTimeout", "WorkerPool", "default_size"]

_log = logging.getLogger("sudokit.web")


class JobTimeout(Exception):
    """A job was not done by its deadline (it was waiting for a worker, or was killed)."""


class JobFailed(Exception):
    """A job raised an unexpected error, or its worker died."""


def default_size() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_HEADER = struct.Struct("!Q")


def _frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _recv_exactly(sock: socket.socket, size: int) -> bytes:
    """``size`` bytes from a blocking socket; EOFError when it closes first."""
    buf = bytearray()
    while len(buf) < size:
        chunk = sock.recv(min(size - len(buf), 1 << 20))
        if not chunk:
            raise EOFError("the socket closed mid-message")
        buf += chunk
    return bytes(buf)


def _serve(sock: socket.socket, nice: int) -> None:
    """A worker's life: answer jobs until the socket closes."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    sock.setblocking(True)
    while True:
        try:
            (size,) = _HEADER.unpack(_recv_exactly(sock, _HEADER.size))
            fn, args = pickle.loads(_recv_exactly(sock, size))
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer: tuple[Any, ...] = ("ok", fn(*args))
        except RequestError as e:
            answer = ("request", str(e), e.status)
        except TimeoutError as e:
            answer = ("timeout", str(e))
        except Exception as e:
            answer = ("bug", f"{type(e).__name__}: {e}", traceback.format_exc())
        try:
            data = _frame(answer)
        except Exception as e:  # an answer that does not pickle is a bug too
            data = _frame(("bug", f"{type(e).__name__}: {e}", traceback.format_exc()))
        try:
            sock.sendall(data)
        except OSError:
            return


class _Worker:
    def __init__(self, process: BaseProcess, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock  # non-blocking: read and written by the event loop

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
        with contextlib.suppress(OSError):
            self.sock.close()
        # Reap it in the background (join would wait here, if only a moment).
        with contextlib.suppress(OSError, ValueError, AssertionError):
            self.process.join(0)


class WorkerPool:
    """``size`` worker processes; :meth:`run` a function in one of them, within a deadline.

    Start with :meth:`start` (on the event loop that will use the pool), stop with
    :meth:`close`.
    """

    def __init__(self, size: int | None = None, *, nice: int = 10) -> None:
        self.size = size or default_size()
        if self.size < 1:
            raise ValueError(f"a pool needs at least one worker, got {size}")
        self.nice = nice
        # forkserver: a clean parent for the workers (the server has threads), and new
        # workers start in milliseconds with sudokit already imported.
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["sudokit.web.work"])
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: set[_Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self.killed = 0  # workers killed at a deadline (for tests and stats)

    def _spawn(self) -> _Worker:
        parent, child = socket.socketpair()
        try:
            process = self._ctx.Process(
                target=_serve, args=(child, self.nice), daemon=True, name="sudokit-worker"
            )
            process.start()
        finally:
            child.close()
        parent.setblocking(False)
        return _Worker(process, parent)

    async def start(self) -> None:
        workers = await asyncio.to_thread(lambda: [self._spawn() for _ in range(self.size)])
        for w in workers:
            self._all.add(w)
            self._idle.put_nowait(w)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for w in list(self._all):
            w.kill()
        self._all.clear()

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self._all.discard(worker)
        if self._closed:
            return

        async def fresh() -> None:
            w = await asyncio.to_thread(self._spawn)
            if self._closed:
                w.kill()
                return
            self._all.add(w)
            self._idle.put_nowait(w)

        task = asyncio.get_running_loop().create_task(fresh())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self, fn: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """``fn(*args)`` in a worker, its answer back; at most ``timeout`` seconds from now,
        waiting for a free worker included. Raises :class:`JobTimeout` past it,
        :class:`RequestError` as the job raised it, :class:`JobFailed` for a bug or a lost
        worker."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                worker = await asyncio.wait_for(self._idle.get(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise JobTimeout("every worker was busy until the time limit") from None
            if worker.process.is_alive():
                break
            # It died while idle (killed from outside): nothing of this job was sent, so
            # the job waits for the next worker, or the replacement, instead of failing.
            _log.warning("a worker process died while idle (exit code %s)", worker.process.exitcode)
            self._replace(worker)
        try:
            await loop.sock_sendall(worker.sock, _frame((fn, args)))
            answer = await asyncio.wait_for(
                self._receive(worker.sock), max(0.0, deadline - loop.time())
            )
        except TimeoutError:
            self.killed += 1
            self._replace(worker)
            raise JobTimeout("the work ran past the time limit") from None
        except (EOFError, OSError) as e:
            self._replace(worker)
            # Logged here, with the traceback, once: the handler of JobFailed only answers.
            name = getattr(fn, "__qualname__", repr(fn))
            _log.error(
                "a worker process died during %s (exit code %s)",
                name,
                worker.process.exitcode,
                exc_info=True,
            )
            raise JobFailed(f"a worker process died ({type(e).__name__})") from None
        except BaseException:  # cancelled (the server stops): the job may still run
            self._replace(worker)
            raise
        self._idle.put_nowait(worker)
        kind = answer[0]
        if kind == "ok":
            return answer[1]
        if kind == "request":
            raise RequestError(answer[1], answer[2])
        if kind == "timeout":
            raise JobTimeout(answer[1])
        _log.error("a job failed in a worker: %s\n%s", answer[1], answer[2])
        raise JobFailed(answer[1])

    @staticmethod
    async def _receive(sock: socket.socket) -> Any:
        """The next frame's object from a worker, read as its bytes come (see the module's
        docstring); EOFError when the worker closes its end first."""
        loop = asyncio.get_running_loop()

        async def exactly(size: int) -> bytearray:
            buf = bytearray(size)
            view = memoryview(buf)
            got = 0
            while got < size:
                n = await loop.sock_recv_into(sock, view[got:])
                if n == 0:
                    raise EOFError("a worker closed its socket mid-message")
                got += n
            return buf

        (size,) = _HEADER.unpack(await exactly(_HEADER.size))
        return pickle.loads(await exactly(size))
