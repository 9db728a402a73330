"""Writes made by other programs to a library this process holds open.

SQLite's ``PRAGMA data_version`` on a connection changes whenever another
connection has committed to the file since the last time it was read: another
process (a command from a terminal or cron, a sync, a restore, another window)
or another connection of this process (the window's worker, its sync writer).
The second kind is heard already, through the change feed of the one who made
it, so this process counts the commits of its own connections per library file
(``committed``); a change of ``data_version`` while that count did not move is
a write from outside.

A commit of this process and one from outside that land between the same two
looks are taken together as this process's own: the outside one is heard at the
next change from outside. A look between a commit of this process and its
counting takes it for one from outside: one refresh too many, nothing lost.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from paperdesk.core.db.database import Database

_lock = threading.Lock()
_commits: dict[str, int] = {}  # library file -> commits by this process's connections


def key(path: Path) -> str:
    return os.path.realpath(path)


def committed(file: str) -> None:
    """A connection of this process has committed a write to ``file``."""
    with _lock:
        _commits[file] = _commits.get(file, 0) + 1


def commits(file: str) -> int:
    with _lock:
        return _commits.get(file, 0)


class Watch:
    """Tells whether a program other than this one has committed to the library since
    the last look; ``own`` counts the commits of the watching connection itself (its
    own writes do not move its ``data_version``)."""

    def __init__(self, db: Database, file: str) -> None:
        self.db, self.file = db, file
        self.own = 0
        self.version = self._version()
        self.others = commits(file)

    def _version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """True when someone outside this process committed since the last call."""
        version = self._version()
        others = commits(self.file) - self.own
        outside = version != self.version and others == self.others
        self.version, self.others = version, others
        return outside
