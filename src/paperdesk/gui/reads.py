"""Read-only queries behind the sidebar: counts, and the papers of one source.

A source is a ``(kind, value)`` pair: ("all", None), ("status", "read"),
("list", None) (the to-read papers, in the list's order),
("recent", None), ("tag", name), ("digest", id),
("saved", query). Everything here only reads; writes go through the core.
"""

from __future__ import annotations

import json
from typing import Any

from paperdesk.core.areas import queue
from paperdesk.core.library import Library

Source = tuple[str, Any]
ALL: Source = ("all", None)
_ALIVE = "p.deleted_at IS NULL"
# Papers added within this long of the newest paper count as recently imported.
RECENT_WINDOW = "-1 day"
_RECENT = (f"SELECT p.id FROM papers p WHERE {_ALIVE} AND p.added >= "
           f"strftime('%Y-%m-%dT%H:%M:%S', (SELECT max(added) FROM papers), '{RECENT_WINDOW}')")


def source_ids(lib: Library, source: Source) -> list[int] | None:
    """Ids of the papers a source holds (None: every paper; saved searches: None too)."""
    kind, value = source
    db = lib.db
    if kind == "status":
        sql, params = f"SELECT p.id FROM papers p WHERE {_ALIVE} AND p.status = ?", [value]
    elif kind == "recent":
        sql, params = _RECENT, []
    elif kind == "tag":
        sql, params = (f"SELECT p.id FROM papers p JOIN paper_tags pt ON pt.paper_id = p.id "
                       f"JOIN tags t ON t.id = pt.tag_id WHERE {_ALIVE} AND t.name = ?"), [value]
    elif kind == "digest":
        sql, params = (f"SELECT DISTINCT p.id FROM papers p JOIN sightings s "
                       f"ON s.paper_id = p.id WHERE {_ALIVE} AND s.digest_id = ?"), [value]
    else:
        return None
    return [r[0] for r in db.execute(sql, params)]


def source_query(source: Source) -> str | None:
    """The source as a query of the search language, or None for id-list sources."""
    kind, value = source
    if kind == "status":
        return f"status:{value}"
    if kind == "tag":
        return f'tag:"{value}"'
    if kind == "saved":
        return str(value)
    if kind == "list":
        return "status:to-read"  # the reading list is the to-read papers, in its own order
    if kind in ("recent", "digest"):
        return None
    return ""


def narrowing_query(lib: Library, source: Source) -> str:
    """A query that finds at least an id-list source's papers (so fewer ids are sorted)."""
    if source[0] == "digest":
        row = lib.db.execute("SELECT name FROM digests WHERE id = ?", [source[1]]).fetchone()
        if row:
            return 'digest:"{}"'.format(row[0].replace('"', " "))
    return ""


def counts(lib: Library) -> dict[str, Any]:
    """Everything the sidebar shows, from indexes only (cheap at 100,000 papers)."""
    db = lib.db
    status = dict(db.execute("SELECT status, count(*) FROM papers GROUP BY status").fetchall())
    since = db.execute("SELECT strftime('%Y-%m-%dT%H:%M:%S', (SELECT max(added) FROM papers), ?)",
                       [RECENT_WINDOW]).fetchone()[0]
    recent = db.execute("SELECT count(*) FROM papers WHERE added >= ?", [since]).fetchone()[0]
    # Papers in the trash do not count; there are few, read through their own index.
    for name, added in db.execute("SELECT status, added FROM papers WHERE deleted_at IS NOT NULL"):
        status[name] -= 1
        recent -= bool(since and added >= since)
    tags = [(t["name"], t["count"]) for t in lib.curation.tags()]
    digests = db.execute("SELECT id, name, entries, digest_date FROM digests "
                         "ORDER BY digest_date DESC, id DESC").fetchall()
    saved = [(s["name"], s["query"]) for s in lib.curation.saved_searches()]
    return {
        "all": sum(status.values()),
        "status": status,
        "list": status.get("to-read", 0),
        "next_up": queue.next_up(lib),
        "recent": recent,
        "tags": tags,
        "digests": digests,
        "saved": saved,
    }



def summary(lib: Library, ids: list[int]) -> dict[str, Any]:
    """What many selected papers share, from SQL: their exact number, the distinct
    ratings and statuses (up to two each), and how many carry each tag."""
    ids_json = json.dumps(ids)
    chosen = "SELECT value FROM json_each(?)"
    db = lib.db
    ratings = [r[0] for r in db.execute(
        f"SELECT DISTINCT rating FROM papers WHERE id IN ({chosen}) LIMIT 2", [ids_json])]
    statuses = [r[0] for r in db.execute(
        f"SELECT DISTINCT status FROM papers WHERE id IN ({chosen}) LIMIT 2", [ids_json])]
    tags = db.execute(
        f"SELECT t.name, count(*) FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
        f"WHERE pt.paper_id IN ({chosen}) GROUP BY t.id ORDER BY t.name COLLATE NOCASE",
        [ids_json]).fetchall()
    return {"count": len(ids), "ratings": ratings, "statuses": statuses, "tags": tags}
