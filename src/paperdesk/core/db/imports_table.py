"""The one module that writes the ``imports`` table (migration 0025): what each import
created, kept so that ``paperdesk import --undo`` and the window's Undo last import can
take the library's last import back after a restart, whoever made it.

A row: when, its label ("Undo import of x.txt and 2 more"), the files' names, and the
record (the digests it added, and a fingerprint of each paper it created).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperdesk.core.db import ids
from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover, cover_added


def insert(db: Database, at: str, label: str, names: Sequence[str], record: dict[str, Any]) -> int:
    row_id = ids.first_free(db, "imports")
    cover_added(db, "imports", "id", [row_id])
    db.execute(
        "INSERT INTO imports (id, at, label, files, record) VALUES (?, ?, ?, ?, ?)",
        [row_id, at, label, json.dumps(list(names), ensure_ascii=False),
         json.dumps(record, separators=(",", ":"))])
    ids.mark_used(db, "imports")
    return row_id


def delete(db: Database, row_id: int) -> None:
    cover(db, "imports", "id", [row_id])
    db.execute("DELETE FROM imports WHERE id = ?", [row_id])


def newest(db: Database, name: str | None = None) -> dict[str, Any] | None:
    """The newest import (of a file named ``name``, when given) still recorded."""
    where, args = ("", []) if name is None else (
        "WHERE EXISTS (SELECT 1 FROM json_each(files) WHERE value = ?)", [name])
    cursor = db.execute(f"SELECT id, at, label, files, record FROM imports {where} "
                        "ORDER BY id DESC LIMIT 1", args)
    row = cursor.fetchone()
    if row is None:
        return None
    return {"id": row[0], "at": row[1], "label": row[2], "files": json.loads(row[3]),
            "record": json.loads(row[4])}
