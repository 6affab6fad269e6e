"""The bank's fast paths against the general ones they stand for.

- ``sudokit generate``'s comment, read by one match (``comments.GENERATED_COMMENT``), states
  what the general grammar (``comments.stated_facts``) reads of it, and anything else the fast
  match refuses.
- Schema 2 keeps one index besides the key; a schema 1 bank is upgraded (its other indexes
  dropped) with its rows intact.
- A random pick without a level (one scan of ``(level, rkey)`` per level, merged) gives the
  rows one scan of every row in ``rkey`` order gives, computed here in Python.
- The rows the bank stores are ``Entry.values`` with the time and a random key; a batch
  inserted without reading first which ids are held gives the exact outcomes all the same.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.bank import SCHEMA_VERSION, Bank, Entry, Filters
from sudokit.bank._entries import stored_rows
from sudokit.bank._schema import puzzles
from sudokit.bank._stated import stated_in_text
from sudokit.formats.comments import GENERATED_COMMENT
from sudokit.rating import Level

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"

_YES = {"yes": True, "no": False}


def _fast(note: str) -> tuple[object, ...] | None:
    """What the fast match reads of ``note`` (as ``_prepare_lines`` does), or None."""
    m = GENERATED_COMMENT.fullmatch(note)
    if m is None:
        return None
    index, seed, minimal, er, ep, ed = m.groups()
    return (float(er), float(ep), float(ed), _YES.get(minimal), int(seed), int(index))


def _general(note: str) -> tuple[object, ...]:
    s = stated_in_text(note)
    return (s.er, s.ep, s.ed, s.minimal, s.seed, s.index)


_rating = st.builds(lambda a, b: f"{a}.{b}", st.integers(0, 12), st.integers(0, 9))
#: Values of the facts the fast match skips; the last ones hide facts the grammar reads.
_word = st.sampled_from(
    ["3x3", "2x3", "rot180", "none", "mirror-h", "hard", "yes", "no", "?"]
    + ["x,seed=7", "3xED=9.9/2.2/2.2", "r=minimal=yes", "a.index=4", "-er=3"]
)


@st.composite
def _comments(draw: st.DrawFn) -> str:
    """Comments as ``generate --rate`` writes them, and mutations of them: a character put
    in, taken out or changed, a fact that the general grammar reads slipped in."""
    yes_no = st.sampled_from(["yes", "no", "?"])
    note = (
        f"# index={draw(st.integers(0, 10**6))} seed={draw(st.integers(0, 2**64 - 1))}"
        f" shape={draw(_word)} symmetry={draw(_word)} clues={draw(st.integers(0, 81))}"
        f" minimal={draw(yes_no)} orbit_minimal={draw(yes_no)}"
        f" rating=ED={draw(_rating)}/{draw(_rating)}/{draw(_rating)} level={draw(_word)}"
    )
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(note)))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            piece = draw(st.sampled_from(["=", " ", "x", "9", ".", "/", "_", "-", "é", "٣"]))
            note = note[:at] + piece + note[at:]
        elif kind == 1:
            note = note[:at] + note[at + 1 :]
        elif kind == 2:
            fact = draw(st.sampled_from(["seed=7", "index=3", "minimal=yes", "ED=9.9/1.1/1.1"]))
            note = note[:at] + fact + note[at:]
        else:
            note = note[:at] + " er=5.5 " + note[at:]
    return note


@settings(max_examples=600, deadline=None)
@given(_comments())
def test_the_generated_comment_match_reads_what_the_grammar_reads(note: str) -> None:
    fast = _fast(note)
    if fast is not None:
        assert fast == _general(note)


def test_the_generated_comment_match_takes_generates_own_comments() -> None:
    from sudokit import generate
    from sudokit.difficulty import rated
    from sudokit.output import format_record
    from sudokit.rating import rate

    for seed in range(3):
        g = generate(seed=seed)
        line = format_record(rated(g, rate(g.puzzle)), "line").rstrip("\n")
        note = line[81:].strip()
        assert _fast(note) is not None and _fast(note) == _general(note)


# Schema ------------------------------------------------------------------------------------

_SCHEMA_1_INDEXES = {
    "ix_puzzles_rkey": "rkey",
    "ix_puzzles_er": "er",
    "ix_puzzles_shape_level": "shape, level",
    "ix_puzzles_clues": "clues",
    "ix_puzzles_hardest": "hardest",
}


def _engine(url: str) -> sa.Engine:
    if "://" not in url:
        return sa.create_engine(f"sqlite:///{url}")
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _indexes(url: str) -> set[str]:
    engine = _engine(url)
    try:
        return {str(ix["name"]) for ix in sa.inspect(engine).get_indexes("puzzles")}
    finally:
        engine.dispose()


def _entries(count: int, rng: random.Random) -> list[Entry]:
    """Entries of made-up ids, of every level (the bank stores what it is given)."""
    out = []
    for k in range(count):
        er = rng.choice([1.2, 1.5, 2.0, 2.6, 4.5, 7.1])
        out.append(
            Entry(
                f"9x9-made{k:06d}",
                "3x3",
                EASY,
                EASY_SOLUTION,
                EASY,
                81 - EASY.count("."),
                "none",
                False,
                er,
                er,
                er,
                None,
                None,
                None,
                None,
                f"made:{k}",
                None,
                None,
            )
        )
    return out


def test_a_schema_1_bank_is_upgraded_with_its_rows(bank_url: str) -> None:
    with Bank(bank_url) as bank:
        list(bank.add(_entries(30, random.Random(1))))
    assert _indexes(bank_url) == {"ix_puzzles_level_rkey"}
    engine = _engine(bank_url)
    with engine.begin() as conn:  # back to schema 1: its indexes, its version
        for name, columns in _SCHEMA_1_INDEXES.items():
            conn.execute(sa.text(f"CREATE INDEX {name} ON puzzles ({columns})"))
        conn.execute(sa.text("ALTER TABLE puzzles DROP COLUMN rules"))  # added by schema 3
        conn.execute(sa.text("UPDATE meta SET value = '1' WHERE key = 'schema'"))
    engine.dispose()
    assert _indexes(bank_url) == {"ix_puzzles_level_rkey", *_SCHEMA_1_INDEXES}
    with Bank(bank_url) as bank:
        assert bank.count() == 30
        assert bank.count(Filters(rules="classic")) == 30  # old rows are classic
    assert _indexes(bank_url) == {"ix_puzzles_level_rkey"}
    engine = _engine(bank_url)
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
    engine.dispose()
    assert version == str(SCHEMA_VERSION) == "3"


def test_random_picks_without_a_level_are_one_scan_in_key_order(tmp_path: Path) -> None:
    url = str(tmp_path / "bank.db")
    with Bank(url) as bank:
        list(bank.add(_entries(300, random.Random(2))))
    engine = _engine(url)
    with engine.connect() as conn:
        rows = conn.execute(sa.select(puzzles.c.id, puzzles.c.rkey, puzzles.c.clues, puzzles.c.er))
        table = sorted(rows, key=lambda row: row.rkey)
    engine.dispose()

    def oracle(r: float, want: int, keep: Filters) -> list[str]:
        def ok(row: Any) -> bool:
            if keep.level is not None and Level.of(row.er) != keep.level:
                return False
            return keep.er is None or keep.er[0] <= row.er <= keep.er[1]

        after = [row.id for row in table if row.rkey >= r and ok(row)]
        before = [row.id for row in table if row.rkey < r and ok(row)]
        return (after + before)[:want]

    with Bank(url) as bank:
        for k, (want, keep) in enumerate(
            [(1, Filters()), (5, Filters()), (400, Filters()), (3, Filters(er=(1.5, 2.6)))]
            + [(2, Filters(level=level)) for level in Level]
            + [(4, Filters(er=er)) for er in [(2.0, 2.0), (2.6, 2.6), (1.25, 7.1), (3.0, 1.0)]]
            + [(2, Filters(er=(1.0, 2.6), level=Level.HARD))]
        ):
            for trial in range(20):
                seed = 100 * k + trial
                picked = bank.query(keep, limit=want, randomly=True, rng=random.Random(seed))
                expected = oracle(random.Random(seed).random(), want, keep)
                assert [p.id for p in picked] == expected


def test_the_hardest_first_are_a_sort_by_er_of_every_match(tmp_path: Path) -> None:
    """``hardest`` with a limit goes level by level from the hardest (the bank has no index
    of ER): the same rows, in the same order, as sorting every match by ER then id."""
    url = str(tmp_path / "bank.db")
    with Bank(url) as bank:
        list(bank.add(_entries(200, random.Random(5))))
        everything = bank.query()
        for keep in [Filters(), Filters(er=(1.3, 2.6)), Filters(level=Level.EASY)]:
            matches = [
                s for s in everything if keep.er is None or keep.er[0] <= s.rating.er <= keep.er[1]
            ]
            matches = [s for s in matches if keep.level is None or s.rating.level == keep.level]
            ranked = [s.id for s in sorted(matches, key=lambda s: (-s.rating.er, s.id))]
            for limit in (1, 7, 40, 150, 500):
                got = bank.query(keep, limit=limit, hardest=True)
                assert [s.id for s in got] == ranked[:limit]


def test_stored_rows_are_the_values_then_the_time_and_the_key() -> None:
    entries = _entries(5, random.Random(3))
    keys = iter([0.25, 0.5, 0.75, 0.125, 0.0])
    rows = stored_rows(entries, "then", lambda: next(keys))
    assert rows == [
        (*e.values(), "then", key)
        for e, key in zip(entries, [0.25, 0.5, 0.75, 0.125, 0.0], strict=True)
    ]
    assert rows[0][11] == str(Level.of(entries[0].er))


def test_a_prepared_chunk_comes_back_from_a_worker_as_it_was(tmp_path: Path) -> None:
    """A worker's chunk pickles its entries as plain tuples: unpickled, the same entries
    (of the class Entry) and refusals, in order."""
    import pickle

    from sudokit.bank import Refusal, prepare_task, read_tasks
    from sudokit.formats import PuzzleSource

    path = tmp_path / "in.txt"
    path.write_text(f"{EASY} # minimal=no rating=ED=1.2/1.2/1.2\n{'.' * 81}\n{EASY}\n")
    [task] = list(read_tasks(PuzzleSource(str(path))))
    done = prepare_task(task)
    back = pickle.loads(pickle.dumps(done))
    assert back == done and type(back) is list
    assert [type(d) for d in back] == [Entry, Refusal, Entry]


def test_without_gc_restores_what_it_found() -> None:
    import gc

    from sudokit.bank._entries import without_gc

    assert gc.isenabled()
    with without_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    try:
        with without_gc():
            raise KeyError("inside")
    except KeyError:
        pass
    assert gc.isenabled()
    gc.disable()
    try:
        with without_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # off before: left off
    finally:
        gc.enable()


def test_ratings_given_as_integers_come_back_as_floats(bank_url: str) -> None:
    """SQLite's rows skip the float column's bind processor (float()): the column's REAL
    affinity stores an integer as REAL all the same."""
    [entry] = _entries(1, random.Random(4))
    entry = entry._replace(er=2, ep=1, ed=1)
    with Bank(bank_url) as bank:
        list(bank.add([entry]))
        [stored] = bank.query()
    rating = stored.rating
    assert (rating.er, rating.ep, rating.ed) == (2.0, 1.0, 1.0)
    assert all(type(x) is float for x in (rating.er, rating.ep, rating.ed))


def test_a_batch_with_stored_puzzles_is_written_again_the_exact_way(bank_url: str) -> None:
    """A batch is first inserted whole, without reading which ids are held; when the insert
    makes fewer rows than the batch has ids, that transaction is undone and the batch
    written the exact way (read, then insert the rest), and so are the next batches until
    one is all new: the outcomes, the rows and the technique paths are the exact ones."""
    made = _entries(40, random.Random(5))
    entries = [
        e._replace(minimal=(True, False, None)[k % 3], techniques=("X-Wing",) if k % 2 else None)
        for k, e in enumerate(made)
    ]
    with Bank(bank_url) as bank:
        assert [a.new for a in bank.add(entries[:20])] == [True] * 20
        assert bank._hopeful
        mixed = [*entries[10:30], entries[25]]  # ten stored, ten new, one again in the batch
        outcomes = list(bank.add(mixed))
        assert [a.entry for a in outcomes] == mixed
        assert [a.new for a in outcomes] == [False] * 10 + [True] * 10 + [False]
        assert not bank._hopeful  # the bank held some: the next batch reads first
        assert [a.new for a in bank.add(entries[30:40])] == [True] * 10
        assert bank._hopeful  # that one was all new: back to inserting at once
        assert [a.new for a in bank.add(entries[35:38])] == [False] * 3
        stored = {s.id: s for s in bank.query()}
    assert sorted(stored) == sorted(e.id for e in entries)
    for e in entries:
        s = stored[e.id]
        assert s.minimal is e.minimal
        assert s.techniques == e.techniques
        assert s.source == e.source


def test_a_new_sqlite_bank_has_big_pages_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    import sqlite3

    from sudokit.bank._schema import _PAGE_BYTES

    def page_size(path: Path) -> int:
        with sqlite3.connect(path) as con:
            return int(con.execute("PRAGMA page_size").fetchone()[0])

    new, old = tmp_path / "new.db", tmp_path / "old.db"
    with Bank(str(new)) as bank:
        list(bank.add(_entries(3, random.Random(6))))
    assert page_size(new) == _PAGE_BYTES != 4096
    with sqlite3.connect(old) as con:  # a database of SQLite's default page size
        con.execute("PRAGMA page_size = 4096")
        con.execute("CREATE TABLE t (x)")
        con.execute("DROP TABLE t")
    assert page_size(old) == 4096
    with Bank(str(old)) as bank:
        list(bank.add(_entries(3, random.Random(6))))
        assert bank.count() == 3
    assert page_size(old) == 4096


def test_a_sqlite_bank_does_not_import_postgresqls_dialect(tmp_path: Path) -> None:
    """``bank add`` into SQLite does not pay for PostgreSQL's dialect at its start; a fresh
    interpreter adds a puzzle and reads ``sys.modules``."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from sudokit.bank import Bank, Entry\n"
        f"e = Entry('9x9-x', '3x3', {EASY!r}, {EASY_SOLUTION!r}, {EASY!r}, 30, 'none', False,"
        " 1.2, 1.2, 1.2, None, None, None, None, 'x:1', None, None)\n"
        f"with Bank({str(tmp_path / 'b.db')!r}) as bank:\n"
        "    assert [a.new for a in bank.add([e])] == [True]\n"
        "    assert bank.count() == 1\n"
        "print('sqlalchemy.dialects.postgresql' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]
