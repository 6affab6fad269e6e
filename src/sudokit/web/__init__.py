"""Play and serve: the puzzle service (an ASGI application), and self-contained offline pages.

- :mod:`sudokit.web.api`: what the play page asks for (hints, shapes, levels), as plain
  functions that check their input and return JSON-ready data;
- :mod:`sudokit.web.work`: the service's CPU work (solve, rate, explain, hint, check, make
  puzzles for the bank), run in worker processes;
- :mod:`sudokit.web.app`: the service itself (FastAPI, run by uvicorn: ``sudokit serve``),
  which needs the ``server`` extra: ``pip install "sudokit[server]"``; its routes are in
  :mod:`~sudokit.web.routes_puzzles`, :mod:`~sudokit.web.routes_engines` and
  :mod:`~sudokit.web.routes_page`, what a query asks for in :mod:`~sudokit.web.query`, its
  refusals in :mod:`~sudokit.web.refusals`, what it holds while it runs in
  :mod:`~sudokit.web.state`, and the guard in front of it in :mod:`~sudokit.web.guard`;
- :mod:`sudokit.web.schema`: its JSON, as typed models: one request schema for a puzzle, one
  answer schema for a grid;
- :mod:`sudokit.web.ids`: the signed puzzle ids it hands out;
- :mod:`sudokit.web.page`: the play page, served by the service or written as one offline
  file (``sudokit html``).

The page's HTML, CSS and JavaScript ship in ``sudokit/web/static``; one copy of each serves
both the served page and the offline one. Importing this package needs no extra.

>>> from sudokit.web import server_available
>>> isinstance(server_available(), bool)
True
"""

from __future__ import annotations

from importlib.util import find_spec

from ..errors import MissingExtraError
from .api import HINT_WORDS, RequestError, hint_request
from .page import offline_page, puzzle_data, served_page

__all__ = [
    "HINT_WORDS",
    "SERVER_EXTRA",
    "RequestError",
    "hint_request",
    "offline_page",
    "puzzle_data",
    "served_page",
    "require_server",
    "server_available",
]

#: What to install for ``sudokit serve`` and ``sudokit play``.
SERVER_EXTRA = 'pip install "sudokit[server]"'


#: The modules of the ``server`` extra that the service cannot run without.
_SERVER_MODULES = ("fastapi", "uvicorn")


def server_available() -> bool:
    """Whether the service's dependencies (FastAPI, uvicorn) are installed."""
    return all(find_spec(name) is not None for name in _SERVER_MODULES)


def require_server() -> None:
    """MissingExtraError, naming the ``server`` extra, unless the service's dependencies
    are installed."""
    for name in _SERVER_MODULES:
        if find_spec(name) is None:
            raise MissingExtraError("server", name, feature="the service")
