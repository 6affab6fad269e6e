"""The bank under rules: the rules are part of a stored puzzle (a column), queried, counted,
read back on the grids, and a bank of schema 2 (before rules) upgrades with its rows classic.
Run against SQLite and the throw-away PostgreSQL (``bank_url``)."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from sudokit import Grid, Shape, random_grid
from sudokit.bank import Bank, Entry, Filters, entry_of
from sudokit.canon import canonical, canonical_id
from sudokit.engine import is_unique, unique_solution
from sudokit.errors import InvalidRulesError
from sudokit.rating import Rating
from sudokit.rules import CLASSIC, Rules

SUDOKU = Shape(3, 3)


def _engine(url: str) -> sa.Engine:
    if "://" not in url:
        return sa.create_engine(f"sqlite:///{url}")
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _unique_under(rules: str, seed: int) -> Grid:
    """A unique puzzle of ``rules``: clues taken out of a random grid while it stays unique."""
    full = random_grid(SUDOKU, rules=rules, seed=seed)
    rng = random.Random(seed)
    puzzle = full
    cells = list(range(81))
    rng.shuffle(cells)
    for c in cells[:45]:
        fewer = puzzle.without(c)
        if is_unique(fewer):
            puzzle = fewer
    return puzzle


def _entry(rules: str, seed: int, er: float = 2.0) -> Entry:
    # a stated rating: rating under rules is another layer's
    return entry_of(
        _unique_under(rules, seed),
        Rating(er, er, er, True, None),
        techniques=None,
        minimal=None,
        symmetry=None,
        source=f"test:{seed}",
    )


def test_rules_are_stored_queried_counted_and_read_back(bank_url: str) -> None:
    entries = [_entry("x", 1), _entry("x", 2), _entry("windoku", 3), _entry("classic", 4)]
    with Bank(bank_url) as bank:
        added = list(bank.add(entries))
        assert [a.new for a in added] == [True] * 4
        # the same digits under other rules are another puzzle
        x_shown = Grid(entries[0].shown, rules="x")
        assert entries[0].id == canonical_id(x_shown) and entries[0].id.startswith("9x9-x-")
        assert bank.count(Filters(rules="x")) == 2
        assert bank.count(Filters(rules="windoku")) == 1
        assert bank.count(Filters(rules=CLASSIC)) == 1
        assert bank.count(Filters(rules="x+windoku")) == 0
        assert bank.stats()["rules"] == {"x": 2, "classic": 1, "windoku": 1}
        got = bank.query(Filters(rules="x"))
        assert {s.id for s in got} == {entries[0].id, entries[1].id}
        for s in got:
            assert s.rules == Rules("x")
            assert s.puzzle.rules == s.shown.rules == s.solution.rules == Rules("x")
            assert canonical_id(s.shown) == s.id
            rng = random.Random(3)
            puzzle, solution = s.isomorph(rng)
            assert puzzle.rules == Rules("x") and canonical_id(puzzle) == s.id
            assert unique_solution(puzzle) == solution
        classic = bank.query(Filters(rules="classic"))
        assert [s.rules for s in classic] == [CLASSIC] and type(classic[0].puzzle) is Grid
        again = list(bank.add([_entry("x", 1)]))
        assert [a.new for a in again] == [False]
        assert bank.get(entries[2].id) is not None
        assert bank.get(entries[2].id).rules == Rules("windoku")  # type: ignore[union-attr]


def test_a_schema_2_bank_upgrades_with_its_rows_classic(bank_url: str) -> None:
    classic = _entry("classic", 5)
    with Bank(bank_url) as bank:
        list(bank.add([classic]))
    engine = _engine(bank_url)
    with engine.begin() as conn:  # back to schema 2: no rules column
        conn.execute(sa.text("ALTER TABLE puzzles DROP COLUMN rules"))
        conn.execute(sa.text("UPDATE meta SET value = '2' WHERE key = 'schema'"))
    engine.dispose()
    with Bank(bank_url) as bank:
        assert bank.count(Filters(rules="classic")) == 1
        stored = bank.get(classic.id)
        assert stored is not None and stored.rules == CLASSIC and stored.id == classic.id
        list(bank.add([_entry("antiking", 6)]))
        assert bank.stats()["rules"] == {"antiking": 1, "classic": 1}


def test_filters_read_rules_text() -> None:
    assert Filters(rules="hyper").rules == Rules("windoku")
    with pytest.raises(InvalidRulesError, match="unknown rule 'bogus'"):
        Filters(rules="bogus")


JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"


def test_records_with_rules_are_prepared_under_them() -> None:
    # A batch of records mixing rules: each is checked, put in canonical form and solved
    # under its own rules (a jigsaw's clues may repeat a digit in a box: boxes are no houses).
    from sudokit.bank._entries import Pending, prepare_many
    from sudokit.formats import Record

    jig = _unique_under("jigsaw:" + JIGSAW9, 8)
    grids = [_unique_under("x", 9), jig, _unique_under("classic", 10), _unique_under("x", 11)]
    items: list[Pending | Record] = [
        Pending(Record(i, g, None, g.to_line(), "line", "ED=1.2/1.2/1.2"), f"t:{i}")
        for i, g in enumerate(grids, 1)
    ]
    done = prepare_many(items)
    assert all(isinstance(d, Entry) for d in done), done
    entries = [d for d in done if isinstance(d, Entry)]
    assert [e.rules for e in entries] == [str(g.rules) for g in grids]
    assert [e.id for e in entries] == [canonical_id(g) for g in grids]
    for e, g in zip(entries, grids, strict=True):
        form = canonical(g).grid
        assert e.puzzle == form.to_line() and e.shown == g.to_line()
        assert e.solution == unique_solution(form).to_line()


def test_a_jigsaw_reads_back_with_its_layouts(bank_url: str) -> None:
    from sudokit.bank._entries import Pending, prepare_many
    from sudokit.formats import Record

    jig = _unique_under("jigsaw:" + JIGSAW9, 8)
    item = Pending(Record(1, jig, None, jig.to_line(), "line", "ED=1.2/1.2/1.2"), "t:1")
    (entry,) = prepare_many([item])
    assert isinstance(entry, Entry)
    with Bank(bank_url) as bank:
        list(bank.add([entry]))
        (stored,) = bank.query(Filters(rules=jig.rules))
    assert stored.shown == jig and stored.rules == jig.rules
    assert stored.puzzle == canonical(jig).grid  # the canonical layout
    assert stored.solution == unique_solution(stored.puzzle)
    puzzle, solution = stored.isomorph(random.Random(1))
    assert canonical_id(puzzle) == stored.id and unique_solution(puzzle) == solution
