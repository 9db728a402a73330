"""Files kept in sync with the library: ``lib.syncs``.

A sync is a file plus what goes in it: the whole library, the papers matching a
query, a saved search (by name, so editing the search changes the file), a tag,
or the reading list; written as BibTeX, biblatex or CSL-JSON. Syncs live in the
library's ``syncs`` table, so the command line and the window share them. The
writing itself is ``core/sync/sync_write.py``; when to write, ``core/sync/sync_feed.py``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex import formats
from paperdesk.core.db import changes as ch
from paperdesk.core.db import files, syncs_table
from paperdesk.core.db.edits import now
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.text import tag_key
from paperdesk.core.sync import sync_disk
from paperdesk.core.sync.sync_states import CHANGED, CONFLICT, FAILED, NEW, OK, PENDING, WRITING

if TYPE_CHECKING:
    from paperdesk.core.library import Library
    from paperdesk.core.sync.sync_write import Outcome

__all__ = ["CHANGED", "CONFLICT", "FAILED", "NEW", "OK", "PENDING", "SOURCES", "STYLES",
           "WRITING", "Sync", "SyncError", "Syncs"]

SOURCES = ("all", "query", "search", "tag", "reading-list")
STYLES = formats.SYNC_STYLES  # the formats a file can be kept in (``core/bibtex/formats.py``)


class SyncError(PaperDeskError):
    """A sync cannot be added, found or written as asked."""


@dataclass
class Sync:
    id: int
    path: str
    source: str
    value: str
    style: str
    ascii: bool
    state: str
    message: str | None
    entries: int | None
    written_sha256: str | None
    pending_sha256: str | None
    written_at: str | None
    layout_key: str | None
    layout: bytes | None
    as_written: bool = False  # .bib fields exactly as written, bare specials and all
    library: str | None = None  # the library file it was made on (real path); None: older
    generation: int | None = None  # the library's generation its file holds (None: unknown)
    kept: str | None = None  # the conflict file a write kept someone else's version in
    library_generation: int = 0  # the library's generation when the sync was read

    @property
    def behind(self) -> bool:
        """The library has changes the file lacks (a program that made them stopped
        before it wrote the file, or is writing it now)."""
        return self.library_generation > (self.generation or 0)

    def describe(self) -> str:
        return {"all": "the whole library", "query": f"papers matching “{self.value}”",
                "search": f"saved search “{self.value}”", "tag": f"tag “{self.value}”",
                "reading-list": "the reading list"}[self.source]

    def state_text(self) -> str:
        """"up to date", "failed: why", "stopped: why"..."""
        if self.state == FAILED:
            return f"failed: {self.message}"
        if self.state == CONFLICT:
            return f"stopped: {self.message}"
        if self.state == CHANGED:
            return f"changed: {self.message}"
        if self.state == NEW:
            return "not written yet"
        if self.state == PENDING:
            return f"pending: {self.message}"
        if self.kept:
            return f"{self.state}; {self.kept_text()}"
        return self.state

    def kept_text(self) -> str:
        return (f"someone else's version, saved while PaperDesk wrote the file, is kept as "
                f"{self.kept}")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "path": self.path, "source": self.source, "value": self.value,
                "style": self.style, "ascii": self.ascii, "as_written": self.as_written,
                "state": self.state,
                "message": self.message, "entries": self.entries,
                "written_at": self.written_at, "written_sha256": self.written_sha256,
                "library": self.library, "generation": self.generation,
                "library_generation": self.library_generation, "kept": self.kept,
                "describe": self.describe()}


_COLUMNS = ("id, path, source, value, style, ascii, state, message, entries, written_sha256, "
            "pending_sha256, written_at, layout_key, layout, library, generation, kept, "
            "(SELECT coalesce(max(generation), 0) FROM sync_changes)")


def normal_path(path: str | os.PathLike[str]) -> str:
    return str(Path(path).expanduser().absolute())


class Syncs:
    """``lib.syncs``: add, list, remove and write kept-in-sync files."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def all(self) -> list[Sync]:
        return [_sync(r) for r in self.lib.db.execute(
            f"SELECT {_COLUMNS} FROM syncs ORDER BY id")]

    def get(self, path: str | os.PathLike[str]) -> Sync:
        row = self.lib.db.execute(f"SELECT {_COLUMNS} FROM syncs WHERE path = ?",
                                  [normal_path(path)]).fetchone()
        if row is None:
            raise SyncError(f"{normal_path(path)} is not kept in sync "
                            "(see `paperdesk sync list`)")
        return _sync(row)

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

    def behind(self) -> list[Sync]:
        """The syncs to write since the library has changes their files lack (or were
        never written). Not those that failed (the next change tries them again) nor
        those stopped until the user says: neither claims to be up to date."""
        return [s for s in self.all() if (s.state == OK and s.behind) or s.state == NEW]

    def stopped(self) -> list[Sync]:
        """The syncs that failed or stopped and are not resolved yet."""
        return [_sync(r) for r in self.lib.db.execute(
            f"SELECT {_COLUMNS} FROM syncs WHERE state IN (?, ?) ORDER BY id",
            [FAILED, CONFLICT])]

    def get_id(self, sync_id: int) -> Sync | None:
        row = self.lib.db.execute(f"SELECT {_COLUMNS} FROM syncs WHERE id = ?",
                                  [sync_id]).fetchone()
        return _sync(row) if row else None

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
            self.lib.search(value, limit=1)  # a malformed query is refused now, not later
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
        row = self.lib.db.execute("SELECT query FROM saved_searches WHERE name = ?",
                                  [name]).fetchone()
        if row is None:
            raise SyncError(f"there is no saved search named {name!r}")
        return row[0]

    def members(self, sync: Sync) -> list[int] | None:
        """The ids of the papers that go in, by id; None for the whole library."""
        db = self.lib.db
        if sync.source == "all":
            return None
        if sync.source == "reading-list":
            ids = self.lib.curation.reading_list()
        elif sync.source == "tag":
            ids = [r[0] for r in db.execute(
                "SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
                "JOIN papers p ON p.id = pt.paper_id "
                "WHERE t.name_key = ? AND p.deleted_at IS NULL", [tag_key(sync.value)])]
        else:
            query = sync.value if sync.source == "query" else self._saved_query(sync.value)
            ids = list(self.lib.search(query).ids)
        return sorted(ids)


def _sync(row: Any) -> Sync:
    (sid, path, source, value, style, ascii, state, message, entries, written, pending,
     written_at, layout_key, layout, library, generation, kept, now_at) = row
    return Sync(sid, path, source, value, style, bool(ascii & 1), state, message, entries,
                written, pending, written_at, layout_key, layout, bool(ascii & _AS_WRITTEN),
                library, generation, kept, now_at)


# The ``ascii`` column holds the sync's writing options as bits: 1 ASCII, 2 as written.
_AS_WRITTEN = 2


def _options(ascii: bool, as_written: bool) -> int:
    return int(ascii) | (_AS_WRITTEN if as_written else 0)
