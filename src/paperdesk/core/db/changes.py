"""What a write changed, which views it concerns, and how to take it back.

Every write through the ``Library`` returns a ``Changes`` record: which kinds
of data changed, which views they concern (``views``, computed here so that
the GUI, the CLI and listeners agree), which papers, and an ``Undo``: row
images of every table region the edit touched, before and after. Undoing
writes the "before" images back; redoing writes the "after" images. Images are
plain data (JSON-serialisable), so an undo can be stored in the library
(merges are) and survive a restart. Nothing here knows about Qt.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from paperdesk.core.db import column_restore, images, paper_restore
from paperdesk.core.db.annotations import in_bulk
from paperdesk.core.db.database import Database
from paperdesk.core.db.images import Image, RowChange, Scope, row_changes, snapshot
from paperdesk.core.db.store import papers_in_bulk
from paperdesk.core.model.text import plural

# Kinds of data an edit can change.
PAPERS = "papers"          # fields of papers (rating, status, title, ...)
PAPER_SET = "paper_set"    # papers added or removed
TAGS = "tags"
NOTES = "notes"
DIGESTS = "digests"
DUPLICATES = "duplicates"  # merges, not-duplicate marks
SEARCHES = "searches"      # saved searches
CANDIDATES = "candidates"  # the open duplicate groups a scan or an import found
SYNCS = "syncs"            # kept-in-sync files and their state; keys frozen by them
ATTACHMENTS = "attachments"  # a paper's PDFs (attached, removed, located, moved by a merge)
HIGHLIGHTS = "highlights"  # highlights made on them
# What a write whose kinds are not known may have changed: everything.
ALL_KINDS = frozenset({PAPERS, PAPER_SET, TAGS, NOTES, DIGESTS, DUPLICATES, SEARCHES,
                       CANDIDATES, SYNCS, ATTACHMENTS, HIGHLIGHTS})

# Views a change can concern. A front end repaints a view only when its name
# is in ``Changes.views``.
TABLE_ROWS = "table_rows"              # values in rows of the paper table
TABLE_SET = "table_set"                # which papers a search lists: run it again
DETAIL = "detail"                      # one paper in full: fields, tags, notes, sightings
SIDEBAR_COUNTS = "sidebar_counts"      # statuses, tags, digests, saved searches and counts
DUPLICATE_GROUPS = "duplicate_groups"  # the groups to review
MERGE_HISTORY = "merge_history"
TRASH = "trash"
SYNC_LIST = "sync_list"                # the kept-in-sync files and their states
ALL_VIEWS = frozenset({TABLE_ROWS, TABLE_SET, DETAIL, SIDEBAR_COUNTS, DUPLICATE_GROUPS,
                       MERGE_HISTORY, TRASH, SYNC_LIST})

_VIEWS_OF_KIND = {
    PAPERS: {TABLE_ROWS, DETAIL, SIDEBAR_COUNTS},
    PAPER_SET: ALL_VIEWS,
    TAGS: {TABLE_ROWS, DETAIL, SIDEBAR_COUNTS},
    NOTES: {TABLE_ROWS, DETAIL},
    DIGESTS: ALL_VIEWS,
    DUPLICATES: {DUPLICATE_GROUPS, MERGE_HISTORY, SIDEBAR_COUNTS},
    SEARCHES: {SIDEBAR_COUNTS},
    CANDIDATES: {DUPLICATE_GROUPS, SIDEBAR_COUNTS},
    SYNCS: {SYNC_LIST, DETAIL},
    ATTACHMENTS: {TABLE_ROWS, DETAIL},
    HIGHLIGHTS: {DETAIL},
}
# Tables and paper columns whose change can change the duplicate groups.
_GROUP_TABLES = {"merges", "not_duplicates", "sightings"}
_GROUP_COLUMNS = ("title_key", "abstract", "published", "author_count", "organization",
                  "arxiv_id", "doi", "deleted_at")

# How a change was made.
DONE = "done"
UNDONE = "undone"
REDONE = "redone"
OUTSIDE = "outside"  # committed by another program (Library.external_changes)
SHARED = "shared"  # what another computer changed, applied by an exchange (core/share/)


@dataclass
class Undo:
    label: str
    images: list[Image]
    # An undo or redo of it never deletes a paper whose key left PaperDesk since: the
    # paper goes to the trash instead, as the edit itself did (an import's undo).
    trash_frozen: bool = False

    def to_json(self) -> dict[str, Any]:
        images = [
            {"table": i.scope.table, "column": i.scope.column, "values": list(i.scope.values),
             **({"columns": list(i.scope.columns)} if i.scope.columns else {}),
             "before": i.before, "after": i.after} for i in self.images]
        return {"label": self.label, **({"trash_frozen": True} if self.trash_frozen else {}),
                "images": images}

    def row_changes(self, db: Database) -> list[RowChange]:
        """The rows the edit changed, one typed record each (``images.RowChange``)."""
        return row_changes(db, self.images)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Undo:
        return cls(data["label"], [
            Image(Scope(i["table"], i["column"], tuple(i["values"]), tuple(i.get("columns", ()))),
                  i["before"], i["after"])
            for i in data["images"]], bool(data.get("trash_frozen")))


class Result(Mapping[str, Any]):
    """A typed result of one operation (a dataclass) that reads like a mapping too,
    so ``result.note_id`` and ``result["note_id"]`` both work and it turns into
    JSON with ``dict(result)``."""

    def __getitem__(self, name: str) -> Any:
        if name not in self._names():
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def _names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]


@dataclass(frozen=True)
class NoResult(Result):
    """The result of an operation that has nothing to report but its changes."""


@dataclass(frozen=True)
class Restored(Result):
    """What an undo or a redo did beyond writing its rows back (``paper_restore``)."""

    # papers put back whose old key another paper keeps now: their fresh keys
    rekeyed: dict[int, str] = field(default_factory=dict)
    # papers it would have deleted whose keys left PaperDesk since: in the trash
    trashed: list[int] = field(default_factory=list)

    def said(self) -> str | None:
        """What the undo did beyond putting rows back, in one line (None: nothing)."""
        parts = []
        if self.rekeyed:
            parts.append(f"{plural(len(self.rekeyed), 'paper')} came back under a new citation "
                         f"key ({', '.join(sorted(self.rekeyed.values()))}): the old one has "
                         "left PaperDesk as another paper's")
        if self.trashed:
            parts.append(f"{plural(len(self.trashed), 'paper')} exported since went to the "
                         "trash, not deleted")
        return "; ".join(parts) or None


@dataclass(frozen=True)
class Changes:
    label: str
    kinds: frozenset[str]
    paper_ids: frozenset[int] = frozenset()
    undo: Undo | None = None
    # The operation's own result (new ids, counts) for the caller.
    result: Result = field(default_factory=NoResult)
    how: str = DONE  # DONE, UNDONE, REDONE, OUTSIDE or SHARED

    def __bool__(self) -> bool:
        return bool(self.kinds)

    @functools.cached_property
    def views(self) -> frozenset[str]:
        """The views this change concerns (see TABLE_ROWS ... TRASH)."""
        return affected_views(self.kinds, self.undo)


NOTHING = Changes("nothing", frozenset())


@dataclass
class Write:
    """One write in progress; ``Library.write`` turns it into ``changes`` when it commits.

    The block may add ``kinds`` and ``paper_ids``, set its typed ``result``, or set
    ``changes`` outright (a merge builds its own undo).
    """

    label: str
    kinds: set[str]
    paper_ids: set[int]
    result: Result = field(default_factory=NoResult)
    made: Changes | None = None  # the changes, once the block or the kernel made them

    @property
    def changes(self) -> Changes:
        """The write's changes: set by the block, or made by the kernel when it ends."""
        if self.made is None:
            raise RuntimeError(f"the write {self.label!r} has no changes yet")
        return self.made

    @changes.setter
    def changes(self, changes: Changes) -> None:
        self.made = changes


