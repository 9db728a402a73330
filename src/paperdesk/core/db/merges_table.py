"""The one module that writes ``merges`` (each merge of duplicates, with the undo that
takes it apart) and ``not_duplicates`` (pairs the user said are different works);
``tests/test_table_owners.py`` keeps the writes here. Inside an undoable edit each
function first images the rows it writes (``images.cover``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover, cover_added


def add(db: Database, keep: int, others: Sequence[int], stamp: str,
        undo: dict[str, Any]) -> int:
    """Log the merge of ``others`` into ``keep`` with its undo (``Undo.to_json``); its id."""
    fresh = db.execute("SELECT coalesce(max(id), 0) + 1 FROM merges").fetchone()[0]
    cover_added(db, "merges", "id", [fresh])
    db.execute(
        "INSERT INTO merges (id, kept_id, merged_ids, created, undo) VALUES (?, ?, ?, ?, ?)",
        [fresh, keep, json.dumps(list(others)), stamp, json.dumps(undo)])
    return int(fresh)


def mark_undone(db: Database, merge_id: int, stamp: str) -> None:
    cover(db, "merges", "id", [merge_id])
    db.execute("UPDATE merges SET undone_at = ? WHERE id = ?", [stamp, merge_id])


def mark_different(db: Database, pairs: Sequence[tuple[int, int]], stamp: str) -> int:
    """Remember the (paper_a, paper_b) pairs (a < b) as different works; how many are new."""
    cover(db, "not_duplicates", "paper_a", sorted({a for a, _ in pairs}))
    return sum(db.execute(
        "INSERT OR IGNORE INTO not_duplicates (paper_a, paper_b, created) VALUES (?, ?, ?)",
        [a, b, stamp]).rowcount for a, b in pairs)


def unmark_different(db: Database, pairs: Sequence[tuple[int, int]]) -> None:
    """Forget (paper_a, paper_b) pairs (a < b) as different works (another computer's
    mark undone, carried by an exchange)."""
    cover(db, "not_duplicates", "paper_a", sorted({a for a, _ in pairs}))
    db.conn.executemany("DELETE FROM not_duplicates WHERE paper_a = ? AND paper_b = ?",
                        list(pairs))
