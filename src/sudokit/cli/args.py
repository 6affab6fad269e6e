"""What the commands share: argument types, the option groups several commands take, and the
plumbing every handler uses (the puzzle source, the output, the progress bar, the workers, the
bank, a PDF book, the failure that ``main`` reports)."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from itertools import islice
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

from .._shape import Shape
from ..errors import ClusterError, NotUniqueError, SudokitError
from ..formats import PuzzleSource, Record

if TYPE_CHECKING:
    from tqdm import tqdm

    from .._grid import Grid

T = TypeVar("T")


class Fail(Exception):
    """A command cannot go on: ``main`` prints the message and exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# Argument types ----------------------------------------------------------------------------------


def shape_arg(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except SudokitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _span(kind: type[int], example: str) -> Any:
    """An argparse type for ``LO-HI`` (or one value) of whole numbers."""

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


clues_arg = _span(int, "22-26")


def range_arg(text: str) -> tuple[float, float]:
    """An ER range ``LO-HI`` (or one value) on Sudoku Explainer's scale: a target off the
    scale can never be met, so it is a usage error at once rather than a long search."""
    from ..rating import parse_er_range

    try:
        return parse_er_range(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def er_arg(text: str) -> float:
    """One ER on the scale."""
    lo, hi = range_arg(text)
    if lo != hi:
        raise argparse.ArgumentTypeError(f"expected one ER, got the range {text!r}")
    return lo


def seconds(text: str) -> float:
    """A positive, finite number of seconds (``nan``, ``inf``, 0 and below are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def split(text: str | None) -> list[str] | None:
    return None if text is None else [t.strip() for t in text.split(",") if t.strip()]


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``15m`` or ``8h``."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0}
    scale = units.get(text[-1:].lower(), 0.0)
    try:
        return seconds(text[:-1] if scale else text) * (scale or 1.0)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected a positive time in seconds or like 90m or 8h, got {text!r}"
        ) from None


# Option groups several commands share ------------------------------------------------------------


def rules_arg(text: str) -> str:
    """The text of ``--rules``, checked (argparse's error, exit 2, names what is wrong)."""
    from ..errors import InvalidRulesError
    from ..rules import Rules

    try:
        return str(Rules(text))
    except InvalidRulesError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def bank_rules_arg(text: str) -> str:
    """:func:`rules_arg` for the bank's filters, where ``killer`` without its cages asks for
    every killer (``killer+x``: every killer-X)."""
    from ..bank import Filters

    try:
        return str(Filters(rules=text).rules)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def layout_rules_arg(text: str) -> str:
    """:func:`rules_arg` for ``generate``, where ``jigsaw`` without a map asks for a random
    layout a puzzle."""
    from ..errors import InvalidRulesError
    from ..layouts import request_rules

    try:
        return str(request_rules(text))
    except InvalidRulesError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def rules_option(p: argparse.ArgumentParser | Any, *, listed: bool = False) -> None:
    """``--rules RULES``: the rules of the puzzles (those whose records state none, for the
    commands that read puzzles). ``listed``: ``generate``'s, whose help lists the rule sets
    (which loads :mod:`sudokit.rules`, so only for commands that load it anyway) and which
    takes ``jigsaw`` without a map."""
    kind = rules_arg
    if listed:
        kind = layout_rules_arg
        from ..rules import ALIASES, RULES

        known = "; ".join(f"{name}: {meaning}" for name, meaning in RULES.items())
        aliases = ", ".join(f"{a} = {name}" for a, name in ALIASES.items())
        more = f" (also {aliases})" if aliases else ""
        help_text = (
            "rules beyond the classic ones, joined by + (e.g. x+windoku): "
            + known
            + more
            + "; plain jigsaw: a random region layout for each puzzle (with the symmetry); "
            "plain killer: a random cage layout for each puzzle, unique with no givens"
        )
    else:
        help_text = (
            "the puzzles' rules, joined by + (e.g. x+windoku, antiknight, nc, "
            "jigsaw:<region map>), for records that state none; see sudokit generate --help"
        )
    p.add_argument("--rules", metavar="RULES", type=kind, help=help_text)


def parents() -> dict[str, argparse.ArgumentParser]:
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
    source.add_argument("--shape", type=shape_arg, help="box shape, e.g. 2x3, when not inferable")
    rules_option(source)
    one = parent()
    one.add_argument(
        "source", metavar="PUZZLE", help="a puzzle (one line, in quotes), a file holding one, or -"
    )
    one.add_argument("--shape", type=shape_arg, help="box shape, e.g. 2x3, when not inferable")
    rules_option(one)
    output = parent()
    output.add_argument(
        "-o", "--output", help="write to this file instead of stdout (- for stdout)"
    )
    jobs = parent()
    jobs.add_argument(
        "--jobs", "-j", type=positive, default=None, help="worker processes (default: all cores)"
    )
    work = parent()  # commands that can also run on a Dask cluster
    where = work.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs", "-j", type=positive, default=None, help="worker processes (default: all cores)"
    )
    where.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run the work as tasks on a Dask cluster: local, local:N (N worker processes of "
        "this machine) or a scheduler's address, tcp://HOST:8786 "
        '(pip install "sudokit[cluster]")',
    )
    return {"source": source, "one": one, "output": output, "jobs": jobs, "work": work}


def record_options(p: argparse.ArgumentParser) -> None:
    """The seed and the record options of the commands that make puzzles (generate, hunt)."""
    from ..output import RECORD_FORMATS

    p.add_argument("--seed", type=int, help="seed (default: random, and stated in each record)")
    p.add_argument(
        "--format",
        type=record_format_arg,
        choices=RECORD_FORMATS,
        default="line",
        help="record format (pretty: a pretty grid a record, as canon --format pretty; "
        "fpuzzles, ipuz: an f-puzzles or ipuz puzzle object a line; link: an f-puzzles link a "
        "line, which SudokuPad opens too)",
    )
    p.add_argument("--with-solution", action="store_true", help="add each puzzle's solution")


def record_format_arg(text: str) -> str:
    """A record format's name, its old name (``grid``, now ``pretty``) said and taken."""
    from ..output import OLD_FORMAT_NAMES

    new = OLD_FORMAT_NAMES.get(text)
    if new is None:
        return text
    sys.stderr.write(f"sudokit: --format {text} is now called --format {new}\n")
    return new


def book_options(p: argparse.ArgumentParser) -> None:
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


def book_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The options :func:`book_options` declares, as :func:`sudokit.render.pdf.book` takes them."""
    from ..output import LABEL_FIELDS

    return {
        "per_page": args.per_page,
        "page_size": args.page_size,
        "title": args.title,
        "solutions": not args.no_solutions,
        "explain": args.explain,
        "pencil_marks": args.pencil_marks,
        "labels": ("number",) if args.no_labels else LABEL_FIELDS,
    }


# Shared plumbing ---------------------------------------------------------------------------------


def source_of(args: argparse.Namespace) -> PuzzleSource:
    return PuzzleSource(
        args.source,
        shape=args.shape,
        alphabet=getattr(args, "alphabet", None),
        rules=getattr(args, "rules", None),
    )


def records_of(source: PuzzleSource) -> Iterator[Record]:
    """The source's records; a file that cannot be read is a failure (exit 1)."""
    return readable(source.records(), source)


def one_puzzle(args: argparse.Namespace) -> Grid:
    """The one puzzle a command such as ``hint`` takes; a failure (exit 1) otherwise."""
    records = list(islice(records_of(source_of(args)), 2))  # 2: enough to refuse
    if len(records) != 1:
        raise Fail(f"sudokit {args.command}: give exactly one puzzle, not {len(records) or 'none'}")
    if records[0].grid is None:
        raise Fail(f"sudokit {args.command}: {records[0].error}")
    return records[0].grid


def unique(grid: Grid, where: str) -> str | None:
    """None when ``grid`` has one solution, else the message saying what is wrong."""
    from ..engine import unique_solution

    try:
        unique_solution(grid)
    except NotUniqueError as e:
        return f"{where}: {e}"
    return None


@contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    """stdout (no ``path``, or ``-``), or the file ``path`` (a clear failure when it cannot be
    opened); a file is written as it goes, through a symbolic link, into a FIFO or device."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with ExitStack() as stack:
        try:
            f = stack.enter_context(open(path, "w", encoding="utf-8"))
        except OSError as e:
            raise Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
        yield f


def progress(total: int | None, initial: int, err: TextIO) -> tqdm[NoReturn]:
    """A progress bar on ``err`` when it is a terminal (count, rate, and with a total, ETA),
    else a silent one."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, file=err, unit=" puzzles", disable=not err.isatty())


def workers(args: argparse.Namespace) -> dict[str, Any]:
    """``jobs`` and ``cluster`` for the library, from ``--jobs`` / ``--cluster``; a usage error
    (status 2) for a malformed address, MissingExtraError (status 1, as for every missing
    extra) when Dask is missing: before any work or output."""
    from .._parallel import default_jobs

    if args.cluster is not None:
        from ..cluster import check

        try:
            check(args.cluster)
        except ClusterError as e:
            raise Fail(f"sudokit {args.command}: error: {e}", 2) from None
    return {"jobs": args.jobs or default_jobs(), "cluster": args.cluster}


def write_book(items: Iterable[Any], path: str, err: TextIO, command: str, **options: Any) -> int:
    """Write the book (``-``: to standard output, unless it is a terminal), or say why not;
    the exit status."""
    from ..render.pdf import book

    if path == "-" and sys.stdout.isatty():
        raise Fail(f"sudokit {command}: error: a PDF to a terminal: give -o FILE, or a pipe", 2)
    try:
        sys.stdout.flush()
        summary = book(items, sys.stdout.buffer if path == "-" else path, **options)
    except OSError as e:
        raise Fail(f"sudokit {command}: cannot write {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise Fail(f"sudokit {command}: {e}; {path} was not written") from None
    for note in summary.notes:
        err.write(f"sudokit {command}: {note}\n")
    puzzles = "1 puzzle" if summary.puzzles == 1 else f"{summary.puzzles} puzzles"
    err.write(f"{path}: {puzzles} on {summary.pages} pages\n")
    return 0


def open_bank(args: argparse.Namespace, *, create: bool = False) -> Any:
    """The bank of ``--db``, ``$SUDOKIT_DB`` or ``sudokit.db``; made when ``create``."""
    from ..bank import Bank

    target = args.db or os.environ.get("SUDOKIT_DB") or "sudokit.db"
    try:
        return Bank(target, create=create)
    except SudokitError as e:
        raise Fail(f"sudokit bank: {e}") from None


def readable(items: Iterator[T], source: PuzzleSource) -> Iterator[T]:
    """``items``, with a file that cannot be read made a failure (exit 1)."""
    try:
        first = next(items, None)
    except OSError as e:
        raise Fail(f"sudokit: cannot read {source.source}: {e.strerror or e}") from None
    if first is not None:
        yield first
        yield from items
