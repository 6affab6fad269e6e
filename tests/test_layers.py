"""The layers of DESIGN.md, checked on the source: no module imports a layer above its own.

A module's layer is the first entry of ``LAYERS`` that names it (a package's modules share
the package's layer). Every ``import`` counts, also those inside functions, except the
satellite imports listed in ``SATELLITES``: a value type that shows itself (``Grid`` drawing
itself as SVG in a notebook) imports its renderer lazily, as python-chess's board does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit"

LAYERS: list[set[str]] = [
    # grid and formats are one layer (DESIGN.md): Grid(text) parses with formats, lazily
    {
        "errors",
        "_files",
        "_version",
        "_shape",
        "_engine",
        "_logic",
        "_canon",
        "_canon_maps",
        "_text",
        "_candidates",
        "_grid",
        "rules",
        "cages",
        "formats",
        "canon",
    },
    {"_parallel", "cluster", "engine", "batch"},
    {"generator", "layouts", "killer"},
    {"logic"},
    {"rating"},
    {"difficulty"},
    {"output", "render"},
    {"hunting"},
    {"bank"},
    {"web"},
    {"cli", "__main__", "__init__"},
]
SATELLITES = {("_grid", "render")}


def _layer(name: str) -> int:
    top = name.split(".")[0]
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"module {name!r} is in no layer: add it to LAYERS")


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "static" not in p.parts)


def _imports(path: Path) -> list[str]:
    """The sudokit modules ``path`` imports, as dotted names relative to the package."""
    here = path.relative_to(SRC).with_suffix("").parts
    package = here[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package[: len(package) - node.level + 1])
            target = [*base, *(node.module.split(".") if node.module else [])]
            if target:
                found.append(".".join(target))
            else:  # "from . import x"
                found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sudokit"):
            found.append(node.module.removeprefix("sudokit").lstrip(".") or "__init__")  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):  # "import sudokit.x" (or sudokit itself)
            found.extend(
                alias.name.removeprefix("sudokit").lstrip(".") or "__init__"
                for alias in node.names
                if alias.name.split(".")[0] == "sudokit"
            )
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    me = path.relative_to(SRC).with_suffix("").parts
    name = ".".join(me)
    mine = _layer(me[0] if len(me) > 1 else name)
    for target in _imports(path):
        if (me[0], target.split(".")[0]) in SATELLITES:
            continue
        assert _layer(target) <= mine, f"{name} (layer {mine}) imports {target} ({_layer(target)})"


def test_the_generator_knows_nothing_of_ratings() -> None:
    imported = set(_imports(SRC / "generator.py"))
    assert not {t for t in imported if t.split(".")[0] in ("rating", "logic", "difficulty")}


#: The most lines a Python module under src/ may have: a room a reader can hold.
MAX_LINES = 800


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_is_over_800_lines(path: Path) -> None:
    name = path.relative_to(SRC).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines, more than {MAX_LINES}: split it"


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = node.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]


def test_the_request_is_declared_once() -> None:
    """The generation parameters are the fields of one value (Request, whose dig is a Dig):
    no function lists them as its own parameters again, save the one that resolves the
    difficulty fields into the generator's acceptance (and a bank row's assembly, whose
    columns say what a stored puzzle is, not what was asked). The typed keyword sugar (DigFields,
    RequestFields) names exactly the value's fields, plus the deprecated spellings."""
    from dataclasses import fields

    from sudokit.difficulty import REQUEST_FIELDS, Request, RequestFields
    from sudokit.generator import Dig, DigFields

    assert set(DigFields.__annotations__) == {f.name for f in fields(Dig)}
    declared = {f.name for f in fields(Request) if f.init}
    assert declared == set(REQUEST_FIELDS)
    assert set(RequestFields.__annotations__) == declared | {"rating", "with_rating"}
    lists = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                and len(set(_parameters(node)) & declared) >= 3
            ):
                lists.append(f"{path.relative_to(SRC).as_posix()}:{node.name}")
    assert lists == ["bank/_entries.py:_assemble", "difficulty.py:difficulty"], lists
