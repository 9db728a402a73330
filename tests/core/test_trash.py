"""Deleting to the trash, restoring, emptying, and undoing each."""

from __future__ import annotations

import pytest

from paperdesk.core.model.errors import NotFound
from tests.core.test_import import content


def test_delete_hides_papers_and_restore_brings_them_back(seed_lib):
    ids = seed_lib.search("scaling").ids[:3]
    seed_lib.trash.delete(ids)
    assert not set(ids) & set(seed_lib.search("scaling").ids)
    assert set(seed_lib.trash.ids()) == set(ids)
    assert seed_lib.stats()["papers"] == 190 and seed_lib.stats()["trash"] == 3
    seed_lib.trash.restore(ids)
    assert set(ids) <= set(seed_lib.search("scaling").ids)
    assert seed_lib.trash.ids() == []


def test_delete_is_undone_exactly(seed_lib):
    before = content(seed_lib.path)
    changes = seed_lib.trash.delete([1, 2])
    assert content(seed_lib.path) != before
    seed_lib.undo(changes.undo)
    assert content(seed_lib.path) == before
    seed_lib.redo(changes.undo)
    assert set(seed_lib.trash.ids()) == {1, 2}


def test_empty_deletes_for_good_and_undo_restores_everything(seed_lib):
    seed_lib.db.execute("INSERT INTO tags (id, name, name_key) VALUES (1, 'Keep', 'keep')")
    seed_lib.db.execute("INSERT INTO paper_tags VALUES (2, 1)")
    seed_lib.db.execute("INSERT INTO notes (paper_id, text, created, updated) "
                        "VALUES (2, 'a note', 'x', 'x')")
    seed_lib.trash.delete([2, 3])
    before = content(seed_lib.path)
    changes = seed_lib.trash.empty()
    assert changes.result["deleted"] == 2
    assert seed_lib.db.execute("SELECT count(*) FROM papers").fetchone()[0] == 191
    assert seed_lib.db.execute("SELECT count(*) FROM sightings WHERE paper_id IN (2, 3)"
                               ).fetchone()[0] == 0
    seed_lib.undo(changes.undo)
    assert content(seed_lib.path) == before


def test_deleting_a_missing_paper_is_refused(seed_lib):
    before = content(seed_lib.path)
    with pytest.raises(NotFound, match="no paper with id 999"):
        seed_lib.trash.delete([1, 999])
    assert content(seed_lib.path) == before


def test_undoing_a_trash_move_reports_papers_coming_and_going(seed_lib):
    changes = seed_lib.trash.delete([5])
    assert "paper_set" in changes.kinds
    undone = seed_lib.undo(changes.undo)
    assert "paper_set" in undone.kinds and 5 in undone.paper_ids
    rated = seed_lib.curation.set_rating([5], 3)
    assert "paper_set" not in seed_lib.undo(rated.undo).kinds
