"""The stable ids a shared document names papers and notes by.

A paper's id is ``papers.uid`` (migration 0027): the same on every computer for
the same arXiv id, DOI or digest entry. A library from before that column has
the same rule computed here (``derived``), so the two agree where both exist.
A note's id is random, kept in ``share_notes`` once given.
"""

from __future__ import annotations

import uuid
from typing import Any

from paperdesk.core.db.database import Database

# The namespace of derived paper ids (uuid5 over "arxiv:ID", "doi:DOI", "title:KEY").
NAMESPACE = uuid.UUID("6f1d3b0e-4b8a-5c3e-9a57-2f0c1d9e8b41")


def derived(arxiv_id: str | None, doi: str | None, title_key: str | None) -> str:
    if arxiv_id:
        name = f"arxiv:{arxiv_id.lower()}"
    elif doi:
        name = f"doi:{doi.lower()}"
    else:
        name = f"title:{title_key or ''}"
    return str(uuid.uuid5(NAMESPACE, name))


def has_uid_column(db: Database) -> bool:
    return "uid" in {r[1] for r in db.execute("PRAGMA table_info(papers)")}


def paper_uids(db: Database) -> dict[int, str]:
    """Every paper's id -> its stable id."""
    if has_uid_column(db):
        return {pid: uid for pid, uid in db.execute("SELECT id, uid FROM papers")
                if uid is not None}
    return {pid: derived(a, d, t) for pid, a, d, t in
            db.execute("SELECT id, arxiv_id, doi, title_key FROM papers")}


def new_note_uid() -> str:
    return str(uuid.uuid4())


def uid_column(row: dict[str, Any]) -> dict[str, Any]:
    """The uid column's value for a paper arriving from another computer."""
    return {"uid": row["uid"]}
