"""An exchange that reads only the papers that changed (``Subset``), on either side:
those the library changed since the last exchange (the library's own record of the
papers each write changed, ``db/sync_changes.py``, read from the generation the last
exchange recorded) and those whose roots the imported files touched (the engine names
the containers each change touched). Reading every paper of the library and the
whole document is most of an exchange of a large library: a rating on another
computer is then a few papers read, not a hundred thousand.

Every paper outside the subset is the same in the library and in the document (the
library was made what the document said at the last exchange, and neither side has
changed it since), so the subset's papers, the whole reading queue and the library's
citation keys are all an exchange needs. Where that does not hold, or a rule of the
document reads across papers, the exchange reads everything as before (``None``):
a paper gone from the library (emptied from the trash, merged), a merge or unmerge
arriving, a paper of the subset that a merge holds (kept, or merged away: its tags and
notes fold across papers), a citation key of the subset that another paper holds or
held, a change recorded without its papers (a large import), rows of the record pruned
since. Merges and keys kept by two papers from earlier exchanges do not: the papers
they hold are read whole only when they change, and what the last full read said of
the shared keys still holds (no paper of a subset holds one).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, cast

import loro

from paperdesk.core.db import changes as ch
from paperdesk.core.db import share_table, sync_changes
from paperdesk.core.db.database import Database
from paperdesk.core.share import fields as f
from paperdesk.core.share.document import changed_roots, queue_name, state_of
from paperdesk.core.share.library_state import State, queued, read

# A subset larger than this share of the library is read whole instead (cheaper at once).
MOST_SHARE = 0.5
# More citation keys than this are checked in one pass over the library's keys.
MOST_LOOKED_UP = 500


class Subset:
    """The base (the document as the library last matched it) and the library, for
    the papers the library changed since the last exchange."""

    def __init__(self, db: Database, doc: loro.LoroDoc, device: str, person: str | None,
                 dirty: set[int]) -> None:
        self.db, self.doc, self.device, self.person = db, doc, device, person
        self.local = read(db, device, dirty)
        self.base = self._doc_state(self.local.papers)
        self.marks = _marks(doc)

    @classmethod
    def open(cls, db: Database, doc: loro.LoroDoc, device: str,
             person: str | None) -> Subset | None:
        dirty = changed(db)
        if dirty is None or len(dirty) > MOST_SHARE * _count(db):
            return None
        sub = cls(db, doc, device, person, dirty)
        if len(sub.local.papers) != len(dirty) or _held(db, sub.base, sub.local) \
                or _involved(sub.marks, sub.local.papers.keys()):
            return None  # a paper gone, a key shared with a paper outside, a merge's
        return sub

    def target(self, since: loro.VersionVector) -> State | None:
        """After the import: the document now for the subset and the papers the
        imported changes touched (the library read for those too, into ``local``)."""
        if _marks(self.doc) != self.marks:
            return None  # a merge or an unmerge came in: the marks fold across papers
        touched = _touched_uids(self.doc, since) - self.local.papers.keys()
        if _involved(self.marks, touched):
            return None
        if len(touched) > MOST_SHARE * _count(self.db):
            return None  # most of the library: read whole at once
        if touched:
            known = _pids_of(self.db, touched)
            more = read(self.db, self.device, set(known.values()))
            if len(more.papers) != len(known):
                return None
            self.local.papers.update(more.papers)
            self.local.ids.update(more.ids)
            self.local.note_ids.update(more.note_ids)
        target = self._doc_state(self.local.papers.keys() | touched)
        if target.conflicts or _held(self.db, target, self.local):
            return None
        return target

    def _doc_state(self, uids: Iterable[str]) -> State:
        doc, person = self.doc, self.person
        value: dict[str, Any] = {}
        for uid in uids:
            roots = [f.PAPER + uid, f.TAG_SET + uid, f.NOTE_MAP + uid]
            if person is not None:
                roots.append(f"{f.OWN}{person}:{uid}")
            for root in roots:
                got = doc.get_map(root).get_deep_value()
                if got:
                    value[root] = got
        out = state_of(value, person)
        listed = cast(list[Any], doc.get_movable_list(queue_name(person)).get_value() or [])
        order = [str(u) for u in listed]
        out.queue = queued(out.papers, order, self._queued_outside(value))
        return out

    def _queued_outside(self, value: dict[str, Any]) -> set[str]:
        """The queue's papers outside the subset, as the library has them (the same as
        the document has them: neither changed them)."""
        inside = {root[len(f.PAPER):] for root in value if root.startswith(f.PAPER)}
        inside |= self.local.papers.keys()
        rows = self.db.execute("SELECT uid FROM papers WHERE status = 'to-read' AND "
                               "deleted_at IS NULL AND uid IS NOT NULL")
        return {r[0] for r in rows} - inside


def changed(db: Database) -> set[int] | None:
    """The papers the library changed since the last exchange (None: any may have).
    The last exchange's own write is recorded just after it (``own``): it is left out
    when its row is there holding the papers that exchange wrote, as it said."""
    since = share_table.get(db, "generation")
    if since is None:
        return None
    own = share_table.get(db, "own")
    if own is not None and own[0] == since + 1:
        there, blob = sync_changes.row(db, own[0])
        if there and _digest(blob) == own[1]:
            since = own[0]
    return sync_changes.changed_since(db, since, sync_changes.generation(db))


def recorded(db: Database, wrote: set[int], nested: bool,
             kinds: Iterable[str] = ()) -> None:
    """Inside an exchange, at its end: the generation the next one reads on from, and
    the row this exchange's own write will add at its commit (a write of its own
    only: nested in another, the outer write's row holds more). ``kinds``: the record
    kinds it wrote besides the papers'; one that names no papers (digests) makes the
    row one of any paper."""
    generation = sync_changes.generation(db)
    share_table.put(db, "generation", generation)
    precise = set(kinds) <= sync_changes.PRECISE | {ch.SEARCHES}
    blob = sync_changes.blob_of(wrote) if precise else None
    share_table.put(db, "own", None if nested or not (wrote or not precise) else [
        generation + 1, _digest(blob)])


def _digest(blob: bytes | None) -> str:
    import hashlib

    return "any" if blob is None else hashlib.sha256(blob).hexdigest()


def _count(db: Database) -> int:
    return db.execute("SELECT count(*) FROM papers").fetchone()[0] or 1


def _marks(doc: loro.LoroDoc) -> dict[str, str]:
    """The document's merge marks: a paper merged away -> the paper it went into."""
    return cast(dict[str, str], doc.get_map(f.MERGED).get_value() or {})


