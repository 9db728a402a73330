"""Opening a library safely: creating it, upgrading it (after a backup), and
bulk writes that index in sets.

One SQLite file in WAL mode with foreign keys on. A file that is not a
PaperDesk library (another program's database, not SQLite at all, or written
by a newer PaperDesk) is refused without being touched (``dbfile``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.db import papers_table, read_only, rescue, schema, sessions
from paperdesk.core.db.connection import moved, watch
from paperdesk.core.db.database import Database, load_ids
from paperdesk.core.db.dbfile import (
    BUSY_TIMEOUT_S,
    applied,
    check_file,
    check_identity,
    check_intact,
    connect,
    pending_migrations,
    translate,
    write,
)
from paperdesk.core.model.errors import LibraryError, NoLibrary

if TYPE_CHECKING:
    from paperdesk.core.db.backup import RestoreReport

# Rows ANALYZE samples per index when the library closes after a write.
ANALYSIS_LIMIT = 400
# A new library's page size. A paper's row with the entry as written is 1-4 KiB: on
# SQLite's default 4 KiB pages a third of the table was the space left over between
# rows, and each page written to the log costs two system calls. A 100,000-entry .bib
# import wrote 20% fewer bytes and took 8% less time on 16 KiB pages. Libraries made
# before keep their pages (a restore copies a backup at the library's own size).
PAGE_SIZE = 16384
# A large write (an import) keeps its pages in a cache this large (KiB), and its
# commit leaves a write-ahead log of up to this many bytes for a later checkpoint.
LARGE_WRITE_CACHE_KIB = 32768
LARGE_WRITE_LOG_BYTES = 64 * 2**20

# Kept importable from here: what opens a library also writes to it.
__all__ = ["BUSY_TIMEOUT_S", "applied", "bulk_index", "check_file", "checkpoint", "connect",
           "fts_rows", "large_write", "moved", "open_database", "pending_migrations",
           "reindex_statements", "restore", "translate", "write"]


def open_database(path: Path, *, create: bool = True, upgrade: bool = True) -> Database:
    """Open (creating or upgrading as needed) the library at ``path``."""
    path = Path(path).expanduser().absolute()
    rescue.look()  # a library of this process taken away: rescued before any open
    exists = check_file(path)
    if not exists and not create:
        raise NoLibrary(f"{path}: no library there (nothing was created)")
    if exists:
        _refuse_hard_links(path)
    conn = None
    try:
        conn = connect(path)
        conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        if exists and read_only.read_only_folder(path):
            return _open_read_only(path)
        if exists and read_only.disk_full(exc):  # no room for the -shm a read needs
            return _open_read_only(path, full=True)
        raise _open_error(exc, path) from None
    db = Database(conn)
    try:
        found = check_identity(db, path)
        sessions.check_after_crash(db, path)
        if upgrade and any(name not in found for name in schema.MIGRATIONS):
            if db.execute("PRAGMA page_count").fetchone()[0] == 0:  # a new library
                db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            _migrate(db, path)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            # A backup (not WAL) on a read-only disk: access() says so, even to root
            # (and statvfs, which only POSIX has, is left to the read-only open).
            if exists and not os.access(path.parent, os.W_OK):
                conn.close()
                return _open_read_only(path)
            check_intact(db, path)  # switching to WAL rewrites the header: check first
        _use_wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the WAL is open now
        watch(conn)
        rescue.guard(conn)  # taken away under this program: what it holds is kept
    except sqlite3.DatabaseError as exc:
        conn.close()
        if exists and read_only.disk_full(exc):
            return _open_read_only(path, full=True)
        raise translate(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return db


def restore(backup_file: Path, library: Path) -> RestoreReport:
    """Put a backup back as the library (``backup.restore``; its report). A backup an
    older PaperDesk made is upgraded at once, after a backup of its own as any upgrade,
    so that a program with the library open (the window) goes on reading the tables it
    knows; while an older PaperDesk has it open, the upgrade waits for the next open."""
    from paperdesk.core.db import backup  # only to restore

    report = backup.restore(backup_file, library)
    with contextlib.suppress(LibraryError):
        open_database(report.library, create=False).close()
    return report


def _use_wal(db: Database) -> None:
    """Switch to WAL. SQLite can answer "locked" here at once, without waiting,
    while another program creates or switches the same library: wait for it then."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _open_error(exc: sqlite3.Error, path: Path) -> LibraryError:
    if "unable to open" in str(exc):
        return LibraryError(f"{path}: cannot open ({exc})")
    return translate(exc, path)


