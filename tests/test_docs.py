"""The documents speak to users: what can be checked of that by reading them.

- README.md and docs/*.md, and the comments of src/, benchmarks/ and tools/, hold no commit
  hashes and no lab-notebook wording (who measured, which round, the build before): git keeps
  the history; a page or a comment says what is and why.
- Every section of docs/performance.md gives, for its figures, the command that reproduces
  them (a script or test file that exists, with options that script declares) and the
  machine they were measured on.
- The README's speed section stays a short table, each row with its command.
- Links between the pages point at pages and headings that exist.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PERFORMANCE = ROOT / "docs" / "performance.md"

#: A commit-like hash: 7 to 40 lower-case hex digits with at least one letter and one digit,
#: standing alone. Grid lines (digits only), words (letters only), canonical ids (base32, so
#: letters past f) and ``0x…`` constants (preceded by a letter) do not match.
HASH = re.compile(
    r"(?<![0-9A-Za-z_])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_])"
)
#: Wording of a lab notebook rather than a user's document.
DIARY = re.compile(
    r"\bthis round\b|\bround two\b|\bthe round before\b|\bthe build before\b|\bearlier build|"
    r"\bengineer|\bthis session\b|\bprevious session\b|\bwork paused\b|\bother work at nice\b|"
    r"\bbefore this round\b|\bC harness\b",
    re.IGNORECASE,
)


#: A figure's history: "0.25 -> 0.06 us", "1,632M → 1,034M", "32 a task gave 1.5x".
HISTORY = re.compile(r"\d[\d.,]*\s*[A-Za-zµ]*\s*(?:->|→)\s*\d|\bgave [\d.]+[x×]")


def diary_findings(text: str) -> list[str]:
    """The commit-like hashes, notebook phrases and before/after figures in ``text``."""
    return [m.group() for pattern in (HASH, DIARY, HISTORY) for m in pattern.finditer(text)]


def test_the_patterns_catch_a_diary_and_spare_puzzles() -> None:
    assert diary_findings("the build before (17943b0), with another engineer's work") == [
        "17943b0",
        "the build before",
        "engineer",
    ]
    assert diary_findings("this round's build, a770791 and dc4970b") == [
        "a770791",
        "dc4970b",
        "this round",
    ]
    assert diary_findings("0.25 -> 0.06 us a grid; 1,632M → 1,034M; 32 a task gave 1.5x") == [
        "0.25 -> 0",
        "1,632M → 1",
        "gave 1.5x",
    ]
    legitimate = (
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293 "
        "'9x9-gppxi6dpzg6rqwn3khcc3qkrbm' 0x5555555555555555ULL deadbeef facade "
        "rounds of the hunt, --rounds 3, round after round, blake2b-128, "
        "column → the column, grids(cls, shape, cells, size) -> list"
    )
    assert diary_findings(legitimate) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_hold_no_hashes_or_diary(page: Path) -> None:
    assert diary_findings(page.read_text(encoding="utf-8")) == []


def comments(path: Path) -> str:
    """The comments of a Python, C or shell file, one a line (docstrings included)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".c", ".h"):
        return "\n".join(m.group() for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S))
    if path.suffix == ".sh":
        return "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
    found: list[str] = []
    previous = tokenize.INDENT
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            found.append(tok.string)
        elif tok.type == tokenize.STRING and previous in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.NL,
        ):
            found.append(tok.string)  # a docstring, or a string standing as a statement
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return "\n".join(found)


SOURCES = sorted(
    p
    for folder in ("src", "benchmarks", "tools")
    for p in (ROOT / folder).rglob("*")
    if p.suffix in (".py", ".c", ".h", ".sh")
)


def test_comments_hold_no_hashes_or_diary() -> None:
    found = {
        str(p.relative_to(ROOT)): hits for p in SOURCES if (hits := diary_findings(comments(p)))
    }
    assert found == {}


def test_comments_reads_python_comments_and_docstrings(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        '"""Module, this round."""\nx = "17943b0"  # the build before\n'
        'def f() -> None:\n    """Doc a770791."""\n',
        encoding="utf-8",
    )
    assert diary_findings(comments(source)) == ["a770791", "this round", "the build before"]


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each ``##`` or ``###`` section."""
    parts = re.split(r"^(#{2,3} .+)$", text, flags=re.M)
    return [(parts[i].lstrip("# ").strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


COMMAND = re.compile(r"^Command: (.+?)(?=^Machine:)", re.M | re.S)
MACHINE = re.compile(r"^Machine: (.+)$", re.M)
#: What a machine line must say: cores, memory, Python and compiler (or that any will do).
MACHINE_FACTS = re.compile(r"^(any\b|\d+-core \S+ .*\d+ GiB, Python 3\.\d+, gcc \d+)")


def test_every_performance_section_names_commands_and_the_machine() -> None:
    found = sections(PERFORMANCE.read_text(encoding="utf-8"))
    assert len(found) >= 10
    for heading, body in found:
        commands = COMMAND.findall(body)
        machines = MACHINE.findall(body)
        assert commands, f"{heading}: no 'Command:' line followed by a 'Machine:' line"
        assert len(machines) == len(commands), f"{heading}: a command without its machine"
        for machine in machines:
            assert MACHINE_FACTS.match(machine), f"{heading}: {machine!r}"
        for command in commands:
            assert re.search(r"`(python|sudokit) [^`]+`", command), f"{heading}: {command!r}"


def invocations(text: str) -> list[list[str]]:
    """Each ``python benchmarks/X.py ...`` or ``python -m pytest ...`` in backticks, split."""
    found = re.finditer(r"`(python (?:benchmarks/|-m pytest )[^`]+)`", text)
    return [m.group(1).split() for m in found]


def test_performance_commands_name_real_scripts_and_options() -> None:
    found = invocations(PERFORMANCE.read_text(encoding="utf-8")) + invocations(
        (ROOT / "README.md").read_text(encoding="utf-8")
    )
    assert len(found) >= 20
    for words in found:
        if words[1] == "-m":  # python -m pytest FILE ...
            files = [w for w in words if w.startswith("tests/")]
            assert all((ROOT / f.split("::")[0]).is_file() for f in files), words
            continue
        if "*" in words[1]:  # a pattern: it must match some scripts
            assert list(ROOT.glob(words[1])), words
            continue
        script = ROOT / words[1]
        assert script.is_file(), words
        declared = script.read_text(encoding="utf-8")
        for option in (w for w in words[2:] if w.startswith("--")):
            assert f'"{option}"' in declared, f"{words[1]} declares no {option}"


def test_readme_speed_section_is_a_short_table_with_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    speed = dict(sections(readme))["Speed"]
    assert "docs/performance.md" in speed
    assert len(speed.strip().splitlines()) <= 20
    rows = [line for line in speed.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) >= 4
    for row in rows[1:]:  # after the header
        assert "`python benchmarks/" in row, row


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_links_between_pages_resolve() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+\.md(?:#[^)\s]*)?)\)", text):
            name, _, anchor = target.partition("#")
            linked = (page.parent / name).resolve()
            assert linked.is_file(), f"{page.name}: {target}"
            if anchor:
                headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.M)
                assert anchor in {slug(h) for h in headings}, f"{page.name}: {target}"
