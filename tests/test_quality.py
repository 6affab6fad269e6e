"""Project-wide promises: lint, format, types, the public namespace, the README's commands."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sudokit

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_check() -> None:
    r = _run("ruff", "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_format() -> None:
    r = _run("ruff", "format", "--check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    r = _run(sys.executable, "-m", "mypy")
    assert r.returncode == 0, r.stdout + r.stderr


def test_public_names() -> None:
    assert sorted(sudokit.__all__) == sorted(
        [
            "CLASSIC",
            "MAX_SIDE",
            "Canonical",
            "GenerationError",
            "Grid",
            "InvalidPuzzleError",
            "InvalidRulesError",
            "InvalidShapeError",
            "NotUniqueError",
            "Rated",
            "Record",
            "Request",
            "Rules",
            "SYMMETRIES",
            "Generated",
            "Shape",
            "SudokitError",
            "Transform",
            "Vicinity",
            "__version__",
            "canonical",
            "canonical_id",
            "count_many",
            "count_solutions",
            "format_grid",
            "generate",
            "generate_many",
            "hunt",
            "is_unique",
            "parse_grid",
            "random_grid",
            "read_puzzles",
            "solve",
            "solve_many",
            "unique_solution",
        ]
    )
    for name in sudokit.__all__:
        assert hasattr(sudokit, name), name


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = 'pip install -e ".[test]" && python -m pytest'
    assert command in readme
    assert command in ci
