"""The integrity check at open: after an unclean shutdown only, never on a normal open.

A program with a library open holds a marker named after its process (id and start
time) in the data folder. A writing ``paperdesk import`` killed with SIGKILL leaves
its marker; the next open runs ``quick_check``. A program that is still running is
someone else using the library, not a crash. Damage the check finds keeps the
library readable and refuses every write in one line that points at the backups.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from paperdesk.core.db import sessions
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError
from tests.command_line import cli_command, cli_env
from tests.reliability.digests import write_digest
from tests.reliability.helpers import cli, kill_when
from tests.reliability.test_damaged import scribble_table

pytestmark = pytest.mark.slow


def wal_size(library: Path) -> int:
    try:
        return Path(f"{library}-wal").stat().st_size
    except FileNotFoundError:
        return 0


def markers(library: Path) -> set[str]:
    try:
        return set(os.listdir(sessions.folder(library)))
    except FileNotFoundError:
        return set()


def kill_a_writer(library: Path, tmp_path: Path) -> int:
    """Start ``paperdesk import`` of a large digest and SIGKILL it in the middle of its
    write (its write-ahead log growing); the process id it had."""
    big = write_digest(tmp_path / "big.txt", range(30_000), day=9)
    proc = subprocess.Popen(cli_command("--library", library, "import", big), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert kill_when(proc, lambda: wal_size(library) > 2**20), "the import ended first"
    return proc.pid


def test_a_normal_open_does_not_check_and_leaves_no_marker(curated):
    with Library.open(curated) as lib:
        assert not lib.db.conn.checked
        assert markers(curated) == {sessions.marker_name()}
    assert markers(curated) == set()
    result = cli("--library", curated, "stats")
    assert result.returncode == 0
    assert markers(curated) == set()


def test_a_writer_killed_mid_write_is_checked_at_the_next_open_only(curated, tmp_path):
    pid = kill_a_writer(curated, tmp_path)
    left = markers(curated)
    assert len(left) == 1 and left.pop().startswith(f"{pid}-")  # the killed process's
    with Library.open(curated) as lib:
        assert lib.db.conn.checked
        assert lib.curation.add_tags([1], "after the crash").paper_ids == {1}  # writes work
    assert markers(curated) == set()
    with Library.open(curated) as lib:
        assert not lib.db.conn.checked


def test_another_program_with_the_library_open_is_not_a_crash(curated):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from paperdesk.core.library import Library; "
         "lib = Library.open(sys.argv[1]); print('open', flush=True); sys.stdin.readline(); "
         "lib.close()", str(curated)],
        env=cli_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        with Library.open(curated) as lib:
            assert not lib.db.conn.checked
        holder.kill()  # it ends without closing the library
        holder.wait(timeout=60)
        with Library.open(curated) as lib:
            assert lib.db.conn.checked
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(timeout=60)


def test_a_marker_of_a_reused_process_id_counts_as_a_crash(curated):
    """The same process id with another start time is another process: the one that
    held the library is gone."""
    pid = os.getpid()
    folder = sessions.folder(curated)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{pid}-1").write_text("x")
    with Library.open(curated) as lib:
        assert lib.db.conn.checked
    assert markers(curated) == set()


def test_damage_found_after_a_crash_refuses_writes_until_a_backup_is_restored(curated,
                                                                             tmp_path):
    with Library.open(curated) as lib:
        backup = lib.backup()
        notes = lib.stats()["notes"]
    kill_a_writer(curated, tmp_path)
    scribble_table(curated, "notes")  # what a bad disk does under a crash
    for _ in range(2):  # and again on the next open: the damage is still there
        read = cli("--library", curated, "stats", "--json")
        assert read.returncode == 0, read.stderr
        write = cli("--library", curated, "tag", "1", "+after")
        assert write.returncode == 1
        lines = write.stderr.strip().splitlines()
        assert len(lines) == 1 and "damaged" in lines[0], write.stderr
        assert "paperdesk restore" in lines[0] and str(backup.parent) in lines[0]
    with Library.open(curated) as lib, pytest.raises(LibraryError, match="damaged"):
        lib.curation.add_tags([1], "after")
    restored = cli("--library", curated, "restore", backup, "--yes")
    assert restored.returncode == 0, restored.stderr
    assert cli("--library", curated, "tag", "1", "+after").returncode == 0
    with Library.open(curated) as lib:
        assert not lib.db.conn.checked and lib.stats()["notes"] == notes
    assert markers(curated) == set()
