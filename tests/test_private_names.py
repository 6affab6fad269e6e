"""No module of sudokit imports another module's private names.

A name that starts with ``_`` is its module's own business: another module that needs it
makes it public in its home (or the name moves to where both can import it). Checked on the
source with :mod:`ast`: every ``from X import _name`` (relative or absolute) of a sudokit
module fails unless ``_name`` is itself a module (``from . import _engine``, a package's
private module, is how a module is imported, not a name taken out of one); so does
``module._name`` where ``module`` was imported from sudokit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit"


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "static" not in p.parts)


def _is_module(package: Path, name: str) -> bool:
    """Whether ``name`` in the folder ``package`` is a module: Python, a package, or C."""
    return (
        (package / f"{name}.py").is_file()
        or (package / name / "__init__.py").is_file()
        or (package / f"{name}.c").is_file()
        or any(package.glob(f"{name}.*.so"))
        or (package / f"{name}.pyi").is_file()
    )


def _target(path: Path, node: ast.ImportFrom) -> Path | None:
    """The folder or module file ``node`` imports from, for a sudokit module; else None."""
    if node.level:
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
    elif (node.module or "").split(".")[0] == "sudokit":
        base = SRC.parent
    else:
        return None
    for part in (node.module or "").split(".") if node.module else ():
        base = base / part
    return base


def private_imports(path: Path, text: str | None = None) -> list[str]:
    """Each private name of another sudokit module that ``path`` imports, as ``where: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    found = []
    modules: set[str] = set()  # names bound to sudokit modules here
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _target(path, node)
            if target is None:
                continue
            for alias in node.names:
                if _is_module(target, alias.name):
                    modules.add(alias.asname or alias.name)
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(
                        f"line {node.lineno}: {alias.name} from {target.relative_to(SRC.parent)}"
                    )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "sudokit" and alias.asname:
                    modules.add(alias.asname)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not _is_module(SRC, node.attr)
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_another_modules_private_names(path: Path) -> None:
    assert private_imports(path) == []


def test_the_check_sees_private_names_relative_and_absolute() -> None:
    """The check fails on what it is for, and passes private modules."""
    here = SRC / "bank" / "_entries.py"
    text = (
        "from ..formats.records import _record\n"
        "from sudokit.output import _META\n"
        "from .. import _engine, formats\n"
        "from ._schema import puzzles\n"
        "formats._cut('x')\n"
        "_engine.solve_lines(b'', 1, False)\n"
    )
    assert [f.split(":")[1].split()[0] for f in private_imports(here, text)] == [
        "_record",
        "_META",
        "formats._cut",
    ]
