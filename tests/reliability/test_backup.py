"""Backups: consistent while another program writes, taken before every upgrade,
and restored only after checks and a confirmation."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperdesk.core.db import backup, dbfile, store
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryBusy, LibraryError
from tests.command_line import ROOT, cli_command, cli_env
from tests.conftest import SEED_PAPERS
from tests.reliability.helpers import cli, integrity, user_data
from tests.work import every_statement, finishes

OLD = ROOT / "tests" / "data" / "library-0001.sqlite"
FIRST_PENDING = "0002_list_and_trash_indexes"


def schema_of(path: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    finally:
        conn.close()


# -- backing up ------------------------------------------------------------------

PAIRED_WRITER = """
import sqlite3, sys, threading, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
end = time.monotonic() + float(sys.argv[2])
n = 0
# At least this many seconds of writes, and on until our input closes.
while time.monotonic() < end or not stop.is_set():
    conn.execute("BEGIN IMMEDIATE")
    for pid in (1, 2):
        conn.execute("INSERT INTO notes (paper_id, text, created, updated) VALUES (?, ?, 'x', 'x')",
                     [pid, f"pair {n}"])
    time.sleep(0.002)  # hold the transaction open a little, like a real edit
    conn.execute("COMMIT")
    n += 1
    if n == 1:
        print("writing", flush=True)
