"""The one module that writes the ``notes`` table (``tests/test_table_owners.py``
keeps the writes here); the annotation index follows through triggers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paperdesk.core.db import ids


def add(db: Any, pid: int, text: str, stamp: str) -> int:
    """A new note on paper ``pid``; its id (one no note ever had: ``ids``)."""
    note_id = db.execute(
        "INSERT INTO notes (id, paper_id, text, created, updated) VALUES (?, ?, ?, ?, ?)",
        [ids.first_free(db, "notes"), pid, text, stamp, stamp]).lastrowid
    ids.mark_used(db, "notes")
    return note_id


def set_text(db: Any, note_id: int, text: str, stamp: str) -> None:
    db.execute("UPDATE notes SET text = ?, updated = ? WHERE id = ?", [text, stamp, note_id])


def delete(db: Any, note_id: int) -> None:
    db.execute("DELETE FROM notes WHERE id = ?", [note_id])


def move_notes(db: Any, keep: int, others: Sequence[int]) -> None:
    """The notes of ``others`` become ``keep``'s (a merge)."""
    db.execute(f"UPDATE notes SET paper_id = ? WHERE paper_id IN "
               f"({','.join('?' * len(others))})", [keep, *others])