def _refuse_hard_links(path: Path) -> None:
    """A library under two names would have two -wal files (SQLite's "How To Corrupt", 2.5)."""
    links = os.stat(path).st_nlink
    if links > 1:
        raise LibraryError(f"{path}: the library file has {links} hard links; PaperDesk opens "
                           "a library under one name only (copy it instead of linking it)")


def _open_read_only(path: Path, *, full: bool = False) -> Database:
    """Reads on a library that cannot be written: on a read-only disk or folder, or
    (``full``) on a full disk (``read_only``)."""
    try:
        conn = (read_only.connect_on_full_disk(path, BUSY_TIMEOUT_S) if full
                else read_only.connect_read_only(path, BUSY_TIMEOUT_S))
        db = Database(conn)
        check_identity(db, path)
    except sqlite3.Error as exc:
        raise _open_error(exc, path) from None
    if pending_migrations(db):
        conn.close()
        why = "the disk is full" if full else "read-only"
        raise LibraryError(f"{path}: {why}, and it needs an upgrade")
    return db


def _migrate(db: Database, path: Path) -> None:
    readonly = db.execute("PRAGMA query_only").fetchone()[0]
    if readonly:
        raise LibraryError(f"{path}: read-only, and it needs an upgrade")
    # All under one write lock: two programs opening the library at once do not
    # both upgrade it, and a file that cannot be written fails before anything
    # is made. (So every migration must be transactional.) A step may write every
    # page (0032 makes the papers table again): a large write's settings.
    with foreign_keys_off(db), large_write(db):
        _upgrade(db, path)


@contextlib.contextmanager
def foreign_keys_off(db: Database) -> Iterator[None]:
    """Outside a transaction (SQLite reads the setting there only): foreign keys off for
    the block, as an upgrade needs them (``migrations.apply``: a step that makes a table
    again drops the old one, which with them on would delete every row referring to
    it; the steps keep every row's id)."""
    assert not db.conn.in_transaction, "foreign keys are switched outside a transaction"
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        db.execute("PRAGMA foreign_keys = ON")


def _upgrade(db: Database, path: Path) -> None:
    with write(db):
        pending = pending_migrations(db)
        if not pending:
            return
        older = sessions.older_programs(path)
        if older:
            raise LibraryError(
                f"{path}: an older PaperDesk has this library open (process "
                f"{older[0].partition('-')[0]}); close it, then open the library again: "
                "this PaperDesk must upgrade it first")
        if db.table_names():
            from paperdesk.core.db import backup  # only before an upgrade

            backup.before_upgrade(path, pending[0])
        else:
            db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        # Loads sqlite-utils: only a library with pending steps gets here.
        from paperdesk.core.db import migrations

        migrations.apply(db.conn)
        if "0023_sync_library" in pending:
            _adopt_syncs(db, path)


def _adopt_syncs(db: Database, path: Path) -> None:
    """At the upgrade that records which library keeps each sync: a library PaperDesk
    has had at this path keeps its syncs; any other (a backup opened, a copy) keeps
    none of them until told (``sync now --take``)."""
    from paperdesk.core.db import known, syncs_table

    if known.was_known(path):
        syncs_table.adopt_unowned(db, os.path.realpath(path))


@contextlib.contextmanager
def bulk_index(db: Database, *, incoming: int = 0, fts_written: bool = False,
               set_aside: Sequence[str] = schema.LOAD_INDEXES,
               top: int | None = None) -> Iterator[None]:
    """Inside a write: suspend the per-row triggers for a bulk insert.

    Meant for inserting new papers (ids above the current maximum) and new
    sightings. Afterwards their index rows and the stats of every paper that
    got a sighting are computed in two set-based statements and the triggers
    come back. On an error the caller's rollback restores the triggers too.

    ``incoming``: how many new papers the block brings. When they at least double
    the library, the indexes that new rows would enter out of order
    (``set_aside``, by default ``schema.LOAD_INDEXES``) are set aside too and built
    once afterwards, from sorted keys.

    ``fts_written``: the caller writes the new papers' search rows itself, from the
    values it has in hand (``fts_rows``, inside ``fts_hash``), so they are not read
    back from the rows here.

    ``top``: the highest paper id before the block, when the caller has read it
    (``papers_table.top_id``).
    """
    first_paper = papers_table.top_id(db) if top is None else top
    first_sighting = _last_sighting(db)
    with schema.triggers_off(db, schema.TRIGGERS + schema.MOMENTUM_TRIGGERS):
        loading = incoming >= first_paper  # at least doubles the library (ids from 1)
        indexes = _drop_indexes(db, set_aside) if loading else []
        yield
    _count_sightings_after(db, first_sighting)
    for statement in indexes:
        db.execute(statement)
    if fts_written:
        return
    with fts_hash(db, "papers_fts", FTS_LOAD_HASH):
        db.execute("INSERT INTO papers_fts(rowid, title, abstract, notes, tags) "
                   "SELECT id, title, abstract, '', '' FROM papers WHERE id > ?", [first_paper])


