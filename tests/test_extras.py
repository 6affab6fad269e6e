"""A feature whose optional extra is not installed says which extra to install, with one exit
status (1) and no traceback, whatever the command: a PostgreSQL bank without ``[postgres]``
(``bank stats``, ``bank add``, ``serve``), the service without ``[server]``, ``--cluster``
without ``[cluster]``. A malformed option value is a usage error (2) instead.

Each case runs ``sudokit`` as a process in which the extra's module cannot be found: a
``sitecustomize`` on ``PYTHONPATH`` puts a path finder before Python's own that finds nothing
for the blocked names, as if the module were not installed (``importlib.util.find_spec``
answers None, an import raises ModuleNotFoundError)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

_BLOCKER = """\
import os
import sys
from importlib.machinery import PathFinder

_BLOCKED = tuple(n for n in os.environ.get("SUDOKIT_TEST_BLOCK", "").split(",") if n)


class _Blocked(PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.partition(".")[0] in _BLOCKED:
            return None
        return PathFinder.find_spec(name, path, target)


sys.meta_path[:] = [_Blocked if f is PathFinder else f for f in sys.meta_path]
"""

_PG = "postgresql://user:secret@127.0.0.1:1/puzzles"


def _sudokit(
    tmp_path: Path, blocked: str, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    shim = tmp_path / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "sitecustomize.py").write_text(_BLOCKER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(shim), env.get("PYTHONPATH", "")])
    env["SUDOKIT_TEST_BLOCK"] = blocked
    env.pop("SUDOKIT_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )


def test_the_shim_hides_the_module(tmp_path: Path) -> None:
    (tmp_path / "shim").mkdir()
    (tmp_path / "shim" / "sitecustomize.py").write_text(_BLOCKER)
    r = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('psycopg'))"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "shim"), "SUDOKIT_TEST_BLOCK": "psycopg"},
        timeout=60,
    )
    assert r.stdout == "None\n", r.stderr


POSTGRES = 'a PostgreSQL bank needs the [postgres] extra: pip install "sudokit[postgres]"'
SERVER = 'the service needs the [server] extra: pip install "sudokit[server]"'
CLUSTER = '--cluster needs the [cluster] extra: pip install "sudokit[cluster]"'
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n"


@pytest.mark.parametrize(
    "blocked, args, says",
    [
        ("psycopg", ["bank", "stats", "--db", _PG], f"sudokit bank: {POSTGRES}"),
        ("psycopg", ["bank", "--db", _PG, "add", "-j", "1"], f"sudokit bank: {POSTGRES}"),
        ("psycopg", ["bank", "query", "--db", _PG], f"sudokit bank: {POSTGRES}"),
        ("psycopg", ["serve", "--db", _PG, "--port", "0"], f"sudokit serve: {POSTGRES}"),
        ("fastapi", ["serve", "--db", "b.db", "--port", "0"], f"sudokit serve: {SERVER}"),
        ("uvicorn", ["play", "--db", "b.db", "--no-browser"], f"sudokit play: {SERVER}"),
        (
            "distributed",
            ["generate", "-n", "2", "--cluster", "local"],
            f"sudokit generate: {CLUSTER}",
        ),
        (
            "distributed",
            ["bank", "--db", "b.db", "fill", "-n", "1", "--cluster", "local:2"],
            f"sudokit bank: {CLUSTER}",
        ),
    ],
)
def test_a_missing_extra_is_named_with_status_1(
    tmp_path: Path, blocked: str, args: list[str], says: str
) -> None:
    r = _sudokit(tmp_path, blocked, *args, stdin=PUZZLE)
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [f"{says} ({blocked} is not installed)"]
    assert r.returncode == 1
    assert r.stdout == ""


@pytest.mark.parametrize("address", ["local:0", "bogus", "gopher://host:1", "tcp://h:port", ""])
def test_a_malformed_cluster_address_is_a_usage_error(tmp_path: Path, address: str) -> None:
    # Dask is not even needed to say so: the address is checked first.
    r = _sudokit(tmp_path, "", "generate", "-n", "2", "--cluster", address)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"sudokit generate: error: bad cluster address {address!r}")
    assert len(r.stderr.splitlines()) == 1


def test_the_library_raises_one_error_for_a_missing_extra() -> None:
    import pickle

    from sudokit.errors import MissingExtraError, SudokitError

    e = MissingExtraError("postgres", "psycopg", feature="a PostgreSQL bank")
    assert isinstance(e, SudokitError) and isinstance(e, ImportError)
    assert (e.extra, e.module, e.name) == ("postgres", "psycopg", "psycopg")
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), str(back), back.extra) == (MissingExtraError, str(e), "postgres")
