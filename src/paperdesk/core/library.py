"""The one facade the GUI and the CLI call: ``Library``.

Reads return plain dicts and lists. Every write goes through one kernel,
``Library.write`` (``core/db/kernel.py``): one transaction, and a ``Changes`` record (with the data
needed to undo it) that the write returns and that every listener added with
``add_listener`` hears after the commit, as it hears every undo and redo. Areas of work
hang off the library as small objects (``lib.curation``, ``lib.queue``,
``lib.imports``, ``lib.bibtex``...: ``core/areas.py``) so that each stays in a file of its own.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.areas import Areas
from paperdesk.core.db import changes as ch
from paperdesk.core.db import known, records, rescue, store
from paperdesk.core.db.changes import Write as Write  # the write in progress
from paperdesk.core.db.kernel import Kernel
from paperdesk.core.db.kernel import Listener as Listener
from paperdesk.core.model.errors import NotFound
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress

if TYPE_CHECKING:
    import datetime as dt

    from paperdesk.core.hub.hub import Hub
    from paperdesk.core.hub.today import TodayResult
    from paperdesk.core.importing import importer
    from paperdesk.core.search.search import SearchResult


class Library(Kernel, Areas):
    """The library file open: the write kernel (``core/db/kernel.py``) with its areas
    of work (the properties of ``Areas``) and its reads."""

    # -- opening and closing -------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = True,
             new: bool = False) -> Library:
        """Open the library at ``path``; with ``create``, make it if the path is new.

        A library PaperDesk had at ``path`` that is now missing (or empty) is an
        error naming the path, unless ``new`` asks for an empty library there.
        """
        path = Path(path).expanduser().absolute()
        if not new:  # a library that went missing is named as such, made or not
            known.refuse_lost(path)
        lib = cls(store.open_database(path, create=create), path)
        if create:
            known.remember(path)
        return lib

    @property
    def name(self) -> str:
        return self.path.stem

    def settle(self) -> None:
        """Tidy the file after this connection's writes: statistics, and what the
        writes left in the write-ahead log into the main file. ``close`` does it; a
        connection kept open between jobs does it after each."""
        with contextlib.suppress(sqlite3.Error):
            # Statistics only after this session committed a write (a command that
            # only reads, or whose write was rolled back, as on a damaged page, never
            # writes the file), sampled so that it stays a few
            # milliseconds at any size. No integrity check here: reading the whole
            # file on every exit cost more than the commands themselves.
            # Nor into a file that is no longer the library's.
            if getattr(self.db.conn, "wrote", False) and store.moved(self.db.conn) is None:
                self.db.execute(f"PRAGMA analysis_limit = {store.ANALYSIS_LIMIT}")
                self.db.execute("PRAGMA optimize")
                # What an import left in the write-ahead log goes into the main file
                # now, on this connection, not at another's next commit.
                store.checkpoint(self.db)
                self.db.conn.wrote = False  # type: ignore[attr-defined]

    def moved(self) -> bool:
        """Whether the library's file was deleted, moved or replaced under this connection."""
        return store.moved(self.db.conn) is not None

    def close(self) -> None:
        if "pdf" in self.__dict__:  # its PDF reader process, if one was started
            self.pdf.close()
        if self.moved():  # its last commits may be only in its -wal: copied, set aside
            rescue.rescue(self.db.conn)
        self.settle()
        self.db.close()

    def backup(self, dest: str | os.PathLike[str] | None = None) -> Path:
        """A consistent copy of the library, safe while it is being written to;
        ``dest`` defaults to a new timestamped file in ``backups/`` beside it."""
        from paperdesk.core.db.backup import backup_library

        # On a full disk this connection has the library to itself: the copy reads it.
        holder = self.db.conn if getattr(self.db.conn, "refused", None) else None
        return backup_library(self.path, Path(dest) if dest is not None else None,
                              holder=holder)

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def undo(self, undo: ch.Undo) -> ch.Changes:
        return self._restore(undo, before=True)

    def redo(self, undo: ch.Undo) -> ch.Changes:
        return self._restore(undo, before=False)

    def _restore(self, undo: ch.Undo, *, before: bool) -> ch.Changes:
        """Write the images back; no key that left PaperDesk changes or comes to mean
        another paper (``paper_restore``): the result (``ch.Restored``) names the papers
        put back under a fresh key and those moved to the trash instead of deleted."""
        from paperdesk.core.bibtex.citekey import key_maker

        kinds, ids = ch.affected(undo)
        how = ch.UNDONE if before else ch.REDONE
        with self.write(undo.label) as w:
            result = ch.restore(self.db, undo.images, before=before, new_key=key_maker(self.db),
                                trash_frozen=undo.trash_frozen)
            ids |= set(result.rekeyed)  # a paper outside the images may yield its key
            w.changes = ch.Changes(undo.label, frozenset(kinds), frozenset(ids), undo,
                                   result, how=how)
        return w.changes

    # -- the Hugging Face Hub (asked only when the user asks) -------------------

    def enrich(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               hub: Hub | None = None, progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> ch.Changes:
        """Complete papers (``ids``, those matching ``query``, else all) from the Hub;
        one undoable edit whose result is an ``enrich.EnrichResult``."""
        from paperdesk.core.hub.enrich import enrich

        if query:
            matching = self.search(query).ids
            ids = [i for i in ids if i in set(matching)] if ids is not None else matching
        return enrich(self, ids, hub=hub, progress=progress, cancel=cancel)

    def add(self, texts: Sequence[str], *, hub: Hub | None = None,
            progress: Progress = no_progress, cancel: CancelFlag | None = None) -> ch.Changes:
        """Add the papers that arXiv ids, links and DOIs name; one undoable edit whose
        result is an ``add.AddResult`` (core/hub/add.py)."""
        from paperdesk.core.hub.add import add

        return add(self, texts, hub=hub, progress=progress, cancel=cancel)

    def fetch_pdfs(self, ids: Sequence[int] | None, *, to_read_only: bool = False,
                   progress: Progress = no_progress,
                   cancel: CancelFlag | None = None) -> ch.Changes:
        """Fetch and attach the arXiv PDFs of ``ids``; one undoable edit whose result is
        a ``pdf_fetch.FetchResult`` (core/hub/pdf_fetch.py). ``to_read_only`` (or no
        ``ids``): only those marked to-read that have an arXiv id and no PDF yet."""
        from paperdesk.core.hub.pdf_fetch import fetch_pdfs, to_read_without_pdf

        if ids is None or to_read_only:
            ids = to_read_without_pdf(self, ids)
        return fetch_pdfs(self, ids, progress=progress, cancel=cancel)

    def fetch_daily(self, first: dt.date, last: dt.date | None = None, *,
                    hub: Hub | None = None, progress: Progress = no_progress,
                    cancel: CancelFlag | None = None) -> list[Any]:
        """Import the Hub's daily papers of ``first``..``last`` as digests, complete."""
        from paperdesk.core.hub.daily import fetch_days

        return fetch_days(self, first, last or first, hub=hub, progress=progress,
                          cancel=cancel)

    def fetch_today(self, today: dt.date | None = None, *, hub: Hub | None = None,
                    progress: Progress | None = None, cancel: CancelFlag | None = None,
                    arrived: Callable[[list[int]], None] | None = None) -> TodayResult:
        """Today: the days since the last fetch, the new papers completed and named
        (``arrived`` hears each day's as soon as it is in)."""
        from paperdesk.core.hub.today import fetch_today

        return fetch_today(self, today, hub=hub, progress=progress, cancel=cancel,
                           arrived=arrived)

    # -- importing -------------------------------------------------------------

    def import_paths(self, paths: Iterable[str | os.PathLike[str]],
                     progress: Progress = no_progress,
                     cancel: CancelFlag | None = None) -> importer.ImportResult:
        """Import files and folders, each file in a write of its own; the result
        reads as the list of ``FileReport``s and carries the combined ``changes``."""
        from paperdesk.core.importing import importer

        return importer.import_paths(self, paths, progress, cancel)

    # -- reading ---------------------------------------------------------------

    def paper(self, paper_id: int, *, with_notes: bool = True) -> dict[str, Any]:
        found = (records.paper_dicts(self.db, [paper_id], with_notes=with_notes)
                 if records.storable(paper_id) else [])
        if not found:
            raise NotFound(f"no paper with id {paper_id}")
        return found[0]

    def papers(self, ids: Sequence[int], *, with_notes: bool = False) -> list[dict[str, Any]]:
        return records.paper_dicts(self.db, ids, with_notes=with_notes)

    def iter_papers(self, ids: Sequence[int], *, with_notes: bool = False,
                    chunk: int = 500) -> Iterator[dict[str, Any]]:
        """``papers(ids)`` a few hundred at a time: memory stays flat however many."""
        for start in range(0, len(ids), chunk):
            yield from records.paper_dicts(self.db, ids[start:start + chunk],
                                           with_notes=with_notes)

    def search(self, query: str = "", *, sort: str | None = None, descending: bool = False,
               limit: int | None = None, offset: int = 0,
               include_deleted: bool = False, first_page: bool = False) -> SearchResult:
        """Ids of the papers matching ``query``, sorted, run in SQL (``first_page``: see
        ``search.search.search``)."""
        from paperdesk.core.search.search import (
            searched,  # not loaded by commands that do not search
        )

        return searched(self, query, sort=sort, descending=descending, limit=limit,
                        offset=offset, include_deleted=include_deleted, first_page=first_page)

    def sightings(self, paper_id: int) -> list[dict[str, Any]]:
        """Where and how a paper was seen: one row per digest entry, oldest first."""
        return list(self.db.query(
            """SELECT s.id, s.digest_id, d.name AS digest, d.digest_date, s.position, s.line,
                      s.raw_title, s.meta_raw, s.published, s.published_raw, s.year_inferred,
                      s.upvotes, s.author_count, s.organization
               FROM sightings s JOIN digests d ON d.id = s.digest_id
               WHERE s.paper_id = ? ORDER BY d.digest_date, d.id""", [paper_id]))

    def digests(self) -> list[dict[str, Any]]:
        return list(self.db.query(
            """SELECT d.id, d.name, d.digest_date, d.year, d.year_source, d.daily_papers,
                      d.entries, d.new_papers, d.merged, d.imported_at,
                      (SELECT count(DISTINCT paper_id) FROM sightings s
                       WHERE s.digest_id = d.id) AS papers
               FROM digests d ORDER BY d.digest_date DESC, d.id DESC"""))

    def stats(self) -> dict[str, int]:
        one = lambda sql: self.db.execute(sql).fetchone()[0]  # noqa: E731
        # Counted on indexes, never by reading the rows (with their abstracts):
        # all papers on the smallest index, the trash and the inferred years on
        # their partial indexes.
        trash = one("SELECT count(*) FROM papers WHERE deleted_at IS NOT NULL")
        return {
            "papers": one("SELECT count(*) FROM papers") - trash,
            "digests": one("SELECT count(*) FROM digests"),
            "sightings": one("SELECT count(*) FROM sightings"),
            "tags": one("SELECT count(*) FROM tags"),
            "notes": one("SELECT count(*) FROM notes"),
            "trash": trash,
            "year_inferred": one("SELECT count(*) FROM papers WHERE year_inferred = 1"),
        }
