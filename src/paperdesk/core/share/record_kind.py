"""What a record kind of the shared document is (``records``): the library's papers
and notes by stable id (``Ids``), what changed between two sets of records (``Diff``),
and the kind's reads, filter and writes (``Kind``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.db.database import Database

Records = dict[str, dict[str, Any]]  # stable id -> values


@dataclass
class Ids:
    """The library's papers and notes by stable id and local id, as it is now."""
    pid: dict[str, int] = field(default_factory=dict)   # paper's stable id -> local id
    uid: dict[int, str] = field(default_factory=dict)   # local id -> stable id
    note: dict[str, int] = field(default_factory=dict)  # note's stable id -> local id
    note_uid: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, db: Database) -> Ids:
        uid = dict(db.execute("SELECT id, uid FROM papers WHERE uid IS NOT NULL").fetchall())
        note_uid = dict(db.execute("SELECT note_id, uid FROM share_notes").fetchall())
        return cls({u: p for p, u in uid.items()}, uid,
                   {u: n for n, u in note_uid.items()}, note_uid)


@dataclass
class Diff:
    added: Records = field(default_factory=dict)
    changed: dict[str, tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=dict)
    removed: Records = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


@dataclass(frozen=True)
class Kind:
    name: str
    changes: tuple[str, ...]  # the change kinds (``db.changes``) its writes are
    read: Callable[[Database, Ids], Records]
    held: Callable[[Records, Ids], Records]
    write: Callable[[Database, Diff, Ids, str], set[int]]  # -> papers touched
    # Whether the papers' own pull (``apply``) changes what ``read`` finds when it
    # writes a note (a note's text moves its times): then the kind is read again.
    with_papers: bool = False
    # A kind whose records stay with the paper they were made for, where a merge moves
    # the rows to the kept paper (``records``): ``fold`` reads the document's records
    # as the kept papers' through the merge marks (merged paper's id -> the kept
    # paper's), ``unfold`` makes the library's record what is written over the
    # document's (what it was made for kept).
    fold: Callable[[Records, dict[str, str]], Folded] | None = None
    unfold: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None


@dataclass
class Folded:
    """A kind's records read through the merge marks: as the library holds them, and
    for each key that the document holds under other keys, those keys (the first
    takes a write, all of them a removal)."""
    records: Records
    origin: dict[str, list[str]] = field(default_factory=dict)