def affected_views(kinds: Iterable[str], undo: Undo | None) -> frozenset[str]:
    """The views that ``kinds`` of change concern; the undo images tell whether an edit
    of papers touched what the duplicate groups are made of."""
    views: set[str] = set()
    for kind in kinds:
        views |= _VIEWS_OF_KIND.get(kind, ALL_VIEWS)
    if PAPERS in kinds and touches_groups(undo):
        views.add(DUPLICATE_GROUPS)
    return frozenset(views)


def touches_groups(undo: Undo | None) -> bool:
    """Whether an edit can change the duplicate groups: papers came or went, were merged
    or set apart, or changed title, abstract, date or identifiers (unknown: it can)."""
    if undo is None:
        return True
    for image in undo.images:
        if image.scope.table in _GROUP_TABLES:
            return True
        if image.scope.table == "papers":
            before = {r["id"]: r for r in image.before}
            after = {r["id"]: r for r in image.after}
            # An image of some columns holds no others (a rating: none of the groups').
            columns = [c for c in _GROUP_COLUMNS
                       if not image.scope.columns or c in image.scope.columns]
            if before.keys() != after.keys() or any(
                    before[i].get(c) != after[i].get(c) for i in before for c in columns):
                return True
    return False


def combine(label: str, parts: Iterable[Changes], result: Result | None = None) -> Changes:
    """One record for several committed changes (the files of one import...)."""
    parts = [p for p in parts if p]
    undo = None
    if parts and all(p.undo is not None for p in parts):
        undo = Undo(label, [i for p in parts for i in p.undo.images],  # type: ignore[union-attr]
                    any(p.undo.trash_frozen for p in parts))  # type: ignore[union-attr]
    return Changes(label, frozenset().union(*(p.kinds for p in parts)),
                   frozenset().union(*(p.paper_ids for p in parts)), undo,
                   result if result is not None else NoResult())


