"""Puzzle ids of the service: opaque, tamper-checked names of one served isomorph.

Terms:

- A **served puzzle** is a stored puzzle (known by its canonical id, see
  :func:`sudokit.canon.canonical_id`) seen through a :class:`~sudokit.canon.Transform`: the
  service never hands out stored texts, only random relabelled and transformed copies.
- Its **puzzle id** carries both, so every later call (the puzzle again, its solution) can
  find the stored puzzle and map it the same way: ``BODY.TAG``, where ``BODY`` is the
  URL-safe base64 of ``canonical id NUL transform`` and ``TAG`` the first 12 bytes of the
  HMAC-SHA256 of ``BODY`` under the bank's secret (:meth:`sudokit.bank.Bank.secret`, kept in
  the bank's ``meta`` table, so every server over one bank accepts every other's ids).
- The **transform** is packed as bytes: the box rows and columns of its shape, the
  transposition flag, the row order, the column order, then the new labels of digits 1..n.

A forged or altered id fails the tag check and is refused as unknown; so is an id made with
another bank's secret.

>>> import random
>>> from sudokit import Shape
>>> from sudokit.canon import Transform
>>> t = Transform.random(Shape(3, 3), random.Random(1))
>>> key = b"k" * 32
>>> text = encode("9x9-abc", t, key)
>>> decode(text, key) == ("9x9-abc", t)
True
>>> decode(text[:-1] + ("A" if text[-1] != "A" else "B"), key) is None
True
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

from .._shape import Shape
from ..canon import Transform

__all__ = ["MAX_ID", "decode", "encode"]

#: The longest id text looked at (a 16x16 puzzle's id is about 120 characters).
MAX_ID = 256
_TAG = 12


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _tag(body: str, key: bytes) -> str:
    return _b64(hmac.new(key, body.encode("ascii"), hashlib.sha256).digest()[:_TAG])


def encode(canonical_id: str, transform: Transform, key: bytes) -> str:
    """The id of ``canonical_id``'s puzzle as ``transform`` shows it, signed with ``key``."""
    packed = bytes(
        [
            transform.shape.box_rows,
            transform.shape.box_cols,
            int(transform.transpose),
            *transform.rows,
            *transform.cols,
            *transform.digits[1:],
        ]
    )
    body = _b64(canonical_id.encode("ascii") + b"\0" + packed)
    return f"{body}.{_tag(body, key)}"


def decode(text: str, key: bytes) -> tuple[str, Transform] | None:
    """The canonical id and transform an id names, or None when ``text`` is not an id this
    key signed (a typo, a forgery, another bank's id)."""
    if len(text) > MAX_ID or text.count(".") != 1 or not text.isascii():
        return None
    body, tag = text.split(".")
    if not hmac.compare_digest(tag, _tag(body, key)):
        return None
    try:
        raw = _unb64(body)
        name, packed = raw.split(b"\0", 1)
        canonical_id = name.decode("ascii")
        shape = Shape(packed[0], packed[1])
        n = shape.n
        if len(packed) != 3 + 3 * n:
            return None
        rows, cols, digits = packed[3 : 3 + n], packed[3 + n : 3 + 2 * n], packed[3 + 2 * n :]
        transform = Transform(shape, bool(packed[2]), tuple(rows), tuple(cols), (0, *digits))
    except (ValueError, IndexError, binascii.Error, UnicodeDecodeError):  # signed: a bug
        return None
    return canonical_id, transform
