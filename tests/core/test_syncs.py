"""Kept-in-sync files: what goes in, written whole and atomically, only when the bytes
change, reusing unchanged entries byte for byte, and never over someone else's edits."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from paperdesk.core.sync import sync_write
from paperdesk.core.sync.sync_feed import Pending, catch_up, concerned
from paperdesk.core.sync.syncs import CONFLICT, FAILED, OK, SyncError
from tests.conftest import SEED_PAPERS


@pytest.fixture
def feed(seed_lib):
    pending = Pending()
    seed_lib.add_listener(pending.hear)
    yield pending
    seed_lib.remove_listener(pending.hear)


def _full(lib, sync) -> bytes:
    """The file's bytes made from scratch (no entry reused)."""
    return bytes(sync_write.render(lib, sync, lib.syncs.members(sync), None, None, None)[0])


def _papers(lib):
    return lib.db.execute("SELECT * FROM papers ORDER BY id").fetchall()


def test_the_whole_library_is_written_and_its_keys_frozen(seed_lib, tmp_path):
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    assert sync.state == "new"
    out = seed_lib.syncs.write(sync)
    assert (out.state, out.written, out.entries) == (OK, True, SEED_PAPERS)
    assert (tmp_path / "refs.bib").read_text(encoding="utf-8") == seed_lib.bibtex.export()
    assert seed_lib.db.execute("SELECT count(*) FROM papers WHERE id NOT IN frozen_keys"
                               ).fetchone()[0] == 0
    stored = seed_lib.syncs.get(tmp_path / "refs.bib")
    assert stored.state == OK and stored.entries == SEED_PAPERS and stored.written_at
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_only_the_papers_that_go_in_are_frozen(seed_lib, tmp_path):
    seed_lib.curation.add_tags([3, 5], ["cite"])
    out = seed_lib.syncs.write(seed_lib.syncs.add(tmp_path / "t.bib", "tag", "CITE"))
    assert out.entries == 2
    frozen = [r[0] for r in seed_lib.db.execute(
        "SELECT id FROM papers WHERE id IN frozen_keys ORDER BY id")]
    assert frozen == [3, 5]


@pytest.mark.parametrize("style", ["bibtex", "biblatex", "csl-json"])
def test_entries_are_reused_and_the_file_matches_a_fresh_write(seed_lib, feed, tmp_path,
                                                               style, seeds):
    whole = seed_lib.syncs.add(tmp_path / f"all.{style}", style=style, ascii=True)
    tagged = seed_lib.syncs.add(tmp_path / f"tag.{style}", "query", "tag:x OR rating>=4",
                                style=style)
    for sync in (whole, tagged):
        seed_lib.syncs.write(sync)
    feed.take()

    def check():
        for out in catch_up(seed_lib, feed):
            assert out.state == OK, out.message
        for sync in seed_lib.syncs.all():
            assert Path(sync.path).read_bytes() == _full(seed_lib, sync), sync.path

    seed_lib.curation.add_tags([1, 2, 3], ["x", "Élan"])
    check()
    seed_lib.curation.set_rating([7, 8], 5)
    check()
    changes = seed_lib.curation.rename_tag("Élan", "élan vital")
    check()
    seed_lib.undo(changes.undo)
    check()
    seed_lib.bibtex.set_citekey(2, "mine2024")
    check()
    seed_lib.trash.delete([1, 7])
    check()
    seed_lib.duplicates.merge(3, [4])
    check()
    if style == "csl-json":
        items = json.loads(Path(tagged.path).read_text(encoding="utf-8"))
        assert "mine2024" in {i["id"] for i in items}


