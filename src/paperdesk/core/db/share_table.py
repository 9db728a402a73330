"""The one module that writes the sharing tables of migration 0029
(``tests/test_table_owners.py`` keeps the writes here): ``share_doc``, the shared
document as this library last matched it (a compacted snapshot, then updates);
``share_state``, the share's settings and records as JSON text by key; and
``share_notes``, each note's stable id in the document.

None of them is imaged for undo: undoing what an exchange applied writes the
library back, and the next exchange shares that like any other edit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from paperdesk.core.db.database import Database


def doc_parts(db: Database) -> list[bytes]:
    """The document's stored parts, snapshot first."""
    return [bytes(r[0]) for r in db.execute("SELECT data FROM share_doc ORDER BY seq")]


def part_sizes(db: Database) -> tuple[int, ...]:
    """The sizes of the document's stored parts, snapshot first."""
    return tuple(r[0] for r in db.execute("SELECT length(data) FROM share_doc ORDER BY seq"))


def append_doc(db: Database, data: bytes) -> None:
    db.execute("INSERT INTO share_doc (data) VALUES (?)", [data])


def replace_doc(db: Database, snapshot: bytes) -> None:
    """The document as one compacted snapshot."""
    db.execute("DELETE FROM share_doc")
    db.execute("INSERT INTO share_doc (seq, data) VALUES (1, ?)", [snapshot])


def parts(db: Database) -> int:
    return db.execute("SELECT count(*) FROM share_doc").fetchone()[0]


def get(db: Database, key: str, default: Any = None) -> Any:
    row = db.execute("SELECT value FROM share_state WHERE key = ?", [key]).fetchone()
    return default if row is None or row[0] is None else json.loads(row[0])


def put(db: Database, key: str, value: Any) -> None:
    db.execute("INSERT INTO share_state (key, value) VALUES (?, ?) ON CONFLICT (key) "
               "DO UPDATE SET value = excluded.value", [key, json.dumps(value)])


def forget(db: Database, keys: Sequence[str]) -> None:
    db.conn.executemany("DELETE FROM share_state WHERE key = ?", [(k,) for k in keys])


def clear(db: Database) -> None:
    """The share stopped: its document and records go (the library's own rows stay)."""
    db.execute("DELETE FROM share_doc")
    db.execute("DELETE FROM share_state")


def note_uids(db: Database) -> dict[int, str]:
    return dict(db.execute("SELECT note_id, uid FROM share_notes").fetchall())


def set_note_uids(db: Database, pairs: Iterable[tuple[int, str]]) -> None:
    db.conn.executemany("INSERT OR REPLACE INTO share_notes (note_id, uid) VALUES (?, ?)",
                        list(pairs))
