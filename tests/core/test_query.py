"""The query language against the seed library, checked with a plain-Python oracle."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search.query import compile_query
from paperdesk.core.search.search import SORTS
from tests.conftest import SEED_PAPERS
from tests.curated import build_curated, found, open_copy


def words(text: str) -> list[str]:
    """Tokens as FTS5's unicode61 tokenizer (remove_diacritics) sees them."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.findall(r"[^\W_]+", plain)


def has_phrase(paper: dict, phrase: str) -> bool:
    target = words(phrase)
    fields = [paper["title"], paper["abstract"], " ".join(paper["tags"]),
              " ".join(n["text"] for n in paper.get("notes", []))]
    for text in fields:
        toks = words(text)
        if any(toks[i:i + len(target)] == target for i in range(len(toks) - len(target) + 1)):
            return True
    return False


@pytest.fixture(scope="module")
def curated_file(tmp_path_factory) -> Path:
    """The seeds with tags, ratings, statuses and notes spread over them, built once."""
    return build_curated(tmp_path_factory.mktemp("curated") / "library.sqlite")


@pytest.fixture
def curated(curated_file, tmp_path):
    """A fresh copy of the curated library for each test."""
    lib = open_copy(curated_file, tmp_path)
    yield lib
    lib.close()


def every(lib) -> list[dict]:
    return lib.papers(lib.search("").ids, with_notes=True)


def ids_where(lib, predicate) -> set[int]:
    return {p["id"] for p in every(lib) if predicate(p)}


ORACLES = {
    "language": lambda p: has_phrase(p, "language"),
    "video generation": lambda p: has_phrase(p, "video") and has_phrase(p, "generation"),
    '"language model"': lambda p: has_phrase(p, "language model"),
    "zebrafish": lambda p: has_phrase(p, "zebrafish"),
    "contamination": lambda p: has_phrase(p, "contamination"),
    "agents": lambda p: has_phrase(p, "agents"),
    "video OR audio": lambda p: has_phrase(p, "video") or has_phrase(p, "audio"),
    "model -language": lambda p: has_phrase(p, "model") and not has_phrase(p, "language"),
    "-model": lambda p: not has_phrase(p, "model"),
    "tag:vision": lambda p: "Vision" in p["tags"],
    "tag:VISION": lambda p: "Vision" in p["tags"],
    '-tag:"deep rl"': lambda p: "deep RL" not in p["tags"],
    "tag:ag*": lambda p: "Agents" in p["tags"],
    "status:to-read": lambda p: p["status"] == "to-read",
    "status:read": lambda p: p["status"] == "read",
    "rating>=4": lambda p: p["rating"] >= 4,
    "rating=0": lambda p: p["rating"] == 0,
    "rating<2": lambda p: p["rating"] < 2,
    "rating:3": lambda p: p["rating"] == 3,
    "year:2024": lambda p: p["year"] == 2024,
    "year>=2025": lambda p: (p["year"] or 0) >= 2025,
    "year:2023..2024": lambda p: p["year"] in (2023, 2024),
    "upvotes>5": lambda p: (p["upvotes"] or 0) > 5,
    "upvotes<=3": lambda p: p["upvotes"] is not None and p["upvotes"] <= 3,
    "has:notes": lambda p: bool(p["notes"]),
    "has:tags": lambda p: bool(p["tags"]),
    "has:rating": lambda p: p["rating"] > 0,
    "is:year-inferred": lambda p: p["year_inferred"],
    "rating>=4 tag:vision": lambda p: p["rating"] >= 4 and "Vision" in p["tags"],
    "tag:llm OR tag:vision": lambda p: "LLM" in p["tags"] or "Vision" in p["tags"],
    "(tag:llm OR status:read) rating>=3":
        lambda p: ("LLM" in p["tags"] or p["status"] == "read") and p["rating"] >= 3,
    "language (tag:vision OR rating:5)":
        lambda p: has_phrase(p, "language") and ("Vision" in p["tags"] or p["rating"] == 5),
    "video OR tag:llm": lambda p: has_phrase(p, "video") or "LLM" in p["tags"],
    "-(tag:vision OR tag:llm)": lambda p: not ({"Vision", "LLM"} & set(p["tags"])),
    "NOT status:unread": lambda p: p["status"] != "unread",
    "model AND data": lambda p: has_phrase(p, "model") and has_phrase(p, "data"),
    "title:memory": lambda p: "memory" in words(p["title"]),
    "note:zebrafish": lambda p: any("zebrafish" in words(n["text"]) for n in p["notes"]),
    "abstract:zebrafish": lambda p: "zebrafish" in words(p["abstract"]),
    "org:deepseek": lambda p: "deepseek" in (p["organization"] or "").lower(),
}


