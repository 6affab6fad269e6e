"""Play in a browser: a local play server, and self-contained offline pages.

- :mod:`sudokit.web.api`: what the page asks for (new puzzles, hints), as plain functions
  that check their input and return JSON-ready data;
- :mod:`sudokit.web.server`: the HTTP server over them (stdlib ``http.server``);
- :mod:`sudokit.web.page`: the page itself, served or written as one offline file.

The page's HTML, CSS and JavaScript ship in ``sudokit/web/static``; one copy of each serves
both the served page and the offline one.

>>> from sudokit.web import make_server
>>> server = make_server(port=0)
>>> server.host, server.port > 0
('127.0.0.1', True)
>>> server.server_close()
"""

from __future__ import annotations

from .api import HINT_WORDS, RequestError, hint_request, new_puzzle
from .page import offline_page, puzzle_data, served_page
from .server import DEFAULT_HOST, DEFAULT_PORT, MAX_BODY, PlayServer, make_server

__all__ = [
    "HINT_WORDS",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "MAX_BODY",
    "PlayServer",
    "RequestError",
    "hint_request",
    "make_server",
    "new_puzzle",
    "offline_page",
    "puzzle_data",
    "served_page",
]
