"""The request value: what a user asks of the generator, made and checked once, with a text
form its parser reads back and a bank key that runs made before it keep."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sudokit import Shape, generator
from sudokit.bank import run_key
from sudokit.difficulty import Request, generate, generate_many
from sudokit.generator import Dig
from sudokit.rating import Level


def test_text_forms_are_read_where_a_user_writes_them() -> None:
    r = Request(shape="2x3", level="fiendish", er="3-5", require="x-wing, fish")  # type: ignore[arg-type]
    assert r.shape == Shape(2, 3)
    assert r.level is Level.FIENDISH
    assert r.er == (3.0, 5.0)
    assert r.require == ("x-wing", "fish")
    assert r.rate  # a difficulty target rates
    assert r.minimal is True  # no clue target: dug to minimal


def test_a_clue_target_is_not_minimal_unless_asked() -> None:
    assert Request(clues=30).minimal is False
    assert Request(clues=30, minimal=True).minimal is True
    assert Request.of(Request(), clues=30).minimal is False  # resolved again


@pytest.mark.parametrize(
    ("fields", "error", "names"),
    [
        ({"shape": 5}, TypeError, "shape"),
        ({"shape": "7x7x"}, ValueError, "7x7x"),
        ({"symmetry": "sideways"}, ValueError, "symmetry"),
        ({"clues": 10}, ValueError, "clues=10"),
        ({"clues": True}, TypeError, "clues"),
        ({"clues": 20, "max_clues": 30}, ValueError, "not both"),
        ({"level": "impossible"}, ValueError, "level"),
        ({"er": "a-b"}, ValueError, "er"),
        ({"er": (1.0, float("nan"))}, ValueError, "er"),
        ({"er": 5}, TypeError, "er"),
        ({"er": (8.0, 6.0)}, ValueError, "empty"),
        ({"level": "easy", "er": (6.0, 7.0)}, ValueError, "easy"),
        ({"require": ["no-such-technique"]}, ValueError, "no-such-technique"),
        ({"require": [3]}, TypeError, "require"),
        ({"hodoku_level": "tricky"}, ValueError, "HoDoKu"),
        ({"level": "hard", "require": ["x-wing"]}, ValueError, "x-wing"),
    ],
)
def test_what_no_puzzle_can_meet_is_refused_when_made(
    fields: dict[str, object], error: type[Exception], names: str
) -> None:
    with pytest.raises(error, match=names):
        Request(**fields)  # type: ignore[arg-type]


_fields = st.fixed_dictionaries(
    {},
    optional=dict(
        shape=st.sampled_from(["2x2", "2x3", "3x3", "3x4"]),
        symmetry=st.sampled_from(["none", "rot180", "mirror-h", "random"]),
        level=st.none() | st.sampled_from(["easy", "medium", "hard", "fiendish", "diabolical"]),
        minimal=st.none() | st.booleans(),
        allow=st.none() | st.just(["singles", "pointing"]),
        hodoku_level=st.none() | st.sampled_from(["Easy", "extreme"]),
        rate=st.none() | st.just(True),
    ),
)


@st.composite
def requests(draw: st.DrawFn) -> Request:
    """Requests some puzzle can meet."""
    fields = draw(_fields)
    try:
        return Request.of(**fields)
    except ValueError:
        assume(False)
        raise


@settings(max_examples=60, deadline=None)
@given(requests())
def test_the_text_form_reads_back_and_the_value_pickles(request: Request) -> None:
    assert Request.parse(request.text()) == request
    assert pickle.loads(pickle.dumps(request)) == request
    assert Request.parse(request.text()).key() == request.key()


def test_parse_skips_what_is_not_the_request_and_names_what_it_cannot_read() -> None:
    header = "format=line shape=2x2 symmetry=none clues=- with_solution=no level=easy rate=yes"
    assert Request.parse(header) == Request(shape=Shape(2, 2), symmetry="none", level="easy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="clues must be a whole number"):
        Request.parse("clues=many")
    with pytest.raises(ValueError, match="name=value"):
        Request.parse("shape")


def test_the_bank_key_of_runs_made_before_stays() -> None:
    # The keys bank fill stored before the request value, written out by hand.
    assert run_key(Request(rate=True), None) == "shape=3x3 symmetry=rot180"
    r = Request(level="diabolical", er=(6.5, 8.0), require=["xy-wing", "fish"])  # type: ignore[arg-type]
    assert run_key(r, 5) == (
        "shape=3x3 symmetry=rot180 level=diabolical er=6.5-8 require=fish,xy-wing seed=5"
    )
    # Fields that fills could not set before only show when set.
    assert Request(clues=30).key() == "shape=3x3 symmetry=rot180 clues=30"
    assert Request(minimal=False).key() == "shape=3x3 symmetry=rot180 minimal=no"


def test_keywords_and_the_value_make_the_same_puzzles() -> None:
    r = Request.of(shape=Shape(2, 3), symmetry="none", level="easy")
    by_value = generate(r, seed=7)
    by_keywords = generate(shape=Shape(2, 3), symmetry="none", level="easy", seed=7)
    assert by_value == by_keywords
    assert list(generate_many(3, r, seed=7)) == [generate(r, seed=7, index=i) for i in range(3)]
    dig = Dig(Shape(2, 2), "none")
    assert generator.generate(dig, seed=3) == generator.generate(
        shape=Shape(2, 2), symmetry="none", seed=3
    )


def test_rating_is_the_old_name_of_er() -> None:
    with pytest.warns(DeprecationWarning, match="er="):
        old = generate(shape=Shape(2, 2), rating=(1.0, 1.2), seed=4)
    assert old == generate(shape=Shape(2, 2), er=(1.0, 1.2), seed=4)
    with pytest.raises(TypeError, match="not both"):
        generate(er=(1.0, 2.0), rating=(1.0, 2.0))


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The symmetries each Dig made from now on checks its clue count against (one a Dig)."""
    calls: list[str] = []
    check = generator.Dig.check_reachable

    def counted(self: generator.Dig, symmetry: str) -> None:
        calls.append(symmetry)
        check(self, symmetry)

    monkeypatch.setattr(generator.Dig, "check_reachable", counted)
    return calls


def test_a_request_is_checked_once_however_many_puzzles_it_makes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _count_checks(monkeypatch)
    r = Request.of(shape=Shape(2, 2), symmetry="none", level="easy")
    assert len(calls) == 1
    assert len(list(generate_many(20, r, seed=1))) == 20
    assert len(calls) == 1


def test_a_target_that_allows_techniques_travels_to_worker_processes() -> None:
    r = Request(shape=Shape(2, 3), symmetry="none", allow=("singles", "pointing"))
    assert list(generate_many(6, r, seed=9, jobs=2, chunk=1)) == list(generate_many(6, r, seed=9))


def test_a_fill_of_a_request_made_already_does_not_check_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sudokit.bank import check_fill

    made = check_fill(1, level="easy")  # as bank fill makes it before opening a bank
    calls = _count_checks(monkeypatch)
    assert check_fill(1, made) is made  # what Bank.fill does with it
    assert calls == []
