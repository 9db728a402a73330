"""The one way PaperDesk opens an SQLite connection to a library file.

Every connection is counted in ``files``' registry by the file's identity, so
no code in this process opens and closes the file outside SQLite while it has
connections (which would drop their locks). Each connection remembers the
library file, -wal and -shm it opened; ``dbfile.write`` checks them under the
write lock before every write transaction, so a library deleted, moved or
replaced under a running program (or its -wal/-shm removed) is refused in one
line instead of writes that report success and go nowhere. Such a connection
closes without checkpointing, so it neither writes into those files nor
deletes the -wal of whatever is now at the library's path (and ``rescue`` moves
that -wal away). Before this process's first connection to a file, a -wal beside
it that another file left under its name is set aside (``foreign_wal``).

SQLite checkpoints, and deletes the -wal, when the last connection to a library
closes: the one that gets the exclusive lock every other connection in WAL mode
holds shared (https://www.sqlite.org/wal.html). From Python 3.12 a connection on
moved files is told not to (``setconfig``, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).
Before, a read-only connection (``_keep``) is held beside a library's connections
from their first read of it: on moved files it closes after them, so none of
theirs is the last close, and a read-only connection never checkpoints. On
files that are still the library's it closes first, and the last close
checkpoints as always.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from pathlib import Path
from urllib.parse import quote

from paperdesk.core.db import files, foreign_wal, fulltext_db, sessions
from paperdesk.core.model.errors import LibraryError

BUSY_TIMEOUT_S = 5.0
_NO_CKPT_ON_CLOSE = 1006  # SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE


class Connection(sqlite3.Connection):
    """A connection counted in ``files``' registry, watching that its library file,
    -wal and -shm stay the ones it opened."""

    library: Path | None = None
    rescued: Path | None = None
    identity: files.Identity | None = None
    sides: dict[str, files.Identity | None] | None = None
    session: Path | None = None  # the marker folder of the library it holds open (sessions)
    damaged: str | None = None  # why writes are refused: the check at open found damage
    refused: str | None = None  # why writes are refused otherwise (a full disk: read_only)
    checked: bool = False  # the file was checked at open (after an unclean shutdown)
    wrote: bool = False  # a write was committed on it (Library.close then tidies the file)
    using: threading.RLock  # held to close it, and by a rescue copying from it (``rescue``)

    def close(self) -> None:
        with self.using:
            session, self.session = self.session, None
            try:
                self._close()
            finally:
                if session is not None:
                    sessions.leave(session)

    def _close(self) -> None:
        ident = self.identity
        if ident is None:
            super().close()
            return
        gone = False
        with contextlib.suppress(sqlite3.Error, LibraryError, OSError):
            # Files no longer the library's: closing must neither checkpoint
            # into them nor delete the -wal by name.
            gone = bool(moved(self))
            if gone:
                _no_checkpoint_on_close(self)
        self.identity = None
        with files.registry():  # the keeper goes with the library's last connection
            last = files.connections(ident) == 1
            keeper = _keepers.pop(ident, None) if last else None
            if last:
                rescued_copies.pop(ident, None)
        try:
            if keeper is not None and not gone:
                keeper.close()
            super().close()
        finally:
            if keeper is not None and gone:
                keeper.close()  # only now: the close above was not the last one
            files.unregister(ident)


def _uri(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path))}" + (f"?{query}" if query else "")


def connect(path: Path, *, mode: str = "rwc", immutable: bool = False,
            timeout: float = BUSY_TIMEOUT_S) -> Connection:
    """The one way PaperDesk opens a connection to a library file (or a backup)."""
    path = Path(path).absolute()
    params = {"mode": mode}
    if immutable:
        params["immutable"] = "1"
    with files.registry():
        if not immutable:  # a -wal another file left under this name is not replayed
            foreign_wal.guard(path)
        conn = sqlite3.connect(_uri(path, **params), uri=True, timeout=timeout,
                               isolation_level=None, check_same_thread=False,
                               factory=Connection)
        conn.using = threading.RLock()
        ident = files.identity(path)
        if ident is not None:
            files.register(ident, path)
            conn.library, conn.identity = path, ident
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    fulltext_db.register(conn, path)  # pdf: in a query reads the PDFs' text
    return conn


def _side_identities(path: Path) -> dict[str, files.Identity | None]:
    real = os.path.realpath(path)  # SQLite puts them beside the file a link points to
    return {suffix: files.identity(f"{real}{suffix}") for suffix in ("-wal", "-shm")}


def watch(conn: sqlite3.Connection) -> None:
    """Remember the -wal and -shm the connection uses (it has read the library)."""
    if isinstance(conn, Connection) and conn.library is not None:
        conn.sides = _side_identities(conn.library)
        if not hasattr(conn, "setconfig"):
            _keep(conn)


# Python 3.11: a read-only connection per library (by identity) with connections here.
_keepers: dict[files.Identity, sqlite3.Connection] = {}
# Libraries taken away under this process: the copy ``rescue`` made of each (None: it
# could not be made), while connections to it remain.
rescued_copies: dict[files.Identity, Path | None] = {}


def _keep(conn: Connection) -> None:
    """Hold a read-only connection beside ``conn``'s library, having read it (so it
    holds the library shared, as every connection in WAL mode does after a read)."""
    with files.registry():
        if conn.identity is None or conn.library is None or conn.identity in _keepers:
            return
        keeper = sqlite3.connect(_uri(conn.library, mode="ro"), uri=True,
                                 isolation_level=None, check_same_thread=False)
        try:
            keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            keeper.close()
            raise
        _keepers[conn.identity] = keeper


def moved(conn: sqlite3.Connection) -> str | None:
    """Why the connection's files are no longer the library's, or None."""
    if not isinstance(conn, Connection) or conn.library is None or conn.identity is None:
        return None
    path = conn.library
    now = files.identity(path)
    if now is None:
        return (f"{path}: the library file was deleted or moved while PaperDesk had it open; "
                "this change was not saved (open the library again)")
    if now != conn.identity:
        return (f"{path}: the library file was replaced by another file while PaperDesk had "
                "it open; this change was not saved (open the library again)")
    now_sides = _side_identities(path) if conn.sides else {}
    for suffix, before in (conn.sides or {}).items():
        if before is not None and now_sides[suffix] != before:
            return (f"{path}{suffix}: removed or replaced by another program while PaperDesk "
                    "had the library open; this change was not saved (close PaperDesk and "
                    "open the library again)")
    return None


def _no_checkpoint_on_close(conn: sqlite3.Connection) -> None:
    """Ask SQLite not to checkpoint (nor delete the -wal) when ``conn`` closes, where
    Python can (3.12+); before, the library's keeper closes after it (``_keep``)."""
    setconfig = getattr(conn, "setconfig", None)
    if setconfig is not None:
        setconfig(_NO_CKPT_ON_CLOSE, True)
