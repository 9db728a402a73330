"""The rows of ``annotations_fts`` (a paper's notes and tags) rebuilt in sets.

The schema's triggers rewrite a paper's row for every tag or note row written:
right for one edit, but thousands of statements for a tag put on 10,000 papers.
``in_bulk`` turns those triggers off for the block and then rewrites the rows
of the papers it names in two set-based statements.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator

from paperdesk.core.db import schema_0014
from paperdesk.core.db.database import Database
from paperdesk.core.db.idlists import load_ids

# From this many papers, rewrite their rows in a set rather than row by row.
BULK_PAPERS = 200

# The triggers on tag and note rows (a tag's rename keeps its own).
_TRIGGERS = [t for t in schema_0014.TRIGGERS
             if t.split()[2].startswith(("paper_tags_", "notes_"))]


@contextlib.contextmanager
def in_bulk(db: Database, paper_ids: Collection[int]) -> Iterator[None]:
    """Inside a write: the block changes the tags and notes of ``paper_ids`` only (a set
    the block may still add to: the rows rewritten are those of its ids at the end).

    With many papers the per-row triggers are off for the block and the papers'
    rows are rewritten after it; an error rolls the triggers back with the rest.
    """
    if len(paper_ids) < BULK_PAPERS:
        yield
        return
    assert db.conn.in_transaction, "in_bulk runs inside a write"
    for trigger in _TRIGGERS:
        db.execute(f"DROP TRIGGER {trigger.split()[2]}")
    yield
    rewrite(db, paper_ids)
    for trigger in _TRIGGERS:
        db.execute(trigger)


def rewrite(db: Database, paper_ids: Collection[int]) -> None:
    """Rewrite the annotation rows of ``paper_ids`` from their notes and tags."""
    table = load_ids(db, sorted(paper_ids), "annotated_ids")
    for statement in schema_0014.ANNOTATION_ROWS.format(ids=f"SELECT id FROM {table}").split(";"):
        if statement.strip():
            db.execute(statement)