def affected(undo: Undo) -> tuple[set[str], set[int]]:
    """The kinds of data and the papers that undoing or redoing ``undo`` changes."""
    table_kinds = {"papers": PAPERS, "paper_tags": TAGS, "tags": TAGS,
                   "notes": NOTES, "sightings": PAPERS, "digests": DIGESTS,
                   "not_duplicates": DUPLICATES, "merges": DUPLICATES,
                   "duplicate_candidates": CANDIDATES,
                   "saved_searches": SEARCHES, "attachments": ATTACHMENTS,
                   "highlights": HIGHLIGHTS}
    kinds: set[str] = set()
    ids: set[int] = set()
    for image in undo.images:
        kinds.add(table_kinds.get(image.scope.table, PAPERS))
        if image.scope.table == "sightings":  # a digest's too (``sync_changes``: any paper)
            kinds.add(DIGESTS)
        key = "id" if image.scope.table == "papers" else "paper_id"  # papers have no paper_id
        for rows in (image.before, image.after):
            ids.update(v for r in rows if (v := r.get(key)) is not None)
        if image.scope.table == "papers":
            # Papers coming or going: rows added or removed, or moved in or
            # out of the trash.
            before = {r["id"] for r in image.before if r.get("deleted_at") is None}
            after = {r["id"] for r in image.after if r.get("deleted_at") is None}
            if before != after:
                kinds.add(PAPER_SET)
    return kinds, ids


def _key(row: dict[str, Any], pks: list[str]) -> tuple[Any, ...]:
    return tuple(row[k] for k in pks)


def restore(db: Database, images: list[Image], *, before: bool,
            new_key: paper_restore.NewKey | None = None, trash_frozen: bool = False) -> Restored:
    """Make each scope hold exactly its before (or after) rows. Call inside a write.

    Rows are upserted, not deleted and re-inserted, so that no ON DELETE
    CASCADE fires on rows outside the scopes; rows already as wanted are left
    alone, so their triggers do not fire. A row that is there is updated in
    the columns that differ only, so undoing a rating does not fire the
    full-text index's trigger on title and abstract. An image of a few columns
    that no trigger watches (a rating) is written back in one pass, without
    reading the rows first (``column_restore``). Parents come first in
    ``images``; stale rows are deleted children first.

    Papers keep every key that left PaperDesk (``paper_restore``): a paper coming back
    whose old key another paper keeps gets a fresh one from ``new_key`` (without it,
    the write fails), and with ``trash_frozen`` a paper whose key froze since goes to
    the trash instead of away; the ``Restored`` result says which.
    """
    # Papers whose tags, notes or whole rows are written: many get their index rows in sets.
    annotated = {r["paper_id"] for i in images if i.scope.table in _ANNOTATIONS
                 for r in i.before + i.after}
    whole = {r["id"] for i in images if i.scope.table == "papers" and not i.scope.columns
             for r in i.before + i.after}
    report = Restored()
    with in_bulk(db, annotated), papers_in_bulk(db, whole):
        _restore(db, images, before, annotated, _Papers(new_key, trash_frozen, report))
    return report


