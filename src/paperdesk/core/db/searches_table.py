"""The one module that writes ``saved_searches``, the user's named queries
(``tests/test_table_owners.py`` keeps the writes here). Inside an undoable edit each
function first images the rows it writes (``images.cover``)."""

from __future__ import annotations

from typing import Any

from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover


def save(db: Database, name: str, query: str, stamp: str) -> None:
    """Store the query under ``name``, replacing the query of one so named."""
    cover(db, "saved_searches", "name", [name])
    db.execute("INSERT INTO saved_searches (name, query, created) VALUES (?, ?, ?) "
               "ON CONFLICT (name) DO UPDATE SET query = excluded.query", [name, query, stamp])


def delete(db: Database, name: str) -> None:
    cover(db, "saved_searches", "name", [name])
    db.execute("DELETE FROM saved_searches WHERE name = ?", [name])


def listed(db: Database) -> list[dict[str, Any]]:
    """The saved searches (name, query), by name: the one read of the table, beside its
    writes, for the curation area and the sidebar's counts alike."""
    return list(db.query(
        "SELECT name, query FROM saved_searches ORDER BY name COLLATE NOCASE, id"))
