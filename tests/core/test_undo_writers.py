"""The table writers image what they write: an edit's undo is made of the writers'
images, read back as one typed ``RowChange`` a row, and two writers on one row
undo to what the edit found."""

from __future__ import annotations

import pytest

from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table, tags_table
from paperdesk.core.db.images import RowChange
from paperdesk.core.model.errors import LibraryError


@pytest.fixture
def ids(seed_lib):
    return seed_lib.search("", sort="id").ids


def _row(lib, pid):
    return lib.db.execute("SELECT rating, title, modified FROM papers WHERE id = ?",
                          [pid]).fetchone()


def test_a_rating_changes_only_the_columns_its_writer_wrote(seed_lib, ids):
    seed_lib.curation.set_rating(ids[:2], 4)
    changes = seed_lib.curation.set_rating(ids[:5], 4)
    rows = changes.undo.row_changes(seed_lib.db)
    assert all(isinstance(r, RowChange) for r in rows)
    assert sorted(r.key for r in rows) == [(pid,) for pid in sorted(ids[2:5])]
    assert {r.table for r in rows} == {"papers"}
    # The rows hold the columns written and the key, nothing else (a stamp of the same
    # second as the seed's is no change).
    assert all(set(r.before) == set(r.after) == {"id", "rating", "modified"} for r in rows)
    assert all("rating" in r.columns and set(r.columns) <= {"rating", "modified"}
               for r in rows)
    assert all(r.before["rating"] == 0 and r.after["rating"] == 4 for r in rows)
    assert changes.result["changed"] == 3


def test_tagging_reads_as_the_rows_it_added(seed_lib, ids):
    changes = seed_lib.curation.add_tags(ids[:3], ["fresh-tag"])
    rows = changes.undo.row_changes(seed_lib.db)
    tag_id = seed_lib.db.execute("SELECT id FROM tags WHERE name = 'fresh-tag'").fetchone()[0]
    assert [(r.table, r.key, r.before) for r in rows if r.table == "tags"] == [
        ("tags", (tag_id,), None)]
    marks = sorted(r.key for r in rows if r.table == "paper_tags")
    assert marks == sorted((pid, tag_id) for pid in ids[:3])
    assert all(r.before is None and r.after is not None for r in rows)
    seed_lib.undo(changes.undo)
    assert seed_lib.db.execute("SELECT count(*) FROM tags WHERE name = 'fresh-tag'"
                               ).fetchone()[0] == 0


def test_two_writers_on_one_row_undo_to_what_the_edit_found(seed_lib, ids):
    """The second writer images the rating the first one wrote: its "before" is still
    the rating the edit found, so undo puts that back, and redo the last one."""
    pid = ids[0]
    found = _row(seed_lib, pid)
    with seed_lib.edit("Two writers", [ch.PAPERS], [pid]) as e:
        papers_table.set_rating(seed_lib.db, [pid], 3, "stamp-1")
        papers_table.set_columns(seed_lib.db, pid, {"rating": 5, "title": "Another title"})
    assert _row(seed_lib, pid) == (5, "Another title", "stamp-1")
    before = [r.before for r in e.changes.undo.row_changes(seed_lib.db)]
    assert all(b["rating"] == found[0] for b in before)
    seed_lib.undo(e.changes.undo)
    assert _row(seed_lib, pid) == found
    seed_lib.redo(e.changes.undo)
    assert _row(seed_lib, pid) == (5, "Another title", "stamp-1")


def test_a_table_imaged_by_two_key_columns_in_one_edit_is_refused(seed_lib, ids):
    """Images of one table by two key columns cannot be told apart: the edit fails and
    the library is as it was."""
    seed_lib.curation.add_tags(ids[:2], ["one"])
    before = seed_lib.curation.tags()
    tag_id = seed_lib.db.execute("SELECT id FROM tags WHERE name = 'one'").fetchone()[0]
    with pytest.raises((ValueError, LibraryError)), \
            seed_lib.edit("Mixed", [ch.TAGS], ids[:2]):
        tags_table.rename(seed_lib.db, tag_id, "two", "two")
        tags_table.drop_unused(seed_lib.db, ["two"])
    assert seed_lib.curation.tags() == before


def test_writers_image_nothing_outside_an_edit(seed_lib, ids):
    with seed_lib.write("Plain", [ch.PAPERS], ids[:2]) as w:
        assert seed_lib.db.recording is None
        papers_table.set_rating(seed_lib.db, ids[:2], 2, "stamp")
    assert w.changes.undo is None
    assert [p["rating"] for p in seed_lib.papers(ids[:2])] == [2, 2]


def test_an_edit_nested_in_another_is_in_the_outer_undo_too(seed_lib, ids):
    found = [_row(seed_lib, pid) for pid in ids[:2]]
    with seed_lib.edit("Outer", [ch.PAPERS], ids[:2]) as outer:
        papers_table.set_rating(seed_lib.db, [ids[0]], 5, "outer")
        with seed_lib.edit("Inner", [ch.PAPERS], ids[:2]) as inner:
            papers_table.set_rating(seed_lib.db, ids[:2], 1, "inner")
    inner_rows = inner.changes.undo.row_changes(seed_lib.db)
    assert {r.before["rating"] for r in inner_rows} == {5, 0}  # what the inner edit found
    seed_lib.undo(outer.changes.undo)
    assert [_row(seed_lib, pid) for pid in ids[:2]] == found
