"""lz-string's base64 form: what f-puzzles' ``?load=`` and SudokuPad's ``fpuzzles`` links hold.

lz-string (pieroxy's JavaScript library) is an LZW variant over UTF-16 code units: the
dictionary starts with three codes (0: an 8-bit literal follows, 1: a 16-bit literal follows,
2: end of stream), every new unit enters it as a literal, and codes are written least
significant bit first with a width that grows by one bit each time the dictionary outgrows
it. :func:`compress_to_base64` and :func:`decompress_from_base64` are its
``compressToBase64`` and ``decompressFromBase64``, bit for bit: a link made here opens there
and the other way round (tests/test_fpuzzles.py holds them to links f-puzzles made).

>>> compress_to_base64("Hello, world!")
'BIUwNmD2A0AEDukBOYAmBCIA'
>>> decompress_from_base64(compress_to_base64('{"size":9}'))
'{"size":9}'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["compress_to_base64", "decompress_from_base64"]

_BASE64: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_BASE64_VALUE: Final = {ch: i for i, ch in enumerate(_BASE64)}


def _units(text: str) -> list[str]:
    """``text`` as UTF-16 code units (what a JavaScript string is made of), one str each."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[i] | raw[i + 1] << 8) for i in range(0, len(raw), 2)]


def _text(units: str) -> str:
    """The text of UTF-16 code units, one character each (surrogate pairs joined)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


class _BitWriter:
    """Bits packed ``width`` to a character, the first bit written the most significant."""

    def __init__(self, width: int, char: Callable[[int], str]) -> None:
        self.width, self.char = width, char
        self.out: list[str] = []
        self.value = 0
        self.position = 0

    def write(self, value: int, bits: int) -> None:
        """The low ``bits`` bits of ``value``, least significant first."""
        for _ in range(bits):
            self.value = self.value << 1 | (value & 1)
            value >>= 1
            if self.position == self.width - 1:
                self.out.append(self.char(self.value))
                self.value = self.position = 0
            else:
                self.position += 1

    def flush(self) -> str:
        """Pad the last character with zero bits (as lz-string does) and give the text."""
        while True:
            self.value <<= 1
            if self.position == self.width - 1:
                self.out.append(self.char(self.value))
                return "".join(self.out)
            self.position += 1


def _compress(text: str, width: int, char: Callable[[int], str]) -> str:
    codes: dict[str, int] = {}
    fresh: set[str] = set()  # units in the dictionary not yet written as literals
    size, bits, grow = 3, 2, 2  # next code, code width, codes left before the width grows
    out = _BitWriter(width, char)

    def emit(w: str) -> None:
        nonlocal bits, grow
        if w in fresh:
            unit = ord(w)
            if unit < 256:
                out.write(0, bits)
                out.write(unit, 8)
            else:
                out.write(1, bits)
                out.write(unit, 16)
            grow -= 1
            if grow == 0:
                grow, bits = 1 << bits, bits + 1
            fresh.discard(w)
        else:
            out.write(codes[w], bits)
        grow -= 1
        if grow == 0:
            grow, bits = 1 << bits, bits + 1

    w = ""
    for c in _units(text):
        if c not in codes:
            codes[c] = size
            size += 1
            fresh.add(c)
        wc = w + c
        if wc in codes:
            w = wc
            continue
        emit(w)
        codes[wc] = size
        size += 1
        w = c
    if w:
        emit(w)
    out.write(2, bits)
    return out.flush()


def compress_to_base64(text: str) -> str:
    """lz-string's ``compressToBase64`` of ``text``, padded with ``=`` to a multiple of 4."""
    packed = _compress(text, 6, _BASE64.__getitem__)
    return packed + "=" * (-len(packed) % 4)


def decompress_from_base64(data: str) -> str:
    """lz-string's ``decompressFromBase64``: the text :func:`compress_to_base64` packed.

    Raise ValueError naming the problem (a character outside base64, a stream that ends
    early or holds a code not yet defined) where lz-string would give ``null``."""
    values: list[int] = []
    for i, ch in enumerate(data):
        value = _BASE64_VALUE.get(ch)
        if value is None:
            raise ValueError(
                f"lz-string base64: {ch!r} at character {i + 1} is not a base64 character"
            )
        values.append(value & 63)  # "=" pads; lz-string reads it as 64, whose low bits are 0
    if not values:
        raise ValueError("lz-string base64: empty text")
    return _decompress(values, 32)


def _decompress(values: list[int], reset: int) -> str:
    current, mask, index = values[0], reset, 1

    def read(count: int) -> int:
        nonlocal current, mask, index
        result = 0
        for bit in range(count):
            if current & mask:
                result |= 1 << bit
            mask >>= 1
            if mask == 0:  # past the end reads zeros, as in lz-string; the loop checks
                mask = reset
                current = values[index] if index < len(values) else 0
                index += 1
        return result

    entries = ["", "", ""]  # codes 0-2 are the literal and end marks, never entries
    grow, bits = 4, 3
    first = read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        raise ValueError(f"lz-string base64: the stream starts with code {first}")
    w = chr(read(8 if first == 0 else 16))
    entries.append(w)
    result = [w]
    while True:
        if index > len(values):
            raise ValueError("lz-string base64: the stream ends before its end mark")
        code = read(bits)
        if code in (0, 1):
            entries.append(chr(read(8 if code == 0 else 16)))
            code = len(entries) - 1
            grow -= 1
        elif code == 2:
            return _text("".join(result))
        if grow == 0:
            grow, bits = 1 << bits, bits + 1
        if code < len(entries):
            entry = entries[code]
        elif code == len(entries):
            entry = w + w[0]
        else:
            raise ValueError(
                f"lz-string base64: code {code} used before it is defined ({len(entries)} so far)"
            )
        result.append(entry)
        entries.append(w + entry[0])
        grow -= 1
        w = entry
        if grow == 0:
            grow, bits = 1 << bits, bits + 1
