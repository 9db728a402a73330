"""The one way PaperDesk opens an SQLite connection to a library file.

Every connection is counted in ``files``' registry by the file's identity, so
no code in this process opens and closes the file outside SQLite while it has
connections (which would drop their locks). Each connection remembers the
library file, -wal and -shm it opened; ``dbfile.write`` checks them under the
write lock before every write transaction, so a library deleted, moved or
replaced under a running program (or its -wal/-shm removed) is refused in one
line instead of writes that report success and go nowhere. Such a connection
closes without checkpointing, so it neither writes into those files nor
deletes the -wal of whatever is now at the library's path.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from paperdesk.core.db import files, sessions
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
    checked: bool = False  # the file was checked at open (after an unclean shutdown)

    def close(self) -> None:
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
        with contextlib.suppress(sqlite3.Error, LibraryError, OSError):
            if moved(self):
                # Its files are no longer the library's: closing must neither
                # checkpoint into them nor delete the -wal by name.
                _no_checkpoint_on_close(self)
        self.identity = None
        try:
            super().close()
        finally:
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
        conn = sqlite3.connect(_uri(path, **params), uri=True, timeout=timeout,
                               isolation_level=None, check_same_thread=False,
                               factory=Connection)
        ident = files.identity(path)
        if ident is not None:
            files.register(ident, path)
            conn.library, conn.identity = path, ident
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    return conn


def _side_identities(path: Path) -> dict[str, files.Identity | None]:
    real = os.path.realpath(path)  # SQLite puts them beside the file a link points to
    return {suffix: files.identity(f"{real}{suffix}") for suffix in ("-wal", "-shm")}


def watch(conn: sqlite3.Connection) -> None:
    """Remember the -wal and -shm the connection uses (it has read the library)."""
    if isinstance(conn, Connection) and conn.library is not None:
        conn.sides = _side_identities(conn.library)


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
    """Ask SQLite not to checkpoint (nor delete the -wal) when ``conn`` closes."""
    setconfig = getattr(conn, "setconfig", None)
    if setconfig is not None:  # Python 3.12+
        setconfig(_NO_CKPT_ON_CLOSE, True)
        return
    import _sqlite3

    lib = ctypes.CDLL(_sqlite3.__file__)
    handle = ctypes.c_void_p.from_address(id(conn) + object.__basicsize__).value
    lib.sqlite3_db_filename.restype = ctypes.c_char_p
    lib.sqlite3_db_filename.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    name = lib.sqlite3_db_filename(handle, b"main")
    if not name or os.fsdecode(name) not in (str(conn.library),
                                             os.path.realpath(str(conn.library))):
        return  # not the handle we think it is: leave it alone
    lib.sqlite3_db_config(ctypes.c_void_p(handle), ctypes.c_int(_NO_CKPT_ON_CLOSE),
                          ctypes.c_int(1), ctypes.c_void_p(None))
