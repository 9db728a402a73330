"""Writes made by other programs to a library this process holds open.

Every PaperDesk write transaction, in any program, adds one to the file's
``PRAGMA user_version`` before it commits (``dbfile.write``), and this process
counts the commits of its own connections per library file, under a lock that
the commit holds too. A look reads that count and ``user_version`` under the
same lock, so the two always describe the same commits: when ``user_version``
moved by more than this process's commits, another program wrote.

SQLite's ``PRAGMA data_version`` catches what does not count itself: a program
that is not PaperDesk writing to the file. When it moved while this process
committed nothing, the change is taken as one from outside too (at worst a
refresh too many, as after another program's statistics at its close).
A look never waits for a commit under way: it is skipped, and the next one
sees it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from paperdesk.core.db.database import Database

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
