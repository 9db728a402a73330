# ruff: noqa: E501, W291, W293  (the SQL is kept exactly as it ran, whitespace and all)
"""Migration 0002 as it ran: triggers that survive an undo, and two indexes.

The first triggers used INSERT OR REPLACE on the index, which fails when an
undo (an upsert) fires them: these delete the row, then insert it. They are
still the current triggers (``schema.TRIGGERS``). Never edit.
"""

TRIGGERS = [
    """CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = new.id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.id
; END""",
    """CREATE TRIGGER papers_fts_update AFTER UPDATE OF title, abstract ON papers BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = new.id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.id
; END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        DELETE FROM papers_fts WHERE rowid = old.id; END""",
    """CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = new.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = old.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; 
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = new.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = old.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; END""",
    """CREATE TRIGGER paper_tags_fts_insert AFTER INSERT ON paper_tags BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = new.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER paper_tags_fts_delete AFTER DELETE ON paper_tags BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM papers p WHERE p.id = old.paper_id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; END""",
    """CREATE TRIGGER tags_fts_rename AFTER UPDATE OF name ON tags BEGIN
        
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM paper_tags pt JOIN papers p ON p.id = pt.paper_id WHERE pt.tag_id = new.id);
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM paper_tags pt JOIN papers p ON p.id = pt.paper_id WHERE pt.tag_id = new.id
; END""",
    """CREATE TRIGGER sightings_stats_insert AFTER INSERT ON sightings BEGIN
        
UPDATE papers SET
  upvotes = (SELECT max(upvotes) FROM sightings WHERE paper_id = new.paper_id),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = new.paper_id)
WHERE id = new.paper_id
; END""",
    """CREATE TRIGGER sightings_stats_update AFTER UPDATE OF paper_id, upvotes ON sightings BEGIN
        
UPDATE papers SET
  upvotes = (SELECT max(upvotes) FROM sightings WHERE paper_id = old.paper_id),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = old.paper_id)
WHERE id = old.paper_id
; 
UPDATE papers SET
  upvotes = (SELECT max(upvotes) FROM sightings WHERE paper_id = new.paper_id),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = new.paper_id)
WHERE id = new.paper_id
; END""",
    """CREATE TRIGGER sightings_stats_delete AFTER DELETE ON sightings BEGIN
        
UPDATE papers SET
  upvotes = (SELECT max(upvotes) FROM sightings WHERE paper_id = old.paper_id),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = old.paper_id)
WHERE id = old.paper_id
; END""",
]

INDEXES = [
    "CREATE INDEX papers_list_position ON papers(list_position) "
    "WHERE list_position IS NOT NULL",
    "CREATE INDEX papers_deleted ON papers(deleted_at) WHERE deleted_at IS NOT NULL",
]
