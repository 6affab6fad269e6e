"""The play page in a real headless Chromium, driven by Playwright.

Needs Debian's ``chromium`` (at /usr/bin/chromium, or the path in ``SUDOKIT_CHROMIUM``) and
the ``playwright`` Python package; skips when either is missing. Playwright's own browser
downloads are never used. Screenshots (always the 390x844 and desktop ones, and one on any
failure) go to ``$SUDOKIT_SHOTS`` or ``<tmp>/sudokit-e2e``; their paths are printed.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from sudokit import Grid, Rules, Shape, generate, random_grid
from sudokit.cli import main
from sudokit.formats.statement import rules_statement
from sudokit.output import format_record
from sudokit.render.marks import rule_marks
from sudokit.rules import geometry
from sudokit.web.page import board_data, offline_page
from test_formats_rules import IDS, RULE_SETS, puzzle_of

from service import Service, make_bank, running_service

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, ViewportSize

CHROMIUM = os.environ.get("SUDOKIT_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("SUDOKIT_SHOTS", Path(tempfile.gettempdir()) / "sudokit-e2e"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SYMBOLS = "123456789ABCDEFG"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)),
    reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh --user-data-dir
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport=DESKTOP,
            service_workers="block",
        )
        context.set_default_timeout(10_000)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """The real service (uvicorn) over a small bank of 9x9 puzzles; others are made on the
    spot, within a 2 s limit."""
    bank = str(tmp_path_factory.mktemp("e2e-bank") / "bank.db")
    make_bank(bank, count=30)
    with running_service(bank, jobs=2, time_limit=2.0) as srv:
        yield srv


@pytest.fixture
def page(browser: BrowserContext, request: pytest.FixtureRequest) -> Iterator[Page]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # The browser logs a refused request (the service's 422 for a puzzle that cannot exist,
    # its 503 for one not made in time) as a console error; the page shows those itself, so
    # they are no error here.
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not re.search("status of (422|503)", m.text)
            else None
        ),
    )
    try:
        yield page
        assert not errors, errors
    except BaseException:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{request.node.name}-failure.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"failure screenshot: {path}")
        raise
    finally:
        page.close()


def wait_until(page: Page, expression: str, timeout: float = 10.0) -> None:
    """Wait until ``expression`` is true in the page. (Playwright's ``wait_for_function``
    compiles its predicate with ``eval`` in the page when it has to poll, which the page's
    Content-Security-Policy forbids; ``evaluate`` goes through the debugger protocol.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout:g} s: {expression}")
        page.wait_for_timeout(50)


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def game(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.sudokit.state().game")
    return state


def sel(page: Page) -> int:
    return int(page.evaluate("window.sudokit.state().sel"))


def ask_hint(page: Page, level: int) -> str:
    page.click(f"[data-hint='{level}']")
    page.wait_for_selector(f"[data-hint='{level}'].active")
    page.wait_for_selector("#hint-text.shown")
    return str(page.text_content("#hint-text"))


def drawn_effects(page: Page) -> int:
    """How many placements (ghost digits) and eliminations (struck marks) the board shows."""
    return page.locator(".cell .ghost").count() + page.locator(".marks .elim").count()


def fill_solution(page: Page) -> None:
    g = game(page)
    for cell, value in enumerate(g["values"]):
        if value != g["solution"][cell]:
            page.click(f"#cell-{cell}")
            if value:
                page.keyboard.press("Backspace")
            page.keyboard.press(SYMBOLS[g["solution"][cell] - 1])


def open_served(page: Page, server: Service) -> None:
    page.goto(server.url)
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")
    page.wait_for_selector("#spinner", state="hidden")


def test_play_served(page: Page, server: Service) -> None:
    open_served(page, server)
    page.evaluate("localStorage.clear()")  # start from a new puzzle, not the module's last
    page.click("#new")
    page.wait_for_selector("#spinner", state="hidden")
    assert page.locator(".cell").count() == 81
    g = game(page)
    empty = [c for c, v in enumerate(g["values"]) if not v]
    solution = g["solution"]

    # Digits by keyboard and by the pad; a conflict shows; undo and redo. The first cell's digit
    # is one the givens hold (a puzzle may lack every given of some digit), so that placing it
    # highlights the same digit elsewhere below.
    first = next(c for c in empty if solution[c] in g["values"])
    second = next(c for c in empty if c != first)
    page.click(f"#cell-{first}")
    page.keyboard.press(str(solution[first]))
    assert game(page)["values"][first] == solution[first]
    assert page.text_content(f"#cell-{first}") == str(solution[first])
    page.click(f"#cell-{second}")
    wrong = next(d for d in range(1, 10) if d != solution[second])
    page.click(f".digit[data-digit='{wrong}']")
    assert game(page)["values"][second] == wrong
    page.click("#check")
    assert "1 digit is wrong" in str(page.text_content("#status"))
    assert page.locator(f"#cell-{second}.wrong").count() == 1
    page.click("#undo")
    assert game(page)["values"][second] == 0
    page.keyboard.press("Control+y")  # redo
    assert game(page)["values"][second] == wrong
    page.keyboard.press("Control+z")
    assert game(page)["values"][second] == 0

    # Pencil marks: pencil mode, and Shift+digit; the selected digit is highlighted.
    page.click("#pencil")
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.click("#pencil")
    page.keyboard.press("Shift+Digit3")
    assert game(page)["marks"][second] == 0b111
    assert page.locator(f"#cell-{second} .marks span:not(:empty)").count() == 3
    page.keyboard.press("u")  # undo the Shift mark
    assert game(page)["marks"][second] == 0b11
    page.click(f"#cell-{first}")
    assert page.locator(".cell.same").count() >= 1  # the same digit elsewhere
    page.click(f"#cell-{second}")
    page.click("#erase")
    assert game(page)["marks"][second] == 0

    # Hints, each level drawn on the board.
    text1 = ask_hint(page, 1)
    assert text1.startswith("Look for") and page.locator(".cell.region").count() >= 4
    text2 = ask_hint(page, 2)
    assert text2 != text1 and page.locator(".cell.pattern").count() >= 1
    text3 = ask_hint(page, 3)
    assert (
        text3 and page.locator(".cell .ghost").count() + page.locator(".marks .elim").count() >= 1
    )
    shot(page, "play-desktop.png")
    page.click("#apply")  # the step is made, and the hint is gone
    placed = sum(1 for v in game(page)["values"] if v)
    assert placed == 81 - len(empty) + 2 and page.locator(".cell .ghost").count() == 0

    # A step with links and eliminations is drawn with lines and struck candidates.
    page.evaluate(
        """window.sudokit.show({kind: "step", detail: 3, text: "A chain", step: {
            technique: "x-chain", cells: [], units: [], digits: [5], placements: [],
            eliminations: [[5, 5, 5]], links: [[1, 1, 5, 1, 9, 5, true], [1, 9, 5, 9, 9, 5, false]]
        }})"""
    )
    assert page.locator("#overlay path.link.strong").count() == 1
    assert page.locator("#overlay path.link.weak").count() == 1
    assert page.locator(".marks .elim").count() >= 1 or game(page)["values"][40]
    page.keyboard.press("Escape")
    assert page.locator("#overlay path").count() == 0

    # Progress survives a reload (the clock's too).
    wait_until(page, "window.sudokit.state().game.elapsed >= 1")
    before = game(page)
    page.reload()
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")
    after = game(page)
    assert after["values"] == before["values"] and after["puzzle"] == before["puzzle"]
    assert len(after["history"]) == len(before["history"])

    # Keyboard alone: arrows move, Backspace erases, H asks for a hint.
    page.focus("#board")
    start = sel(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert sel(page) == (start // 9 + 1) % 9 * 9 + (start % 9 + 1) % 9
    page.keyboard.press("h")
    page.wait_for_selector("#hint-text.shown")

    # The clock ran, and went on after the reload.
    assert game(page)["elapsed"] >= before["elapsed"] >= 1

    # Finish through the UI: the page says it is solved.
    fill_solution(page)
    page.wait_for_selector("#solved[open]")
    assert "Solved" in str(page.text_content("#solved"))
    page.set_viewport_size(PHONE)
    shot(page, "play-solved-phone.png")
    page.keyboard.press("Escape")
    page.set_viewport_size(DESKTOP)


def test_phone_layout(page: Page, server: Service) -> None:
    page.set_viewport_size(PHONE)
    open_served(page, server)
    page.click("#new")
    page.wait_for_selector("#spinner", state="hidden")
    ask_hint(page, 2)
    board = page.locator("#board").bounding_box()
    pad = page.locator("#pad").bounding_box()
    assert board is not None and pad is not None
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]  # no sideways scroll
    assert pad["y"] >= board["y"] + board["height"]  # the pad sits under the board
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "play-phone.png")

    # A level no puzzle of the size reaches: the page says why there is no puzzle (the
    # service's 422, at once) and keeps the game it had.
    before = game(page)["puzzle"]
    page.select_option("#level", "diabolical")
    page.select_option("#size", "4")
    page.click("#new")
    wait_until(page, "document.getElementById('status').textContent.includes('Could not')")
    page.wait_for_selector("#spinner", state="hidden")
    status = str(page.text_content("#status"))
    assert "Could not get a puzzle" in status and "no 4x4 puzzle rates ER 6.1" in status
    assert game(page)["puzzle"] == before
    page.select_option("#level", "easy")
    page.select_option("#size", "9")


def test_daily_puzzle(page: Page, server: Service) -> None:
    open_served(page, server)
    page.select_option("#level", "medium")
    page.click("#daily")
    page.wait_for_selector("#spinner", state="hidden")
    first = game(page)
    assert "Daily puzzle of" in str(page.text_content("#status")) and first["level"] == "medium"
    page.click("#new")
    page.wait_for_selector("#spinner", state="hidden")
    page.click("#daily")
    page.wait_for_selector("#spinner", state="hidden")
    assert game(page)["puzzle"] == first["puzzle"]  # the same for everybody, all day
    # The level list shows what the bank holds.
    assert any("·" in t for t in page.locator("#level option").all_text_contents())
    page.select_option("#level", "easy")


def test_new_puzzle_sizes(page: Page, server: Service) -> None:
    open_served(page, server)
    for size, cells in (("6", 36), ("16", 256)):
        page.select_option("#size", size)
        page.click("#new")
        page.wait_for_selector("#spinner", state="hidden")
        wait_until(page, f"window.sudokit.state().game.values.length === {cells}")
        assert page.locator(".cell").count() == cells
        assert page.locator(".digit").count() == int(size)
    cell = sel(page)  # a new game selects an empty cell
    assert game(page)["values"][cell] == 0
    page.keyboard.press("g")  # a letter digit on 16x16
    assert game(page)["values"][cell] == 16 and page.text_content(f"#cell-{cell}") == "G"
    shot(page, "play-16x16.png")
    page.select_option("#size", "9")


def test_offline_page(page: Page, tmp_path: Path) -> None:
    puzzles = [generate(seed=11, index=i) for i in range(2)]
    puzzles.append(generate(seed=11, shape=Shape(2, 2)))
    source = tmp_path / "puzzles.txt"
    source.write_text("".join(format_record(g, "json") for g in puzzles), encoding="utf-8")
    out = tmp_path / "play.html"
    assert main(["html", str(source), "-o", str(out)]) == 0
    page.goto(out.as_uri())  # file://, no server
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")
    assert str(page.text_content("#which")) == "Puzzle 1 of 3"
    data = page.evaluate("window.sudokit.config.puzzles[0]")
    path = data["steps"]

    # Hints come from the embedded path, drawn like the served ones.
    for level in (1, 2, 3):
        assert ask_hint(page, level) == path[0]["hints"][level - 1]
    assert drawn_effects(page) >= 1

    # A wrong digit: the hint says to undo.
    row, col, digit = path[0]["step"]["placements"][0]
    cell = (row - 1) * 9 + col - 1
    page.click(f"#cell-{cell}")
    page.keyboard.press(str(digit % 9 + 1))
    assert "undo" in ask_hint(page, 1)
    page.keyboard.press("Control+z")

    # Once the first step is made, the hint moves on along the path.
    page.keyboard.press(str(digit))
    following = next(s for s in path[1:] if s["step"]["placements"])
    assert ask_hint(page, 3) == following["hints"][2]
    shot(page, "offline-desktop.png")

    # Another puzzle, solved through the page; progress is kept per puzzle.
    page.click("#next")
    page.click("#next")
    assert str(page.text_content("#which")) == "Puzzle 3 of 3"
    assert page.locator(".cell").count() == 16
    fill_solution(page)
    page.wait_for_selector("#solved[open]")
    page.keyboard.press("Escape")
    page.reload()
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")
    assert str(page.text_content("#which")) == "Puzzle 3 of 3"
    assert game(page)["solved"] is True
    page.click("#prev")
    page.click("#prev")
    assert game(page)["values"][cell] == digit  # puzzle 1 kept its move


# Rules -----------------------------------------------------------------------------------------


def _rule_conflict(puzzle: Grid) -> tuple[int, int, int]:
    """An empty cell, a digit for it and the filled cell it then breaks a rule with, where
    only the rules (not rows, columns and boxes) make it a conflict, and no house or neighbour
    rule objects to the digit otherwise (a clean test of the rule)."""
    shape, rules, n = puzzle.shape, puzzle.rules, puzzle.shape.n
    geo = geometry(shape, rules)
    classic = geometry(shape, Rules())
    cells = puzzle.cells
    for c in range(shape.size):
        if cells[c]:
            continue
        taken = {cells[p] for p in geo.peers[c] if cells[p]}
        for p in geo.peers[c]:
            d = cells[p]
            alone = d and sum(cells[q] == d for q in geo.peers[c]) == 1
            if (
                alone
                and p not in classic.peers[c]
                and all(abs(cells[q] - d) != 1 for q in geo.related[c] if cells[q])
            ):
                return c, d, p
        for p in geo.related[c]:
            for d in (cells[p] - 1, cells[p] + 1):
                clean = cells[p] and 1 <= d <= n and d not in taken
                if clean and sum(abs(cells[q] - d) == 1 for q in geo.related[c] if cells[q]) == 1:
                    return c, d, p
    raise AssertionError(f"no clean conflict of {rules} in {puzzle}")


def _has_rule_conflict(puzzle: Grid) -> bool:
    try:
        _rule_conflict(puzzle)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
def test_offline_page_plays_by_the_rules(
    page: Page, tmp_path: Path, rules: str, shape: Shape
) -> None:
    # the first puzzle from seed 3 on that gives the rules a clean conflict (see below)
    seed = next(s for s in range(3, 40) if _has_rule_conflict(puzzle_of(rules, shape, seed=s)))
    full = random_grid(shape, rules=rules, seed=seed)
    puzzle = puzzle_of(rules, shape, seed=seed)
    # the hint path is the logic engine's; the board and its conflicts need only this
    entry = board_data(puzzle, full) | {"steps": [], "reveal": []}
    out = tmp_path / "play.html"
    out.write_text(offline_page([entry]), encoding="utf-8")
    page.goto(out.as_uri())
    wait_until(page, "window.sudokit && window.sudokit.state().game !== null")
    value, n = Rules(rules), shape.n

    # What is drawn: the cells, the rules' borders, diagonals, windows, tints, the statement.
    assert page.locator(".cell").count() == n * n
    marks = rule_marks(shape, value)
    inner = sum(1 for kind, x, y in marks.borders)
    assert page.locator(".cell.edge-r").count() + page.locator(".cell.edge-b").count() == inner
    assert page.locator("#rules-overlay .diagonal").count() == (2 if marks.diagonals else 0)
    window_cells = sum(k * k for _, _, k in marks.windows)
    assert page.locator(".cell.window").count() == window_cells
    assert page.locator(".cell.tinted").count() == (n * n if marks.groups else 0)
    assert page.text_content("#rules-text") == rules_statement(value, n)

    # A digit that only the rules forbid is marked a conflict, with the cell it clashes with.
    cell, digit, other = _rule_conflict(puzzle)
    assert page.locator(".cell.conflict").count() == 0
    page.click(f"#cell-{cell}")
    page.keyboard.press(SYMBOLS[digit - 1])
    assert game(page)["values"][cell] == digit
    assert page.locator(f"#cell-{cell}.conflict").count() == 1
    assert page.locator(f"#cell-{other}.conflict").count() == 1
    shot(page, f"rules-{IDS[RULE_SETS.index((rules, shape))]}.png")
    page.keyboard.press("Control+z")
    assert page.locator(".cell.conflict").count() == 0
