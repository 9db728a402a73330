"""Tags, notes, ratings, reading status, the reading list, year fixes, saved searches.

Each kind of edit is undone and redone, and the library (the FTS index
included) must come back exactly.
"""

from __future__ import annotations

import pytest

from paperdesk.core.curation.curation import CurationError
from paperdesk.core.db import changes as ch
from paperdesk.core.model.errors import NotFound, QueryError

TABLES = ("papers", "tags", "paper_tags", "notes", "saved_searches", "papers_fts",
          "annotations_fts")


def state(lib) -> dict[str, list]:
    return {t: lib.db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in TABLES}


def fts_state(lib) -> list:
    return lib.db.execute("SELECT rowid, title, abstract, notes, tags FROM papers_fts "
                          "ORDER BY rowid").fetchall()


def check_undo_redo(lib, do):
    """Run ``do()``, then undo and redo it; the library must match each time."""
    before, fts_before = state(lib), fts_state(lib)
    changes = do()
    assert changes and changes.undo is not None
    after, fts_after = state(lib), fts_state(lib)
    assert after != before
    undone = lib.undo(changes.undo)
    assert state(lib) == before and fts_state(lib) == fts_before
    assert undone.kinds
    lib.redo(changes.undo)
    assert state(lib) == after and fts_state(lib) == fts_after
    return changes


@pytest.fixture
def ids(seed_lib):
    return seed_lib.search("").ids


# -- tags ------------------------------------------------------------------------------


def test_tags_match_case_insensitively_and_keep_the_first_spelling(seed_lib, ids):
    c = seed_lib.curation
    first = c.add_tags(ids[:3], ["Machine Learning", "NLP"])
    assert first.kinds == {ch.TAGS} and first.paper_ids == set(ids[:3])
    assert first.result["tagged"] == 6
    c.add_tags(ids[2:5], ["machine  learning", "nlp "])
    assert c.tags() == [{"name": "Machine Learning", "count": 5}, {"name": "NLP", "count": 5}]
    assert seed_lib.paper(ids[4])["tags"] == ["Machine Learning", "NLP"]
    again = c.add_tags(ids[:3], "MACHINE LEARNING")
    assert not again and again.undo is None  # nothing new: no change recorded


def test_remove_tags_and_counts_leave_out_the_trash(seed_lib, ids):
    c = seed_lib.curation
    c.add_tags(ids[:4], ["a", "b"])
    removed = c.remove_tags(ids[:2], ["A"])
    assert removed.result["untagged"] == 2
    assert {t["name"]: t["count"] for t in c.tags()} == {"a": 2, "b": 4}
    seed_lib.db.execute("UPDATE papers SET deleted_at = 'now' WHERE id = ?", [ids[3]])
    assert {t["name"]: t["count"] for t in c.tags()} == {"a": 1, "b": 3}
    check_undo_redo(seed_lib, lambda: c.remove_tags(ids[:3], ["b"]))
    assert {t["name"]: t["count"] for t in c.tags()} == {"a": 1, "b": 0}  # trash keeps it
    check_undo_redo(seed_lib, lambda: c.remove_tags(ids, ["a", "b"]))
    assert c.tags() == []


def test_tag_edits_undo_and_redo_exactly(seed_lib, ids):
    c = seed_lib.curation
    check_undo_redo(seed_lib, lambda: c.add_tags(ids[:10], ["Vision", "Old"]))
    check_undo_redo(seed_lib, lambda: c.add_tags(ids[5:15], ["vision", "New"]))
    check_undo_redo(seed_lib, lambda: c.remove_tags(ids[:8], ["old"]))
    check_undo_redo(seed_lib, lambda: c.rename_tag("vision", "Computer Vision"))
    check_undo_redo(seed_lib, lambda: c.rename_tag("computer vision", "computer vision"))
    check_undo_redo(seed_lib, lambda: c.merge_tags("new", "Old"))
    check_undo_redo(seed_lib, lambda: c.delete_tag("old"))
    assert [t["name"] for t in c.tags()] == ["computer vision"]


def test_rename_merge_delete(seed_lib, ids):
    c = seed_lib.curation
    c.add_tags(ids[:3], ["rl"])
    c.add_tags(ids[2:6], ["Reinforcement"])
    with pytest.raises(CurationError, match="already exists; merge"):
        c.rename_tag("rl", "REINFORCEMENT")
    renamed = c.rename_tag("rl", "RL")
    assert renamed.paper_ids == set(ids[:3])
    assert c.rename_tag("RL", "RL").undo is None
    merged = c.merge_tags("reinforcement", "rl")
    assert merged.result["moved"] == 3  # ids[2] had both
    assert c.tags() == [{"name": "RL", "count": 6}]
    assert seed_lib.search("tag:reinforcement").ids == []
    deleted = c.delete_tag("rl")
    assert deleted.result["untagged"] == 6 and c.tags() == []
    assert seed_lib.search("tag:rl").ids == []
    with pytest.raises(NotFound, match="no tag named 'rl'"):
        c.delete_tag("rl")
    c.add_tags(ids[:1], ["x"])
    with pytest.raises(CurationError, match="into itself"):
        c.merge_tags("x", "X")