@pytest.mark.parametrize("query", ORACLES)
def test_query_matches_the_oracle(curated, query):
    assert found(curated, query) == ids_where(curated, ORACLES[query])


def test_oracle_queries_are_not_vacuous(curated):
    empty = [q for q, f in ORACLES.items() if not ids_where(curated, f)]
    assert empty == ["abstract:zebrafish"]  # the word is only in a note


def test_prefix_words_match_longer_words(curated):
    expected = ids_where(curated, lambda p: any(w.startswith("diffus") for w in words(
        p["title"] + " " + p["abstract"])))
    assert expected and found(curated, "diffus*") == expected


def test_digest_by_name_and_by_date(curated):
    digests = curated.digests()
    first = digests[-1]
    in_first = {s for s in curated.search("").ids
                if first["name"] in curated.paper(s)["digests"]}
    assert found(curated, f"digest:{first['name'][:6]}") == in_first
    if first["digest_date"]:
        same_day = [d for d in digests if d["digest_date"] == first["digest_date"]]
        expected = {p["id"] for p in every(curated)
                    if set(p["digests"]) & {d["name"] for d in same_day}}
        assert found(curated, f"digest:{first['digest_date']}") == expected


def test_notes_and_tags_become_searchable_and_undo_removes_them(curated):
    c = curated.curation
    pid = curated.search("").ids[20]
    assert pid not in found(curated, "quokka")
    note = c.add_note(pid, "The quokka benchmark")
    assert found(curated, "quokka") == {pid}
    curated.undo(note.undo)
    assert found(curated, "quokka") == set()
    tagged = c.add_tags([pid], ["Wombat"])
    assert found(curated, "wombat") == {pid} == found(curated, "tag:wombat")
    c.rename_tag("wombat", "Numbat")
    assert found(curated, "wombat") == set() and found(curated, "numbat") == {pid}
    curated.undo(tagged.undo)  # the rename happened after; the tag's paper links go
    assert found(curated, "tag:numbat") == set()


def test_relevance_puts_title_matches_first(curated):
    ids = curated.search("memory").ids
    assert len(ids) > 20
    top = [curated.paper(i) for i in ids[:5]]
    assert all("memory" in words(p["title"]) for p in top)
    assert curated.search("memory", descending=True).ids == list(reversed(ids))


def test_relevance_with_fields_keeps_only_matching_papers(curated):
    ranked = curated.search("language rating>=3", sort="relevance").ids
    assert set(ranked) == ids_where(
        curated, lambda p: has_phrase(p, "language") and p["rating"] >= 3)
    mixed = curated.search("video OR tag:llm", sort="relevance").ids
    with_video = [i for i in mixed if has_phrase(curated.paper(i), "video")]
    assert mixed[:len(with_video)] == with_video  # word matches rank before field-only ones


@pytest.mark.parametrize("sort", [s for s in SORTS if s != "relevance"])
def test_every_sort_orders_by_its_column(curated, sort):
    ids = curated.search("", sort=sort).ids
    assert sorted(ids) == sorted(curated.search("").ids)
    assert curated.search("", sort=sort, descending=True).ids != ids or len(set(ids)) < 2


