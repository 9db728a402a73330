"""The library as the shared document sees it: each paper by its stable id, with its
registers, tags and notes, and the reading queue in order (``read``)."""

from __future__ import annotations

from collections.abc import Collection, Set
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.db import share_table
from paperdesk.core.db.database import Database
from paperdesk.core.share import fields as f
from paperdesk.core.share.uids import new_note_uid, paper_uids

Paper = dict[str, Any]  # registers by name, plus f.TAGS {key: name} and f.NOTES {uid: text}


@dataclass
class State:
    papers: dict[str, Paper] = field(default_factory=dict)
    queue: list[str] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)  # stable id -> local id
    note_ids: dict[str, int] = field(default_factory=dict)  # note's stable id -> local id
    # stable id -> the frozen key it shares with the paper that held it first
    # (``document.state``): one entry a paper past the first, for the user to be told
    conflicts: dict[str, str] = field(default_factory=dict)
    # every paper holding a key another paper holds too, the first included: the
    # library marks them (``papers.key_shared``), its keys unique among the rest
    shared: set[str] = field(default_factory=set)


def read(db: Database, device: str, only: Collection[int] | None = None) -> State:
    """The library now (``only``: those papers, and the reading queue whole); notes
    without a stable id get one (written in the open transaction: the caller's
    exchange)."""
    import json

    queue = [r[0] for r in db.execute(
        "SELECT id FROM papers WHERE status = 'to-read' AND deleted_at IS NULL "
        "ORDER BY list_position IS NULL, list_position, id")]
    uids = paper_uids(db, None if only is None else {*only, *queue})
    state = State()
    # a column's default filled in by SQLite (``fields.values``' rule), not row by row
    columns = ", ".join(f"coalesce([{c}], ?)" if c in f.DEFAULTS else f"[{c}]"
                        for c in f.COLUMNS)
    defaults = [f.DEFAULTS[c] for c in f.COLUMNS if c in f.DEFAULTS]
    args = [] if only is None else [json.dumps(sorted(only))]
    within = "" if only is None else " IN (SELECT value FROM json_each(?))"
    frozen = {r[0] for r in db.execute("SELECT paper_id FROM frozen_keys")}
    for row in db.execute(f"SELECT id, {columns} FROM papers"
                          + (f" WHERE id{within}" if within else ""), [*defaults, *args]):
        pid = row[0]
        uid = uids[pid]
        paper = dict(zip(f.COLUMNS, row[1:], strict=True))
        paper[f.FROZEN] = int(pid in frozen)
        paper[f.TAGS], paper[f.NOTES] = {}, {}
        state.papers[uid] = paper
        state.ids[uid] = pid
    by_pid = {pid: uid for uid, pid in state.ids.items()}
    for pid, key, name in db.execute("SELECT pt.paper_id, t.name_key, t.name FROM paper_tags "
                                     "pt JOIN tags t ON t.id = pt.tag_id"
                                     + (f" WHERE pt.paper_id{within}" if within else ""), args):
        state.papers[by_pid[pid]][f.TAGS][key] = name
    known = share_table.note_uids(db)
    fresh = []
    for nid, pid, text in db.execute("SELECT id, paper_id, text FROM notes"
                                     + (f" WHERE paper_id{within}" if within else ""), args):
        nuid = known.get(nid)
        if nuid is None:
            nuid = new_note_uid(device, nid)
            fresh.append((nid, nuid))
        state.papers[by_pid[pid]][f.NOTES][nuid] = text
        state.note_ids[nuid] = nid
    if fresh:
        share_table.set_note_uids(db, fresh)
    state.queue = [uids[pid] for pid in queue]
    for pid in queue:  # the queue is written whole: its papers' ids, read or not
        state.ids.setdefault(uids[pid], pid)
    return state


def queued(papers: dict[str, Paper], order: list[str], also: Set[str] = frozenset()) -> list[str]:
    """The reading queue ``papers`` make with a shared ``order``: the to-read papers
    out of the trash in that order, then those it lacks by stable id (``also``: more
    papers known to be in it, not among ``papers``)."""
    wanted = {u for u, p in papers.items()
              if p.get("status") == "to-read" and p.get("deleted_at") is None} | also
    seen: set[str] = set()
    out = []
    for uid in order:
        if uid in wanted and uid not in seen:
            seen.add(uid)
            out.append(uid)
    out.extend(sorted(wanted - seen))
    return out


def merged_away(db: Database, gone: set[str], state: State) -> dict[str, str]:
    """Of the papers ``gone`` from the library since the last exchange, those a merge
    of duplicates took: their stable id -> the kept paper's (read from the merges'
    undo records, which hold the merged papers' rows)."""
    import json

    if not gone:
        return {}
    by_pid = {pid: uid for uid, pid in state.ids.items()}
    out: dict[str, str] = {}
    for kept_id, undo in db.execute("SELECT kept_id, undo FROM merges WHERE undone_at IS NULL "
                                    "ORDER BY id DESC"):
        rows = _papers_in(json.loads(undo))
        # the kept paper may have been merged away since, by a later merge (its mark
        # then names where it went: the marks fold the chain)
        kept = by_pid.get(kept_id) or rows.get(kept_id)
        if kept is None:
            continue
        for uid in set(rows.values()) & (gone - out.keys()) - {kept}:
            out[uid] = kept
        if out.keys() >= gone:
            break
    return out


def _papers_in(value: Any) -> dict[int, str]:
    """The papers' rows a merge's undo record holds: local id -> stable id."""
    found: dict[int, str] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            uid = item.get("uid")
            if isinstance(uid, str) and "title_key" in item:  # a paper's row
                found[int(item["id"])] = uid
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
