"""Opening a library safely: creating it, upgrading it (after a backup), and
bulk writes that index in sets.

One SQLite file in WAL mode with foreign keys on. A file that is not a
PaperDesk library (another program's database, not SQLite at all, or written
by a newer PaperDesk) is refused without being touched (``dbfile``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from paperdesk.core import backup, schema
from paperdesk.core.database import Database
from paperdesk.core.dbfile import (
    BUSY_TIMEOUT_S,
    applied,
    check_file,
    check_identity,
    check_intact,
    connect,
    pending_migrations,
    translate,
    write,
)
from paperdesk.core.errors import LibraryError

# Rows ANALYZE samples per index when the library closes after a write.
ANALYSIS_LIMIT = 400

# Kept importable from here: what opens a library also writes to it.
__all__ = ["BUSY_TIMEOUT_S", "applied", "bulk_index", "check_file", "connect", "open_database",
           "pending_migrations", "translate", "write"]


def open_database(path: Path, *, create: bool = True, upgrade: bool = True) -> Database:
    """Open (creating or upgrading as needed) the library at ``path``."""
    path = Path(path).expanduser().absolute()
    exists = check_file(path)
    if not exists and not create:
        raise LibraryError(f"{path}: no library there")
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        raise LibraryError(f"{path}: cannot open ({exc})") from None
    db = Database(conn)
    try:
        check_identity(db, path)
        if upgrade and pending_migrations(db):
            _migrate(db, path)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            check_intact(db, path)  # switching to WAL rewrites the header: check first
        db.execute("PRAGMA journal_mode = WAL").fetchone()
        db.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise translate(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return db


def _migrate(db: Database, path: Path) -> None:
    readonly = db.execute("PRAGMA query_only").fetchone()[0]
    if readonly:
        raise LibraryError(f"{path}: read-only, and it needs an upgrade")
    # All under one write lock: two programs opening the library at once do not
    # both upgrade it, and a file that cannot be written fails before anything
    # is made. (So every migration must be transactional.)
    with write(db):
        pending = pending_migrations(db)
        if not pending:
            return
        if db.table_names():
            backup.before_upgrade(path, pending[0])
        else:
            db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        schema.migrations.apply(db)


@contextlib.contextmanager
def bulk_index(db: Database) -> Iterator[None]:
    """Inside a write: suspend the per-row triggers for a bulk insert.

    Meant for inserting new papers (ids above the current maximum) and new
    sightings. Afterwards their index rows and the stats of every paper that
    got a sighting are computed in two set-based statements and the triggers
    come back. On an error the caller's rollback restores the triggers too.
    """
    assert db.conn.in_transaction, "bulk_index runs inside write()"
    first_paper = db.execute("SELECT coalesce(max(id), 0) FROM papers").fetchone()[0]
    first_sighting = db.execute("SELECT coalesce(max(id), 0) FROM sightings").fetchone()[0]
    for name in schema.TRIGGER_NAMES + schema.MOMENTUM_TRIGGER_NAMES:
        db.execute(f"DROP TRIGGER {name}")
    yield
    for statement in schema.TRIGGERS + schema.MOMENTUM_TRIGGERS:
        db.execute(statement)
    db.execute(schema.MOMENTUM_BULK.format(papers="SELECT paper_id FROM sightings WHERE id > ?"),
               [first_sighting])
    db.execute("""UPDATE papers SET upvotes = s.up, seen_count = s.seen
        FROM (SELECT paper_id, max(upvotes) AS up, count(DISTINCT digest_id) AS seen
              FROM sightings
              WHERE paper_id IN (SELECT paper_id FROM sightings WHERE id > ?)
              GROUP BY paper_id) AS s
        WHERE papers.id = s.paper_id""", [first_sighting])
    db.execute("INSERT INTO papers_fts(rowid, title, abstract, notes, tags) "
               "SELECT id, title, abstract, '', '' FROM papers WHERE id > ?", [first_paper])