def test_sort_values_are_in_order(curated):
    for sort, key in (("rating", "rating"), ("upvotes", "upvotes"), ("published", "published"),
                      ("year", "year")):
        values = [p[key] for p in curated.papers(curated.search("", sort=sort).ids)]
        present = [v for v in values if v is not None]
        assert present == sorted(present)
        assert values[len(present):] == [None] * (len(values) - len(present))  # unknown last
        down = [p[key] for p in curated.papers(curated.search("", sort=sort,
                                                              descending=True).ids)]
        assert [v for v in down if v is not None] == sorted(present, reverse=True)


def test_top_pages_skip_the_trash(curated):
    whole = curated.search("memory").ids
    trashed = whole[:3] + whole[6:8]
    curated.db.conn.executemany("UPDATE papers SET deleted_at = '2026-01-01' WHERE id = ?",
                                [(i,) for i in trashed])
    alive = [i for i in whole if i not in trashed]
    assert curated.search("memory").ids == alive
    assert curated.search("memory", limit=5).ids == alive[:5]
    assert curated.search("memory", limit=4, offset=3).ids == alive[3:7]
    assert curated.search("memory", limit=5, include_deleted=True).ids == whole[:5]


def test_upgraded_library_sorts_by_digests_from_an_index(tmp_path):
    path = shutil.copy(Path(__file__).parent.parent / "data" / "library-0001.sqlite",
                       tmp_path / "old.sqlite")
    with Library.open(path) as lib:
        plan = " ".join(r[3] for r in lib.db.execute(
            "EXPLAIN QUERY PLAN SELECT p.id FROM papers p WHERE p.deleted_at IS NULL "
            "ORDER BY p.seen_count"))
        assert "papers_seen_count" in plan
        counts = [p["seen_count"] for p in lib.papers(lib.search("", sort="digests",
                                                                 descending=True).ids)]
        assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]


def test_status_sorts_in_reading_order(curated):
    order = {"unread": 0, "to-read": 1, "reading": 2, "read": 3}
    curated.curation.set_status(curated.search("").ids[3:9], "reading")
    statuses = [p["status"] for p in curated.papers(curated.search("", sort="status").ids)]
    assert statuses == sorted(statuses, key=order.get) and len(set(statuses)) == 4
    down = [p["status"] for p in curated.papers(curated.search("", sort="status",
                                                               descending=True).ids)]
    assert down == sorted(statuses, key=order.get, reverse=True)


def test_paging_walks_the_same_order(curated):
    whole = curated.search("model", sort="relevance").ids
    pages = [curated.search("model", limit=7, offset=o).ids for o in range(0, len(whole), 7)]
    assert [i for page in pages for i in page] == whole


def test_unknown_sort_is_a_query_error(curated):
    with pytest.raises(QueryError, match="cannot sort by 'colour'"):
        curated.search("", sort="colour")


def test_duplicate_candidates_missing_table_means_none(curated):
    exists = curated.db.execute("SELECT 1 FROM sqlite_master WHERE name = "
                                "'duplicate_candidates'").fetchone()
    if not exists:
        assert curated.search("is:duplicate-candidate").ids == []
        curated.db.execute("CREATE TABLE duplicate_candidates (paper_id INTEGER PRIMARY KEY)")
    ids = curated.search("").ids[:3]
    curated.db.execute("DELETE FROM duplicate_candidates")
    curated.db.conn.executemany("INSERT INTO duplicate_candidates (paper_id) VALUES (?)",
                                [(i,) for i in ids])
    assert found(curated, "is:duplicate-candidate") == set(ids)
    assert found(curated, "-is:duplicate-candidate") == set(curated.search("").ids) - set(ids)


def test_trashed_papers_are_left_out_unless_asked(curated):
    pid = curated.search("tag:vision").ids[0]
    curated.db.execute("UPDATE papers SET deleted_at = '2026-01-01' WHERE id = ?", [pid])
    assert pid not in found(curated, "tag:vision")
    assert pid in curated.search("tag:vision", include_deleted=True).ids


