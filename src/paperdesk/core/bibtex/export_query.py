"""What an export reads: each chosen paper's row with its tags and (when asked) its
notes, a batch of ids at a time. ``bibtex_export`` formats them (here, or in
exporting processes that read their batches themselves); a kept-in-sync file
(``core/sync/sync_write.py``) compares them with the file's.

A batch is read by its ids, sent to SQLite as one JSON array: the rows come back in
its order, the tags and notes of those papers only.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from paperdesk.core.db import dbfile
from paperdesk.core.db.database import Database
from paperdesk.core.model.errors import LibraryError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel

if TYPE_CHECKING:
    from paperdesk.core.library import Library

COLUMNS = ("p.id, p.citekey, p.title, p.abstract, p.authors, p.organization, p.published, "
           "p.year, p.arxiv_id, p.doi, p.url, p.bib_type, p.bib_fields, p.year_inferred, "
           "p.sources, p.bib_source, (p.id IN frozen_keys), "
           # the published version the user accepted (``published_table``), as JSON
           "(SELECT json_object('entry_type', v.entry_type, 'venue', v.venue, 'year', "
           "v.year, 'pages', v.pages, 'volume', v.volume, 'doi', v.doi) "
           "FROM published_versions v WHERE v.paper_id = p.id)")
BATCH = 1000  # entries between checks of the cancel flag, and sent to a process at a time


class ExportRow(NamedTuple):
    """What the export query gives for one paper (``export_rows``): its row of
    ``COLUMNS`` (as ``paper_entry`` and ``csl_json.item_text`` read it), its tags and,
    when asked for, its notes."""

    columns: Sequence[Any]
    tags: list[str]
    notes: list[str]

    @property
    def paper_id(self) -> int:
        return self.columns[0]

    @property
    def key_frozen(self) -> bool:
        return bool(self.columns[16])


def export_rows(lib: Library, chosen: list[int] | None, notes: bool, progress: Progress,
                cancel: CancelFlag | None) -> Iterator[ExportRow]:
    """Each chosen paper's row of ``COLUMNS`` with its tags and (when asked) notes,
    in the order of ``chosen`` (None: every paper not in the trash, by id)."""
    with snapshot(lib.db) as view:  # one view of the library, as an export's
        ids = chosen_ids(view.db, chosen)
        tally = Tally(progress, len(ids))
        for batch in id_batches(ids, cancel):
            rows = rows_of(view.db, batch, notes)
            yield from (ExportRow(*row) for row in rows)
            tally.add(len(rows))
        tally.end()


Row = tuple[Sequence[Any], list[str], list[str]]  # an export row as plain values


def chosen_ids(db: Database, chosen: list[int] | None) -> list[int]:
    """The papers an export writes, in order: ``chosen``, or every paper out of the
    trash by id (read off an index, the trash off its own: no scan of the papers)."""
    if chosen is not None:
        return chosen
    trashed = {r[0] for r in db.execute("SELECT id FROM papers WHERE deleted_at IS NOT NULL")}
    return sorted(r[0] for r in db.execute("SELECT id FROM papers") if r[0] not in trashed)


def id_batches(ids: list[int], cancel: CancelFlag | None) -> Iterator[list[int]]:
    """``ids`` a batch at a time (cancel checked once a batch). The last four batches'
    ids go in batches a quarter the size: the exporting processes keep a few batches
    queued, and at the end this process, with nothing left to make, waits for them."""
    start, end, tail = 0, len(ids), max(1, BATCH // 4)
    while start < end:
        check_cancel(cancel)
        size = BATCH if end - start > 4 * BATCH else tail
        yield ids[start:start + size]
        start += size


class Tally:
    """An export's progress, told as its entries are made (not as their batches are
    handed out, a few ahead)."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0
        progress(0.0, f"Exporting {total} papers")

    def add(self, made: int) -> None:
        self.done += made
        if self.done < self.total:
            self.progress(self.done / self.total, f"Exported {self.done} of {self.total}")

    def end(self) -> None:
        self.progress(1.0, f"Exported {self.total} papers")