def test_bad_tags_and_ids_change_nothing(seed_lib, ids):
    c = seed_lib.curation
    before = state(seed_lib)
    with pytest.raises(CurationError, match="a tag needs a name"):
        c.add_tags(ids[:2], ["ok", "  "])
    with pytest.raises(CurationError, match="at most 100 characters"):
        c.add_tags(ids[:2], ["x" * 101])
    with pytest.raises(NotFound, match="no paper with id 99999"):
        c.add_tags([ids[0], 99999], ["ok"])
    assert state(seed_lib) == before


def test_tags_are_searchable_words(seed_lib, ids):
    seed_lib.curation.add_tags(ids[7:9], ["Quokka"])
    assert set(seed_lib.search("quokka").ids) == set(ids[7:9])


def test_many_papers_tagged_in_one_edit(lib):
    """Beyond SQLite's host-parameter limit: 2,500 papers, one edit, undone exactly."""
    rows = [(f"Paper {i}", f"paper {i}", f"k{i}", "2024-01-01", "2024-01-01")
            for i in range(2500)]
    with lib.transaction() as db:
        db.conn.executemany("INSERT INTO papers (title, title_key, citekey, added, modified) "
                            "VALUES (?, ?, ?, ?, ?)", rows)
    ids = lib.search("").ids
    changes = check_undo_redo(lib, lambda: lib.curation.add_tags(ids, ["bulk", "Mass"]))
    assert changes.result["tagged"] == 5000 and len(changes.paper_ids) == 2500
    assert len(lib.search("tag:bulk").ids) == 2500
    check_undo_redo(lib, lambda: lib.curation.set_rating(ids[::2], 3))
    assert len(lib.search("rating=3").ids) == 1250


# -- rating, status, reading list, year ------------------------------------------------


def test_ratings(seed_lib, ids):
    c = seed_lib.curation
    rated = check_undo_redo(seed_lib, lambda: c.set_rating(ids[:4], 5))
    assert rated.kinds == {ch.PAPERS} and rated.result["changed"] == 4
    assert [p["rating"] for p in seed_lib.papers(ids[:5])] == [5, 5, 5, 5, 0]
    check_undo_redo(seed_lib, lambda: c.set_rating(ids[2:6], 0))
    assert [p["rating"] for p in seed_lib.papers(ids[:6])] == [5, 5, 0, 0, 0, 0]
    before = state(seed_lib)
    for bad in (6, -1, 2.5, "4", True, None):
        with pytest.raises(CurationError, match="from 0 to 5"):
            c.set_rating(ids[:1], bad)
    assert state(seed_lib) == before


def test_status_stamps_read_at_and_keeps_the_reading_list(seed_lib, ids):
    c = seed_lib.curation
    check_undo_redo(seed_lib, lambda: c.set_status([ids[5], ids[3], ids[9]], "to-read"))
    assert c.reading_list() == [ids[5], ids[3], ids[9]]
    c.set_status([ids[1], ids[3]], "to-read")  # ids[3] keeps its place
    assert c.reading_list() == [ids[5], ids[3], ids[9], ids[1]]
    read = check_undo_redo(seed_lib, lambda: c.set_status([ids[3]], "read"))
    paper = seed_lib.paper(ids[3])
    assert paper["status"] == "read" and paper["read_at"] and read.result["changed"] == 1
    assert c.reading_list() == [ids[5], ids[9], ids[1]]
    assert seed_lib.db.execute("SELECT list_position FROM papers WHERE id = ?",
                               [ids[3]]).fetchone()[0] is None
    c.set_status([ids[3]], "reading")
    assert seed_lib.paper(ids[3])["read_at"] is None
    with pytest.raises(CurationError, match="unknown reading status 'done'"):
        c.set_status(ids[:1], "done")


def test_moving_in_the_reading_list(seed_lib, ids):
    c = seed_lib.curation
    c.set_status(ids[:5], "to-read")
    check_undo_redo(seed_lib, lambda: c.move_in_reading_list(ids[4], 0))
    assert c.reading_list() == [ids[4], *ids[:4]]
    c.move_in_reading_list(ids[4], 99)  # past the end: last
    assert c.reading_list() == ids[:5]
    c.move_in_reading_list(ids[0], 2)
    assert c.reading_list() == [ids[1], ids[2], ids[0], ids[3], ids[4]]
    assert not c.move_in_reading_list(ids[0], 2)
    with pytest.raises(CurationError, match="not on the reading list"):
        c.move_in_reading_list(ids[50], 0)


