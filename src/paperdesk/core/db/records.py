"""Papers as plain dicts with the stable JSON field names scripts rely on."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperdesk.core.db.database import Database, chunks, marks, select_in
from paperdesk.core.model import sources

LARGEST_ID = 2**63 - 1  # SQLite's largest integer


def storable(paper_id: int) -> bool:
    """Whether ``paper_id`` can be an id at all (SQLite refuses larger integers)."""
    return isinstance(paper_id, int) and -LARGEST_ID - 1 <= paper_id <= LARGEST_ID


def arxiv_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def _grouped(db: Database, sql: str, ids: Sequence[int]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for pid, value in select_in(db, sql, ids):
        out.setdefault(pid, []).append(value)
    return out


# The columns a record is made of, in the order ``_record`` unpacks them.
_COLUMNS = ("id, title, abstract, authors, author_count, organization, published, year, "
            "year_inferred, upvotes, rating, status, citekey, arxiv_id, doi, url, github, "
            "project_page, hub_upvotes, (id IN frozen_keys), sources, added, modified, read_at, "
            "seen_count, deleted_at, momentum, uid")


def _authors(value: str | None) -> list[Any]:
    return [] if not value or value == "[]" else json.loads(value)


def paper_dicts(db: Database, ids: Sequence[int], *, with_notes: bool = False) -> list[dict]:
    """Full records for ``ids``, in that order (missing ids are left out)."""
    rows: dict[int, tuple] = {}
    for part in chunks(ids):
        for row in db.execute(f"SELECT {_COLUMNS} FROM papers WHERE id IN "
                              f"({marks(len(part))})", part):
            rows[row[0]] = row
    present = [pid for pid in ids if pid in rows]
    tags = _grouped(db, "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t "
                        "ON t.id = pt.tag_id WHERE pt.paper_id IN ({marks}) "
                        "ORDER BY t.name COLLATE NOCASE", present)
    # The papers' sightings first, then their digests (CROSS JOIN keeps that order): with
    # few digests SQLite would otherwise walk every sighting of each digest (a single
    # 100,000-entry digest made `list --json` 2.5x slower).
    digests = _grouped(db, "SELECT DISTINCT s.paper_id, d.name FROM sightings s CROSS JOIN "
                           "digests d ON d.id = s.digest_id WHERE s.paper_id IN ({marks}) "
                           "ORDER BY d.digest_date, d.id", present)
    notes = _grouped(db, "SELECT paper_id, json_object('id', id, 'text', text, 'created', "
                         "created, 'updated', updated) FROM notes WHERE paper_id IN ({marks}) "
                         "ORDER BY created, id", present) if with_notes else {}
    out = []
    for pid in present:
        record = _record(rows[pid], digests.get(pid, []), tags.get(pid, []))
        if with_notes:
            record["notes"] = [json.loads(n) for n in notes.get(pid, [])]
        out.append(record)
    return out


def _record(row: tuple, digests: list[str], tags: list[str]) -> dict[str, Any]:
    (pid, title, abstract, authors_json, author_count, organization, published, year,
     year_inferred, upvotes, rating, status, citekey, arxiv_id, doi, url, github,
     project_page, hub_upvotes, citekey_frozen, recorded, added, modified, read_at,
     seen_count, deleted_at, momentum, uid) = row
    authors = _authors(authors_json)
    tracked = (title, abstract, authors, organization, published, year, arxiv_id, doi, url,
               github, project_page, upvotes, citekey)
    return {
        "id": pid, "uid": uid, "title": title, "abstract": abstract,
        "authors": authors, "author_count": author_count,
        "organization": organization, "published": published, "year": year,
        "year_inferred": bool(year_inferred), "upvotes": upvotes,
        "digests": digests, "rating": rating, "status": status,
        "tags": tags, "citekey": citekey,
        "arxiv_id": arxiv_id, "doi": doi,
        "url": url or (arxiv_url(arxiv_id) if arxiv_id else None),
        "github": github, "project_page": project_page,
        "hub_upvotes": hub_upvotes, "citekey_frozen": bool(citekey_frozen),
        "sources": sources.of_fields(recorded, seen_count, added, tracked),
        "added": added, "modified": modified, "read_at": read_at,
        "seen_count": seen_count, "deleted": deleted_at is not None,
        "momentum": momentum,
    }
