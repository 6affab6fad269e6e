"""The ``sudokit`` command: a thin layer that parses arguments, calls the library and prints.

Each subcommand is a function ``(args, err) -> exit status`` set on its parser with
``set_defaults(func=...)``; options that several commands share (the puzzle source and
``--shape``, ``-o``, ``--jobs``) come from parent parsers, so they read and mean the same
everywhere.

Exit status, the same in every command:

- 0: every input was handled (a solved puzzle, a hint given, a book written);
- 1: some input was bad (unreadable, conflicting, no solution, more than one solution), a
  puzzle could not be finished with the techniques asked for, or an output could not be
  written; each problem is reported on stderr, with its line number for files;
- 1 also: an optional extra that the command needs is not installed (the message names it);
- 2: a usage error (an unknown option or technique, a value out of range, a malformed
  ``--cluster`` address);
- 130: interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

from ._shape import MAX_SIDE, Shape
from .errors import (
    ClusterError,
    GenerationError,
    MissingExtraError,
    NotUniqueError,
    SudokitError,
)
from .formats import FORMATS, PuzzleSource, Record, format_candidates, format_grid

# Each command imports what it runs in its own function, so that a start-up (``sudokit solve``
# on a small file is mostly start-up) loads no module another command needs: not the logic
# engine, the generator, the progress bar or the worker pools. tests/test_imports.py checks it.
if TYPE_CHECKING:
    from pathlib import Path

    from tqdm import tqdm

    from ._grid import Grid
    from .generator import Generated

__all__ = ["SHAPES_HELP", "main"]

T = TypeVar("T")

SHAPES_HELP = (
    f"Shapes: boxes of ROWSxCOLS cells, each side at least 2, giving grids of side 4 to "
    f"{MAX_SIDE} (2x2, 2x3, 3x3, 3x4, 4x4, 5x5, 6x6 ...); square boxes are inferred from the "
    "cell count, others need --shape unless a record states it. Exit status: 0 all done, 1 some "
    "input bad, unsolvable or not unique (each reported on stderr), 2 usage error, 130 "
    "interrupted (Ctrl+C)."
)


class _Fail(Exception):
    """A command cannot go on: ``main`` prints the message and exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# Argument types --------------------------------------------------------------------------------


def _shape_arg(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except SudokitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _span(kind: type[int] | type[float], example: str) -> Any:
    """An argparse type for ``LO-HI`` (or one value) of numbers of ``kind``."""

    def parse(text: str) -> tuple[Any, Any]:
        lo, sep, hi = text.partition("-")
        try:
            low = kind(lo)
            high = kind(hi) if sep else low
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected LO-HI like {example}, got {text!r}"
            ) from None
        if low > high:
            raise argparse.ArgumentTypeError(f"empty range {text!r}")
        return low, high

    return parse


_clues_arg = _span(int, "22-26")
_float_span = _span(float, "6.5-8.0")


