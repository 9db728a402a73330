"""The one module that writes the ``follows`` table (migration 0025): the arXiv
categories and authors whose new papers Today brings, and the newest submission day
taken from each so far (so that the next Today asks only for what is newer)."""

from __future__ import annotations

from typing import Any

from paperdesk.core.db.database import Database


def add(db: Database, kind: str, value: str, at: str) -> bool:
    """Follow ``value``; False when it was followed already."""
    return db.execute("INSERT OR IGNORE INTO follows (kind, value, added) VALUES (?, ?, ?)",
                      [kind, value, at]).rowcount > 0


def remove(db: Database, kind: str, value: str) -> bool:
    return db.execute("DELETE FROM follows WHERE kind = ? AND value = ?",
                      [kind, value]).rowcount > 0


def set_newest(db: Database, kind: str, value: str, day: str) -> None:
    db.execute("UPDATE follows SET newest = ? WHERE kind = ? AND value = ? "
               "AND (newest IS NULL OR newest < ?)", [day, kind, value, day])


def listed(db: Database) -> list[dict[str, Any]]:
    cursor = db.execute("SELECT kind, value, added, newest FROM follows ORDER BY kind, value")
    return [dict(zip(("kind", "value", "added", "newest"), row, strict=True))
            for row in cursor]
