"""Type stubs for the C extension ``sudokit._canon`` (private: use :mod:`sudokit.canon`)."""

from typing import final

from typing_extensions import Buffer

MAX_SIDE: int

@final
class Minlex(tuple[bytes, bool, bytes, bytes, bytes, int, int]):
    @property
    def cells(self) -> bytes: ...
    @property
    def transpose(self) -> bool: ...
    @property
    def rows(self) -> bytes: ...
    @property
    def cols(self) -> bytes: ...
    @property
    def digits(self) -> bytes: ...
    @property
    def automorphisms(self) -> int: ...
    @property
    def survivors(self) -> int: ...

def minlex(
    box_rows: int,
    box_cols: int,
    cells: Buffer,
    generic: bool = False,
    cycles: bool = True,
    deferred: int = -1,
) -> Minlex: ...
def minlex_many(
    box_rows: int,
    box_cols: int,
    cells: Buffer,
    generic: bool = False,
    cycles: bool = True,
    deferred: int = -1,
) -> bytes: ...
def symmetry_many(n: int, cells: Buffer, /) -> bytes: ...
def base32_keys(prefix: str, digests: Buffer, size: int, /) -> list[str]: ...

# Only in the fault-injection build of tools/sanitize.sh (see tests/test_c_faults.py).
def _fail_after(k: int, /) -> int: ...
