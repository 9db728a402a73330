"""The one module that writes the ``highlights`` table (migration 0028): passages of
an attachment's pages marked in a colour, with a comment; rows of the library, never
written into the PDF.

Inside an undoable edit each function first images what it writes (``images.cover``),
always by ``attachment_id``: the one column highlights are imaged by in every edit (an
attachment's removal and a merge image them so too, ``attachments_table``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperdesk.core.db import ids
from paperdesk.core.db.database import Database, marks
from paperdesk.core.db.images import cover

COLUMNS = ("id", "attachment_id", "page", "quads", "text", "comment", "colour",
           "created_at", "modified_at")


def cover_attachments(db: Database, attachment_ids: Sequence[int]) -> None:
    """Image the highlights of ``attachment_ids`` before the attachments are written."""
    cover(db, "highlights", "attachment_id", attachment_ids)


def add(db: Database, attachment_id: int, page: int, quads: Sequence[Sequence[float]],
        text: str, colour: str, stamp: str, comment: str = "") -> int:
    """A new highlight on ``page`` (0-based) of an attachment; its id (never given
    before: ``ids``). ``quads``: [[x1, y1, ..., x4, y4], ...] in PDF points."""
    cover_attachments(db, [attachment_id])
    highlight_id = ids.first_free(db, "highlights")
    db.execute(
        "INSERT INTO highlights (id, attachment_id, page, quads, text, comment, colour, "
        "created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [highlight_id, attachment_id, page, json.dumps([list(q) for q in quads]), text,
         comment, colour, stamp, stamp])
    ids.mark_used(db, "highlights")
    return highlight_id


def _attachment_of(db: Database, highlight_id: int) -> int | None:
    row = db.execute("SELECT attachment_id FROM highlights WHERE id = ?",
                     [highlight_id]).fetchone()
    return None if row is None else int(row[0])


def set_fields(db: Database, highlight_id: int, stamp: str, *, comment: str | None = None,
               colour: str | None = None) -> bool:
    """Change a highlight's comment and/or colour; False when there is no such one."""
    attachment_id = _attachment_of(db, highlight_id)
    if attachment_id is None:
        return False
    cover_attachments(db, [attachment_id])
    db.execute("UPDATE highlights SET comment = coalesce(?, comment), "
               "colour = coalesce(?, colour), modified_at = ? WHERE id = ?",
               [comment, colour, stamp, highlight_id])
    return True


def delete(db: Database, highlight_id: int) -> bool:
    attachment_id = _attachment_of(db, highlight_id)
    if attachment_id is None:
        return False
    cover_attachments(db, [attachment_id])
    db.execute("DELETE FROM highlights WHERE id = ?", [highlight_id])
    return True


def move_highlights(db: Database, moves: Sequence[tuple[int, int]]) -> None:
    """The highlights of each (from, to) attachment pair become ``to``'s (a merge keeping
    one of two identical files)."""
    if not moves:
        return
    cover_attachments(db, sorted({a for pair in moves for a in pair}))
    db.conn.executemany("UPDATE highlights SET attachment_id = ? WHERE attachment_id = ?",
                        [[to, frm] for frm, to in moves])


def of_attachments(db: Database, attachment_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The highlights of ``attachment_ids``, by attachment, page and id (``quads``
    decoded)."""
    if not attachment_ids:
        return []
    cursor = db.execute(
        f"SELECT {', '.join(COLUMNS)} FROM highlights WHERE attachment_id IN "
        f"({marks(len(attachment_ids))}) ORDER BY attachment_id, page, id",
        list(attachment_ids))
    rows = [dict(zip(COLUMNS, r, strict=True)) for r in cursor]
    for row in rows:
        row["quads"] = json.loads(row["quads"])
    return rows


_SHARED = ("attachment_id", "page", "quads", "text", "comment", "colour", "created_at",
           "modified_at")


def insert_shared(db: Database, rows: Sequence[Sequence[Any]]) -> None:
    """Highlights as another computer made them (an exchange): ``_SHARED`` each, under
    ids never given before (``ids``)."""
    if not rows:
        return
    cover_attachments(db, sorted({r[0] for r in rows}))
    first = ids.first_free(db, "highlights")
    db.conn.executemany(
        f"INSERT INTO highlights (id, {', '.join(_SHARED)}) VALUES (?, {marks(len(_SHARED))})",
        [(first + n, *r) for n, r in enumerate(rows)])
    ids.mark_used(db, "highlights")


def set_shared(db: Database, rows: Sequence[Sequence[Any]]) -> None:
    """(id, ``_SHARED``...) each: highlights as another computer holds them now."""
    if not rows:
        return
    before = {r[0] for r in db.execute(
        f"SELECT DISTINCT attachment_id FROM highlights WHERE id IN ({marks(len(rows))})",
        [r[0] for r in rows])}
    cover_attachments(db, sorted(before | {r[1] for r in rows}))
    db.conn.executemany(
        f"UPDATE highlights SET {', '.join(f'{c} = ?' for c in _SHARED)} WHERE id = ?",
        [(*r[1:], r[0]) for r in rows])
