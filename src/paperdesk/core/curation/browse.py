"""Reads for browsing a library: the sidebar's sources and counts, the papers of a
source that match a search, a selection summed up.

A source is a ``(kind, value)`` pair: ("all", None), ("status", "read"),
("list", None) (the to-read papers, in the list's order), ("recent", None),
("tag", name), ("digest", id), ("saved", query). Everything here only reads and
returns plain data (dicts, lists, named tuples); it is ``Library.browse``. The window
hands over the source and the user's search text as they are: the query around them
is written here, never by the window.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, NamedTuple

from paperdesk.core.curation import queue, tags
from paperdesk.core.db import images, searches_table
from paperdesk.core.db.database import select_in
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search import query_hints
from paperdesk.core.search.query import compile_query
from paperdesk.core.search.search import searched

if TYPE_CHECKING:
    from paperdesk.core.library import Library

_ALIVE = "p.deleted_at IS NULL"
# Papers added within this long of the newest paper count as recently imported.
RECENT_WINDOW = "-1 day"
_RECENT = (f"SELECT p.id FROM papers p WHERE {_ALIVE} AND p.added >= "
           f"strftime('%Y-%m-%dT%H:%M:%S', (SELECT max(added) FROM papers), '{RECENT_WINDOW}')")
_SOURCE_SQL = {
    "status": f"SELECT p.id FROM papers p WHERE {_ALIVE} AND p.status = ?",
    "recent": _RECENT,
    "tag": (f"SELECT p.id FROM papers p JOIN paper_tags pt ON pt.paper_id = p.id "
            f"JOIN tags t ON t.id = pt.tag_id WHERE {_ALIVE} AND t.name = ?"),
    "digest": (f"SELECT DISTINCT p.id FROM papers p JOIN sightings s "
               f"ON s.paper_id = p.id WHERE {_ALIVE} AND s.digest_id = ?"),
}


class TagCount(NamedTuple):
    name: str
    count: int  # type: ignore[assignment]  # the field, not tuple.count (as it always was)


class DigestEntry(NamedTuple):
    """One digest as the sidebar lists it."""

    id: int
    name: str
    entries: int
    date: str | None


class Found(NamedTuple):
    """The papers a search of a source found, in order, and whether they are all of
    them (else the first page: the rest is asked for again, without a limit)."""

    ids: list[int]
    complete: bool


def both(*queries: str | None) -> str:
    """The queries joined by AND; a lone query as it is, so that it keeps the nesting
    the query language allows (parentheses around it would be one more level)."""
    parts = [q for q in queries if q]
    return parts[0] if len(parts) == 1 else " ".join(f"({q})" for q in parts)


class Browse:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def source_query(self, kind: str, value: Any = None) -> str | None:
        """The source as a query of the search language, or None for the sources that
        are lists of ids (``source_ids``: recent, a digest)."""
        if kind == "status":
            return f"status:{value}"
        if kind == "tag":
            return f'tag:"{value}"'
        if kind == "saved":
            return str(value)
        if kind == "list":
            return "status:to-read"  # the reading list is the to-read papers, in its order
        if self.is_id_list(kind):
            return None
        return ""

    @staticmethod
    def is_id_list(kind: str) -> bool:
        """Whether a source of ``kind`` is a list of ids that ``search`` searches within
        (recent, a digest); the others are queries."""
        return kind in ("recent", "digest")

    def search(self, kind: str, value: Any = None, text: str = "", *,
               sort: str | None = None, descending: bool = False, limit: int | None = None,
               first_page: bool = False, within: Collection[int] | None = None) -> Found:
        """The papers of the source ``(kind, value)`` that match the user's search
        ``text``, sorted; the first ``limit`` (``first_page``: see ``Library.search``).

        A source that is a list of ids is searched whole, and kept to ``within`` (its
        ``source_ids``, read here when not given: a caller that searches it again and
        again reads them once); a query finding at least its papers narrows it first."""
        base = self.source_query(kind, value)
        if base is not None:
            found = searched(self.lib, both(base, text), sort=sort, descending=descending,
                                 limit=limit, first_page=first_page)
            return Found(found.ids, limit is None or (len(found.ids) < limit
                                                      and not found.partial))
        keep = set(self.source_ids(kind, value) or () if within is None else within)
        narrow = ""
        if kind == "digest" and (name := self.digest_name(value)) is not None:
            narrow = 'digest:"{}"'.format(name.replace('"', " "))
        matched = searched(self.lib, both(narrow, text), sort=sort, descending=descending).ids
        return Found([i for i in matched if i in keep], True)

    def ranks(self, text: str) -> bool:
        """Whether the search ``text`` searches words (so relevance can order it); False
        for text that is no query."""
        try:
            return compile_query(text).fts is not None
        except QueryError:
            return False

    def hint(self, text: str) -> str | None:
        """Why the search ``text`` may have found nothing, with the value probably
        meant; or None (``search/query_hints.py``)."""
        return query_hints.hint(self.lib, text)

    def empty_message(self, text: str, source_label: str) -> str:
        """What an empty table of the source ``source_label`` says for the search
        ``text``: nothing here, and a hint when one helps."""
        return query_hints.empty_message(self.lib, text, source_label)

    def source_ids(self, kind: str, value: Any = None) -> list[int] | None:
        """Ids of the papers a source holds (None: every paper; saved searches: None too)."""
        sql = _SOURCE_SQL.get(kind)
        if sql is None:
            return None
        params = [] if kind == "recent" else [value]
        return [r[0] for r in self.lib.db.execute(sql, params)]

    def digest_name(self, digest_id: int) -> str | None:
        row = self.lib.db.execute("SELECT name FROM digests WHERE id = ?", [digest_id]).fetchone()
        return row[0] if row else None

    def counts(self) -> dict[str, Any]:
        """Everything the sidebar shows, from indexes only (cheap at 100,000 papers)."""
        db = self.lib.db
        status = dict(db.execute("SELECT status, count(*) FROM papers GROUP BY status").fetchall())
        since = db.execute(
            "SELECT strftime('%Y-%m-%dT%H:%M:%S', (SELECT max(added) FROM papers), ?)",
            [RECENT_WINDOW]).fetchone()[0]
        recent = db.execute("SELECT count(*) FROM papers WHERE added >= ?", [since]).fetchone()[0]
        # Papers in the trash do not count; there are few, read through their own index.
        for name, added in db.execute("SELECT status, added FROM papers "
                                      "WHERE deleted_at IS NOT NULL"):
            status[name] -= 1
            recent -= bool(since and added >= since)
        return {
            "all": sum(status.values()),
            "status": status,
            "list": status.get("to-read", 0),
            "next_up": queue.next_up(self.lib),
            "recent": recent,
            "tags": [TagCount(t["name"], t["count"]) for t in tags.tag_counts(db)],
            "digests": [DigestEntry(*r) for r in db.execute(
                "SELECT id, name, entries, digest_date FROM digests "
                "ORDER BY digest_date DESC, id DESC")],
            "saved": [(s["name"], s["query"]) for s in searches_table.listed(db)],
        }

    def summary(self, ids: list[int]) -> dict[str, Any]:
        """What many selected papers share, from SQL: their exact number, the distinct
        ratings and statuses (up to two each), and how many carry each tag."""
        ids_json = json.dumps(ids)
        chosen = "SELECT value FROM json_each(?)"
        db = self.lib.db
        ratings = [r[0] for r in db.execute(
            f"SELECT DISTINCT rating FROM papers WHERE id IN ({chosen}) LIMIT 2", [ids_json])]
        statuses = [r[0] for r in db.execute(
            f"SELECT DISTINCT status FROM papers WHERE id IN ({chosen}) LIMIT 2", [ids_json])]
        tags = [TagCount(*r) for r in db.execute(
            f"SELECT t.name, count(*) FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
            f"WHERE pt.paper_id IN ({chosen}) GROUP BY t.id ORDER BY t.name COLLATE NOCASE",
            [ids_json])]
        return {"count": len(ids), "ratings": ratings, "statuses": statuses, "tags": tags}

    def titles(self, ids: list[int]) -> dict[int, str]:
        """The titles of papers, by id (ids that name no paper are left out)."""
        return dict(select_in(self.lib.db, "SELECT id, title FROM papers WHERE id IN ({marks})",
                              ids))

    def stored_rows(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        """The papers' rows as stored, every column, by id (to compare them field by field)."""
        return {r["id"]: r for r in images.stored(self.lib.db, "papers", "id", ids)}