_TEXT_ROWS = """
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM {source});
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract, '', '' FROM {source}
"""


@contextlib.contextmanager
def papers_in_bulk(db: Database, paper_ids: Collection[int],
                   incoming: int = 0) -> Iterator[None]:
    """Inside a write: the block writes or deletes the ``papers`` rows of ``paper_ids``
    (an undo putting an import's papers back, its redo taking them away, an exchange
    of a shared library). With many, the search index's per-row triggers on ``papers``
    are off for the block and the papers' index rows (text and annotations) are written
    after it, in sets: row by row, 20,000 papers put back took 13 s. ``incoming``: how
    many new papers the block adds; when they at least double the library, the indexes
    new rows enter out of order are built once after it, as ``bulk_index`` does. An
    error rolls the triggers and indexes back with the rest."""
    from paperdesk.core.db import annotations, schema_0014

    if len(paper_ids) < annotations.BULK_PAPERS:
        yield
        return
    triggers = [t for t in schema_0014.TRIGGERS if t.split()[2].startswith("papers_fts_")]
    loading = incoming >= annotations.BULK_PAPERS and incoming >= papers_table.top_id(db)
    with schema.triggers_off(db, triggers):
        indexes = _drop_indexes(db, schema.LOAD_INDEXES) if loading else []
        yield
        for statement in indexes:
            db.execute(statement)
        table = load_ids(db, sorted(paper_ids), "rewritten_ids")
        db.execute(f"DELETE FROM papers_fts WHERE rowid IN (SELECT id FROM {table})")
        with fts_hash(db, "papers_fts", FTS_LOAD_HASH):
            db.execute("INSERT INTO papers_fts(rowid, title, abstract, notes, tags) SELECT "
                       "p.id, p.title, p.abstract, '', '' FROM papers p "
                       f"WHERE p.id IN (SELECT id FROM {table})")
        annotations.rewrite(db, paper_ids)  # a paper gone takes its row of annotations along


# The sightings' triggers that count a new sighting into its paper's row.
_SIGHTING_INSERT = ("sightings_stats_insert", "sightings_momentum_insert")


@contextlib.contextmanager
def sightings_in_bulk(db: Database, count: int) -> Iterator[None]:
    """Inside a write: the block adds ``count`` sightings, under ids above every
    sighting's (``digests_table.insert_sightings``). With many, the insert triggers
    (each rewrites its paper's counts and momentum: two updates of a papers row a
    sighting, 8 s of a 100,000-paper computer joining a share) are off for the block,
    and the papers seen are counted after it in two statements, as ``bulk_index``
    counts them. An error rolls the triggers back with the rest."""
    from paperdesk.core.db import annotations

    if count < annotations.BULK_PAPERS:
        yield
        return
    first = _last_sighting(db)
    triggers = [t for t in schema.TRIGGERS + schema.MOMENTUM_TRIGGERS
                if t.split()[2] in _SIGHTING_INSERT]
    assert len(triggers) == len(_SIGHTING_INSERT), "the sightings' insert triggers moved"
    with schema.triggers_off(db, triggers):
        yield
    _count_sightings_after(db, first)


def _last_sighting(db: Database) -> int:
    return int(db.execute("SELECT coalesce(max(id), 0) FROM sightings").fetchone()[0])


def _count_sightings_after(db: Database, first: int) -> None:
    """The momentum, upvotes and counts of the papers seen in sightings above ``first``,
    in sets: what the sightings' insert triggers would have written row by row."""
    db.execute(schema.MOMENTUM_BULK.format(papers="SELECT paper_id FROM sightings WHERE id > ?"),
               [first])
    papers_table.recount_sightings(db, first)


