"""Where the commands write: through a symbolic link to its target, into a FIFO or a device as
a stream (never replacing it), ``-o -`` as standard output, and new files with the mode the
umask gives (not 0600)."""

from __future__ import annotations

import argparse
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokit.cli import main

Capture = pytest.CaptureFixture[str]

KNOWN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def puzzles(tmp_path: Path) -> str:
    path = tmp_path / "in.txt"
    path.write_text(KNOWN + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def umask_022() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def test_a_book_is_written_through_a_symlink(tmp_path: Path, puzzles: str) -> None:
    target = tmp_path / "books" / "real.pdf"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(target)
    assert main(["pdf", puzzles, "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in target.parent.iterdir()) == ["real.pdf"]  # no temp left


@pytest.mark.parametrize("command", ["pdf", "html"])
def test_a_fifo_gets_the_output_as_a_stream(tmp_path: Path, puzzles: str, command: str) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main([command, puzzles, "-o", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].startswith(b"%PDF" if command == "pdf" else b"<!")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", ["pdf", "html", "solve"])
def test_dev_full_fails_and_stays_a_device(puzzles: str, command: str, capsys: Capture) -> None:
    assert main([command, puzzles, "-o", "/dev/full"]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_dash_is_standard_output(
    tmp_path: Path, puzzles: str, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["solve", puzzles, "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("417369825")
    assert main(["generate", "--seed", "1", "-o", "-"]) == 0
    assert "seed=1" in capsys.readouterr().out
    assert main(["generate", "--seed", "1", "-o", "-", "--resume"]) == 2
    assert not (tmp_path / "-").exists()
    pdf = subprocess.run(
        [sys.executable, "-m", "sudokit", "pdf", puzzles, "-o", "-"],
        capture_output=True,
        check=True,
    )
    assert pdf.stdout.startswith(b"%PDF") and pdf.stdout.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize("command", ["pdf", "html"])
def test_new_files_get_the_mode_of_the_umask(
    tmp_path: Path, puzzles: str, command: str, umask_022: None
) -> None:
    new = tmp_path / "new.out"
    assert main([command, puzzles, "-o", str(new)]) == 0
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    private = tmp_path / "private.out"
    private.write_bytes(b"old")
    private.chmod(0o600)
    assert main([command, puzzles, "-o", str(private)]) == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600  # a file keeps its mode


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub
                yield from _subparsers(sub)


def test_every_option_has_help_and_the_main_help_lists_130() -> None:
    """What ``--help`` shows: each option of each command says what it does, and the exit
    statuses include 130 (interrupted)."""
    from sudokit.cli import parser

    main_parser = parser()
    assert "130 interrupted" in " ".join(main_parser.format_help().split())
    names = [p.prog.split()[-1] for p in _subparsers(main_parser)]
    missing = [
        f"{command} {action.option_strings[-1]}"
        for command in names
        for declared in [parser(command)]
        for sub in _subparsers(declared)
        if sub.prog.split()[-1] == command
        for action in sub._actions
        if action.option_strings and action.help is None
    ]
    assert missing == []