def rewind(db: Database, taken: list[Image],
           target: Callable[[Image, list[dict[str, Any]], list[str]], list[dict[str, Any]]],
           new_key: paper_restore.NewKey | None = None) -> Restored:
    """Write the scopes of ``taken`` (an edit's images) back to what ``target`` makes of
    each image, its rows now and its table's primary key (an unmerge: ``three_way``),
    imaged for the open edit first; see ``restore``."""
    for image in taken:
        images.cover(db, image.scope.table, image.scope.column, image.scope.values,
                     image.scope.columns)
    targets = [Image(i.scope, target(i, snapshot(db, i.scope), db[i.scope.table].pks))
               for i in taken]
    return restore(db, targets, before=True, new_key=new_key)


# Tables whose rows are a paper's notes and tags.
_ANNOTATIONS = ("paper_tags", "notes")


@dataclass
class _Papers:
    """How one restore treats papers, and what it did to them."""
    new_key: paper_restore.NewKey | None
    trash_frozen: bool
    report: Restored


def _by_columns(db: Database, scope: Scope) -> bool:
    """Whether an image of ``scope`` can be written back without reading its rows first."""
    return (bool(scope.columns) and scope.table not in _ANNOTATIONS
            and not (scope.table == "papers" and "citekey_frozen" in scope.columns)
            and column_restore.quiet(db, scope.table, scope.columns))


def _restore(db: Database, images: list[Image], before: bool, annotated: set[int],
             papers: _Papers) -> None:
    stale: list[tuple[str, list[str], list[tuple[Any, ...]]]] = []
    kept: set[int] = set()  # papers the target lacks that stay, in the trash
    for image in images:
        table = image.scope.table
        target = image.before if before else image.after
        if _by_columns(db, image.scope):
            column_restore.restore(db, table, image.scope.columns, target)
            continue
        pks = db[table].pks
        present = {_key(r, pks): r for r in snapshot(db, image.scope)}
        if table in _ANNOTATIONS:
            annotated.update(r["paper_id"] for r in present.values())
        if table == "papers":
            target, trashed, rekeyed = paper_restore.prepare(
                db, target, {k[0]: r for k, r in present.items()},
                adds_rows=not image.scope.columns, new_key=papers.new_key,
                trash_frozen=papers.trash_frozen, left=image.after if before else image.before)
            papers.report.rekeyed.update(rekeyed)
            papers.report.trashed.extend(trashed)
            kept.update(trashed)
            wanted = {_key(r, pks) for r in target} | {(p,) for p in trashed}
        else:
            wanted = {_key(r, pks) for r in target}
            if table in _ANNOTATIONS and kept:  # a paper kept keeps its tags and notes
                wanted |= {k for k, r in present.items() if r["paper_id"] in kept}
        if not image.scope.columns:  # a scope of some columns neither adds nor removes rows
            stale.append((table, pks, [k for k in present if k not in wanted]))
        missing: list[dict[str, Any]] = []
        updates: dict[tuple[str, ...], list[list[Any]]] = {}
        for row in target:
            have = present.get(_key(row, pks))
            if have is None:
                if not image.scope.columns:  # a row gone for good stays gone
                    missing.append(row)
            elif have != row:
                cols = tuple(c for c in row if c not in pks and have.get(c) != row[c])
                updates.setdefault(cols, []).append([row[c] for c in cols]
                                                    + [row[k] for k in pks])
        key = " AND ".join(f"[{k}] = ?" for k in pks)
        for cols, values in updates.items():
            if cols:
                db.conn.executemany(
                    f"UPDATE [{table}] SET {', '.join(f'[{c}] = ?' for c in cols)} "
                    f"WHERE {key}", values)
        if missing:
            names = list(missing[0])
            sets = ", ".join(f"[{c}] = excluded.[{c}]" for c in names if c not in pks)
            conflict = f"DO UPDATE SET {sets}" if sets else "DO NOTHING"
            db.conn.executemany(
                f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in names)}) "
                f"VALUES ({', '.join('?' * len(names))}) "
                f"ON CONFLICT ({', '.join(f'[{k}]' for k in pks)}) {conflict}",
                [[row[c] for c in names] for row in missing])
        if table == "papers":
            paper_restore.refreeze(db, target)
    for table, pks, keys in reversed(stale):
        where = " AND ".join(f"[{k}] = ?" for k in pks)
        db.conn.executemany(f"DELETE FROM [{table}] WHERE {where}", [list(k) for k in keys])
