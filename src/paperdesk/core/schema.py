"""The library schema: every version of it, as numbered migrations in one place.

Each migration runs in one transaction together with the record that it ran
(sqlite-utils ``Migrations``). A library whose record names a migration this
version does not know was written by a newer PaperDesk and is refused.

The full-text index ``papers_fts`` (title, abstract, notes, tags) and the
cached ``upvotes``/``seen_count`` on papers are kept up to date by triggers,
so every write path, undo included, leaves them right.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

APPLICATION_ID = 0x50445344  # "PDSD": marks a SQLite file as a PaperDesk library

migrations = Migrations("paperdesk")

STATUSES = ("unread", "to-read", "reading", "read")

# Delete, then insert: a trigger's own OR REPLACE would be overridden by the
# conflict clause of the statement that fired it (an upsert, when undoing).
_FTS_ROW = """
DELETE FROM papers_fts WHERE rowid IN (SELECT p.id FROM {source});
INSERT INTO papers_fts(rowid, title, abstract, notes, tags)
SELECT p.id, p.title, p.abstract,
       coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), ''),
       coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id
                 WHERE pt.paper_id = p.id), '')
FROM {source}
"""


def reindex_statements(source: str) -> list[str]:
    """SQL that rewrites the index rows of the papers ``source`` selects
    (a FROM clause over ``papers p``), for code that wrote with triggers off."""
    return [part for part in _FTS_ROW.format(source=source).split(";") if part.strip()]


def _fts_row(paper_id: str) -> str:
    return _FTS_ROW.format(source=f"papers p WHERE p.id = {paper_id}")


_STATS_ROW = """
UPDATE papers SET
  upvotes = (SELECT max(upvotes) FROM sightings WHERE paper_id = {id}),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = {id})
WHERE id = {id}
"""

V1_TABLES = [
    f"""CREATE TABLE papers (
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
        status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN {STATUSES!r}),
        read_at TEXT,
        list_position REAL,
        upvotes INTEGER,
        seen_count INTEGER NOT NULL DEFAULT 0,
        added TEXT NOT NULL,
        modified TEXT NOT NULL,
        deleted_at TEXT
    )""",
    "CREATE INDEX papers_title_key ON papers(title_key)",
    "CREATE INDEX papers_year ON papers(year)",
    "CREATE INDEX papers_rating ON papers(rating)",
    "CREATE INDEX papers_status ON papers(status)",
    "CREATE INDEX papers_upvotes ON papers(upvotes)",
    "CREATE INDEX papers_added ON papers(added)",
    "CREATE INDEX papers_arxiv ON papers(arxiv_id) WHERE arxiv_id IS NOT NULL",
    "CREATE INDEX papers_doi ON papers(doi) WHERE doi IS NOT NULL",
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
    "CREATE INDEX sightings_paper ON sightings(paper_id)",
    "CREATE INDEX sightings_digest ON sightings(digest_id)",
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
    "CREATE INDEX paper_tags_tag ON paper_tags(tag_id, paper_id)",
    """CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )""",
    "CREATE INDEX notes_paper ON notes(paper_id)",
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

# Triggers keep derived data right on every write path. They are dropped and
# recreated around bulk imports (see store.bulk_index).
TRIGGERS = [
    f"""CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        {_fts_row("new.id")}; END""",
    f"""CREATE TRIGGER papers_fts_update AFTER UPDATE OF title, abstract ON papers BEGIN
        {_fts_row("new.id")}; END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        DELETE FROM papers_fts WHERE rowid = old.id; END""",
    f"""CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
        {_fts_row("new.paper_id")}; END""",
    f"""CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
        {_fts_row("old.paper_id")}; {_fts_row("new.paper_id")}; END""",
    f"""CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
        {_fts_row("old.paper_id")}; END""",
    f"""CREATE TRIGGER paper_tags_fts_insert AFTER INSERT ON paper_tags BEGIN
        {_fts_row("new.paper_id")}; END""",
    f"""CREATE TRIGGER paper_tags_fts_delete AFTER DELETE ON paper_tags BEGIN
        {_fts_row("old.paper_id")}; END""",
    f"""CREATE TRIGGER tags_fts_rename AFTER UPDATE OF name ON tags BEGIN
        {_FTS_ROW.format(source="paper_tags pt JOIN papers p ON p.id = pt.paper_id "
                                "WHERE pt.tag_id = new.id")}; END""",
    f"""CREATE TRIGGER sightings_stats_insert AFTER INSERT ON sightings BEGIN
        {_STATS_ROW.format(id="new.paper_id")}; END""",
    f"""CREATE TRIGGER sightings_stats_update AFTER UPDATE OF paper_id, upvotes ON sightings BEGIN
        {_STATS_ROW.format(id="old.paper_id")}; {_STATS_ROW.format(id="new.paper_id")}; END""",
    f"""CREATE TRIGGER sightings_stats_delete AFTER DELETE ON sightings BEGIN
        {_STATS_ROW.format(id="old.paper_id")}; END""",
]
TRIGGER_NAMES = [t.split()[2] for t in TRIGGERS]


@migrations(name="0001_initial")
def _initial(db: Database) -> None:
    for statement in V1_TABLES + TRIGGERS:
        db.execute(statement)


@migrations(name="0002_list_and_trash_indexes")
def _list_and_trash_indexes(db: Database) -> None:
    """Reading-list order and the trash are filtered on; index them.

    Also recreates the triggers: the first ones used INSERT OR REPLACE on the
    index, which fails when an undo (an upsert) fires them.
    """
    recreate_triggers(db)
    db.execute("CREATE INDEX papers_list_position ON papers(list_position) "
               "WHERE list_position IS NOT NULL")
    db.execute("CREATE INDEX papers_deleted ON papers(deleted_at) WHERE deleted_at IS NOT NULL")


@migrations(name="0003_duplicate_candidates")
def _duplicate_candidates(db: Database) -> None:
    """Papers in an open duplicate group, refreshed by each scan and import.

    The search term ``is:duplicate-candidate`` reads it.
    """
    db.execute("CREATE TABLE duplicate_candidates (paper_id INTEGER PRIMARY KEY)")


@migrations(name="0004_sort_index")
def _sort_index(db: Database) -> None:
    """The table's "Digests" column sorts by seen_count: index it like its other columns."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_seen_count ON papers(seen_count)")



def recreate_triggers(db: Database) -> None:
    """Drop and create every trigger from its current definition."""
    for name in TRIGGER_NAMES:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement in TRIGGERS:
        db.execute(statement)


@migrations(name="0005_bibtex_fields")
def _bibtex_fields(db: Database) -> None:
    """What a .bib entry had that papers have no column for: its type and raw fields."""
    db.execute("ALTER TABLE papers ADD COLUMN bib_type TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN bib_fields TEXT")


@migrations(name="0006_citekey_fold_index")
def _citekey_fold_index(db: Database) -> None:
    """Keys are unique ignoring case; new keys look up their base by lower(citekey)."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_citekey_fold ON papers(lower(citekey))")


@migrations(name="0007_citekey_frozen")
def _citekey_frozen(db: Database) -> None:
    """A key that has left PaperDesk (written to a kept-in-sync file...) is frozen."""
    db.execute("ALTER TABLE papers ADD COLUMN citekey_frozen INTEGER NOT NULL DEFAULT 0")


def known_migrations() -> list[str]:
    return [m.name for m in migrations._migrations]
