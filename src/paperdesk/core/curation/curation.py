"""What the user does with a paper after it arrives: ``Library.curation``.

Ratings, reading status and the reading list, year corrections and saved
searches live here; tags and notes in ``tags.py`` and ``notes.py``, mixed into
the one ``Curation`` object. Every write is one undoable ``Library.edit``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.citekey import refresh
from paperdesk.core.curation import queue
from paperdesk.core.curation.notes import Notes
from paperdesk.core.curation.tags import Tags
from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table, searches_table
from paperdesk.core.db.edits import Changed
from paperdesk.core.db.schema import STATUSES
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import CurationError as CurationError
from paperdesk.core.model.errors import NotFound
from paperdesk.core.model.sources import marked
from paperdesk.core.model.text import plural
from paperdesk.core.search.query import compile_query

if TYPE_CHECKING:
    from paperdesk.core.library import Library

__all__ = ["STATUSES", "Curation", "CurationError"]

MIN_YEAR, MAX_YEAR = 1000, 9999


@dataclass(frozen=True)

class YearSet(ch.Result):
    """The provisional keys a year correction remade: {paper id: (old key, new key)}."""

    rekeyed: dict[int, tuple[str, str]]


class Curation(Tags, Notes):
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    # -- rating, status, year ----------------------------------------------------

    def set_rating(self, ids: Iterable[int], rating: int) -> ch.Changes:
        """0-5 stars; 0 means unrated."""
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 5:
            raise CurationError(f"a rating is a whole number from 0 to 5, not {rating!r}")
        ids = self.lib.require(ids)
        if not ids:
            return ch.NOTHING
        label = (f"Rate {plural(len(ids), 'paper')} {plural(rating, 'star')}" if rating
                 else f"Clear the rating of {plural(len(ids), 'paper')}")
        with self.lib.edit(label, [ch.PAPERS], ids) as e:
            e.result = Changed(papers_table.set_rating(self.lib.db, ids, rating, now()))
        return e.changes

    def set_status(self, ids: Iterable[int], status: str) -> ch.Changes:
        """unread, to-read, reading or read.

        Becoming read stamps ``read_at``; any other status clears it. Papers
        that become to-read join the end of the reading list in the order given.
        """
        if status not in STATUSES:
            raise CurationError(f"unknown reading status {status!r}; "
                                f"choose from {', '.join(STATUSES)}")
        ids = self.lib.require(ids)
        if not ids:
            return ch.NOTHING
        label = f"Mark {plural(len(ids), 'paper')} {status}"
        with self.lib.edit(label, [ch.PAPERS], ids) as e:
            db = self.lib.db
            stamp = now()
            last = db.execute("SELECT coalesce(max(list_position), 0) FROM papers "
                              "WHERE list_position IS NOT NULL").fetchone()[0]
            # New list members join the end, in the order given.
            e.result = Changed(papers_table.set_status(db, ids, status, stamp, last))
        return e.changes

    def set_aside(self, ids: Iterable[int]) -> ch.Changes:
        """Triage's "seen": the papers stay unread but leave Today's backlog."""
        ids = self.lib.require(ids)
        if not ids:
            return ch.NOTHING
        with self.lib.edit(f"Set {plural(len(ids), 'paper')} aside as seen", [ch.PAPERS],
                           ids) as e:
            e.result = Changed(papers_table.set_seen(self.lib.db, ids, now()))
        return e.changes

    def set_year(self, paper_id: int, year: int) -> ch.Changes:
        """Correct a paper's year: sets ``year``, the year of ``published``, and
        clears ``year_inferred`` (the user's year is no longer a guess)."""
        if isinstance(year, bool) or not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
            raise CurationError(f"a year is a number from {MIN_YEAR} to {MAX_YEAR}, not {year!r}")
        (pid,) = self.lib.require([paper_id])
        row = self.lib.db.execute("SELECT published, year, year_inferred FROM papers "
                                  "WHERE id = ?", [pid]).fetchone()
        published = _with_year(row[0], year)
        if (published, year, 0) == tuple(row):
            return ch.NOTHING
        with self.lib.edit(f"Set year {year}", [ch.PAPERS], [pid]) as e:
            stamp = now()
            sources = self.lib.db.execute("SELECT sources FROM papers WHERE id = ?",
                                          [pid]).fetchone()[0]
            papers_table.set_year(self.lib.db, pid, year, published,
                                  marked(sources, ["year", "published"], "user", stamp), stamp)
            e.result = YearSet(refresh(self.lib.db, [pid]))  # a provisional key follows
        return e.changes

    # -- the reading list ----------------------------------------------------------

    def reading_list(self) -> list[int]:
        """The to-read papers (not in the trash), in the user's order."""
        return queue.reading_list(self.lib.db)

    def move_in_reading_list(self, paper_id: int, index: int) -> ch.Changes:
        """Move a paper to position ``index`` (0 = first) of the reading list."""
        order = self.reading_list()
        if paper_id not in order:
            self.lib.require([paper_id])
            raise CurationError(f"paper {paper_id} is not on the reading list (mark it to-read)")
        rest = [pid for pid in order if pid != paper_id]
        index = max(0, min(int(index), len(rest)))
        if order.index(paper_id) == index:
            return ch.NOTHING
        positions = dict(self.lib.db.execute(
            "SELECT id, list_position FROM papers WHERE status = 'to-read' "
            "AND deleted_at IS NULL"))
        before = positions[rest[index - 1]] if index > 0 else None
        after = positions[rest[index]] if index < len(rest) else None
        new = _between(before, after) if None not in positions.values() else None
        new_order = [*rest[:index], paper_id, *rest[index:]]
        renumber = new is None
        scope_ids = tuple(new_order) if renumber else (paper_id,)
        with self.lib.edit("Move in reading list", [ch.PAPERS], scope_ids) as e:
            if renumber:
                papers_table.set_list_positions(
                    self.lib.db, [(float(n + 1), pid) for n, pid in enumerate(new_order)])
            else:
                papers_table.set_list_position(self.lib.db, paper_id, new)
        return e.changes

    # -- saved searches ----------------------------------------------------------------

    def saved_searches(self) -> list[dict[str, Any]]:
        return searches_table.listed(self.lib.db)

    def save_search(self, name: str, query: str) -> ch.Changes:
        """Store (or replace) a named query; a malformed query raises QueryError."""
        name = " ".join(str(name).split())
        if not name:
            raise CurationError("a saved search needs a name")
        compile_query(query)
        with self.lib.edit(f"Save search {name}", [ch.SEARCHES]) as e:
            searches_table.save(self.lib.db, name, query, now())
        return e.changes

    def delete_search(self, name: str) -> ch.Changes:
        if not self.lib.db.execute("SELECT 1 FROM saved_searches WHERE name = ?",
                                   [name]).fetchone():
            raise NotFound(f"no saved search named {name!r}")
        with self.lib.edit(f"Delete search {name}", [ch.SEARCHES]) as e:
            searches_table.delete(self.lib.db, name)
        return e.changes


def _with_year(published: str | None, year: int) -> str | None:
    """``published`` moved to ``year``; 29 February becomes the 28th in other years."""
    if not published:
        return published
    try:
        day = dt.date.fromisoformat(published[:10])
    except ValueError:
        return f"{year:04d}{published[4:]}"
    try:
        return day.replace(year=year).isoformat() + published[10:]
    except ValueError:
        return day.replace(year=year, day=28).isoformat() + published[10:]


def _between(before: float | None, after: float | None) -> float | None:
    """A list position between two others, or None when floats run out of room."""
    if before is None:
        return 1.0 if after is None else after - 1.0
    if after is None:
        return before + 1.0
    middle = (before + after) / 2
    return middle if before < middle < after else None
