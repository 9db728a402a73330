"""The one module that writes the ``syncs`` table, the kept-in-sync files
(``tests/test_table_owners.py`` keeps the writes here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paperdesk.core.db.database import Database


def add(db: Database, values: Sequence[Any]) -> None:
    """A new kept-in-sync file: its path, source, value, style, options, created and the
    library it is made on."""
    db.execute("INSERT INTO syncs (path, source, value, style, ascii, created, library) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)", values)


def set_library(db: Database, sync_id: int, library: str) -> None:
    """The sync is kept by the library file ``library`` (its real path)."""
    db.execute("UPDATE syncs SET library = ? WHERE id = ?", [library, sync_id])


def adopt_unowned(db: Database, library: str) -> None:
    """The syncs made before their library was recorded are kept by ``library``."""
    db.execute("UPDATE syncs SET library = ? WHERE library IS NULL", [library])


def delete(db: Database, sync_id: int) -> None:
    db.execute("DELETE FROM syncs WHERE id = ?", [sync_id])


def forget_layout(db: Database, sync_id: int) -> None:
    """The entries' places in the file are not to be reused."""
    db.execute("UPDATE syncs SET layout = NULL WHERE id = ?", [sync_id])


def set_pending(db: Database, sync_id: int, sha256: str) -> None:
    """The hash of the bytes about to replace the file."""
    db.execute("UPDATE syncs SET pending_sha256 = ? WHERE id = ?", [sha256, sync_id])


def set_state(db: Database, sync_id: int, state: str, message: str | None) -> None:
    db.execute("UPDATE syncs SET state = ?, message = ? WHERE id = ?", [state, message, sync_id])


def set_written(db: Database, sync_id: int, sha256: str, stamp: str, entries: int | None,
                layout_key: str, layout: bytes | None, generation: int) -> None:
    """What was written: the bytes' hash, when, how many entries and where each is, and
    the library's generation they hold (``sync_changes``)."""
    db.execute(
        "UPDATE syncs SET written_sha256 = ?, pending_sha256 = NULL, written_at = ?, "
        "entries = ?, layout_key = ?, layout = ?, generation = ? WHERE id = ?",
        [sha256, stamp, entries, layout_key, layout, generation, sync_id])


def set_kept(db: Database, sync_id: int, kept: str) -> None:
    """The conflict file a write kept someone else's version of the file in."""
    db.execute("UPDATE syncs SET kept = ? WHERE id = ?", [kept, sync_id])