def reindex_statements(source: str, *, text: bool = True) -> list[str]:
    """SQL that rewrites the index rows (text and annotations) of the papers ``source``
    selects (a FROM clause over ``papers p``), for code that wrote with triggers off;
    without ``text``, the annotation rows only (for papers whose text rows were written
    from the values in hand: ``fts_rows``)."""
    from paperdesk.core.db import schema_0031

    sql = ((_TEXT_ROWS.format(source=source) + ";" if text else "")
           + schema_0031.ANNOTATION_ROWS.format(ids=f"SELECT p.id FROM {source}"))
    return [part for part in sql.split(";") if part.strip()]


def fts_rows(db: Database, rows: Iterable[tuple[int, str, str | bytes]]) -> None:
    """Inside ``bulk_index(fts_written=True)``: the search rows of new papers
    (id, title, abstract: text, or its UTF-8), as the insert trigger would write them."""
    db.conn.executemany("INSERT INTO papers_fts(rowid, title, abstract, notes, tags) "
                        "VALUES (?, ?, CAST(? AS TEXT), '', '')", rows)


def _drop_indexes(db: Database, names: Sequence[str]) -> list[str]:
    """Drop the named indexes that exist; the statements that make them again."""
    made = []
    for name in names:
        row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                         [name]).fetchone()
        if row is not None:
            db.execute(f"DROP INDEX {name}")
            made.append(row[0])
    return made


# Bytes of new terms FTS5 gathers in memory before writing them out as a segment.
# Its default, 1 MiB, turns a large import into a hundred small segments that are
# then merged again and again; at 16 MiB the same text costs a third less.
FTS_LOAD_HASH = 16 * 2**20


@contextlib.contextmanager
def fts_hash(db: Database, table: str, size: int) -> Iterator[None]:
    """Inside a write: FTS5's ``hashsize`` of ``table`` is ``size`` for the block, then
    what it was; the table's stored configuration ends as it began."""
    stored = db.execute(f"SELECT v FROM {table}_config WHERE k = 'hashsize'").fetchone()
    db.execute(f"INSERT INTO {table}({table}, rank) VALUES ('hashsize', ?)", [size])
    yield
    # Setting it back puts this connection's value back; the row it writes goes if
    # there was none (the default then holds for every connection).
    db.execute(f"INSERT INTO {table}({table}, rank) VALUES ('hashsize', ?)",
               [stored[0] if stored else FTS_DEFAULT_HASH])
    if stored is None:
        db.execute(f"DELETE FROM {table}_config WHERE k = 'hashsize'")


FTS_DEFAULT_HASH = 2**20  # SQLite's FTS5_DEFAULT_HASHSIZE


@contextlib.contextmanager
def large_write(db: Database) -> Iterator[None]:
    """Around a write of many pages (an import), outside any transaction: its pages
    stay in a larger cache, and its commit syncs the write-ahead log (``synchronous =
    FULL``: the write is durable when it returns) instead of copying the log into the
    main file at once. The copy (a checkpoint: every page written again and synced)
    comes at ``checkpoint``, when the library closes, or at a later commit; a log
    grown past LARGE_WRITE_LOG_BYTES is still copied at this commit."""
    if db.conn.in_transaction:  # part of a larger write: its settings hold
        yield
        return
    pragmas = ("synchronous", "wal_autocheckpoint", "cache_size", "secure_delete")
    before = {name: db.execute(f"PRAGMA {name}").fetchone()[0] for name in pragmas}
    db.execute(f"PRAGMA synchronous = {max(2, before['synchronous'])}")  # FULL, or EXTRA
    db.execute(f"PRAGMA wal_autocheckpoint = {large_write_log_pages(db)}")
    db.execute(f"PRAGMA cache_size = {min(before['cache_size'], -LARGE_WRITE_CACHE_KIB)}")
    db.execute("PRAGMA secure_delete = FAST")
    try:
        yield
    finally:
        for name, value in before.items():
            db.execute(f"PRAGMA {name} = {int(value)}")


def large_write_log_pages(db: Database) -> int:
    """LARGE_WRITE_LOG_BYTES in the library's pages (4 KiB or 16 KiB: ``PAGE_SIZE``)."""
    return LARGE_WRITE_LOG_BYTES // int(db.execute("PRAGMA page_size").fetchone()[0])


def checkpoint(db: Database) -> None:
    """Copy the write-ahead log into the main file as far as readers allow, without
    waiting for them (a passive checkpoint); nothing to do costs nothing."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
