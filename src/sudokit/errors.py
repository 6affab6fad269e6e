"""Exceptions raised by sudokit.

The tree::

    SudokitError                      base of everything sudokit raises on purpose
    ├── InvalidPuzzleError(ValueError) bad input: wrong length, unknown symbol, a digit
    │   │                              repeated in a unit; the message names what and where
    │   └── NotUniqueError             a puzzle with no solution or more than one, given where
    │                                  one solution is needed (rating, explaining, printing)
    ├── InvalidShapeError(ValueError)  a box shape sudokit cannot build (e.g. ``1x9``, ``9x9``)
    ├── InvalidRulesError(ValueError)  rules sudokit cannot use: an unknown rule, a jigsaw
    │                                  region of the wrong size or not connected, a rule that
    │                                  does not fit the shape, rules without a solution grid
    ├── GenerationError               a generator target could not be reached in its budget
    ├── BankError                     a puzzle bank that cannot be opened or used: not a bank,
    │                                  written by a newer sudokit, an unknown URL scheme, a
    │                                  server that cannot be reached; the message names it
    ├── ClusterError                  a Dask cluster that cannot be used: a bad address, a
    │                                  scheduler that does not answer, a lost cluster
    └── MissingExtraError(ImportError) an optional extra that a feature needs is not
                                       installed (``[postgres]``, ``[server]``, ``[cluster]``);
                                       the message says what to install

Every message quotes the offending input (shortened when long) and, for text, the line and
column or cell (``r5c3``) where the problem is.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BankError",
    "ClusterError",
    "GenerationError",
    "InvalidPuzzleError",
    "InvalidRulesError",
    "InvalidShapeError",
    "MissingExtraError",
    "NotUniqueError",
    "SudokitError",
]


class SudokitError(Exception):
    """Base class of every error sudokit raises on purpose."""


class InvalidPuzzleError(SudokitError, ValueError):
    """Input that is not a valid puzzle; the message says what is wrong and where."""


class NotUniqueError(InvalidPuzzleError):
    """A puzzle without exactly one solution where one is needed.

    ``solutions`` is 0 (no solution) or 2 (two or more); the message says which.
    """

    def __init__(self, message: str, *, solutions: int) -> None:
        super().__init__(message)
        self.solutions = solutions

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent back from worker processes (``rate`` reports it in place): the default
        # pickling calls ``cls(*args)``, without the keyword.
        return (_rebuild, (type(self), str(self), {"solutions": self.solutions}))


class InvalidShapeError(SudokitError, ValueError):
    """A grid shape that sudokit does not support."""


class InvalidRulesError(SudokitError, ValueError):
    """Rules (:mod:`sudokit.rules`) that sudokit cannot use as given; the message names the
    rule and, for a jigsaw map, the region and a cell of it."""


class GenerationError(SudokitError):
    """A generation target could not be met within its budget.

    ``closest`` holds the result that came nearest (a :class:`sudokit.generator.Generated`),
    or None.
    """

    def __init__(self, message: str, *, closest: object = None) -> None:
        super().__init__(message)
        self.closest = closest

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), {"closest": self.closest}))


def _rebuild(kind: type[Exception], message: str, keywords: dict[str, Any]) -> Exception:
    """An error with keyword-only fields, unpickled."""
    return kind(message, **keywords)


class BankError(SudokitError):
    """A puzzle bank (:mod:`sudokit.bank`) that cannot be opened or used as asked; the message
    names the bank (its path, or its URL without the password) and what is wrong."""


class ClusterError(SudokitError):
    """A Dask cluster (:mod:`sudokit.cluster`) that cannot be used as asked: the address is
    malformed, no scheduler answers there in time, or the cluster was lost; the message names
    the address. (Dask not installed is a :class:`MissingExtraError`.)"""


class MissingExtraError(SudokitError, ImportError):
    """A feature that needs an optional extra which is not installed: a PostgreSQL bank
    (``postgres``), the service (``server``), a Dask cluster (``cluster``). ``extra`` names
    the extra, ``module`` the module that could not be imported; the message says what to
    install, e.g. ``a PostgreSQL bank needs the [postgres] extra: pip install
    "sudokit[postgres]"``."""

    def __init__(self, extra: str, module: str, *, feature: str) -> None:
        super().__init__(
            f'{feature} needs the [{extra}] extra: pip install "sudokit[{extra}]"'
            f" ({module} is not installed)",
            name=module,
        )
        self.extra = extra
        self.module = module
        self.feature = feature

    def __reduce__(self) -> tuple[Any, ...]:
        return (_missing, (self.extra, self.module, self.feature))


def _missing(extra: str, module: str, feature: str) -> MissingExtraError:
    return MissingExtraError(extra, module, feature=feature)
