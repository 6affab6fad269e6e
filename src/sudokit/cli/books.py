"""The commands that lay puzzles out: ``pdf``, ``svg``, ``html`` and ``canon``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any, TextIO

from .._shape import Shape
from ..errors import SudokitError
from ..formats import FORMATS, Record, format_grid
from .args import (
    Fail,
    book_options,
    book_settings,
    one_puzzle,
    open_output,
    positive,
    progress,
    records_of,
    source_of,
    unique,
    write_book,
)

if TYPE_CHECKING:
    from .._grid import Grid


def pdf_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
    book_options(b)
    b.set_defaults(func=_pdf)


def svg_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
    v.add_argument("--size", type=positive, help="width and height in pixels")
    v.set_defaults(func=_svg)


def html_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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


def canon_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
    from ..output import FOREIGN_FORMATS

    c.add_argument("--id", action="store_true", help="add each puzzle's canonical id")
    c.add_argument(
        "--dedupe",
        action="store_true",
        help="print only the first puzzle of each class (isomorphs of an earlier one are left out)",
    )
    c.add_argument(
        "--format",
        choices=(*FORMATS, *FOREIGN_FORMATS),
        default=None,
        help="output format (default: each puzzle's own; fpuzzles, ipuz, link: as sudokit "
        "generate writes them, --id as each puzzle's title)",
    )
    c.add_argument("--alphabet", help="digit symbols in order, e.g. 0123456789ABCDEF")
    c.set_defaults(func=_canon)


_CANON_CHUNK = 2048  # records canonicalised per call into C


def _canon(args: argparse.Namespace, err: TextIO) -> int:
    import json

    from ..output import FOREIGN_FORMATS, format_facts

    status = 0
    seen: set[str] = set()
    source = source_of(args)
    with open_output(args.output) as out:
        for rec, form, key, error in _canon_records(records_of(source), ids=args.id or args.dedupe):
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
            if fmt in FOREIGN_FORMATS:
                facts: dict[str, object] = {"id": key} if args.id else {}
                out.write(format_facts(form, None, facts, None, fmt))
                continue
            text = format_grid(form, fmt, alphabet=args.alphabet)
            if args.id and fmt == "json":
                text = json.dumps({**json.loads(text), "id": key})
            elif args.id and fmt == "pretty":
                text = f"# {key}\n{text}"
            elif args.id:
                text = f"{text} {key}"
            if fmt == "line" and not form.rules.is_classic:  # the form's rules, as records say
                text = f"{text} # rules={form.rules}"  # (a jigsaw's or killer's moved with it)
            out.write(text + ("\n\n" if fmt == "pretty" else "\n"))
    return status


def _canon_records(
    records: Iterable[Record], *, ids: bool
) -> Iterator[tuple[Record, Grid | None, str, str | None]]:
    """Each record with its canonical form and id (or why it has none), in order; the grids
    of one shape in a chunk go to C in one call."""
    from ..canon import canonical_many, ids_of_canonical

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


def _svg(args: argparse.Namespace, err: TextIO) -> int:
    from ..render.svg import svg

    grid = one_puzzle(args)
    state = step = None
    if args.candidates or args.step:
        from ..logic import Candidates, next_step

        problem = unique(grid, "sudokit svg")
        if problem is not None:
            raise Fail(problem)
        state = Candidates.from_grid(grid)
        step = next_step(state) if args.step else None
    with open_output(args.output) as out:
        out.write(svg(grid, candidates=state, step=step, size=args.size))
    return 0


def _pdf(args: argparse.Namespace, err: TextIO) -> int:
    from ..output import record_label

    bad = 0
    source = source_of(args)

    def items() -> Iterator[tuple[Any, Any]]:
        nonlocal bad
        for rec in records_of(source):
            problem = rec.error or (
                unique(rec.grid, f"{source.name}, line {rec.line}") if rec.grid else None
            )
            if problem is not None or rec.grid is None:
                err.write(f"{problem}\n")
                bad += 1
                continue
            yield rec.grid, record_label(rec)

    status = write_book(
        items(),
        args.book,
        err,
        "pdf",
        **book_settings(args),
    )
    return status or (1 if bad else 0)


def _html(args: argparse.Namespace, err: TextIO) -> int:
    from .._files import replacing
    from ..web.page import offline_page, puzzle_data

    source = source_of(args)
    status = 0
    puzzles = []
    with progress(source.count() if err.isatty() else None, 0, err) as bar:
        for rec in records_of(source):
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
        raise Fail(f"sudokit html: no puzzle to write from {source.name}")
    try:
        page = offline_page(puzzles).encode()
        if args.page == "-":
            sys.stdout.flush()
            sys.stdout.buffer.write(page)
        else:
            with replacing(args.page) as f:
                f.write(page)
    except OSError as e:
        raise Fail(f"sudokit html: cannot write {args.page}: {e.strerror or e}") from None
    err.write(f"{args.page}: {len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}\n")
    return status
