"""The record kind of attachments and their highlights (``records``), one kind since a
highlight names its attachment: ``a:PAPER:SHA256`` an attachment of a paper (by the
paper's stable id and the file's SHA-256: a paper holds a file once), its kind, path
(a stored copy's path inside the files folder; a linked file's path is each
computer's own, found there with ``pdf locate``), name, size, pages, source and
reading position; ``h:ID`` a highlight, whose
id is made from its file, page, quads and creation time, so the same highlight has
the same id wherever it is read. The files themselves travel only with ``share
--with-files`` (``pdf_files``).

A merge moves a paper's attachments to the kept paper in the library, not in the
document: there they keep their paper's key, and the merge marks fold them into the
kept paper (``_fold``; a file the kept paper holds too is its record there), so a
highlight made on another computer before it heard of the merge follows its file, and
an unmerge anywhere takes them back.
"""

from __future__ import annotations

import uuid
from typing import Any

from paperdesk.core.db import attachments_table, highlights_table
from paperdesk.core.db import changes as ch
from paperdesk.core.db.database import Database
from paperdesk.core.share.fields import kept_paper
from paperdesk.core.share.record_kind import Diff, Folded, Ids, Kind, Records

ATTACHMENT = ("kind", "path", "name", "size", "pages", "arxiv_version", "source",
              "source_url", "added_at", "last_page")
HIGHLIGHT = ("page", "quads", "text", "comment", "colour", "created_at", "modified_at")
_HIGHLIGHTS = uuid.UUID("5d0f3a8e-2b1c-4c7e-9a65-0e8d4b2f6a13")


def highlight_uid(sha256: str, page: int, quads: str, created_at: str) -> str:
    return str(uuid.uuid5(_HIGHLIGHTS, f"{sha256}:{page}:{quads}:{created_at}"))


def _read(db: Database, ids: Ids) -> Records:
    out: Records = {}
    keys: dict[int, tuple[str, str]] = {}  # attachment id -> (its key, its file's sha)
    for row in db.execute(f"SELECT id, paper_id, sha256, {', '.join(ATTACHMENT)} "
                          "FROM attachments"):
        if row[1] not in ids.uid:
            continue
        key = f"a:{ids.uid[row[1]]}:{row[2]}"
        keys[row[0]] = (key, row[2])
        out[key] = dict(zip(ATTACHMENT, row[3:], strict=True))
        if out[key]["kind"] == "linked":
            del out[key]["path"]  # the user's own path on this computer
    for row in db.execute(f"SELECT attachment_id, {', '.join(HIGHLIGHT)} FROM highlights"):
        if row[0] not in keys:
            continue
        key, sha = keys[row[0]]
        record: dict[str, Any] = {**dict(zip(HIGHLIGHT, row[1:], strict=True)),
                                  "attachment": key}
        out["h:" + highlight_uid(sha, record["page"], record["quads"],
                                 record["created_at"])] = record
    return out


def _held(records: Records, ids: Ids) -> Records:
    return {k: v for k, v in records.items()
            if (k.startswith("a:") and k.split(":")[1] in ids.pid)
            or (k.startswith("h:") and v.get("attachment") in records
                and v["attachment"].split(":")[1] in ids.pid)}


def _local(db: Database, ids: Ids) -> dict[str, int]:
    """Each attachment's key -> its local id."""
    return {f"a:{ids.uid[pid]}:{sha}": aid for aid, pid, sha in db.execute(
        "SELECT id, paper_id, sha256 FROM attachments") if pid in ids.uid}


def _write(db: Database, diff: Diff, ids: Ids, stamp: str) -> set[int]:
    """The attachments added and changed first, then the highlights (a highlight
    whose file moved to another paper points at its new attachment), and only then
    the attachments removed: removing one takes its highlights with it, and those
    that moved are no longer its."""
    touched: set[int] = set()
    local = _local(db, ids)
    highlight_ids = _highlight_ids(db, local)
    for key in diff.removed:
        if key.startswith("h:") and key in highlight_ids:
            highlights_table.delete(db, highlight_ids[key])
    for key, record in diff.added.items():
        if key.startswith("a:"):
            _, paper, sha = key.split(":")
            local[key] = attachments_table.insert(db, {
                "path": "", **record, "paper_id": ids.pid[paper], "sha256": sha})
            touched.add(ids.pid[paper])
    for key, (_, record) in diff.changed.items():
        if key.startswith("a:"):
            attachments_table.set_columns(db, local[key], record)
            touched.add(ids.pid[key.split(":")[1]])
    highlights_table.insert_shared(db, [
        (local[v["attachment"]], *(v[c] for c in HIGHLIGHT))
        for k, v in diff.added.items() if k.startswith("h:")])
    highlights_table.set_shared(db, [
        (highlight_ids[k], local[v["attachment"]], *(v[c] for c in HIGHLIGHT))
        for k, (_, v) in diff.changed.items() if k.startswith("h:")])
    touched |= {ids.pid[v["attachment"].split(":")[1]] for k, v in
                (*diff.added.items(), *((k, w) for k, (_, w) in diff.changed.items()))
                if k.startswith("h:")}
    for key in diff.removed:
        if key.startswith("a:"):
            attachments_table.delete(db, local.pop(key))
            touched.add(ids.pid[key.split(":")[1]])
    return touched


def _highlight_ids(db: Database, local: dict[str, int]) -> dict[str, int]:
    shas = {aid: key.split(":")[2] for key, aid in local.items()}
    return {"h:" + highlight_uid(shas[a], page, quads, created): hid
            for hid, a, page, quads, created in db.execute(
                "SELECT id, attachment_id, page, quads, created_at FROM highlights")
            if a in shas}


def _fold(records: Records, marks: dict[str, str]) -> Folded:
    """The attachments of papers merged away as the kept papers', and the highlights
    that name them; where the kept paper holds the file under several keys, its own
    key's record is the one (else the lowest key's)."""
    def folded(key: str) -> str:
        _, paper, sha = key.split(":")
        return f"a:{kept_paper(paper, marks)}:{sha}" if paper in marks else key

    origin: dict[str, list[str]] = {}
    for key in sorted(k for k in records if k.startswith("a:")):
        origin.setdefault(folded(key), []).append(key)
    out: Records = {}
    for kept, keys in origin.items():
        keys.sort(key=lambda k: k != kept)
        out[kept] = records[keys[0]]
    for key, record in records.items():
        if key.startswith("a:"):
            continue
        attachment = record.get("attachment")
        out[key] = {**record, "attachment": folded(attachment)} if (
            key.startswith("h:") and isinstance(attachment, str)
            and attachment.count(":") == 2) else record
    return Folded(out, {k: v for k, v in origin.items() if v != [k]})


def _unfold(record: dict[str, Any], there: dict[str, Any]) -> dict[str, Any]:
    """A highlight keeps naming its file under the paper it was made on."""
    return {**record, "attachment": there["attachment"]} if "attachment" in there else record


KINDS = (Kind("pdfs", (ch.ATTACHMENTS, ch.HIGHLIGHTS), _read, _held, _write, fold=_fold,
              unfold=_unfold),)
