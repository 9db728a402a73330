"""What the window reads for the sidebar and the table: counts, and the papers of one source.

A source is a ``(kind, value)`` pair: ("all", None), ("status", "read"),
("list", None) (the to-read papers, in the list's order),
("recent", None), ("tag", name), ("digest", id),
("saved", query). The reading itself is the core's (``Library.browse``), and so is
the query a source and the search text make (``Library.browse.search``).
"""

from __future__ import annotations

from typing import Any

from paperdesk.core.api import Library

Source = tuple[str, Any]
ALL: Source = ("all", None)


def source_ids(lib: Library, source: Source) -> list[int] | None:
    """Ids of the papers a source holds (None: every paper; saved searches: None too)."""
    return lib.browse.source_ids(*source)


def counts(lib: Library) -> dict[str, Any]:
    """Everything the sidebar shows (``Library.browse.counts``)."""
    return lib.browse.counts()


def summary(lib: Library, ids: list[int]) -> dict[str, Any]:
    """What many selected papers share (``Library.browse.summary``)."""
    return lib.browse.summary(ids)
