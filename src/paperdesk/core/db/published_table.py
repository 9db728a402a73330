"""The one module that writes the ``published_versions`` table (migration 0030): the
venue each preprint appeared at, as the user accepted it (``core/hub/published.py``).
Inside an undoable edit each function first images the rows it writes
(``images.cover``), so Edit > Undo takes an acceptance back."""

from __future__ import annotations

from typing import Any

from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover

FIELDS = ("entry_type", "venue", "year", "pages", "volume", "doi", "source", "accepted")


def accept(db: Database, pid: int, version: dict[str, Any]) -> None:
    """Record ``version`` (FIELDS) as paper ``pid``'s published version, replacing any."""
    cover(db, "published_versions", "paper_id", [pid])
    db.execute(f"INSERT OR REPLACE INTO published_versions (paper_id, {', '.join(FIELDS)}) "
               f"VALUES (?, {', '.join('?' * len(FIELDS))})",
               [pid, *(version.get(name) for name in FIELDS)])


def forget(db: Database, pid: int) -> bool:
    cover(db, "published_versions", "paper_id", [pid])
    return db.execute("DELETE FROM published_versions WHERE paper_id = ?",
                      [pid]).rowcount > 0


def of(db: Database, pid: int) -> dict[str, Any] | None:
    row = db.execute(f"SELECT {', '.join(FIELDS)} FROM published_versions WHERE paper_id = ?",
                     [pid]).fetchone()
    return dict(zip(FIELDS, row, strict=True)) if row else None
