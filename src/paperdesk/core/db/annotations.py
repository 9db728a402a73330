"""The rows of ``annotations_fts`` (a paper's notes, tags and highlights) rebuilt in sets.

The schema's triggers rewrite a paper's row for every tag or note row written:
right for one edit, but thousands of statements for a tag put on 10,000 papers.
``in_bulk`` turns those triggers off for the block and then rewrites the rows
of the papers it names in two set-based statements.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator

from paperdesk.core.db import schema, schema_0031
from paperdesk.core.db.database import Database, load_ids

# From this many papers, rewrite their rows in a set rather than row by row.
BULK_PAPERS = 200

# The triggers on tag and note rows (a tag's rename keeps its own).
_TRIGGERS = [t for t in schema_0031.TRIGGERS
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
    with schema.triggers_off(db, _TRIGGERS):
        yield
        rewrite(db, paper_ids)


# The rows of the papers in {ids} (a table of ids), driven by the ids alone: a paper
# with notes, tags or highlights exists, so its row in papers (with the abstract) is
# never read.
_REWRITE = """
DELETE FROM annotations_fts WHERE rowid IN (SELECT id FROM {ids});
INSERT INTO annotations_fts(rowid, title, abstract, notes, tags)
SELECT i.id, '', '',
       coalesce((SELECT group_concat(w.words, ' ') FROM (
                     SELECT n.text AS words FROM notes n WHERE n.paper_id = i.id
                     UNION ALL
                     SELECT h.text || ' ' || h.comment FROM attachments a
                     JOIN highlights h ON h.attachment_id = a.id WHERE a.paper_id = i.id) w),
                ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = i.id), '')
FROM {ids} i
WHERE EXISTS (SELECT 1 FROM notes n WHERE n.paper_id = i.id)
   OR EXISTS (SELECT 1 FROM paper_tags pt WHERE pt.paper_id = i.id)
   OR EXISTS (SELECT 1 FROM attachments a JOIN highlights h ON h.attachment_id = a.id
              WHERE a.paper_id = i.id)
"""


def rewrite(db: Database, paper_ids: Collection[int]) -> None:
    """Rewrite the annotation rows of ``paper_ids`` from their notes, tags and highlights
    (what the triggers of ``schema_0031`` write, in two statements)."""
    table = load_ids(db, sorted(paper_ids), "annotated_ids")
    for statement in _REWRITE.format(ids=table).split(";"):
        if statement.strip():
            db.execute(statement)
