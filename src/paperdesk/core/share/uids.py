"""The stable ids a shared document names papers and notes by.

A paper's is ``papers.uid`` (migration 0027, ``model/uids.py``): the same on every
computer for the same arXiv id, DOI or digest entry, so the same digest imported on
two computers is one paper of the document. A note's id is random, kept in
``share_notes`` once given.
"""

from __future__ import annotations

import uuid

from paperdesk.core.db import papers_table
from paperdesk.core.db.database import Database


def paper_uids(db: Database) -> dict[int, str]:
    """Every paper's id -> its stable id (given now to a paper another program wrote
    without one)."""
    found = dict(db.execute("SELECT id, uid FROM papers").fetchall())
    missing = [pid for pid, uid in found.items() if uid is None]
    if missing:
        found.update(papers_table.ensure_uids(db, missing))
    return found


def new_note_uid() -> str:
    return str(uuid.uuid4())
