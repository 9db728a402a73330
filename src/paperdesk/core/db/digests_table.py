"""The one module that writes the ``digests`` table and the ``sightings`` of their
entries (``tests/test_table_owners.py`` keeps the writes here).

A sighting is never edited but for the paper it belongs to, which a merge changes;
deleting a digest deletes its sightings (ON DELETE CASCADE).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from paperdesk.core.db import ids

_INSERT_SIGHTINGS = (
    "INSERT INTO sightings (id, digest_id, paper_id, position, line, raw_title, meta_raw,"
    " author_count, organization, organization_handle, published, published_raw,"
    " year_inferred, upvotes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def insert_digest(db: Any, values: Sequence[Any]) -> int:
    """A digest's row: its name, path, sha256, digest_date, year, year_source,
    daily_papers, encoding, entries, warnings and imported_at; its id (one no digest
    ever had: ``ids``)."""
    digest_id = db.execute(
        "INSERT INTO digests (id, name, path, sha256, digest_date, year, year_source,"
        " daily_papers, encoding, entries, warnings, imported_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        [ids.first_free(db, "digests"), *values]).lastrowid
    ids.mark_used(db, "digests")
    return digest_id


def set_counts(db: Any, digest_id: int, new_papers: int, merged: int) -> None:
    db.execute("UPDATE digests SET new_papers = ?, merged = ? WHERE id = ?",
               [new_papers, merged, digest_id])


def delete_digests(db: Any, ids: Sequence[int]) -> None:
    """Delete digests (and, by cascade, their sightings) in one statement."""
    db.execute(f"DELETE FROM digests WHERE id IN ({','.join('?' * len(ids)) or 'NULL'})", ids)


def insert_sightings(db: Any, rows: Iterable[Sequence[Any]]) -> None:
    """(digest_id, paper_id, position, line, raw_title, meta_raw, author_count,
    organization, organization_handle, published, published_raw, year_inferred,
    upvotes) each, in one ``executemany``, under ids no sighting ever had (``ids``)."""
    first = ids.first_free(db, "sightings")
    db.conn.executemany(_INSERT_SIGHTINGS, ((first + n, *row) for n, row in enumerate(rows)))
    ids.mark_used(db, "sightings")


def move_sightings(db: Any, keep: int, others: Sequence[int]) -> None:
    """The sightings of ``others`` become ``keep``'s (a merge)."""
    db.execute(f"UPDATE sightings SET paper_id = ? WHERE paper_id IN "
               f"({','.join('?' * len(others))})", [keep, *others])
