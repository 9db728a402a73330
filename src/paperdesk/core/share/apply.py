"""What arrived, written into the library through its table writers, inside the
exchange's one undoable edit (``pull``): the table, the sidebar, undo, kept-in-sync
files and the change feed hear it as any other write.

Citation keys change in two steps (those that change are cleared, then set), so
two papers trading keys never hold one key at once; the document gives each key to
one paper (``document.state``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.db import ids, notes_table, papers_table, share_table, tags_table
from paperdesk.core.db.database import Database
from paperdesk.core.model.clock import now
from paperdesk.core.share import fields as f
from paperdesk.core.share.library_state import State


@dataclass
class Pulled:
    added: list[int] = field(default_factory=list)
    changed: set[int] = field(default_factory=set)
    removed: list[int] = field(default_factory=list)
    in_trash: list[int] = field(default_factory=list)  # edits that landed on trashed papers
    conflicts: dict[str, str] = field(default_factory=dict)  # stable id -> key it waits for

    @property
    def papers(self) -> set[int]:
        return {*self.added, *self.changed, *self.removed}


_INSERTED = ("title", "abstract", "title_key", "authors", "author_count", "published",
             "year", "arxiv_id", "doi", "url", "github", "project_page", "hub_upvotes",
             "upvotes")


def pull(db: Database, target: State, local: State) -> Pulled:
    out = Pulled(conflicts=dict(target.conflicts))
    stamp = now()
    rekeyed: dict[int, str | None] = {}
    fresh = [u for u in target.papers if u not in local.papers]
    first = ids.first_free(db, "papers")
    rows = []
    for n, uid in enumerate(fresh):
        p = target.papers[uid]
        rows.append((first + n, *(p[c] for c in _INSERTED), None, p["sources"],
                     p["added"] or stamp, stamp))
        local.ids[uid] = first + n
    if rows:
        papers_table.insert_added(db, rows)
        for uid in fresh:  # the document's id, whatever this library would have derived
            papers_table.set_columns(db, local.ids[uid], {"uid": uid})
        out.added = [local.ids[u] for u in fresh]
    for uid, want in target.papers.items():
        have = local.papers.get(uid)
        pid = local.ids[uid]
        base: dict[str, Any] = have or {c: (want[c] if c in _INSERTED else None)
                                        for c in (*f.COLUMNS, f.FROZEN)}
        changed = {c: want[c] for c in f.COLUMNS if c != "citekey" and base.get(c) != want[c]}
        if changed and want["deleted_at"] is not None and "deleted_at" not in changed:
            out.in_trash.append(pid)
        if "status" in changed and want["status"] != "to-read":
            changed["list_position"] = None
        if changed:
            papers_table.set_columns(db, pid, {**changed, "modified": stamp})
            out.changed.add(pid)
        if (have or {}).get("citekey") != want["citekey"]:
            rekeyed[pid] = want["citekey"]
        if want[f.FROZEN] and not (have or {}).get(f.FROZEN):
            papers_table.freeze_listed(db, [pid])
            out.changed.add(pid)
        if _tags(db, pid, (have or {}).get(f.TAGS, {}), want[f.TAGS]):
            out.changed.add(pid)
        if _notes(db, pid, (have or {}).get(f.NOTES, {}), want[f.NOTES], local, stamp):
            out.changed.add(pid)
    for pid in rekeyed:
        papers_table.set_columns(db, pid, {"citekey": None})
    for pid, key in rekeyed.items():
        if key is not None:
            papers_table.set_columns(db, pid, {"citekey": key})
    out.changed.update(rekeyed)
    gone = [local.ids[u] for u in local.papers.keys() - target.papers.keys()]
    if gone:
        papers_table.delete(db, gone)
        out.removed = gone
    if target.queue != local.queue:
        papers_table.set_list_positions(
            db, [(float(n + 1), local.ids[u]) for n, u in enumerate(target.queue)])
        out.changed.update(local.ids[u] for u in target.queue)
    out.changed -= {*out.removed, *out.added}
    return out


def _tags(db: Database, pid: int, have: dict[str, str], want: dict[str, str]) -> bool:
    new = [(name, key) for key, name in want.items() if key not in have]
    gone = [key for key in have if key not in want]
    if new:
        tags_table.add_tags(db, new)
        tags_table.tag(db, [pid], [key for _, key in new])
    if gone:
        tags_table.untag(db, [pid], gone)
        tags_table.drop_unused(db, gone)
    return bool(new or gone)


def _notes(db: Database, pid: int, have: dict[str, str], want: dict[str, str],
           local: State, stamp: str) -> bool:
    changed = False
    for nuid, text in want.items():
        if nuid not in have:
            nid = notes_table.add(db, pid, text, stamp)
            share_table.set_note_uids(db, [(nid, nuid)])
            changed = True
        elif have[nuid] != text:
            notes_table.set_text_of(db, pid, local.note_ids[nuid], text, stamp)
            changed = True
    for nuid in have.keys() - want.keys():
        notes_table.delete_of(db, pid, local.note_ids[nuid])
        changed = True
    return changed