def test_unchanged_bytes_are_not_written_again(seed_lib, feed, tmp_path):
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    seed_lib.syncs.write(sync)
    before = os.stat(sync.path)
    seed_lib.curation.set_rating([1], 3)  # ratings are not in the file
    seed_lib.curation.add_note(1, "notes are not either")
    assert feed.dirty
    (out,) = catch_up(seed_lib, feed)
    assert out.state == OK and not out.written
    after = os.stat(sync.path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_file_changed_by_someone_else_is_left_alone(seed_lib, feed, tmp_path):
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    seed_lib.syncs.write(sync)
    path = tmp_path / "refs.bib"
    mine = path.read_bytes() + b"\n% my own entry\n"
    path.write_bytes(mine)
    seed_lib.curation.add_tags([1], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert out.state == CONFLICT and "changed by someone else" in out.message
    assert path.read_bytes() == mine
    assert seed_lib.syncs.get(path).state == CONFLICT
    seed_lib.curation.add_tags([2], ["x"])
    assert catch_up(seed_lib, feed) == []  # stopped until the user says
    out = seed_lib.syncs.write(seed_lib.syncs.get(path), overwrite=True)
    assert out.written and path.read_bytes() == _full(seed_lib, seed_lib.syncs.get(path))
    assert seed_lib.syncs.get(path).state == OK


def test_an_existing_file_is_not_taken_over_unless_it_matches(seed_lib, tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text("@misc{old, title = {Old}}\n", encoding="utf-8")
    out = seed_lib.syncs.write(seed_lib.syncs.add(path))
    assert out.state == CONFLICT and path.read_text() == "@misc{old, title = {Old}}\n"
    same = tmp_path / "same.bib"
    same.write_text(seed_lib.bibtex.export(), encoding="utf-8")
    out = seed_lib.syncs.write(seed_lib.syncs.add(same))
    assert out.state == OK and not out.written


def test_failures_say_why_and_retry_on_the_next_change(seed_lib, feed, tmp_path):
    folder = tmp_path / "paper"
    sync = seed_lib.syncs.add(folder / "refs.bib")
    papers = _papers(seed_lib)
    out = seed_lib.syncs.write(sync)
    assert out.state == FAILED and out.message == f"the folder {folder} does not exist"
    assert seed_lib.syncs.get(sync.path).state_text().startswith("failed: the folder")
    assert _papers(seed_lib) == papers  # no key frozen, nothing else touched
    folder.mkdir()
    seed_lib.curation.add_tags([1], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert out.state == OK and out.written and (folder / "refs.bib").exists()


def test_a_read_only_file_fails(seed_lib, feed, tmp_path):
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    seed_lib.syncs.write(sync)
    os.chmod(sync.path, 0o444)
    seed_lib.curation.add_tags([1], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert out.state == FAILED and out.message == "the file is read-only"
    os.chmod(sync.path, 0o644)
    seed_lib.curation.add_tags([2], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert out.written and b"keywords = {x}" in Path(sync.path).read_bytes()


def test_a_full_disk_fails_cleanly(seed_lib, feed, tmp_path, monkeypatch):
    sync = seed_lib.syncs.add(tmp_path / "refs.bib")
    seed_lib.syncs.write(sync)
    before = Path(sync.path).read_bytes()

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    seed_lib.curation.add_tags([1], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert (out.state, out.message) == (FAILED, "No space left on device")
    assert Path(sync.path).read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    seed_lib.curation.add_tags([2], ["x"])
    (out,) = catch_up(seed_lib, feed)
    assert out.written and Path(sync.path).read_bytes() == _full(seed_lib, sync)


def test_sources_saved_search_tag_and_reading_list(seed_lib, feed, tmp_path):
    seed_lib.curation.save_search("scaling", "scaling")
    by_search = seed_lib.syncs.add(tmp_path / "s.bib", "search", "scaling")
    reading = seed_lib.syncs.add(tmp_path / "r.json", "reading-list", style="csl-json")
    seed_lib.curation.set_status([4, 2], "to-read")
    for sync in (by_search, reading):
        seed_lib.syncs.write(sync)
    assert seed_lib.syncs.members(reading) == [2, 4]
    assert [i["id"] for i in json.loads(Path(reading.path).read_text(encoding="utf-8"))] == [
        p["citekey"] for p in seed_lib.papers([2, 4])]
    assert seed_lib.syncs.members(by_search) == sorted(seed_lib.search("scaling").ids)
    feed.take()
    seed_lib.curation.delete_search("scaling")
    _dirty, searches, changed = feed.take()
    assert searches and changed == set()
    assert concerned(by_search, searches, changed) and not concerned(reading, searches,
                                                                     changed)
    out = seed_lib.syncs.write(seed_lib.syncs.get(by_search.path))
    assert out.state == FAILED and "no saved search named 'scaling'" in out.message


def test_bad_syncs_are_refused(seed_lib, tmp_path):
    seed_lib.syncs.add(tmp_path / "a.bib")
    with pytest.raises(SyncError, match="already kept in sync"):
        seed_lib.syncs.add(tmp_path / "a.bib")
    with pytest.raises(SyncError, match="no saved search"):
        seed_lib.syncs.add(tmp_path / "b.bib", "search", "nope")
    with pytest.raises(SyncError, match="unknown style"):
        seed_lib.syncs.add(tmp_path / "b.bib", style="ris")
    with pytest.raises(SyncError, match="is a folder"):
        seed_lib.syncs.add(tmp_path)
    with pytest.raises(SyncError, match="the library itself"):
        seed_lib.syncs.add(seed_lib.path)
    with pytest.raises(SyncError, match="not kept in sync"):
        seed_lib.syncs.remove(tmp_path / "zzz.bib")
    assert len(seed_lib.syncs.all()) == 1


def test_what_makes_a_sync_dirty(seed_lib, feed):
    seed_lib.curation.add_note(1, "a note")  # touches paper 1: its entry is made again
    assert feed.take() == (True, False, {1})
    seed_lib.duplicates.scan()
    seed_lib.curation.save_search("s", "x")
    assert feed.take() == (True, True, set())  # only syncs of saved searches
    seed_lib.duplicates.scan()
    assert not feed.dirty
    seed_lib.curation.set_rating([1], 2)
    assert feed.take() == (True, False, {1})
    with seed_lib.transaction():
        seed_lib.db.execute("UPDATE papers SET title = 'x' WHERE id = 1")
    assert feed.take() == (True, True, None)  # a raw write: anything may have changed


def test_a_copy_of_the_library_writes_none_of_its_synced_files(seed_lib, tmp_path):
    """A backup opened as a library (or the file copied) carries the syncs; its writes
    never replace the files the library they were made on keeps."""
    from paperdesk.core.api import Library

    out = tmp_path / "live.bib"
    seed_lib.curation.add_tags([1, 2], ["cite"])
    seed_lib.syncs.write(seed_lib.syncs.add(out, "tag", "cite"))
    copy = seed_lib.backup(tmp_path / "old.sqlite")
    written = out.read_bytes()
    with Library.open(copy) as old:
        old.curation.remove_tags([1], ["cite"])
        result = old.syncs.write(old.syncs.get(out))
        assert result.state == FAILED and not result.written
        assert f"made on the library {os.path.realpath(seed_lib.path)}" in result.message
        assert old.syncs.get(out).state == FAILED
    assert out.read_bytes() == written
    seed_lib.curation.add_tags([3], ["cite"])
    result = seed_lib.syncs.write(seed_lib.syncs.get(out))
    assert (result.state, result.written, result.entries) == (OK, True, 3)


def test_a_sync_from_before_the_record_is_kept_by_the_library_upgraded_where_it_was(
        seed_lib, tmp_path):
    """At the upgrade that records which library keeps each sync, a library PaperDesk
    has had at that path takes its syncs; a copy made before (a backup opened later)
    takes none: its writes fail, in one line, until `sync now --take`."""
    import shutil
    import sqlite3

    from paperdesk.core.api import Library

    out = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(out))
    path = seed_lib.path
    seed_lib.close()
    with sqlite3.connect(path) as raw:  # as a library before migration 0023 holds it
        raw.execute("ALTER TABLE syncs DROP COLUMN library")
        raw.execute("DELETE FROM _sqlite_migrations WHERE name = '0023_sync_library'")
    raw.close()
    old_copy = tmp_path / "copy-from-before.sqlite"
    shutil.copyfile(path, old_copy)
    with Library.open(path) as lib:  # known here: takes its syncs
        assert lib.syncs.get(out).library == os.path.realpath(path)
    written = out.read_bytes()
    with Library.open(old_copy) as copy:
        assert copy.syncs.get(out).library is None
        result = copy.syncs.write(copy.syncs.get(out))
        assert result.state == FAILED and "sync now --take" in result.message
        assert out.read_bytes() == written
        copy.curation.add_tags([1], ["taken"])
        taken = copy.syncs.write(copy.syncs.get(out), take=True)
        assert taken.state == OK and taken.written
        assert copy.syncs.get(out).library == os.path.realpath(old_copy)
