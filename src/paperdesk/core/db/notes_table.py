"""The one module that writes the ``notes`` table (``tests/test_table_owners.py``
keeps the writes here); the annotation index follows through triggers. Inside an
undoable edit each function first images the rows it writes (``images.cover``)."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.db import ids
from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover


def add(db: Database, pid: int, text: str, stamp: str) -> int:
    """A new note on paper ``pid``; its id (one no note ever had: ``ids``)."""
    cover(db, "notes", "paper_id", [pid])
    note_id = ids.first_free(db, "notes")
    db.execute(
        "INSERT INTO notes (id, paper_id, text, created, updated) VALUES (?, ?, ?, ?, ?)",
        [note_id, pid, text, stamp, stamp])
    ids.mark_used(db, "notes")
    return note_id


def set_text(db: Database, note_id: int, text: str, stamp: str) -> None:
    cover(db, "notes", "id", [note_id])
    db.execute("UPDATE notes SET text = ?, updated = ? WHERE id = ?", [text, stamp, note_id])


def delete(db: Database, note_id: int) -> None:
    cover(db, "notes", "id", [note_id])
    db.execute("DELETE FROM notes WHERE id = ?", [note_id])


def move_notes(db: Database, keep: int, others: Sequence[int]) -> None:
    """The notes of ``others`` become ``keep``'s (a merge)."""
    cover(db, "notes", "paper_id", [keep, *others])
    db.execute(f"UPDATE notes SET paper_id = ? WHERE paper_id IN "
               f"({','.join('?' * len(others))})", [keep, *others])


def set_text_of(db: Database, pid: int, note_id: int, text: str, stamp: str) -> None:
    """``set_text`` imaged by its paper: for an edit that also adds notes (an exchange
    with another computer), whose images of notes are all by paper."""
    cover(db, "notes", "paper_id", [pid])
    db.execute("UPDATE notes SET text = ?, updated = ? WHERE id = ?", [text, stamp, note_id])


def delete_of(db: Database, pid: int, note_id: int) -> None:
    """``delete`` imaged by its paper (as ``set_text_of``)."""
    cover(db, "notes", "paper_id", [pid])
    db.execute("DELETE FROM notes WHERE id = ?", [note_id])


def set_times(db: Database, rows: Sequence[tuple[int, str, str]]) -> set[int]:
    """Give notes the (note_id, created, updated) times another computer wrote them at
    (an exchange, imaged by paper as ``set_text_of``); the papers whose notes they are."""
    if not rows:
        return set()
    wanted = [r[0] for r in rows]
    papers = {r[0] for r in db.execute(
        f"SELECT DISTINCT paper_id FROM notes WHERE id IN ({','.join('?' * len(wanted))})",
        wanted)}
    cover(db, "notes", "paper_id", sorted(papers))
    db.conn.executemany("UPDATE notes SET created = ?, updated = ? WHERE id = ?",
                        [(c, u, n) for n, c, u in rows])
    return papers
