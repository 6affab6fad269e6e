"""The commands that solve and explain puzzles: ``solve``, ``rate``, ``explain``, ``hint`` and
``techniques``."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from functools import partial
from typing import Any, TextIO

from ..errors import NotUniqueError
from ..formats import format_candidates, format_grid
from .args import (
    Fail,
    one_puzzle,
    open_output,
    positive,
    progress,
    readable,
    records_of,
    source_of,
    unique,
    workers,
)


def solve_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
        type=positive,
        default=1000,
        help="with --count, stop counting at N (a count equal to N means 'N or more'; "
        "default 1000)",
    )
    s.add_argument("--alphabet", help="digit symbols in order, e.g. 0123456789ABCDEF")
    s.set_defaults(func=_solve)


def explain_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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


def rate_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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


def hint_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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


def techniques_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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


def _solve(args: argparse.Namespace, err: TextIO) -> int:
    from ..batch import solve_source

    status = 0
    source = source_of(args)
    with open_output(args.output) as out:
        limit = args.limit if args.count else 1
        work = workers(args)
        for item in readable(solve_source(source, limit=limit, counts=args.count, **work), source):
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

    from ..batch import map_grids
    from ..rating import rate_many

    status = 0
    source = source_of(args)
    with ExitStack() as stack:
        out = stack.enter_context(open_output(args.output))
        show = err.isatty()
        bar = stack.enter_context(progress(source.count() if show else None, 0, err))
        writer = csv.writer(out, lineterminator="\n")
        if args.format == "csv":
            writer.writerow(_RATE_CSV)
        rater = partial(rate_many, with_hodoku=args.format in ("json", "csv"))
        # One puzzle a task: a hard one takes seconds, so bigger chunks would hold the others
        # back behind it and leave a worker idle. A cluster's task costs milliseconds more
        # (the scheduler's round trip), as much as rating an easy puzzle: a few a task there.
        work = workers(args)
        chunk = 1 if work["cluster"] is None else _RATE_CLUSTER_CHUNK
        for rec, rating in map_grids(rater, records_of(source), chunk=chunk, **work):
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

    from ..logic import SE_ORDER, Candidates, rules_cut, select, solve_steps

    try:
        techniques = select(args.techniques.split(",")) if args.techniques else None
    except ValueError as exc:
        raise Fail(f"sudokit explain: error: {exc}", 2) from None
    status = 0
    first = True
    source = source_of(args)
    with open_output(args.output) as out:
        for rec in records_of(source):
            if rec.grid is None:
                err.write(f"{rec.error}\n")
                status = 1
                continue
            problem = unique(rec.grid, f"{source.name}, line {rec.line}")
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
            # Under rules the path stops before the first technique that does not run there
            # yet: a stuck path says which one it may need.
            cut = None
            if not solved and not rec.grid.rules.is_classic:
                cut = rules_cut(techniques if techniques is not None else SE_ORDER)
            if args.format == "json":
                grid = state.to_grid().to_line()
                final = {"solved": solved, "steps": count, "line": rec.line, "grid": grid}
                if cut is not None:
                    final["needs"] = cut.slug
                out.write(json.dumps(final) + "\n")
            elif solved:
                out.write("Solved.\n")
            else:
                out.write(f"Stuck after {count} steps at {state.to_grid().to_line()}\n")
                if cut is not None:
                    out.write(
                        f"Under rules {str(rec.grid.rules)!r} the logic engine stops before "
                        f"{cut.slug}: it and the techniques after it do not run under rules "
                        "beyond the classic ones yet, and this position may need them.\n"
                    )
                out.write(format_candidates(state.shape, state.masks()) + "\n")
            if not solved:
                status = 1
    return status


def _hint(args: argparse.Namespace, err: TextIO) -> int:
    from ..logic import hint

    grid = one_puzzle(args)
    problem = unique(grid, "sudokit hint")
    if problem is not None:
        raise Fail(problem)
    with open_output(args.output) as out:
        if grid.is_complete():
            out.write("Nothing to hint: the puzzle is solved.\n")
            return 0
        found = hint(grid, args.detail)
        if found is None:
            out.write("No hint: no technique sudokit knows applies here.\n")
            return 1
        out.write(found.text + "\n")
    return 0


def _techniques(args: argparse.Namespace, err: TextIO) -> int:
    from ..logic import ALL_ORDER

    rows = [("technique", "ER", "steps it prints", "groups")]
    for t in ALL_ORDER:
        rows.append((t.slug, f"{t.rating:.1f}", ", ".join(t.step_names), ", ".join(t.groups)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        sys.stdout.write(
            "  ".join(c.ljust(w) for c, w in zip(row, [*widths, 0], strict=True)).rstrip() + "\n"
        )
    return 0
