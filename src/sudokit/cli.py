"""The ``sudokit`` command: a thin layer that parses arguments, calls the library and prints.

Exit status: 0 when every input was handled, 1 when some input was bad or had no solution
(each reported on stderr with its line number), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from typing import TextIO

from . import __version__
from ._shape import Shape
from .batch import solve_records
from .errors import SudokitError
from .formats import format_grid, read_puzzles

__all__ = ["main"]


def _shape_arg(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except SudokitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sudokit", description="Generate, solve, rate, explain, print and play Sudoku."
    )
    p.add_argument("--version", action="version", version=f"sudokit {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser(
        "solve",
        help="solve puzzles from a file or stdin",
        description="Solve one puzzle per line (or grids separated by blank lines) and print "
        "each solution in the puzzle's own format. Bad lines are reported on stderr with their "
        "line number and skipped; the exit status is then 1.",
    )
    s.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
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
    s.add_argument("--jobs", "-j", type=_positive, default=1, help="worker processes (default 1)")
    s.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    s.add_argument("--alphabet", help="digit symbols in order, e.g. 0123456789ABCDEF")
    s.add_argument("-o", "--output", help="write to this file instead of stdout")
    return p


def _lines(stream: TextIO) -> Iterator[str]:
    yield from stream


def _solve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = 0
    source = "<stdin>" if args.file == "-" else args.file
    with ExitStack() as stack:
        if args.file == "-":
            stream: TextIO = sys.stdin
        else:
            try:
                stream = stack.enter_context(open(args.file, encoding="utf-8", errors="replace"))
            except OSError as e:
                err.write(f"sudokit: cannot read {args.file}: {e.strerror}\n")
                return 1
        records = read_puzzles(
            _lines(stream), shape=args.shape, alphabet=args.alphabet, source=source
        )
        limit = args.limit if args.count else 1
        for rec, solution, count in solve_records(records, limit=limit, jobs=args.jobs):
            if rec.error is not None:
                err.write(f"{rec.error}\n")
                status = 1
            elif args.count:
                out.write(f"{count}\n")
            elif solution is None:
                err.write(f"{source}, line {rec.line}: no solution\n")
                status = 1
            else:
                out.write(format_grid(solution, rec.fmt) + "\n")
                if rec.fmt == "pretty":
                    out.write("\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    with ExitStack() as stack:
        out: TextIO = sys.stdout
        if getattr(args, "output", None):
            try:
                out = stack.enter_context(open(args.output, "w", encoding="utf-8"))
            except OSError as e:
                sys.stderr.write(f"sudokit: cannot write {args.output}: {e.strerror}\n")
                return 1
        try:
            if args.command == "solve":
                return _solve(args, out, sys.stderr)
        except KeyboardInterrupt:
            sys.stderr.write("sudokit: interrupted\n")
            return 130
        except BrokenPipeError:
            return 1
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
