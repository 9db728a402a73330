"""The trash: deleting papers softly, restoring them, emptying for good.

A deleted paper keeps all its data (sightings, tags, notes) and only leaves
the views and searches; restoring brings it back as it was. Emptying the trash
removes the papers for good, but the edit still carries the row images to
undo it within the session.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table
from paperdesk.core.db.edits import Deleted
from paperdesk.core.model.clock import now
from paperdesk.core.model.text import plural

if TYPE_CHECKING:
    from paperdesk.core.library import Library


class Trash:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def ids(self) -> list[int]:
        """Papers in the trash, most recently deleted first."""
        return [r[0] for r in self.lib.db.execute(
            "SELECT id FROM papers WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id")]

    def count(self) -> int:
        """How many papers are in the trash (on the trash's own index)."""
        return self.lib.db.execute(
            "SELECT count(*) FROM papers WHERE deleted_at IS NOT NULL").fetchone()[0]

    def listing(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The papers in the trash (id, title, year, deleted_at), most recently deleted
        first; at most ``limit`` of them."""
        return list(self.lib.db.query(
            "SELECT id, title, year, deleted_at FROM papers WHERE deleted_at IS NOT NULL "
            "ORDER BY deleted_at DESC, id DESC LIMIT ?", [-1 if limit is None else limit]))

    def delete(self, paper_ids: Iterable[int]) -> ch.Changes:
        ids = self.lib.require(paper_ids)
        label = f"Move {plural(len(ids), 'paper')} to the trash"
        with self.lib.edit(label, {ch.PAPER_SET}, ids) as e:
            self._set(ids, now())
        return e.changes

    def restore(self, paper_ids: Iterable[int]) -> ch.Changes:
        ids = self.lib.require(paper_ids)
        label = f"Restore {plural(len(ids), 'paper')}"
        with self.lib.edit(label, {ch.PAPER_SET}, ids) as e:
            self._set(ids, None)
        return e.changes

    def empty(self) -> ch.Changes:
        """Delete every paper in the trash for good (undoable only through the Changes);
        the stored PDFs no attachment names any more go from the files folder with them
        (``lib.pdf.sweep``: those of attachments removed before too)."""
        ids = tuple(self.ids())
        with self.lib.edit(f"Empty the trash ({len(ids)} papers)", {ch.PAPER_SET, ch.TAGS},
                           ids) as e:
            papers_table.delete(self.lib.db, ids)
            e.result = Deleted(len(ids))
        self.lib.pdf.sweep()
        return e.changes

    def _set(self, ids: list[int], value: str | None) -> None:
        stamp = now()
        papers_table.mark_deleted(self.lib.db, ids, value, stamp)
