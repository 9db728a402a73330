"""Taking apart, on any computer, a merge the shared document holds: the list of
merges to undo (``merges``) is the merging computer's own, but the document keeps a
merged paper whole (its registers, tags and notes, and the sightings and PDFs made for
it, which the merge marks fold into the kept paper). Taking its mark away makes it a
paper of its own again on every computer, as an unmerge where it was merged does.

``ask`` records the papers to take out; the next exchange takes their marks away
after its push (``take``) and so reads the whole document, bringing them back here
through the library's one write path.
"""

from __future__ import annotations

import json
from typing import Any, cast

import loro

from paperdesk.core.db import share_table
from paperdesk.core.db.database import Database
from paperdesk.core.share import fields

ASKED = "unmerge"  # the share table's key: stable ids of papers to take out of merges


def _marks(doc: loro.LoroDoc) -> dict[str, str]:
    return fields.live_marks(cast(dict[str, str], doc.get_map(fields.MERGED).get_value()
                                  or {}))


def merged_into(doc: loro.LoroDoc, uid: str) -> list[str]:
    """The papers the document says were merged into paper ``uid`` (on any computer)."""
    return sorted(m for m, kept in _marks(doc).items() if kept == uid)


def merges(doc: loro.LoroDoc) -> dict[str, list[dict[str, Any]]]:
    """Every merge the document holds: kept paper's stable id -> the papers merged into
    it, each {uid, title} (the title as the document holds the merged paper)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for merged, kept in sorted(_marks(doc).items()):
        registers = doc.get_map(fields.PAPER + merged).get_value()
        title = registers.get("title") if isinstance(registers, dict) else None
        out.setdefault(kept, []).append({"uid": merged, "title": title})
    return out


def ask(db: Database, uids: list[str]) -> None:
    """Take ``uids`` out of their merges at the next exchange (inside a write)."""
    share_table.put(db, ASKED, sorted({*(share_table.get(db, ASKED) or []), *uids}))


def take(db: Database, doc: loro.LoroDoc) -> list[str]:
    """The marks of the papers asked for taken away (inside the exchange): those papers."""
    asked = share_table.get(db, ASKED) or []
    if not asked:
        return []
    marks = doc.get_map(fields.MERGED)
    taken = [uid for uid in asked if marks.get(uid) is not None]
    for uid in taken:
        marks.delete(uid)
    share_table.put(db, ASKED, None)
    if taken:
        doc.commit()
    return taken


def ids_of(db: Database, uids: list[str]) -> tuple[int, ...]:
    """The local ids of the papers ``uids`` that the library holds, in that order."""
    if not uids:
        return ()
    held = dict(db.execute("SELECT uid, id FROM papers WHERE uid IN (SELECT value FROM "
                           "json_each(?))", [json.dumps(uids)]).fetchall())
    return tuple(held[u] for u in uids if u in held)
