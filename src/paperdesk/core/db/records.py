"""Papers as plain dicts with the stable JSON field names scripts rely on."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperdesk.core.db.database import Database
from paperdesk.core.db.idlists import chunks, marks, select_in
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


def paper_dicts(db: Database, ids: Sequence[int], *, with_notes: bool = False) -> list[dict]:
    """Full records for ``ids``, in that order (missing ids are left out)."""
    rows: dict[int, dict[str, Any]] = {}
    for part in chunks(ids):
        cursor = db.execute(f"SELECT * FROM papers WHERE id IN ({marks(len(part))})", part)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            record = dict(zip(names, row, strict=True))
            rows[record["id"]] = record
    present = [pid for pid in ids if pid in rows]
    tags = _grouped(db, "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t "
                        "ON t.id = pt.tag_id WHERE pt.paper_id IN ({marks}) "
                        "ORDER BY t.name COLLATE NOCASE", present)
    digests = _grouped(db, "SELECT DISTINCT s.paper_id, d.name FROM sightings s JOIN digests d "
                           "ON d.id = s.digest_id WHERE s.paper_id IN ({marks}) "
                           "ORDER BY d.digest_date, d.id", present)
    notes = _grouped(db, "SELECT paper_id, json_object('id', id, 'text', text, 'created', "
                         "created, 'updated', updated) FROM notes WHERE paper_id IN ({marks}) "
                         "ORDER BY created, id", present) if with_notes else {}
    out = []
    for pid in present:
        r = rows[pid]
        record = {
            "id": pid, "title": r["title"], "abstract": r["abstract"],
            "authors": json.loads(r["authors"] or "[]"), "author_count": r["author_count"],
            "organization": r["organization"], "published": r["published"], "year": r["year"],
            "year_inferred": bool(r["year_inferred"]), "upvotes": r["upvotes"],
            "digests": digests.get(pid, []), "rating": r["rating"], "status": r["status"],
            "tags": tags.get(pid, []), "citekey": r["citekey"],
            "arxiv_id": r["arxiv_id"], "doi": r["doi"],
            "url": r["url"] or (arxiv_url(r["arxiv_id"]) if r["arxiv_id"] else None),
            "github": r["github"], "project_page": r["project_page"],
            "hub_upvotes": r["hub_upvotes"], "citekey_frozen": bool(r["citekey_frozen"]),
            "sources": sources.of_paper(r),
            "added": r["added"], "modified": r["modified"], "read_at": r["read_at"],
            "seen_count": r["seen_count"], "deleted": r["deleted_at"] is not None,
            "momentum": r.get("momentum"),
        }
        if with_notes:
            record["notes"] = [json.loads(n) for n in notes.get(pid, [])]
        out.append(record)
    return out
