"""Writing an output file the way users expect of a command-line tool.

:func:`replacing` gives a binary file for the new content of a path:

- a symbolic link is written through, to its target (the link stays);
- a FIFO, a terminal or another device is written to as a stream (``/dev/full`` then fails
  with "No space left on device"), never replaced by a regular file;
- a regular file, or a new one, is written to a temporary file beside it, renamed over it
  only when complete (an existing file survives any failure), with the mode the file had, or
  for a new file the usual one from the umask (``0o666 & ~umask``, not ``tempfile``'s 0600).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

__all__ = ["replacing"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file whose content becomes that of ``path`` when the ``with`` block ends
    without an exception (see the module docstring); OSError when it cannot be written."""
    final = Path(os.path.realpath(path))
    try:
        mode: int | None = os.stat(final).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(final, "wb") as stream:
            yield stream
        return
    fd, part = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent)
    try:
        os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(part, final)
    finally:
        if os.path.exists(part):
            os.unlink(part)
