"""Killer puzzles in the bank: stored keyed by their canonical id (cages moved with the cells,
no relabelling), graded as :func:`~sudokit.rating.rate` grades them and kept by their killer
level (level column ``killer-easy`` to ``killer-extreme``), or, when the rating cannot finish
(a technique it needs does not run under cages yet), with their killer level alone (ER 0.0:
below SE's scale); queried as ``--rules killer`` (any cages) by killer level, and counted by
kind. Run against SQLite and the throw-away PostgreSQL (``bank_url``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from killer_grids import solo_killers
from sudokit import Grid, Rules, canonical, canonical_id, unique_solution
from sudokit.bank import Bank, Entry, Filters
from sudokit.bank._entries import Pending, prepare_many
from sudokit.cli import main
from sudokit.errors import InvalidRulesError
from sudokit.formats import PuzzleSource, Record
from sudokit.output import format_record
from sudokit.rating import KillerLevel, Level, killer_level, rate
from test_formats_killer import _generated, _killer_x


def _pending(grids: list[Grid]) -> list[Pending | Record]:
    return [
        Pending(Record(i, g, None, g.to_line(), "line", ""), f"t:{i}")
        for i, g in enumerate(grids, 1)
    ]


#: A killer of large cages (the generator's, seed 0, cages of 4 to 7 cells, no givens) whose
#: rating needs Nishio or more, which do not run under cages yet: the bank keeps it with its
#: killer level (extreme) and no ER.
BEYOND = Grid(
    "." * 81,
    rules=Rules(
        "killer:AABBBBCCDAAEBFFFCDAEEEGGFCDAEHIIGJDDHHHKIGJJJLLHKIIJMNLOPKKMMMNLOPPPQMNNLOOQQQQNN"
        "/25,31,22,19,25,27,17,29,25,17,18,28,27,29,11,23,32"
    ),
)


def test_killers_are_stored_graded_and_read_back(bank_url: str) -> None:
    grids = [*solo_killers()[:3], _killer_x()]
    done = prepare_many(_pending([*grids, BEYOND]))
    entries = [d for d in done if isinstance(d, Entry)]
    assert len(entries) == 5, done
    for e, g in zip(entries, grids, strict=False):
        assert e.id == canonical_id(g) and e.rules == str(g.rules)
        r = rate(g)
        assert (e.er, e.ep, e.ed, e.hardest) == (r.er, r.ep, r.ed, r.hardest)
        assert r.killer is not None and e.killer_level == str(r.killer) == str(killer_level(g))
        assert e.techniques and e.row()["level"] == f"killer-{r.killer}"
        form = canonical(g).grid
        assert e.puzzle == form.to_line() and e.solution == unique_solution(form).to_line()
    beyond = entries[4]
    with pytest.raises(InvalidRulesError, match="needs nishio"):
        rate(BEYOND)
    assert (beyond.er, beyond.ep, beyond.ed, beyond.hardest, beyond.techniques) == (
        (0.0, 0.0, 0.0, None, None)
    )
    assert killer_level(BEYOND) is KillerLevel.EXTREME
    assert beyond.killer_level == "extreme" and beyond.row()["level"] == "killer-extreme"
    entries = entries[:4]
    with Bank(bank_url) as bank:
        assert [a.new for a in bank.add(entries)] == [True] * 4
        assert [a.new for a in bank.add(entries[:1])] == [False]
        assert [a.new for a in bank.add([beyond])] == [True]
        assert bank.count(Filters(rules="killer")) == 4
        assert bank.count(Filters(rules="killer+x")) == 1
        assert bank.count(Filters(rules="x")) == 0
        assert bank.count(Filters(rules=grids[0].rules)) == 1  # one layout, exactly
        stats = bank.stats()
        assert stats["rules"] == {"killer": 4, "killer+x": 1}
        levels = [f"killer-{e.killer_level}" for e in [*entries, beyond]]
        assert stats["level"] == {lv: levels.count(lv) for lv in levels}
        stored = bank.query(Filters(rules="killer"))
        assert {s.id for s in stored} == {e.id for e in [*entries[:3], beyond]}
        for s in stored:
            assert s.rated == (s.id != beyond.id) and s.rules.cages is not None
            assert s.puzzle.rules == canonical(s.shown).grid.rules  # the canonical cages
            assert s.solution == unique_solution(s.puzzle)
            puzzle, solution = s.isomorph(random.Random(2))
            assert puzzle.rules.cages is not None and canonical_id(puzzle) == s.id
            assert unique_solution(puzzle) == solution
        picked = bank.query(Filters(rules="killer"), randomly=True, limit=2)
        assert len(picked) == 2
        assert bank.query(Filters(rules="killer"), hardest=True, limit=1)
        assert bank.count(Filters(level=None, er=(1.0, 12.0))) == 4  # the graded ones
        # by killer level: the level of the killers, never SE's of their ER
        for level in KillerLevel:
            want = {e.id for e in [*entries, beyond] if e.killer_level == str(level)}
            for asked in (level, str(level), f"killer-{level}"):
                got = bank.query(Filters(rules="killer", level=asked))
                assert {s.id for s in got} - {entries[3].id} == want - {entries[3].id}
                assert all(s.rating.killer is level for s in got)
            picked = bank.query(Filters(rules="killer", level=level), randomly=True, limit=9)
            assert {s.id for s in picked} == want - {entries[3].id}
        assert {s.id for s in bank.query(Filters(level="extreme"))} == {beyond.id}
        assert bank.count(Filters(level=Level.EASY)) == 0  # SE's easy: no killer
        # the hardest first: killer levels merged by ER (their ERs overlap each other's)
        graded = sorted(entries, key=lambda e: (-e.er, e.id))
        for limit in (1, 2, 5):
            got = bank.query(hardest=True, limit=limit)
            assert [s.id for s in got] == [e.id for e in [*graded, beyond]][:limit]


def test_filters_name_killer_without_cages() -> None:
    assert Filters(rules="killer").rules == "killer"
    assert Filters(rules="x+killer").rules == "killer+x"
    assert Filters(rules="killer").killer_kind() == ()
    assert Filters(rules="x").killer_kind() is None
    with pytest.raises(ValueError, match="killer with a jigsaw needs its cages"):
        Filters(rules="killer+jigsaw:" + "".join(str(c // 27 * 3 + c % 9 // 3) for c in range(81)))
    with pytest.raises(InvalidRulesError, match="unknown rule 'bogus'"):
        Filters(rules="killer+bogus")


def test_bank_add_query_and_stats_of_killer_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "killers.txt"
    grids = [*solo_killers()[10:14], _killer_x()]
    records.write_text("".join(format_record(_generated(g), "line") for g in grids))
    db = str(tmp_path / "bank.db")
    assert main(["bank", "--db", db, "add", str(records)]) == 0
    assert "added 5, duplicates 0, refused 0" in capsys.readouterr().err
    assert main(["bank", "--db", db, "query", "--rules", "killer"]) == 0
    out = capsys.readouterr().out
    read = [r.grid for r in PuzzleSource(out).records()]
    assert all(g is not None and g.rules.cages is not None for g in read)
    assert {canonical_id(g) for g in read if g is not None} == {canonical_id(g) for g in grids[:4]}
    assert set(read) == set(grids[:4])  # as they came in, cages and all
    assert out.count("rating=") == 4  # each graded
    assert main(["bank", "--db", db, "query", "--rules", "killer+x", "--format", "json"]) == 0
    (obj,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert obj["rules"] == str(grids[4].rules) and obj["id"].startswith("4x4-killer.x-")
    assert main(["bank", "--db", db, "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["rules"] == {"killer": 4, "killer+x": 1}
    assert "unrated" not in stats["level"] and sum(stats["level"].values()) == 5


def test_bank_fill_makes_killers_of_a_killer_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "bank.db")
    for name in ("extreme", "easy"):
        args = ["fill", "-n", "2", "--rules", "killer", "--level", name, "--seed", "1"]
        assert main(["bank", "--db", db, *args]) == 0
        assert "added 2, duplicates 0" in capsys.readouterr().err
    assert main(["bank", "--db", db, "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["level"] == {"killer-easy": 2, "killer-extreme": 2}
    assert stats["rules"] == {"killer": 4}
    for level in (KillerLevel.EASY, KillerLevel.EXTREME):
        query = ["query", "--rules", "killer", "--level", str(level), "--format", "json"]
        assert main(["bank", "--db", db, *query]) == 0
        found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(found) == 2
        for obj in found:
            grid = Grid(obj["puzzle"], rules=Rules(obj["rules"]))
            assert obj["level"] == str(level) and killer_level(grid) is level  # (the oracle)
            # graded when the rating finishes it (an easy one always), else no ER written
            assert obj["er"] >= 1.0 if level is KillerLevel.EASY else obj.get("er", 1.0) >= 1.0
    assert main(["bank", "--db", db, "query", "--level", "extreme", "--format", "json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # extreme names killers only
    for rules, asked, words in (
        ("killer", "fiendish", "unknown killer level 'fiendish'"),
        ("killer", "bogus", "unknown killer level 'bogus'"),
        ("x", "extreme", "'extreme' is a killer level; rules 'x' have no cages"),
    ):
        assert main(["bank", "--db", db, "query", "--rules", rules, "--level", asked]) == 2
        assert words in capsys.readouterr().err
