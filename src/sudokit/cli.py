"""The ``sudokit`` command: a thin layer that parses arguments, calls the library and prints.

Exit status: 0 when every input was handled, 1 when some input was bad or had no solution
(each reported on stderr with its line number), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, NoReturn, TextIO

from tqdm import tqdm

from . import __version__
from ._grid import Grid
from ._parallel import default_jobs
from ._shape import MAX_SIDE, Shape
from .batch import solve_records
from .errors import GenerationError, SudokitError
from .formats import Record, format_candidates, format_grid, read_puzzles
from .generator import SYMMETRIES, Generated, _difficulty_of, check_options, generate_many
from .output import RECORD_FORMATS, csv_header, format_records, resume_point

__all__ = ["main"]

SHAPES_HELP = (
    f"Shapes: boxes of ROWSxCOLS cells, each side at least 2, giving grids of side 4 to "
    f"{MAX_SIDE} (2x2, 2x3, 3x3, 3x4, 4x4, 5x5, 6x6 ...); square boxes are inferred from the "
    "cell count, others need --shape unless a record states it."
)


def _shape_arg(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except SudokitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _range_arg(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("-")
    try:
        low = float(lo)
        high = float(hi) if sep else low
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO-HI like 6.5-8.0, got {text!r}") from None
    if low > high:
        raise argparse.ArgumentTypeError(f"empty range {text!r}")
    return low, high


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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sudokit",
        description="Generate, solve, rate, explain, print and play Sudoku.",
        epilog=SHAPES_HELP,
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

    g = sub.add_parser(
        "generate",
        help="generate puzzles with exactly one solution",
        description="Generate puzzles, each proven to have one solution, streamed as they are "
        "made. With no clue target, each puzzle is minimal (with a symmetry: no symmetric orbit "
        "of clues can be removed). Each record states the seed and index that make it again; "
        "the same arguments and seed give the same output whatever --jobs is.",
    )
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
    g.add_argument("--seed", type=int, help="seed (default: random, and stated in each record)")
    g.add_argument(
        "--jobs", "-j", type=_positive, default=None, help="worker processes (default: all cores)"
    )
    g.add_argument("--format", choices=RECORD_FORMATS, default="line", help="record format")
    g.add_argument("--with-solution", action="store_true", help="add each puzzle's solution")
    g.add_argument("-o", "--output", help="write to this file instead of stdout")
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
        help="with -o: keep the whole records already in the file and make the rest",
    )
    g.add_argument(
        "--timeout",
        type=float,
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
    e = sub.add_parser(
        "explain",
        help="solve step by step as a person would, explaining each step",
        description="Print the solve path of each puzzle: one numbered step per line with its "
        "Sudoku Explainer rating and explanation, then whether the puzzle was solved.",
    )
    e.add_argument("puzzle", help="a puzzle (one line, in quotes) or a file of puzzles, or -")
    e.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    e.add_argument(
        "--candidates", action="store_true", help="print the pencil-mark grid before each step"
    )
    e.add_argument(
        "--techniques", help="only these techniques, comma-separated (e.g. singles,pointing)"
    )
    e.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")

    r = sub.add_parser(
        "rate",
        help="rate puzzles as Sudoku Explainer does (ER/EP/ED)",
        description="Rate each puzzle with Sudoku Explainer's rules. By default prints serate's "
        "form, 'PUZZLE ED=ER/EP/ED'; json and csv add the level and hardest technique. Bad lines "
        "are reported on stderr and skipped; the exit status is then 1.",
    )
    r.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    r.add_argument("--format", choices=("serate", "json", "csv"), default="serate")
    r.add_argument("--jobs", "-j", type=_positive, default=None, help="processes (default: all)")
    r.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    r.add_argument("-o", "--output", help="write to this file instead of stdout")

    h = sub.add_parser("hint", help="a progressive hint for the next step")
    h.add_argument("puzzle", help="a puzzle, one line (in quotes), or a pretty grid file")
    h.add_argument(
        "--level",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="1: technique and where; 2: cells and digits; 3: the whole deduction",
    )
    h.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")

    b = sub.add_parser(
        "pdf",
        help="print puzzles as a PDF book",
        description="Lay out puzzles as a PDF book, with the solutions at the back. The input "
        "holds puzzles in any format sudokit reads; the labels show what its records state "
        "(sudokit generate's index, seed, level and rating). Bad lines are reported on stderr "
        "and skipped; the exit status is then 1.",
    )
    b.add_argument("file", help="input file, or - for stdin")
    b.add_argument("-o", "--output", dest="book", required=True, help="the PDF file to write")
    _book_options(b)
    b.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")

    v = sub.add_parser(
        "svg",
        help="draw a puzzle as SVG",
        description="Draw one puzzle as an SVG picture, optionally with its pencil marks and "
        "the next logic step highlighted.",
    )
    v.add_argument("puzzle", help="a puzzle (one line, in quotes) or a file holding one, or -")
    v.add_argument("--candidates", action="store_true", help="draw the pencil marks")
    v.add_argument(
        "--step", action="store_true", help="highlight the next logic step (with pencil marks)"
    )
    v.add_argument("--size", type=_positive, help="width and height in pixels")
    v.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    v.add_argument("-o", "--output", help="write to this file instead of stdout")

    w = sub.add_parser(
        "play",
        help="play in the browser (a local web server)",
        description="Serve the play page on this machine and open it in the browser: new "
        "puzzles by level and size, pencil marks, undo, checking, and hints from the logic "
        "engine. Progress is kept in the browser. Stop with Ctrl+C.",
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
        type=float,
        default=15.0,
        help="seconds to look for a puzzle of the asked level before giving the closest "
        "(default 15)",
    )

    m = sub.add_parser(
        "html",
        help="write an offline page to play puzzles from a file",
        description="Write one self-contained HTML page (no server, works from a file) to play "
        "the puzzles of FILE, in any format sudokit reads, with their solutions and hint paths "
        "embedded. Bad lines and puzzles without exactly one solution are reported on stderr "
        "and left out; the exit status is then 1.",
    )
    m.add_argument("file", help="input file, or - for stdin")
    m.add_argument("-o", "--output", dest="page", required=True, help="the HTML file to write")
    m.add_argument("--shape", type=_shape_arg, help="box shape, e.g. 2x3, when not inferable")
    return p


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


def _write_book(items: Iterable[Any], path: str, err: TextIO, command: str, **options: Any) -> int:
    """Write the book, or say why not (an unwritable path); the exit status."""
    from .render.pdf import book

    try:
        summary = book(items, path, **options)
    except OSError as e:
        err.write(f"sudokit {command}: cannot write {path}: {e.strerror or e}\n")
        return 1
    puzzles = "1 puzzle" if summary.puzzles == 1 else f"{summary.puzzles} puzzles"
    err.write(f"{path}: {puzzles} on {summary.pages} pages\n")
    return 0


def _pdf(args: argparse.Namespace, err: TextIO) -> int:
    from .render.pdf import read_labelled

    bad = 0
    source = "<stdin>" if args.file == "-" else args.file
    with ExitStack() as stack:
        stream = _input(args.file, stack)

        def items() -> Iterator[tuple[Any, Any]]:
            nonlocal bad
            for rec, label in read_labelled(_lines(stream), shape=args.shape, source=source):
                if rec.grid is None:
                    err.write(f"{rec.error}\n")
                    bad += 1
                    continue
                yield rec.grid, label

        status = _write_book(
            items(),
            args.book,
            err,
            "pdf",
            per_page=args.per_page,
            page_size=args.page_size,
            title=args.title,
            solutions=not args.no_solutions,
            explain=args.explain,
            pencil_marks=args.pencil_marks,
        )
    return status or (1 if bad else 0)


def _svg(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .render.svg import svg

    grid = _one_puzzle(args, "svg")
    state = step = None
    if args.candidates or args.step:
        from .logic import Candidates, next_step

        state = Candidates.from_grid(grid)
        step = next_step(state) if args.step else None
    out.write(svg(grid, candidates=state, step=step, size=args.size))
    return 0


def _puzzle_records(text: str, shape: Shape | None) -> Iterator[Record]:
    """Records from a file path, ``-`` (stdin), or the puzzle text itself."""
    if text == "-":
        yield from read_puzzles(sys.stdin, shape=shape)
        return
    path = Path(text)
    if len(text) < 4096 and path.is_file():
        with path.open(encoding="utf-8", errors="replace") as f:
            yield from read_puzzles(f, shape=shape, source=text)
        return
    yield from read_puzzles(text.splitlines(), shape=shape, source="<argument>")


def _one_puzzle(args: argparse.Namespace, command: str) -> Grid:
    """The one puzzle a command such as ``hint`` takes; a usage error (exit 2) otherwise."""
    records = list(islice(_puzzle_records(args.puzzle, args.shape), 2))  # 2: enough to refuse
    if len(records) != 1 or records[0].grid is None:
        reason = records[0].error if records and records[0].error else None
        raise _Fail(f"sudokit {command}: error: {reason or 'give exactly one puzzle'}", 2)
    return records[0].grid


def _explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .logic import Candidates, select, solve_steps

    try:
        techniques = select(args.techniques.split(",")) if args.techniques else None
    except ValueError as exc:
        err.write(f"sudokit explain: error: {exc}\n")
        return 2
    status = 0
    first = True
    for rec in _puzzle_records(args.puzzle, args.shape):
        if rec.grid is None:
            err.write(f"{rec.error}\n")
            status = 1
            continue
        if not first and args.format == "text":
            out.write("\n")
        first = False
        state = Candidates.from_grid(rec.grid)
        count = 0
        walk = solve_steps(state, techniques=techniques, in_place=True)
        for count, step in enumerate(walk, 1):
            if args.format == "json":
                out.write(json.dumps(step.to_dict()) + "\n")
            else:
                if args.candidates:
                    out.write(format_candidates(state.shape, state.masks()) + "\n")
                out.write(f"{count}. [{step.rating:.1f}] {step.text}\n")
        solved = state.is_solved()
        if args.format == "json":
            final = {
                "solved": solved,
                "steps": count,
                "line": rec.line,
                "grid": state.to_grid().to_line(),
            }
            out.write(json.dumps(final) + "\n")
        else:
            out.write(
                "Solved.\n"
                if solved
                else f"Stuck after {count} steps at {state.to_grid().to_line()}\n"
            )
            if not solved:
                out.write(format_candidates(state.shape, state.masks()) + "\n")
        if not solved:
            status = max(status, 1)
    return status


def _rate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .batch import map_grids
    from .rating import rate_many

    status = 0
    source = "<stdin>" if args.file == "-" else args.file
    with ExitStack() as stack:
        stream = _input(args.file, stack)
        bar = stack.enter_context(_progress(0, 0, err))
        records = read_puzzles(_lines(stream), shape=args.shape, source=source)
        if args.format == "csv":
            out.write("puzzle,er,ep,ed,level,hardest,solved,hodoku_level,hodoku_score\n")
        jobs = args.jobs or default_jobs()
        with_hodoku = args.format in ("json", "csv")
        rater = partial(rate_many, with_hodoku=with_hodoku)
        for rec, rating in map_grids(rater, records, jobs=jobs, chunk=16):
            bar.update(1)
            if rec.grid is None or rating is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            line = rec.grid.to_line()
            if args.format == "json":
                out.write(json.dumps({"puzzle": line, **rating.to_dict()}) + "\n")
            elif args.format == "csv":
                d = rating.to_dict()
                out.write(
                    f"{line},{d['er']},{d['ep']},{d['ed']},{d['level']},{d['hardest']},"
                    f"{'yes' if rating.solved else 'no'},{d.get('hodoku_level', '')},"
                    f"{d.get('hodoku_score', '')}\n"
                )
            else:
                out.write(f"{line} {rating}\n")
            out.flush()
    return status


def _hint(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .logic import hint

    h = hint(_one_puzzle(args, "hint"), args.level)
    if h is None:
        out.write("No hint: the puzzle is solved, or no technique applies.\n")
        return 1
    out.write(h.text + "\n")
    return 0


class _Fail(Exception):
    """A command cannot go on: ``main`` prints the message and exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def _input(name: str, stack: ExitStack) -> TextIO:
    """stdin for ``-``, else the named file (closed with ``stack``)."""
    if name == "-":
        return sys.stdin
    try:
        return stack.enter_context(open(name, encoding="utf-8", errors="replace"))
    except OSError as e:
        raise _Fail(f"sudokit: cannot read {name}: {e.strerror}") from None


