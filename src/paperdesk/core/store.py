"""Opening a library file safely, and writing to it in transactions.

One SQLite file in WAL mode with foreign keys on. A file that is not a
PaperDesk library (another program's database, not SQLite at all, or written
by a newer PaperDesk) is refused without being touched.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from sqlite_utils import Database

from paperdesk.core import schema
from paperdesk.core.errors import LibraryBusy, LibraryError

BUSY_TIMEOUT_S = 5.0
_SQLITE_MAGIC = b"SQLite format 3\x00"


def _check_file(path: Path) -> bool:
    """Return True when the file exists and has content; refuse what is not SQLite."""
    if not path.parent.is_dir():
        raise LibraryError(f"{path}: the folder {path.parent} does not exist")
    if path.is_dir():
        raise LibraryError(f"{path}: is a folder, not a library file")
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise LibraryError(f"{path}: cannot be read ({exc.strerror})") from None
    if head != _SQLITE_MAGIC:
        raise LibraryError(f"{path}: not a PaperDesk library (not an SQLite file)")
    return True


def _applied(db: Database) -> list[str]:
    return [m.name for m in schema.migrations.applied(db)]


def _check_identity(db: Database, path: Path) -> None:
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    tables = set(db.table_names())
    if app_id != schema.APPLICATION_ID:
        if tables:
            raise LibraryError(f"{path}: not a PaperDesk library (another program's database)")
        return
    unknown = [name for name in _applied(db) if name not in schema.known_migrations()]
    if unknown:
        raise LibraryError(f"{path}: written by a newer PaperDesk (schema {unknown[-1]}); "
                           "please upgrade PaperDesk to open it")


def pending_migrations(db: Database) -> list[str]:
    return [m.name for m in schema.migrations.pending(db)]


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def open_database(path: Path, *, create: bool = True, upgrade: bool = True) -> Database:
    """Open (creating or upgrading as needed) the library at ``path``."""
    path = Path(path).expanduser().absolute()
    exists = _check_file(path)
    if not exists and not create:
        raise LibraryError(f"{path}: no library there")
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        raise LibraryError(f"{path}: cannot open ({exc})") from None
    db = Database(conn)
    try:
        _check_identity(db, path)
        if upgrade and pending_migrations(db):
            _migrate(db, path)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _check_intact(db, path)  # switching to WAL rewrites the header: check first
        db.execute("PRAGMA journal_mode = WAL").fetchone()
        db.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise translate(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return db


def _check_intact(db: Database, path: Path) -> None:
    """Refuse a damaged file before writing anything to it."""
    found = db.execute("PRAGMA quick_check").fetchone()[0]
    if found != "ok":
        raise LibraryError(f"{path}: the library file is damaged "
                           f"({found.strip().splitlines()[-1]}); nothing was changed")


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
            from paperdesk.core import backup  # backup builds on this module

            backup.before_upgrade(path, pending[0])
        else:
            db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        schema.migrations.apply(db)


def translate(exc: sqlite3.Error, path: Path | str) -> LibraryError:
    """A one-line LibraryError for an sqlite3 error."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return LibraryBusy(f"{path}: the library is busy (another program is writing to it); "
                           "try again in a moment")
    if "readonly" in text or "read-only" in text:
        return LibraryError(f"{path}: the library is read-only; nothing was changed")
    if "not a database" in text or "malformed" in text:
        return LibraryError(f"{path}: the library file is damaged or not a library ({text})")
    if "disk" in text and ("full" in text or "I/O" in text):
        return LibraryError(f"{path}: cannot write the library ({text}); nothing was changed")
    return LibraryError(f"{path}: {text}")


@contextlib.contextmanager
def write(db: Database) -> Iterator[Database]:
    """One write transaction (BEGIN IMMEDIATE); nested calls become savepoints.

    On any error the whole transaction is rolled back and the error re-raised.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


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
