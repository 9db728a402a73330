"""Reading a library that cannot be written: on a read-only disk or folder, or a full disk.

A library in WAL mode needs its -shm (the shared index of the write-ahead log) to be
read the ordinary way, and SQLite makes and grows that file on the first read. On a
read-only disk it cannot be made; on a full disk it cannot grow ("disk I/O error"). So:

- on a read-only filesystem (``statvfs``, where the system has it) the library is read
  as an immutable file, which nothing can change there, unless a -wal holds changes
  it would miss; elsewhere a folder that cannot be written gives a read-only connection;
- on a full disk the connection takes the library for itself (``locking_mode =
  EXCLUSIVE`` before its first read: SQLite then keeps the log's index in its own
  memory, no -shm at all) and is read-only; a write says the disk is full. While
  another program has the library open its -shm exists already, and the ordinary
  open works.

Reads (``stats``, ``list``, ``show``), exports and backups to another disk then work.
``store.open_database`` opens libraries through these; ``backup`` its source.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from paperdesk.core.db import connection


def read_only_filesystem(folder: Path) -> bool:
    """Whether ``folder`` is on a filesystem mounted read-only (False where the system
    cannot say: ``statvfs`` is POSIX only)."""
    statvfs = getattr(os, "statvfs", None)
    if statvfs is None:
        return False
    try:
        return bool(statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def read_only_folder(path: Path) -> bool:
    """Whether the library's folder cannot be written (a read-only filesystem or folder),
    so SQLite cannot make the -wal and -shm files it needs."""
    return read_only_filesystem(path.parent) or not os.access(path.parent, os.W_OK)


def disk_full(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error is that of a disk with no room left (an -shm that cannot
    grow is reported as an I/O error)."""
    text = str(exc)
    return "disk I/O error" in text or "database or disk is full" in text


def full_disk_message(path: Path) -> str:
    """Why writes are refused: a full disk, or (room left) one that fails to write."""
    import shutil  # only on a disk that failed: an ordinary open need not load it

    try:
        full = shutil.disk_usage(path.parent).free < _ROOM
    except OSError:
        full = True
    if not full:
        return (f"{path}: the disk fails to write (disk I/O error); PaperDesk reads the "
                "library but cannot write to it; nothing was changed")
    return (f"{path}: the disk is full; PaperDesk reads the library but cannot write to "
            "it; nothing was changed (make room on the disk, then try again)")


_ROOM = 2**20  # less free space than this: the -shm could not grow for want of room


def connect_read_only(path: Path, timeout: float) -> connection.Connection:
    """A connection that reads ``path`` on a disk where it cannot be written."""
    wal = Path(f"{path}-wal")
    # Immutable (no locks, no -shm) only where nothing can change the file, and only
    # when there is no -wal with changes it would miss.
    immutable = read_only_filesystem(path.parent) and not (
        wal.exists() and wal.stat().st_size > 0)
    return connection.connect(path, mode="ro", immutable=immutable, timeout=timeout)


def connect_on_full_disk(path: Path, timeout: float) -> connection.Connection:
    """A read-only connection to ``path`` that needs no -shm (see the module's
    docstring); it has read the file."""
    conn = connection.connect(path, mode="rw", timeout=timeout)
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE").fetchone()
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("PRAGMA query_only = 1")
    except BaseException:
        conn.close()
        raise
    conn.refused = full_disk_message(path)
    return conn


def reading_connection(path: Path, timeout: float) -> connection.Connection:
    """A connection that reads the library at ``path`` whatever the disk: the ordinary
    one, else read-only on a read-only disk or folder, or on a full disk."""
    # access() tells a read-only disk too, even to root (statvfs, POSIX only, is left
    # to the read-only open)
    if not os.access(path.parent, os.W_OK):
        return connect_read_only(path, timeout)
    conn = connection.connect(path, timeout=timeout)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        conn.close()
        if not disk_full(exc):
            raise
        return connect_on_full_disk(path, timeout)
    return conn

