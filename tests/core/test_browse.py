"""The reads the window browses by (``Library.browse``, ``Library.trash`` listings), on a
real library of the seed digests."""

from __future__ import annotations

from paperdesk.core.db import changes as ch
from paperdesk.core.model.clock import now

STATUSES = ("unread", "to-read", "reading", "read")


def test_source_ids_are_what_the_query_language_finds_and_leave_out_the_trash(seed_lib):
    lib = seed_lib
    lib.curation.set_status([1, 2, 3], "read")
    lib.curation.add_tags([2, 4, 5], "Keep")
    digest = lib.digests()[0]
    in_digest = lib.search(f'digest:"{digest["name"]}"').ids
    gone = next(i for i in in_digest if i > 5)
    lib.trash.delete([2, gone])
    assert sorted(lib.browse.source_ids("status", "read")) == [1, 3]
    assert sorted(lib.browse.source_ids("tag", "Keep")) == [4, 5]
    assert sorted(lib.browse.source_ids("digest", digest["id"])) == sorted(
        set(in_digest) - {2, gone})
    assert len(in_digest) > 1
    assert lib.browse.source_ids("all") is None
    assert lib.browse.source_ids("saved", "scaling") is None


def test_recent_papers_are_those_added_within_a_day_of_the_newest(seed_lib):
    lib = seed_lib
    everyone = set(lib.search().ids)
    assert set(lib.browse.source_ids("recent")) == everyone  # one import: all recent
    with lib.transaction(kinds={ch.PAPERS}) as db:
        db.execute("UPDATE papers SET added = '2001-01-01T00:00:00' WHERE id IN (7, 8)")
    assert set(lib.browse.source_ids("recent")) == everyone - {7, 8}
    assert lib.browse.counts()["recent"] == len(everyone) - 2


def test_counts_agree_with_the_searches_and_leave_out_the_trash(seed_lib):
    lib = seed_lib
    lib.curation.set_status([1, 2], "to-read")
    lib.curation.set_status([3], "read")
    lib.curation.add_tags([1, 3], "Alpha")
    lib.curation.save_search("Scaling", "scaling")
    lib.trash.delete([3])
    counts = lib.browse.counts()
    assert counts["all"] == lib.stats()["papers"] == len(lib.search().ids)
    for status in STATUSES:
        assert counts["status"].get(status, 0) == len(lib.search(f"status:{status}").ids)
    assert counts["list"] == 2
    assert counts["next_up"] == {"id": 1, "title": lib.paper(1)["title"]}
    assert counts["tags"] == [("Alpha", 1)]
    assert counts["tags"][0].name == "Alpha" and counts["tags"][0].count == 1
    assert counts["saved"] == [("Scaling", "scaling")]
    digests = lib.digests()
    assert [(d.id, d.name, d.entries, d.date) for d in counts["digests"]] == [
        (d["id"], d["name"], d["entries"], d["digest_date"]) for d in digests]


def test_digest_name_names_the_digest_or_none(seed_lib):
    digest = seed_lib.digests()[-1]
    assert seed_lib.browse.digest_name(digest["id"]) == digest["name"]
    assert seed_lib.browse.digest_name(999) is None


def test_summary_counts_shared_ratings_statuses_and_tags(seed_lib):
    lib = seed_lib
    lib.curation.set_rating([1, 2, 3], 4)
    lib.curation.add_tags([1, 2], "Alpha")
    lib.curation.add_tags([2], "beta")
    same = lib.browse.summary([1, 2, 3])
    assert same["count"] == 3 and same["ratings"] == [4]
    assert same["statuses"] == [lib.paper(1)["status"]]
    assert same["tags"] == [("Alpha", 2), ("beta", 1)]
    lib.curation.set_rating([3], 1)
    lib.curation.set_status([3], "read")
    mixed = lib.browse.summary([1, 2, 3])
    assert sorted(mixed["ratings"]) == [1, 4] and len(mixed["statuses"]) == 2
    assert lib.browse.summary([]) == {"count": 0, "ratings": [], "statuses": [], "tags": []}


def test_titles_and_stored_rows_read_the_papers(seed_lib):
    lib = seed_lib
    papers = {p["id"]: p for p in lib.papers([4, 5, 6])}
    assert lib.browse.titles([4, 5, 6, 999]) == {i: p["title"] for i, p in papers.items()}
    rows = lib.browse.stored_rows([5, 4, 999])
    assert sorted(rows) == [4, 5]
    assert rows[4]["abstract"] == papers[4]["abstract"]
    assert rows[5]["title_key"] and "deleted_at" in rows[5]


def test_trash_count_and_listing_newest_first(seed_lib):
    lib = seed_lib
    assert lib.trash.count() == 0 and lib.trash.listing() == []
    lib.trash.delete([9])
    with lib.transaction(kinds={ch.PAPER_SET}) as db:
        db.execute("UPDATE papers SET deleted_at = ? WHERE id = 9", ["2001-01-01T00:00:00"])
    lib.trash.delete([10, 11])
    assert lib.trash.count() == 3 == lib.stats()["trash"]
    listed = lib.trash.listing()
    assert [p["id"] for p in listed] == [11, 10, 9]
    assert listed[0]["title"] == lib.paper(11)["title"]
    assert listed[0]["year"] == lib.paper(11)["year"]
    assert listed[0]["deleted_at"] <= now() and listed[2]["deleted_at"].startswith("2001")
    assert [p["id"] for p in lib.trash.listing(2)] == [11, 10]

