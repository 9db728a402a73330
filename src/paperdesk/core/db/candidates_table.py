"""The one module that writes ``duplicate_candidates``, the papers in an open
duplicate group (``tests/test_table_owners.py`` keeps the writes here). Inside an
undoable edit each function first images the rows it writes (``images.cover``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paperdesk.core.db.database import Database, load_ids
from paperdesk.core.db.images import cover, recording


def add(db: Database, ids: Iterable[int]) -> None:
    """Flag ``ids`` in one ``executemany`` (one flagged already stays)."""
    if recording(db) is not None:
        ids = list(ids)
        cover(db, "duplicate_candidates", "paper_id", ids)
    db.conn.executemany("INSERT OR IGNORE INTO duplicate_candidates (paper_id) VALUES (?)",
                        [(pid,) for pid in ids])


def clear(db: Database) -> None:
    """Flag no paper (before a full scan flags its groups)."""
    if recording(db) is not None:
        cover(db, "duplicate_candidates", "paper_id",
              [r[0] for r in db.execute("SELECT paper_id FROM duplicate_candidates")])
    db.execute("DELETE FROM duplicate_candidates")


def remove(db: Database, ids: Sequence[int]) -> None:
    """Flag ``ids`` no more, in one statement."""
    cover(db, "duplicate_candidates", "paper_id", ids)
    table = load_ids(db, ids)
    db.execute(f"DELETE FROM duplicate_candidates WHERE paper_id IN (SELECT id FROM {table})")
