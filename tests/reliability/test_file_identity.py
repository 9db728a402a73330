"""Writes stay with their file: a library deleted, moved or replaced under a running
program (or its -wal/-shm removed) makes its next write fail in one line instead of
reporting success; what that program still saw is kept; a library PaperDesk had is
never silently made again, empty, where it went missing."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError
from tests.command_line import cli_env
from tests.reliability.helpers import cli, integrity


def rating(path: Path, paper_id: int = 1) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT rating FROM papers WHERE id = ?", [paper_id]).fetchone()[0]
    finally:
        conn.close()


def rescued(library: Path) -> list[Path]:
    return sorted((library.parent / "backups").glob("*.rescued-*.sqlite"))


def test_a_deleted_library_refuses_the_next_write_and_is_not_made_again(one_digest):
    with Library.open(one_digest) as lib:
        lib.curation.set_rating([1], 4)
        for name in (one_digest, f"{one_digest}-wal", f"{one_digest}-shm"):
            os.unlink(name)
        with pytest.raises(LibraryError, match="deleted or moved") as err:
            lib.curation.set_rating([1], 5)
        assert "\n" not in str(err.value) and str(one_digest) in str(err.value)
        assert not one_digest.exists()
    assert not one_digest.exists()  # closing wrote nothing there either
    # What the program saw (the rating it reported as saved) is kept in a copy.
    [copy] = rescued(one_digest)
    assert rating(copy) == 4 and integrity(copy) == "ok"
    # The next run is told, and does not make an empty library in its place.
    for result in (cli("--library", one_digest, "list"),
                   cli("--library", one_digest, "rate", 1, 3)):
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "library is missing" in result.stderr
        assert str(one_digest) in result.stderr
    assert not one_digest.exists()
    made = cli("--library", one_digest, "--create", "stats")
    assert made.returncode == 0, made.stderr
    assert one_digest.exists()


def test_the_default_library_gone_missing_is_not_made_again(_isolated_data):
    made = cli("stats")
    assert made.returncode == 0, made.stderr
    default = _isolated_data / "library.sqlite"
    assert default.exists()
    default.unlink()
    again = cli("list")
    assert again.returncode == 1 and "library is missing" in again.stderr
    assert str(default) in again.stderr and again.stderr.count("\n") == 1
    assert not default.exists()


def test_a_moved_library_refuses_writes(one_digest, tmp_path):
    with Library.open(one_digest) as lib:
        os.rename(one_digest, tmp_path / "elsewhere.sqlite")
        with pytest.raises(LibraryError, match="deleted or moved"):
            lib.curation.add_note(1, "lost?")
    assert not one_digest.exists()


def test_a_replaced_library_refuses_writes_and_the_new_file_is_untouched(one_digest, tmp_path):
    other = tmp_path / "other.sqlite"
    with Library.open(one_digest) as lib:
        lib.backup(other)
        with Library.open(other) as o:
            o.curation.set_rating([1], 2)
        os.replace(other, one_digest)
        for side in ("-wal", "-shm"):
            Path(f"{one_digest}{side}").unlink(missing_ok=True)
        before = one_digest.read_bytes()
        with pytest.raises(LibraryError, match="replaced by another file"):
            lib.curation.set_rating([1], 5)
    assert one_digest.read_bytes() == before
    assert not Path(f"{one_digest}-wal").exists()
    assert rating(one_digest) == 2


def test_a_library_opened_through_a_link_keeps_writing(one_digest, tmp_path):
    link = tmp_path / "link.sqlite"
    link.symlink_to(one_digest)
    with Library.open(link) as lib:
        lib.curation.set_rating([1], 2)
        assert cli("--library", one_digest, "rate", 2, 3).returncode == 0
        lib.curation.set_rating([1], 5)
    assert rating(one_digest) == 5 and rating(one_digest, 2) == 3


def test_an_empty_known_library_is_not_taken_for_a_new_one(one_digest):
    one_digest.write_bytes(b"")
    with pytest.raises(LibraryError, match="library is missing"):
        Library.open(one_digest)
    assert one_digest.read_bytes() == b""


def test_a_library_another_program_creates_meanwhile_is_not_taken_for_a_missing_one(
        tmp_path, monkeypatch):
    """Another program creates the library between our look at the path and our look
    at the list of known libraries: the path is looked at again, and opened."""
    from paperdesk.core.db import known

    path = tmp_path / "new.sqlite"
    was_known = known.was_known

    def another_program_creates_it(where):
        assert cli("--library", where, "--create", "stats").returncode == 0
        return was_known(where)

    monkeypatch.setattr(known, "was_known", another_program_creates_it)
    with Library.open(path) as lib:
        assert lib.stats()["papers"] == 0
    assert integrity(path) == "ok"


def test_a_library_another_program_fills_while_it_is_recognised_is_opened(
        tmp_path, monkeypatch):
    """Another program creates the library's tables between our reading of its mark
    and of its tables: both are read in one transaction, so the file is not taken
    for another program's database (an empty file, in WAL mode so that the other
    program's write does not wait for our read)."""
    from paperdesk.core.db import store

    path = tmp_path / "new.sqlite"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    conn.close()
    created = []
    connect = store.connect

    def connect_and_interleave(*args, **kwargs):
        opened = connect(*args, **kwargs)

        def before_statement(sql: str) -> None:
            if "sqlite_master" in sql and not created:
                created.append(cli("--library", path, "stats").returncode)
        opened.set_trace_callback(before_statement)
        return opened

    monkeypatch.setattr(store, "connect", connect_and_interleave)
    with Library.open(path) as lib:
        assert lib.stats()["papers"] == 0
    assert created == [0]
    assert integrity(path) == "ok"


