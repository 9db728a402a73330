"""Undo of edits that change a few columns: images of those columns only, and an
undo that rewrites no more than the values that differ."""

from __future__ import annotations

import json

import pytest

from paperdesk.core.db import changes as ch


@pytest.fixture
def ids(seed_lib):
    return seed_lib.search("", sort="id").ids


@pytest.fixture
def title_writes(seed_lib):
    """A log of every write to a paper's title or abstract (what reindexes its words)."""
    db = seed_lib.db
    db.execute("CREATE TEMP TABLE text_writes (paper_id INTEGER)")
    db.execute("CREATE TEMP TRIGGER log_text AFTER UPDATE OF title, abstract ON main.papers "
               "BEGIN INSERT INTO text_writes VALUES (new.id); END")
    return lambda: [r[0] for r in db.execute("SELECT paper_id FROM temp.text_writes")]


def _papers(lib, ids):
    return [{k: p[k] for k in ("id", "title", "abstract", "rating", "status")}
            for p in lib.papers(ids)]


def test_rating_undo_images_hold_the_rating_columns_only(seed_lib, ids):
    seed_lib.curation.set_rating(ids[:3], 2)
    changes = seed_lib.curation.set_rating(ids[:10], 5)
    [image] = changes.undo.images
    assert image.scope.columns == ("rating", "modified")
    assert all(set(row) == {"id", "rating", "modified"} for row in image.before + image.after)
    assert sorted(r["rating"] for r in image.before) == [0] * 7 + [2] * 3


def test_rating_undo_and_redo_restore_exactly_without_touching_titles(seed_lib, ids,
                                                                      title_writes):
    seed_lib.curation.set_rating(ids[:4], 3)
    before = _papers(seed_lib, ids)
    changes = seed_lib.curation.set_rating(ids[:20], 4)
    after = _papers(seed_lib, ids)
    assert [p["rating"] for p in after[:20]] == [4] * 20
    seed_lib.undo(changes.undo)
    assert _papers(seed_lib, ids) == before
    seed_lib.redo(changes.undo)
    assert _papers(seed_lib, ids) == after
    assert title_writes() == []  # the full-text index was not rewritten
    # words still find the papers
    word = max(before[0]["title"].split(), key=len).strip(":,.()")
    assert ids[0] in seed_lib.search(f'"{word}"').ids


def test_status_undo_puts_back_the_reading_list(seed_lib, ids, title_writes):
    seed_lib.curation.set_status(ids[:3], "to-read")
    order = seed_lib.curation.reading_list()
    changes = seed_lib.curation.set_status(ids[1:6], "read")
    assert seed_lib.curation.reading_list() == [ids[0]]
    seed_lib.undo(changes.undo)
    assert seed_lib.curation.reading_list() == order
    assert title_writes() == []


def test_column_scopes_survive_a_json_round_trip(seed_lib, ids):
    changes = seed_lib.curation.set_rating(ids[:5], 1)
    stored = ch.Undo.from_json(json.loads(json.dumps(changes.undo.to_json())))
    assert stored.images[0].scope == changes.undo.images[0].scope
    seed_lib.undo(stored)
    assert all(p["rating"] == 0 for p in seed_lib.papers(ids[:5]))


def test_an_undo_changing_one_column_leaves_whole_row_scopes_alone(seed_lib, ids, title_writes):
    """Whole-row images (a title edit) still restore every column."""
    pid = ids[0]
    old = seed_lib.paper(pid)["title"]
    scope = ch.Scope("papers", "id", (pid,))
    with seed_lib.edit("Retitle", [ch.PAPERS], [pid], [scope]) as e:
        seed_lib.db.execute("UPDATE papers SET title = 'A new title', rating = 5 WHERE id = ?",
                            [pid])
    seed_lib.undo(e.changes.undo)
    assert (seed_lib.paper(pid)["title"], seed_lib.paper(pid)["rating"]) == (old, 0)
    assert title_writes() == [pid, pid]  # the edit and its undo, nothing else


