"""Migration 0014's SQL, as it ran: tags and notes in a full-text table of their own.

``papers_fts`` keeps a paper's title and abstract (its ``notes`` and ``tags``
columns stay empty); ``annotations_fts`` holds, for each paper that has notes
or tags, their words, in a row of the same columns (title and abstract empty),
so that one FTS5 expression reads in both tables. Tagging a paper rewrites its
small row only, never the row with the abstract. Never edit.
"""

from __future__ import annotations

TABLE = """CREATE VIRTUAL TABLE annotations_fts USING fts5(
        title, abstract, notes, tags, tokenize = 'unicode61 remove_diacritics 2'
    )"""

# The paper's text row: title and abstract. Delete, then insert (an undo's upsert
# would override a trigger's own OR REPLACE).
_TEXT_ROW = """
DELETE FROM papers_fts WHERE rowid = {id};
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
VALUES ({id}, {title}, {abstract}, '', '')
"""

# The annotation rows of the papers whose ids {ids} lists (an SQL list or subquery):
# a paper has a row only while it has notes or tags.
ANNOTATION_ROWS = """
DELETE FROM annotations_fts WHERE rowid IN ({ids});
INSERT INTO annotations_fts(rowid, title, abstract, notes, tags)
SELECT p.id, '', '',
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p
WHERE p.id IN ({ids})
  AND (EXISTS (SELECT 1 FROM notes n WHERE n.paper_id = p.id)
       OR EXISTS (SELECT 1 FROM paper_tags pt WHERE pt.paper_id = p.id))
"""


def _of(paper: str) -> str:
    return ANNOTATION_ROWS.format(ids=paper)


TRIGGERS = [
    f"""CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        {_TEXT_ROW.format(id="new.id", title="new.title", abstract="new.abstract")}; END""",
    f"""CREATE TRIGGER papers_fts_update AFTER UPDATE OF title, abstract ON papers BEGIN
        {_TEXT_ROW.format(id="new.id", title="new.title", abstract="new.abstract")}; END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        DELETE FROM papers_fts WHERE rowid = old.id;
        DELETE FROM annotations_fts WHERE rowid = old.id; END""",
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
]
TRIGGER_NAMES = [t.split()[2] for t in TRIGGERS]

STATEMENTS = [
    *(f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGER_NAMES),
    TABLE,
    *ANNOTATION_ROWS.format(
        ids="SELECT paper_id FROM notes UNION SELECT paper_id FROM paper_tags").split(";"),
    # The text rows of annotated papers lose their notes and tags.
    "DELETE FROM papers_fts WHERE rowid IN (SELECT rowid FROM annotations_fts)",
    "INSERT INTO papers_fts(rowid, title, abstract, notes, tags) "
    "SELECT p.id, p.title, p.abstract, '', '' FROM papers p "
    "WHERE p.id IN (SELECT rowid FROM annotations_fts)",
    *TRIGGERS,
]
