"""Row images: what an undoable edit wrote, before and after, taken by the writers.

A table writer (``papers_table``, ``tags_table``...) knows which rows and columns it
is about to write. Before it writes them it calls ``cover``: when an edit is open
(``Library.edit`` sets ``Database.recording``), the edit's ``Recording`` takes an image
of those rows now, and of the same rows again when the edit ends. So one edit's
columns are named in one place, the writer, and a feature only calls writers inside
``lib.edit(label, kinds)``. Outside an edit (an import, a sync, an undo writing images
back) ``cover`` does nothing.

An image is of a region of one table (``Scope``: the rows whose ``column`` is one of
``values``, all their columns or only ``columns``), taken in set-based SQL, a few
hundred keys a statement. The same images read as one ``RowChange`` a row (table,
key, the columns that differ, before and after): the plain, typed record of an edit
that a front end or a sharing of the library between computers reads.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paperdesk.core.db.database import chunks, marks

if TYPE_CHECKING:
    from paperdesk.core.db.database import Database

Row = dict[str, Any]

# Parents before children: an undo puts a tag back before the marks of it, a paper
# before its sightings; stale rows are deleted children first (``changes.restore``).
_ORDER = ("digests", "tags", "saved_searches", "papers", "merges", "sightings",
          "paper_tags", "notes", "attachments", "highlights", "duplicate_candidates",
          "not_duplicates")


@dataclass(frozen=True)
class Scope:
    """A region of one table: the rows whose ``column`` is one of ``values``.

    ``columns``, when given, limits the images to those columns (and the
    primary key): for an edit that changes a few columns of rows it neither
    adds nor removes, such as a rating, whose undo then leaves the rest of
    each row (the abstract) unread and unwritten.
    """

    table: str
    column: str
    values: tuple[Any, ...]
    columns: tuple[str, ...] = ()


@dataclass
class Image:
    scope: Scope
    before: list[Row]
    after: list[Row] = field(default_factory=list)


@dataclass(frozen=True)
class RowChange:
    """One row an edit changed: ``before`` None when the edit added it, ``after`` None
    when it removed it; otherwise the columns that differ (``columns``)."""

    table: str
    key: tuple[Any, ...]
    before: Row | None
    after: Row | None

    @property
    def columns(self) -> tuple[str, ...]:
        old, new = self.before or {}, self.after or {}
        return tuple(c for c in dict.fromkeys([*old, *new]) if old.get(c) != new.get(c))


def snapshot(db: Database, scope: Scope) -> list[Row]:
    """The rows of ``scope`` as they are now, in chunks of keys."""
    rows: list[Row] = []
    what = "*"
    if scope.columns:
        keys = [k for k in db[scope.table].pks if k not in scope.columns]
        what = ", ".join(f"[{c}]" for c in (*keys, *scope.columns))
    for part in chunks(scope.values):
        cursor = db.execute(
            f"SELECT {what} FROM [{scope.table}] WHERE [{scope.column}] IN ({marks(len(part))})",
            part)
        names = [d[0] for d in cursor.description]
        rows.extend(dict(zip(names, row, strict=True)) for row in cursor)
    if scope.table == "papers" and rows and "citekey_frozen" in rows[0]:
        _frozen_from_table(db, rows)
    return rows


def stored(db: Database, table: str, column: str, values: Iterable[Any]) -> list[Row]:
    """The rows of ``table`` whose ``column`` is one of ``values``, every column, as an
    image holds them (a paper's ``citekey_frozen`` included)."""
    return snapshot(db, Scope(table, column, tuple(values)))


def _frozen_from_table(db: Database, rows: list[Row]) -> None:
    """A paper's image says whether its key is frozen as ``citekey_frozen``, the column
    that said it before migration 0016: from ``frozen_keys`` now (the column is no
    longer kept), so images of every age read alike."""
    ids = [r["id"] for r in rows]
    frozen: set[int] = set()
    for part in chunks(ids):
        frozen.update(r[0] for r in db.execute(
            f"SELECT paper_id FROM frozen_keys WHERE paper_id IN ({marks(len(part))})", part))
    for row in rows:
        row["citekey_frozen"] = int(row["id"] in frozen)


class Recording:
    """The images an open edit took so far; ``outer`` is the edit it is nested in
    (which takes the same images: its undo covers the nested edit's writes too).

    Each table is imaged by one key column in one edit (a paper by ``id``, its tags by
    ``paper_id``...); an index from each key value to the images holding it keeps a
    thousand merges in one edit from comparing each image with every other.
    """

    def __init__(self, db: Database, outer: Recording | None = None) -> None:
        self.db = db
        self.outer = outer
        self.images: list[Image] = []
        self._key_column: dict[str, str] = {}
        self._of_table: dict[str, list[int]] = {}  # table -> its images (places)
        # table -> key value -> the images holding it, built when a table's second
        # image is taken (a bulk edit of one image per table builds none)
        self._holding: dict[str, dict[Any, list[int]]] = {}
        self._indexed: dict[str, int] = {}  # table -> how many of its images it holds

    def cover(self, scope: Scope, now: list[Row] | None = None) -> None:
        """Image ``scope`` before it is written (``now``: its rows as they are, read
        already). A region an earlier writer of this edit imaged is not imaged again;
        where two overlap, the later image's "before" is the rows as the edit found
        them, not as the earlier writer left them."""
        if not scope.values:
            return
        self._by_one_column(scope)
        earlier = self._earlier(scope)
        if now is None and not self._held(scope):
            now = snapshot(self.db, scope)
        if self.outer is not None:
            self.outer.cover(scope, now)
        if self._covered(scope, earlier):
            return
        assert now is not None
        before = now
        if earlier:
            pks = self.db[scope.table].pks
            for n in sorted(earlier):
                before = _as_found(self.images[n], scope, before, pks)
        self._add(Image(scope, before))

    def added(self, scope: Scope) -> None:
        """Image rows about to be added under keys no row has (fresh ids): nothing
        before, without reading."""
        if self.outer is not None:
            self.outer.added(scope)
        if scope.values:
            self._by_one_column(scope)
            self._add(Image(scope, []))

    def _by_one_column(self, scope: Scope) -> None:
        """Refuse a second key column for a table: rows imaged by two could not be told
        apart (a tag's marks by paper and by tag)."""
        column = self._key_column.setdefault(scope.table, scope.column)
        if column != scope.column:
            raise ValueError(f"one edit images {scope.table} by {column} and by "
                             f"{scope.column}: image it by one column")

    def _add(self, image: Image) -> None:
        self._of_table.setdefault(image.scope.table, []).append(len(self.images))
        self.images.append(image)

    def _index(self, table: str) -> dict[Any, list[int]]:
        """Key value -> the images of ``table`` holding it, brought up to date."""
        holding = self._holding.setdefault(table, {})
        places = self._of_table.get(table, [])
        for n in places[self._indexed.get(table, 0):]:
            for v in self.images[n].scope.values:
                holding.setdefault(v, []).append(n)
        self._indexed[table] = len(places)
        return holding

    def _earlier(self, scope: Scope) -> set[int]:
        """The images holding a row of ``scope`` (their places in ``images``)."""
        if not self._of_table.get(scope.table):
            return set()
        holding = self._index(scope.table)
        return {n for v in scope.values for n in holding.get(v, ())}

    def _held(self, scope: Scope) -> bool:
        """Whether this edit and every edit it is nested in hold ``scope`` already."""
        rec: Recording | None = self
        while rec is not None:
            if not rec._covered(scope, rec._earlier(scope)):
                return False
            rec = rec.outer
        return True

    def _covered(self, scope: Scope, earlier: set[int]) -> bool:
        """Whether earlier images hold every row of ``scope``, with its columns."""
        if not earlier:
            return False
        holding = self._index(scope.table)
        wanted = set(scope.columns)
        for v in scope.values:
            if not any(not s.columns or (wanted and wanted <= set(s.columns))
                       for s in (self.images[n].scope for n in holding.get(v, ()))):
                return False
        return True

    def close(self) -> list[Image]:
        """The images, parents first, each with its rows as the edit leaves them."""
        rank = {t: n for n, t in enumerate(_ORDER)}
        images = sorted(self.images, key=lambda i: rank.get(i.scope.table, len(rank)))
        for image in images:
            image.after = snapshot(self.db, image.scope)
        return images

    def row_changes(self) -> list[RowChange]:
        return row_changes(self.db, self.images)


def _as_found(earlier: Image, scope: Scope, rows: list[Row], pks: list[str]) -> list[Row]:
    """``rows`` (of ``scope``, read now) as they were before ``earlier``'s writer wrote
    the region the two share. A writer keeps its rows inside its scope: a row of the
    shared region was in ``earlier``'s scope before and after."""
    column = scope.column
    shared = set(earlier.scope.values) & set(scope.values)
    if not shared:
        return rows
    key = lambda r: tuple(r[k] for k in pks)  # noqa: E731
    if earlier.scope.columns:  # the same rows: only those columns went back and forth
        old = {key(r): r for r in earlier.before}
        return [{c: old[key(r)].get(c, v) if key(r) in old and c in earlier.scope.columns
                 else v for c, v in r.items()} if r[column] in shared else r for r in rows]
    names = [*(k for k in pks if k not in scope.columns), *scope.columns]
    theirs, ours = set(earlier.scope.values), set(scope.values)
    found = [r for r in rows if r[column] not in theirs]
    for r in earlier.before:
        if r[column] in ours:
            found.append({c: r.get(c) for c in names} if scope.columns else dict(r))
    return found


def row_changes(db: Database, images: Sequence[Image]) -> list[RowChange]:
    """The rows ``images`` changed, one record each (rows the same before and after
    are left out)."""
    out: list[RowChange] = []
    for image in images:
        pks = db[image.scope.table].pks
        before = {tuple(r[k] for k in pks): r for r in image.before}
        after = {tuple(r[k] for k in pks): r for r in image.after}
        for k in dict.fromkeys([*before, *after]):
            old, new = before.get(k), after.get(k)
            if old != new:
                out.append(RowChange(image.scope.table, k, old, new))
    return out


@contextlib.contextmanager
def recorded(db: Database, scopes: Sequence[Scope] = ()) -> Iterator[Recording]:
    """Open a recording on ``db`` for the block (``Library.edit``), nested in the one
    open already; ``scopes`` are imaged up front. ``Recording.close`` then gives the
    images."""
    rec = Recording(db, db.recording)
    db.recording = rec
    try:
        for scope in scopes:
            rec.cover(scope)
        yield rec
    finally:
        db.recording = rec.outer


def recording(db: Database) -> Recording | None:
    """The open edit's recording, or None outside an edit."""
    return getattr(db, "recording", None)


def cover(db: Database, table: str, column: str, values: Iterable[Any],
          columns: Sequence[str] = ()) -> None:
    """Image the rows of ``table`` whose ``column`` is one of ``values`` (only ``columns``
    of them, when given) for the open edit, before a writer writes them; nothing
    outside an edit."""
    rec = recording(db)
    if rec is not None:
        rec.cover(Scope(table, column, tuple(values), tuple(columns)))


def cover_added(db: Database, table: str, column: str, values: Iterable[Any]) -> None:
    """Image rows about to be added under fresh keys (``Recording.added``)."""
    rec = recording(db)
    if rec is not None:
        rec.added(Scope(table, column, tuple(values)))