def _ratings(lib, ids):
    return {r[0]: (r[1], r[2]) for r in lib.db.execute(
        "SELECT id, rating, modified FROM papers ORDER BY id") if r[0] in set(ids)}


def test_undo_of_a_mixed_rating_edit_gives_each_paper_its_own_rating_back(seed_lib, ids):
    """Papers rated 0 (unrated: the column is NOT NULL) to 5 before one bulk edit each get
    their own rating and stamp back; redo gives every one the edit's values again."""
    assert len(ids) >= 14
    for stars in range(1, 6):
        seed_lib.curation.set_rating(ids[stars * 2:stars * 2 + 2], stars)
    before = _ratings(seed_lib, ids)
    assert {r for r, _ in before.values()} == {0, 1, 2, 3, 4, 5}
    changes = seed_lib.curation.set_rating(ids[:14], 4)
    after = _ratings(seed_lib, ids)
    assert all(after[i][0] == 4 for i in ids[:14])
    assert all(after[i] == before[i] for i in ids[14:])
    assert [after[i] == before[i] for i in ids[:14]] == [before[i][0] == 4 for i in ids[:14]]
    seed_lib.undo(changes.undo)
    assert _ratings(seed_lib, ids) == before
    seed_lib.redo(changes.undo)
    assert _ratings(seed_lib, ids) == after
    seed_lib.undo(changes.undo)
    assert _ratings(seed_lib, ids) == before


def test_rating_undo_leaves_a_paper_deleted_since_deleted(seed_lib, ids):
    seed_lib.curation.set_rating(ids[:2], 2)
    changes = seed_lib.curation.set_rating(ids[:5], 5)
    seed_lib.trash.delete([ids[0]])
    seed_lib.trash.empty()
    seed_lib.undo(changes.undo)
    assert [p["rating"] for p in seed_lib.papers(ids[1:5])] == [2, 0, 0, 0]
    assert seed_lib.db.execute("SELECT count(*) FROM papers WHERE id = ?",
                               [ids[0]]).fetchone()[0] == 0


def test_an_undo_sets_a_watched_column_only_where_it_differs(seed_lib, ids):
    """With a trigger watching the rating, an undo in which only the stamp differs
    does not write the rating (so the trigger does not fire)."""
    db = seed_lib.db
    db.execute("CREATE TEMP TABLE rating_writes (paper_id INTEGER)")
    db.execute("CREATE TEMP TRIGGER log_rating AFTER UPDATE OF rating ON main.papers "
               "BEGIN INSERT INTO rating_writes VALUES (new.id); END")
    scope = ch.Scope("papers", "id", tuple(ids[:4]), ("rating", "modified"))
    with seed_lib.edit("Touch", [ch.PAPERS], ids[:4], [scope]) as e:
        db.execute("UPDATE papers SET modified = 'then' WHERE id IN (?, ?, ?, ?)", ids[:4])
        db.execute("UPDATE papers SET rating = 3 WHERE id = ?", [ids[0]])
    assert [r[0] for r in db.execute("SELECT paper_id FROM temp.rating_writes")] == [ids[0]]
    seed_lib.undo(e.changes.undo)
    assert [r[0] for r in db.execute("SELECT paper_id FROM temp.rating_writes")] == [ids[0]] * 2
    assert all(p["rating"] == 0 and p["modified"] != "then" for p in seed_lib.papers(ids[:4]))


def test_which_columns_a_trigger_watches(seed_lib):
    from paperdesk.core.db.column_restore import quiet

    db = seed_lib.db
    assert quiet(db, "papers", ["rating", "modified", "status", "read_at", "list_position"])
    assert not quiet(db, "papers", ["rating", "title"])
    assert not quiet(db, "papers", ["abstract"])
    assert quiet(db, "sightings", ["raw_title"])
    assert not quiet(db, "sightings", ["upvotes"])
    db.execute("CREATE TEMP TRIGGER any_update AFTER UPDATE ON main.papers "
               "BEGIN SELECT 1; END")
    assert not quiet(db, "papers", ["rating"])