def test_reading_list_survives_running_out_of_float_room(seed_lib, ids):
    c = seed_lib.curation
    c.set_status(ids[:4], "to-read")
    expected = list(ids[:4])
    for n in range(120):  # each move halves the gap between the same two neighbours
        mover = expected[3] if n % 2 == 0 else expected[2]
        c.move_in_reading_list(mover, 1)
        expected.remove(mover)
        expected.insert(1, mover)
        assert c.reading_list() == expected


def test_year_correction(seed_lib):
    c = seed_lib.curation
    inferred = seed_lib.search("is:year-inferred").ids
    assert inferred
    pid = inferred[0]
    old = seed_lib.paper(pid)
    check_undo_redo(seed_lib, lambda: c.set_year(pid, 2019))
    new = seed_lib.paper(pid)
    assert (new["year"], new["year_inferred"]) == (2019, False)
    assert new["published"] == "2019" + old["published"][4:]
    assert pid not in seed_lib.search("is:year-inferred").ids
    assert pid in seed_lib.search("year:2019").ids
    assert not c.set_year(pid, 2019)
    with pytest.raises(CurationError, match="a year is a number"):
        c.set_year(pid, 99)


def test_year_correction_of_29_february(seed_lib, ids):
    seed_lib.db.execute("UPDATE papers SET published = '2024-02-29', year = 2024 WHERE id = ?",
                        [ids[0]])
    seed_lib.curation.set_year(ids[0], 2023)
    assert seed_lib.paper(ids[0])["published"] == "2023-02-28"


# -- notes -----------------------------------------------------------------------------


def test_notes_add_edit_delete_with_undo(seed_lib, ids):
    c = seed_lib.curation
    added = check_undo_redo(seed_lib, lambda: c.add_note(ids[0], "First *wallaby*"))
    note_id = added.result["note_id"]
    assert added.kinds == {ch.NOTES, ch.PAPERS}
    second = c.add_note(ids[0], "Second")
    notes = c.notes(ids[0])
    assert [n["text"] for n in notes] == ["First *wallaby*", "Second"]
    assert set(notes[0]) == {"id", "text", "created", "updated"}
    check_undo_redo(seed_lib, lambda: c.edit_note(note_id, "First, revised: platypus"))
    assert seed_lib.search("platypus").ids == [ids[0]]
    assert seed_lib.search("wallaby").ids == []
    check_undo_redo(seed_lib, lambda: c.delete_note(second.result["note_id"]))
    assert [n["text"] for n in c.notes(ids[0])] == ["First, revised: platypus"]
    assert seed_lib.paper(ids[0])["notes"][0]["id"] == note_id
    assert not c.edit_note(note_id, "First, revised: platypus")


def test_bad_notes_change_nothing(seed_lib, ids):
    c = seed_lib.curation
    before = state(seed_lib)
    with pytest.raises(CurationError, match="a note needs some text"):
        c.add_note(ids[0], "  \n ")
    with pytest.raises(NotFound, match="no paper with id 424242"):
        c.add_note(424242, "text")
    with pytest.raises(NotFound, match="no note with id 77"):
        c.edit_note(77, "text")
    with pytest.raises(NotFound, match="no note with id 77"):
        c.delete_note(77)
    assert state(seed_lib) == before


# -- saved searches --------------------------------------------------------------------


def test_saved_searches(seed_lib):
    c = seed_lib.curation
    saved = check_undo_redo(seed_lib, lambda: c.save_search("Good ones", "rating>=4"))
    assert saved.kinds == {ch.SEARCHES}
    check_undo_redo(seed_lib, lambda: c.save_search("Good ones", "rating>=4 status:unread"))
    c.save_search("another", "tag:x OR year:2024")
    assert c.saved_searches() == [
        {"name": "another", "query": "tag:x OR year:2024"},
        {"name": "Good ones", "query": "rating>=4 status:unread"}]
    check_undo_redo(seed_lib, lambda: c.delete_search("another"))
    with pytest.raises(NotFound, match="no saved search named 'another'"):
        c.delete_search("another")
    before = state(seed_lib)
    with pytest.raises(QueryError, match="never closed"):
        c.save_search("broken", "(tag:x")
    with pytest.raises(CurationError, match="needs a name"):
        c.save_search(" ", "tag:x")
    assert state(seed_lib) == before
