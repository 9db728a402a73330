# ruff: noqa: E501, W291, W293  (the SQL is kept exactly as it ran, whitespace and all)
"""Migration 0001 as it ran: the first tables, indexes and triggers, written out.

Never edit: libraries made by this step exist. Later steps change the schema.
"""

TABLES = [
    """CREATE TABLE papers (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        abstract TEXT NOT NULL DEFAULT '',
        title_key TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]',
        author_count INTEGER,
        organization TEXT,
        organization_handle TEXT,
        published TEXT,
        year INTEGER,
        year_inferred INTEGER NOT NULL DEFAULT 0,
        arxiv_id TEXT,
        doi TEXT,
        url TEXT,
        citekey TEXT UNIQUE,
        rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
        status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN ('unread', 'to-read', 'reading', 'read')),
        read_at TEXT,
        list_position REAL,
        upvotes INTEGER,
        seen_count INTEGER NOT NULL DEFAULT 0,
        added TEXT NOT NULL,
        modified TEXT NOT NULL,
        deleted_at TEXT
    )""",
    """CREATE INDEX papers_title_key ON papers(title_key)""",
    """CREATE INDEX papers_year ON papers(year)""",
    """CREATE INDEX papers_rating ON papers(rating)""",
    """CREATE INDEX papers_status ON papers(status)""",
    """CREATE INDEX papers_upvotes ON papers(upvotes)""",
    """CREATE INDEX papers_added ON papers(added)""",
    """CREATE INDEX papers_arxiv ON papers(arxiv_id) WHERE arxiv_id IS NOT NULL""",
    """CREATE INDEX papers_doi ON papers(doi) WHERE doi IS NOT NULL""",
    """CREATE TABLE digests (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT,
        sha256 TEXT NOT NULL UNIQUE,
        digest_date TEXT,
        year INTEGER,
        year_source TEXT NOT NULL,
        daily_papers INTEGER NOT NULL DEFAULT 0,
        encoding TEXT NOT NULL DEFAULT 'utf-8',
        entries INTEGER NOT NULL DEFAULT 0,
        new_papers INTEGER NOT NULL DEFAULT 0,
        merged INTEGER NOT NULL DEFAULT 0,
        warnings TEXT NOT NULL DEFAULT '[]',
        imported_at TEXT NOT NULL
    )""",
    """CREATE TABLE sightings (
        id INTEGER PRIMARY KEY,
        digest_id INTEGER NOT NULL REFERENCES digests(id) ON DELETE CASCADE,
        paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        line INTEGER,
        raw_title TEXT NOT NULL,
        meta_raw TEXT,
        author_count INTEGER,
        organization TEXT,
        organization_handle TEXT,
        published TEXT,
        published_raw TEXT,
        year_inferred INTEGER NOT NULL DEFAULT 0,
        upvotes INTEGER
    )""",
    """CREATE INDEX sightings_paper ON sightings(paper_id)""",
    """CREATE INDEX sightings_digest ON sightings(digest_id)""",
    """CREATE TABLE tags (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE
    )""",
    """CREATE TABLE paper_tags (
        paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY (paper_id, tag_id)
    ) WITHOUT ROWID""",
    """CREATE INDEX paper_tags_tag ON paper_tags(tag_id, paper_id)""",
    """CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )""",
    """CREATE INDEX notes_paper ON notes(paper_id)""",
    """CREATE TABLE not_duplicates (
        paper_a INTEGER NOT NULL,
        paper_b INTEGER NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (paper_a, paper_b),
        CHECK (paper_a < paper_b)
    ) WITHOUT ROWID""",
    """CREATE TABLE merges (
        id INTEGER PRIMARY KEY,
        kept_id INTEGER NOT NULL,
        merged_ids TEXT NOT NULL,
        created TEXT NOT NULL,
        undo TEXT NOT NULL,
        undone_at TEXT
    )""",
    """CREATE TABLE saved_searches (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        query TEXT NOT NULL,
        created TEXT NOT NULL
    )""",
    """CREATE VIRTUAL TABLE papers_fts USING fts5(
        title, abstract, notes, tags, tokenize = 'unicode61 remove_diacritics 2'
    )""",
]

# The first triggers wrote the index with INSERT OR REPLACE; 0002 replaced them.
TRIGGERS = [
    """CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.id
; END""",
    """CREATE TRIGGER papers_fts_update AFTER UPDATE OF title, abstract ON papers BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.id
; END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        DELETE FROM papers_fts WHERE rowid = old.id; END""",
    """CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; 
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; END""",
    """CREATE TRIGGER paper_tags_fts_insert AFTER INSERT ON paper_tags BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = new.paper_id
; END""",
    """CREATE TRIGGER paper_tags_fts_delete AFTER DELETE ON paper_tags BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM papers p WHERE p.id = old.paper_id
; END""",
    """CREATE TRIGGER tags_fts_rename AFTER UPDATE OF name ON tags BEGIN
        
INSERT OR REPLACE INTO papers_fts(rowid, title, abstract, notes, tags)
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
