"""Writing generated puzzles as records, and finding where an interrupted output file ends.

A **record** is one generated puzzle as text in one of :data:`RECORD_FORMATS`:

- ``line``: ``PUZZLE [SOLUTION] # index=I seed=S shape=3x3 symmetry=rot180 clues=C minimal=yes``
  (sudokit's reader takes the first field of the right length as the puzzle);
- ``pretty``: a ``# index=I seed=S …`` comment line, the puzzle as a pretty grid (rows of
  cells, ``|`` and rule lines between boxes: what ``canon --format pretty`` writes), the
  solution if asked (after a ``# solution`` line), and a blank line (``grid`` is its old name);
- ``json``: one JSON object a line;
- ``csv``: a header line, then one row a puzzle.

Every record says its seed and index, which is all it takes to make that puzzle again.
``sudokit generate`` writes records in order and flushes them as each chunk of them is made, so
an interrupted run leaves whole records plus at most one partial one; :func:`resume_point`
finds the end of the last whole record and the index to go on from.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._grid import Grid
from ._shape import Shape
from .difficulty import Rated
from .formats import Record, read_puzzles
from .formats.comments import SOLUTION_MARK, index_and_seed, stated_facts
from .generator import Batch, Generated
from .rating import Rating

__all__ = [
    "FOREIGN_FORMATS",
    "LABEL_FIELDS",
    "OLD_FORMAT_NAMES",
    "RECORD_FORMATS",
    "Label",
    "Records",
    "ResumePoint",
    "csv_header",
    "format_facts",
    "format_record",
    "format_records",
    "label_of",
    "parse_label",
    "stated_facts",
    "read_labelled",
    "options_comment",
    "record_format",
    "record_label",
    "resume_check",
    "resume_point",
]

#: What a label may show, in this order (a book adds each puzzle's number).
LABEL_FIELDS = ("number", "level", "er", "seed", "id")

RECORD_FORMATS = ("line", "pretty", "json", "csv", "fpuzzles", "ipuz", "link")
#: Record formats of other tools (:mod:`sudokit.formats.fpuzzles`, :mod:`sudokit.formats.ipuz`):
#: one f-puzzles puzzle object, ipuz object or f-puzzles link a line, each holding the puzzle,
#: its rules (and its solution, when asked) but none of sudokit's facts (index, seed,
#: rating), so no options line heads them and a file of them cannot be resumed.
FOREIGN_FORMATS = ("fpuzzles", "ipuz", "link")
#: Old names of record formats, read for one release: ``grid`` named the pretty layout.
OLD_FORMAT_NAMES = {"grid": "pretty"}


def record_format(name: str) -> str:
    """The record format ``name`` means (an old name warns, DeprecationWarning); ValueError
    for a name that is none."""
    if name in OLD_FORMAT_NAMES:
        import warnings

        new = OLD_FORMAT_NAMES[name]
        warnings.warn(f"record format {name!r} is now {new!r}", DeprecationWarning, stacklevel=3)
        return new
    if name not in RECORD_FORMATS:
        raise ValueError(f"unknown record format {name!r}; choose from {', '.join(RECORD_FORMATS)}")
    return name


_CSV_FIELDS = (
    "index",
    "seed",
    "shape",
    "symmetry",
    "clues",
    "minimal",
    "orbit_minimal",
    "er",
    "ep",
    "ed",
    "level",
    "puzzle",
    "solution",
)


def _fact(value: bool | None) -> str:
    return "?" if value is None else ("yes" if value else "no")


def csv_header(*, with_solution: bool) -> str:
    """The header line of the csv format."""
    fields = _CSV_FIELDS if with_solution else _CSV_FIELDS[:-1]
    return ",".join(fields) + "\n"


def format_record(g: Generated, fmt: str, *, with_solution: bool = False) -> str:
    """One generated puzzle as a record of format ``fmt``, ending in a newline."""
    facts: dict[str, object] = {
        "index": g.index,
        "seed": g.seed,
        "shape": g.shape,
        # rules beyond the classic ones (which records leave out, as they did before rules)
        "rules": None if type(g.puzzle) is Grid else str(g.puzzle.rules),
        "symmetry": g.symmetry,
        "clues": g.clues,
        "minimal": g.minimal,
        "orbit_minimal": g.orbit_minimal,
    }
    r = g.rating if isinstance(g, Rated) else None
    return format_facts(g.puzzle, g.solution, facts, r, fmt, with_solution=with_solution)


def _foreign(puzzle: Grid, solution: Grid | None, fmt: str, *, title: str | None) -> str:
    """A record of one of :data:`FOREIGN_FORMATS`, ending in a newline."""
    from .formats.fpuzzles import fpuzzles_url, to_fpuzzles
    from .formats.ipuz import to_ipuz

    if fmt == "link":
        return fpuzzles_url(puzzle, solution=solution, title=title) + "\n"
    make = to_fpuzzles if fmt == "fpuzzles" else to_ipuz
    obj = make(puzzle, solution=solution, title=title)
    return json.dumps(obj, separators=(",", ":")) + "\n"


#: Facts that are yes, no or unknown (``?``); other facts that are None are left out.
_YES_NO = ("minimal", "orbit_minimal")


def format_facts(
    puzzle: Grid,
    solution: Grid | None,
    facts: dict[str, object],
    rating: Rating | None,
    fmt: str,
    *,
    with_solution: bool = False,
) -> str:
    """A record of format ``fmt`` of a puzzle, the facts known of it (in the order given:
    ``index``, ``seed``, ``shape``, ``symmetry``, ``clues``, ``minimal``, ``orbit_minimal``,
    and others such as the bank's ``id``) and its rating, ending in a newline.

    The one writer of records: :func:`format_record` (``sudokit generate``) and ``sudokit
    bank query`` both write through it. A fact that is None is left out (``minimal`` and
    ``orbit_minimal`` are written ``?``); csv has fixed columns, and a fact outside them is
    not written there. The formats of other tools (:data:`FOREIGN_FORMATS`) write the puzzle,
    its rules and solution, and the ``id`` as its title, no other fact. ``solution`` is only
    read ``with_solution`` (None will do without).
    """
    if with_solution and solution is None:
        raise ValueError("with_solution needs the solution")
    fmt = record_format(fmt)
    if fmt in FOREIGN_FORMATS:
        key = facts.get("id")  # the bank's id, the puzzle's title there
        title = key if isinstance(key, str) else None
        return _foreign(puzzle, solution if with_solution else None, fmt, title=title)
    known = {k: v for k, v in facts.items() if v is not None or k in _YES_NO}
    if fmt in ("line", "pretty"):
        meta = " ".join(
            f"{k}={_fact(v) if k in _YES_NO else v}"  # type: ignore[arg-type]
            for k, v in known.items()
        )
        if rating is not None:
            meta += (
                f" rating=ED={rating.er:.1f}/{rating.ep:.1f}/{rating.ed:.1f}"
                f" level={rating.level_name}"
            )
        if fmt == "line":
            sol = f" {solution.to_line()}" if solution is not None and with_solution else ""
            return f"{puzzle.to_line()}{sol} # {meta}\n"
        sol = (
            f"{SOLUTION_MARK}\n{solution.to_pretty()}\n"
            if solution is not None and with_solution
            else ""
        )
        return f"# {meta}\n{puzzle.to_pretty()}\n{sol}\n"
    if fmt == "json":
        obj: dict[str, object] = {k: str(v) if k == "shape" else v for k, v in known.items()}
        obj["puzzle"] = puzzle.to_line()
        if rating is not None:
            obj.update(
                er=rating.er,
                ep=rating.ep,
                ed=rating.ed,
                level=rating.level_name,
                hardest=rating.hardest,
            )
            if rating.hodoku is not None:
                obj.update(hodoku_level=rating.hodoku.level, hodoku_score=rating.hodoku.score)
        if solution is not None and with_solution:
            obj["solution"] = solution.to_line()
        return json.dumps(obj) + "\n"
    # csv (record_format refused any other name)
    r = rating
    row: list[object] = [
        *(
            _fact(facts.get(k)) if k in _YES_NO else ("" if facts.get(k) is None else facts[k])  # type: ignore[arg-type]
            for k in _CSV_FIELDS[:7]
        ),
        *((r.er, r.ep, r.ed, r.level_name) if r is not None else ("", "", "", "")),
        puzzle.to_line(),
    ]
    if solution is not None and with_solution:
        row.append(solution.to_line())
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(row)
    return buf.getvalue()


@dataclass(frozen=True, slots=True)
class Records:
    """Consecutive generated puzzles as the text of their records.

    ``count`` is the number of puzzles; ``text`` is empty when no format was asked for, and
    ``puzzles`` holds the puzzles themselves when they were asked for (empty otherwise).
    """

    text: str
    count: int
    puzzles: Sequence[Generated] = ()


def format_records(
    batch: list[Generated], fmt: str | None, *, with_solution: bool = False, keep: bool = False
) -> Records:
    """A chunk of puzzles as :class:`Records` of format ``fmt`` (None: no text), keeping the
    puzzles too when ``keep`` is true.

    Made for :meth:`sudokit.generator.PuzzleStream.rendered`, so records are formatted in the
    worker processes and the main process only writes them.
    """
    text = "".join(format_record(g, fmt, with_solution=with_solution) for g in batch) if fmt else ""
    return Records(text, len(batch), Batch(batch) if keep else ())


@dataclass(frozen=True)
class ResumePoint:
    """Where an output file's whole records end (``length`` bytes), the index to make next,
    and the seed its records were made with (None when it holds no record)."""

    length: int
    next_index: int
    seed: int | None


def _meta_of(record: str, fmt: str) -> tuple[int, int] | None:
    """The (index, seed) a whole record states, or None when it states none."""
    if fmt in ("line", "pretty"):
        return index_and_seed(record)
    if fmt == "json":
        try:
            obj = json.loads(record)
            return int(obj["index"]), int(obj["seed"])
        except (ValueError, KeyError, TypeError):
            return None
    row = next(csv.reader([record]), [])
    if len(row) >= 2 and row[0].isdigit() and row[1].isdigit():
        return int(row[0]), int(row[1])
    return None


#: What the options line of any command's output starts with (``sudokit hunt`` writes one too).
_OPTIONS_START = "# sudokit "


def _option_text(value: object) -> str:
    if value is None or value is False:
        return "-" if value is None else "no"
    if value is True:
        return "yes"
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, float) for v in value):
        return f"{value[0]:g}-{value[1]:g}"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value).replace(" ", "_").lower()  # names are read case-insensitively


def options_comment(options: dict[str, object], *, command: str = "generate") -> str:
    """The first line of a file ``sudokit generate -o`` (or ``sudokit hunt -o``: give the
    ``command``) writes (not in csv, which has no comments): the options that change its
    records, so ``--resume`` can check them.

    >>> options_comment({"shape": "3x3", "clues": None, "rate": False, "er": (6.5, 8.0)})
    '# sudokit generate shape=3x3 clues=- rate=no er=6.5-8\\n'
    """
    return (
        f"{_OPTIONS_START}{command} "
        + " ".join(f"{k}={_option_text(v)}" for k, v in options.items())
        + "\n"
    )


def resume_check(path: Path, options: dict[str, object], *, command: str = "generate") -> None:
    """Raise ValueError naming every option of ``options`` (the output's form and the request's
    fields, as :func:`options_comment` writes them) that
    differs from what made the records already in ``path``, so a resumed run never mixes
    puzzles made with other options into one file.

    The options come from the file's first line (:func:`options_comment`); a csv file states
    none, so its header and first record are checked instead (the solution column, shape,
    symmetry, clue count and whether records are rated).
    """
    with path.open(encoding="utf-8", errors="replace") as f:
        first = f.readline()
        second = f.readline()
    if not first:
        return
    ours = {k: _option_text(v) for k, v in options.items()}
    targets = ("rate", "level", "er", "require", "allow", "hodoku_level")
    ours["rated"] = "yes" if any(ours.get(k, "-") not in ("-", "no") for k in targets) else "no"
    line = f"{_OPTIONS_START}{command}"
    if first.startswith(line + " "):
        stated = dict(item.partition("=")[::2] for item in first.split()[3:])
        _read_old_options(stated, ours)
    elif options.get("format") == "csv" and first.startswith("index,"):
        stated = _csv_options(first, second, ours)
    else:
        raise ValueError(
            f"{path}: cannot resume: it does not start with the line {line!r} that "
            "states the options its records were made with"
        )
    # Rules beyond the classic ones are stated; a file or a run that states none is classic.
    stated.setdefault("rules", "classic")
    ours.setdefault("rules", "classic")
    differ = [
        f"{k}={stated[k]} in the file, {ours[k]} now"
        for k in ours
        if k in stated and stated[k] != ours[k]
    ]
    if differ:
        raise ValueError(f"{path}: cannot resume with other options: " + "; ".join(differ))


def _read_old_options(stated: dict[str, str], ours: dict[str, str]) -> None:
    """Files written before the request value stated ``minimal=no`` (or ``yes`` with
    ``--minimal``) for puzzles dug to minimal without a clue target, orbit-minimal with a
    symmetry; and ``rate=no`` for puzzles rated because a difficulty target was given. They
    were made as they are made now: take them so."""
    if stated.get("format") in OLD_FORMAT_NAMES:
        stated["format"] = OLD_FORMAT_NAMES[stated["format"]]
    no_target = ours.get("clues", "-") == ours.get("max_clues", "-") == "-"
    if no_target and stated.get("minimal") in ("no", "yes") and "minimal" in ours:
        stated["minimal"] = ours["minimal"]
    targets = ("level", "er", "require", "allow", "hodoku_level")
    if stated.get("rate") == "no" and any(stated.get(k, "-") != "-" for k in targets):
        stated["rate"] = "yes"


def _csv_options(header: str, row: str, ours: dict[str, str]) -> dict[str, str]:
    """What a csv file's header and first record say of the options that made it."""
    names = header.strip().split(",")
    stated = {"format": "csv", "with_solution": "yes" if "solution" in names else "no"}
    values = next(csv.reader([row]), [])
    if len(values) != len(names):
        return stated
    rec = dict(zip(names, values, strict=True))
    stated["shape"] = rec["shape"]
    if ours.get("symmetry") != "random":
        stated["symmetry"] = rec["symmetry"]
    if ours.get("clues", "-") != "-":
        stated["clues"] = rec["clues"]
    stated["rated"] = "yes" if rec.get("er") else "no"
    return stated


def resume_point(path: Path, fmt: str) -> ResumePoint:
    """Read an existing output file and find where to go on from.

    Raises ValueError when the file's whole records are not the indexes 0, 1, 2, … in order
    with one seed (then resuming could duplicate or lose puzzles).
    """
    fmt = record_format(fmt)
    data = path.read_bytes()
    sep = b"\n\n" if fmt == "pretty" else b"\n"
    length = 0
    expected = 0
    seed: int | None = None
    pos = 0
    while True:
        end = data.find(sep, pos)
        if end < 0:
            break
        end += len(sep)
        record = data[pos:end].decode("utf-8", errors="replace")
        pos = end
        meta = _meta_of(record, fmt)
        if meta is None:
            header = (
                record.startswith("index,") if fmt == "csv" else record.startswith(_OPTIONS_START)
            )
            if record.strip() and not header:
                raise ValueError(
                    f"{path}: cannot resume: the record ending at byte {end} states no index "
                    f"and seed: {record.strip()[:80]!r}"
                )
            length = end
            continue
        index, rseed = meta
        if seed is not None and rseed != seed:
            raise ValueError(
                f"{path}: cannot resume: records were made with seeds {seed} and {rseed}"
            )
        if index != expected:
            raise ValueError(
                f"{path}: cannot resume: expected the record of index {expected}, found {index}"
            )
        seed = rseed
        expected += 1
        length = end
    return ResumePoint(length=length, next_index=expected, seed=seed)


# Labels: what a record states of its puzzle, for books ------------------------------------


@dataclass(frozen=True, slots=True)
class Label:
    """What is known of a puzzle, for the line above its grid (the book adds its number).

    >>> Label(level="hard", er=2.3, seed=7, index=3).text()
    'Hard · ER 2.3 · seed 7 · index 3'
    >>> Label(id="top1465 #12").text(("number", "id"))
    'top1465 #12'
    """

    level: str | None = None
    er: float | None = None
    seed: int | None = None
    index: int | None = None
    id: str | None = None

    def text(self, fields: Collection[str] = LABEL_FIELDS) -> str:
        """The label's facts named in ``fields``, joined by middle dots (number not included)."""
        parts = []
        if "level" in fields and self.level:
            parts.append(self.level.capitalize())
        if "er" in fields and self.er is not None:
            parts.append(f"ER {self.er:.1f}")
        if "seed" in fields and self.seed is not None:
            parts.append(f"seed {self.seed}")
        if "seed" in fields and self.index is not None:
            parts.append(f"index {self.index}")
        if "id" in fields and self.id:
            parts.append(self.id)
        return " · ".join(parts)


def label_of(g: Generated) -> Label:
    """The label of a generated puzzle: its level and ER when rated, its seed and index."""
    r = g.rating if isinstance(g, Rated) else None
    return Label(
        level=r.level_name if r is not None else None,
        er=r.er if r is not None else None,
        seed=g.seed,
        index=g.index,
    )


def parse_label(text: str) -> Label:
    """The label a record's text states: the ``# index=… seed=… rating=ED=… level=…`` comment
    of ``sudokit generate``, a JSON record's fields, or an SE rating ``ED=ER/EP/ED``.

    >>> parse_label("1.3...12....4..3 # index=4 seed=99 shape=2x2 rating=ED=1.2/1.2/1.2 level=easy")
    Label(level='easy', er=1.2, seed=99, index=4, id=None)
    >>> parse_label('{"puzzle": "...", "er": 7.1, "index": 2}')
    Label(level='diabolical', er=7.1, seed=None, index=2, id=None)
    >>> parse_label("1.3...12....4..3")
    Label(level=None, er=None, seed=None, index=None, id=None)
    """
    facts: dict[str, object] = {}
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            facts = {k: obj[k] for k in ("index", "seed", "level", "er") if k in obj}
    else:
        stated = stated_facts(text)
        facts = {k: stated[k] for k in ("index", "seed", "level", "er") if k in stated}

    def number(key: str, kind: Callable[[str], float]) -> float | None:
        value = facts.get(key)
        try:
            return kind(str(value)) if value is not None else None
        except ValueError:
            return None

    er = number("er", float)
    level = facts.get("level")
    if not isinstance(level, str) or not level:
        level = None
        if er is not None:
            from .rating import Level  # the logic engine, only when a rating is read

            level = Level.of(er).name.lower()
    seed, index = number("seed", int), number("index", int)
    return Label(
        level=level,
        er=er,
        seed=int(seed) if seed is not None else None,
        index=int(index) if index is not None else None,
    )


def record_label(record: Record) -> Label:
    """The label a record read back states (see :func:`parse_label`): from its comment, or
    from its own text (a JSON record, an SE rating after the puzzle)."""
    return parse_label(record.note or record.text if record.fmt != "json" else record.text)


def read_labelled(
    lines: Iterable[str],
    *,
    shape: Shape | None = None,
    alphabet: str | None = None,
    source: str = "<stdin>",
) -> Iterator[tuple[Record, Label]]:
    """Read puzzles as :func:`sudokit.read_puzzles` does, each with the label its record states.

    >>> text = "# index=0 seed=5\\n1 . | 3 .\\n. . | 1 2\\n----+----\\n. . | . .\\n4 . | . 3\\n"
    >>> [(r.grid.to_line(), label.seed) for r, label in read_labelled(text)]
    [('1.3...12....4..3', 5)]
    """
    for rec in read_puzzles(lines, shape=shape, alphabet=alphabet, source=source):
        yield rec, record_label(rec)
