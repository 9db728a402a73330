"""Notes: several timestamped Markdown notes per paper; add, edit, delete.

A note's text is searched with the rest of the paper (the schema's triggers
keep the full-text index in step). Each change is one undoable edit that also
stamps the paper's ``modified`` time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db import notes_table, papers_table
from paperdesk.core.db.edits import NoteResult
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import CurationError, NotFound

if TYPE_CHECKING:
    from paperdesk.core.library import Library

MAX_NOTE_LENGTH = 1_000_000


def _text(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise CurationError("a note needs some text (delete the note to remove it)")
    if len(text) > MAX_NOTE_LENGTH:
        raise CurationError(f"a note is at most {MAX_NOTE_LENGTH:,} characters")
    return text


class Notes:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def notes(self, paper_id: int) -> list[dict[str, Any]]:
        """The paper's notes, oldest first: id, text, created, updated."""
        return list(self.lib.db.query(
            "SELECT id, text, created, updated FROM notes WHERE paper_id = ? "
            "ORDER BY created, id", [paper_id]))

    def note(self, note_id: int) -> dict[str, Any]:
        row = self.lib.db.execute("SELECT id, paper_id, text, created, updated FROM notes "
                                  "WHERE id = ?", [note_id]).fetchone()
        if row is None:
            raise NotFound(f"no note with id {note_id}")
        return dict(zip(("id", "paper_id", "text", "created", "updated"), row, strict=True))

    def add_note(self, paper_id: int, text: str) -> ch.Changes:
        (pid,) = self.lib.require([paper_id])
        text = _text(text)
        with self.lib.edit("Add note", [ch.NOTES, ch.PAPERS], [pid]) as e:
            stamp = now()
            e.result = NoteResult(notes_table.add(self.lib.db, pid, text, stamp))
            papers_table.touch(self.lib.db, pid, stamp)
        return e.changes

    def edit_note(self, note_id: int, text: str) -> ch.Changes:
        note = self.note(note_id)
        text = _text(text)
        if text == note["text"]:
            return ch.NOTHING
        pid = note["paper_id"]
        with self.lib.edit("Edit note", [ch.NOTES, ch.PAPERS], [pid]) as e:
            stamp = now()
            notes_table.set_text(self.lib.db, note_id, text, stamp)
            papers_table.touch(self.lib.db, pid, stamp)
            e.result = NoteResult(note_id)
        return e.changes

    def delete_note(self, note_id: int) -> ch.Changes:
        pid = self.note(note_id)["paper_id"]
        with self.lib.edit("Delete note", [ch.NOTES, ch.PAPERS], [pid]) as e:
            notes_table.delete(self.lib.db, note_id)
            papers_table.touch(self.lib.db, pid, now())
            e.result = NoteResult(note_id)
        return e.changes
