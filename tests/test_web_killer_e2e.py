"""A killer puzzle on the offline play page (``sudokit html``), in a real headless Chromium:
the cages drawn (dotted outlines, sums), conflicts under the cage rule, and the cage-sum
helper's digit sets checked against :func:`sudokit.cages.sum_sets`. Skips as
tests/test_web_e2e.py does when Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from killer_grids import solo_killers
from sudokit.cages import sum_sets
from sudokit.cli import main
from sudokit.formats.statement import rules_statement
from sudokit.output import format_record
from test_formats_killer import _generated
from test_web_e2e import SYMBOLS, browser, game, page, pytestmark, shot, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["browser", "page", "pytestmark"]  # the fixtures and the skip, as test_web_e2e's


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def _helper(page: Page) -> list[list[int]]:
    """The digit sets the cage-sum helper lists."""
    return [
        [SYMBOLS.index(ch) + 1 for ch in text.split("+")]
        for text in page.locator("#cage-combos .combo").all_text_contents()
    ]


def test_killer_offline_page(page: Page, tmp_path: Path) -> None:
    grid = solo_killers()[31]
    cages = grid.rules.cages
    assert cages is not None
    source = tmp_path / "killer.txt"
    source.write_text(format_record(_generated(grid), "line"), encoding="utf-8")
    out = tmp_path / "play.html"
    assert main(["html", str(source), "-o", str(out)]) == 0
    page.goto(out.as_uri())
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")

    # What is drawn: one dotted outline and one sum a cage, each sum in its first cell's corner.
    assert page.locator(".cell").count() == 81
    assert page.locator("#rules-overlay path.cage").count() == len(cages)
    sums = page.locator("#rules-overlay text.cage-sum")
    assert sums.all_text_contents() == [str(c.total) for c in cages]
    for k in (0, len(cages) // 2, len(cages) - 1):
        r, c = divmod(cages[k].cells[0], 9)
        x, y = (float(sums.nth(k).get_attribute(a) or -1) for a in ("x", "y"))
        assert c < x < c + 0.2 and r < y < r + 0.3
    assert page.text_content("#rules-text") == rules_statement(grid.rules, 9)
    solution = game(page)["solution"]

    # The helper: the sets of the selected cell's cage, all of them on an empty cage.
    cage = max(cages, key=lambda k: len(k.cells))
    first, second = cage.cells[0], cage.cells[1]
    page.click(f"#cell-{first}")
    assert page.locator("#cage-help").is_visible()
    want = [_digits(m) for m in sum_sets(9, len(cage.cells), cage.total)]
    assert _helper(page) == want
    assert page.text_content("#cage-title", timeout=1000).startswith(  # type: ignore[union-attr]
        f"Cage {cage.total} in {len(cage.cells)} cells"
    )
    # a right digit entered narrows it to the sets that hold it
    right = solution[first]
    page.keyboard.press(SYMBOLS[right - 1])
    narrowed = [s for s in want if right in s]
    assert _helper(page) == narrowed and len(narrowed) < len(want)
    assert page.locator(".cell.conflict").count() == 0
    shot(page, "killer-offline.png")

    # The same digit twice in the cage: both cells conflict, and no set is left.
    page.click(f"#cell-{second}")
    page.keyboard.press(SYMBOLS[right - 1])
    assert page.locator(f"#cell-{first}.conflict").count() == 1
    assert page.locator(f"#cell-{second}.conflict").count() == 1
    assert _helper(page) == [] and "no set of digits fits" in str(page.text_content("#cage-title"))
    page.keyboard.press("Control+z")
    assert page.locator(".cell.conflict").count() == 0

    # A two-cell cage whose digits go past its sum, each digit fine in its row, column and
    # box (the only other digit on the board is `right`): a conflict of the cage alone.
    pair = next(k for k in cages if len(k.cells) == 2 and first not in k.cells)
    a, b = pair.cells
    high, low = [d for d in range(9, 0, -1) if d != right][:2]
    assert high + low > pair.total
    page.click(f"#cell-{a}")
    page.keyboard.press(SYMBOLS[high - 1])
    page.click(f"#cell-{b}")
    page.keyboard.press(SYMBOLS[low - 1])
    assert page.locator(f"#cell-{a}.conflict").count() == 1
    assert page.locator(f"#cell-{b}.conflict").count() == 1
    assert page.locator(".cell.conflict").count() == 2
    shot(page, "killer-conflict.png")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert page.locator(".cell.conflict").count() == 0

    # Pencil marks narrow the helper too: an empty cell of the cage marked with digits that no
    # other set holds leaves the sets that hold one of them.
    third = cage.cells[2]
    page.click(f"#cell-{third}")
    mark = next(d for d in narrowed[0] if d != right)
    page.keyboard.press(f"Shift+{SYMBOLS[mark - 1]}")
    assert game(page)["marks"][third] == 1 << (mark - 1)
    assert _helper(page) == [s for s in narrowed if mark in s]
    shot(page, "killer-marks.png")
    page.keyboard.press("Control+z")

    # Filled right, nothing conflicts and the puzzle solves.
    for cell, value in enumerate(game(page)["values"]):
        if value != solution[cell]:
            page.click(f"#cell-{cell}")
            if value:
                page.keyboard.press("Backspace")
            page.keyboard.press(SYMBOLS[solution[cell] - 1])
    page.wait_for_selector("#solved[open]")
    assert page.locator(".cell.conflict").count() == 0