print(n)
"""


def test_backups_taken_while_another_process_writes_are_consistent(curated, tmp_path):
    """Each committed write adds a note to paper 1 and one to paper 2 together: a
    consistent copy always holds as many "pair" notes on one as on the other."""
    writer = subprocess.Popen([sys.executable, "-c", PAIRED_WRITER, str(curated), "3"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    copies = []
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
        with Library.open(curated) as lib:
            for n in range(8):
                copies.append(lib.backup(tmp_path / f"copy{n}.sqlite"))
                time.sleep(0.15)
    finally:
        out, _ = writer.communicate("", timeout=60)  # it writes on until here
    assert writer.returncode == 0 and int(out) > 20
    counts = []
    for copy in copies:
        assert integrity(copy) == "ok"
        assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}-journal").exists()
        conn = sqlite3.connect(copy)
        pairs = dict(conn.execute("SELECT paper_id, count(*) FROM notes WHERE text LIKE 'pair %' "
                                  "GROUP BY paper_id").fetchall())
        conn.close()
        assert pairs.get(1, 0) == pairs.get(2, 0)
        counts.append(pairs.get(1, 0))
    assert counts == sorted(counts) and counts[-1] > counts[0] > 0  # taken mid-stream


def test_default_backup_is_a_library_with_the_same_data(curated):
    with Library.open(curated) as lib:
        first = lib.backup()
        second = lib.backup()
    assert first.parent == curated.parent / "backups" and first != second
    assert first.name.startswith("library-") and first.suffix == ".sqlite"
    assert user_data(first) == user_data(curated) == user_data(second)
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([first.name, second.name])
    with Library.open(first) as copy:
        assert copy.db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert copy.search("containment").ids  # the notes' index came along


def test_backup_to_the_library_itself_or_a_missing_folder_is_refused(curated, tmp_path):
    before = user_data(curated)
    with Library.open(curated) as lib:
        with pytest.raises(LibraryError, match="the library itself"):
            lib.backup(curated)
        with pytest.raises(LibraryError, match="does not exist"):
            lib.backup(tmp_path / "nowhere" / "copy.sqlite")
        with pytest.raises(LibraryError, match="is a folder"):
            lib.backup(tmp_path)
    assert user_data(curated) == before and integrity(curated) == "ok"
    assert not (tmp_path / "nowhere").exists()


def test_cli_backup_default_and_named(curated, tmp_path):
    result = cli("--library", curated, "backup")
    assert result.returncode == 0, result.stderr
    written = Path(result.stdout.strip())
    assert written.parent == curated.parent / "backups" and written.is_file()
    assert "backed up the library" in result.stderr
    assert user_data(written) == user_data(curated)

    named = tmp_path / "mine.sqlite"
    assert cli("--library", curated, "backup", named).returncode == 0
    assert user_data(named) == user_data(curated)
    stamp = named.stat().st_mtime_ns
    again = cli("--library", curated, "backup", named)
    assert again.returncode == 1 and "already exists" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and named.stat().st_mtime_ns == stamp
    # --overwrite replaces other files, never a database (this backup included).
    kept = named.read_bytes()
    again = cli("--library", curated, "backup", named, "--overwrite")
    assert again.returncode == 1 and "is a database" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and named.read_bytes() == kept

    missing = cli("--library", curated, "backup", tmp_path / "no" / "x.sqlite")
    assert missing.returncode == 1 and "does not exist" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


# -- before an upgrade -------------------------------------------------------------

def test_an_older_library_is_backed_up_before_it_is_upgraded(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD, path)
    original = user_data(path)
    with Library.open(path) as lib:
        assert lib.stats()["papers"] == SEED_PAPERS
    kept = tmp_path / "backups" / f"old.before-{FIRST_PENDING}.sqlite"
    assert kept.is_file()
    assert schema_of(kept) == ["0001_initial"] and len(schema_of(path)) > 1
    assert user_data(kept) == original
    assert integrity(kept) == "ok"
    # Opening the up-to-date library again takes no further copy.
    Library.open(path).close()
    assert [p.name for p in (tmp_path / "backups").iterdir()] == [kept.name]


def test_a_new_library_takes_no_backup(tmp_path):
    Library.open(tmp_path / "new.sqlite").close()
    assert not (tmp_path / "backups").exists()


def test_no_backup_no_upgrade(tmp_path):
    """If the copy cannot be written, the library is left exactly as it was."""
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD, path)
    (tmp_path / "backups").write_text("a file where the folder should be")
    with pytest.raises(LibraryError, match="nothing was changed"):
        Library.open(path)
    assert path.read_bytes() == OLD.read_bytes()


def test_a_second_upgrade_backup_does_not_overwrite_the_first(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD, path)
    Library.open(path).close()
    shutil.copy(OLD, path)  # e.g. the user put the old file back
    Library.open(path).close()
    names = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert names == [f"old.before-{FIRST_PENDING}-2.sqlite", f"old.before-{FIRST_PENDING}.sqlite"]


# -- restoring ---------------------------------------------------------------------

def test_restore_puts_the_backup_back_and_keeps_the_current_library(curated, seeds):
    with Library.open(curated) as lib:
        copy = lib.backup()
        saved = user_data(copy)
        lib.import_paths(seeds[3:])
        lib.curation.add_note(lib.search("").ids[-1], "written after the backup")
    changed = user_data(curated)
    assert changed != saved
    report = backup.restore(copy, curated)
    assert user_data(curated) == saved and report.papers == len(saved["papers"])
    assert report.previous is not None and user_data(report.previous) == changed
    assert integrity(curated) == "ok"
    with Library.open(curated) as lib:  # still a working WAL library
        assert lib.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert lib.search("containment").ids


def test_a_program_with_the_library_open_sees_the_restored_library(curated, seeds):
    with Library.open(curated) as lib:
        copy = lib.backup()
        before = lib.stats()
        lib.import_paths(seeds[3:])
        assert lib.stats() != before
        backup.restore(copy, curated)
        assert lib.stats() == before
        assert lib.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_restore_waits_then_says_busy_while_another_program_writes(curated, monkeypatch):
    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.3)
    monkeypatch.setattr(dbfile, "BUSY_TIMEOUT_S", 0.3)  # where connections take it from
    copy = backup.backup_library(curated)
    holder = sqlite3.connect(curated, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE papers SET rating = 5 WHERE id = 1")
    try:
        with every_statement() as ran, pytest.raises(LibraryBusy, match="busy"):
            finishes(lambda: backup.restore(copy, curated))
        # it waited as long as connections are told to (0.3 s here), not the default
        waits = {q for q in ran if q.startswith("PRAGMA busy_timeout")}
        assert waits == {"PRAGMA busy_timeout = 300"}, waits
    finally:
        holder.execute("COMMIT")
        holder.close()
    conn = sqlite3.connect(curated)
    assert conn.execute("SELECT rating FROM papers WHERE id = 1").fetchone()[0] == 5
    conn.close()


def _future(path: Path) -> Path:
    Library.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('paperdesk', '9999_future', 'x')")
    conn.commit()
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return path


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.commit()
    conn.close()
    return path


def _damaged(source: Path, path: Path) -> Path:
    data = bytearray(source.read_bytes())
    data[4096 * 3: 4096 * 6] = b"\xa5" * (4096 * 3)  # scribble over a few pages
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, message", [
    (lambda d: (d / "notes.txt").write_text("hello") and d / "notes.txt", "not an SQLite file"),
    (lambda d: _foreign(d / "songs.sqlite"), "another program"),
    (lambda d: _future(d / "future.sqlite"), "newer PaperDesk"),
    (lambda d: _damaged(OLD, d / "damaged.sqlite"), "damaged|malformed"),
    (lambda d: d / "missing.sqlite", "no such backup"),
    (lambda d: (d / "empty.sqlite").write_bytes(b"") or d / "empty.sqlite", "empty"),
], ids=["text", "foreign", "newer", "damaged", "missing", "empty"])
def test_restore_refuses_what_is_not_a_good_backup(curated, tmp_path, make, message):
    bad = make(tmp_path)
    bad_before = bad.read_bytes() if bad.exists() else None
    before = curated.read_bytes()
    with pytest.raises(LibraryError, match=message):
        backup.restore(bad, curated)
    assert curated.read_bytes() == before
    assert (bad.read_bytes() if bad.exists() else None) == bad_before
    assert not (curated.parent / "backups").exists()


def test_restore_over_a_damaged_library_keeps_the_damaged_file(curated, tmp_path):
    copy = backup.backup_library(curated, tmp_path / "good.sqlite")
    with Library.open(curated) as lib:
        lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damaged = _damaged(copy, tmp_path / "scratch.sqlite").read_bytes()
    curated.write_bytes(damaged)
    with pytest.raises(LibraryError):
        Library.open(curated).search("containment")
    report = backup.restore(copy, curated)
    assert user_data(curated) == user_data(copy) and integrity(curated) == "ok"
    assert report.previous is not None and report.previous.read_bytes() == damaged


def test_restore_refuses_to_replace_something_that_is_not_a_library(curated, tmp_path):
    copy = backup.backup_library(curated)
    for target in (_foreign(tmp_path / "songs.sqlite"), tmp_path / "essay.txt"):
        if not target.exists():
            target.write_text("my essay")
        before = target.read_bytes()
        with pytest.raises(LibraryError, match="not replacing it"):
            backup.restore(copy, target)
        assert target.read_bytes() == before


def test_restore_where_there_is_no_library_yet(curated, tmp_path):
    copy = backup.backup_library(curated)
    target = tmp_path / "fresh.sqlite"
    report = backup.restore(copy, target)
    assert report.previous is None and user_data(target) == user_data(copy)


def test_restoring_an_older_backup_upgrades_it_on_next_open(curated):
    report = backup.restore(OLD, curated)
    assert report.papers == SEED_PAPERS and schema_of(curated) == ["0001_initial"]
    with Library.open(curated) as lib:
        assert lib.stats()["papers"] == SEED_PAPERS
    assert (curated.parent / "backups" / f"library.before-{FIRST_PENDING}.sqlite").is_file()


def test_a_backup_restores_into_a_library_of_another_page_size(curated, tmp_path):
    """New libraries have 16 KiB pages, older ones 4 KiB: SQLite copies pages into a
    library in WAL mode only at its own size, so a backup of a new library restores
    into an older one (and back) through a copy at the library's size, removed after."""
    def page_size(path: Path) -> int:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return int(conn.execute("PRAGMA page_size").fetchone()[0])
        finally:
            conn.close()

    assert page_size(curated) == store.PAGE_SIZE == 16384
    copy = backup.backup_library(curated, tmp_path / "new.sqlite")
    older = tmp_path / "older" / "library.sqlite"
    older.parent.mkdir()
    shutil.copy(OLD, older)
    Library.open(older).close()  # upgraded, in WAL mode, on its 4 KiB pages
    assert page_size(older) == 4096 and user_data(older) != user_data(copy)
    report = backup.restore(copy, older)
    assert user_data(older) == user_data(copy)
    assert report.papers == len(user_data(copy)["papers"])
    assert page_size(older) == 4096 and integrity(older) == "ok"
    assert not list((older.parent / "backups").glob("*restoring*"))
    back = backup.backup_library(older, tmp_path / "older-copy.sqlite")
    with Library.open(curated) as lib:  # a change, that the restore takes back
        lib.db.execute("UPDATE papers SET title = 'changed' WHERE id = "
                       "(SELECT min(id) FROM papers)")
    assert user_data(curated) != user_data(copy)
    backup.restore(back, curated)
    assert page_size(curated) == 16384 and user_data(curated) == user_data(copy)


