"""The full text of a library's PDFs: ``NAME.fulltext.sqlite`` beside ``NAME.sqlite``.

A derived file: every row in it comes from the library's attachments and their files,
so it is never backed up, shared or synced, and deleting it loses nothing: the next
indexing makes it again, row for row (nothing in it depends on the clock or on the
order of the work). This module is the one place that opens it, and the one writer of
its tables:

- ``page_texts``: one row per page of an attachment (``page`` 0-based), its normalised
  text, its id ``attachment_id * PAGE_SPAN + page``; behind ``page_texts_fts`` (FTS5
  over it as external content, ``unicode61 remove_diacritics 2`` like the library's
  ``papers_fts``), kept in step by triggers;
- ``extractions``: one row per attachment indexed: the SHA-256 of the bytes read, the
  extractor that read them (``core/pdf/normalise.extractor()``), its page count, and the
  one-line reason when the file could not be read. An attachment's pages and its row
  are written in one transaction, so a run killed at any moment leaves every
  attachment either whole or absent, and the next run goes on from there.

The file is opened as SQLite opens it (never with ``open()``: design notes, section 9);
a new one is made no more readable than the library. Searches read it through the SQL
function ``paperdesk_pdf(expr)``, which ``connection.connect`` gives every library
connection (``register``): the JSON list of the attachments with a page matching the
FTS5 expression ``expr``, from a read-only connection of its own, opened at the first
search and again when the file was replaced.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

FORMAT = 2  # PRAGMA user_version of the file; another value: the file is made again
# A page's row id is its attachment's id times this, plus the page (0-based): the
# attachments a MATCH finds are read off the index's row ids alone, and a rebuild
# gives every row the id it had. At most this many pages a PDF are indexed.
PAGE_SPAN = 1 << 20
SUFFIX = ".fulltext.sqlite"
BUSY_TIMEOUT_MS = 5000
FUNCTION = "paperdesk_pdf"

SCHEMA = (
    """CREATE TABLE extractions (
        attachment_id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, extractor TEXT NOT NULL,
        pages INTEGER NOT NULL, error TEXT)""",
    """CREATE TABLE page_texts (
        id INTEGER PRIMARY KEY, attachment_id INTEGER NOT NULL, page INTEGER NOT NULL,
        text TEXT NOT NULL, UNIQUE (attachment_id, page))""",
    """CREATE VIRTUAL TABLE page_texts_fts USING fts5(text, content='page_texts',
        content_rowid='id', tokenize='unicode61 remove_diacritics 2')""",
    """CREATE TRIGGER page_texts_ai AFTER INSERT ON page_texts BEGIN
        INSERT INTO page_texts_fts (rowid, text) VALUES (new.id, new.text); END""",
    """CREATE TRIGGER page_texts_ad AFTER DELETE ON page_texts BEGIN
        INSERT INTO page_texts_fts (page_texts_fts, rowid, text)
        VALUES ('delete', old.id, old.text); END""",
)
TABLES = ("extractions", "page_texts", "page_texts_fts")


def path_of(library: Path) -> Path:
    """The full-text file of the library at ``library``."""
    return library.with_name(library.stem + SUFFIX)


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path))}?mode={mode}"


def _make_file(path: Path, library: Path) -> None:
    """An empty file at ``path`` no more readable than the library (SQLite gives its
    -wal and -shm the same mode); nothing when a file is there already."""
    try:
        mode = stat.S_IMODE(os.stat(library).st_mode) & 0o666
    except OSError:
        mode = 0o600
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        return
    os.close(fd)  # no SQLite connection to this new file exists yet


class Fulltext:
    """A writing connection to a library's full-text file (``open`` makes it)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, library: Path) -> Fulltext:
        """Open (or make) the full-text file of the library at ``library``; a file of
        another format, or one SQLite cannot read, is emptied and made again."""
        path = path_of(Path(library))
        _make_file(path, Path(library))
        conn = sqlite3.connect(_uri(path, "rw"), uri=True, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        ft = cls(conn, path)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            # A derived file: a commit waits for no fsync (a power cut may take the last
            # attachments written, which the next run writes again; a kill takes none).
            conn.execute("PRAGMA synchronous = NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != FORMAT:
                ft.clear()
        except sqlite3.DatabaseError:  # not a database, or damaged: derived, so emptied
            conn.close()
            os.replace(path, path.with_name(path.name + ".damaged"))
            return cls.open(library)
        return ft

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Fulltext:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- writing ---------------------------------------------------------------------

    def clear(self) -> None:
        """Every table dropped and made again, empty (a rebuild, a new format)."""
        with self.transaction() as c:
            for name in ("page_texts_ai", "page_texts_ad"):
                c.execute(f"DROP TRIGGER IF EXISTS {name}")
            for name in reversed(TABLES):
                c.execute(f"DROP TABLE IF EXISTS {name}")
            for sql in SCHEMA:
                c.execute(sql)
            c.execute(f"PRAGMA user_version = {FORMAT}")

    def put(self, attachment_id: int, sha256: str, extractor: str, pages: Sequence[str],
            error: str | None = None) -> None:
        """An attachment's pages and its state, in place of what it had, in one
        transaction."""
        with self.transaction() as c:
            c.execute("DELETE FROM page_texts WHERE attachment_id = ?", [attachment_id])
            c.executemany("INSERT INTO page_texts (id, attachment_id, page, text) "
                          "VALUES (?, ?, ?, ?)",
                          [(attachment_id * PAGE_SPAN + i, attachment_id, i, text)
                           for i, text in enumerate(pages[:PAGE_SPAN])])
            c.execute("INSERT OR REPLACE INTO extractions (attachment_id, sha256, extractor, "
                      "pages, error) VALUES (?, ?, ?, ?, ?)",
                      [attachment_id, sha256, extractor, min(len(pages), PAGE_SPAN), error])

    def drop(self, attachment_ids: Iterable[int]) -> int:
        """Forget attachments the library no longer has; how many."""
        ids = list(attachment_ids)
        with self.transaction() as c:
            for i in ids:
                c.execute("DELETE FROM page_texts WHERE attachment_id = ?", [i])
                c.execute("DELETE FROM extractions WHERE attachment_id = ?", [i])
        return len(ids)

    # -- reading ---------------------------------------------------------------------

    def states(self) -> dict[int, tuple[str, str]]:
        """{attachment id: (sha256, extractor)} of every attachment indexed."""
        return {r[0]: (r[1], r[2]) for r in
                self.conn.execute("SELECT attachment_id, sha256, extractor FROM extractions")}

    def counts(self) -> dict[str, int]:
        """Attachments indexed, of which unreadable, and pages."""
        files, failed = self.conn.execute(
            "SELECT count(*), count(error) FROM extractions").fetchone()
        pages = self.conn.execute("SELECT count(*) FROM page_texts").fetchone()[0]
        return {"attachments": files, "failed": failed, "pages": pages}


def hits(path: Path, fts: str, attachment_ids: Sequence[int],
         per_attachment: int = 3) -> list[dict[str, Any]]:
    """The pages of ``attachment_ids`` matching the FTS5 expression ``fts``: for each
    attachment its first ``per_attachment`` pages in page order, with a snippet of each
    (the words matched in [brackets]). Nothing when the file is not there yet."""
    if not path.exists() or not attachment_ids:
        return []
    conn = sqlite3.connect(_uri(path, "ro"), uri=True, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        out: list[dict[str, Any]] = []
        for attachment_id in attachment_ids:
            out.extend({"attachment_id": r[0], "page": r[1], "snippet": r[2]}
                       for r in conn.execute(
                "SELECT t.attachment_id, t.page, snippet(page_texts_fts, 0, '[', ']', '…', 12) "
                "FROM page_texts_fts JOIN page_texts t ON t.id = page_texts_fts.rowid "
                "WHERE page_texts_fts MATCH ? AND t.attachment_id = ? ORDER BY t.page "
                "LIMIT ?", [fts, attachment_id, per_attachment]))
        return out
    except sqlite3.Error:
        return []
    finally:
        conn.close()


class _Matcher:
    """The function ``paperdesk_pdf`` of one library connection: its own read-only
    connection to the full-text file, opened when first asked and again when the file
    was replaced (deleted and rebuilt)."""

    def __init__(self, library: Path) -> None:
        self.path = path_of(library)
        self.conn: sqlite3.Connection | None = None
        self.ident: tuple[int, int] | None = None
        self.lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection | None:
        try:
            st = os.stat(self.path)
        except OSError:
            st = None
        ident = None if st is None else (st.st_dev, st.st_ino)
        if ident != self.ident and self.conn is not None:
            self.conn.close()
            self.conn = None
        self.ident = ident
        if ident is not None and self.conn is None:
            self.conn = sqlite3.connect(_uri(self.path, "ro"), uri=True, isolation_level=None,
                                        check_same_thread=False)
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return self.conn

    def __call__(self, fts: str) -> str:
        with self.lock:
            try:
                conn = self._connection()
                if conn is None:
                    return "[]"
                ids = [r[0] for r in conn.execute(
                    f"SELECT DISTINCT rowid / {PAGE_SPAN} FROM page_texts_fts "
                    "WHERE page_texts_fts MATCH ?", [fts])]
            except sqlite3.Error:  # not made yet, being made, or unreadable: no pages
                return "[]"
        return json.dumps(ids)


def register(conn: sqlite3.Connection, library: Path) -> None:
    """Give ``conn`` (a connection to the library at ``library``) ``paperdesk_pdf``."""
    conn.create_function(FUNCTION, 1, _Matcher(Path(library)))
