"""The one module that writes ``duplicate_candidates``, the papers in an open
duplicate group (``tests/test_table_owners.py`` keeps the writes here)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def add(db: Any, ids: Iterable[int]) -> None:
    """Flag ``ids`` in one ``executemany`` (one flagged already stays)."""
    db.conn.executemany("INSERT OR IGNORE INTO duplicate_candidates (paper_id) VALUES (?)",
                        [(pid,) for pid in ids])


def clear(db: Any) -> None:
    """Flag no paper (before a full scan flags its groups)."""
    db.execute("DELETE FROM duplicate_candidates")


def remove(db: Any, ids: Sequence[int]) -> None:
    """Flag ``ids`` no more, in one statement."""
    db.execute(f"DELETE FROM duplicate_candidates WHERE paper_id IN "
               f"({','.join('?' * len(ids))})", list(ids))


def remove_listed(db: Any) -> None:
    """Flag the papers of ``temp.ids`` no more."""
    db.execute("DELETE FROM duplicate_candidates WHERE paper_id IN (SELECT id FROM temp.ids)")
