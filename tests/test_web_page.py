"""The play page's HTML: served and offline forms from one template, and ``sudokit html``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sudokit import Grid, Shape, generate, solve
from sudokit.cli import main
from sudokit.errors import InvalidPuzzleError
from sudokit.logic import Candidates, apply, hint, solve_path
from sudokit.output import format_record
from sudokit.web import offline_page, puzzle_data, served_page
from sudokit.web.page import asset

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def embedded(page: str) -> dict[str, Any]:
    m = re.search(r'<script id="sudokit-data" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def test_puzzle_data_holds_the_hint_path() -> None:
    grid = Grid(EASY)
    data = puzzle_data(grid)
    path = solve_path(grid)
    assert data["solution"] == list(solve(grid).cells)  # type: ignore[union-attr]
    assert len(data["steps"]) == len(path.steps) and data["level"] == "easy"
    state = Candidates.from_grid(grid)
    for entry, step in zip(data["steps"], path.steps, strict=True):
        # The texts are the ones hint() gives at each position of the path.
        texts = [h.text for h in (hint(state, level) for level in (1, 2, 3)) if h is not None]
        assert entry["hints"] == texts
        assert entry["step"]["technique"] == step.technique
        assert entry["step"]["placements"] == step.to_dict()["placements"]
        apply(state, step)


def test_a_killers_page_has_its_hint_path_and_killer_level() -> None:
    from killer_grids import solo_killers
    from sudokit.rating import killer_level
    from test_bank_killer import BEYOND

    grid = solo_killers()[0]
    data = puzzle_data(grid)
    assert data["level"] == str(killer_level(grid)) == "medium"  # not SE's level of its ER
    assert len(data["steps"]) == len(solve_path(grid).steps) and data["reveal"] == []
    assert data["steps"][0]["hints"][0].startswith("Rule of 45")
    beyond = puzzle_data(BEYOND)  # the path stops where Nishio would be needed
    assert beyond["level"] == "extreme" and beyond["reveal"] and beyond["steps"]


def test_puzzle_data_refuses_puzzles_without_one_solution() -> None:
    with pytest.raises(InvalidPuzzleError, match="more than one solution"):
        puzzle_data(Grid("1" + "." * 15))
    with pytest.raises(InvalidPuzzleError, match="no solution"):
        puzzle_data(Grid("12....34........"))  # box 2 needs 1 and 2, which row 1 has


def test_served_page_links_the_shared_assets() -> None:
    page = served_page()
    assert '<link rel="stylesheet" href="static/play.css">' in page
    assert '<script src="static/play.js"></script>' in page
    assert "<!--sudokit:" not in page


def test_offline_page_inlines_the_same_assets() -> None:
    page = offline_page([puzzle_data(Grid(EASY))])
    assert asset("play.css").decode() in page and asset("play.js").decode() in page
    assert 'src="static' not in page and 'href="static' not in page and "<!--sudokit:" not in page
    data = embedded(page)
    assert data["mode"] == "offline" and len(data["puzzles"]) == 1 and data["set"]


def test_offline_page_data_cannot_close_its_script() -> None:
    entry = puzzle_data(Grid(EASY))
    entry["steps"][0]["hints"][0] = "</script><script>alert(1)</script> <!-- &"
    page = offline_page([entry])
    assert page.count("</script>") == 2  # the data's and the script's own
    assert embedded(page)["puzzles"][0]["steps"][0]["hints"][0].startswith("</script>")


def test_cli_html_reads_generate_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = [generate(seed=5, index=i) for i in range(2)]
    lines = [format_record(g, "line", with_solution=True) for g in made]
    source = tmp_path / "puzzles.txt"
    source.write_text(
        "# from sudokit generate\n" + "".join(lines) + "not a puzzle\n" + "1" + "." * 80 + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "play.html"
    assert main(["html", str(source), "-o", str(out)]) == 1  # two bad lines
    err = capsys.readouterr().err
    assert "line 4" in err and "line 5" in err and "more than one solution" in err
    assert f"{out}: 2 puzzles" in err
    data = embedded(out.read_text(encoding="utf-8"))
    assert [p["puzzle"] for p in data["puzzles"]] == [list(g.puzzle.cells) for g in made]
    assert [p["solution"] for p in data["puzzles"]] == [list(g.solution.cells) for g in made]
    assert all(p["steps"] and p["shape"] == "3x3" for p in data["puzzles"])


def test_cli_html_other_shapes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = generate(seed=5, shape=Shape(2, 3))
    source = tmp_path / "six.txt"
    source.write_text(format_record(made, "line"), encoding="utf-8")
    out = tmp_path / "six.html"
    assert main(["html", str(source), "-o", str(out), "--shape", "2x3"]) == 0
    (entry,) = embedded(out.read_text(encoding="utf-8"))["puzzles"]
    assert entry["shape"] == "2x3" and entry["box_rows"] == 2 and entry["box_cols"] == 3


def test_cli_html_pretty_and_json_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = generate(seed=9)
    source = tmp_path / "p.txt"
    source.write_text(
        format_record(g, "pretty") + format_record(g, "json", with_solution=True), encoding="utf-8"
    )
    out = tmp_path / "p.html"
    assert main(["html", str(source), "-o", str(out)]) == 0
    assert len(embedded(out.read_text(encoding="utf-8"))["puzzles"]) == 2


def test_cli_html_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.html"
    assert main(["html", str(tmp_path / "missing.txt"), "-o", str(out)]) == 1
    assert "cannot read" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    assert main(["html", str(empty), "-o", str(out)]) == 1
    assert "no puzzle" in capsys.readouterr().err and not out.exists()
    good = tmp_path / "good.txt"
    good.write_text(EASY + "\n", encoding="utf-8")
    assert main(["html", str(good), "-o", str(tmp_path / "no" / "dir.html")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_every_step_has_the_one_schema() -> None:
    """explain --format json, the offline page and the server all write Step.to_dict: every
    step of some paths, with and without the state it was found in, fits STEP_SCHEMA."""
    from jsonschema import Draft202012Validator

    from sudokit.logic import STEP_SCHEMA, Candidates, solve_steps

    validator = Draft202012Validator(STEP_SCHEMA)
    Draft202012Validator.check_schema(STEP_SCHEMA)
    seen = set()
    for seed in range(4):
        made = generate(seed=seed, level=("easy", "hard", "fiendish", "diabolical")[seed])
        state = Candidates.from_grid(made.puzzle)
        for step in solve_steps(state, in_place=False):
            for data in (step.to_dict(), step.to_dict(state)):
                validator.validate(data)
            seen.add(step.technique)
    assert len(seen) > 4
    page = puzzle_data(generate(seed=1).puzzle)
    for s in page["steps"]:
        validator.validate(s["step"])


def test_the_offline_page_carries_python_words() -> None:
    """The page's script words no hint itself: the texts come from HINT_WORDS."""
    from sudokit.web import HINT_WORDS
    from sudokit.web.page import offline_page

    text = offline_page([puzzle_data(generate(seed=2).puzzle)])
    script = text[text.index("(function ()") :]
    for words in HINT_WORDS.values():
        for template in words:
            head = template.split("{")[0]
            assert head in text  # in the page data ...
            assert head not in script  # ... and not typed again into the script
