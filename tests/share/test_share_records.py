"""The rows beside the papers' own fields travel (``core/share/records.py``): saved
searches, pairs marked as different works, notes' times, published versions, digests
and their sightings.
Each test edits one real library, exchanges through one real folder, and reads the
other through the commands that show those rows."""

from __future__ import annotations

import json

import pytest

from paperdesk.core.db.changes import SHARED
from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.digest_files import write_entries
from tests.share.sharing import digest, exchange, library, pair, uid_ids, view


@pytest.fixture
def two(tmp_path):
    with pair(tmp_path) as libraries:
        yield libraries


def cli(lib: Library, *args: str):
    return json.loads(paperdesk("--library", lib.path, *args, check_rc=0).stdout)


def test_saved_searches_travel_and_their_deletes_and_edits_too(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.curation.save_search("Top rated", "rating>=4")
    a.share.start(folder)
    b.share.start(folder)
    assert cli(b, "search", "list", "--json") == [{"name": "Top rated", "query": "rating>=4"}]
    b.curation.save_search("Top rated", "rating>=5")
    b.curation.save_search("Queue", "status:to-read")
    exchange(b, a)
    listed = cli(a, "search", "list", "--json")
    assert listed == [{"name": "Queue", "query": "status:to-read"},
                      {"name": "Top rated", "query": "rating>=5"}] == cli(b, "search", "list",
                                                                             "--json")
    a.curation.delete_search("Queue")
    exchange(a, b)
    assert [s["name"] for s in cli(b, "search", "list", "--json")] == ["Top rated"]


def _likely_pair(folder):
    abstract = "We study how memory grows with context length in transformer models."
    return write_entries(folder, "pair.txt", 3, 4, [
        ("Scaling Memory for Long Context Models", abstract, 5),
        ("Scaling Memroy for Long Context Models", abstract, 7)])


def test_a_pair_marked_different_is_not_offered_again_elsewhere(two, tmp_path):
    a, b, folder = two
    (tmp_path / "d").mkdir()
    a.import_paths([_likely_pair(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    assert len(cli(b, "duplicates", "--json")) == 1
    a.duplicates.mark_different(sorted(uid_ids(a).values()))
    a.share.now()
    changes = b.share.now()
    assert changes.how == SHARED
    assert cli(b, "duplicates", "--json") == []
    b.undo(changes.undo)  # undone here: offered again, and the mark leaves the folder
    assert len(cli(b, "duplicates", "--json")) == 1
    exchange(b, a)
    assert len(cli(a, "duplicates", "--json")) == 1


def test_a_note_shows_the_times_it_was_written_on_every_computer(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    a.curation.add_note(uid_ids(a)[uid], "read the appendix")
    (note,) = a.curation.notes(uid_ids(a)[uid])
    _age(a, note["id"])
    exchange(a, b)
    shown = cli(b, "show", str(uid_ids(b)[uid]), "--json")
    assert [(n["text"], n["created"], n["updated"]) for n in shown["notes"]] == [
        ("read the appendix", "2026-01-01T09:00:00+00:00", "2026-01-02T09:00:00+00:00")]
    sent = a.share.now().result.sent
    assert sent == 0  # what arrived reads back the same: nothing goes round again


def _age(lib: Library, note_id: int) -> None:
    """Times a day apart from now, so that a copy made now could not match them."""
    from paperdesk.core.db import notes_table

    with lib.edit("Age", ["notes"]):
        notes_table.set_times(lib.db, [(note_id, "2026-01-01T09:00:00+00:00",
                                        "2026-01-02T09:00:00+00:00")])


def test_digests_and_sightings_travel_with_upvotes_and_counts(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    a.import_paths([digest(tmp_path / "e", "later.txt", papers=range(5, 12))])
    exchange(a, b)
    assert view(a) == view(b)
    listed = lambda lib: sorted(  # noqa: E731
        (p["uid"], p["digests"], p["seen_count"], p["upvotes"])
        for p in cli(lib, "list", "--json"))
    assert listed(a) == listed(b) and len(listed(b)) == 11
    uid = next(u for u, p in view(a)["papers"].items() if p["seen_count"] == 2)
    seen = cli(b, "show", str(uid_ids(b)[uid]), "--json")
    assert len(seen["sightings"]) == 2 and seen["seen_count"] == 2
    assert [s["digest"] for s in seen["sightings"]] == ["daily.txt", "later.txt"]


def test_the_same_digest_imported_on_both_is_one_digest(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    b.import_paths([digest(tmp_path / "e")])
    a.share.start(folder)
    b.share.start(folder)
    exchange(a, b)
    assert [len(p["digests"]) for p in cli(b, "list", "--json")] == [1] * 8
    assert len(b.digests()) == 1 == len(a.digests())
    assert all(p["seen_count"] == 1 for p in view(b)["papers"].values())
    assert view(a) == view(b)


def test_a_merge_moves_the_sightings_to_the_kept_paper_everywhere(two, tmp_path):
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    keep, gone = sorted(uid_ids(a))[:2]
    a.duplicates.merge(uid_ids(a)[keep], [uid_ids(a)[gone]])
    exchange(a, b)
    seen = cli(b, "show", str(uid_ids(b)[keep]), "--json")
    assert len(seen["sightings"]) == 2 and seen["seen_count"] == 1
    assert view(a) == view(b)


def _sighted(lib: Library) -> dict[str, list[int]]:
    """{paper's stable id: the positions of the digest entries it holds}."""
    held: dict[str, list[int]] = {}
    for uid, position in lib.db.execute(
            "SELECT p.uid, s.position FROM sightings s JOIN papers p ON p.id = s.paper_id "
            "ORDER BY s.position"):
        held.setdefault(uid, []).append(position)
    return held


def test_an_unmerge_here_and_a_merge_of_the_kept_paper_there_keep_every_sighting(
        two, tmp_path):
    """A merges Q into P; then, before they meet again, A unmerges Q and B merges P
    into R. Q's entry goes back to Q and P's to R, on both and on a third computer:
    no entry is lost, no count says what the sightings do not."""
    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    p, q, r = sorted(uid_ids(a))[:3]
    own = _sighted(a)
    a.duplicates.merge(uid_ids(a)[p], [uid_ids(a)[q]])
    exchange(a, b)
    assert _sighted(b)[p] == sorted(own[p] + own[q])
    a.duplicates.unmerge(a.duplicates.history()[0]["id"])
    b.duplicates.merge(uid_ids(b)[r], [uid_ids(b)[p]])
    exchange(a, b)
    c = library(tmp_path / "c" / "c.sqlite")
    c.share.start(folder)
    for lib in (a, b, c):
        held = _sighted(lib)
        assert held[q] == own[q] and held[r] == sorted(own[r] + own[p]), lib.path
        assert sum(len(v) for v in held.values()) == 8
        assert lib.paper(uid_ids(lib)[q])["seen_count"] == 1
    assert view(a) == view(b) == view(c)
    c.close()


def test_a_published_version_accepted_on_one_is_exported_on_the_other(two, tmp_path):
    from paperdesk.core.hub.published import Venue

    a, b, folder = two
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uid = sorted(uid_ids(a))[0]
    a.published.accept(uid_ids(a)[uid], Venue("inproceedings", "NeurIPS", 2025, "1--9",
                                              None, None, "dblp"))
    exchange(a, b)
    out = paperdesk("--library", b.path, "export", "--ids", str(uid_ids(b)[uid]), check_rc=0)
    assert "@inproceedings" in out.stdout and "NeurIPS" in out.stdout
    b.published.forget(uid_ids(b)[uid])
    exchange(b, a)
    out = paperdesk("--library", a.path, "export", "--ids", str(uid_ids(a)[uid]), check_rc=0)
    assert "@inproceedings" not in out.stdout
