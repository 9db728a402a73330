"""Opening a library again in a process that has it open must not drop the POSIX
locks of its connections: another program closing the library would then take the
WAL for unused, check it in and delete it under them, and later commits would go
to a deleted file (sqlite.org/howtocorrupt.html, 2.2)."""

from __future__ import annotations

import subprocess
import sys

from paperdesk.core.library import Library

OTHER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("SELECT count(*) FROM papers").fetchone()
conn.close()  # the last connection, as it believes, checks the WAL in and deletes it
"""


def test_a_second_open_keeps_the_first_connections_locks(seed_lib, tmp_path):
    seed_lib.curation.set_rating([1], 5)
    again = Library.open(seed_lib.path)  # reads the file's header: must not drop locks
    again.close()
    subprocess.run([sys.executable, "-c", OTHER, str(seed_lib.path)], check=True, timeout=60)
    seed_lib.curation.set_rating([2], 4)  # committed into the WAL the first connection holds
    fresh = subprocess.run(
        [sys.executable, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
         ".execute('SELECT rating FROM papers WHERE id IN (1, 2) ORDER BY id').fetchall())",
         str(seed_lib.path)], capture_output=True, text=True, check=True, timeout=60)
    assert fresh.stdout.strip() == "[(5,), (4,)]"
