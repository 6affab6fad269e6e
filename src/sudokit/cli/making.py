"""The commands that make puzzles: ``generate`` and ``hunt`` (and the ``--resume`` both share)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from .._shape import MAX_SIDE, Shape
from ..errors import GenerationError
from ..formats import PuzzleSource
from .args import (
    Fail,
    duration,
    er_arg,
    open_bank,
    positive,
    progress,
    range_arg,
    record_options,
    records_of,
    rules_option,
    seconds,
    shape_arg,
    split,
    unique,
    workers,
    write_book,
)

if TYPE_CHECKING:
    from pathlib import Path

    from .._grid import Grid
    from ..generator import Generated


def generate_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
    from ..generator import SYMMETRIES

    g.add_argument("-n", "--count", type=positive, default=1, help="how many (default 1)")
    g.add_argument(
        "--shape",
        type=shape_arg,
        default=Shape(3, 3),
        help=f"box shape ROWSxCOLS (default 3x3); grid sides 4 to {MAX_SIDE}. Per minimal "
        "puzzle, one core: 9x9 under 1 ms, 16x16 about 0.1 s, 25x25 10-20 s, 30x30 30-50 s, "
        "36x36 1.5-2 min",
    )
    rules_option(g, listed=True)
    g.add_argument(
        "--cage-sizes",
        metavar="LO-HI",
        help="with --rules killer: cages of LO to HI cells (default 1-5, never more than the "
        "side); --clues N then places N givens beside the cages, --minimal asks for layouts "
        "minimal in cages",
    )
    g.add_argument(
        "--symmetry",
        choices=[*SYMMETRIES, "random"],
        default="rot180",
        help="symmetry of the clue pattern (default rot180; with rules, one they keep)",
    )
    target = g.add_mutually_exclusive_group()
    target.add_argument("--clues", type=positive, help="exactly N clues")
    target.add_argument("--max-clues", type=positive, help="at most N clues")
    g.add_argument(
        "--minimal",
        action="store_true",
        help="minimal puzzles (the default without a clue target; with --clues: both)",
    )
    record_options(g)
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
        type=seconds,
        default=60.0,
        help="seconds per puzzle to keep trying new grids for a target (default 60)",
    )
    d = g.add_argument_group("difficulty (Sudoku Explainer's scale; records then carry ratings)")
    d.add_argument(
        "--level",
        help="easy (ER 1.0-1.2), medium (1.3-1.5), hard (1.6-2.5), fiendish "
        "(2.6-6.0) or diabolical (6.1 and over); for --rules killer: easy, medium, hard or "
        "extreme (the least set of techniques that solves it; docs/rating.md)",
    )
    d.add_argument("--er", type=range_arg, help="ER range, e.g. 6.5-8.0 (or one value)")
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


def hunt_parser(sub: Any, par: dict[str, argparse.ArgumentParser], full: bool) -> None:
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
        "--min-er", type=er_arg, required=True, metavar="X", help="the least ER a find has"
    )
    seeds = hu.add_mutually_exclusive_group()
    seeds.add_argument("--seeds", metavar="FILE", help="seed puzzles (any format sudokit reads)")
    seeds.add_argument(
        "--from-bank",
        nargs="?",
        type=positive,
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
        "-n", "--count", type=positive, help="stop at N finds (with --resume: in the file)"
    )
    hu.add_argument("--time", type=duration, metavar="T", help="stop after T (seconds, or 90m, 8h)")
    record_options(hu)
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
        "--pool", type=positive, default=256, help="the puzzles kept to seed rounds (256)"
    )
    hu.add_argument(
        "--per-seed", type=positive, default=200, help="neighbours drawn a seed a round (200)"
    )
    hu.set_defaults(func=_hunt)


def _resume(
    path: Path, options: dict[str, object], fmt: str, seed: int | None, command: str
) -> tuple[int | None, int]:
    """Where ``sudokit COMMAND --resume`` goes on in ``path``: the file's seed and next index,
    after checking that ``options`` made its records, and with a partial last record cut off.
    Refuses (exit 1; exit 2 for another ``--seed``) what cannot be resumed."""
    from ..output import FOREIGN_FORMATS, resume_check, resume_point

    if fmt in FOREIGN_FORMATS:
        raise Fail(
            f"sudokit {command}: error: --resume cannot go on in --format {fmt}, whose records "
            "state no index or seed; use line, pretty, json or csv",
            2,
        )
    try:
        resume_check(path, options, command=command)
        point = resume_point(path, fmt)
    except ValueError as e:
        raise Fail(f"sudokit {command}: {e}") from None
    except OSError as e:
        raise Fail(f"sudokit {command}: cannot read {path}: {e.strerror or e}") from None
    if seed is not None and point.seed is not None and seed != point.seed:
        raise Fail(
            f"sudokit {command}: error: {path} was made with seed {point.seed}, not {seed}", 2
        )
    with path.open("r+b") as f:
        f.truncate(point.length)
    return (point.seed if point.seed is not None else seed), point.next_index


def _check_record_format(request: Any, fmt: str | None) -> None:
    """ValueError when records of ``fmt`` cannot state the request's rules: csv's columns are
    fixed (line, pretty and json records state any rules)."""
    if fmt == "csv" and request.rules != request.__class__().rules:
        raise ValueError(
            f"--format csv cannot state rules {request.rules}; use line, json or pretty"
        )


def _generate(args: argparse.Namespace, err: TextIO) -> int:
    from pathlib import Path

    from ..difficulty import Request, generate_many
    from ..generator import check_timeout
    from ..output import (
        FOREIGN_FORMATS,
        csv_header,
        format_records,
        options_comment,
    )

    try:
        request = Request.of(
            shape=args.shape,
            rules=args.rules,
            cage_sizes=args.cage_sizes,
            symmetry=args.symmetry,
            clues=args.clues,
            max_clues=args.max_clues,
            minimal=True if args.minimal else None,
            level=args.level,
            er=args.er,
            require=split(args.require),
            allow=split(args.allow),
            hodoku_level=args.hodoku_level,
            rate=args.rate,
        )
        check_timeout(args.timeout)
        _check_record_format(request, args.format if args.output or not args.pdf else None)
    except ValueError as e:
        raise Fail(f"sudokit generate: error: {e}", 2) from None
    work = workers(args)
    if args.resume and args.output in (None, "-"):
        raise Fail("sudokit generate: error: --resume needs -o FILE", 2)
    if args.resume and args.pdf:
        raise Fail("sudokit generate: error: --resume cannot add to a --pdf book", 2)
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
                raise Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
        else:
            out = sys.stdout
        write = path is not None or not args.pdf  # with --pdf alone, the book is the output
        fresh = not args.resume or out.tell() == 0
        if args.format == "csv" and write and fresh:
            out.write(csv_header(with_solution=args.with_solution))
        elif path is not None and fresh and args.format not in FOREIGN_FORMATS:
            out.write(options_comment(options))
        remaining = args.count - start
        bar = stack.enter_context(progress(args.count, start, err))
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
                return write_book(records(), args.pdf, err, "generate")
            for _ in records():
                pass
        except GenerationError as e:
            raise Fail(f"sudokit generate: {e}") from None
    return 0


def _hunt_seeds(
    args: argparse.Namespace, bank: Any, err: TextIO
) -> tuple[list[tuple[Grid, float | None]] | None, int]:
    """The seeds ``--seeds`` or ``--from-bank`` give (None: random ones), and the exit
    status so far (1 when a line of the seeds file was bad or not unique: reported, skipped)."""
    if args.from_bank is not None:
        stored = bank.query(limit=args.from_bank, hardest=True)
        if not stored:
            raise Fail(f"sudokit hunt: {bank.name} holds no puzzle to seed from")
        return [(s.shown, s.rating.er) for s in stored], 0
    if args.seeds is None:
        return None, 0
    from ..output import record_label

    status = 0
    found: list[tuple[Grid, float | None]] = []
    source = PuzzleSource(args.seeds)
    for rec in records_of(source):
        if rec.grid is None:
            err.write(f"{rec.error}\n")
            status = 1
            continue
        problem = unique(rec.grid, f"{source.name}, line {rec.line}")
        if problem is not None:
            err.write(f"{problem}; not a seed\n")
            status = 1
            continue
        found.append((rec.grid, record_label(rec).er))
    if not found:
        raise Fail(f"sudokit hunt: no seed puzzle in {source.name}")
    return found, status


def _hunt(args: argparse.Namespace, err: TextIO) -> int:
    from pathlib import Path

    from ..canon import canonical_many, ids_of_canonical
    from ..hunting import HuntStats, Vicinity, hunt
    from ..output import (
        FOREIGN_FORMATS,
        csv_header,
        format_facts,
        options_comment,
        read_labelled,
    )

    try:
        vicinity = Vicinity.parse(args.vicinity)
    except ValueError as e:
        raise Fail(f"sudokit hunt: error: {e}", 2) from None
    if args.db and (args.output or args.resume):
        raise Fail("sudokit hunt: error: --db stores the finds; -o and --resume are for files", 2)
    if args.resume and args.output in (None, "-"):
        raise Fail("sudokit hunt: error: --resume needs -o FILE", 2)
    if args.from_bank is not None and not args.db:
        raise Fail("sudokit hunt: error: --from-bank needs --db", 2)
    work = workers(args)
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
        bank = stack.enter_context(open_bank(args, create=True)) if args.db else None
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
                raise Fail(f"sudokit hunt: cannot read {path}: {e}") from None
            earlier = earlier[:start]
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        out: TextIO = sys.stdout
        if path is not None:
            try:
                out = stack.enter_context(path.open("a" if args.resume else "w", encoding="utf-8"))
            except OSError as e:
                raise Fail(f"sudokit: cannot write {path}: {e.strerror or e}") from None
            if out.tell() == 0 and args.format == "csv":
                out.write(csv_header(with_solution=args.with_solution))
            elif out.tell() == 0 and args.format not in FOREIGN_FORMATS:
                out.write(options_comment(options, command="hunt"))
        elif args.format == "csv" and bank is None:
            out.write(csv_header(with_solution=args.with_solution))
        held = set(ids_of_canonical(canonical_many([g for g, _ in earlier]))) if earlier else set()

        def known(ids: Sequence[str]) -> set[str]:
            found = {i for i in ids if i in held}
            return found | bank.held(ids) if bank is not None else found

        bar = stack.enter_context(progress(args.count, start, err))
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
HUNT_LOG_EVERY = 60.0


def _hunt_progress(bar: Any, err: TextIO, last: list[float], stats: Any) -> None:
    """After each round: the bar's figures on a terminal, else a line a minute at most."""
    if not bar.disable:
        bar.set_postfix(stats.progress(), refresh=True)
    elif time.monotonic() - last[0] >= HUNT_LOG_EVERY:
        last[0] = time.monotonic()
        err.write(" ".join(f"{k}={v}" for k, v in stats.progress().items()) + "\n")
        err.flush()


def _hunt_store(bank: Any, find: Any) -> None:
    """Store one find in the bank, committed at once (a kill loses nothing written)."""
    from ..bank import entry_of

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
