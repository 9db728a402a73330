"""Lists of ids in SQL: in chunks under SQLite's limit on host parameters, or
in a temporary table for set-based statements."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

CHUNK = 900  # stays under SQLite's default limit on host parameters (999)


def chunks(values: Sequence[T], size: int = CHUNK) -> Iterator[list[T]]:
    """``values`` in lists of at most ``size``."""
    for i in range(0, len(values), size):
        yield list(values[i:i + size])


def marks(n: int) -> str:
    """``?,?,?`` for ``n`` values."""
    return ",".join("?" * n)


def select_in(db: Any, sql: str, values: Sequence[Any], *before: Any) -> Iterator[tuple]:
    """The rows of ``sql`` for every chunk of ``values``; ``sql`` holds ``{marks}``
    where the chunk's placeholders go, after the parameters ``before``."""
    for part in chunks(values):
        yield from db.execute(sql.format(marks=marks(len(part))), [*before, *part])


def execute_in(db: Any, sql: str, values: Sequence[Any], *before: Any) -> int:
    """Run ``sql`` (with ``{marks}``) for every chunk of ``values``; rows changed."""
    return sum(db.execute(sql.format(marks=marks(len(part))), [*before, *part]).rowcount
               for part in chunks(values))


def load_ids(db: Any, ids: Sequence[int], table: str = "ids") -> str:
    """Fill the temporary table ``temp.<table>`` (id, ord) with ``ids`` in order,
    for set-based statements; returns its qualified name."""
    db.execute(f"CREATE TEMP TABLE IF NOT EXISTS [{table}] "
               "(id INTEGER PRIMARY KEY, ord INTEGER NOT NULL)")
    db.execute(f"DELETE FROM temp.[{table}]")
    db.conn.executemany(f"INSERT INTO temp.[{table}] (id, ord) VALUES (?, ?)",
                        [(pid, n) for n, pid in enumerate(ids)])
    return f"temp.{table}"
