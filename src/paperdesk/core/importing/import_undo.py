"""Taking an import back: the papers it created and the sightings it added go,
the user's later work stays.

``record(lib, reports)`` is called right after an import and notes what it
created: the digests, the new papers and a fingerprint of each new paper
(a digest of its fields, tags and notes), in the library's ``imports`` table, so that
``paperdesk import --undo`` and the window's Undo last import take back the library's
last import, whoever made it, after a restart too. ``undo_import(lib, record)`` later removes the
digests (their sightings go with them, and the papers they were seen on get
their upvotes and counts recomputed by the triggers) and the new papers. Like
the three-way unmerge, it keeps what happened since: a new paper the user has
rated, tagged, annotated or otherwise changed since the import, or whose citation
key has left PaperDesk since (exported, synced, copied), goes to the trash instead
of being deleted, and one that a later import saw again stays,
with only this import's sightings taken away. It is one undoable edit, and its
redo (after an undo of it) does the same with a paper exported in between: to the
trash, never deleted (``Undo.trash_frozen``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paperdesk.core.db import candidates_table, digests_table, imports_table, papers_table
from paperdesk.core.db import changes as ch
from paperdesk.core.importing.file_report import IMPORTED, FileReport
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.text import plural

if TYPE_CHECKING:
    from paperdesk.core.library import Library

_FINGERPRINT = """
-- citekey_frozen: a key that left PaperDesk since the import (exported, synced, copied)
-- is a change: the paper goes to the trash with its key, never deleted.
SELECT p.id, json_array(p.title, p.abstract, p.rating, p.status, p.modified, p.deleted_at,
       p.citekey, (p.id IN frozen_keys), p.year,
       (SELECT group_concat(pt.tag_id) FROM paper_tags pt WHERE pt.paper_id = p.id),
       (SELECT group_concat(n.id || ':' || n.updated) FROM notes n WHERE n.paper_id = p.id))
FROM papers p WHERE p.id IN (SELECT value FROM json_each(?))
"""


class ImportUndoError(PaperDeskError):
    pass


@dataclass
class ImportRecord:
    """What one import created, as plain data."""

    label: str
    digest_ids: list[int]
    created: dict[int, str] = field(default_factory=dict)  # paper id -> fingerprint
    row: int | None = None  # its row in ``imports``
    files: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.digest_ids and not self.created


def _fingerprints(lib: Library, ids: Sequence[int]) -> dict[int, str]:
    """A digest of each paper's fields, tags and notes: any change since shows."""
    return {pid: hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
            for pid, text in lib.db.execute(_FINGERPRINT, [json.dumps(list(ids))])}


def record(lib: Library, reports: Iterable[FileReport]) -> ImportRecord:
    """Note, right after an import, what it created: the digests and the papers each
    file's importer says it created (reports of failed or repeated files add nothing),
    kept in ``imports`` when it created anything."""
    reports = [r for r in reports if r.status == IMPORTED]
    digests = [r.digest_id for r in reports if r.digest_id is not None]
    created = [pid for r in reports for pid in r.created_ids]
    names = [r.name for r in reports]
    label = (f"Undo import of {names[0]}" if names else "Undo import") + (
        f" and {len(names) - 1} more" if len(names) > 1 else "")
    rec = ImportRecord(label, digests, _fingerprints(lib, created) if created else {},
                       files=names)
    if not rec.empty:
        with lib.write("Note the import") as w:
            rec.row = imports_table.insert(
                lib.db, now(), label, names,
                {"digests": digests, "created": {str(k): v for k, v in rec.created.items()}})
            w.changes = ch.NOTHING  # a note of what was done, not a change to show
    return rec


def last(lib: Library, name: str | None = None) -> ImportRecord | None:
    """The library's newest import still recorded (of a file named ``name``)."""
    row = imports_table.newest(lib.db, name)
    if row is None:
        return None
    data = row["record"]
    return ImportRecord(row["label"], [int(d) for d in data.get("digests", [])],
                        {int(k): v for k, v in data.get("created", {}).items()},
                        row=row["id"], files=row["files"])


def undo_import(lib: Library, rec: ImportRecord) -> ch.Changes:
    """Remove what ``rec`` created; see the module's description."""
    db = lib.db
    digests = [d for d in rec.digest_ids
               if db.execute("SELECT 1 FROM digests WHERE id = ?", [d]).fetchone()]
    now_prints = _fingerprints(lib, list(rec.created)) if rec.created else {}
    alive = list(now_prints)
    if not digests and not alive:
        raise ImportUndoError("nothing of that import is left to undo")
    marks = ",".join("?" * len(digests)) or "NULL"
    seen = [r[0] for r in db.execute(
        f"SELECT DISTINCT paper_id FROM sightings WHERE digest_id IN ({marks})", digests)]
    # Created papers a later import saw again keep those sightings and stay.
    later = set()
    if alive:
        later = {r[0] for r in db.execute(
            f"SELECT DISTINCT s.paper_id FROM sightings s WHERE s.paper_id IN "
            f"(SELECT value FROM json_each(?)) AND s.digest_id NOT IN ({marks})",
            [json.dumps(alive), *digests])}
    changed = [pid for pid in alive if pid not in later and now_prints[pid] != rec.created[pid]]
    delete = [pid for pid in alive if pid not in later and pid not in changed]
    ids = tuple(sorted(set(alive) | set(seen)))
    kinds = [ch.PAPER_SET, ch.PAPERS, ch.DIGESTS]
    with lib.edit(rec.label, kinds, ids) as e:
        stamp = now()
        if rec.row is not None:
            imports_table.delete(db, rec.row)
        if changed:
            papers_table.trash(db, changed, stamp)
        if delete:
            candidates_table.remove(db, delete)
            papers_table.delete(db, delete)
        digests_table.delete_digests(db, digests)
        e.result = ImportUndone(deleted=len(delete), trashed=len(changed), kept=len(later),
                                digests=len(digests))
    if e.changes.undo is not None:
        # Its redo (after an undo of it) treats a paper exported in between as it does.
        e.changes.undo.trash_frozen = True
    return e.changes


@dataclass(frozen=True)
class ImportUndone(ch.Result):
    """What undoing an import did."""

    deleted: int   # new papers removed
    trashed: int   # new papers changed or exported since, moved to the trash
    kept: int      # new papers a later import saw again, kept
    digests: int   # digests removed (their sightings with them)


def summary(result: ImportUndone) -> str:
    parts = [f"removed {plural(result['deleted'], 'paper')}"]
    if result["trashed"]:
        parts.append(f"{plural(result['trashed'], 'paper')} you changed or exported since "
                     "moved to the trash")
    if result["kept"]:
        parts.append(f"{plural(result['kept'], 'paper')} seen again later kept")
    return "Import undone: " + ", ".join(parts)


class Imports:
    """``lib.imports``: what an import created, and taking it back."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def record(self, reports: Iterable[FileReport]) -> ImportRecord:
        """What the import that gave ``reports`` created: as ``import_paths`` recorded
        it (``ImportResult.record``), else recorded now."""
        kept = getattr(reports, "record", None)
        return kept if isinstance(kept, ImportRecord) else record(self.lib, reports)

    def last(self, name: str | None = None) -> ImportRecord | None:
        return last(self.lib, name)

    def undo(self, rec: ImportRecord) -> ch.Changes:
        return undo_import(self.lib, rec)

    summary = staticmethod(summary)
