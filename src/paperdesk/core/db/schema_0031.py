"""Migration 0031's SQL, as it ran: highlights searched like notes. Never edit.

A paper's row in ``annotations_fts`` (0014: its notes and tags) holds in its ``notes``
column the text and the comment of each highlight made on its PDFs too, after its
notes, so that a plain word finds a paper through a passage it highlighted or what was
written beside it, and ``note:word`` through either. A paper has a row while it has
notes, tags or highlights.

The triggers of 0014 on notes and tags are made again writing the new row, and new
ones keep it on every change of a highlight (added, its comment or attachment changed,
removed, an undo's upsert) and of an attachment (added, moved to another paper by a
merge, removed with its highlights: ON DELETE CASCADE). A paper removed takes its row
with it (0014's ``papers_fts_delete``). The rows of every paper with highlights are
written at the upgrade.
"""

from __future__ import annotations

# The annotation rows of the papers whose ids {ids} lists (an SQL list or subquery).
ANNOTATION_ROWS = """
DELETE FROM annotations_fts WHERE rowid IN ({ids});
INSERT INTO annotations_fts(rowid, title, abstract, notes, tags)
SELECT p.id, '', '',
       coalesce((SELECT group_concat(w.words, ' ') FROM (
                     SELECT n.text AS words FROM notes n WHERE n.paper_id = p.id
                     UNION ALL
                     SELECT h.text || ' ' || h.comment FROM attachments a
                     JOIN highlights h ON h.attachment_id = a.id WHERE a.paper_id = p.id) w),
                ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p
WHERE p.id IN ({ids})
  AND (EXISTS (SELECT 1 FROM notes n WHERE n.paper_id = p.id)
       OR EXISTS (SELECT 1 FROM paper_tags pt WHERE pt.paper_id = p.id)
       OR EXISTS (SELECT 1 FROM attachments a JOIN highlights h ON h.attachment_id = a.id
                  WHERE a.paper_id = p.id))
"""


def _of(paper: str) -> str:
    return ANNOTATION_ROWS.format(ids=paper)


_OF_ATTACHMENT = "SELECT paper_id FROM attachments WHERE id = {}"

TRIGGERS = [
    f"""CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
        {_of("new.paper_id")}; END""",
    f"""CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
        {_of("old.paper_id")}; {_of("new.paper_id")}; END""",
    f"""CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
        {_of("old.paper_id")}; END""",
    f"""CREATE TRIGGER paper_tags_fts_insert AFTER INSERT ON paper_tags BEGIN
        {_of("new.paper_id")}; END""",
    f"""CREATE TRIGGER paper_tags_fts_delete AFTER DELETE ON paper_tags BEGIN
        {_of("old.paper_id")}; END""",
    f"""CREATE TRIGGER tags_fts_rename AFTER UPDATE OF name ON tags BEGIN
        {_of("SELECT paper_id FROM paper_tags WHERE tag_id = new.id")}; END""",
    f"""CREATE TRIGGER highlights_fts_insert AFTER INSERT ON highlights BEGIN
        {_of(_OF_ATTACHMENT.format("new.attachment_id"))}; END""",
    f"""CREATE TRIGGER highlights_fts_update AFTER UPDATE OF text, comment, attachment_id
        ON highlights BEGIN
        {_of(_OF_ATTACHMENT.format("old.attachment_id"))};
        {_of(_OF_ATTACHMENT.format("new.attachment_id"))}; END""",
    f"""CREATE TRIGGER highlights_fts_delete AFTER DELETE ON highlights BEGIN
        {_of(_OF_ATTACHMENT.format("old.attachment_id"))}; END""",
    f"""CREATE TRIGGER attachments_fts_insert AFTER INSERT ON attachments BEGIN
        {_of("new.paper_id")}; END""",
    f"""CREATE TRIGGER attachments_fts_update AFTER UPDATE OF paper_id ON attachments BEGIN
        {_of("old.paper_id")}; {_of("new.paper_id")}; END""",
    f"""CREATE TRIGGER attachments_fts_delete AFTER DELETE ON attachments BEGIN
        {_of("old.paper_id")}; END""",
]
TRIGGER_NAMES = [t.split()[2] for t in TRIGGERS]

STATEMENTS = [
    *(f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGER_NAMES),
    *ANNOTATION_ROWS.format(
        ids="SELECT a.paper_id FROM attachments a JOIN highlights h "
            "ON h.attachment_id = a.id").split(";"),
    *TRIGGERS,
]
