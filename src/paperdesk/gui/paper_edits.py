"""The window's edits of papers, each a named operation (Anki's ``aqt/operations``):
one function per edit, taking the context and what the user chose, running the
core's write through the one operation runner (onto the undo stack).

The window, its detail pane and its actions connect to these; none of them spells an
edit as a lambda of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context


def set_rating(context: Context, ids: list[int], rating: int) -> Changes | None:
    return context.ops.edit(context.lib.curation.set_rating, ids, rating) if ids else None


def set_status(context: Context, ids: list[int], status: str) -> Changes | None:
    return context.ops.edit(context.lib.curation.set_status, ids, status) if ids else None


def add_tags(context: Context, ids: list[int], names: list[str]) -> Changes | None:
    return context.ops.edit(context.lib.curation.add_tags, ids, names)


def remove_tag(context: Context, ids: list[int], name: str) -> Changes | None:
    return context.ops.edit(context.lib.curation.remove_tags, ids, [name])


def save_note(context: Context, paper_id: int, note_id: int | None,
              text: str) -> Changes | None:
    """A note typed in the detail pane: added (when it is the first text), edited,
    or deleted (when emptied)."""
    cur = context.lib.curation
    if note_id is None:
        return context.ops.edit(cur.add_note, paper_id, text) if text.strip() else None
    if text.strip():
        return context.ops.edit(cur.edit_note, note_id, text)
    return context.ops.edit(cur.delete_note, note_id)


def set_year(context: Context, paper_id: int, year: int) -> Changes | None:
    return context.ops.edit(context.lib.curation.set_year, paper_id, year)


def save_search(context: Context, name: str, query: str) -> Changes | None:
    return context.ops.edit(context.lib.curation.save_search, name, query)


def delete_search(context: Context, name: str) -> Changes | None:
    return context.ops.edit(context.lib.curation.delete_search, name)
