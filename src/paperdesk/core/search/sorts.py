"""The sort keys the CLI and the table accept, and the SQL behind each: apart from
``search.py`` so that a command can offer them without loading the query compiler."""

from __future__ import annotations

SORTS = {
    "id": "p.id",
    "title": "p.title_key",
    "year": "p.year",  # by year (indexed); "published" orders by the full date
    "published": "p.published",
    "upvotes": "p.upvotes",
    "rating": "p.rating",
    # unread, to-read, reading, read: the names in reverse, so the index serves it.
    "status": "p.status",
    "added": "p.added",
    "modified": "p.modified",
    "read": "p.read_at",
    "digests": "p.seen_count",
    "momentum": "p.momentum",
    "citekey": "p.citekey",
    "organization": "p.organization COLLATE NOCASE",
    "authors": "p.author_count",
    "reading-list": "p.list_position",
    "relevance": None,
}
