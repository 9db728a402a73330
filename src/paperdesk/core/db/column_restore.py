"""Putting back a few columns of many rows (a rating on 20,000 papers) in one pass.

An image of some columns (``Scope.columns``) neither adds nor removes rows, so
its undo need not read the rows as they are now and compare them in Python:
one statement per row sets the image's values where a value differs, and
leaves alone a row already as wanted. Setting every column of the image on
such a row, rather than only those that differ, is the same to the data; it
would differ only to a trigger that watches one of the columns, so an image
whose columns some trigger watches goes the general way (``changes.restore``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from operator import itemgetter
from typing import Any

from paperdesk.core.db.database import Database

# The event of a trigger: its kind and, for an update, the columns it watches.
_EVENT = re.compile(r"\b(DELETE|INSERT|UPDATE)(?:\s+OF\s+(.+?))?\s+ON\s", re.I | re.S)
_BODY = re.compile(r"\bBEGIN\b", re.I)


def quiet(db: Database, table: str, columns: Iterable[str]) -> bool:
    """Whether no trigger on ``table`` (the library's or a temporary one) fires when
    ``columns`` are updated. A trigger whose event cannot be read counts as firing."""
    wanted = {c.lower() for c in columns}
    for (sql,) in db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?1 "
            "UNION ALL SELECT sql FROM sqlite_temp_master "
            "WHERE type = 'trigger' AND tbl_name = ?1", [table]):
        event = _EVENT.search(_BODY.split(sql, 1)[0]) if sql else None
        if event is None:
            return False
        if event[1].upper() != "UPDATE":
            continue
        if event[2] is None:
            return False  # any update fires it
        watched = {c.strip().strip('[]"`').lower() for c in event[2].split(",")}
        if watched & wanted:
            return False
    return True


def restore(db: Database, table: str, columns: Iterable[str],
            rows: list[dict[str, Any]]) -> None:
    """Give each of ``rows`` (primary key and ``columns``) its values; a row gone since
    stays gone. Rows are written in key order, which keeps the table's pages near."""
    pks = db[table].pks
    cols = [c for c in columns if c not in pks]
    if not cols or not rows:
        return
    n = len(cols)
    sets = ", ".join(f"[{c}] = ?{i}" for i, c in enumerate(cols, 1))
    differs = " OR ".join(f"[{c}] IS NOT ?{i}" for i, c in enumerate(cols, 1))
    key = " AND ".join(f"[{k}] = ?{i}" for i, k in enumerate(pks, n + 1))
    values = list(map(itemgetter(*cols, *pks), rows))
    with contextlib.suppress(TypeError):  # keys that do not compare go as they come
        values.sort(key=itemgetter(slice(n, None)))
    db.conn.executemany(f"UPDATE [{table}] SET {sets} WHERE {key} AND ({differs})", values)