def rows_of(db: Database, ids: list[int], notes: bool) -> list[Row]:
    """The export rows of the papers ``ids``, in that order."""
    wanted = json.dumps(ids)
    tags = _grouped(db, """SELECT x.paper_id, t.name FROM paper_tags x
                           JOIN tags t ON t.id = x.tag_id
                           WHERE x.paper_id IN (SELECT value FROM json_each(?1))
                           ORDER BY x.paper_id, t.name COLLATE NOCASE, t.id""", wanted)
    texts = _grouped(db, """SELECT x.paper_id, x.text FROM notes x
                            WHERE x.paper_id IN (SELECT value FROM json_each(?1))
                            ORDER BY x.paper_id, x.created, x.id""", wanted) if notes else {}
    if notes:  # the highlights go out after the notes, one text each, page by page
        for pid, marked in _grouped(db, _HIGHLIGHTS, wanted).items():
            texts.setdefault(pid, []).extend(marked)
    empty: list[str] = []
    tag_of, text_of = tags.get, texts.get
    # Put in order here: an ORDER BY would sort the rows, abstracts and all, in SQLite.
    found = {row[0]: row for row in db.execute(
        f"SELECT {COLUMNS} FROM json_each(?1) j JOIN papers p ON p.id = j.value", [wanted])}
    return [(row, tag_of(pid, empty), text_of(pid, empty))
            for pid in ids if (row := found.get(pid)) is not None]


# A highlight as an exported note: 'Highlight, page 3: "the passage" (the comment)'.
_HIGHLIGHTS = """SELECT a.paper_id, 'Highlight, page ' || (h.page + 1) || ': "' || h.text || '"'
                        || CASE WHEN h.comment != '' THEN ' (' || h.comment || ')' ELSE '' END
                 FROM highlights h JOIN attachments a ON a.id = h.attachment_id
                 WHERE a.paper_id IN (SELECT value FROM json_each(?1))
                 ORDER BY a.paper_id, a.id, h.page, h.id"""


def _grouped(db: Database, sql: str, wanted: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for pid, value in db.execute(sql, [wanted]):
        out.setdefault(pid, []).append(value)
    return out


class Snapshot(NamedTuple):
    """The library as one export reads it (``snapshot``)."""

    db: Database  # what this process reads the batches through
    version: int | None  # its user_version; None: not one view other processes can share
    identity: Any = None  # the library file's (``files.Identity``)
    path: Path | None = None


@contextlib.contextmanager
def snapshot(db: Database) -> Iterator[Snapshot]:
    """The library as it is now, for one export: a read-only connection of its own in one
    read transaction, so every batch sees the library as it was when the export began,
    whatever is written meanwhile (the caller's connection is left free: it may write,
    read the library as it is, and close). Its ``user_version``, which every PaperDesk
    commit moves (``dbfile.write``), lets an exporting process check that it reads the
    same. Inside a write under way, the caller's own connection and its uncommitted
    state, which no other process can see; when no connection of its own can be opened
    (a read-only medium), the caller's without a transaction (each batch reads the
    library as it is then)."""
    library = getattr(db.conn, "library", None)
    own = None if db.conn.in_transaction or library is None else _read_only(library)
    if own is None:
        yield Snapshot(db, None)
        return
    try:
        yield own
    finally:
        with contextlib.suppress(sqlite3.Error):
            own.db.close()  # which ends its read transaction


def _read_only(library: Path) -> Snapshot | None:
    try:
        conn = dbfile.connect(library, mode="ro")
        own = Database(conn)
    except (sqlite3.Error, LibraryError, OSError):
        return None
    try:
        own.execute("BEGIN")
        version = own.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error:
        own.close()
        return None
    return Snapshot(own, version, conn.identity, library)


def reader(path: str, identity: Any, version: int | None) -> Callable[[list[int], bool], Any]:
    """An exporting process's reads (``rows_of``) through a read-only connection of its
    own, opened at its first batch: a batch is read only when the library is the one
    the export began on (the same file ``identity``), as it was (``user_version`` at
    ``version``); else, or when it cannot be read, None. (Every PaperDesk write moves
    ``user_version``; a program that writes the file with SQLite alone does not, and a
    batch read after such a write shows it.)"""
    opened: list[Database] = []

    def read(ids: list[int], notes: bool) -> list[Row] | None:
        try:
            if not opened:
                opened.append(Database(dbfile.connect(Path(path), mode="ro")))
            db = opened[0]
            db.execute("BEGIN")
            try:
                if (getattr(db.conn, "identity", None) != tuple(identity)
                        or db.execute("PRAGMA user_version").fetchone()[0] != version):
                    return None
                return rows_of(db, ids, notes)
            finally:
                db.execute("COMMIT")
        except (sqlite3.Error, LibraryError, OSError):
            return None

    return read


