"""What ``import sudokit`` and the command line load: only what the work at hand runs.

``sudokit solve FILE`` on a small file is mostly start-up, so the package imports its public
names on first use (PEP 562, ``sudokit/__init__.py``), the command line imports each command's
modules in its handler and declares only the invoked command's options, and the pools import
multiprocessing when they make one. Each check runs a fresh interpreter and reads its
``sys.modules``: adding an eager import of a heavy module back makes it fail.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib.metadata
import io
import subprocess
import sys
from pathlib import Path

import pytest

import sudokit
import sudokit.cli
from sudokit.cli import main, parser

SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit"

#: Modules no start-up of ``sudokit solve`` needs: the logic engine and rating, the generator,
#: canonical forms, the records' output, the version's metadata, the progress bar, the pools.
HEAVY = {
    "sudokit._canon",
    "sudokit._logic",
    "sudokit._version",
    "sudokit.canon",
    "sudokit.difficulty",
    "sudokit.generator",
    "sudokit.hunting",
    "sudokit.logic",
    "sudokit.output",
    "sudokit.rating",
    "concurrent.futures",
    "ctypes",
    "importlib.metadata",
    "multiprocessing",
    "tqdm",
    # Lighter, but together a few milliseconds more for each run of sudokit solve.
    "csv",
    "json",
    "pathlib",
}

#: The sudokit modules ``sudokit solve`` runs on 9x9 puzzle lines (at most: fewer is better).
SOLVE = {
    "sudokit",
    "sudokit._candidates",
    "sudokit._engine",
    "sudokit._grid",
    "sudokit._parallel",
    "sudokit._shape",
    "sudokit._text",
    "sudokit.batch",
    "sudokit.cli",
    "sudokit.cli.args",
    "sudokit.cli.solving",
    "sudokit.engine",
    "sudokit.errors",
    "sudokit.formats",  # a package: its modules are the one module it was
    "sudokit.formats.comments",
    "sudokit.formats.grid",
    "sudokit.formats.reading",
    "sudokit.formats.records",
}

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _loaded(code: str, *args: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (its output discarded)."""
    probe = (  # the probe itself imports nothing the interpreter has not loaded already
        "import sys, io\n"
        "real = sys.stdout\n"
        "sys.stdout = io.StringIO()\n"
        f"{code}\n"
        "real.write(repr(sorted(sys.modules)))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0, r.stderr
    return set(ast.literal_eval(r.stdout))


@functools.cache
def _bare() -> frozenset[str]:
    """What the interpreter loads before any of sudokit (a site's .pth files may import
    pathlib and more before the first line runs: not sudokit's doing)."""
    return frozenset(_loaded("pass"))


def _heavy(modules: set[str]) -> set[str]:
    return {
        m
        for m in modules - _bare()
        if m in HEAVY or m.split(".")[0] in HEAVY or m.startswith(tuple(f"{h}." for h in HEAVY))
    }


def test_import_sudokit_loads_no_module_of_its_own() -> None:
    loaded = _loaded("import sudokit")
    assert {m for m in loaded if m.startswith("sudokit")} == {"sudokit"}
    assert not _heavy(loaded)


def test_the_command_line_imports_light() -> None:
    loaded = _loaded("import sudokit.cli")
    assert {m for m in loaded if m.startswith("sudokit")} <= SOLVE
    assert not _heavy(loaded)


def test_sudokit_solve_loads_only_what_it_runs(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"{PUZZLE}\nnot a puzzle\n{PUZZLE} # a comment\n", encoding="utf-8")
    for argv in (["solve", str(path)], ["solve", "--count", str(path)]):
        loaded = _loaded(
            "from sudokit.cli import main\nstatus = main(sys.argv[1:])\nassert status == 1",
            *argv,
        )
        assert {m for m in loaded if m.startswith("sudokit")} <= SOLVE, argv
        assert not _heavy(loaded), argv


def test_version_is_read_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"sudokit {importlib.metadata.version('sudokit')}\n"
    assert sudokit.__version__ == importlib.metadata.version("sudokit")


def _type_checking_imports() -> dict[str, str]:
    """Each name ``sudokit/__init__.py`` imports for type checkers, with its module."""
    tree = ast.parse((SRC / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1
                for alias in imp.names:
                    found[alias.name] = f".{imp.module}"
    return found


def test_the_lazy_names_are_the_typed_names() -> None:
    homes = sudokit._HOMES
    assert homes == _type_checking_imports()
    assert sorted(homes) == sorted(sudokit.__all__)
    for name, home in homes.items():
        module = importlib.import_module(home, "sudokit")
        assert getattr(sudokit, name) is getattr(module, name), name
    assert set(sudokit.__all__) <= set(dir(sudokit))
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        sudokit.nonesuch  # type: ignore[attr-defined]  # noqa: B018


def test_hunt_is_the_function_and_its_module_is_hunting() -> None:
    loaded = _loaded(
        "import sudokit, sudokit.hunting\n"
        "assert sudokit.hunt is sudokit.hunting.hunt\n"
        "assert sudokit.Vicinity is sudokit.hunting.Vicinity"
    )
    assert "sudokit.hunting" in loaded


def test_the_former_module_path_warns_and_leaves_the_function_callable() -> None:
    _loaded(
        "import warnings, sudokit\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    from sudokit.hunt import Vicinity\n"
        "assert Vicinity is sudokit.hunting.Vicinity\n"
        "assert [str(w.message) for w in caught] == "
        "['the module sudokit.hunt is now sudokit.hunting'], caught\n"
        "assert all(w.category is DeprecationWarning for w in caught)\n"
        "assert all(w.filename == '<string>' for w in caught), [w.filename for w in caught]\n"
        "puzzle = '4.....8.5.3..........7......2.....6.....8.4......1'\n"
        "puzzle += '.......6.3.7.5..2.....1.4......'\n"
        "find = next(sudokit.hunt([puzzle], min_er=1.0, count=1, seed=1, per_seed=4))\n"
        "assert find.rating.er >= 1.0"
    )


def _help(command: str | None, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser(command).parse_args([*argv, "--help"])
    return out.getvalue()


COMMANDS = [
    "solve",
    "generate",
    "hunt",
    "explain",
    "rate",
    "hint",
    "techniques",
    "pdf",
    "svg",
    "serve",
    "play",
    "html",
    "canon",
    "bank",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_declared_alone_reads_as_in_the_whole_parser(command: str) -> None:
    assert _help(command, [command]) == _help(None, [command])
    if command == "bank":
        for sub in ("add", "fill", "query", "export", "stats"):
            assert _help(command, [command, sub]) == _help(None, [command, sub])


def test_every_command_is_declared_for_the_main_help() -> None:
    assert list(sudokit.cli.COMMANDS) == COMMANDS  # the table the parser declares them from
    text = _help("", [])
    for command in COMMANDS:
        assert f"    {command}" in text, command
