"""Merging, unmerging (also after a restart) and merging every certain group."""

from __future__ import annotations

import json
import sqlite3

import pytest

from paperdesk.core.library import Library
from paperdesk.core.model.errors import NotFound, PaperDeskError
from tests.core.test_duplicates import add_copy, by_title

TABLES = ("papers", "sightings", "paper_tags", "tags", "notes", "papers_fts",
          "duplicate_candidates")


def rows(path) -> dict[str, list]:
    """Every row of the tables a merge touches, read by a separate connection."""
    conn = sqlite3.connect(path)
    try:
        return {t: sorted(conn.execute(f"SELECT rowid, * FROM {t}" if t == "papers_fts" else
                                       f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in TABLES}
    finally:
        conn.close()


@pytest.fixture
def pair(seed_lib):
    """Two papers with their own tags, notes, rating and status."""
    a = by_title(seed_lib, "Serverless Cold Starts")[0]
    b = add_copy(seed_lib, a, title=seed_lib.paper(a)["title"] + " (again)", author_count=None,
                 organization=None, published=None, year=None, arxiv_id="2401.00001")
    assert len(seed_lib.sightings(a)) == 3
    with seed_lib.transaction() as db:  # b was seen once, in a's latest digest
        db.execute("UPDATE sightings SET paper_id = ? WHERE id = (SELECT max(id) FROM sightings "
                   "WHERE paper_id = ?)", [b, a])
    cur = seed_lib.curation
    cur.add_tags([a], ["systems", "cloud"])
    cur.add_tags([b], ["cloud", "to-cite"])
    cur.add_note(a, "first note on a")
    cur.add_note(b, "a note on b")
    cur.set_rating([a], 2)
    cur.set_rating([b], 4)
    cur.set_status([a], "reading")
    cur.set_status([b], "to-read")
    return seed_lib, a, b


def test_merge_follows_the_rules(pair):
    lib, a, b = pair
    before_a, before_b = lib.paper(a), lib.paper(b)
    seen = len(lib.sightings(a)) + len(lib.sightings(b))
    changes = lib.duplicates.merge(a, [b])
    assert changes.result["merge_id"] >= 1 and changes.undo is not None
    assert lib.papers([b]) == []
    merged = lib.paper(a)
    assert merged["tags"] == ["cloud", "systems", "to-cite"]
    assert [n["text"] for n in merged["notes"]] == ["first note on a", "a note on b"]
    assert (merged["rating"], merged["status"]) == (4, "reading")
    assert merged["arxiv_id"] == "2401.00001"            # filled from b
    assert merged["title"] == before_a["title"]          # both had one: the kept one's
    assert merged["citekey"] == before_a["citekey"]
    assert len(lib.sightings(a)) == seen
    assert lib.search('"a note on b"').ids == [a]
    assert before_b["citekey"] not in {p["citekey"] for p in lib.papers(lib.search("").ids)}
    history = lib.duplicates.history()
    assert history[0] | {"created": None} == {
        "id": changes.result["merge_id"], "kept_id": a, "merged_ids": [b], "created": None,
        "undone": False, "undone_at": None, "label": f"Merge 1 paper into paper {a}"}


def test_field_by_field_choice(pair):
    lib, a, b = pair
    title_b, key_b = lib.paper(b)["title"], lib.paper(b)["citekey"]
    lib.duplicates.merge(a, [b], choices={"title": b, "citekey": b, "rating": a})
    merged = lib.paper(a)
    assert (merged["title"], merged["citekey"], merged["rating"]) == (title_b, key_b, 2)
    assert lib.db.execute("SELECT title_key FROM papers WHERE id = ?", [a]).fetchone()[0] == \
        "serverless cold starts and where to find them again"


def test_merge_then_unmerge_after_a_restart_is_exact(pair):
    lib, a, b = pair
    path = lib.path
    before = rows(path)
    merge_id = lib.duplicates.merge(a, [b]).result["merge_id"]
    assert rows(path) != before
    lib.close()
    with Library.open(path) as again:
        changes = again.duplicates.unmerge(merge_id)
        assert changes.result["restored_ids"] == [b] and changes.result["rekeyed"] == {}
        assert rows(path) == before
        assert again.duplicates.history()[0]["undone"] is True
        with pytest.raises(PaperDeskError, match=f"merge {merge_id} was already undone"):
            again.duplicates.unmerge(merge_id)


def test_undo_and_redo_of_the_changes_record(pair):
    lib, a, b = pair
    before = rows(lib.path)
    changes = lib.duplicates.merge(a, [b])
    after = rows(lib.path)
    lib.undo(changes.undo)
    assert rows(lib.path) == before and lib.duplicates.history() == []
    lib.redo(changes.undo)
    assert rows(lib.path) == after and len(lib.duplicates.history()) == 1


def test_unmerge_keeps_what_changed_since(pair, tmp_path):
    lib, a, b = pair
    merge_id = lib.duplicates.merge(a, [b]).result["merge_id"]
    lib.curation.set_rating([a], 5)
    lib.curation.add_tags([a], ["later"])
    paper = lib.paper(a)
    digest = tmp_path / "again.txt"
    digest.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                      "byAK and the research community\n\nNov 9\n\n"
                      f"{paper['title']}\n\n{paper['abstract']}\n\n", encoding="utf-8")
    assert lib.import_paths([digest])[0].merged == 1
    later_sightings = len(lib.sightings(a))
    lib.duplicates.unmerge(merge_id)
    restored = lib.paper(a)
    assert restored["rating"] == 5 and "later" in restored["tags"]
    assert "to-cite" not in restored["tags"]
    assert lib.paper(b)["tags"] == ["cloud", "to-cite"]
    assert len(lib.sightings(a)) + len(lib.sightings(b)) == later_sightings


def test_unmerge_gives_a_new_key_when_the_old_one_was_taken(pair):
    lib, a, b = pair
    key_b = lib.paper(b)["citekey"]
    merge_id = lib.duplicates.merge(a, [b]).result["merge_id"]
    other = by_title(lib, "ZeRO-Infinity")[0]
    with lib.transaction() as db:
        db.execute("UPDATE papers SET citekey = ? WHERE id = ?", [key_b, other])
    changes = lib.duplicates.unmerge(merge_id)
    new_key = changes.result["rekeyed"][b]
    assert new_key != key_b and lib.paper(b)["citekey"] == new_key


def test_chained_merges_are_undone_newest_first(pair):
    lib, a, b = pair
    c = by_title(lib, "ZeRO-Infinity")[0]
    first = lib.duplicates.merge(a, [b]).result["merge_id"]
    second = lib.duplicates.merge(c, [a]).result["merge_id"]
    with pytest.raises(PaperDeskError, match=f"undo merge {second} first"):
        lib.duplicates.unmerge(first)
    assert lib.duplicates.latest_merge_of(a) == second
    lib.duplicates.unmerge(second)
    lib.duplicates.unmerge(first)
    assert {p["id"] for p in lib.papers([a, b, c])} == {a, b, c}


def test_bad_merges_change_nothing(pair):
    lib, a, b = pair
    before = rows(lib.path)
    with pytest.raises(PaperDeskError, match="cannot be merged into itself"):
        lib.duplicates.merge(a, [a])
    with pytest.raises(NotFound, match="no paper with id 99999"):
        lib.duplicates.merge(a, [99999])
    with pytest.raises(PaperDeskError, match="cannot choose 'colour'"):
        lib.duplicates.merge(a, [b], choices={"colour": b})
    with pytest.raises(PaperDeskError, match="can only come from one of papers"):
        lib.duplicates.merge(a, [b], choices={"title": 1})
    with pytest.raises(NotFound, match="no merge with id 42"):
        lib.duplicates.unmerge(42)
    with pytest.raises(PaperDeskError, match="at least one"):
        lib.duplicates.merge(a, [])
    assert rows(lib.path) == before


def test_merge_all_certain_merges_exactly_the_certain_groups(seed_lib):
    lib = seed_lib
    s = by_title(lib, "Serverless Cold Starts")[0]
    z = by_title(lib, "ZeRO-Infinity")[0]
    p = by_title(lib, "POLCA")[0]
    certain = [add_copy(lib, s), add_copy(lib, s, title=lib.paper(s)["title"].lower())]
    with lib.transaction() as db:
        db.execute("UPDATE papers SET doi = '10.1/zero' WHERE id = ?", [z])
    certain.append(add_copy(lib, z, title="ZeRO Infinity, retitled", doi="10.1/ZERO"))
    possible = add_copy(lib, p, abstract=lib.paper(z)["abstract"])
    count = lib.stats()["papers"]
    changes = lib.duplicates.merge_all_certain()
    assert (changes.result["groups"], changes.result["papers"]) == (2, 3)
    assert lib.stats()["papers"] == count - 3
    assert lib.papers(certain) == []
    remaining = lib.duplicates.scan()
    assert [set(g.ids) for g in remaining] == [{p, possible}]
    assert remaining[0].tier == "possible"
    merges = lib.duplicates.history()
    assert sorted(json.dumps(m["merged_ids"]) for m in merges) == sorted(
        [json.dumps(certain[:2]), json.dumps(certain[2:])])
    lib.undo(changes.undo)
    assert lib.stats()["papers"] == count and lib.duplicates.history() == []
