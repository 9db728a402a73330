"""What arrived, written into the library through its table writers, inside the
exchange's one undoable edit (``pull``): the table, the sidebar, undo, kept-in-sync
files and the change feed hear it as any other write.

Citation keys change in two steps (those that change are cleared, then set), so
two papers trading keys never hold one key at once; the document gives each key to
one paper (``document.state``), but for a key that left PaperDesk for two papers on
two computers: both keep it, marked ``key_shared`` before they hold it (the library's
keys are unique among the papers not so marked), unmarked once they no longer share.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.db import ids, notes_table, papers_table, share_table, store, tags_table
from paperdesk.core.db.annotations import in_bulk
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
    noted: bool = False  # a note written

    @property
    def papers(self) -> set[int]:
        return {*self.added, *self.changed, *self.removed}


def pull(db: Database, target: State, local: State) -> Pulled:
    """Make the library what ``target`` says; ``local`` is the library now. Set-based:
    the papers' columns by the set of columns they change, tags by tag, the search
    index's rows after the block when many papers change."""
    out = Pulled(conflicts=dict(target.conflicts))
    stamp = now()
    fresh = [u for u in target.papers if u not in local.papers]
    plan = _plan(target, local, out)
    first = ids.first_free(db, "papers")
    for n, uid in enumerate(fresh):
        local.ids[uid] = first + n
    # Only what the search index's triggers watch is rewritten after the block: the
    # text of papers made, removed or given another title or abstract, and the
    # annotation rows of papers whose tags or notes change (a rating changes neither).
    # The papers made get their tags and notes in the block too: the tags' and notes'
    # triggers are off for them as well (left on, a computer joining with 110,000
    # tags rewrote a paper's row of annotations at each of its tags).
    retext = {u for names, uids in plan.columns.items() if _TEXT & set(names) for u in uids}
    texts = {local.ids[u] for u in {*retext, *fresh}} | set(plan.gone)
    annotated = {local.ids[u] for u in {*plan.notes, *(
        u for uids in (*plan.tagged.values(), *plan.untagged.values()) for u in uids)}}
    with store.papers_in_bulk(db, texts, len(fresh)), in_bulk(db, annotated):
        _write(db, plan, target, local, fresh, stamp, out)
    return out


_TEXT = {"title", "abstract"}  # the columns the papers' search triggers watch


@dataclass
class _Plan:
    columns: dict[tuple[str, ...], list[str]] = field(default_factory=dict)  # names -> uids
    rekeyed: list[str] = field(default_factory=list)
    frozen: list[str] = field(default_factory=list)
    thawed: list[str] = field(default_factory=list)
    tagged: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (key, name)
    untagged: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)


def _plan(target: State, local: State, out: Pulled) -> _Plan:
    plan = _Plan()
    for uid, want in target.papers.items():
        have = local.papers.get(uid)
        if have == want:
            continue  # most papers: the library has them as the document says
        changed = () if have is None else tuple(  # a new paper is inserted whole
            c for c in f.COLUMNS if c != "citekey" and have.get(c) != want[c])
        if changed:
            plan.columns.setdefault(changed, []).append(uid)
            if want["deleted_at"] is not None and "deleted_at" not in changed and have:
                out.in_trash.append(local.ids[uid])
        if (have or {}).get("citekey") != want["citekey"]:
            plan.rekeyed.append(uid)
        if want[f.FROZEN] and not (have or {}).get(f.FROZEN):
            plan.frozen.append(uid)
        elif not want[f.FROZEN] and (have or {}).get(f.FROZEN):
            plan.thawed.append(uid)  # an undo or unmerge elsewhere took the freeze back
        had = (have or {}).get(f.TAGS, {})
        for key, name in want[f.TAGS].items():
            if key not in had:
                plan.tagged.setdefault((key, name), []).append(uid)
        for key in had.keys() - want[f.TAGS].keys():
            plan.untagged.setdefault(key, []).append(uid)
        if (have or {}).get(f.NOTES, {}) != want[f.NOTES]:
            plan.notes.append(uid)
    plan.gone = [local.ids[u] for u in local.papers.keys() - target.papers.keys()]
    return plan


