"""Momentum, undoing an import, and hints for queries that find nothing."""

from __future__ import annotations

import pytest

from paperdesk.core.importing import import_undo
from paperdesk.core.search.query_hints import empty_message, hint
from tests.digest_files import growing_digests, paper, write_digest


def test_momentum_is_upvotes_gained_per_day_and_sorts(lib, tmp_path):
    lib.import_paths(growing_digests(tmp_path / "d", papers=5, days=3))
    ids = lib.search(sort="momentum", descending=True).ids
    papers = lib.papers(ids)
    # paper n gains 3n upvotes a day: 21n a week over two weeks
    assert [p["title"] for p in papers] == [paper(n)[0] for n in (5, 4, 3, 2, 1)]
    assert [p["momentum"] for p in papers] == pytest.approx([15.0, 12.0, 9.0, 6.0, 3.0])


def test_momentum_needs_two_days_and_follows_sightings(lib, tmp_path):
    lib.import_paths([write_digest(tmp_path, "a.txt", 3, 1, {1: 10, 2: None})])
    assert {p["momentum"] for p in lib.papers(lib.search().ids)} == {None}
    reports = lib.import_paths([write_digest(tmp_path, "b.txt", 3, 11, {1: 60})])
    (p1,) = lib.search('"Task 1"').ids
    assert lib.paper(p1)["momentum"] == pytest.approx(5.0)
    import_undo.undo_import(lib, import_undo.record(lib, reports))  # its sighting goes
    assert lib.paper(p1)["momentum"] is None


def test_undo_import_removes_what_it_created_and_keeps_later_work(seed_lib, seeds, tmp_path):
    lib = seed_lib
    before = {p["id"]: (p["upvotes"], p["seen_count"]) for p in lib.papers(lib.search().ids)}
    files = growing_digests(tmp_path / "g", papers=4, days=2)
    reports = lib.import_paths(files)
    rec = import_undo.record(lib, reports)
    assert len(rec.created) == 4 and len(rec.digest_ids) == 2
    created = sorted(rec.created)
    old = next(iter(before))
    lib.curation.set_rating([created[0]], 5)          # worked on since: to the trash
    lib.curation.add_note(created[1], "keep my words")  # worked on since: to the trash
    lib.curation.add_tags([old], ["mine"])            # an older paper: untouched
    later = lib.import_paths([write_digest(tmp_path, "later.txt", 4, 2, {3: 99})])
    assert later[0].new_papers == 0  # paper 3 seen again by a later import: it stays

    changes = import_undo.undo_import(lib, rec)
    assert changes.result["deleted"] == 1 and changes.result["trashed"] == 2
    assert changes.result["kept"] == 1 and changes.result["digests"] == 2
    assert lib.stats()["digests"] == 6
    alive = set(lib.search().ids)
    assert set(before) < alive and len(alive) == len(before) + 1
    trashed = [r[0] for r in lib.db.execute("SELECT id FROM papers WHERE deleted_at IS NOT NULL")]
    assert sorted(trashed) == created[:2]
    assert lib.paper(created[1])["notes"][0]["text"] == "keep my words"
    assert lib.paper(old)["tags"] == ["mine"]
    kept = lib.paper(created[2])
    assert kept["seen_count"] == 1 and kept["upvotes"] == 99
    assert {p["id"]: (p["upvotes"], p["seen_count"]) for p in lib.papers(list(before))} == before

    lib.undo(changes.undo)  # the undo of the undo puts the import back
    assert lib.stats()["digests"] == 8 and len(lib.search().ids) == len(before) + 4
    lib.redo(changes.undo)
    assert lib.stats()["digests"] == 6
    with pytest.raises(import_undo.ImportUndoError):
        import_undo.undo_import(lib, import_undo.record(lib, []))


def test_hints_name_the_value_probably_meant(seed_lib):
    lib = seed_lib
    lib.curation.add_tags(lib.search().ids[:2], ["reinforcement"])
    assert hint(lib, "status:toread") is None  # an alias, it works
    assert lib.search("status:toread").ids == lib.search("status:to-read").ids
    assert "did you mean to-read?" in hint(lib, "status:to_reed")
    assert "did you mean tag:reinforcement?" in hint(lib, "tag:reinforcment")
    assert hint(lib, "tag:reinforcement") is None
    assert "did you mean has:notes?" in hint(lib, "has:note")
    assert "did you mean status:?" in hint(lib, "stauts:read")
    assert hint(lib, "scaling") is None
    message = empty_message(lib, "tag:reinforcment", "All papers")
    assert message.startswith("No papers match “tag:reinforcment” in “All papers”.")
    assert message.endswith("No tag “reinforcment”; did you mean tag:reinforcement?")


def test_queue_moves_blocks_and_undoes(seed_lib):
    from paperdesk.core.curation import queue

    lib = seed_lib
    ids = lib.search(sort="title").ids[:6]
    lib.curation.set_status(ids, "to-read")
    assert lib.curation.reading_list() == ids
    a, b, c, d, e, f = ids
    moved = queue.move_to(lib, [e, b], 0)  # kept in queue order: b before e
    assert lib.curation.reading_list() == [b, e, a, c, d, f]
    assert queue.step(lib, [a], -1).result["index"] == 1
    assert lib.curation.reading_list() == [b, a, e, c, d, f]
    queue.to_bottom(lib, [b])
    assert lib.curation.reading_list() == [a, e, c, d, f, b]
    queue.to_top(lib, [f, d])
    assert lib.curation.reading_list() == [d, f, a, e, c, b]
    assert queue.next_up(lib)["id"] == d
    assert not queue.to_top(lib, [d])  # already there: nothing changes
    lib.undo(moved.undo)
    assert lib.curation.reading_list() == ids
    other = lib.search(sort="title").ids[10]
    with pytest.raises(Exception, match="not in the reading queue"):
        queue.step(lib, [other], 1)


def test_triage_lists_a_digest_in_order_with_evidence(lib, tmp_path):
    from paperdesk.core.curation import triage

    files = growing_digests(tmp_path / "g", papers=3, days=3)
    reports = lib.import_paths(files)
    extra = lib.import_paths([write_digest(tmp_path, "x.txt", 3, 20, {9: 2, 2: 100, 7: None})])
    last = extra[0].digest_id
    ids = triage.digest_papers(lib, [last])
    assert [lib.paper(i)["title"] for i in ids] == [paper(n)[0] for n in (9, 2, 7)]
    assert [lib.paper(i)["title"] for i in triage.digest_papers(lib, [last], only_new=True)] \
        == [paper(n)[0] for n in (9, 7)]
    two = ids[1]
    ev = triage.evidence(lib.sightings(two))
    assert ev["text"] == "seen in 4 digests, upvotes 5 → 100"
    assert triage.evidence(lib.sightings(ids[2]))["text"] == "seen in 1 digest"
    assert triage.evidence(lib.sightings(ids[0]))["text"] == "seen in 1 digest, 2 upvotes"
    assert reports[0].digest_id < last
