"""The change feed: one listener hears every committed write, undo and redo."""

from __future__ import annotations

import pytest

from paperdesk.core.bibtex.citekey import freeze
from paperdesk.core.curation.curation import CurationError
from paperdesk.core.db import changes as ch
from paperdesk.core.model.errors import NotFound
from tests.core.test_duplicates import add_copy


@pytest.fixture
def heard(seed_lib):
    got: list[ch.Changes] = []
    seed_lib.add_listener(got.append)
    yield got
    seed_lib.remove_listener(got.append)


def test_an_edit_is_heard_once_after_its_commit(seed_lib, heard):
    seen_committed = []
    seed_lib.add_listener(lambda c: seen_committed.append(seed_lib.db.conn.in_transaction))
    changes = seed_lib.curation.set_rating([1, 2], 4)
    assert heard == [changes]
    assert heard[0].kinds == {ch.PAPERS} and heard[0].paper_ids == {1, 2}
    assert seen_committed == [False]


def test_undo_and_redo_are_heard(seed_lib, heard):
    changes = seed_lib.curation.add_tags([3], ["x"])
    seed_lib.undo(changes.undo)
    seed_lib.redo(changes.undo)
    assert len(heard) == 3
    assert all(ch.TAGS in c.kinds and 3 in c.paper_ids for c in heard)


def test_a_failed_or_empty_edit_is_not_heard(seed_lib, heard):
    with pytest.raises(CurationError):
        seed_lib.curation.set_rating([1], 9)
    seed_lib.curation.set_rating([1], 0)  # already 0: nothing changes
    assert heard == []


def test_imports_are_heard_with_their_papers(lib, seeds):
    got: list[ch.Changes] = []
    lib.add_listener(got.append)
    reports = lib.import_paths(seeds[:1])
    assert len(got) == 1 and ch.PAPER_SET in got[0].kinds
    assert got[0].paper_ids == set(reports[0].paper_ids)
    lib.import_paths(seeds[:1])  # already imported: nothing written, nothing heard
    assert len(got) == 1


def test_transaction_writes_are_heard_with_their_kinds(seed_lib, heard):
    with seed_lib.transaction():
        seed_lib.db.execute("UPDATE papers SET rating = 2 WHERE id = 1")
    with seed_lib.transaction(kinds=[ch.DUPLICATES]):
        seed_lib.db.execute("DELETE FROM duplicate_candidates")
        seed_lib.db.execute("INSERT INTO duplicate_candidates VALUES (1)")
    with seed_lib.transaction():
        pass  # nothing written
    assert [c.kinds for c in heard] == [ch.ALL_KINDS, {ch.DUPLICATES}]


def test_a_rolled_back_transaction_is_not_heard(seed_lib, heard):
    with pytest.raises(RuntimeError), seed_lib.transaction():
        seed_lib.curation.set_rating([1], 3)  # nested: queued until the outer commit
        raise RuntimeError
    assert heard == []
    assert seed_lib.paper(1)["rating"] == 0
    seed_lib.curation.set_rating([1], 3)
    assert len(heard) == 1


def test_a_failing_listener_does_not_undo_the_write(seed_lib, heard):
    def broken(_changes):
        raise ValueError("boom")

    seed_lib.add_listener(broken)
    seed_lib.curation.set_rating([1], 5)
    assert seed_lib.paper(1)["rating"] == 5 and len(heard) == 1


def test_freeze_marks_keys_once(seed_lib):
    assert seed_lib.db.execute("SELECT count(*) FROM frozen_keys").fetchone()[0] == 0
    assert freeze(seed_lib.db, [1, 2, 2]) == 2
    assert freeze(seed_lib.db, [1, 2, 3]) == 1
    frozen = [r[0] for r in seed_lib.db.execute(
        "SELECT id FROM papers WHERE id IN frozen_keys ORDER BY id")]
    assert frozen == [1, 2, 3]


