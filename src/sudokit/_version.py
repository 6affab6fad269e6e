"""sudokit's version, from the installed package's metadata (one source: pyproject.toml)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("sudokit")
except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
    __version__ = "0+unknown"
