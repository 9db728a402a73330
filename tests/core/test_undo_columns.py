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
