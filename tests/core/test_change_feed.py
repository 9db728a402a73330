"""The change feed: one listener hears every committed write, undo and redo."""

from __future__ import annotations

import pytest

from paperdesk.core import changes as ch
from paperdesk.core.citekey import freeze
from paperdesk.core.curation import CurationError


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
    assert seed_lib.db.execute("SELECT sum(citekey_frozen) FROM papers").fetchone()[0] == 0
    assert freeze(seed_lib.db, [1, 2, 2]) == 2
    assert freeze(seed_lib.db, [1, 2, 3]) == 1
    frozen = [r[0] for r in seed_lib.db.execute(
        "SELECT id FROM papers WHERE citekey_frozen = 1 ORDER BY id")]
    assert frozen == [1, 2, 3]
