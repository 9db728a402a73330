"""The stable ids a shared document names papers and notes by.

A paper's is ``papers.uid`` (migration 0027, ``model/uids.py``): the same on every
computer for the same arXiv id, DOI or digest entry, so the same digest imported on
two computers is one paper of the document. A note's id is made from this
computer's device id and the note's local id (a note id is never given twice), so an
exchange killed before its commit gives the note the same id when it runs again; it
is kept in ``share_notes`` once given.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Collection

from paperdesk.core.db import papers_table
from paperdesk.core.db.database import Database


def paper_uids(db: Database, only: Collection[int] | None = None) -> dict[int, str]:
    """Every paper's id (``only``: those papers') -> its stable id (given now to a
    paper another program wrote without one)."""
    if only is None:
        found = dict(db.execute("SELECT id, uid FROM papers").fetchall())
    else:
        found = dict(db.execute("SELECT id, uid FROM papers WHERE id IN (SELECT value FROM "
                                "json_each(?))", [json.dumps(sorted(only))]).fetchall())
    missing = [pid for pid, uid in found.items() if uid is None]
    if missing:
        found.update(papers_table.ensure_uids(db, missing))
    return found


_NOTES = uuid.UUID("0b7c5f3e-9d2a-4e0f-8c61-5a3b2e1d4f07")


def new_note_uid(device: str, note_id: int) -> str:
    return str(uuid.uuid5(_NOTES, f"{device}:{note_id}"))
