"""What the window reads for the sidebar and the table: counts, and the papers of one source.

A source is a ``(kind, value)`` pair: ("all", None), ("status", "read"),
("list", None) (the to-read papers, in the list's order),
("recent", None), ("tag", name), ("digest", id),
("saved", query). The reading itself is the core's (``Library.browse``); this
module only says how a source turns into a query of the search language.
"""

from __future__ import annotations

from typing import Any

from paperdesk.core.api import Library

Source = tuple[str, Any]
ALL: Source = ("all", None)


def source_ids(lib: Library, source: Source) -> list[int] | None:
    """Ids of the papers a source holds (None: every paper; saved searches: None too)."""
    return lib.browse.source_ids(*source)


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
    if source[0] == "digest" and (name := lib.browse.digest_name(source[1])) is not None:
        return 'digest:"{}"'.format(name.replace('"', " "))
    return ""


def counts(lib: Library) -> dict[str, Any]:
    """Everything the sidebar shows (``Library.browse.counts``)."""
    return lib.browse.counts()


def summary(lib: Library, ids: list[int]) -> dict[str, Any]:
    """What many selected papers share (``Library.browse.summary``)."""
    return lib.browse.summary(ids)
