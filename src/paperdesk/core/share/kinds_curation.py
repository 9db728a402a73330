"""Record kinds of the curation (``records``): saved searches, pairs marked as
different works, and notes' times.

- ``searches``: by name, the query (when each computer saved it stays its own: two
  computers saving one name keep the later query).
- ``different``: a pair of papers said not to be duplicates, by the two papers'
  stable ids; held while both papers are in the library.
- ``note_times``: a note's ``created`` and ``updated`` by the note's stable id, so a
  note shows the times it was written on every computer (its text travels with the
  paper, ``document``).
- ``published``: the published version a paper's preprint was accepted as (venue,
  year, pages...), by the paper's stable id.
"""

from __future__ import annotations

from paperdesk.core.db import changes as ch
from paperdesk.core.db import merges_table, notes_table, published_table, searches_table
from paperdesk.core.db.database import Database
from paperdesk.core.share.record_kind import Diff, Ids, Kind, Records


def _read_searches(db: Database, ids: Ids) -> Records:
    return {r["name"]: {"query": r["query"]} for r in searches_table.listed(db)}


def _all(records: Records, ids: Ids) -> Records:
    return records


def _write_searches(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    for name, record in {**diff.added, **{k: w for k, (_, w) in diff.changed.items()}}.items():
        searches_table.save(db, name, record["query"], stamp)
    for name in diff.removed:
        searches_table.delete(db, name)
    return set()


def _pair(a: str, b: str) -> str:
    return " ".join(sorted((a, b)))


def _read_different(db: Database, ids: Ids) -> Records:
    out: Records = {}
    for a, b in db.execute("SELECT paper_a, paper_b FROM not_duplicates"):
        if a in ids.uid and b in ids.uid:  # a pair outlives its papers in the table
            out[_pair(ids.uid[a], ids.uid[b])] = {}
    return out


def _held_different(records: Records, ids: Ids) -> Records:
    return {k: v for k, v in records.items() if all(u in ids.pid for u in k.split(" "))}


def _local_pairs(keys: object, ids: Ids) -> list[tuple[int, int]]:
    pairs = []
    for key in keys:  # type: ignore[attr-defined]
        a, b = (ids.pid[u] for u in str(key).split(" "))
        pairs.append((min(a, b), max(a, b)))
    return pairs


def _write_different(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    if diff.added:
        merges_table.mark_different(db, _local_pairs(diff.added, ids), stamp)
    if diff.removed:
        merges_table.unmark_different(db, _local_pairs(diff.removed, ids))
    return set()


def _read_note_times(db: Database, ids: Ids) -> Records:
    return {ids.note_uid[nid]: {"created": created, "updated": updated}
            for nid, created, updated in db.execute("SELECT id, created, updated FROM notes")
            if nid in ids.note_uid}


def _held_note_times(records: Records, ids: Ids) -> Records:
    return {k: v for k, v in records.items() if k in ids.note}


def _write_note_times(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    # a note's times leave with the note: only those of notes here are written
    wanted = {**diff.added, **{k: w for k, (_, w) in diff.changed.items()}}
    rows = [(ids.note[k], v["created"], v["updated"]) for k, v in wanted.items()]
    return notes_table.set_times(db, rows)


def _read_published(db: Database, ids: Ids) -> Records:
    fields = published_table.FIELDS
    return {ids.uid[row[0]]: dict(zip(fields, row[1:], strict=True)) for row in db.execute(
        f"SELECT paper_id, {', '.join(fields)} FROM published_versions") if row[0] in ids.uid}


def _held_published(records: Records, ids: Ids) -> Records:
    return {k: v for k, v in records.items() if k in ids.pid}


def _write_published(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    for uid, record in {**diff.added, **{k: w for k, (_, w) in diff.changed.items()}}.items():
        published_table.accept(db, ids.pid[uid], record)
    for uid in diff.removed:
        published_table.forget(db, ids.pid[uid])
    return {ids.pid[u] for u in (*diff.added, *diff.changed, *diff.removed)}


KINDS = (
    Kind("searches", (ch.SEARCHES,), _read_searches, _all, _write_searches),
    Kind("different", (ch.DUPLICATES,), _read_different, _held_different, _write_different),
    Kind("note_times", (ch.NOTES,), _read_note_times, _held_note_times, _write_note_times,
         with_papers=True),
    Kind("published", (ch.PAPERS,), _read_published, _held_published, _write_published),
)