# -- restoring from the command line ---------------------------------------------

def test_cli_restore_needs_yes_when_not_on_a_terminal(curated, seeds):
    copy = backup.backup_library(curated)
    with Library.open(curated) as lib:
        lib.import_paths(seeds[3:])
    before = curated.read_bytes()
    refused = cli("--library", curated, "restore", copy, input="y\n")
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert curated.read_bytes() == before
    done = cli("--library", curated, "restore", copy, "--yes")
    assert done.returncode == 0, done.stderr
    assert "restored" in done.stderr and user_data(curated) == user_data(copy)


def test_cli_restore_refuses_a_bad_backup_in_one_line(curated, tmp_path):
    text = tmp_path / "x.sqlite"
    text.write_text("not a backup")
    before = curated.read_bytes()
    result = cli("--library", curated, "restore", text, "--yes")
    assert result.returncode == 1 and "not an SQLite file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and curated.read_bytes() == before


def test_cli_restore_of_a_library_too_damaged_to_open(curated, tmp_path):
    copy = backup.backup_library(curated, tmp_path / "good.sqlite")
    with Library.open(curated) as lib:
        lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    curated.write_bytes(_damaged(copy, tmp_path / "scratch.sqlite").read_bytes())
    assert cli("--library", curated, "stats").returncode == 1
    result = cli("--library", curated, "restore", copy, "--yes")
    assert result.returncode == 0, result.stderr
    assert cli("--library", curated, "stats").returncode == 0


def _on_a_terminal(args: list[str], answer: bytes) -> tuple[int, str]:
    """Run the CLI with a pseudo-terminal as stdin, answer its question, collect stderr."""
    import pty  # POSIX only (the test is marked posix)

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(args, stdin=secondary, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env())
    os.close(secondary)
    os.write(primary, answer)
    _, err = proc.communicate(timeout=60)
    os.close(primary)
    return proc.returncode, err.decode()


@pytest.mark.posix  # a pseudo-terminal
@pytest.mark.parametrize("answer, restored", [(b"y\n", True), (b"n\n", False), (b"\n", False)])
def test_cli_restore_asks_on_a_terminal(curated, seeds, answer, restored):
    copy = backup.backup_library(curated)
    with Library.open(curated) as lib:
        lib.import_paths(seeds[3:])
    after_import = user_data(curated)
    rc, err = _on_a_terminal(cli_command("--library", curated, "restore", copy), answer)
    assert "Replace the library" in err and "[y/N]" in err and "Traceback" not in err
    if restored:
        assert rc == 0 and user_data(curated) == user_data(copy)
    else:
        assert rc == 1 and "cancelled" in err and user_data(curated) == after_import