def test_a_library_with_two_hard_links_is_refused(one_digest, tmp_path):
    os.link(one_digest, tmp_path / "second-name.sqlite")
    with pytest.raises(LibraryError, match="2 hard links"):
        Library.open(one_digest)


WINDOW = """
import sys
from paperdesk.core.model.errors import LibraryError
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
lib.curation.add_note(1, "before the removal")
print("written", flush=True)
sys.stdin.readline()
try:
    lib.curation.add_note(1, "after the removal")
    print("saved", flush=True)
except LibraryError as exc:
    print("refused", exc, flush=True)
lib.close()
"""


def test_wal_and_shm_removed_under_a_running_program(one_digest):
    """Another program's tag written after the removal stays; the running program's
    next write is refused; its earlier note is kept in a rescued copy."""
    proc = subprocess.Popen([sys.executable, "-c", WINDOW, str(one_digest)], env=cli_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "written"
    os.unlink(f"{one_digest}-wal")
    os.unlink(f"{one_digest}-shm")
    tagged = cli("--library", one_digest, "tag", 1, "+kept")
    assert tagged.returncode == 0, tagged.stderr
    out, _ = proc.communicate("\n", timeout=60)
    assert out.startswith("refused"), out
    assert "-wal: removed or replaced" in out or "-shm: removed or replaced" in out
    assert integrity(one_digest) == "ok"
    with Library.open(one_digest, create=False) as lib:
        assert "kept" in lib.paper(1)["tags"]
        notes = [n["text"] for n in lib.paper(1)["notes"]]
        assert "after the removal" not in notes
        # The running program's WAL, orphaned by the removal, was not checkpointed over
        # the library when it closed: what it held is only in the rescued copy.
        assert "before the removal" not in notes
    [copy] = rescued(one_digest)
    with Library.open(copy, create=False) as saved:
        assert [n["text"] for n in saved.paper(1)["notes"]] == ["before the removal"]


def test_importing_the_open_library_file_is_refused_and_keeps_its_locks(tmp_path, seeds):
    folder = tmp_path / "only-the-library"
    folder.mkdir()
    library = folder / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds[:1])
        reports = lib.import_paths([library, Path(f"{library}-wal"), folder])
        assert all(r.status != "imported" for r in reports)
        assert any("library file PaperDesk has open" in (r.error or "") for r in reports)
        lib.curation.set_rating([1], 3)
        listed = cli("--library", library, "list")  # another program comes and goes
        assert listed.returncode == 0
        assert Path(f"{library}-wal").exists()
        lib.curation.set_rating([1], 4)
    assert rating(library) == 4
