"""A kept-in-sync file's record (``Sync``), read from the ``syncs`` table, and which
papers go into its file (``members``): what ``syncs`` (the area) and ``sync_write``
(the write) both read, on the floor below them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paperdesk.core.db.database import Database
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.text import tag_key
from paperdesk.core.sync.sync_states import CHANGED, CONFLICT, FAILED, NEW, PENDING


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


COLUMNS = ("id, path, source, value, style, ascii, state, message, entries, written_sha256, "
            "pending_sha256, written_at, layout_key, layout, library, generation, kept, "
            "(SELECT coalesce(max(generation), 0) FROM sync_changes)")

# The ``ascii`` column holds the sync's writing options as bits: 1 ASCII, 2 as written.
AS_WRITTEN = 2


def from_row(row: Any) -> Sync:
    (sid, path, source, value, style, ascii, state, message, entries, written, pending,
     written_at, layout_key, layout, library, generation, kept, now_at) = row
    return Sync(sid, path, source, value, style, bool(ascii & 1), state, message, entries,
                written, pending, written_at, layout_key, layout, bool(ascii & AS_WRITTEN),
                library, generation, kept, now_at)


def read(db: Database, sync_id: int) -> Sync | None:
    """The sync ``sync_id`` as the library holds it now, or None."""
    row = db.execute(f"SELECT {COLUMNS} FROM syncs WHERE id = ?", [sync_id]).fetchone()
    return from_row(row) if row else None


def saved_query(db: Database, name: str) -> str:
    """The query of the saved search ``name``; SyncError when there is none."""
    row = db.execute("SELECT query FROM saved_searches WHERE name = ?", [name]).fetchone()
    if row is None:
        raise SyncError(f"there is no saved search named {name!r}")
    return row[0]


def members(db: Database, sync: Sync) -> list[int] | None:
    """The ids of the papers that go in, by id; None for the whole library."""
    from paperdesk.core.search.search import search  # only for a sync of a query

    if sync.source == "all":
        return None
    if sync.source == "reading-list":
        ids = [r[0] for r in db.execute(
            "SELECT id FROM papers WHERE status = 'to-read' AND deleted_at IS NULL")]
    elif sync.source == "tag":
        ids = [r[0] for r in db.execute(
            "SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
            "JOIN papers p ON p.id = pt.paper_id "
            "WHERE t.name_key = ? AND p.deleted_at IS NULL", [tag_key(sync.value)])]
    else:
        query = sync.value if sync.source == "query" else saved_query(db, sync.value)
        ids = list(search(db, query).ids)
    return sorted(ids)