def _involved(marks: dict[str, str], uids: Iterable[str]) -> bool:
    """Whether a merge holds any of ``uids``, kept or merged away."""
    held = marks.keys() | {str(kept) for kept in marks.values()}
    return not held.isdisjoint(uids)


def _touched_uids(doc: loro.LoroDoc, since: loro.VersionVector) -> set[str]:
    """The papers whose roots changed since ``since``."""
    out: set[str] = set()
    for name in changed_roots(doc, since):
        for prefix in (f.PAPER, f.TAG_SET, f.NOTE_MAP):
            if name.startswith(prefix):
                out.add(name[len(prefix):])
        if name.startswith(f.OWN):
            out.add(name.rsplit(":", 1)[1])
    return out


def _pids_of(db: Database, uids: set[str]) -> dict[str, int]:
    rows = db.execute("SELECT uid, id FROM papers WHERE uid IN (SELECT value FROM "
                      "json_each(?))", [json.dumps(sorted(uids))])
    return dict(rows.fetchall())


def _held(db: Database, state: State, local: State) -> bool:
    """Whether a citation key of ``state``'s papers is, or was shown as, the key of a
    paper outside them (``KEY`` or ``KEY-abcd``): then the document's rule of one key
    a paper reads across the library, and the exchange reads it whole."""
    keys = {str(p["citekey"]).lower() for p in state.papers.values() if p["citekey"]}
    keys |= {str(p["citekey"]).lower() for p in local.papers.values() if p["citekey"]}
    if not keys:
        return False
    stems = {k[:-5] for k in keys if len(k) > 5 and k[-5] == "-"}
    inside = {local.ids[u] for u in local.papers}
    if len(keys) > MOST_LOOKED_UP:
        rows = db.execute("SELECT id, lower(citekey) FROM papers WHERE citekey IS NOT NULL")
        return any(pid not in inside and (key in keys or key in stems or (
            len(key) > 5 and key[-5] == "-" and key[:-5] in keys)) for pid, key in rows)
    # a few keys: looked up in the index of keys as a library folds them
    found = {r[0] for r in db.execute(
        "SELECT id FROM papers WHERE lower(citekey) IN (SELECT value FROM json_each(?))",
        [json.dumps(sorted(keys | stems))])}
    for key in keys:
        found.update(r[0] for r in db.execute(
            "SELECT id FROM papers WHERE lower(citekey) >= ? AND lower(citekey) < ? AND "
            "length(citekey) = ?", [key + "-", key + ".", len(key) + 5]))
    return bool(found - inside)