def _range_arg(text: str) -> tuple[float, float]:
    """An ER range ``LO-HI`` (or one value) on Sudoku Explainer's scale: a target off the
    scale can never be met, so it is a usage error at once rather than a long search."""
    from .rating import er_range

    try:
        return er_range(*_float_span(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _er_arg(text: str) -> float:
    """One ER on the scale."""
    lo, hi = _range_arg(text)
    if lo != hi:
        raise argparse.ArgumentTypeError(f"expected one ER, got the range {text!r}")
    return lo


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (``nan``, ``inf``, 0 and below are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _split(text: str | None) -> list[str] | None:
    return None if text is None else [t.strip() for t in text.split(",") if t.strip()]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``15m`` or ``8h``."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0}
    scale = units.get(text[-1:].lower(), 0.0)
    try:
        return _seconds(text[:-1] if scale else text) * (scale or 1.0)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected a positive time in seconds or like 90m or 8h, got {text!r}"
        ) from None


# The parser ------------------------------------------------------------------------------------


def _parents() -> dict[str, argparse.ArgumentParser]:
    """The option groups several commands share."""

    def parent() -> argparse.ArgumentParser:
        return argparse.ArgumentParser(add_help=False)

    source = parent()
    source.add_argument(
        "source",
        nargs="?",
        default="-",
        metavar="PUZZLES",
        help="a file of puzzles (any format sudokit reads), - for stdin (the default), or a "
        "puzzle itself, in quotes",
    )
    source.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    one = parent()
    one.add_argument(
        "source", metavar="PUZZLE", help="a puzzle (one line, in quotes), a file holding one, or -"
    )
    one.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    output = parent()
    output.add_argument(
        "-o", "--output", help="write to this file instead of stdout (- for stdout)"
    )
    jobs = parent()
    jobs.add_argument(
        "--jobs", "-j", type=_positive, default=None, help="worker processes (default: all cores)"
    )
    work = parent()  # commands that can also run on a Dask cluster
    where = work.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs", "-j", type=_positive, default=None, help="worker processes (default: all cores)"
    )
    where.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run the work as tasks on a Dask cluster: local, local:N (N worker processes of "
        "this machine) or a scheduler's address, tcp://HOST:8786 "
        '(pip install "sudokit[cluster]")',
    )
    return {"source": source, "one": one, "output": output, "jobs": jobs, "work": work}


def _record_options(p: argparse.ArgumentParser) -> None:
    """The seed and the record options of the commands that make puzzles (generate, hunt)."""
    from .output import RECORD_FORMATS

    p.add_argument("--seed", type=int, help="seed (default: random, and stated in each record)")
    p.add_argument("--format", choices=RECORD_FORMATS, default="line", help="record format")
    p.add_argument("--with-solution", action="store_true", help="add each puzzle's solution")


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, for ``command`` (every command when None). A command's
    parser, and the others', cost a start-up more than solving a small file does (and import
    what their choices are made of: the generator's symmetries, the record formats), so only
    ``command`` is made; with no known command, every command is declared without its
    options, for the main help and the error that names the commands."""
    p = argparse.ArgumentParser(
        prog="sudokit",
        description="Generate, solve, rate, explain, print and play Sudoku.",
        epilog=SHAPES_HELP,
    )
    p.add_argument(
        "--version", action=_Version, nargs=0, default=argparse.SUPPRESS, help=_VERSION_HELP
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    par = _parents()
    commands = {
        "solve": _solve_parser,
        "generate": _generate_parser,
        "hunt": _hunt_parser,
        "explain": _explain_parser,
        "rate": _rate_parser,
        "hint": _hint_parser,
        "techniques": _techniques_parser,
        "pdf": _pdf_parser,
        "svg": _svg_parser,
        "serve": _serve_parser,
        "play": _play_parser,
        "html": _html_parser,
        "canon": _canon_parser,
        "bank": _bank_parser,
    }
    for name, declare in commands.items():
        if command is None or command == name:
            declare(sub, par, True)
        elif command not in commands:  # for the main help, or the error naming the commands
            declare(sub, par, False)
    return p


def _command_of(argv: Sequence[str]) -> str:
    """The command ``argv`` names: its first word that is not an option (the main parser's
    own options, -h and --version, take no value); "" when there is none."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


class _Version(argparse.Action):
    """``--version``: the version is read (from the package's metadata) only when asked for."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from ._version import __version__

        sys.stdout.write(f"sudokit {__version__}\n")
        parser.exit()


_VERSION_HELP = "show program's version number and exit"


def _solve_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    s = sub.add_parser(
        "solve",
        parents=[par["source"], par["output"], par["work"]],
        help="solve puzzles from a file, stdin or the command line",
        description="Solve one puzzle per line (or grids separated by blank lines) and print "
        "each solution in the puzzle's own format. Bad lines are reported on stderr with their "
        "line number and skipped; the exit status is then 1.",
    )
    if not full:
        return
    s.add_argument(
        "--count",
        action="store_true",
        help="print the number of solutions of each puzzle instead of a solution",
    )
    s.add_argument(
        "--limit",
        type=_positive,
        default=1000,
        help="with --count, stop counting at N (a count equal to N means 'N or more'; "
        "default 1000)",
    )
    s.add_argument("--alphabet", help="digit symbols in order, e.g. 0123456789ABCDEF")
    s.set_defaults(func=_solve)


def _generate_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    g = sub.add_parser(
        "generate",
        parents=[par["output"], par["work"]],
        help="generate puzzles with exactly one solution",
        description="Generate puzzles, each proven to have one solution, streamed as they are "
        "made. With no clue target, each puzzle is minimal (with a symmetry, orbit-minimal: no "
        "symmetric orbit of clues can be removed; each record says whether it is also minimal "
        "clue by clue). Each record states the seed and index that make it again; the same "
        "arguments and seed give the same output whatever --jobs is, or with --cluster.",
    )
    if not full:
        return
    from .generator import SYMMETRIES

    g.add_argument("-n", "--count", type=_positive, default=1, help="how many (default 1)")
    g.add_argument(
        "--shape",
        type=_shape_arg,
        default=Shape(3, 3),
        help=f"box shape ROWSxCOLS (default 3x3); grid sides 4 to {MAX_SIDE}. Per minimal "
        "puzzle, one core: 9x9 under 1 ms, 16x16 about 0.1 s, 25x25 10-20 s, 30x30 30-50 s, "
        "36x36 1.5-2 min",
    )
    g.add_argument(
        "--symmetry",
        choices=[*SYMMETRIES, "random"],
        default="rot180",
        help="symmetry of the clue pattern (default rot180)",
    )
    target = g.add_mutually_exclusive_group()
    target.add_argument("--clues", type=_positive, help="exactly N clues")
    target.add_argument("--max-clues", type=_positive, help="at most N clues")
    g.add_argument(
        "--minimal",
        action="store_true",
        help="minimal puzzles (the default without a clue target; with --clues: both)",
    )
    _record_options(g)
    g.add_argument(
        "--pdf",
        metavar="FILE",
        help="write the puzzles into a PDF book too, 4 a page with the solutions at the back "
        "(records then go only to -o); the labels show each puzzle's seed and index, and its "
        "level and rating with --rate or a difficulty target",
    )
    g.add_argument(
        "--resume",
        action="store_true",
        help="with -o: keep the whole records already in the file and make the rest (every "
        "option that changes the output must be as before)",
    )
    g.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        help="seconds per puzzle to keep trying new grids for a target (default 60)",
    )
    d = g.add_argument_group("difficulty (Sudoku Explainer's scale; records then carry ratings)")
    d.add_argument(
        "--level",
        help="easy (ER 1.0-1.2), medium (1.3-1.5), hard (1.6-2.5), fiendish "
        "(2.6-6.0) or diabolical (6.1 and over)",
    )
    d.add_argument("--er", type=_range_arg, help="ER range, e.g. 6.5-8.0 (or one value)")
    d.add_argument(
        "--require", help="techniques the solve path must use, comma-separated (e.g. x-wing)"
    )
    d.add_argument(
        "--allow",
        help="techniques that must be enough to solve it, comma-separated "
        "(e.g. singles,pointing-claiming)",
    )
    d.add_argument("--hodoku-level", help="HoDoKu's level: easy, medium, hard, unfair or extreme")
    d.add_argument("--rate", action="store_true", help="rate every puzzle (ER/EP/ED and level)")
    g.set_defaults(func=_generate)


def _hunt_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    hu = sub.add_parser(
        "hunt",
        parents=[par["output"], par["work"]],
        help="search the vicinity of hard puzzles for new ones of ER X or more",
        description="Vicinity search: from seed puzzles, take K clues away and put M back "
        "elsewhere, keep what stays unique, minimise it, and rate what is new (not an isomorph "
        "of a seed, of an earlier find or of a bank puzzle); the hardest of what was rated "
        "seed the next rounds. Cheap filters first (uniqueness, then the SE path with the "
        "techniques below X only), the exact rating last. Records as generate writes them, "
        "with the puzzle each came from (from=) and its canonical id; progress on stderr and "
        "a summary at the end. See docs/hunt.md.",
    )
    if not full:
        return
    hu.add_argument(
        "--min-er", type=_er_arg, required=True, metavar="X", help="the least ER a find has"
    )
    seeds = hu.add_mutually_exclusive_group()
    seeds.add_argument("--seeds", metavar="FILE", help="seed puzzles (any format sudokit reads)")
    seeds.add_argument(
        "--from-bank",
        nargs="?",
        type=_positive,
        const=256,
        metavar="N",
        help="the bank's N hardest puzzles as seeds (default 256); without --seeds or "
        "--from-bank, random minimal puzzles",
    )
    hu.add_argument(
        "--vicinity", default="-1+1", help="-K+M: clues taken away and put back (default -1+1)"
    )
    hu.add_argument(
        "--no-minimise", action="store_true", help="keep finds that are not minimal puzzles"
    )
    hu.add_argument(
        "-n", "--count", type=_positive, help="stop at N finds (with --resume: in the file)"
    )
    hu.add_argument(
        "--time", type=_duration, metavar="T", help="stop after T (seconds, or 90m, 8h)"
    )
    _record_options(hu)
    hu.add_argument(
        "--db",
        help="store the finds in this bank (SQLite file or postgresql:// URL) instead of "
        "writing records; its puzzles never count as new",
    )
    hu.add_argument(
        "--resume",
        action="store_true",
        help="with -o: keep the records already in the file, never find them again, and go "
        "on from them",
    )
    hu.add_argument(
        "--pool", type=_positive, default=256, help="the puzzles kept to seed rounds (256)"
    )
    hu.add_argument(
        "--per-seed", type=_positive, default=200, help="neighbours drawn a seed a round (200)"
    )
    hu.set_defaults(func=_hunt)


def _explain_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    e = sub.add_parser(
        "explain",
        parents=[par["source"], par["output"]],
        help="solve step by step as a person would, explaining each step",
        description="Print the solve path of each puzzle: one numbered step per line with its "
        "Sudoku Explainer rating and explanation, then whether the puzzle was solved. With "
        "--format json, JSON lines: one object per step, then one with the outcome, per puzzle.",
    )
    if not full:
        return
    e.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    e.add_argument(
        "--candidates", action="store_true", help="print the pencil-mark grid before each step"
    )
    e.add_argument(
        "--techniques", help="only these techniques, comma-separated (e.g. singles,pointing)"
    )
    e.set_defaults(func=_explain)


def _rate_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    r = sub.add_parser(
        "rate",
        parents=[par["source"], par["output"], par["work"]],
        help="rate puzzles as Sudoku Explainer does (ER/EP/ED)",
        description="Rate each puzzle with Sudoku Explainer's rules. By default prints serate's "
        "form, 'PUZZLE ED=ER/EP/ED'; json and csv add the level, hardest technique and HoDoKu "
        "grade. Each result is written as soon as the puzzles before it are done. Bad lines and "
        "puzzles without exactly one solution are reported on stderr and skipped; the exit "
        "status is then 1.",
    )
    if not full:
        return
    r.add_argument(
        "--format",
        choices=("serate", "json", "csv"),
        default="serate",
        help="serate: the puzzle and ED=ER/EP/ED as Sudoku Explainer's serate prints it "
        "(default); json: an object a line; csv: a header, then a row a puzzle",
    )
    r.set_defaults(func=_rate)


def _hint_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    h = sub.add_parser(
        "hint",
        parents=[par["one"], par["output"]],
        help="a progressive hint for the next step",
        description="Print a hint for the next logic step: at detail 1 the technique and where "
        "to look, at 2 the cells and digits, at 3 the whole deduction. Exit status 0 also for a "
        "solved puzzle (nothing to hint), 1 when no technique applies.",
    )
    if not full:
        return
    h.add_argument(
        "--detail",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="1: technique and where; 2: cells and digits; 3: the whole deduction",
    )
    h.add_argument("--level", type=int, choices=(1, 2, 3), dest="detail", help=argparse.SUPPRESS)
    h.set_defaults(func=_hint)


def _techniques_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    t = sub.add_parser(
        "techniques",
        help="list the techniques and the names --require, --allow and --techniques take",
        description="List the logic engine's techniques in Sudoku Explainer's order, with their "
        "rating, the step names that ratings and explanations print, and the groups that name "
        "several at once. Any of these names is accepted wherever techniques are named.",
    )
    if not full:
        return
    t.set_defaults(func=_techniques)


def _pdf_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    b = sub.add_parser(
        "pdf",
        parents=[par["source"]],
        help="print puzzles as a PDF book",
        description="Lay out puzzles as a PDF book, with the solutions at the back. The input "
        "holds puzzles in any format sudokit reads; the labels show what its records state "
        "(sudokit generate's index, seed, level and rating). Bad lines and puzzles without "
        "exactly one solution are reported on stderr and left out; the exit status is then 1. "
        "An existing book is replaced only when the new one is complete.",
    )
    if not full:
        return
    b.add_argument(
        "-o",
        "--output",
        dest="book",
        required=True,
        help="the PDF file to write (-: stdout, not a terminal)",
    )
    _book_options(b)
    b.set_defaults(func=_pdf)


def _svg_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    v = sub.add_parser(
        "svg",
        parents=[par["one"], par["output"]],
        help="draw a puzzle as SVG",
        description="Draw one puzzle as an SVG picture, optionally with its pencil marks and "
        "the next logic step highlighted.",
    )
    if not full:
        return
    v.add_argument("--candidates", action="store_true", help="draw the pencil marks")
    v.add_argument(
        "--step", action="store_true", help="highlight the next logic step (with pencil marks)"
    )
    v.add_argument("--size", type=_positive, help="width and height in pixels")
    v.set_defaults(func=_svg)


def _serve_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    sv = sub.add_parser(
        "serve",
        help="the puzzle service: an HTTP API over the bank, and the play page",
        description="Serve the bank over HTTP (uvicorn): puzzles by level, ER range, "
        "techniques, shape and symmetry as random isomorphs with signed ids, their solutions, "
        "a daily puzzle, and solving, rating, explaining, hints and checks for any puzzle, "
        "with the play page at / and the API's docs at /api/v1/docs. CPU work runs in worker "
        'processes with a time limit. Needs the server extra: pip install "sudokit[server]".',
    )
    if not full:
        return
    sv.add_argument(
        "--db",
        help="the bank: a SQLite file or postgresql://... (default: $SUDOKIT_DB, else "
        "sudokit.db in the working folder; made when missing)",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    sv.add_argument("--workers", type=_positive, default=1, help="server processes (default 1)")
    sv.add_argument(
        "--jobs",
        type=_positive,
        help="worker processes for CPU work, per server process (default: the CPUs shared "
        "out among the server processes)",
    )
    sv.add_argument(
        "--time-limit",
        type=_seconds,
        default=15.0,
        help="seconds a request may spend on CPU work before a 503 (default 15)",
    )
    sv.add_argument("--access-log", action="store_true", help="log every request")
    sv.set_defaults(func=_serve)


def _play_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    w = sub.add_parser(
        "play",
        help="play in the browser (starts the puzzle service on this machine)",
        description="Start the puzzle service on this machine (as sudokit serve, on a "
        "loopback address) and open the play page in the browser: puzzles by level and size "
        "from the bank (made on the spot when it has none), the daily puzzle, pencil marks, "
        "undo, checking, and hints from the logic engine. Progress is kept in the browser. "
        'Stop with Ctrl+C. Needs the server extra: pip install "sudokit[server]".',
    )
    if not full:
        return
    w.add_argument(
        "--db", help="the bank (default: $SUDOKIT_DB, else sudokit.db in the working folder)"
    )
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    w.add_argument(
        "--port",
        type=int,
        help="port to listen on; 0: any free port (default: 8765, or any free port when it "
        "is taken; a fixed port keeps the browser's saved progress from one run to the next)",
    )
    w.add_argument("--no-browser", action="store_true", help="do not open the browser")
    w.add_argument(
        "--timeout",
        type=_seconds,
        default=15.0,
        help="seconds to make a puzzle the bank lacks before giving up (default 15)",
    )
    w.set_defaults(func=_play)


def _html_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    m = sub.add_parser(
        "html",
        parents=[par["source"]],
        help="write an offline page to play puzzles from a file",
        description="Write one self-contained HTML page (no server, works from a file) to play "
        "the puzzles of FILE, in any format sudokit reads, with their solutions and hint paths "
        "embedded. Bad lines and puzzles without exactly one solution are reported on stderr "
        "and left out; the exit status is then 1.",
    )
    if not full:
        return
    m.add_argument(
        "-o", "--output", dest="page", required=True, help="the HTML file to write (- for stdout)"
    )
    m.set_defaults(func=_html)


def _canon_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    c = sub.add_parser(
        "canon",
        parents=[par["source"], par["output"]],
        help="the canonical (minlex) form of each puzzle, to tell isomorphs apart",
        description="Print each puzzle's canonical form, in input order: the smallest text "
        "(empty cells read as 0) among every grid that band, stack, row-in-band and "
        "column-in-stack permutations, transposition (square boxes only) and relabelling "
        "make of it. Two puzzles are isomorphic exactly when their canonical forms are equal. "
        "Complete grids are taken too. Bad lines are reported on stderr with their line number "
        "and skipped; the exit status is then 1.",
    )
    if not full:
        return
    c.add_argument("--id", action="store_true", help="add each puzzle's canonical id")
    c.add_argument(
        "--dedupe",
        action="store_true",
        help="print only the first puzzle of each class (isomorphs of an earlier one are left out)",
    )
    c.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format (default: each puzzle's own)",
    )
    c.add_argument("--alphabet", help="digit symbols in order, e.g. 0123456789ABCDEF")
    c.set_defaults(func=_canon)


def _bank_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
    db_help = (
        "the bank: a SQLite file, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE (default: "
        "$SUDOKIT_DB, else sudokit.db in the working folder)"
    )
    k = sub.add_parser(
        "bank",
        help="keep puzzles in a bank (SQLite file or PostgreSQL) and serve them",
        description="A bank of puzzles keyed by their canonical form, so an isomorph "
        "(relabelled, rows or columns swapped, turned) is stored once. SQLite file by default, "
        "PostgreSQL by URL. Schema, URLs and concurrency: docs/bank.md.",
    )
    if not full:
        return
    from .generator import SYMMETRIES
    from .output import RECORD_FORMATS

    k.add_argument("--db", help=db_help)
    ks = k.add_subparsers(dest="bank_command", required=True, metavar="SUBCOMMAND")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS, help=db_help)

    a = ks.add_parser(
        "add",
        parents=[db, par["source"], par["jobs"]],
        help="add puzzles from a file or stdin",
        description="Add the puzzles of a file (any format sudokit reads) to the bank. "
        "Puzzles without exactly one solution are refused; ratings that records state "
        "(sudokit generate --rate, sudokit rate) are kept, others are computed by --jobs "
        "worker processes and stored as they are rated; an isomorph of a stored puzzle is a "
        "duplicate, found before it is rated, and is not stored again. Ends with a summary "
        "line on stderr; the exit status is 1 when a line was bad or refused.",
    )
    a.add_argument(
        "--batch",
        type=_positive,
        default=10000,
        help="puzzles a transaction (default 10000; a batch is also committed once its first "
        "puzzle has waited a second)",
    )
    a.add_argument(
        "--rerate",
        action="store_true",
        help="rate every puzzle, also those whose records state a rating (then the bank "
        "knows their whole technique path, for --require)",
    )
    a.add_argument("-q", "--quiet", action="store_true", help="do not list each duplicate")
    a.set_defaults(func=_bank_add)

    f = ks.add_parser(
        "fill",
        parents=[db, par["work"]],
        help="generate puzzles of a target until the bank holds N more",
        description="Generate puzzles of a difficulty target until N more of them are in the "
        "bank (duplicates do not count). Resumable: the run's seed and progress are stored with "
        "the puzzles, so the same command after an interruption goes on where it stopped.",
    )
    f.add_argument("-n", "--count", type=_positive, default=1, help="how many more (default 1)")
    f.add_argument("--shape", type=_shape_arg, default=Shape(3, 3), help="box shape (3x3)")
    f.add_argument(
        "--symmetry", choices=[*SYMMETRIES, "random"], default="rot180", help="default rot180"
    )
    f.add_argument("--seed", type=int, help="seed (default: the run's, else random)")
    f.add_argument("--timeout", type=_seconds, default=60.0, help="seconds a puzzle (default 60)")
    f.add_argument("--level", help="easy, medium, hard, fiendish or diabolical")
    f.add_argument("--er", type=_range_arg, help="ER range, e.g. 6.5-8.0")
    f.add_argument("--require", help="techniques the solve path must use, comma-separated")
    f.set_defaults(func=_bank_fill)

    filters = argparse.ArgumentParser(add_help=False)
    filters.add_argument("--level", help="easy, medium, hard, fiendish or diabolical")
    filters.add_argument("--er", type=_range_arg, help="ER range, e.g. 6.5-8.0")
    filters.add_argument(
        "--require",
        action="append",
        help="a technique (or group) the solve path uses; repeat or comma-separate for several",
    )
    filters.add_argument("--clues", type=_clues_arg, help="N or LO-HI clues")
    filters.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 3x3")
    filters.add_argument("--symmetry", choices=list(SYMMETRIES), help="of the shown pattern")
    filters.add_argument("--limit", type=_positive, help="at most N puzzles")
    filters.add_argument(
        "--random", action="store_true", help="random puzzles (--limit of them, default 1)"
    )
    form = filters.add_mutually_exclusive_group()
    form.add_argument(
        "--isomorph",
        action="store_true",
        help="serve each puzzle as a random relabelled and transformed copy, never the stored text",
    )
    form.add_argument(
        "--canonical", action="store_true", help="serve the canonical form (default: as added)"
    )

    q = ks.add_parser(
        "query",
        parents=[db, filters, par["output"]],
        help="print stored puzzles that match filters",
        description="Print the stored puzzles that match every filter given, as records of "
        "the formats sudokit generate writes, in the order they were added (or at random).",
    )
    q.add_argument("--format", choices=RECORD_FORMATS, default="line", help="record format")
    q.add_argument("--with-solution", action="store_true", help="add each puzzle's solution")
    q.set_defaults(func=_bank_query)

    x = ks.add_parser(
        "export",
        parents=[db, filters],
        help="print stored puzzles into a PDF book",
        description="Lay out the stored puzzles that match the filters as a PDF book, as "
        "sudokit pdf does.",
    )
    x.add_argument("--pdf", dest="book", required=True, metavar="BOOK", help="the PDF to write")
    _book_options(x)
    x.set_defaults(func=_bank_export)

    t = ks.add_parser(
        "stats",
        parents=[db],
        help="counts by shape, level, hardest technique and clues",
        description="Count the stored puzzles by shape, level, hardest technique and clues.",
    )
    t.add_argument("--json", action="store_true", help="one JSON object")
    t.set_defaults(func=_bank_stats)


def _book_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--per-page", type=int, choices=(1, 2, 4, 6), default=4, help="puzzles a page (default 4)"
    )
    p.add_argument("--page-size", choices=("A4", "Letter"), default="A4", help="default A4")
    p.add_argument("--title", help="the book's title, on top of each puzzle page")
    p.add_argument("--no-solutions", action="store_true", help="leave out the solutions")
    p.add_argument("--explain", action="store_true", help="add each puzzle's solve path")
    p.add_argument(
        "--pencil-marks", action="store_true", help="print the candidates in empty cells"
    )
    p.add_argument(
        "--no-labels", action="store_true", help="leave out the seed, index and rating labels"
    )


def _book_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The options :func:`_book_options` declares, as :func:`sudokit.render.pdf.book` takes them."""
    from .output import LABEL_FIELDS

    return {
        "per_page": args.per_page,
        "page_size": args.page_size,
        "title": args.title,
        "solutions": not args.no_solutions,
        "explain": args.explain,
        "pencil_marks": args.pencil_marks,
        "labels": ("number",) if args.no_labels else LABEL_FIELDS,
    }


# Shared plumbing -------------------------------------------------------------------------------


def _source(args: argparse.Namespace) -> PuzzleSource:
    return PuzzleSource(args.source, shape=args.shape, alphabet=getattr(args, "alphabet", None))


def _records(source: PuzzleSource) -> Iterator[Record]:
    """The source's records; a file that cannot be read is a failure (exit 1)."""
    return _readable(source.records(), source)


def _one_puzzle(args: argparse.Namespace) -> Grid:
    """The one puzzle a command such as ``hint`` takes; a failure (exit 1) otherwise."""
    records = list(islice(_records(_source(args)), 2))  # 2: enough to refuse
    if len(records) != 1:
        raise _Fail(
            f"sudokit {args.command}: give exactly one puzzle, not {len(records) or 'none'}"
        )
    if records[0].grid is None:
        raise _Fail(f"sudokit {args.command}: {records[0].error}")
    return records[0].grid


def _unique(grid: Grid, where: str) -> str | None:
    """None when ``grid`` has one solution, else the message saying what is wrong."""
    from .engine import unique_solution

    try:
        unique_solution(grid)
    except NotUniqueError as e:
        return f"{where}: {e}"
    return None


@contextmanager
def _output(path: str | None) -> Iterator[TextIO]:
    """stdout (no ``path``, or ``-``), or the file ``path`` (a clear failure when it cannot be
    opened); a file is written as it goes, through a symbolic link, into a FIFO or device."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with ExitStack() as stack:
        try:
            f = stack.enter_context(open(path, "w", encoding="utf-8"))
        except OSError as e:
            raise _Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
        yield f


def _progress(total: int | None, initial: int, err: TextIO) -> tqdm[NoReturn]:
    """A progress bar on ``err`` when it is a terminal (count, rate, and with a total, ETA),
    else a silent one."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, file=err, unit=" puzzles", disable=not err.isatty())


def _workers(args: argparse.Namespace) -> dict[str, Any]:
    """``jobs`` and ``cluster`` for the library, from ``--jobs`` / ``--cluster``; a usage error
    (status 2) for a malformed address, MissingExtraError (status 1, as for every missing
    extra) when Dask is missing: before any work or output."""
    from ._parallel import default_jobs

    if args.cluster is not None:
        from .cluster import check

        try:
            check(args.cluster)
        except ClusterError as e:
            raise _Fail(f"sudokit {args.command}: error: {e}", 2) from None
    return {"jobs": args.jobs or default_jobs(), "cluster": args.cluster}


# Commands --------------------------------------------------------------------------------------


def _solve(args: argparse.Namespace, err: TextIO) -> int:
    from .batch import solve_source

    status = 0
    source = _source(args)
    with _output(args.output) as out:
        limit = args.limit if args.count else 1
        work = _workers(args)
        for item in _readable(solve_source(source, limit=limit, counts=args.count, **work), source):
            if isinstance(item, str):  # the bulk path's finished lines
                out.write(item)
                continue
            rec, solution, count = item
            if rec.error is not None:
                err.write(f"{rec.error}\n")
                status = 1
            elif args.count:
                out.write(f"{count}\n")
            elif solution is None:
                err.write(f"{source.name}, line {rec.line}: no solution\n")
                status = 1
            else:
                out.write(format_grid(solution, rec.fmt, alphabet=args.alphabet) + "\n")
                if rec.fmt == "pretty":
                    out.write("\n")
    return status


_CANON_CHUNK = 2048  # records canonicalised per call into C


def _canon(args: argparse.Namespace, err: TextIO) -> int:
    import json

    status = 0
    seen: set[str] = set()
    source = _source(args)
    with _output(args.output) as out:
        for rec, form, key, error in _canon_records(_records(source), ids=args.id or args.dedupe):
            if rec.error is not None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            if error is not None or form is None:
                err.write(f"{source.name}, line {rec.line}: {error}\n")
                status = 1
                continue
            if args.dedupe:
                if key in seen:
                    continue
                seen.add(key)
            fmt = args.format or rec.fmt
            text = format_grid(form, fmt, alphabet=args.alphabet)
            if args.id and fmt == "json":
                text = json.dumps({**json.loads(text), "id": key})
            elif args.id and fmt == "pretty":
                text = f"# {key}\n{text}"
            elif args.id:
                text = f"{text} {key}"
            out.write(text + ("\n\n" if fmt == "pretty" else "\n"))
    return status


def _canon_records(
    records: Iterable[Record], *, ids: bool
) -> Iterator[tuple[Record, Grid | None, str, str | None]]:
    """Each record with its canonical form and id (or why it has none), in order; the grids
    of one shape in a chunk go to C in one call."""
    from .canon import canonical_many, ids_of_canonical

    it = iter(records)
    while chunk := list(islice(it, _CANON_CHUNK)):
        found: dict[int, tuple[Grid, str] | str] = {}
        shapes: dict[Shape, list[tuple[int, Grid]]] = {}
        for i, rec in enumerate(chunk):
            if rec.grid is not None:
                shapes.setdefault(rec.grid.shape, []).append((i, rec.grid))
        for members in shapes.values():
            try:
                forms = canonical_many([g for _, g in members])
            except ValueError:  # one of them has no form: find it, keep the others
                for i, g in members:
                    try:
                        form = canonical_many([g])[0]
                    except ValueError as e:
                        found[i] = str(e)
                    else:
                        found[i] = (form, ids_of_canonical([form])[0] if ids else "")
                continue
            keys = ids_of_canonical(forms) if ids else [""] * len(forms)
            for (i, _), form, key in zip(members, forms, keys, strict=True):
                found[i] = (form, key)
        for i, rec in enumerate(chunk):
            got = found.get(i)
            if isinstance(got, tuple):
                yield rec, got[0], got[1], None
            else:
                yield rec, None, "", got


_RATE_CSV = (
    "puzzle",
    "er",
    "ep",
    "ed",
    "level",
    "hardest",
    "solved",
    "hodoku_level",
    "hodoku_score",
)


_RATE_CLUSTER_CHUNK = 4  # puzzles a task when rating on a Dask cluster


def _rate(args: argparse.Namespace, err: TextIO) -> int:
    import csv
    import json

    from .batch import map_grids
    from .rating import rate_many

    status = 0
    source = _source(args)
    with ExitStack() as stack:
        out = stack.enter_context(_output(args.output))
        show = err.isatty()
        bar = stack.enter_context(_progress(source.count() if show else None, 0, err))
        writer = csv.writer(out, lineterminator="\n")
        if args.format == "csv":
            writer.writerow(_RATE_CSV)
        rater = partial(rate_many, with_hodoku=args.format in ("json", "csv"))
        # One puzzle a task: a hard one takes seconds, so bigger chunks would hold the others
        # back behind it and leave a worker idle. A cluster's task costs milliseconds more
        # (the scheduler's round trip), as much as rating an easy puzzle: a few a task there.
        work = _workers(args)
        chunk = 1 if work["cluster"] is None else _RATE_CLUSTER_CHUNK
        for rec, rating in map_grids(rater, _records(source), chunk=chunk, **work):
            bar.update(1)
            if rec.grid is None or rating is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            if isinstance(rating, NotUniqueError):
                err.write(f"{source.name}, line {rec.line}: {rating}\n")
                status = 1
                continue
            line = rec.grid.to_line()
            if args.format == "json":
                out.write(json.dumps({"puzzle": line, **rating.to_dict()}) + "\n")
            elif args.format == "csv":
                d = rating.to_dict()
                solved = "yes" if rating.solved else "no"
                row = [line, *(d.get(k, "") for k in _RATE_CSV[1:6]), solved]
                writer.writerow([*row, d.get("hodoku_level", ""), d.get("hodoku_score", "")])
            else:
                out.write(f"{line} {rating}\n")
            out.flush()
    return status


def _explain(args: argparse.Namespace, err: TextIO) -> int:
    import json

    from .logic import Candidates, select, solve_steps

    try:
        techniques = select(args.techniques.split(",")) if args.techniques else None
    except ValueError as exc:
        raise _Fail(f"sudokit explain: error: {exc}", 2) from None
    status = 0
    first = True
    source = _source(args)
    with _output(args.output) as out:
        for rec in _records(source):
            if rec.grid is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            problem = _unique(rec.grid, f"{source.name}, line {rec.line}")
            if problem is not None:
                err.write(problem + "\n")
                status = 1
                continue
            if not first and args.format == "text":
                out.write("\n")
            first = False
            state = Candidates.from_grid(rec.grid)
            count = 0
            for count, step in enumerate(
                solve_steps(state, techniques=techniques, in_place=True), 1
            ):
                if args.format == "json":
                    out.write(json.dumps(step.to_dict()) + "\n")
                else:
                    if args.candidates:
                        out.write(format_candidates(state.shape, state.masks()) + "\n")
                    out.write(f"{count}. [{step.rating:.1f}] {step.text}\n")
            solved = state.is_solved()
            if args.format == "json":
                grid = state.to_grid().to_line()
                final = {"solved": solved, "steps": count, "line": rec.line, "grid": grid}
                out.write(json.dumps(final) + "\n")
            elif solved:
                out.write("Solved.\n")
            else:
                out.write(f"Stuck after {count} steps at {state.to_grid().to_line()}\n")
                out.write(format_candidates(state.shape, state.masks()) + "\n")
            if not solved:
                status = 1
    return status


def _hint(args: argparse.Namespace, err: TextIO) -> int:
    from .logic import hint

    grid = _one_puzzle(args)
    problem = _unique(grid, "sudokit hint")
    if problem is not None:
        raise _Fail(problem)
    with _output(args.output) as out:
        if grid.is_complete():
            out.write("Nothing to hint: the puzzle is solved.\n")
            return 0
        found = hint(grid, args.detail)
        if found is None:
            out.write("No hint: no technique sudokit knows applies here.\n")
            return 1
        out.write(found.text + "\n")
    return 0


def _svg(args: argparse.Namespace, err: TextIO) -> int:
    from .render.svg import svg

    grid = _one_puzzle(args)
    state = step = None
    if args.candidates or args.step:
        from .logic import Candidates, next_step

        problem = _unique(grid, "sudokit svg")
        if problem is not None:
            raise _Fail(problem)
        state = Candidates.from_grid(grid)
        step = next_step(state) if args.step else None
    with _output(args.output) as out:
        out.write(svg(grid, candidates=state, step=step, size=args.size))
    return 0


def _techniques(args: argparse.Namespace, err: TextIO) -> int:
    from .logic import ALL_ORDER

    rows = [("technique", "ER", "steps it prints", "groups")]
    for t in ALL_ORDER:
        rows.append((t.slug, f"{t.rating:.1f}", ", ".join(t.step_names), ", ".join(t.groups)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        sys.stdout.write(
            "  ".join(c.ljust(w) for c, w in zip(row, [*widths, 0], strict=True)).rstrip() + "\n"
        )
    return 0


def _write_book(items: Iterable[Any], path: str, err: TextIO, command: str, **options: Any) -> int:
    """Write the book (``-``: to standard output, unless it is a terminal), or say why not;
    the exit status."""
    from .render.pdf import book

    if path == "-" and sys.stdout.isatty():
        raise _Fail(f"sudokit {command}: error: a PDF to a terminal: give -o FILE, or a pipe", 2)
    try:
        sys.stdout.flush()
        summary = book(items, sys.stdout.buffer if path == "-" else path, **options)
    except OSError as e:
        raise _Fail(f"sudokit {command}: cannot write {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise _Fail(f"sudokit {command}: {e}; {path} was not written") from None
    for note in summary.notes:
        err.write(f"sudokit {command}: {note}\n")
    puzzles = "1 puzzle" if summary.puzzles == 1 else f"{summary.puzzles} puzzles"
    err.write(f"{path}: {puzzles} on {summary.pages} pages\n")
    return 0


def _pdf(args: argparse.Namespace, err: TextIO) -> int:
    from .output import record_label

    bad = 0
    source = _source(args)

    def items() -> Iterator[tuple[Any, Any]]:
        nonlocal bad
        for rec in _records(source):
            problem = rec.error or (
                _unique(rec.grid, f"{source.name}, line {rec.line}") if rec.grid else None
            )
            if problem is not None or rec.grid is None:
                err.write(f"{problem}\n")
                bad += 1
                continue
            yield rec.grid, record_label(rec)

    status = _write_book(
        items(),
        args.book,
        err,
        "pdf",
        **_book_settings(args),
    )
    return status or (1 if bad else 0)


def _resume(
    path: Path, options: dict[str, object], fmt: str, seed: int | None, command: str
) -> tuple[int | None, int]:
    """Where ``sudokit COMMAND --resume`` goes on in ``path``: the file's seed and next index,
    after checking that ``options`` made its records, and with a partial last record cut off.
    Refuses (exit 1; exit 2 for another ``--seed``) what cannot be resumed."""
    from .output import resume_check, resume_point

    try:
        resume_check(path, options, command=command)
        point = resume_point(path, fmt)
    except ValueError as e:
        raise _Fail(f"sudokit {command}: {e}") from None
    except OSError as e:
        raise _Fail(f"sudokit {command}: cannot read {path}: {e.strerror or e}") from None
    if seed is not None and point.seed is not None and seed != point.seed:
        raise _Fail(
            f"sudokit {command}: error: {path} was made with seed {point.seed}, not {seed}", 2
        )
    with path.open("r+b") as f:
        f.truncate(point.length)
    return (point.seed if point.seed is not None else seed), point.next_index


def _generate(args: argparse.Namespace, err: TextIO) -> int:
    from pathlib import Path

    from .difficulty import Request, generate_many
    from .generator import check_timeout
    from .output import (
        csv_header,
        format_records,
        options_comment,
    )

    try:
        request = Request.of(
            shape=args.shape,
            symmetry=args.symmetry,
            clues=args.clues,
            max_clues=args.max_clues,
            minimal=True if args.minimal else None,
            level=args.level,
            er=args.er,
            require=_split(args.require),
            allow=_split(args.allow),
            hodoku_level=args.hodoku_level,
            rate=args.rate,
        )
        check_timeout(args.timeout)
    except ValueError as e:
        raise _Fail(f"sudokit generate: error: {e}", 2) from None
    work = _workers(args)
    if args.resume and args.output in (None, "-"):
        raise _Fail("sudokit generate: error: --resume needs -o FILE", 2)
    if args.resume and args.pdf:
        raise _Fail("sudokit generate: error: --resume cannot add to a --pdf book", 2)
    seed = args.seed
    start = 0
    path = Path(args.output) if args.output not in (None, "-") else None
    # What changes the records: the output's form and the request (its own text form).
    options = {"format": args.format, "with_solution": args.with_solution, **request.items()}
    if args.resume and path is not None and path.exists():
        seed, start = _resume(path, options, args.format, seed, "generate")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    with ExitStack() as stack:
        if path is not None:
            try:
                out: TextIO = stack.enter_context(
                    path.open("a" if args.resume else "w", encoding="utf-8")
                )
            except OSError as e:
                raise _Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
        else:
            out = sys.stdout
        write = path is not None or not args.pdf  # with --pdf alone, the book is the output
        fresh = not args.resume or out.tell() == 0
        if args.format == "csv" and write and fresh:
            out.write(csv_header(with_solution=args.with_solution))
        elif path is not None and fresh:
            out.write(options_comment(options))
        remaining = args.count - start
        bar = stack.enter_context(_progress(args.count, start, err))
        render = partial(
            format_records,
            fmt=args.format if write else None,
            with_solution=args.with_solution,
            keep=bool(args.pdf),
        )
        batches = generate_many(
            max(remaining, 0), request, seed=seed, start=start, timeout=args.timeout, **work
        ).rendered(render)

        def records() -> Iterator[Generated]:
            # Workers format whole chunks; each is written and flushed as it comes, so a killed
            # run leaves whole records and at most one partial last one (--resume cuts it off).
            for batch in batches:
                if write:
                    out.write(batch.text)
                    out.flush()
                if not batch.puzzles:
                    bar.update(batch.count)
                for puzzle in batch.puzzles:  # counted as the book takes them
                    bar.update(1)
                    yield puzzle

        try:
            if args.pdf:
                return _write_book(records(), args.pdf, err, "generate")
            for _ in records():
                pass
        except GenerationError as e:
            raise _Fail(f"sudokit generate: {e}") from None
    return 0


def _hunt_seeds(
    args: argparse.Namespace, bank: Any, err: TextIO
) -> tuple[list[tuple[Grid, float | None]] | None, int]:
    """The seeds ``--seeds`` or ``--from-bank`` give (None: random ones), and the exit
    status so far (1 when a line of the seeds file was bad or not unique: reported, skipped)."""
    if args.from_bank is not None:
        stored = bank.query(limit=args.from_bank, hardest=True)
        if not stored:
            raise _Fail(f"sudokit hunt: {bank.name} holds no puzzle to seed from")
        return [(s.shown, s.rating.er) for s in stored], 0
    if args.seeds is None:
        return None, 0
    from .output import record_label

    status = 0
    found: list[tuple[Grid, float | None]] = []
    source = PuzzleSource(args.seeds)
    for rec in _records(source):
        if rec.grid is None:
            err.write(f"{rec.error}\n")
            status = 1
            continue
        problem = _unique(rec.grid, f"{source.name}, line {rec.line}")
        if problem is not None:
            err.write(f"{problem}; not a seed\n")
            status = 1
            continue
        found.append((rec.grid, record_label(rec).er))
    if not found:
        raise _Fail(f"sudokit hunt: no seed puzzle in {source.name}")
    return found, status


def _hunt(args: argparse.Namespace, err: TextIO) -> int:
    from pathlib import Path

    from .canon import canonical_many, ids_of_canonical
    from .hunt import HuntStats, Vicinity, hunt
    from .output import (
        csv_header,
        format_facts,
        options_comment,
        read_labelled,
    )

    try:
        vicinity = Vicinity.parse(args.vicinity)
    except ValueError as e:
        raise _Fail(f"sudokit hunt: error: {e}", 2) from None
    if args.db and (args.output or args.resume):
        raise _Fail("sudokit hunt: error: --db stores the finds; -o and --resume are for files", 2)
    if args.resume and args.output in (None, "-"):
        raise _Fail("sudokit hunt: error: --resume needs -o FILE", 2)
    if args.from_bank is not None and not args.db:
        raise _Fail("sudokit hunt: error: --from-bank needs --db", 2)
    work = _workers(args)
    path = Path(args.output) if args.output not in (None, "-") else None
    options: dict[str, object] = {
        "format": args.format,
        "min_er": args.min_er,
        "vicinity": str(vicinity),
        "minimal": not args.no_minimise,
        "with_solution": args.with_solution,
        "rate": True,  # every record is rated (what --resume checks of a csv file)
    }
    seed, start = args.seed, 0
    earlier: list[tuple[Grid, float | None]] = []
    with ExitStack() as stack:
        bank = stack.enter_context(_bank(args, create=True)) if args.db else None
        seeds, status = _hunt_seeds(args, bank, err)
        if args.resume and path is not None and path.exists():
            seed, start = _resume(path, options, args.format, seed, "hunt")
            try:
                with path.open(encoding="utf-8") as f:
                    earlier = [
                        (rec.grid, label.er)
                        for rec, label in read_labelled(f, source=str(path))
                        if rec.grid is not None
                    ]
            except (ValueError, OSError) as e:
                raise _Fail(f"sudokit hunt: cannot read {path}: {e}") from None
            earlier = earlier[:start]
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        out: TextIO = sys.stdout
        if path is not None:
            try:
                out = stack.enter_context(path.open("a" if args.resume else "w", encoding="utf-8"))
            except OSError as e:
                raise _Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
            if out.tell() == 0:
                out.write(
                    csv_header(with_solution=args.with_solution)
                    if args.format == "csv"
                    else options_comment(options, command="hunt")
                )
        elif args.format == "csv" and bank is None:
            out.write(csv_header(with_solution=args.with_solution))
        held = set(ids_of_canonical(canonical_many([g for g, _ in earlier]))) if earlier else set()

        def known(ids: Sequence[str]) -> set[str]:
            found = {i for i in ids if i in held}
            return found | bank.held(ids) if bank is not None else found

        bar = stack.enter_context(_progress(args.count, start, err))
        stats = HuntStats()
        finds = hunt(
            None if seeds is None else [*seeds, *earlier],
            min_er=args.min_er,
            vicinity=vicinity,
            minimise=not args.no_minimise,
            seed=seed,
            count=None if args.count is None else max(args.count - start, 0),
            time_limit=args.time,
            known=known,
            pool=args.pool,
            per_seed=args.per_seed,
            start=start,
            stats=stats,
            on_round=partial(_hunt_progress, bar, err, [time.monotonic()]),
            **work,
        )
        try:
            for find in finds:
                bar.update(1)
                facts: dict[str, object] = {
                    "index": find.index,
                    "seed": find.seed,
                    "shape": find.shape,
                    "symmetry": find.symmetry,
                    "clues": find.clues,
                    "minimal": find.minimal,
                    "id": find.id,
                    "from": find.origin.to_line() if find.origin is not None else None,
                }
                if bank is not None:
                    _hunt_store(bank, find)
                    continue
                out.write(
                    format_facts(
                        find.puzzle,
                        find.solution,
                        facts,
                        find.rating,
                        args.format,
                        with_solution=args.with_solution,
                    )
                )
                out.flush()
        finally:
            finds.close()
            bar.close()
            err.write(stats.summary())
    return status


#: Seconds between progress lines when stderr is not a terminal (a log of a long hunt).
_HUNT_LOG_EVERY = 60.0


def _hunt_progress(bar: Any, err: TextIO, last: list[float], stats: Any) -> None:
    """After each round: the bar's figures on a terminal, else a line a minute at most."""
    if not bar.disable:
        bar.set_postfix(stats.progress(), refresh=True)
    elif time.monotonic() - last[0] >= _HUNT_LOG_EVERY:
        last[0] = time.monotonic()
        err.write(" ".join(f"{k}={v}" for k, v in stats.progress().items()) + "\n")
        err.flush()


def _hunt_store(bank: Any, find: Any) -> None:
    """Store one find in the bank, committed at once (a kill loses nothing written)."""
    from .bank import entry_of

    entry = entry_of(
        find.puzzle,
        find.rating,
        techniques=None,
        minimal=find.minimal,
        symmetry=None,
        source=f"hunt seed={find.seed} index={find.index} from={find.origin.to_line()}",
        seed=find.seed,
        index=find.index,
        solution=None,
    )
    for _ in bank.add([entry], batch=1):
        pass


#: The port ``sudokit play`` tries first: a fixed one keeps the page's origin, and so the
#: progress the browser saved for it, from one run to the next.
PLAY_PORT = 8765


def _listen(command: str, host: str, ports: list[int]) -> Any:
    """A socket bound to the first of ``ports`` that is free on ``host``."""
    from .web import require_server

    require_server()  # MissingExtraError: main says which extra to install
    from .web.run import bind

    for i, port in enumerate(ports):
        if not 0 <= port <= 65535:
            raise _Fail(f"sudokit {command}: error: port {port} is outside 0-65535", 2)
        try:
            return bind(host, port)
        except OSError as e:
            if i + 1 == len(ports):
                why = e.strerror or e
                raise _Fail(f"sudokit {command}: cannot listen on {host}:{port}: {why}") from None
    raise AssertionError("no port given")  # pragma: no cover


def _service(command: str, args: argparse.Namespace, ports: list[int], err: TextIO) -> Any:
    """The bank checked and a socket bound for ``serve`` and ``play``: (db, socket)."""
    from .bank import Bank
    from .web.run import is_loopback

    db = args.db or os.environ.get("SUDOKIT_DB") or "sudokit.db"
    try:
        Bank(db).close()  # made when missing; a bad URL or a foreign file fails here
    except SudokitError as e:
        raise _Fail(f"sudokit {command}: {e}") from None
    sock = _listen(command, args.host, ports)
    if not is_loopback(sock.getsockname()[0]):
        err.write(
            f"sudokit {command}: warning: listening on {args.host}, reachable from other "
            "machines; put it behind a reverse proxy with TLS (see docs/serve.md)\n"
        )
    return db, sock


def _open(webbrowser: Any, where: str) -> None:
    webbrowser.open(where)


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    db, sock = _service("serve", args, [args.port], err)
    from .web.run import run, url

    where = url(sock)
    sys.stdout.write(f"Serving {db} at {where} (API docs: {where}api/v1/docs; Ctrl+C stops)\n")
    sys.stdout.flush()
    with sock:
        run(
            sock,
            db=db,
            workers=args.workers,
            pool=args.jobs,
            time_limit=args.time_limit,
            log_level="info",
            access_log=args.access_log,
        )
    return 0


def _play(args: argparse.Namespace, err: TextIO) -> int:
    import webbrowser

    args.time_limit = args.timeout
    ports = [PLAY_PORT, 0] if args.port is None else [args.port]
    db, sock = _service("play", args, ports, err)
    from .web.run import run, url

    where = url(sock)
    sys.stdout.write(f"Playing at {where} (Ctrl+C to stop)\n")
    sys.stdout.flush()
    with sock:
        run(
            sock,
            db=db,
            time_limit=args.timeout,
            log_level="warning",
            on_started=None if args.no_browser else partial(_open, webbrowser, where),
        )
    return 0


def _html(args: argparse.Namespace, err: TextIO) -> int:
    from ._files import replacing
    from .web.page import offline_page, puzzle_data

    source = _source(args)
    status = 0
    puzzles = []
    with _progress(source.count() if err.isatty() else None, 0, err) as bar:
        for rec in _records(source):
            bar.update(1)
            if rec.grid is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            try:
                puzzles.append(puzzle_data(rec.grid))
            except SudokitError as e:
                err.write(f"{source.name}, line {rec.line}: {e}\n")
                status = 1
    if not puzzles:
        raise _Fail(f"sudokit html: no puzzle to write from {source.name}")
    try:
        page = offline_page(puzzles).encode()
        if args.page == "-":
            sys.stdout.flush()
            sys.stdout.buffer.write(page)
        else:
            with replacing(args.page) as f:
                f.write(page)
    except OSError as e:
        raise _Fail(f"sudokit html: cannot write {args.page}: {e.strerror or e}") from None
    err.write(f"{args.page}: {len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}\n")
    return status


# The bank ---------------------------------------------------------------------------------------


def _bank(args: argparse.Namespace, *, create: bool = False) -> Any:
    """The bank of ``--db``, ``$SUDOKIT_DB`` or ``sudokit.db``; made when ``create``."""
    from .bank import Bank

    target = args.db or os.environ.get("SUDOKIT_DB") or "sudokit.db"
    try:
        return Bank(target, create=create)
    except SudokitError as e:
        raise _Fail(f"sudokit bank: {e}") from None


def _bank_add(args: argparse.Namespace, err: TextIO) -> int:
    from ._parallel import default_jobs
    from .bank import Refusal, prepared, without_gc

    source = _source(args)
    jobs = args.jobs or default_jobs()
    refused = added = duplicates = 0
    with ExitStack() as stack:
        # This process only reads, stores and counts (the puzzles to rate go to worker
        # processes): no cyclic garbage collection while the puzzles stream through (none of
        # their tuples is in a cycle; the collector's passes over them take a tenth of its time).
        stack.enter_context(without_gc())
        # Chunks as the input gives them, read and prepared but for the ratings here (-j 1)
        # or by jobs - 1 worker processes; the bank has them rated by jobs processes.
        chunks = _readable(prepared(source, jobs=jobs, rerate=args.rerate, triage=True), source)
        first = next(chunks, None)  # an unreadable input fails before a bank is made
        bank = stack.enter_context(_bank(args, create=True))
        bar = stack.enter_context(_progress(source.count() if err.isatty() else None, 0, err))
        quiet = args.quiet
        given = chain([first] if first is not None else [], chunks)
        for outcome in bank.add_file(given, jobs=jobs, batch=args.batch):
            bar.update(1)
            if isinstance(outcome, Refusal):
                err.write(f"{outcome.message}\n")
                refused += 1
            elif outcome.new:
                added += 1
            else:
                duplicates += 1
                if not quiet:
                    where, _, line = outcome.entry.source.rpartition(":")
                    err.write(f"{where}, line {line}: duplicate of {outcome.entry.id}, not added\n")
    err.write(f"{bank.name}: added {added}, duplicates {duplicates}, refused {refused}\n")
    return 1 if refused else 0


def _readable(items: Iterator[T], source: PuzzleSource) -> Iterator[T]:
    """``items``, with a file that cannot be read made a failure (exit 1)."""
    try:
        first = next(items, None)
    except OSError as e:
        raise _Fail(f"sudokit: cannot read {source.source}: {e.strerror or e}") from None
    if first is not None:
        yield first
        yield from items


def _bank_fill(args: argparse.Namespace, err: TextIO) -> int:
    from .bank import check_fill

    new = duplicates = 0
    try:  # every option checked before a bank is opened, or made
        request = check_fill(
            args.count,
            timeout=args.timeout,
            shape=args.shape,
            symmetry=args.symmetry,
            level=args.level,
            er=args.er,
            require=_split(args.require),
        )
    except ValueError as e:
        raise _Fail(f"sudokit bank fill: error: {e}", 2) from None
    work = _workers(args)
    with ExitStack() as stack:
        bank = stack.enter_context(_bank(args, create=True))
        bar = stack.enter_context(_progress(args.count, 0, err))
        try:
            fill = bank.fill(args.count, request, seed=args.seed, timeout=args.timeout, **work)
            for outcome in fill:
                if outcome.new:
                    new += 1
                    bar.update(1)
                else:
                    duplicates += 1
        except ValueError as e:
            raise _Fail(f"sudokit bank fill: error: {e}", 2) from None
        except (GenerationError, ClusterError) as e:
            err.write(f"{bank.name}: added {new}, duplicates {duplicates}\n")
            raise _Fail(f"sudokit bank fill: {e}") from None
    err.write(f"{bank.name}: added {new}, duplicates {duplicates}\n")
    return 0


def _bank_filters(args: argparse.Namespace) -> Any:
    from .bank import Filters
    from .rating import Level

    require = tuple(name for text in args.require or () for name in _split(text) or ())
    try:
        return Filters(
            level=Level.parse(args.level) if args.level else None,
            er=args.er,
            require=require,
            clues=args.clues,
            shape=args.shape,
            symmetry=args.symmetry,
        )
    except ValueError as e:
        raise _Fail(f"sudokit bank {args.bank_command}: error: {e}", 2) from None


def _bank_served(
    args: argparse.Namespace, *, with_solution: bool
) -> list[tuple[Any, Grid, Grid | None, dict[str, object]]]:
    """Each stored puzzle the filters select, as served: (stored, puzzle, solution, facts);
    the solution only ``with_solution`` (a shown or isomorphic form's is solved here)."""
    import random

    from .generator import symmetry_of

    filters = _bank_filters(args)
    rng = random.Random(int.from_bytes(os.urandom(16), "little"))
    with _bank(args) as bank:
        found = bank.query(filters, limit=args.limit, randomly=args.random, rng=rng)
    served = []
    for s in found:
        facts: dict[str, object]
        solution: Grid | None = None
        if args.isomorph:  # no id, seed or index: nothing leads back to the stored text
            t = s.isomorph_transform(rng)
            puzzle = t.apply(s.shown)
            if with_solution:
                solution = t.apply(s.shown_solution())
            facts = {"shape": s.shape, "symmetry": symmetry_of(puzzle)}
        elif args.canonical:
            puzzle, solution = s.puzzle, s.solution
            facts = {"shape": s.shape, "symmetry": symmetry_of(puzzle)}
        else:
            puzzle = s.shown
            if with_solution:
                solution = s.shown_solution()
            facts = {"index": s.index, "seed": s.seed, "shape": s.shape, "symmetry": s.symmetry}
        facts.update(clues=puzzle.clue_count, minimal=s.minimal)
        if not args.isomorph:
            facts["id"] = s.id
        served.append((s, puzzle, solution, facts))
    return served


def _bank_query(args: argparse.Namespace, err: TextIO) -> int:
    from .output import csv_header, format_facts

    served = _bank_served(args, with_solution=args.with_solution)
    with _output(args.output) as out:
        if args.format == "csv":
            out.write(csv_header(with_solution=args.with_solution))
        for s, puzzle, solution, facts in served:
            out.write(
                format_facts(
                    puzzle, solution, facts, s.rating, args.format, with_solution=args.with_solution
                )
            )
    return 0


def _bank_export(args: argparse.Namespace, err: TextIO) -> int:
    from .output import Label

    items = []
    for s, puzzle, _, facts in _bank_served(args, with_solution=False):
        seed, index = facts.get("seed"), facts.get("index")
        label = Label(
            level=str(s.rating.level),
            er=s.rating.er,
            seed=seed if isinstance(seed, int) else None,
            index=index if isinstance(index, int) else None,
        )
        items.append((puzzle, label))
    if not items:
        raise _Fail("sudokit bank export: no stored puzzle matches the filters; no book written")
    return _write_book(
        items,
        args.book,
        err,
        "bank export",
        **_book_settings(args),
    )


def _bank_stats(args: argparse.Namespace, err: TextIO) -> int:
    import json

    with _bank(args) as bank:
        stats = bank.stats()
    if args.json:
        sys.stdout.write(json.dumps(stats) + "\n")
        return 0
    sys.stdout.write(f"{bank.name}: {stats['puzzles']} puzzles\n")
    for name in ("shape", "level", "hardest", "clues"):
        sys.stdout.write(f"\nby {name}:\n")
        counts = stats[name]
        width = max((len(str(k)) for k in counts), default=0)
        for key, value in counts.items():
            sys.stdout.write(f"  {str(key).ljust(width)}  {value}\n")
    return 0


# Entry point -----------------------------------------------------------------------------------


def _joined_vicinity(argv: Sequence[str]) -> list[str]:
    """``--vicinity -2+2`` as ``--vicinity=-2+2``: argparse takes a value that starts with a
    dash (and is not a plain negative number) for an option, and the forum writes them so."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--vicinity":
            value = next(it, None)
            out.append(arg if value is None else f"--vicinity={value}")
        else:
            out.append(arg)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    words = _joined_vicinity(sys.argv[1:] if argv is None else argv)
    args = _parser(_command_of(words)).parse_args(words)
    try:
        status: int = args.func(args, sys.stderr)
        sys.stdout.flush()
        return status
    except _Fail as e:
        sys.stderr.write(f"{e}\n")
        return e.status
    except MissingExtraError as e:  # --cluster without Dask, serve without its extra, ...
        sys.stderr.write(f"sudokit {args.command}: {e}\n")
        return 1
    except ClusterError as e:  # the cluster failed the run (unreachable, lost)
        sys.stderr.write(f"sudokit {args.command}: {e}\n")
        return 1
    except KeyboardInterrupt:
        kept = (
            "; finished records are kept (--resume goes on)" if args.command == "generate" else ""
        )
        sys.stderr.write(f"sudokit: interrupted{kept}\n")
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 1
    except OSError as e:  # writing the output failed: a full disk, a closed device
        target = getattr(args, "output", None) or "standard output"
        sys.stderr.write(f"sudokit {args.command}: cannot write {target}: {e.strerror or e}\n")
        _drop_stdout()
        return 1


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush at exit cannot fail again
    with a traceback after the error has been reported."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no real stdout (captured in tests)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
