"""One library file: recognising it, connecting to it, writing to it in
transactions, and saying in one line what went wrong.

A file that is not a PaperDesk library (another program's database, not
SQLite at all, or written by a newer PaperDesk) is refused without being
touched. ``store`` opens and upgrades libraries on top of this; ``backup``
copies and checks them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from paperdesk.core import schema
from paperdesk.core.database import Database
from paperdesk.core.errors import LibraryBusy, LibraryError

BUSY_TIMEOUT_S = 5.0
_SQLITE_MAGIC = b"SQLite format 3\x00"


def check_file(path: Path) -> bool:
    """Return True when the file exists and has content; refuse what is not SQLite."""
    if not path.parent.is_dir():
        raise LibraryError(f"{path}: the folder {path.parent} does not exist")
    if path.is_dir():
        raise LibraryError(f"{path}: is a folder, not a library file")
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        head = _read_head(path)
    except OSError as exc:
        raise LibraryError(f"{path}: cannot be read ({exc.strerror})") from None
    if head != _SQLITE_MAGIC:
        raise LibraryError(f"{path}: not a PaperDesk library (not an SQLite file)")
    return True


# Descriptors of library files this process has read the header of, kept open for
# the life of the process: closing any descriptor of a database file drops every
# POSIX lock the process holds on it, its SQLite connections' included, and
# another program could then check the WAL in and delete it under them
# (sqlite.org/howtocorrupt.html, 2.2).
_HEADS: dict[tuple[int, int], int] = {}


def _read_head(path: Path) -> bytes:
    """The first 16 bytes of the file, without ever closing a descriptor of it."""
    if os.name == "nt":  # no POSIX locks to lose
        with path.open("rb") as f:
            return f.read(16)
    info = path.stat()
    fd = _HEADS.get((info.st_dev, info.st_ino))
    if fd is None:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        opened = os.fstat(fd)
        _HEADS[(opened.st_dev, opened.st_ino)] = fd
    return os.pread(fd, 16, 0)


def applied(db: Database) -> list[str]:
    return schema.migrations.applied(db)


def check_identity(db: Database, path: Path) -> None:
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    tables = set(db.table_names())
    if app_id != schema.APPLICATION_ID:
        if tables:
            raise LibraryError(f"{path}: not a PaperDesk library (another program's database)")
        return
    unknown = [name for name in applied(db) if name not in schema.known_migrations()]
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


def check_intact(db: Database, path: Path) -> None:
    """Refuse a damaged file before writing anything to it."""
    found = db.execute("PRAGMA quick_check").fetchone()[0]
    if found != "ok":
        raise LibraryError(f"{path}: the library file is damaged "
                           f"({found.strip().splitlines()[-1]}); nothing was changed")


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
