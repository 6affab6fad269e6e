"""The record comment grammar has one Python reader (:mod:`sudokit.formats.comments`); the C
bulk reader of 9x9 puzzle lines (``_engine.solve_lines``) is a fast path beside it, checked
here line by line against the Python reader as the oracle so the two cannot drift.

The C reader is stricter on purpose, never looser: it passes over a comment only when it
holds no ``shape=`` and no ``rules=`` at all (the Python reader also passes over ``shape=3x3``
and ``rules=classic``), and it takes
no line with a carriage return but at its end (a text reader would split the line there).
Whatever it refuses, its caller reads the general way. So on every line:

- a line C takes, the Python reader takes too, as a puzzle line with the same cells or as a
  line passed over (blank, or a comment that states no other shape);
- a line the Python reader takes, without an inner carriage return, whose comment has no
  ``shape=`` and whose clues do not conflict, C takes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import _engine
from sudokit._grid import Grid, conflict_reason
from sudokit._shape import Shape
from sudokit.engine import count_solutions
from sudokit.formats import RecordReader
from sudokit.formats.comments import stated_facts, stated_shape, sudoku_or_none

KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CONFLICT = "11" + "." * 79
SUDOKU = Shape(3, 3)
UNSOLVABLE = "12345678." + "........9" + "." * 63

_PIECES = [
    " ",
    "\t",
    "#",
    "shape=",
    "shape=3x3",
    "shape=2x3",
    "rules=x",
    "rules=",
    "rules=classic",
    "shape=3x3x",
    "3x3",
    " solution",
    "solution",
    "index=4",
    "seed=99",
    "rating=ED=1.2/1.1/1.0",
    "\r",
    "x",
    "é",
    "=",
]


@st.composite
def _lines(draw: st.DrawFn) -> str:
    cells = draw(
        st.sampled_from(["", KNOWN, CONFLICT, UNSOLVABLE, KNOWN[:80], KNOWN + "1", "0" + KNOWN[1:]])
    )
    gap = draw(st.sampled_from(["", " ", "\t", " \t "]))
    comment = draw(
        st.one_of(st.just(""), st.lists(st.sampled_from(_PIECES), max_size=6).map("".join))
    )
    if comment and not comment.startswith("#") and draw(st.booleans()):
        comment = "# " + comment
    end = draw(st.sampled_from(["\n", "\r\n", ""]))
    return cells + gap + comment + end


def _python(raw: str) -> tuple[str, bytes | None] | None:
    """What the Python reader makes of one line: ``("puzzle", cells)``, ``("passed", None)``
    or None when it does not take the line the fast way."""
    reader = RecordReader(None, 1, lambda r, w, row: r)
    found = reader.scan(raw)
    if found is not None:
        return "puzzle", RecordReader.cells_of(found[0].group(1))
    return ("passed", None) if reader.fast else None


def _comment(raw: str) -> str:
    """The comment of a line (from its ``#`` on), without the line end."""
    at = raw.find("#")
    return "" if at < 0 else raw[at:].removesuffix("\n").removesuffix("\r")


@settings(max_examples=400, deadline=None)
@given(_lines().filter(bool))  # the empty text has no line
def test_the_c_line_reader_agrees_with_the_python_reader(raw: str) -> None:
    out, used, lines = _engine.solve_lines(raw.encode(), 2, True)
    c_takes = lines == 1
    assert used == (len(raw.encode()) if c_takes else 0)
    python = _python(raw)
    if c_takes:
        assert python is not None, f"C took a line the Python reader does not: {raw!r}"
        kind, cells = python
        assert (kind == "puzzle") == bool(out), raw
        if cells is not None:
            grid = Grid.unchecked(SUDOKU, cells)
            assert int(out.decode()) == count_solutions(grid, limit=2), raw
        assert sudoku_or_none(_comment(raw)), raw
        return
    comment = _comment(raw)
    inner_cr = "\r" in raw.removesuffix("\n").removesuffix("\r")
    if python is None or "shape=" in comment or "rules=" in comment or inner_cr:
        return  # refused by C on purpose (see the module's rules); read the general way
    kind, cells = python
    assert kind == "puzzle" and cells is not None, f"C refused a passed-over line: {raw!r}"
    assert conflict_reason(SUDOKU, cells) is not None, f"C refused a plain line: {raw!r}"


def test_the_generated_comment_reads_as_its_facts() -> None:
    note = (
        "# index=4 seed=99 shape=3x3 symmetry=rot180 clues=24 minimal=yes orbit_minimal=?"
        " rating=ED=7.1/7.1/2.6 level=diabolical"
    )
    facts = stated_facts(note)
    assert facts == {
        "index": "4",
        "seed": "99",
        "minimal": "yes",
        "er": "7.1",
        "ep": "7.1",
        "ed": "2.6",
        "level": "diabolical",
    }
    assert stated_shape(note) is not None and str(stated_shape(note)) == "3x3"
    assert sudoku_or_none(note) and not sudoku_or_none(note.replace("3x3", "2x3"))