def _write(db: Database, plan: _Plan, target: State, local: State, fresh: list[str],
           stamp: str, out: Pulled) -> None:
    pid = local.ids.__getitem__
    if fresh:
        # a new paper takes its key as it is made unless a paper here holds that key now
        # (then it is given in the two steps below, once the other has let it go), or
        # shares it with another (given once marked)
        held = {p["citekey"] for p in local.papers.values() if p["citekey"]}
        keyed = {u for u in fresh
                 if target.papers[u]["citekey"] not in held and u not in target.shared}
        plan.rekeyed = [u for u in plan.rekeyed if u not in keyed]
        fields = [c for c in f.COLUMNS if c != "citekey"]
        papers_table.insert_shared(db, ["uid", *fields, "citekey", "modified"], [
            (pid(u), u, *(target.papers[u][c] or (stamp if c == "added" else
                                                  target.papers[u][c]) for c in fields),
             target.papers[u]["citekey"] if u in keyed else None, stamp)
            for u in fresh])
        out.added = [pid(u) for u in fresh]
    for names, uids in plan.columns.items():
        # a status changed leaves the queue: its place is written with the queue's
        extra = ("list_position",) if "status" in names else ()
        papers_table.set_many(db, [*names, *extra, "modified"], [
            (*(target.papers[u][c] for c in names), *(None for _ in extra), stamp, pid(u))
            for u in uids])
        out.changed.update(pid(u) for u in uids)
    if plan.gone:  # first: a paper merged away here lets its key go to the kept paper
        papers_table.delete(db, plan.gone)
        out.removed = plan.gone
    marked = papers_table.key_shared(db)
    if plan.rekeyed:  # cleared first: two papers trading keys never hold one at once
        papers_table.set_many(db, ["citekey"], [(None, pid(u)) for u in plan.rekeyed
                                                if u in local.papers])
    sharing = [pid(u) for u in target.shared if pid(u) not in marked]
    papers_table.set_many(db, ["key_shared"], [(1, i) for i in sharing])
    if plan.rekeyed:
        papers_table.set_many(db, ["citekey"], [(target.papers[u]["citekey"], pid(u))
                                                for u in plan.rekeyed
                                                if target.papers[u]["citekey"]])
        out.changed.update(pid(u) for u in plan.rekeyed)
    out.changed.update(sharing)
    if plan.frozen:
        papers_table.freeze_listed(db, [pid(u) for u in plan.frozen])
        out.changed.update(pid(u) for u in plan.frozen)
    if plan.thawed:
        papers_table.thaw(db, [pid(u) for u in plan.thawed])
        out.changed.update(pid(u) for u in plan.thawed)
    _write_tags(db, plan, pid, out)
    for u in plan.notes:
        if _notes(db, pid(u), (local.papers.get(u) or {}).get(f.NOTES, {}),
                  target.papers[u][f.NOTES], local, stamp):
            out.changed.add(pid(u))
            out.noted = True
    # Marks let go once the papers leaving are gone (one may hold the key unmarked), and
    # only of papers the target holds (an exchange may read a few).
    unshared = [pid(u) for u in target.papers.keys() - target.shared if pid(u) in marked]
    papers_table.set_many(db, ["key_shared"], [(0, i) for i in unshared])
    out.changed.update(unshared)
    if target.queue != local.queue or any("status" in n for n in plan.columns):
        papers_table.set_list_positions(
            db, [(float(n + 1), pid(u)) for n, u in enumerate(target.queue)])
        out.changed.update(pid(u) for u in target.queue)
    out.changed -= {*out.removed, *out.added}


def _write_tags(db: Database, plan: _Plan, pid: Any, out: Pulled) -> None:
    if plan.tagged:
        tags_table.add_tags(db, [(name, key) for key, name in plan.tagged])
        keys = json.dumps(sorted({key for key, _ in plan.tagged}))
        tag_ids = dict(db.execute("SELECT name_key, id FROM tags WHERE name_key IN "
                                  "(SELECT value FROM json_each(?))", [keys]).fetchall())
        # one set of pairs for every tag: the papers' rows imaged once, not once a tag
        tags_table.add_paper_tags(db, [(pid(u), tag_ids[key])
                                       for (key, _), uids in plan.tagged.items() for u in uids])
        for uids in plan.tagged.values():
            out.changed.update(pid(u) for u in uids)
    for key, uids in plan.untagged.items():
        tags_table.untag(db, [pid(u) for u in uids], [key])
        out.changed.update(pid(u) for u in uids)
    if plan.untagged:
        tags_table.drop_unused(db, sorted(plan.untagged))


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
