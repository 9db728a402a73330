"""What a program still holds of a library whose file was taken away under it.

When the library file is deleted, moved or replaced while this process has it open,
its last commits may be only in its -wal, which still carries the library's name:
the next program to open whatever file is at that path would replay it into that
file. So as soon as this process sees it (a look every ``LOOK_SECONDS`` by a thread
of its own, ``guard``; at the next write, ``dbfile.write``; when the library closes,
``Library.close``), once per library file:

- the library as this process still sees it (through its open descriptors: every
  commit that reported success) is copied to ``backups/NAME.rescued-STAMP.sqlite``
  beside the path (SQLite's backup API on the connection itself: no file of the
  library is opened or closed outside SQLite);
- its own -wal and -shm (the very files it opened, by identity) are moved into the
  backups folder under names SQLite never pairs with a file (``foreign_wal``), so
  nothing at the path replays them;
- one line says where the copy is.

An open of any library in this process looks first too (``look``), so a library
opened again at its path never finds this process's own -wal there.

A -wal left by a program killed before it looked is caught by the next opener
instead (``foreign_wal.guard``): set aside, not replayed.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import weakref
from datetime import datetime
from pathlib import Path

from paperdesk.core.db import connection, files, foreign_wal
from paperdesk.core.model.errors import LibraryError

LOOK_SECONDS = 0.5

_lock = threading.Lock()
_saved = connection.rescued_copies
_guarded: weakref.WeakSet = weakref.WeakSet()
_looking: threading.Thread | None = None


def rescue(conn: sqlite3.Connection) -> Path | None:
    """Once per library file taken away: copy what ``conn`` sees, set its own -wal and
    -shm aside, say so in one line; the copy (None if it could not be made)."""
    if not isinstance(conn, connection.Connection) or conn.identity is None:
        return None
    with conn.using, _lock:
        ident, library = conn.identity, Path(conn.library)  # type: ignore[arg-type]
        if ident is None:  # closed meanwhile
            return None
        if ident in _saved:
            conn.rescued = _saved[ident]
            return conn.rescued
        saved = None
        with contextlib.suppress(LibraryError, OSError, sqlite3.Error):
            saved = _copy(conn, library)
        with contextlib.suppress(OSError):
            foreign_wal.set_aside(library, "", expected=dict(conn.sides or {}))
        _saved[ident] = conn.rescued = saved
    why = connection.moved(conn) or f"{library}: the library file was taken away"
    import logging  # only for a library taken away: an ordinary open need not load it

    logging.getLogger("paperdesk").warning(
        "%s; the library as this program last saw it is saved in %s",
        why.split(";")[0], saved if saved else "no file (it could not be written)")
    return saved


def _copy(conn: sqlite3.Connection, library: Path) -> Path:
    folder = library.parent / "backups"
    folder.mkdir(exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    dest, n = folder / f"{library.stem}.rescued-{stamp}.sqlite", 1
    while dest.exists():
        n += 1
        dest = folder / f"{library.stem}.rescued-{stamp}-{n}.sqlite"
    try:
        mode = os.stat(library).st_mode & 0o666
    except OSError:
        mode = 0o600  # the library is gone: as private as can be
    with files.atomic_write(dest, kind="partial", max_mode=mode) as temp:
        target = connection.connect(temp)
        try:
            conn.backup(target)
            target.execute("PRAGMA journal_mode = DELETE").fetchone()
        finally:
            target.close()
    return dest


def guard(conn: sqlite3.Connection) -> None:
    """Look after ``conn`` from now on, while it is open (see the module's docstring)."""
    global _looking
    with _lock:
        _guarded.add(conn)
        if _looking is None or not _looking.is_alive():
            _looking = threading.Thread(target=_look, name="paperdesk-file-guard", daemon=True)
            _looking.start()


def look() -> int:
    """Rescue every library this process holds whose file was taken away and not yet
    rescued (the thread does it every ``LOOK_SECONDS``; an open does it first, so that
    the library opened again at its path finds none of this process's files there);
    how many libraries it still holds."""
    with _lock:
        conns = [c for c in list(_guarded) if c.identity is not None]
    for conn in conns:
        with contextlib.suppress(sqlite3.Error, LibraryError, OSError):
            if conn.identity is not None and conn.identity not in _saved \
                    and connection.moved(conn):
                rescue(conn)
    return len(conns)


def _look() -> None:
    global _looking
    stop = threading.Event()
    while True:
        stop.wait(LOOK_SECONDS)
        if not look():
            with _lock:
                if not any(c.identity is not None for c in list(_guarded)):
                    _looking = None
                    return
