"""`X` and `-X` split the library in two, for every field and operator, absent values
included; and the query language's limits give positioned one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.library import Library
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search.query import compile_query
from paperdesk.core.search.query_parse import MAX_DEPTH, MAX_LENGTH, MAX_TERMS
from paperdesk.core.search.search import SORTS
from tests.curated import build_curated, open_copy


def build_library(path: Path, *, scan: bool) -> Path:
    """The seeds, curated; a paper in the trash; papers without year, upvotes, organisation."""
    def more(lib: Library, ids: list[int]) -> None:
        lib.curation.set_status(ids[3::11], "reading")
        lib.trash.delete(ids[-2:])
        if scan:
            lib.duplicates.scan()

    return build_curated(path, more)


@pytest.fixture(scope="module")
def library_file(tmp_path_factory) -> Path:
    return build_library(tmp_path_factory.mktemp("partition") / "library.sqlite", scan=True)


@pytest.fixture(scope="module")
def plib(library_file, tmp_path_factory):
    lib = open_copy(library_file, tmp_path_factory.mktemp("copy"))
    yield lib
    lib.close()


def count(lib: Library, query: str) -> int:
    return len(lib.search(query).ids)


def papers(lib: Library) -> int:
    return lib.stats()["papers"]


# -- the figures of the seed library ----------------------------------------------------

def test_the_library_has_absent_values_to_partition(plib):
    nulls = {column: plib.db.execute(
        f"SELECT count(*) FROM papers WHERE deleted_at IS NULL AND {column} IS NULL").fetchone()[0]
        for column in ("year", "upvotes", "organization", "published")}
    assert all(n > 0 for n in nulls.values()), nulls
    assert plib.stats()["trash"] == 2


@pytest.mark.parametrize("query", ["has:upvotes", "org:deep", "year:2023", "upvotes>3",
                                   "year>=2024", "year:2023..2024", "has:date",
                                   "org:deepseek-ai", "upvotes<=2"])
def test_a_field_and_its_negation_partition_the_library(plib, query):
    yes, no = count(plib, query), count(plib, f"-{query}")
    assert yes + no == papers(plib)
    assert count(plib, f"NOT ({query})") == no
    assert count(plib, f"-(-{query})") == count(plib, f"NOT (NOT {query})") == yes
    assert set(plib.search(query).ids).isdisjoint(plib.search(f"-{query}").ids)


def test_the_reported_figures(plib):
    total = papers(plib)
    no_upvotes = plib.db.execute("SELECT count(*) FROM papers WHERE deleted_at IS NULL AND "
                                 "coalesce(upvotes, 0) = 0").fetchone()[0]
    assert count(plib, "-has:upvotes") == no_upvotes > 100
    not_deep = plib.db.execute(
        "SELECT count(*) FROM papers WHERE deleted_at IS NULL AND NOT ("
        "coalesce(organization, '') LIKE '%deep%' OR coalesce(organization_handle, '') "
        "LIKE '%deep%')").fetchone()[0]
    assert count(plib, "-org:deep") == not_deep > 100
    assert count(plib, "year:2023") + count(plib, "-year:2023") == total


# -- the property ------------------------------------------------------------------------

_WORDS = ["model", "language", "video", "zebrafish", "data", "diffus*", '"language model"',
          "title:memory", "abstract:model", "note:zebrafish", "notes:contamination",
          "scaling", "agents"]
_FIELDS = [
    *(f"tag:{t}" for t in ("vision", "LLM", "ag*", '"deep rl"', "none-such")),
    *(f"status:{s}" for s in ("unread", "to-read", "reading", "read", "new", "done")),
    *(f"has:{h}" for h in ("notes", "tags", "rating", "upvotes", "date", "abstract")),
    "is:duplicate-candidate", "is:year-inferred",
    "digest:0", "digest:2024", "digest:2025-10", "digest:none-such",
    "org:deep", "org:ai", "org:meta", "org:%", "org:_",
]
_OPS = [":", "=", ">", ">=", "<", "<="]
_atom = st.one_of(
    st.sampled_from(_WORDS), st.sampled_from(_FIELDS),
    st.builds(lambda op, n: f"rating{op}{n}", st.sampled_from(_OPS), st.integers(0, 5)),
    st.builds(lambda op, n: f"year{op}{n}", st.sampled_from(_OPS), st.integers(2020, 2027)),
    st.builds(lambda a, b: f"year:{a}..{b}", st.integers(2020, 2027), st.integers(2020, 2027)),
    st.builds(lambda op, n: f"upvotes{op}{n}", st.sampled_from(_OPS), st.integers(0, 40)),
)


def _combine(children):
    return st.one_of(
        st.builds(lambda a, b: f"{a} {b}", children, children),
        st.builds(lambda a, b: f"{a} AND {b}", children, children),
        st.builds(lambda a, b: f"{a} OR {b}", children, children),
        st.builds(lambda a: f"-{a}" if a.startswith("(") else f"-({a})", children),
        st.builds(lambda a: f"NOT ({a})", children),
        st.builds(lambda a: f"({a})", children),
    )


QUERIES = st.recursive(_atom, _combine, max_leaves=12)
PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(QUERIES)
def test_any_query_and_its_negation_partition_the_library(plib, query):
    total = papers(plib)
    yes = set(plib.search(query).ids)
    no = set(plib.search(f"-({query})").ids)
    assert len(yes) + len(no) == total, (query, len(yes), len(no))
    assert not yes & no
    assert set(plib.search(f"NOT ({query})").ids) == no
    assert set(plib.search(f"NOT (NOT ({query}))").ids) == yes
    # Every order finds the same papers (relevance runs other SQL).
    assert set(plib.search(query, sort="relevance").ids) == yes
    assert set(plib.search(f"-({query})", sort="relevance").ids) == no


@PROPERTY
@given(QUERIES, QUERIES)
def test_and_or_follow_the_sets(plib, a, b):
    sa, sb = set(plib.search(a).ids), set(plib.search(b).ids)
    assert set(plib.search(f"({a}) ({b})").ids) == sa & sb
    assert set(plib.search(f"({a}) OR ({b})").ids) == sa | sb
    assert set(plib.search(f"({a}) -({b})").ids) == sa - sb


def test_without_the_duplicate_table_the_partition_holds(tmp_path):
    lib = Library.open(build_library(tmp_path / "unscanned.sqlite", scan=False))
    try:
        for query in ("is:duplicate-candidate", "model OR is:duplicate-candidate",
                      "-(is:duplicate-candidate -has:upvotes)"):
            assert count(lib, query) + count(lib, f"-({query})") == papers(lib), query
    finally:
        lib.close()


# -- nesting and size: the deepest and largest queries allowed work ------------------------

def _nested(depth: int, leaf: str, shape) -> str:
    query = leaf
    for level in range(depth):
        query = shape(level, query)
    return query


SHAPES = {
    "parentheses": (1, lambda d, q: f"({q})"),
    "negations": (1, lambda d, q: f"-{q}"),
    "and-or": (1, lambda d, q: f"(w{d} {q})" if d % 2 else f"(w{d} OR {q})"),
    "fields": (1, lambda d, q: f"(tag:t{d} {q})" if d % 2 else f"(org:o OR {q})"),
    "mixed": (2, lambda d, q: f"-(tag:vision model{d} {q})" if d % 2
              else f"(org:deep OR -data OR {q})"),
    "negated words": (1, lambda d, q: f"(-model{d} OR {q})" if d % 2 else f"(data -x{d} {q})"),
}


def _deepest(leaf: str, shape) -> str:
    """The most deeply nested query of this shape whose negation is allowed too."""
    for depth in range(MAX_DEPTH, 0, -1):
        query = _nested(depth, leaf, shape)
        try:
            compile_query(f"-({query})")
        except QueryError as exc:
            assert "nests too deeply" in str(exc)
            continue
        return query
    raise AssertionError("no depth fits")


@pytest.mark.parametrize("leaf", ["model", "-model", "tag:vision", "year:2023", "org:deep"])
@pytest.mark.parametrize("shape", SHAPES)
def test_the_deepest_queries_allowed_run_and_partition(plib, shape, leaf):
    per_level, make = SHAPES[shape]
    query = _deepest(leaf, make)
    assert query.count("(") >= (MAX_DEPTH - 4) // per_level or query.count("-") >= MAX_DEPTH - 4
    yes, no = count(plib, query), count(plib, f"-({query})")
    assert yes + no == papers(plib)
    assert len(plib.search(query, sort="relevance").ids) == yes
    with pytest.raises(QueryError, match="nests too deeply"):
        plib.search(_nested(MAX_DEPTH + 1, leaf, make))


@pytest.mark.parametrize("term", ["w{}", "tag:t{}", "org:o{}", "-w{}", "-tag:t{}", "year:{}",
                                  "upvotes>{}", "w{} OR", "tag:t{} OR", "-w{} OR",
                                  "-org:o{} OR", "(w{} OR tag:t{}) OR",
                                  "-(-w{} OR org:o{}) OR"])
def test_the_largest_queries_allowed_run_and_partition(plib, term):
    per = term.count("{}")
    query = " ".join(term.format(i, i) for i in range((MAX_TERMS - 1) // per)).removesuffix(" OR")
    yes, no = count(plib, query), count(plib, f"-({query})")
    assert yes + no == papers(plib)
    count(plib, f"model ({query})")
    plib.search(query, sort="relevance")


# -- limits: one line, with the position ---------------------------------------------------

@pytest.mark.parametrize(("query", "message"), [
    ("upvotes>99999999999999999999",
     "upvotes goes from 0 to 9223372036854775807, not 99999999999999999999 (position 1)"),
    ("model upvotes:9223372036854775808", "(position 7)"),
    ("year:1" + "0" * 5000, "year goes from 0 to 9999, not a number of 5,001 digits "
                            "(position 1)"),
    ("rating>=" + "9" * 5000, "rating goes from 0 to 5"),
    ("year:2020..99999", "year goes from 0 to 9999, not 99999"),
    ("(" * 330 + "model" + ")" * 330, f"nests too deeply at position {MAX_DEPTH + 1}: at most "
                                      f"{MAX_DEPTH} levels"),
    ("-" * 1000 + "model", f"nests too deeply at position {MAX_DEPTH + 1}"),
    ("NOT " * 100 + "model", f"nests too deeply at position {4 * MAX_DEPTH + 1}"),
    ("a " + "-(" * 40 + "b" + ")" * 40, "nests too deeply at position 67"),
    (" ".join(["tag:x"] * 1000), f"too large at position {6 * MAX_TERMS + 1}: at most "
                                 f"{MAX_TERMS} words and fields"),
    (" OR ".join(f"w{i}" for i in range(1000)), "too large at position"),
    ("x" * (MAX_LENGTH + 1), f"too long at position {MAX_LENGTH + 1}"),
    ("-!!!", "'-' at position 1 needs a word, field or group after it, not only punctuation"),
    ("model NOT (&&)", "'NOT' at position 7 needs a word"),
])
def test_limits_give_a_positioned_one_line_error(plib, query, message):
    with pytest.raises(QueryError) as info:
        plib.search(query)
    assert message in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200
    with pytest.raises(QueryError):
        compile_query(query)


def test_limits_hold_for_saved_searches_and_every_sort(plib):
    deep = "(" * 100 + "model" + ")" * 100
    with pytest.raises(QueryError, match="nests too deeply"):
        plib.curation.save_search("deep", deep)
    for sort in SORTS:
        with pytest.raises(QueryError, match="goes from 0 to"):
            plib.search("upvotes>99999999999999999999", sort=sort)


@PROPERTY
@given(QUERIES)
def test_parts_moved_into_their_own_tables_find_the_same_papers(plib, query):
    """Deep queries put every few levels into a WITH table; with a table at every level,
    any query finds what it finds without them. (Relevance may order them differently:
    words in a table of their own leave the one FTS5 expression that ranks.)"""
    from paperdesk.core.search import query as query_module

    plain = set(plib.search(query).ids)
    saved = query_module.HOIST_EVERY
    query_module.HOIST_EVERY = 1
    try:
        assert set(plib.search(query).ids) == plain
        assert set(plib.search(query, sort="relevance").ids) == plain
        assert len(plib.search(f"-({query})").ids) + len(plain) == papers(plib)
    finally:
        query_module.HOIST_EVERY = saved
