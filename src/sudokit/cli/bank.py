"""``sudokit bank``: ``add``, ``fill``, ``query``, ``export`` and ``stats``."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from itertools import chain
from typing import TYPE_CHECKING, Any, TextIO

from .._shape import Shape
from ..errors import ClusterError, GenerationError
from .args import (
    Fail,
    bank_rules_arg,
    book_options,
    book_settings,
    clues_arg,
    layout_rules_arg,
    open_bank,
    open_output,
    positive,
    progress,
    range_arg,
    readable,
    record_format_arg,
    seconds,
    shape_arg,
    source_of,
    split,
    workers,
    write_book,
)

if TYPE_CHECKING:
    from .._grid import Grid


def bank_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
    from ..generator import SYMMETRIES
    from ..output import RECORD_FORMATS

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
        type=positive,
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
    f.add_argument("-n", "--count", type=positive, default=1, help="how many more (default 1)")
    f.add_argument("--shape", type=shape_arg, default=Shape(3, 3), help="box shape (3x3)")
    f.add_argument(
        "--symmetry", choices=[*SYMMETRIES, "random"], default="rot180", help="default rot180"
    )
    f.add_argument("--seed", type=int, help="seed (default: the run's, else random)")
    f.add_argument("--timeout", type=seconds, default=60.0, help="seconds a puzzle (default 60)")
    f.add_argument(
        "--rules",
        type=layout_rules_arg,
        help="rules beyond the classic ones, as sudokit generate takes them (e.g. x+windoku; "
        "plain jigsaw or killer: a random layout for each puzzle)",
    )
    f.add_argument(
        "--cage-sizes", metavar="LO-HI", help="with --rules killer: cages of LO to HI cells"
    )
    f.add_argument(
        "--level",
        help="easy, medium, hard, fiendish or diabolical (SE's); for killers easy, medium, "
        "hard or extreme",
    )
    f.add_argument("--er", type=range_arg, help="ER range, e.g. 6.5-8.0")
    f.add_argument("--require", help="techniques the solve path must use, comma-separated")
    f.set_defaults(func=_bank_fill)

    filters = argparse.ArgumentParser(add_help=False)
    filters.add_argument(
        "--level",
        help="easy, medium, hard, fiendish or diabolical (SE's); for killers (--rules killer) "
        "easy, medium, hard or extreme",
    )
    filters.add_argument("--er", type=range_arg, help="ER range, e.g. 6.5-8.0")
    filters.add_argument(
        "--require",
        action="append",
        help="a technique (or group) the solve path uses; repeat or comma-separate for several",
    )
    filters.add_argument("--clues", type=clues_arg, help="N or LO-HI clues")
    filters.add_argument("--shape", type=shape_arg, help="box shape, e.g. 3x3")
    filters.add_argument("--symmetry", choices=list(SYMMETRIES), help="of the shown pattern")
    filters.add_argument(
        "--rules",
        type=bank_rules_arg,
        help="the puzzles' rules, exactly: classic, or joined by + (e.g. x+windoku); killer "
        "without its cages for every killer (killer+x: every killer-X)",
    )
    filters.add_argument("--limit", type=positive, help="at most N puzzles")
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
    q.add_argument(
        "--format",
        type=record_format_arg,
        choices=RECORD_FORMATS,
        default="line",
        help="record format (pretty: a pretty grid a record, as canon --format pretty; "
        "fpuzzles, ipuz, link: as sudokit generate writes them)",
    )
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
    book_options(x)
    x.set_defaults(func=_bank_export)

    t = ks.add_parser(
        "stats",
        parents=[db],
        help="counts by rules, shape, level, hardest technique and clues",
        description="Count the stored puzzles by rules, shape, level, hardest technique and clues.",
    )
    t.add_argument("--json", action="store_true", help="one JSON object")
    t.set_defaults(func=_bank_stats)


def _bank_add(args: argparse.Namespace, err: TextIO) -> int:
    from .._parallel import default_jobs
    from ..bank import Refusal, prepared, without_gc

    source = source_of(args)
    jobs = args.jobs or default_jobs()
    refused = added = duplicates = 0
    with ExitStack() as stack:
        # This process only reads, stores and counts (the puzzles to rate go to worker
        # processes): no cyclic garbage collection while the puzzles stream through (none of
        # their tuples is in a cycle; the collector's passes over them take a tenth of its time).
        stack.enter_context(without_gc())
        # Chunks as the input gives them, read and prepared but for the ratings here (-j 1)
        # or by jobs - 1 worker processes; the bank has them rated by jobs processes.
        chunks = readable(prepared(source, jobs=jobs, rerate=args.rerate, triage=True), source)
        first = next(chunks, None)  # an unreadable input fails before a bank is made
        bank = stack.enter_context(open_bank(args, create=True))
        bar = stack.enter_context(progress(source.count() if err.isatty() else None, 0, err))
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


def _bank_fill(args: argparse.Namespace, err: TextIO) -> int:
    from ..bank import check_fill

    new = duplicates = 0
    try:  # every option checked before a bank is opened, or made
        request = check_fill(
            args.count,
            timeout=args.timeout,
            shape=args.shape,
            rules=args.rules,
            cage_sizes=args.cage_sizes,
            symmetry=args.symmetry,
            level=args.level,
            er=args.er,
            require=split(args.require),
        )
    except ValueError as e:
        raise Fail(f"sudokit bank fill: error: {e}", 2) from None
    work = workers(args)
    with ExitStack() as stack:
        bank = stack.enter_context(open_bank(args, create=True))
        bar = stack.enter_context(progress(args.count, 0, err))
        try:
            fill = bank.fill(args.count, request, seed=args.seed, timeout=args.timeout, **work)
            for outcome in fill:
                if outcome.new:
                    new += 1
                    bar.update(1)
                else:
                    duplicates += 1
        except ValueError as e:
            raise Fail(f"sudokit bank fill: error: {e}", 2) from None
        except (GenerationError, ClusterError) as e:
            err.write(f"{bank.name}: added {new}, duplicates {duplicates}\n")
            raise Fail(f"sudokit bank fill: {e}") from None
    err.write(f"{bank.name}: added {new}, duplicates {duplicates}\n")
    return 0


def _bank_filters(args: argparse.Namespace) -> Any:
    from ..bank import Filters

    require = tuple(name for text in args.require or () for name in split(text) or ())
    try:
        return Filters(
            level=args.level or None,  # SE's level, or a killer level for killers
            er=args.er,
            require=require,
            clues=args.clues,
            shape=args.shape,
            symmetry=args.symmetry,
            rules=args.rules,
        )
    except ValueError as e:
        raise Fail(f"sudokit bank {args.bank_command}: error: {e}", 2) from None


def _bank_served(
    args: argparse.Namespace, *, with_solution: bool
) -> list[tuple[Any, Grid, Grid | None, dict[str, object]]]:
    """Each stored puzzle the filters select, as served: (stored, puzzle, solution, facts);
    the solution only ``with_solution`` (a shown or isomorphic form's is solved here)."""
    import random

    from ..generator import symmetry_of

    filters = _bank_filters(args)
    rng = random.Random(int.from_bytes(os.urandom(16), "little"))
    with open_bank(args) as bank:
        found = bank.query(filters, limit=args.limit, randomly=args.random, rng=rng)
    served = []
    for s in found:
        facts: dict[str, object]
        solution: Grid | None = None
        # rules beyond the classic ones, stated as generate's records state them
        rules = None if s.shown.rules.is_classic else str(s.shown.rules)
        if args.isomorph:  # no id, seed or index: nothing leads back to the stored text
            t = s.isomorph_transform(rng)
            puzzle = t.apply(s.shown)
            if with_solution:
                solution = t.apply(s.shown_solution())
            facts = {"shape": s.shape, "rules": rules, "symmetry": symmetry_of(puzzle)}
        elif args.canonical:
            puzzle, solution = s.puzzle, s.solution
            facts = {"shape": s.shape, "rules": rules, "symmetry": symmetry_of(puzzle)}
        else:
            puzzle = s.shown
            if with_solution:
                solution = s.shown_solution()
            facts = {
                "index": s.index,
                "seed": s.seed,
                "shape": s.shape,
                "rules": rules,
                "symmetry": s.symmetry,
            }
        facts.update(clues=puzzle.clue_count, minimal=s.minimal)
        if not s.rated:  # a killer beyond the rating: its killer level, stated alone
            facts["level"] = s.level_name
        if not args.isomorph:
            facts["id"] = s.id
        served.append((s, puzzle, solution, facts))
    return served


def _bank_query(args: argparse.Namespace, err: TextIO) -> int:
    from ..output import csv_header, format_facts

    served = _bank_served(args, with_solution=args.with_solution)
    if args.format == "csv":  # its fixed columns have none for rules
        stated = next((p.rules for _, p, _, _ in served if not p.rules.is_classic), None)
        if stated is not None:
            raise Fail(
                f"sudokit bank query: error: --format csv cannot state rules {stated}; "
                "use line, json or pretty (or --rules classic)",
                2,
            )
    with open_output(args.output) as out:
        if args.format == "csv":
            out.write(csv_header(with_solution=args.with_solution))
        for s, puzzle, solution, facts in served:
            out.write(
                format_facts(
                    puzzle,
                    solution,
                    facts,
                    s.rating if s.rated else None,  # a killer stored without a grade
                    args.format,
                    with_solution=args.with_solution,
                )
            )
    return 0


def _bank_export(args: argparse.Namespace, err: TextIO) -> int:
    from ..output import Label

    items = []
    for s, puzzle, _, facts in _bank_served(args, with_solution=False):
        seed, index = facts.get("seed"), facts.get("index")
        label = Label(
            level=s.level_name,
            er=s.rating.er if s.rated else None,
            seed=seed if isinstance(seed, int) else None,
            index=index if isinstance(index, int) else None,
        )
        items.append((puzzle, label))
    if not items:
        raise Fail("sudokit bank export: no stored puzzle matches the filters; no book written")
    return write_book(
        items,
        args.book,
        err,
        "bank export",
        **book_settings(args),
    )


def _bank_stats(args: argparse.Namespace, err: TextIO) -> int:
    import json

    with open_bank(args) as bank:
        stats = bank.stats()
    if args.json:
        sys.stdout.write(json.dumps(stats) + "\n")
        return 0
    sys.stdout.write(f"{bank.name}: {stats['puzzles']} puzzles\n")
    for name in ("rules", "shape", "level", "hardest", "clues"):
        sys.stdout.write(f"\nby {name}:\n")
        counts = stats[name]
        width = max((len(str(k)) for k in counts), default=0)
        for key, value in counts.items():
            sys.stdout.write(f"  {str(key).ljust(width)}  {value}\n")
    return 0