def test_a_listener_hears_each_committed_edit_once_with_its_views(seed_lib):
    heard: list[ch.Changes] = []
    seed_lib.add_listener(heard.append)
    ids = seed_lib.search("").ids[:3]
    rated = seed_lib.curation.set_rating(ids, 4)
    assert heard == [rated]
    assert rated.how == ch.DONE and rated.result.changed == 3 and rated.result["changed"] == 3
    assert {ch.TABLE_ROWS, ch.DETAIL, ch.SIDEBAR_COUNTS} <= rated.views
    assert ch.TABLE_SET not in rated.views and ch.DUPLICATE_GROUPS not in rated.views
    trashed = seed_lib.trash.delete(ids[:1])
    assert heard[-1] is trashed and ch.TABLE_SET in trashed.views and ch.TRASH in trashed.views
    seed_lib.remove_listener(heard.append)
    seed_lib.curation.set_rating(ids, 2)
    assert len(heard) == 2


def test_undo_and_redo_are_announced_and_say_so(seed_lib):
    heard: list[ch.Changes] = []
    seed_lib.add_listener(heard.append)
    pid = seed_lib.search("").ids[0]
    added = seed_lib.curation.add_tags([pid], ["feed"])
    undone = seed_lib.undo(added.undo)
    redone = seed_lib.redo(added.undo)
    assert heard == [added, undone, redone]
    assert [c.how for c in heard] == [ch.DONE, ch.UNDONE, ch.REDONE]
    assert all(ch.TAGS in c.kinds and pid in c.paper_ids for c in heard)


def test_a_write_that_fails_is_rolled_back_and_not_announced(seed_lib):
    heard: list[ch.Changes] = []
    seed_lib.add_listener(heard.append)
    with pytest.raises(NotFound):
        seed_lib.curation.set_rating([999_999], 3)
    with pytest.raises(ZeroDivisionError), seed_lib.write("Broken", {ch.PAPERS}):
        seed_lib.db.execute("UPDATE papers SET rating = 5")
        1 / 0  # noqa: B018
    assert heard == []
    assert seed_lib.search("rating>=5").ids == []


def test_writes_inside_a_write_are_announced_with_it(seed_lib):
    heard: list[ch.Changes] = []
    seed_lib.add_listener(heard.append)
    ids = seed_lib.search("").ids[:2]
    with seed_lib.write("Both", {ch.PAPERS}, ids) as w:
        seed_lib.curation.set_rating(ids[:1], 1)
        seed_lib.curation.set_status(ids[1:], "read")
    assert heard == [w.changes] and heard[0].label == "Both"
    with seed_lib.transaction() as db:  # a raw write: anything may have changed
        db.execute("UPDATE papers SET rating = 0 WHERE id = ?", ids[:1])
    assert heard[-1].kinds == ch.ALL_KINDS and heard[-1].views == ch.ALL_VIEWS


def test_import_scan_and_merge_all_return_their_changes(lib, seeds):
    heard: list[ch.Changes] = []
    lib.add_listener(heard.append)
    result = lib.import_paths(seeds[:2])
    assert [r.status for r in result] == ["imported", "imported"]
    assert len(heard) == 2 and all(c.label.startswith("Import ") for c in heard)
    assert result.changes.kinds >= {ch.PAPER_SET, ch.DIGESTS}
    assert result.changes.paper_ids == heard[0].paper_ids | heard[1].paper_ids
    assert ch.TABLE_SET in result.changes.views
    again = lib.import_paths(seeds[:1])
    assert again[0].status == "already imported" and not again.changes and len(heard) == 2
    scan = lib.duplicates.scan()
    assert list(scan) == [] and not scan.changes and len(heard) == 2  # nothing written
    original = lib.search("").ids[0]
    copy = add_copy(lib, original)
    scan = lib.duplicates.scan()
    assert [sorted(g.ids) for g in scan] == [sorted([original, copy])]
    assert heard[-1] is scan.changes and scan.changes.kinds == {ch.CANDIDATES}
    assert scan.changes.views == {ch.DUPLICATE_GROUPS, ch.SIDEBAR_COUNTS}
    merged = lib.duplicates.merge_all_certain()
    assert heard[-1] is merged and merged.result.groups == 1 and merged.result["papers"] == 1
    assert {original, copy} <= merged.paper_ids and merged.undo is not None
