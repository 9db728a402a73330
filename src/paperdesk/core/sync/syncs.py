"""Files kept in sync with the library: ``lib.syncs``.

A sync is a file plus what goes in it: the whole library, the papers matching a
query, a saved search (by name, so editing the search changes the file), a tag,
or the reading list; written as BibTeX, biblatex or CSL-JSON. Syncs live in the
library's ``syncs`` table, so the command line and the window share them. The
writing itself is ``core/sync/sync_write.py``; when to write, ``core/sync/sync_feed.py``; the
record itself and what goes in, ``core/sync/sync_records.py``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.bibtex import formats
from paperdesk.core.db import changes as ch
from paperdesk.core.db import files, syncs_table
from paperdesk.core.db.edits import now
from paperdesk.core.search.search import searched
from paperdesk.core.sync import sync_disk, sync_records
from paperdesk.core.sync.sync_records import Sync as Sync
from paperdesk.core.sync.sync_records import SyncError as SyncError
from paperdesk.core.sync.sync_states import CHANGED, CONFLICT, FAILED, NEW, OK, PENDING, WRITING

if TYPE_CHECKING:
    from paperdesk.core.library import Library
    from paperdesk.core.sync.sync_write import Outcome

__all__ = ["CHANGED", "CONFLICT", "FAILED", "NEW", "OK", "PENDING", "SOURCES", "STYLES",
           "WRITING", "Sync", "SyncError", "Syncs"]

SOURCES = ("all", "query", "search", "tag", "reading-list")
STYLES = formats.SYNC_STYLES  # the formats a file can be kept in (``core/bibtex/formats.py``)


def normal_path(path: str | os.PathLike[str]) -> str:
    return str(Path(path).expanduser().absolute())


class Syncs:
    """``lib.syncs``: add, list, remove and write kept-in-sync files."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def all(self) -> list[Sync]:
        return [sync_records.from_row(r) for r in self.lib.db.execute(
            f"SELECT {sync_records.COLUMNS} FROM syncs ORDER BY id")]

    def get(self, path: str | os.PathLike[str]) -> Sync:
        row = self.lib.db.execute(f"SELECT {sync_records.COLUMNS} FROM syncs WHERE path = ?",
                                  [normal_path(path)]).fetchone()
        if row is None:
            raise SyncError(f"{normal_path(path)} is not kept in sync "
                            "(see `paperdesk sync list`)")
        return sync_records.from_row(row)

    def on_disk(self, sync: Sync, found: str | bool | None = True) -> Sync:
        """``sync`` with the state its file on disk has: one recorded "up to date" whose
        file is missing or no longer holds the bytes written is "changed" (``found``:
        the file's SHA-256 if already known, None if there is none)."""
        if sync.kept and not os.path.lexists(sync.kept):  # the conflict file was dealt with
            sync = dataclasses.replace(sync, kept=None)
        if sync.state != OK:
            return sync
        if found is True:
            found = sync_disk.sha256(Path(sync.path))
        if found in (sync.written_sha256, sync.pending_sha256) and found is not None:
            if sync.behind:
                return dataclasses.replace(sync, state=PENDING, message=(
                    "the library has changes the file does not hold yet (the program that "
                    "made them has not written it, or stopped before it did); the next "
                    "command writes it, or `paperdesk sync now`"))
            return sync
        why = ("the file is missing; it is written again at the next change (or sync now)"
               if found is None else "the file is not what PaperDesk last wrote (someone "
               "else changed it); the next write stops unless you overwrite it")
        return dataclasses.replace(sync, state=CHANGED, message=why)

    @staticmethod
    def file_sha256(path: str | os.PathLike[str]) -> str | None:
        """The SHA-256 of the file at ``path`` now, read bounded (``sync_disk.sha256``);
        reads no library, so any thread may ask."""
        return sync_disk.sha256(Path(path))

    def behind(self, among: list[Sync] | None = None) -> list[Sync]:
        """The syncs (of ``among``, just read; else of all) to write since the library
        has changes their files lack (or were never written). Not those that failed
        (the next change tries them again) nor those stopped until the user says:
        neither claims to be up to date."""
        return [s for s in (self.all() if among is None else among)
                if (s.state == OK and s.behind) or s.state == NEW]

    def stopped(self) -> list[Sync]:
        """The syncs that failed or stopped and are not resolved yet."""
        return [sync_records.from_row(r) for r in self.lib.db.execute(
            f"SELECT {sync_records.COLUMNS} FROM syncs WHERE state IN (?, ?) ORDER BY id",
            [FAILED, CONFLICT])]

    def get_id(self, sync_id: int) -> Sync | None:
        row = self.lib.db.execute(f"SELECT {sync_records.COLUMNS} FROM syncs WHERE id = ?",
                                  [sync_id]).fetchone()
        return sync_records.from_row(row) if row else None

    def add(self, path: str | os.PathLike[str], source: str = "all", value: str = "", *,
            style: str = "bibtex", ascii: bool = False, as_written: bool = False) -> Sync:
        """Record a new sync (it is written by ``write``); refuses what cannot work."""
        where = normal_path(path)
        if source not in SOURCES:
            raise SyncError(f"unknown source {source!r}: use {', '.join(SOURCES)}")
        if style not in STYLES:
            raise SyncError(f"unknown style {style!r}: use {', '.join(STYLES)}")
        value = value.strip()
        if source in ("query", "search", "tag") and not value:
            raise SyncError(f"a {source} sync needs a {source}")
        if source == "search":
            self._saved_query(value)
        if source == "query":
            searched(self.lib, value, limit=1)  # a malformed query is refused now, not later
        try:
            folder = Path(where).is_dir()
        except OSError as exc:  # a name too long...
            raise SyncError(f"{where}: cannot be used ({exc.strerror})") from None
        if folder:
            raise SyncError(f"{where} is a folder; name the file to keep in sync")
        if Path(where) in (self.lib.path, *self.lib.path.parent.glob(self.lib.path.name + "-*")):
            raise SyncError(f"{where} is the library itself")
        # Never a database, whichever program has it, nor a FIFO, device or socket.
        files.refuse_destination(Path(where))
        if self.lib.db.execute("SELECT 1 FROM syncs WHERE path = ?", [where]).fetchone():
            raise SyncError(f"{where} is already kept in sync")
        with self.lib.write(f"Keep {Path(where).name} in sync", [ch.SYNCS]):
            syncs_table.add(self.lib.db,
                            [where, source, value, style, _options(ascii, as_written), now(),
                             os.path.realpath(self.lib.path)])
        return self.get(where)

    def remove(self, path: str | os.PathLike[str]) -> Sync:
        """Stop keeping a file in sync (the file itself stays as it is)."""
        sync = self.get(path)
        with self.lib.write(f"Stop syncing {Path(sync.path).name}", [ch.SYNCS]):
            syncs_table.delete(self.lib.db, sync.id)
        return sync

    def write(self, sync: Sync, *, overwrite: bool = False,
              changed: set[int] | None = None, take: bool = False,
              wait: float | None = None) -> Outcome:
        """Bring the file up to date (see ``sync_write.write_sync``); ``take``: this
        library takes the sync over from the library file it was made on; ``wait``:
        seconds to wait for another program writing the file (0: it is left pending)."""
        from paperdesk.core.sync.sync_write import write_sync

        return write_sync(self.lib, sync, overwrite=overwrite, changed=changed, take=take,
                          wait=wait)

    def write_all(self, *, overwrite: bool = False) -> list[Outcome]:
        return [self.write(s, overwrite=overwrite) for s in self.all()]

    # -- what goes in -----------------------------------------------------------

    def _saved_query(self, name: str) -> str:
        return sync_records.saved_query(self.lib.db, name)

    def members(self, sync: Sync) -> list[int] | None:
        """The ids of the papers that go in, by id; None for the whole library."""
        return sync_records.members(self.lib.db, sync)


def _options(ascii: bool, as_written: bool) -> int:
    return int(ascii) | (sync_records.AS_WRITTEN if as_written else 0)
