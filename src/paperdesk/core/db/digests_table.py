"""The one module that writes the ``digests`` table and the ``sightings`` of their
entries (``tests/test_table_owners.py`` keeps the writes here).

A sighting is never edited but for the paper it belongs to, which a merge changes;
deleting a digest deletes its sightings (ON DELETE CASCADE). A sighting added,
moved or deleted recounts its paper's upvotes, sightings and momentum (triggers), so
inside an undoable edit these functions image those papers' rows with the sightings
(``images.cover``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from paperdesk.core.db import ids
from paperdesk.core.db.database import Database
from paperdesk.core.db.images import cover, cover_added, recording

_INSERT_SIGHTINGS = (
    "INSERT INTO sightings (id, digest_id, paper_id, position, line, raw_title, meta_raw,"
    " author_count, organization, organization_handle, published, published_raw,"
    " year_inferred, upvotes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def insert_digest(db: Database, values: Sequence[Any]) -> int | None:
    """A digest's row: its name, path, sha256, digest_date, year, year_source,
    daily_papers, encoding, entries, warnings and imported_at; its id (one no digest
    ever had: ``ids``). None, and nothing written, when a digest with that sha256 is
    in already (the column is unique: the same file imported by another program
    since the importer looked)."""
    digest_id = ids.first_free(db, "digests")
    cover_added(db, "digests", "id", [digest_id])
    inserted = db.execute(
        "INSERT INTO digests (id, name, path, sha256, digest_date, year, year_source,"
        " daily_papers, encoding, entries, warnings, imported_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (sha256) DO NOTHING",
        [digest_id, *values]).rowcount
    if not inserted:
        return None
    ids.mark_used(db, "digests")
    return digest_id


def set_counts(db: Database, digest_id: int, new_papers: int, merged: int) -> None:
    cover(db, "digests", "id", [digest_id], ("new_papers", "merged"))
    db.execute("UPDATE digests SET new_papers = ?, merged = ? WHERE id = ?",
               [new_papers, merged, digest_id])


def delete_digests(db: Database, ids: Sequence[int]) -> None:
    """Delete digests (and, by cascade, their sightings) in one statement."""
    if recording(db) is not None:
        cover(db, "digests", "id", ids)
        seen = [r[0] for r in db.execute(
            f"SELECT DISTINCT paper_id FROM sightings WHERE digest_id IN "
            f"({','.join('?' * len(ids)) or 'NULL'})", ids)]
        _cover_seen(db, seen)
    db.execute(f"DELETE FROM digests WHERE id IN ({','.join('?' * len(ids)) or 'NULL'})", ids)


def insert_sightings(db: Database, rows: Iterable[Sequence[Any]]) -> None:
    """(digest_id, paper_id, position, line, raw_title, meta_raw, author_count,
    organization, organization_handle, published, published_raw, year_inferred,
    upvotes) each, in one ``executemany``, under ids no sighting ever had (``ids``)."""
    first = ids.first_free(db, "sightings")
    if recording(db) is not None:
        rows = list(rows)
        _cover_seen(db, sorted({row[1] for row in rows}))
    db.conn.executemany(_INSERT_SIGHTINGS, ((first + n, *row) for n, row in enumerate(rows)))
    ids.mark_used(db, "sightings")


def move_sightings(db: Database, keep: int, others: Sequence[int]) -> None:
    """The sightings of ``others`` become ``keep``'s (a merge)."""
    _cover_seen(db, [keep, *others])
    db.execute(f"UPDATE sightings SET paper_id = ? WHERE paper_id IN "
               f"({','.join('?' * len(others))})", [keep, *others])


def _cover_seen(db: Database, paper_ids: Sequence[int]) -> None:
    """Image the sightings of ``paper_ids`` and their rows, which the sightings' triggers
    recount."""
    cover(db, "papers", "id", paper_ids)
    cover(db, "sightings", "paper_id", paper_ids)


_SHARED_DIGEST = ("name", "digest_date", "year", "year_source", "daily_papers", "encoding",
                  "entries", "new_papers", "merged", "warnings", "imported_at")


def set_columns(db: Database, digest_id: int, values: dict[str, Any]) -> None:
    """A digest's row as another computer holds it (an exchange; its path stays)."""
    names = [c for c in _SHARED_DIGEST if c in values]
    cover(db, "digests", "id", [digest_id])
    db.execute(f"UPDATE digests SET {', '.join(f'{c} = ?' for c in names)} WHERE id = ?",
               [*(values[c] for c in names), digest_id])


def _papers_of_sightings(db: Database, sighting_ids: Sequence[int]) -> set[int]:
    return {r[0] for r in db.execute(
        f"SELECT DISTINCT paper_id FROM sightings WHERE id IN "
        f"({','.join('?' * len(sighting_ids)) or 'NULL'})", list(sighting_ids))}


def delete_sightings(db: Database, sighting_ids: Sequence[int]) -> set[int]:
    """Delete sightings another computer no longer holds; the papers they were of."""
    if not sighting_ids:
        return set()
    papers = _papers_of_sightings(db, sighting_ids)
    _cover_seen(db, sorted(papers))
    db.conn.executemany("DELETE FROM sightings WHERE id = ?", [(i,) for i in sighting_ids])
    return papers


def set_sightings(db: Database, rows: Sequence[Sequence[Any]]) -> set[int]:
    """(id, paper_id, position, line, raw_title, meta_raw, author_count, organization,
    organization_handle, published, published_raw, year_inferred, upvotes) each: the
    sightings as another computer holds them (moved by a merge there); the papers
    they were and are of."""
    if not rows:
        return set()
    papers = _papers_of_sightings(db, [r[0] for r in rows]) | {r[1] for r in rows}
    _cover_seen(db, sorted(papers))
    db.conn.executemany(
        "UPDATE sightings SET paper_id = ?, position = ?, line = ?, raw_title = ?, "
        "meta_raw = ?, author_count = ?, organization = ?, organization_handle = ?, "
        "published = ?, published_raw = ?, year_inferred = ?, upvotes = ? WHERE id = ?",
        [(*r[1:], r[0]) for r in rows])
    return papers