@pytest.mark.parametrize(("query", "message"), [
    ("(video", "'(' at position 1 is never closed"),
    ("video)", "')' at position 6 has no '('"),
    ("(a (b)", "'(' at position 1 is never closed"),
    ('"scaling law', "'\"' at position 1 is never closed"),
    ('tag:"deep', "'\"' at position 5 is never closed"),
    ("colour:red", "unknown field 'colour' at position 1"),
    ("video rating>=high", "rating needs a whole number, not 'high' (position 7)"),
    ("rating>=7", "rating goes from 0 to 5"),
    ("year>=20x4", "year needs a whole number"),
    ("status:done-ish", "unknown status 'done-ish'"),
    ("OR video", "OR at position 1 needs something on both sides"),
    ("video OR", "OR at position 7 needs something on both sides"),
    ("video OR OR audio", "OR at position 7"),
    ("()", "empty parentheses at position 1"),
    ("tag>2", "tag: takes a value, not a comparison"),
    ("tag:", "tag: needs a value"),
    ("has:video", "unknown has:video"),
    ("is:great", "unknown is:great"),
    ("NOT OR b", "'NOT' at position 1 needs a word, field or group after it"),
    ("video -)", "'-' at position 7 needs a word"),
    ("title>=3", "title: takes words"),
])
def test_malformed_queries_say_what_and_where(seed_lib, query, message):
    with pytest.raises(QueryError) as info:
        seed_lib.search(query)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_empty_queries_match_everything_and_punctuation_alone_is_refused(seed_lib):
    everything = seed_lib.search("").ids
    assert len(everything) == SEED_PAPERS
    assert seed_lib.search("   ").ids == everything
    # Punctuation is no word the index keeps: alone it asks for nothing it can find.
    with pytest.raises(QueryError, match=r"^'&' at position 1 has no letters or digits"):
        seed_lib.search("&")


@pytest.mark.parametrize(("query", "where"), [
    ("%", "'%' at position 1"), ("+", "'+' at position 1"), ("~ ~", "'~' at position 1"),
    ("scaling OR %", "'%' at position 12"), ("% OR scaling", "'%' at position 1"),
    ("(+ ~)", "'+' at position 2"), ("scaling (%)", "'%' at position 10"),
    ("scaling OR (+ ~) OR video", "'+' at position 13"),
    ('"%%" OR video', "'\"%%\"' at position 1"),
    ("tag:ml OR -", "'-' at position 11"),
])
def test_a_term_of_punctuation_alone_is_refused_in_one_line(seed_lib, query, where):
    with pytest.raises(QueryError) as info:
        seed_lib.search(query)
    assert str(info.value).startswith(f"{where} has no letters or digits to search for")
    assert "\n" not in str(info.value)


def test_punctuation_between_words_separates_them(seed_lib):
    scaling = seed_lib.search("scaling").ids
    assert 0 < len(scaling) < SEED_PAPERS
    for query in ("scaling %", "% scaling", "scaling + ~", "scaling AND %"):
        assert seed_lib.search(query).ids == scaling, query
    assert seed_lib.search("scaling OR video").ids != scaling  # OR itself still adds


def test_fts_syntax_inside_words_is_plain_text(curated):
    for query, oracle in (("NEAR", "near"), ('"AND"', "and"), ("^scaling", "scaling"),
                          ("{title}:scaling", "title scaling"), ("scaling + laws", "scaling laws"),
                          ("laws*:", "laws")):
        assert found(curated, query) == ids_where(curated, lambda p, o=oracle: all(
            has_phrase(p, w) for w in o.split())), query


def test_compiled_word_query_is_one_match():
    c = compile_query('transformer "scaling law" -survey')
    assert c.fts_required and c.where.count("MATCH") == 1 and c.rest == "1"
    assert c.params == ['(("transformer") AND ("scaling law")) NOT ("survey")']
