"""Ctrl+C stops every command within a second, with exit status 130, and keeps the records
already written. Each command runs as a process in its own process group, and the group gets
SIGINT, as a terminal sends it to a foreground job (the worker processes too)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles

#: The most a command may take from the signal to its exit.
PROMPT = 2.0


def interrupt(args: list[str], after: float, cwd: Path) -> tuple[int, float, str]:
    """Run ``sudokit ARGS``, send its process group SIGINT after ``after`` seconds; its exit
    status, the seconds from the signal to its exit, and its stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after)
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is about
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"sudokit {' '.join(args)} did not exit within 30 s of Ctrl+C")
    return process.returncode, time.monotonic() - sent, err


@pytest.mark.parametrize("after", [1.5, 1.9, 2.3, 2.7, 3.1, 3.5, 3.9, 4.3])
def test_ctrl_c_during_generate_with_workers_exits_and_keeps_records(
    tmp_path: Path, after: float
) -> None:
    """Workers busy, results in the pipe: the exit did hang at times, in concurrent.futures'
    join of a manager thread stuck on a half-written result."""
    out = tmp_path / "s.txt"
    status, took, err = interrupt(
        ["generate", "-n", "200000", "-o", str(out), "--seed", "5", "-j", "2"], after, tmp_path
    )
    assert status == 130 and "finished records are kept" in err and "Traceback" not in err
    assert took < PROMPT
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n")
    records = list(read_puzzles(text))
    assert records and all(r.grid is not None for r in records)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "." * 81, "--count", "--limit", "100000000000"],
        ["generate", "--shape", "5x5", "-n", "1", "--seed", "1"],
        ["generate", "--shape", "5x5", "-n", "4", "--seed", "1", "-j", "2"],
    ],
    ids=["solve-count", "generate-25x25", "generate-25x25-workers"],
)
def test_ctrl_c_inside_a_long_c_call(tmp_path: Path, args: list[str]) -> None:
    status, took, err = interrupt(args, 1.5, tmp_path)
    assert status == 130 and "interrupted" in err and "Traceback" not in err
    assert took < PROMPT
