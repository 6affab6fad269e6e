"""The comment of a record: what a record's text states of its puzzle, read in one place.

sudokit writes what it knows of a puzzle as ``key=value`` words in a ``#`` comment, on the
puzzle's line or on the line above its grid (``# index=4 seed=99 shape=3x3 symmetry=rot180
clues=24 minimal=yes orbit_minimal=? rating=ED=7.1/7.1/2.6 level=diabolical``),

and ``sudokit rate`` writes SE's rating ``ED=ER/EP/ED`` after the puzzle. This module is the
one reader of that grammar: the stream readers ask it for a stated shape
(:func:`stated_shape`), ``sudokit generate --resume`` for the index and seed
(:func:`index_and_seed`), labels and the bank for the facts (:func:`stated_facts`, and
:data:`GENERATED_COMMENT`, the fast form of it for ``sudokit generate``'s own comment).

A record of a puzzle under rules beyond the classic ones states them (``rules=x+windoku``,
``rules=jigsaw:<region map>``; :func:`stated_rules`); a record that states none is classic.

The C bulk reader of 9x9 puzzle lines (``_engine.solve_lines``) answers one question of its
own: it passes over a comment only when it holds no ``shape=`` and no ``rules=`` at all, a
stricter rule than :func:`sudoku_or_none`'s; tests/test_record_comments.py checks it line by
line against this module's reader.
"""

from __future__ import annotations

import re

from .._shape import Shape
from .._text import shared_shape
from ..errors import InvalidShapeError

__all__ = [
    "GENERATED_COMMENT",
    "SOLUTION_MARK",
    "index_and_seed",
    "only_sudoku_shapes",
    "stated_facts",
    "stated_rules",
    "stated_shape",
    "sudoku_or_none",
]

#: The comment line above a pretty record's solution (``sudokit generate --format pretty
#: --with-solution``): the grid after it is no puzzle.
SOLUTION_MARK = "# solution"

_SUDOKU = shared_shape(3, 3)
_STATED_SHAPE = re.compile(r"#.*?\bshape=(\d+)x(\d+)\b")
_SHAPE_WORD = re.compile(r"\bshape=\d+x\d+\b")
_SHAPE_3X3 = re.compile(r"shape=3x3\b")
_STATED_RULES = re.compile(r"#.*?\brules=(\S+)")
_INDEX_SEED = re.compile(r"#\s*index=(\d+)\s+seed=(\d+)")

#: The facts grammar (:func:`stated_facts`): sudokit's ``key=value`` comment words, and SE's
#: rating ``ED=ER/EP/ED`` (after the puzzle, as ``sudokit rate`` writes it, or as
#: ``rating=ED=…`` in sudokit's comment).
_FACTS = re.compile(
    r"\b(index|seed|level|er|minimal|hardest)=([\w.\-]+)"
    r"|\bED=(\d+(?:\.\d+)?)/(?:(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?))?"
)

#: The comment ``sudokit generate --rate`` writes on a line (``output.format_facts``), whole:
#: its groups are the index, seed, minimality and the rating's ER, EP and ED. On such a
#: comment it reads what :func:`stated_facts` reads, in one match from its start (the values it
#: skips hold no ``=``, so no fact of that grammar hides in them): the bank's fast path, for a
#: file of generated puzzles; any other text goes to :func:`stated_facts`.
GENERATED_COMMENT = re.compile(
    r"# index=(\d+) seed=(\d+) shape=\w+ symmetry=[\w\-]+ clues=\d+ minimal=(yes|no|\?)"
    r" orbit_minimal=(?:yes|no|\?) rating=ED=(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)"
    r" level=\w+"
)


def stated_shape(text: str) -> Shape | None:
    """The shape a comment in ``text`` states (``# … shape=2x3 …``, as sudokit's records do),
    if valid.

    >>> stated_shape("# index=0 seed=5 shape=2x3"), stated_shape("shape=2x3 # none")
    (Shape(2, 3), None)
    """
    m = _STATED_SHAPE.search(text)
    if m is None:
        return None
    try:
        return shared_shape(int(m[1]), int(m[2]))
    except InvalidShapeError:
        return None


def stated_rules(text: str) -> str | None:
    """The text of the rules a comment in ``text`` states (``# … rules=x+windoku …``), or
    None (classic rules; ``rules=classic`` says so too).

    >>> stated_rules("1.3...12....4..3 # index=0 seed=5 shape=2x2 rules=x"), stated_rules("x")
    ('x', None)
    """
    m = _STATED_RULES.search(text)
    return None if m is None or m[1] == "classic" else m[1]


def sudoku_or_none(comment: str) -> bool:
    """Whether ``comment`` (from its ``#`` on) states no shape, or 3x3, and no rules."""
    if "rules=" in comment and stated_rules(comment) is not None:
        return False
    if "shape=" not in comment:
        return True
    m = _SHAPE_WORD.search(comment)
    return m is None or m.group() == "shape=3x3" or stated_shape(comment) in (None, _SUDOKU)


def only_sudoku_shapes(text: str) -> bool:
    """Whether every ``shape=`` in ``text`` (lines :data:`GENERATED_COMMENT`-like or with no
    comment) is ``shape=3x3``: a sure answer when True for such lines."""
    if "rules=" in text:
        return False
    return "shape=" not in text or text.count("shape=") == len(_SHAPE_3X3.findall(text))


def index_and_seed(record: str) -> tuple[int, int] | None:
    """The index and seed a record of ``sudokit generate`` states (its comment starts with
    them), or None.

    >>> index_and_seed("1.3...12....4..3 # index=4 seed=99 shape=2x2")
    (4, 99)
    """
    m = _INDEX_SEED.search(record)
    return (int(m.group(1)), int(m.group(2))) if m else None


def stated_facts(text: str) -> dict[str, str]:
    """The facts the text of a record states, as text by name, the last of each counting:
    ``index``, ``seed``, ``level``, ``minimal``, ``hardest``, and ``er``, ``ep``, ``ed`` from
    an SE rating (its ER over an ``er=`` word; a rating cut after its ER gives that alone).
    One pass of one regular expression: the bank reads this for every puzzle it adds.

    >>> stated_facts("1.3...12....4..3 # index=4 seed=99 minimal=yes rating=ED=1.2/1.1/1.0")
    {'index': '4', 'seed': '99', 'minimal': 'yes', 'er': '1.2', 'ep': '1.1', 'ed': '1.0'}
    >>> stated_facts("# er=3.4 level=hard orbit_minimal=yes ED=2.3/")
    {'er': '2.3', 'level': 'hard'}
    """
    facts: dict[str, str] = {}
    rating: tuple[str, str, str] | None = None
    for key, value, er, ep, ed in _FACTS.findall(text):
        if key:
            facts[key] = value
        else:
            rating = (er, ep, ed)
    if rating is not None:
        facts["er"] = rating[0]
        if rating[1]:
            facts["ep"], facts["ed"] = rating[1], rating[2]
    return facts
