"""One library file: recognising it, connecting to it, writing to it in
transactions, and saying in one line what went wrong.

A file that is not a PaperDesk library (another program's database, not
SQLite at all, or written by a newer PaperDesk) is refused without being
touched. Every commit is counted, so that writes made by other programs to a
library this process holds open are seen (``Watch``, at the end). ``store``
opens and upgrades libraries on top of this; ``backup`` copies and checks them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from paperdesk.core.db import connection, files, rescue, schema
from paperdesk.core.db.connection import moved
from paperdesk.core.db.database import Database
from paperdesk.core.model.errors import LibraryBusy, LibraryError

BUSY_TIMEOUT_S = 5.0
_SQLITE_MAGIC = b"SQLite format 3\x00"


def check_file(path: Path) -> bool:
    """Return True when the file exists and has content; refuse what is not SQLite.

    The header is read outside SQLite only when this process has no connection
    to the file (closing that descriptor would drop the connections' locks)."""
    if not path.parent.is_dir():
        raise LibraryError(f"{path}: the folder {path.parent} does not exist")
    if path.is_dir():
        raise LibraryError(f"{path}: is a folder, not a library file")
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        head = files.read_header(path)
    except OSError as exc:
        raise LibraryError(f"{path}: cannot be read ({exc.strerror})") from None
    if head is not None and head != _SQLITE_MAGIC:
        raise LibraryError(f"{path}: not a PaperDesk library (not an SQLite file)")
    return True


def applied(db: Database) -> list[str]:
    return schema.applied(db)


def check_identity(db: Database, path: Path) -> list[str]:
    """Refuse a file that is not a PaperDesk library or was written by a newer one;
    the migrations it has run (none for a new, empty file)."""
    # One read transaction: another program creating this library between two
    # separate reads would show an empty mark beside its new tables.
    with db.atomic():
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = set(db.table_names())
        found = applied(db) if app_id == schema.APPLICATION_ID else []
    if app_id != schema.APPLICATION_ID:
        if tables:
            raise LibraryError(f"{path}: not a PaperDesk library (another program's database)")
        return []
    unknown = [name for name in found if name not in schema.known_migrations()]
    if unknown:
        raise LibraryError(f"{path}: written by a newer PaperDesk (schema {unknown[-1]}); "
                           "please upgrade PaperDesk to open it")
    return found


def pending_migrations(db: Database) -> list[str]:
    return schema.pending(db)


def connect(path: Path, *, mode: str = "rwc", immutable: bool = False) -> connection.Connection:
    """A connection to the library file at ``path`` (see ``connection.connect``)."""
    return connection.connect(path, mode=mode, immutable=immutable, timeout=BUSY_TIMEOUT_S)


def check_intact(db: Database, path: Path) -> None:
    """Refuse a damaged file before writing anything to it."""
    found = db.execute("PRAGMA quick_check").fetchone()[0]
    if found != "ok":
        raise LibraryError(f"{path}: the library file is damaged "
                           f"({found.strip().splitlines()[-1]}); nothing was changed")


def cannot_write(db: Database, path: Path) -> bool:
    """Whether writes to the library are refused whatever they are: a damaged file, a
    read-only connection, a file or folder this process may not write (mode 0444)."""
    if getattr(db.conn, "damaged", None) or getattr(db.conn, "refused", None) \
            or db.execute("PRAGMA query_only").fetchone()[0]:
        return True
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


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
    refused = getattr(db.conn, "damaged", None) or getattr(db.conn, "refused", None)
    if refused:
        raise LibraryError(refused)
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        reason = moved(db.conn)  # under the write lock: is it still the library's file?
        if reason is not None:
            db.conn.execute("ROLLBACK")
            raise LibraryError(reason + _rescue(db.conn))
        yield db
        # Counts PaperDesk's commits in the file itself: a window tells another
        # program's writes from its own by it (``outside``).
        db.conn.execute("PRAGMA user_version = "
                        f"{(db.conn.execute('PRAGMA user_version').fetchone()[0] + 1) % 2**31}")
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    _commit(db.conn)
    reason = moved(db.conn)
    if reason is not None:  # moved during the transaction: it went to the old file
        raise LibraryError(reason.replace("this change was not saved",
                                          "this change went to the old file"))


def _commit(conn: sqlite3.Connection) -> None:
    library = getattr(conn, "library", None)
    with contextlib.suppress(AttributeError):  # a plain sqlite3 connection holds none
        # A committed write: closing may then tidy the file (Library.close).
        conn.wrote = True  # type: ignore[attr-defined]
    if library is None:
        conn.execute("COMMIT")
        return
    file = key(library)
    with commit_lock(file):
        conn.execute("COMMIT")
        committed(file)


def _rescue(conn: sqlite3.Connection) -> str:
    """The words to add to the error of a write refused because the library's files
    were taken away: where ``rescue`` saved what this program still saw."""
    saved = rescue.rescue(conn)
    return f"; the library as this program last saw it is saved in {saved}" if saved else ""


# -- writes made by other programs to a library this process holds open -------
#
# Every PaperDesk write transaction, in any program, adds one to the file's
# ``PRAGMA user_version`` before it commits (``dbfile.write``), and this process
# counts the commits of its own connections per library file, under a lock that
# the commit holds too. A look reads that count and ``user_version`` under the
# same lock, so the two always describe the same commits: when ``user_version``
# moved by more than this process's commits, another program wrote.
#
# SQLite's ``PRAGMA data_version`` catches what does not count itself: a program
# that is not PaperDesk writing to the file. When it moved while this process
# committed nothing, the change is taken as one from outside too (at worst a
# refresh too many, as after another program's statistics at its close).
# A look never waits for a commit under way: it is skipped, and the next one
# sees it.

_lock = threading.Lock()
_commits: dict[str, int] = {}  # library file -> commits by this process's connections
_committing: dict[str, threading.Lock] = {}
_WRAP = 1 << 31  # user_version: a signed 32-bit field of the header, kept positive


def key(path: Path) -> str:
    return os.path.realpath(path)


def commit_lock(file: str) -> threading.Lock:
    """Held by every connection of this process while it commits to ``file``."""
    with _lock:
        return _committing.setdefault(file, threading.Lock())


def committed(file: str) -> None:
    """A connection of this process has committed a write to ``file`` (called with
    ``commit_lock(file)`` held)."""
    with _lock:
        _commits[file] = _commits.get(file, 0) + 1


def commits(file: str) -> int:
    with _lock:
        return _commits.get(file, 0)


class Watch:
    """Tells whether a program other than this one has committed to the library since
    the last look."""

    def __init__(self, db: Database, file: str) -> None:
        self.db, self.file = db, file
        with commit_lock(file):
            self.mine, self.version, self.count = self._read()

    def _read(self) -> tuple[int, int, int]:
        mine = commits(self.file)
        version = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        count = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        return mine, version, count

    def changed(self) -> bool:
        """True when someone outside this process committed since the last call."""
        lock = commit_lock(self.file)
        if not lock.acquire(blocking=False):
            return False  # a commit of ours is under way: the next look sees it
        try:
            mine, version, count = self._read()
        finally:
            lock.release()
        ours = mine - self.mine
        counted = (count - self.count) % _WRAP
        moved = version != self.version
        self.mine, self.version, self.count = mine, version, count
        return counted > ours or (moved and ours == 0 and counted == 0)