def _lines(stream: TextIO) -> Iterator[str]:
    yield from stream


def _solve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = 0
    source = "<stdin>" if args.file == "-" else args.file
    with ExitStack() as stack:
        stream = _input(args.file, stack)
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
                out.write(format_grid(solution, rec.fmt, alphabet=args.alphabet) + "\n")
                if rec.fmt == "pretty":
                    out.write("\n")
    return status


def _progress(total: int, initial: int, err: TextIO) -> tqdm[NoReturn]:
    """A progress bar on ``err`` when it is a terminal (count, rate, ETA; no ETA when the
    total is unknown, ``total=0``), else a silent one."""
    return tqdm(
        total=total or None,
        initial=initial,
        file=err,
        unit=" puzzles",
        disable=not err.isatty(),
    )


def _generate(args: argparse.Namespace, err: TextIO) -> int:
    difficulty = {
        "level": args.level,
        "rating": args.er,
        "require": _split(args.require),
        "allow": _split(args.allow),
        "hodoku_level": args.hodoku_level,
    }
    try:
        check_options(args.shape, args.symmetry, args.clues, args.max_clues, args.timeout)
        _difficulty_of(**difficulty)
    except ValueError as e:
        err.write(f"sudokit generate: error: {e}\n")
        return 2
    if args.resume and not args.output:
        err.write("sudokit generate: error: --resume needs -o FILE\n")
        return 2
    if args.resume and args.pdf:
        err.write("sudokit generate: error: --resume cannot add to a --pdf book\n")
        return 2
    seed = args.seed
    start = 0
    path = Path(args.output) if args.output else None
    if args.resume and path is not None and path.exists():
        try:
            point = resume_point(path, args.format)
        except ValueError as e:
            err.write(f"sudokit generate: error: {e}\n")
            return 1
        if seed is not None and point.seed is not None and seed != point.seed:
            err.write(
                f"sudokit generate: error: {path} was made with seed {point.seed}, not {seed}\n"
            )
            return 2
        seed = point.seed if point.seed is not None else seed
        start = point.next_index
        with path.open("r+b") as f:
            f.truncate(point.length)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    with ExitStack() as stack:
        if path is not None:
            out: TextIO = stack.enter_context(
                path.open("a" if args.resume else "w", encoding="utf-8")
            )
        else:
            out = sys.stdout
        write = path is not None or not args.pdf  # with --pdf alone, the book is the output
        if args.format == "csv" and write and (not args.resume or out.tell() == 0):
            out.write(csv_header(with_solution=args.with_solution))
        remaining = args.count - start
        bar = stack.enter_context(_progress(args.count, start, err))
        render = partial(
            format_records,
            fmt=args.format if write else None,
            with_solution=args.with_solution,
            keep=bool(args.pdf),
        )
        batches = generate_many(
            max(remaining, 0),
            shape=args.shape,
            symmetry=args.symmetry,
            clues=args.clues,
            max_clues=args.max_clues,
            minimal=True if args.minimal else None,
            seed=seed,
            start=start,
            jobs=args.jobs or default_jobs(),
            timeout=args.timeout,
            with_rating=args.rate,
            **difficulty,
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
            err.write(f"sudokit generate: {e}\n")
            return 1
    return 0


def _play(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import webbrowser

    from .web import DEFAULT_PORT, make_server

    if args.port is not None and not 0 <= args.port <= 65535:
        err.write(f"sudokit play: error: port {args.port} is outside 0-65535\n")
        return 2
    if args.timeout <= 0:
        err.write(f"sudokit play: error: timeout must be positive, got {args.timeout}\n")
        return 2
    ports = [DEFAULT_PORT, 0] if args.port is None else [args.port]
    for i, port in enumerate(ports):
        try:
            server = make_server(args.host, port, timeout_new=args.timeout)
            break
        except OSError as e:
            if i + 1 == len(ports):
                why = e.strerror or e
                err.write(f"sudokit play: cannot listen on {args.host}:{port}: {why}\n")
                return 1
    with server:
        if not server.loopback():
            err.write(f"sudokit play: warning: listening on {server.host}, not only this machine\n")
        out.write(f"Playing at {server.url} (Ctrl+C to stop)\n")
        out.flush()
        if not args.no_browser:
            webbrowser.open(server.url)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            err.write("sudokit play: stopped\n")
    return 0


def _html(args: argparse.Namespace, err: TextIO) -> int:
    from .web.page import offline_page, puzzle_data

    source = "<stdin>" if args.file == "-" else args.file
    status = 0
    puzzles = []
    with ExitStack() as stack:
        stream = _input(args.file, stack)
        bar = stack.enter_context(_progress(0, 0, err))
        for rec in read_puzzles(_lines(stream), shape=args.shape, source=source):
            bar.update(1)
            if rec.grid is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            try:
                puzzles.append(puzzle_data(rec.grid))
            except SudokitError as e:
                err.write(f"{source}, line {rec.line}: {e}\n")
                status = 1
    if not puzzles:
        err.write(f"sudokit html: no puzzle to write from {source}\n")
        return 1
    try:
        Path(args.page).write_text(offline_page(puzzles), encoding="utf-8")
    except OSError as e:
        err.write(f"sudokit html: cannot write {args.page}: {e.strerror or e}\n")
        return 1
    err.write(f"{args.page}: {len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        return _dispatch(args)
    except _Fail as e:
        sys.stderr.write(f"{e}\n")
        return e.status
    except KeyboardInterrupt:
        kept = (
            "; finished records are kept (--resume goes on)" if args.command == "generate" else ""
        )
        sys.stderr.write(f"sudokit: interrupted{kept}\n")
        return 130
    except BrokenPipeError:
        return 1


def _dispatch(args: argparse.Namespace) -> int:
    err = sys.stderr
    if args.command == "pdf":
        return _pdf(args, err)
    if args.command == "play":
        return _play(args, sys.stdout, err)
    if args.command == "html":
        return _html(args, err)
    if args.command == "generate":
        return _generate(args, err)
    with ExitStack() as stack:
        out: TextIO = sys.stdout
        if getattr(args, "output", None):
            try:
                out = stack.enter_context(open(args.output, "w", encoding="utf-8"))
            except OSError as e:
                raise _Fail(f"sudokit: cannot write {args.output}: {e.strerror}") from None
        commands = {"solve": _solve, "explain": _explain, "hint": _hint, "rate": _rate, "svg": _svg}
        return commands[args.command](args, out, err)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
