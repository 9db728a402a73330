"""Opening library files: new, upgraded, foreign, damaged, read-only, busy."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.db.schema import known_migrations
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryBusy, LibraryError
from tests.conftest import SEED_PAPERS

DATA = Path(__file__).resolve().parent.parent / "data"


def test_new_library_is_wal_with_foreign_keys_and_all_migrations(tmp_path):
    with Library.open(tmp_path / "new.sqlite") as lib:
        assert lib.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert lib.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        applied = [r[0] for r in lib.db.execute("SELECT name FROM _sqlite_migrations")]
        assert applied == known_migrations()


def test_library_from_first_schema_is_upgraded_with_data_intact(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", path)
    with Library.open(path) as lib:
        applied = [r[0] for r in lib.db.execute("SELECT name FROM _sqlite_migrations")]
        assert applied == known_migrations() and len(applied) >= 2
        assert lib.stats()["papers"] == SEED_PAPERS
        paper = lib.paper(2, with_notes=True)
        assert (paper["rating"], paper["status"], paper["tags"]) == (4, "read", ["Systems"])
        assert paper["notes"][0]["text"] == "Read the *containment* section."
        assert 2 in lib.search("containment").ids
        indexes = {r[0] for r in lib.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"papers_list_position", "papers_deleted"} <= indexes


def test_foreign_sqlite_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(LibraryError, match="not a PaperDesk library"):
        Library.open(path)
    assert path.read_bytes() == before


def test_text_file_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("hello")
    with pytest.raises(LibraryError, match="not an SQLite file"):
        Library.open(path)
    assert path.read_text() == "hello"


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LibraryError, match="does not exist"):
        Library.open(tmp_path / "nope" / "lib.sqlite")
    assert not (tmp_path / "nope").exists()


def test_read_only_library_reports_and_changes_nothing(tmp_path, seeds):
    path = tmp_path / "ro.sqlite"
    with Library.open(path) as lib:
        lib.import_paths(seeds[:1])
    lib = Library.open(path)
    lib.db.execute("PRAGMA query_only = ON")  # what a read-only file gives, even as root
    [report] = lib.import_paths(seeds[1:2])
    assert report.status == "error" and "read-only" in report.error
    assert lib.stats()["digests"] == 1


def test_busy_library_gives_a_clear_message(tmp_path, seeds, monkeypatch):
    from paperdesk.core.db import dbfile, store

    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.2)
    monkeypatch.setattr(dbfile, "BUSY_TIMEOUT_S", 0.2)  # where connections take it from
    path = tmp_path / "busy.sqlite"
    Library.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Library.open(path) as lib:
            [report] = lib.import_paths(seeds[:1])
            assert report.status == "error" and "busy" in report.error
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Library.open(path) as lib:
        assert lib.stats()["digests"] == 0
    assert issubclass(LibraryBusy, LibraryError)


def test_upgraded_library_can_undo_an_edit_to_a_paper(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", path)
    with Library.open(path) as lib:
        changes = lib.trash.delete([2])
        lib.undo(changes.undo)
        assert lib.paper(2)["deleted"] is False
        assert 2 in lib.search("containment").ids
