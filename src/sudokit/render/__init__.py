"""Pictures and print: SVG from the standard library, PDF puzzle books with reportlab.

- :func:`sudokit.render.svg.svg`: one grid as an SVG document, with a player's digits, pencil
  marks and a logic step's highlights; ``Grid._repr_svg_`` uses it, so a grid shows itself in
  a notebook.
- :func:`sudokit.render.pdf.book`: a puzzle book as a PDF (needs reportlab, imported only when
  a book is made).

Import the modules themselves (``from sudokit.render.svg import svg``); this package imports
neither, so that ``sudokit.render.svg`` names the module.
"""

from __future__ import annotations

__all__: list[str] = []
