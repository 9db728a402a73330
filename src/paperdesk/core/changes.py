"""What an edit changed, and how to take it back.

Every write through the ``Library`` returns a ``Changes`` record: which kinds
of data changed (so each view refreshes only what concerns it), which papers,
and an ``Undo``: row images of every table region the edit touched, before and
after. Undoing writes the "before" images back; redoing writes the "after"
images. Images are plain data (JSON-serialisable), so an undo can be stored in
the library (merges are) and survive a restart. Nothing here knows about Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

# Kinds of data an edit can change.
PAPERS = "papers"          # fields of papers (rating, status, title, ...)
PAPER_SET = "paper_set"    # papers added or removed
TAGS = "tags"
NOTES = "notes"
DIGESTS = "digests"
DUPLICATES = "duplicates"  # merges, not-duplicate marks
SEARCHES = "searches"      # saved searches
# What a write whose kinds are not known may have changed: everything.
ALL_KINDS = frozenset({PAPERS, PAPER_SET, TAGS, NOTES, DIGESTS, DUPLICATES, SEARCHES})


@dataclass(frozen=True)
class Scope:
    """A region of one table: the rows whose ``column`` is one of ``values``."""

    table: str
    column: str
    values: tuple[Any, ...]


@dataclass
class Image:
    scope: Scope
    before: list[dict[str, Any]]
    after: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Undo:
    label: str
    images: list[Image]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "images": [
            {"table": i.scope.table, "column": i.scope.column, "values": list(i.scope.values),
             "before": i.before, "after": i.after} for i in self.images]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Undo:
        return cls(data["label"], [
            Image(Scope(i["table"], i["column"], tuple(i["values"])), i["before"], i["after"])
            for i in data["images"]])


@dataclass(frozen=True)
class Changes:
    label: str
    kinds: frozenset[str]
    paper_ids: frozenset[int] = frozenset()
    undo: Undo | None = None
    # Operation-specific results (new ids, counts) for the caller.
    result: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.kinds)


NOTHING = Changes("nothing", frozenset())

_CHUNK = 900  # stays under SQLite's default limit on host parameters


def _chunks(values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return [values[i:i + _CHUNK] for i in range(0, len(values), _CHUNK)] or [()]


def snapshot(db: Database, scope: Scope) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for part in _chunks(scope.values):
        if not part:
            continue
        marks = ",".join("?" * len(part))
        cursor = db.execute(
            f"SELECT * FROM [{scope.table}] WHERE [{scope.column}] IN ({marks})", list(part))
        names = [d[0] for d in cursor.description]
        rows.extend(dict(zip(names, row, strict=True)) for row in cursor)
    return rows


def _key(row: dict[str, Any], pks: list[str]) -> tuple[Any, ...]:
    return tuple(row[k] for k in pks)


def restore(db: Database, images: list[Image], *, before: bool) -> None:
    """Make each scope hold exactly its before (or after) rows. Call inside a write.

    Rows are upserted, not deleted and re-inserted, so that no ON DELETE
    CASCADE fires on rows outside the scopes; rows already as wanted are left
    alone, so their triggers do not fire. Parents come first in ``images``;
    stale rows are deleted children first.
    """
    stale: list[tuple[str, list[str], list[tuple[Any, ...]]]] = []
    for image in images:
        table = image.scope.table
        pks = db[table].pks
        target = image.before if before else image.after
        present = {_key(r, pks): r for r in snapshot(db, image.scope)}
        wanted = {_key(r, pks) for r in target}
        stale.append((table, pks, [k for k in present if k not in wanted]))
        changed = [r for r in target if present.get(_key(r, pks)) != r]
        if not changed:
            continue
        cols = list(changed[0])
        updates = ", ".join(f"[{c}] = excluded.[{c}]" for c in cols if c not in pks)
        conflict = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
        db.conn.executemany(
            f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
            f"VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT ({', '.join(f'[{k}]' for k in pks)}) {conflict}",
            [[row[c] for c in cols] for row in changed])
    for table, pks, keys in reversed(stale):
        where = " AND ".join(f"[{k}] = ?" for k in pks)
        db.conn.executemany(f"DELETE FROM [{table}] WHERE {where}", [list(k) for k in keys])
