"""Ids are never given twice: the one module that writes ``id_tops`` (migrations 0017, 0019).

SQLite gives a new row of a table without AUTOINCREMENT the largest id plus one, so
once the newest papers were deleted (the trash emptied, an import undone, a merge)
the next ones took their ids, and an undo that put the old rows back met the new
ones under the same ids. ``id_tops`` keeps the highest id each of these tables ever
held; a new row gets an id above it (``first_free``) and every insert of new rows
raises it (``mark_used``), so an id, once given, stays that row's for good, and an
undo of any age puts its rows back under ids nobody took since. One small row a
table: no table is rebuilt (``papers`` keeps its plain ``INTEGER PRIMARY KEY``).
"""

from __future__ import annotations

from paperdesk.core.db.database import Database

# The tables whose ids an undo puts back and an insert gives.
TABLES = ("papers", "sightings", "notes", "digests", "tags", "imports", "attachments",
          "highlights")


def first_free(db: Database, table: str) -> int:
    """The first id of ``table`` that no row ever had."""
    assert table in TABLES, table
    return db.execute(
        f"SELECT max(coalesce((SELECT max(id) FROM [{table}]), 0), "
        "coalesce((SELECT top FROM id_tops WHERE name = ?), 0)) + 1", [table]).fetchone()[0]


def mark_used(db: Database, table: str) -> None:
    """Once new rows are in ``table``: its ids so far are taken for good."""
    assert table in TABLES, table
    db.execute(f"UPDATE id_tops SET top = (SELECT max(id) FROM [{table}]) "
               f"WHERE name = ? AND top < (SELECT max(id) FROM [{table}])", [table])
