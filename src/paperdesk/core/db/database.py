"""A thin layer over one ``sqlite3`` connection: what PaperDesk uses of a database.

``execute``, ``query`` (rows as dicts), ``atomic`` (a transaction; nested blocks
are savepoints), ``table_names`` and ``db[table].pks``.

It imports nothing beyond the standard library: a command that only reads
(``stats``, ``list``) starts in a few milliseconds instead of loading a
general-purpose toolkit (sqlite-utils brings numpy, click and dateutil). The
schema's migrations, which run only when a library needs an upgrade, are
sqlite-utils' own (``migrations``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from paperdesk.core.db.images import Recording

Params = Sequence[Any] | dict[str, Any] | None


class Database:
    """One connection, opened in autocommit mode (``isolation_level=None``)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._savepoints = 0
        # The images of the edit open on this connection (``images``; None outside one),
        # which its table writers add to.
        self.recording: Recording | None = None

    def execute(self, sql: str, params: Params = None) -> sqlite3.Cursor:
        return self.conn.execute(sql) if params is None else self.conn.execute(sql, params)

    def query(self, sql: str, params: Params = None) -> Iterator[dict[str, Any]]:
        """Rows as dicts, fetched lazily."""
        cursor = self.execute(sql, params)
        names = [d[0] for d in cursor.description or ()]
        return (dict(zip(names, row, strict=True)) for row in cursor)

    def close(self) -> None:
        self.conn.close()

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]

    def __getitem__(self, name: str) -> Table:
        return Table(self, name)

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        """A transaction (BEGIN); inside one already open, a savepoint."""
        if not self.conn.in_transaction:
            changes = self.conn.total_changes
            self.conn.execute("BEGIN")
            try:
                yield self
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
            if self.conn.total_changes != changes:
                with contextlib.suppress(AttributeError):  # a plain sqlite3 connection
                    self.conn.wrote = True  # type: ignore[attr-defined]  # connection.Connection's
            return
        self._savepoints += 1
        name = f"paperdesk_{self._savepoints}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield self
        except BaseException:
            # An error that ended the whole transaction took the savepoint with it.
            if self.conn.in_transaction:
                self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                self.conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        finally:
            self._savepoints -= 1
        self.conn.execute(f"RELEASE SAVEPOINT {name}")


@dataclass
class Table:
    db: Database
    name: str

    def _info(self) -> list[tuple]:
        return self.db.execute(f"PRAGMA table_info([{self.name}])").fetchall()

    @property
    def pks(self) -> list[str]:
        """Primary key columns in declaration order (``rowid`` when there is none)."""
        names = [r[1] for r in sorted((r for r in self._info() if r[5]), key=lambda r: r[5])]
        return names or ["rowid"]

    @property
    def columns(self) -> list[str]:
        return [r[1] for r in self._info()]

    def exists(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                               [self.name]).fetchone() is not None


T = TypeVar("T")

CHUNK = 900  # stays under SQLite's default limit on host parameters (999)


def chunks(values: Sequence[T], size: int = CHUNK) -> Iterator[list[T]]:
    """``values`` in lists of at most ``size``."""
    for i in range(0, len(values), size):
        yield list(values[i:i + size])


def marks(n: int) -> str:
    """``?,?,?`` for ``n`` values."""
    return ",".join("?" * n)


def select_in(db: Database, sql: str, values: Sequence[Any], *before: Any) -> Iterator[tuple]:
    """The rows of ``sql`` for every chunk of ``values``; ``sql`` holds ``{marks}``
    where the chunk's placeholders go, after the parameters ``before``."""
    for part in chunks(values):
        yield from db.execute(sql.format(marks=marks(len(part))), [*before, *part])


def execute_in(db: Database, sql: str, values: Sequence[Any], *before: Any) -> int:
    """Run ``sql`` (with ``{marks}``) for every chunk of ``values``; rows changed."""
    return sum(db.execute(sql.format(marks=marks(len(part))), [*before, *part]).rowcount
               for part in chunks(values))


def load_ids(db: Database, ids: Sequence[int], table: str = "ids") -> str:
    """Fill the temporary table ``temp.<table>`` (id, ord) with ``ids`` in order,
    for set-based statements; returns its qualified name."""
    db.execute(f"CREATE TEMP TABLE IF NOT EXISTS [{table}] "
               "(id INTEGER PRIMARY KEY, ord INTEGER NOT NULL)")
    db.execute(f"DELETE FROM temp.[{table}]")
    db.conn.executemany(f"INSERT INTO temp.[{table}] (id, ord) VALUES (?, ?)",
                        [(pid, n) for n, pid in enumerate(ids)])
    return f"temp.{table}"
