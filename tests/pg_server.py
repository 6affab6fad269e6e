"""A throw-away PostgreSQL server for tests and benchmarks (no pytest needed).

:func:`throwaway_postgres` finds ``initdb``/``pg_ctl`` (on PATH, or in
/usr/lib/postgresql/*/bin), makes a cluster in a temporary folder, runs it as an unprivileged
user (``sudokit-test``, made with ``useradd`` when running as root and absent) on a free
loopback port with its socket in that folder, and stops and removes it all on exit. It raises
:class:`Unavailable` (saying why) where PostgreSQL or psycopg is missing.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_USER = "sudokit-test"


class Unavailable(RuntimeError):
    """PostgreSQL or psycopg is not installed here."""


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    admin: str  # URL of the maintenance database

    def url(self, database: str) -> str:
        return f"postgresql://postgres@{self.host}:{self.port}/{database}"


def _bindir() -> Path | None:
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> tuple[list[str], int | None, int | None]:
    """The command prefix that runs a program as an unprivileged user, and its uid and gid
    (None when this process is not root and runs them itself)."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        entry = pwd.getpwnam(_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", _USER],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(_USER)
    return ["runuser", "-u", _USER, "--"], entry.pw_uid, entry.pw_gid


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[PostgresServer]:
    try:
        import psycopg
    except ImportError:
        raise Unavailable("psycopg is not installed") from None
    bindir = _bindir()
    if bindir is None:
        raise Unavailable(
            "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)"
        )
    prefix, uid, gid = _as_user()
    home = Path(tempfile.mkdtemp(prefix="sudokit-pg-"))
    data, log = home / "data", home / "server.log"
    started = False
    try:
        if uid is not None and gid is not None:
            os.chown(home, uid, gid)
        subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres"]
            + ["--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            check=True,
            capture_output=True,
        )
        port = _free_port()
        options = (
            f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=50"
        )
        run = subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log)]
            + ["-w", "-t", "60", "start"],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            text = log.read_text() if log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {run.stderr}{run.stdout}\n{text}")
        started = True
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:  # pg_ctl -w waits, but be sure the TCP socket answers
            try:
                psycopg.connect(admin, connect_timeout=5).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield PostgresServer("127.0.0.1", port, admin)
    finally:
        if started:
            subprocess.run(
                [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
            )
        shutil.rmtree(home, ignore_errors=True)
