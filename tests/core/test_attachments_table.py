"""Migration 0028's tables and their writers: attachments and highlights are undone,
redone, moved by a merge (identical files kept once) and taken by the trash's emptying,
all through the writers' own images."""

from __future__ import annotations

import sqlite3

import pytest

from paperdesk.core.db import attachments_table, highlights_table
from paperdesk.core.db import changes as ch
from paperdesk.core.model.errors import LibraryError

TABLES = ("papers", "notes", "attachments", "highlights")  # id_tops: never undone


def content(path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES}
    finally:
        conn.close()


def _row(pid: int, sha: str, name: str = "a.pdf") -> dict:
    return {"paper_id": pid, "kind": "stored", "path": f"u{pid}/{name}", "name": name,
            "sha256": sha, "size": 10, "pages": 3, "added_at": "2026-01-01T00:00:00Z"}


def _attach(lib, pid: int, sha: str, name: str = "a.pdf") -> tuple[int, ch.Changes]:
    with lib.edit(f"Attach {name}", {ch.ATTACHMENTS}, [pid]) as e:
        aid = attachments_table.insert(lib.db, _row(pid, sha, name))
    return aid, e.changes


def _highlight(lib, aid: int, text: str) -> ch.Changes:
    with lib.edit("Highlight", {ch.HIGHLIGHTS}) as e:
        highlights_table.add(lib.db, aid, 2, [[1, 2, 3, 2, 1, 4, 3, 4]], text, "yellow",
                             "2026-01-01T00:00:00Z")
    return e.changes


def test_a_new_library_has_both_tables_with_their_ids_never_given_twice(seed_lib):
    tops = dict(seed_lib.db.execute("SELECT name, top FROM id_tops"))
    assert tops["attachments"] == 0 and tops["highlights"] == 0
    aid, changes = _attach(seed_lib, 1, "aa")
    seed_lib.undo(changes.undo)
    again, _ = _attach(seed_lib, 1, "aa")
    assert again == aid + 1  # the undone attachment's id is not given again


def test_attaching_and_highlighting_are_undone_and_redone_exactly(seed_lib):
    before = content(seed_lib.path)
    aid, attached = _attach(seed_lib, 1, "aa")
    assert attached.kinds == {ch.ATTACHMENTS} and 1 in attached.paper_ids
    assert ch.DETAIL in attached.views
    marked = _highlight(seed_lib, aid, "known phrase")
    after = content(seed_lib.path)
    assert len(after["highlights"]) == 1
    seed_lib.undo(marked.undo)
    seed_lib.undo(attached.undo)
    assert content(seed_lib.path) == before
    seed_lib.redo(attached.undo)
    seed_lib.redo(marked.undo)
    assert content(seed_lib.path) == after


def test_removing_an_attachment_takes_its_highlights_and_undo_brings_both(seed_lib):
    aid, _ = _attach(seed_lib, 1, "aa")
    _highlight(seed_lib, aid, "one")
    before = content(seed_lib.path)
    with seed_lib.edit("Remove", {ch.ATTACHMENTS}, [1]) as e:
        assert attachments_table.delete(seed_lib.db, aid)
    assert content(seed_lib.path)["highlights"] == []
    seed_lib.undo(e.changes.undo)
    assert content(seed_lib.path) == before


def test_a_merge_moves_attachments_and_keeps_an_identical_file_once(seed_lib):
    kept, _ = _attach(seed_lib, 1, "same")
    twin, _ = _attach(seed_lib, 2, "same")
    other, _ = _attach(seed_lib, 2, "other", "b.pdf")
    _highlight(seed_lib, twin, "on the twin")
    before = content(seed_lib.path)
    merged = seed_lib.duplicates.merge(1, [2])
    rows = attachments_table.of_papers(seed_lib.db, [1, 2])
    assert [(r["id"], r["paper_id"]) for r in rows] == [(kept, 1), (other, 1)]
    marks = highlights_table.of_attachments(seed_lib.db, [kept, twin])
    assert [(h["attachment_id"], h["text"]) for h in marks] == [(kept, "on the twin")]
    seed_lib.undo(merged.undo)
    assert content(seed_lib.path) == before


def test_emptying_the_trash_takes_attachments_and_undo_puts_them_back(seed_lib):
    aid, _ = _attach(seed_lib, 3, "aa")
    _highlight(seed_lib, aid, "kept in the trash")
    seed_lib.trash.delete([3])
    assert attachments_table.get(seed_lib.db, aid) is not None  # the trash keeps them
    before = content(seed_lib.path)
    emptied = seed_lib.trash.empty()
    assert content(seed_lib.path)["attachments"] == []
    assert content(seed_lib.path)["highlights"] == []
    seed_lib.undo(emptied.undo)
    assert content(seed_lib.path) == before


def test_the_same_file_twice_on_one_paper_is_refused_by_the_table(seed_lib):
    _attach(seed_lib, 1, "aa")
    with pytest.raises(LibraryError, match="UNIQUE"):
        _attach(seed_lib, 1, "aa")
    assert len(attachments_table.of_papers(seed_lib.db, [1])) == 1
