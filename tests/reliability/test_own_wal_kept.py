"""A library's own -wal, left by a program killed with it open, is replayed, never set aside
as another file's (``foreign_wal``): part of it already copied into the file by a
checkpoint, or begun by a backup put back into the open library (``restore``)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from paperdesk.core.db import backup
from tests.command_line import cli_env
from tests.reliability.helpers import cli, integrity

# Writes 10 tags; a reader holds a snapshot of them (so the log cannot start again), a
# checkpoint copies the 10 into the file; 5 more tags go after them in the log; it waits.
# (SQLite copies a page only when its last frame is within reach: page 1, which every
# PaperDesk write changes, is copied with the 10th commit, not with a 5th.)
PARTLY_COPIED = """
import sys
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
reader = Library.open(sys.argv[1])
ids = lib.search("", sort="title").ids
for i in range(10):
    lib.curation.add_tags([ids[i]], [f"own-{i}"])
    if i == 9:
        reader.db.execute("BEGIN")
        reader.db.execute("SELECT count(*) FROM papers").fetchone()
lib.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
for i in range(10, 15):
    lib.curation.add_tags([ids[i]], [f"own-{i}"])
print("ready", flush=True)
sys.stdin.readline()
"""

# A window with an empty log (all copied in); a backup put back into it (the backup's pages
# are the log's first frames), then a tag; the window waits.
RESTORED = """
import sys
from pathlib import Path
from paperdesk.core import api
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
api.restore(Path(sys.argv[2]), Path(sys.argv[1]))
lib.curation.add_tags([1], ["own-after-restore"])
print("ready", flush=True)
sys.stdin.readline()
"""


def tags(path: Path, like: str) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM tags WHERE name LIKE ?", [like]).fetchone()[0]
    finally:
        conn.close()


def killed_holding(script: str, *args: object) -> None:
    proc = subprocess.Popen([sys.executable, "-c", script, *map(str, args)], env=cli_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    finally:
        proc.kill()  # SIGKILL
        proc.wait(timeout=60)


def opened_after(library: Path) -> None:
    stats = cli("--library", library, "stats")
    assert stats.returncode == 0 and "set aside" not in stats.stderr, stats.stderr
    assert not list((library.parent / "backups").glob("*set-aside*"))
    assert integrity(library) == "ok"


def test_a_log_partly_copied_into_its_library_is_replayed(curated):
    killed_holding(PARTLY_COPIED, curated)
    assert Path(f"{curated}-wal").stat().st_size > 0
    opened_after(curated)
    assert tags(curated, "own-%") == 15


def test_a_log_begun_by_a_backup_put_back_is_replayed(curated, tmp_path):
    old = backup.backup_library(curated, tmp_path / "old.sqlite")
    imported = cli("--library", curated, "tag", 2, "+gone-with-the-restore")
    assert imported.returncode == 0, imported.stderr
    killed_holding(RESTORED, curated, old)
    assert Path(f"{curated}-wal").stat().st_size > 0
    opened_after(curated)
    assert tags(curated, "own-after-restore") == 1
    assert tags(curated, "gone-with-the-restore") == 0
