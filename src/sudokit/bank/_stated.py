"""What a record states of its puzzle (:class:`Stated`), the bank's reading of the record
comment grammar (:mod:`sudokit.formats.comments`), of JSON records and of csv rows."""

from __future__ import annotations

import json
from typing import NamedTuple

from ..formats import Record
from ..formats.comments import stated_facts

__all__ = ["YES_NO", "Stated", "stated_in_text", "stated_of"]


class Stated(NamedTuple):
    """What a record says of its puzzle (None: not said)."""

    er: float | None = None
    ep: float | None = None
    ed: float | None = None
    hardest: str | None = None
    hodoku_level: str | None = None
    hodoku_score: int | None = None
    minimal: bool | None = None
    seed: int | None = None
    index: int | None = None  # type: ignore[assignment]  # not tuple.index

    @property
    def rated(self) -> bool:
        return self.er is not None and self.ep is not None and self.ed is not None


YES_NO = {"yes": True, "no": False, True: True, False: False}


def _number(value: object, kind: type[int] | type[float]) -> float | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return kind(str(value))
    except ValueError:
        return None


def stated_of(record: Record, row: dict[str, str] | None = None) -> Stated:
    """The facts ``record`` states; ``row`` is its csv row by column name, when it has one.

    Reads what :func:`sudokit.output.parse_label` reads (seed, index, ER), and EP, ED,
    minimality, the hardest technique and the HoDoKu grade besides.

    >>> from sudokit import read_puzzles
    >>> line = "1.3...12....4..3 # index=4 seed=99 minimal=yes rating=ED=1.2/1.1/1.0"
    >>> [rec] = read_puzzles([line])
    >>> s = stated_of(rec)
    >>> s.er, s.ep, s.ed, s.minimal, s.seed, s.index
    (1.2, 1.1, 1.0, True, 99, 4)
    """
    if row is None and record.fmt != "json":
        return stated_in_text(record.note or record.text)
    obj: dict[str, object]
    if row is not None:
        obj = dict(row)
    else:  # JSON: the plain lines went to stated_in_text above
        try:
            loaded = json.loads(record.text)
        except ValueError:
            loaded = None
        obj = loaded if isinstance(loaded, dict) else {}
    er, ep, ed = (_number(obj.get(k), float) for k in ("er", "ep", "ed"))
    score, seed, index = (_number(obj.get(k), int) for k in ("hodoku_score", "seed", "index"))
    hardest, hodoku_level = obj.get("hardest"), obj.get("hodoku_level")
    minimal = obj.get("minimal")
    return Stated(
        er=er,
        ep=ep,
        ed=ed,
        hardest=hardest if isinstance(hardest, str) and hardest else None,
        hodoku_level=hodoku_level if isinstance(hodoku_level, str) and hodoku_level else None,
        hodoku_score=int(score) if score is not None else None,
        minimal=YES_NO.get(minimal) if isinstance(minimal, str | bool) else None,
        seed=int(seed) if seed is not None else None,
        index=int(index) if index is not None else None,
    )


def stated_in_text(text: str) -> Stated:
    """What a comment (sudokit's, else the line: SE's form) states (the grammar is
    :func:`sudokit.formats.comments.stated_facts`); the same as the general path of
    :func:`stated_of` for a dict of these keys. A rating counts when complete (ER, EP and ED)."""
    facts = stated_facts(text)
    er, ep, ed = facts.get("er"), facts.get("ep"), facts.get("ed")
    rated = er is not None and ep is not None and ed is not None
    return Stated(  # positional: the bank reads this for every puzzle it adds
        float(er) if rated else None,  # type: ignore[arg-type]
        float(ep) if rated else None,  # type: ignore[arg-type]
        float(ed) if rated else None,  # type: ignore[arg-type]
        facts.get("hardest") or None,
        None,
        None,
        YES_NO.get(facts.get("minimal", "")),
        _integer(facts.get("seed")),
        _integer(facts.get("index")),
    )


def _integer(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return None
