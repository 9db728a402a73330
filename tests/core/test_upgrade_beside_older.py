"""A library is not upgraded while an older PaperDesk has it open: that program would go
on reading and writing it as it was (before migration 0016 it would read frozen keys from
a column no longer kept, and change keys that have left PaperDesk). The open says so in
one line and the file is left exactly as it was; once that program is gone, it upgrades."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys

import pytest

from paperdesk.core.db import sessions
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError


def _as_before_0016(path) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TABLE frozen_keys")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0016_frozen_keys'")
    conn.close()


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def other_program():
    """A program still running (a child process) and the name of its marker."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    start = None
    while start is None:  # its start time, as the markers record it
        start = sessions._start_time(child.pid)
    yield child, f"{child.pid}-{start}"
    child.kill()
    child.wait()


def _held_by_older(seed_lib, name: str):
    """The seed library as before 0016, held open by the program of marker ``name`` as
    PaperDesk before 0016 marked it (no count of migrations); its path and marker."""
    path = seed_lib.path
    seed_lib.close()
    _as_before_0016(path)
    where = sessions.folder(path)
    where.mkdir(parents=True, exist_ok=True)
    (where / name).write_text(f"{path}\n", encoding="utf-8")
    return path, where / name


def test_an_older_program_holding_the_library_keeps_it_from_upgrading(seed_lib, other_program):
    child, name = other_program
    path, marker = _held_by_older(seed_lib, name)
    before = _digest(path)
    with pytest.raises(LibraryError, match=f"older PaperDesk .*process {child.pid}"):
        Library.open(path)
    assert _digest(path) == before
    # A program that knows every migration is no reason to wait.
    marker.write_text(f"{path}\nmigrations {len(sessions.schema.MIGRATIONS)}\n",
                      encoding="utf-8")
    with Library.open(path) as lib:
        assert lib.db.execute("SELECT count(*) FROM frozen_keys").fetchone()[0] == 0


def test_an_older_program_gone_is_no_reason_to_wait(seed_lib, other_program):
    child, name = other_program
    path, _ = _held_by_older(seed_lib, name)
    child.kill()
    child.wait()
    with Library.open(path) as lib:  # its marker is of a program gone: checked, then upgraded
        assert "0016_frozen_keys" in {r[0] for r in lib.db.execute(
            "SELECT name FROM _sqlite_migrations")}


def test_this_program_s_marker_says_what_it_knows(seed_lib):
    marker = sessions.folder(seed_lib.path) / sessions.marker_name()
    assert marker.read_text(encoding="utf-8").splitlines()[1] == (
        f"migrations {len(sessions.schema.MIGRATIONS)}")


def test_a_backup_from_before_an_upgrade_is_upgraded_when_put_back(seed_lib, tmp_path):
    """Put back into a library this program has open, an older backup would leave it
    reading tables the backup does not have (``frozen_keys``)."""
    from paperdesk.core import api
    from paperdesk.core.db import backup

    seed_lib.bibtex.freeze([1, 2])
    old = backup.backup_library(seed_lib.path, tmp_path / "old.sqlite")
    _as_before_0016(old)
    conn = sqlite3.connect(old)
    with conn:
        conn.execute("UPDATE papers SET citekey_frozen = (id = 3)")
    conn.close()
    api.restore(old, seed_lib.path)  # as `paperdesk restore` does
    assert seed_lib.paper(3)["citekey_frozen"] and not seed_lib.paper(1)["citekey_frozen"]
    assert seed_lib.db.execute("SELECT paper_id FROM frozen_keys").fetchall() == [(3,)]
