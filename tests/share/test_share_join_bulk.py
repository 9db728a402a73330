"""A computer joining a share with many papers writes them in sets: the sightings with
their insert triggers off and the papers' counts and momentum made after
(``store.sightings_in_bulk``), the indexes new rows enter out of order built once after
the papers (``store.papers_in_bulk``), and the document kept as the folder's file held
it (``folder.Read.whole``). Each must leave the library as the row-by-row path leaves
it: the counts and momentum of the first computer, every trigger and index in place
and working, an undoable write."""

from __future__ import annotations

import sqlite3

import pytest

from paperdesk.core.db import schema, share_table
from paperdesk.core.share import files, folder
from tests.digest_files import growing_digests, write_digest
from tests.share.killing import killed_when_marked
from tests.share.sharing import library

PAPERS = 260  # three digests of them: 780 sightings, above annotations.BULK_PAPERS


def _counts(lib) -> dict[str, tuple]:
    return {uid: (up, seen, None if m is None else round(m, 9))
            for uid, up, seen, m in lib.db.execute(
                "SELECT uid, upvotes, seen_count, momentum FROM papers")}


def _names(lib, kind: str) -> set[str]:
    return {r[0] for r in lib.db.execute("SELECT name FROM sqlite_master WHERE type = ?",
                                         [kind])}


def test_a_joining_computer_counts_each_paper_as_the_first_and_keeps_its_triggers(tmp_path):
    shared = tmp_path / "Sync"
    shared.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    try:
        a.import_paths(growing_digests(tmp_path / "d", papers=PAPERS, days=3))
        a.share.start(shared)
        triggers, indexes = _names(b, "trigger"), _names(b, "index")
        changes = b.share.start(shared)
        first = _counts(a)
        assert len(first) == PAPERS and _counts(b) == first
        assert sum(m is not None for _, _, m in first.values()) == PAPERS  # momentum: all
        assert _names(b, "trigger") == triggers and _names(b, "index") == indexes
        assert set(schema.LOAD_INDEXES) <= indexes
        assert b.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # the join is one write, undone whole and redone with the same counts
        b.undo(changes.undo)
        assert b.stats()["papers"] == 0
        b.redo(changes.undo)
        assert _counts(b) == first
        # the triggers count a digest read after the join as they count it on the first
        later = write_digest(tmp_path / "d", "daily-2025-03-22.txt", 3, 22,
                             {n: 900 + n for n in range(1, 40)})
        a.import_paths([later])
        b.import_paths([later])
        assert _counts(b) == _counts(a) != first
    finally:
        a.close()
        b.close()


def test_a_joining_computer_with_papers_of_its_own_keeps_them_and_their_counts(tmp_path):
    """The papers arriving double the library: the indexes are set aside for the block
    and the papers there already keep their rows and are found by them after."""
    shared = tmp_path / "Sync"
    shared.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    try:
        a.import_paths(growing_digests(tmp_path / "d", papers=PAPERS, days=2))
        (tmp_path / "own").mkdir()
        own = write_digest(tmp_path / "own", "daily-2025-05-01.txt", 5, 1,
                           {n: 40 + n for n in range(500, 510)})
        b.import_paths([own])
        before = _counts(b)
        a.share.start(shared)
        b.share.start(shared)
        after = _counts(b)
        assert {u: after[u] for u in before} == before
        assert {u: v for u, v in after.items() if u not in before} == _counts(a)
        assert set(schema.LOAD_INDEXES) <= _names(b, "index")
        mine = b.search("Paper 503", limit=5).ids
        assert [b.paper(i)["title"] for i in mine][:1] == [
            "Paper 503: Deep Attention for Task 503"]
        assert b.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert b.stats()["papers"] == PAPERS + 10
    finally:
        a.close()
        b.close()


def test_a_new_computer_keeps_the_document_as_the_folders_file_holds_it(tmp_path):
    """Read from one whole document into an empty one, the document is kept in the
    library as the file's bytes, not exported again; it loads and exchanges after."""
    shared = tmp_path / "Sync"
    shared.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    try:
        a.import_paths(growing_digests(tmp_path / "d", papers=30, days=2))
        a.share.start(shared)
        (name,) = folder.names(shared)
        _head, data = files.unpack((shared / name).read_bytes())
        b.share.start(shared)
        stored = [r[0] for r in b.db.execute("SELECT data FROM share_doc ORDER BY seq")]
        assert stored == [data]
        assert share_table.get(b.db, "where") == str(shared)
    finally:
        b.close()
    b = library(tmp_path / "b" / "b.sqlite")
    try:
        pid = b.search("", limit=1).ids[0]
        uid = b.paper(pid)["uid"]
        b.curation.set_rating([pid], 4)
        b.share.now()
        a.share.now()
        got = sqlite3.connect(tmp_path / "a" / "a.sqlite").execute(
            "SELECT rating FROM papers WHERE uid = ?", [uid]).fetchone()
        assert got == (4,)
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("point", ["papers", "sightings", "stored"])
def test_a_join_killed_inside_its_sets_leaves_the_library_whole(tmp_path, point):
    """kill -9 inside a set-based block (indexes set aside, triggers dropped, the
    document being kept): the library is as it was, every trigger and index in place,
    and the next join brings everything, counted as on the first computer."""
    shared = tmp_path / "Sync"
    shared.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    try:
        a.import_paths(growing_digests(tmp_path / "d", papers=PAPERS, days=3))
        a.share.start(shared)
        schema_before = _schema(b)
        b.close()
        _killed_in(tmp_path / "b" / "b.sqlite", shared, tmp_path / "marker", point)
        b = library(tmp_path / "b" / "b.sqlite")
        assert b.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert _schema(b) == schema_before
        assert b.stats()["papers"] == 0
        b.share.start(shared)
        assert _counts(b) == _counts(a)
        assert _schema(b) == schema_before
    finally:
        a.close()
        b.close()


def _schema(lib) -> list[tuple]:
    return sorted(lib.db.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN "
                                 "('index', 'trigger')"))


def _killed_in(path, shared, marker, point) -> None:
    killed_when_marked("tests.share.join_child", [str(path), str(shared), str(marker), point],
                       marker)
