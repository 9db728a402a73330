"""The record kind of digests and their sightings (``records``), one kind since a
sighting names its digest: ``d:SHA256`` a digest (its file's path stays on the
computer that imported it), ``s:SHA256:POSITION:LINE`` the sighting of that entry,
naming its paper by stable id. A merge moves the sighting to the kept paper in the
library, not in the document: the record keeps naming the entry's own paper, which
the merge marks fold into the kept one (``_fold``), as they fold its notes. So a merge
on one computer and an unmerge of the same paper on another, or a merge of the kept
paper into a third, end with every sighting where the marks say, on every computer
(a record naming the kept paper would be a register the last writer wins). A
sighting is held while its paper and its digest are in the library; the papers'
upvotes, counts and momentum follow the sightings here as on an import (the table's
triggers).
"""

from __future__ import annotations

from typing import Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db import digests_table, papers_table, store
from paperdesk.core.db.database import Database
from paperdesk.core.share.fields import kept_paper
from paperdesk.core.share.record_kind import Diff, Folded, Ids, Kind, Records

DIGEST = ("name", "digest_date", "year", "year_source", "daily_papers", "encoding",
          "entries", "new_papers", "merged", "warnings", "imported_at")
SIGHTING = ("position", "line", "raw_title", "meta_raw", "author_count", "organization",
            "organization_handle", "published", "published_raw", "year_inferred", "upvotes")


def _sighting_key(sha: str, record: dict[str, Any]) -> str:
    return f"s:{sha}:{record['position']}:{record['line']}"


def _read(db: Database, ids: Ids) -> Records:
    out: Records = {}
    shas: dict[int, str] = {}
    for row in db.execute(f"SELECT id, sha256, {', '.join(DIGEST)} FROM digests"):
        shas[row[0]] = row[1]
        out[f"d:{row[1]}"] = dict(zip(DIGEST, row[2:], strict=True))
    for row in db.execute(f"SELECT digest_id, paper_id, {', '.join(SIGHTING)} FROM sightings"):
        if row[1] not in ids.uid:
            continue
        record = {**dict(zip(SIGHTING, row[2:], strict=True)), "paper": ids.uid[row[1]]}
        out[_sighting_key(shas[row[0]], record)] = record
    return out


def _held(records: Records, ids: Ids) -> Records:
    return {k: v for k, v in records.items()
            if k.startswith("d:") or (v.get("paper") in ids.pid
                                      and f"d:{k.split(':')[1]}" in records)}


def _write(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    digest_ids = {sha: i for i, sha in db.execute("SELECT id, sha256 FROM digests")}
    sighting_ids = _sighting_ids(db, digest_ids)
    touched: set[int] = set()
    gone = [digest_ids[k[2:]] for k in diff.removed if k.startswith("d:")]
    stale = [sighting_ids[k] for k in diff.removed if k.startswith("s:")
             and k.split(":")[1] in digest_ids and digest_ids[k.split(":")[1]] not in gone]
    touched |= digests_table.delete_sightings(db, stale)
    if gone:
        touched |= {r[0] for r in db.execute(
            f"SELECT DISTINCT paper_id FROM sightings WHERE digest_id IN "
            f"({','.join('?' * len(gone))})", gone)}
        digests_table.delete_digests(db, gone)
    for key, record in diff.added.items():
        if key.startswith("d:"):
            digest_ids[key[2:]] = digests_table.insert_digest(db, [
                record["name"], None, key[2:], *(record[c] for c in DIGEST[1:7]),
                record["warnings"], record["imported_at"]])
            digests_table.set_counts(db, digest_ids[key[2:]], record["new_papers"],
                                     record["merged"])
    for key, (_, record) in diff.changed.items():
        if key.startswith("d:"):
            digests_table.set_columns(db, digest_ids[key[2:]], record)
    added = [(digest_ids[k.split(":")[1]], ids.pid[v["paper"]], *(v[c] for c in SIGHTING))
             for k, v in diff.added.items() if k.startswith("s:")]
    if added:
        with store.sightings_in_bulk(db, len(added)):
            digests_table.insert_sightings(db, added)
        touched |= {row[1] for row in added}
    moved = [(sighting_ids[k], ids.pid[v["paper"]], *(v[c] for c in SIGHTING))
             for k, (_, v) in diff.changed.items() if k.startswith("s:")]
    touched |= digests_table.set_sightings(db, moved)
    return touched


def _sighting_ids(db: Database, digest_ids: dict[str, int]) -> dict[str, int]:
    shas = {i: sha for sha, i in digest_ids.items()}
    return {_sighting_key(shas[d], {"position": p, "line": ln}): i
            for i, d, p, ln in db.execute("SELECT id, digest_id, position, line FROM sightings")}


def recount(db: Database, papers: set[int]) -> None:
    """The upvotes and sightings counts of ``papers`` as their sightings here make them
    (another computer's came over them as registers, counted from its sightings then)."""
    if papers:
        papers_table.recount_seen(db, sorted(papers))


def _fold(records: Records, marks: dict[str, str]) -> Folded:
    """The sightings of papers merged away as the kept papers'."""
    out = dict(records)
    for key, record in records.items():
        paper = record.get("paper")
        if key.startswith("s:") and paper in marks:
            out[key] = {**record, "paper": kept_paper(paper, marks)}
    return Folded(out)


def _unfold(record: dict[str, Any], there: dict[str, Any]) -> dict[str, Any]:
    return {**record, "paper": there.get("paper")}  # the entry's own paper still


KINDS = (Kind("digests", (ch.DIGESTS,), _read, _held, _write, fold=_fold, unfold=_unfold),)
