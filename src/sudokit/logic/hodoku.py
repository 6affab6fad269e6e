"""HoDoKu's solving order, step scores and difficulty levels, mapped to sudokit's techniques.

HoDoKu (Bernhard Hobiger's solver, version 2.2) grades a puzzle on its own path: it tries its
techniques in a fixed order (``Options.DEFAULT_SOLVER_STEPS``, sorted by each step's index,
disabled steps left out), applies the first step found, and repeats. The facts below are its
defaults, read from ``Options.java`` and ``SudokuSolver.java``.

**Score and level** (``SudokuSolver.solve``): every applied step adds its technique's base
score; the level starts at Easy and becomes the highest level of any technique applied. After
the last step, while the total score exceeds the level's maximum score, the level goes up one:

==========  ==============
level       maximum score
==========  ==============
Easy        800
Medium      1000
Hard        1600
Unfair      1800
Extreme     no maximum
==========  ==============

(The test is ``score > max``: a score of exactly 800 stays Easy.) A puzzle HoDoKu cannot solve
is Extreme. The score added is that of the step configuration whose search found the step
(so all uniqueness types score 100, simple-colour traps and wraps 150). :func:`hodoku_grade`
applies this rule to a list of applied technique names.

Singles decide much of an easy puzzle's score (full house and naked single 4, hidden single
14), and HoDoKu takes them in a particular order: full houses and naked singles from a queue
of cells in the order they became singles, hidden singles from a second queue likewise. A
path that takes singles in another order can score differently on the same puzzle: with
full houses, then naked singles, then hidden singles each in cell/unit order, 25 of the 47
dev-set puzzles that singles solve get HoDoKu's exact score (all get its level, Easy).

**The order.** ``HODOKU_ORDER`` lists every technique HoDoKu enables by default, as sudokit
slugs, in HoDoKu's order; ``HODOKU_SCORES`` and ``HODOKU_LEVEL_OF`` give each one's base score
and level. Where HoDoKu has several step types for one sudokit technique they share a slot at
the first one's place (locked candidates types 1 and 2 are ``pointing-claiming``; uniqueness
tests 1-6, hidden and avoidable rectangles are ``unique-rectangle``, all scoring 100). Note
that HoDoKu tries naked singles before hidden singles, and full houses before both, and that
it tries Remote Pair and BUG+1 right after the basic fish.

Slots sudokit has no finder for yet are in ``HODOKU_ONLY``; a caller builds its technique list
from ``HODOKU_ORDER`` by skipping the slugs it does not know.

**Not HoDoKu's**: the WXYZ-Wing (HoDoKu 2.2 has none). HoDoKu finds those eliminations as an
ALS-XZ (a bivalue cell and a three-cell set), so sudokit gives it ALS-XZ's score and level
(300, Unfair) and tries it just before ALS-XZ: on paths where it fires, the grade is HoDoKu's.

**Other names.** Step names and Sudoku Explainer techniques with no HoDoKu slot of their own
are scored as the slot that does their job (``HODOKU_ALIASES``): a direct pointing is a
locked candidate, a unique loop a uniqueness test, SE's chains and cycles HoDoKu's nice loops
and AICs, SE's forcing chains HoDoKu's forcing chains and nets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

__all__ = [
    "HODOKU_ALIASES",
    "HODOKU_LEVELS",
    "HODOKU_LEVEL_MAX",
    "HODOKU_LEVEL_OF",
    "HODOKU_ONLY",
    "HODOKU_ORDER",
    "HODOKU_SCORES",
    "HodokuGrade",
    "hodoku_grade",
    "hodoku_slot",
]

#: HoDoKu's difficulty levels, easiest first.
HODOKU_LEVELS: tuple[str, ...] = ("Easy", "Medium", "Hard", "Unfair", "Extreme")

#: The highest total score each level allows (``Options.DEFAULT_DIFFICULTY_LEVELS``).
HODOKU_LEVEL_MAX: dict[str, float] = {
    "Easy": 800,
    "Medium": 1000,
    "Hard": 1600,
    "Unfair": 1800,
    "Extreme": float("inf"),
}

# (slug, HoDoKu's step index, base score, level), in HoDoKu's default order.
_TABLE: tuple[tuple[str, int, int, str], ...] = (
    ("full-house", 100, 4, "Easy"),
    ("naked-single", 200, 4, "Easy"),
    ("hidden-single", 300, 14, "Easy"),
    ("locked-pair", 1000, 40, "Medium"),
    ("locked-triple", 1100, 60, "Medium"),
    ("pointing-claiming", 1200, 50, "Medium"),  # and 1210, claiming
    ("naked-pair", 1300, 60, "Medium"),
    ("naked-triple", 1400, 80, "Medium"),
    ("hidden-pair", 1500, 70, "Medium"),
    ("hidden-triple", 1600, 100, "Medium"),
    ("naked-quad", 2000, 120, "Hard"),
    ("hidden-quad", 2100, 150, "Hard"),
    ("x-wing", 2200, 140, "Hard"),
    ("swordfish", 2300, 150, "Hard"),
    ("jellyfish", 2400, 160, "Hard"),
    ("remote-pair", 2800, 110, "Hard"),
    ("bug", 2900, 100, "Hard"),
    ("skyscraper", 3000, 130, "Hard"),
    ("two-string-kite", 3100, 150, "Hard"),
    ("turbot-fish", 3120, 120, "Hard"),
    ("empty-rectangle", 3170, 120, "Hard"),
    ("w-wing", 3200, 150, "Hard"),
    ("xy-wing", 3300, 160, "Hard"),
    ("xyz-wing", 3400, 180, "Hard"),
    ("unique-rectangle", 3500, 100, "Hard"),  # uniqueness 1-6, hidden/avoidable rectangles
    ("finned-x-wing", 4100, 130, "Hard"),
    ("sashimi-x-wing", 4200, 150, "Hard"),
    ("finned-swordfish", 4300, 200, "Unfair"),
    ("sashimi-swordfish", 4400, 240, "Unfair"),
    ("finned-jellyfish", 4500, 250, "Unfair"),
    ("sashimi-jellyfish", 4600, 260, "Unfair"),
    ("sue-de-coq", 5300, 250, "Unfair"),
    ("simple-coloring", 5330, 150, "Hard"),
    ("multi-coloring", 5360, 200, "Hard"),
    ("x-chain", 5400, 260, "Unfair"),
    ("xy-chain", 5500, 260, "Unfair"),
    ("nice-loop", 5600, 280, "Unfair"),
    ("grouped-nice-loop", 5650, 300, "Unfair"),
    ("wxyz-wing", 5690, 300, "Unfair"),  # not HoDoKu's: scored as the ALS-XZ it is
    ("als-xz", 5700, 300, "Unfair"),
    ("als-xy-wing", 5800, 320, "Unfair"),
    ("als-xy-chain", 5900, 340, "Unfair"),
    ("franken-x-wing", 6100, 300, "Unfair"),
    ("franken-swordfish", 6200, 350, "Unfair"),
    ("finned-franken-x-wing", 6700, 390, "Unfair"),
    ("finned-franken-swordfish", 6800, 410, "Unfair"),
    ("hodoku-forcing-chain", 8500, 500, "Extreme"),
    ("forcing-net", 8600, 700, "Extreme"),
    ("brute-force", 8900, 10000, "Extreme"),
)

#: Every technique HoDoKu enables by default, as sudokit slugs, in HoDoKu's order.
HODOKU_ORDER: tuple[str, ...] = tuple(slug for slug, *_ in _TABLE)

#: HoDoKu's base score for one application of each technique in ``HODOKU_ORDER``.
HODOKU_SCORES: dict[str, int] = {slug: score for slug, _, score, _ in _TABLE}

#: HoDoKu's level of each technique in ``HODOKU_ORDER``.
HODOKU_LEVEL_OF: dict[str, str] = {slug: level for slug, _, _, level in _TABLE}

#: Slots of ``HODOKU_ORDER`` that sudokit has no finder for (as of this table).
HODOKU_ONLY: frozenset[str] = frozenset(
    {
        "sue-de-coq",
        "multi-coloring",
        "nice-loop",
        "grouped-nice-loop",
        "als-xy-wing",
        "als-xy-chain",
        "franken-x-wing",
        "franken-swordfish",
        "finned-franken-x-wing",
        "finned-franken-swordfish",
        "hodoku-forcing-chain",
        "forcing-net",
        "brute-force",
    }
)

#: Step names and techniques scored as another slot (see the module docstring).
HODOKU_ALIASES: dict[str, str] = {
    # step names of sudokit techniques
    "pointing": "pointing-claiming",
    "claiming": "pointing-claiming",
    "color-trap": "simple-coloring",
    "color-wrap": "simple-coloring",
    "unique-loop": "unique-rectangle",
    # Sudoku Explainer's techniques that HoDoKu does not name
    "direct-pointing": "pointing-claiming",
    "direct-claiming": "pointing-claiming",
    "direct-intersection": "pointing-claiming",
    "direct-hidden-pair": "hidden-pair",
    "direct-hidden-triple": "hidden-triple",
    "x-cycle": "nice-loop",
    "y-cycle": "nice-loop",
    "xy-cycle": "nice-loop",
    "forcing-chain": "nice-loop",
    "nishio-forcing-chain": "hodoku-forcing-chain",
    "cell-forcing-chain": "hodoku-forcing-chain",
    "region-forcing-chain": "hodoku-forcing-chain",
    "dynamic-forcing-chain": "forcing-net",
    "dynamic-forcing-chain-plus": "forcing-net",
    "nested-forcing-chain-2": "forcing-net",
    "nested-forcing-chain-3": "forcing-net",
    "nested-forcing-chain-4": "forcing-net",
    "nested-forcing-chain-5": "forcing-net",
    "forcing-x-chain": "nice-loop",
    "forcing-y-chain": "nice-loop",
    "forcing-chains": "nice-loop",
    "aligned-pair-exclusion": "als-xz",
    "aligned-triple-exclusion": "als-xy-wing",
    "nishio": "hodoku-forcing-chain",
    "multiple-forcing-chains": "hodoku-forcing-chain",
    "dynamic-forcing-chains": "forcing-net",
    "dynamic-forcing-chains-plus": "forcing-net",
    "nested-forcing-chains": "forcing-net",
}


def hodoku_slot(name: str) -> str | None:
    """The ``HODOKU_ORDER`` slot that scores technique or step ``name``, or None.

    >>> hodoku_slot("skyscraper"), hodoku_slot("color-trap"), hodoku_slot("no-such")
    ('skyscraper', 'simple-coloring', None)
    """
    if name in HODOKU_SCORES:
        return name
    return HODOKU_ALIASES.get(name)


class HodokuGrade(NamedTuple):
    """A HoDoKu-style grade: the level name and the total score."""

    level: str
    score: int


def hodoku_grade(names: Iterable[str], *, solved: bool = True) -> HodokuGrade:
    """Grade a solve path given the technique (or step) name of each applied step.

    >>> hodoku_grade(["hidden-single"] * 40 + ["naked-single"] * 10)
    HodokuGrade(level='Easy', score=600)
    >>> hodoku_grade(["hidden-single"] * 50 + ["naked-single"] * 10 + ["skyscraper"])
    HodokuGrade(level='Hard', score=870)
    >>> hodoku_grade(["hidden-single"] * 70)  # 980 > 800: pushed up from Easy
    HodokuGrade(level='Medium', score=980)
    >>> hodoku_grade(["hidden-single"] * 10, solved=False).level
    'Extreme'
    """
    score = 0
    rank = 0
    for name in names:
        slot = hodoku_slot(name)
        if slot is None:
            raise ValueError(f"no HoDoKu score for technique {name!r}")
        score += HODOKU_SCORES[slot]
        rank = max(rank, HODOKU_LEVELS.index(HODOKU_LEVEL_OF[slot]))
    while score > HODOKU_LEVEL_MAX[HODOKU_LEVELS[rank]]:
        rank += 1
    if not solved:
        rank = len(HODOKU_LEVELS) - 1
    return HodokuGrade(HODOKU_LEVELS[rank], score)
