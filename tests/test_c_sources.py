"""The logic engine's C sources stay rooms a reader can hold.

Each technique family of the logic engine, and each part of the chain engine, is its own file
(the extension is still one translation unit: ``_logic.c`` includes them), and every file stays
under about 800 lines, the same bound as the Python modules'.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit"
C_SOURCES = [
    SRC / "_logic.c",
    *sorted(p for p in (SRC / "_clogic").rglob("*") if p.suffix in {".c", ".h"}),
    # the exact engine's newer parts, included by _engine.c the same way
    *sorted(p for p in (SRC / "_cengine").rglob("*") if p.suffix in {".c", ".h"}),
]
MAX_LINES = 800


def test_the_sources_are_found() -> None:
    names = {p.relative_to(SRC).as_posix() for p in C_SOURCES}
    assert {"_logic.c", "_clogic/geometry.c", "_clogic/chains.c"} <= names


@pytest.mark.parametrize("path", C_SOURCES, ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_c_source_over_800_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SRC)} has {lines} lines (at most {MAX_LINES})"


def test_every_chain_part_is_built() -> None:
    """The build lists every file _logic.c and _engine.c include, so a change to one rebuilds
    its module."""
    pyproject = (SRC.parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    for path in sorted([*(SRC / "_clogic").rglob("*.c"), *(SRC / "_cengine").rglob("*.c")]):
        assert f'"src/sudokit/{path.relative_to(SRC).as_posix()}"' in pyproject, path
