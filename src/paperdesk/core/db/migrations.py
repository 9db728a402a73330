"""The frozen migrations, as steps of a sqlite-utils ``Migrations`` set.

Each step runs in one transaction together with the record that it ran, in the
``_sqlite_migrations`` table sqlite-utils keeps. A library whose record names a
migration this version does not know was written by a newer PaperDesk and is
refused (``dbfile.check_identity``). Each step's SQL is written out as it ran (the
long first ones in ``schema_0001`` and ``schema_0002``) and never edited: a change
is a new step at the end, and its name goes at the end of ``schema.MIGRATIONS``.

This module loads sqlite-utils (and with it numpy): it is imported only when a
library needs an upgrade, never by a program that merely opens one.
"""

from __future__ import annotations

import sqlite3

from sqlite_utils import Database, Migrations

from paperdesk.core.db import (
    schema,
    schema_0001,
    schema_0002,
    schema_0010,
    schema_0014,
    schema_0018,
    schema_0021,
    schema_0024,
    schema_0027,
    schema_0028,
    schema_0031,
    schema_0032,
)
from paperdesk.core.db.database import Database as schema_db
from paperdesk.core.model import uids

migrations = Migrations(schema.MIGRATION_SET)


def apply(conn: sqlite3.Connection) -> None:
    """Apply the pending steps on ``conn`` (a write the caller holds, foreign keys off:
    ``store.foreign_keys_off``)."""
    if conn.execute("PRAGMA foreign_keys").fetchone()[0]:
        raise RuntimeError("migrations run with foreign keys off (store.foreign_keys_off)")
    # No recursive triggers and no plugins: the connection goes on serving the
    # library exactly as it was set up.
    db = Database(conn, recursive_triggers=False, execute_plugins=False)
    names = [m.name for m in migrations.pending(db)]
    if names != schema.pending(schema_db(conn)):
        raise RuntimeError(f"the migration steps and schema.MIGRATIONS disagree: {names}")
    migrations.apply(db)


@migrations(name="0001_initial")
def _initial(db: Database) -> None:
    for statement in schema_0001.TABLES + schema_0001.TRIGGERS:
        db.execute(statement)


@migrations(name="0002_list_and_trash_indexes")
def _list_and_trash_indexes(db: Database) -> None:
    """Reading-list order and the trash are filtered on; index them.

    Also recreates the triggers: the first ones used INSERT OR REPLACE on the
    index, which fails when an undo (an upsert) fires them.
    """
    for statement in schema_0001.TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {statement.split()[2]}")
    for statement in schema_0002.TRIGGERS + schema_0002.INDEXES:
        db.execute(statement)


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


@migrations(name="0008_freeze_existing_keys")
def _freeze_existing_keys(db: Database) -> None:
    """A key is provisional (it follows the paper's metadata) until it leaves PaperDesk.

    Nothing recorded which keys of an existing library were already exported,
    copied or dragged out, so all of them are taken as having left: frozen.
    """
    db.execute("UPDATE papers SET citekey_frozen = 1 WHERE citekey IS NOT NULL")


@migrations(name="0009_paper_sources")
def _paper_sources(db: Database) -> None:
    """Where each filled field came from and when (``sources``, JSON: field ->
    {"source", "at"}), and what the Hugging Face Hub adds: code, project page, upvotes."""
    db.execute("ALTER TABLE papers ADD COLUMN sources TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN github TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN project_page TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN hub_upvotes INTEGER")


@migrations(name="0010_momentum")
def _momentum(db: Database) -> None:
    """A sortable "momentum": upvotes gained per day across digests, kept by triggers."""
    for statement in schema_0010.STATEMENTS:
        db.execute(statement)


@migrations(name="0011_syncs")
def _syncs(db: Database) -> None:
    """Files kept in sync with the library: where, what goes in, and how the last write went.

    ``written_sha256`` is the hash of the bytes PaperDesk last put there (a file
    with other bytes was changed by someone else); ``pending_sha256`` the hash
    of a write under way; ``layout`` the (paper id, length) of each entry then
    written, valid for the ``layout_key`` (version, style, ASCII) it was made under.
    """
    db.execute("""CREATE TABLE syncs (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL CHECK (source IN ('all', 'query', 'search', 'tag',
                                               'reading-list')),
        value TEXT NOT NULL DEFAULT '',
        style TEXT NOT NULL DEFAULT 'bibtex' CHECK (style IN ('bibtex', 'biblatex',
                                                              'csl-json')),
        ascii INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'new',
        message TEXT,
        entries INTEGER,
        written_sha256 TEXT,
        pending_sha256 TEXT,
        written_at TEXT,
        layout_key TEXT,
        layout BLOB,
        created TEXT NOT NULL
    )""")


@migrations(name="0012_year_inferred_index")
def _year_inferred_index(db: Database) -> None:
    """``stats`` counts papers whose year was inferred on this partial index instead of
    reading every row (with its abstract) of a large library."""
    db.execute("CREATE INDEX IF NOT EXISTS papers_year_inferred ON papers(year_inferred) "
               "WHERE year_inferred = 1")


@migrations(name="0013_bib_sources")
def _bib_sources(db: Database) -> None:
    """A .bib entry as it was written, so that an export gives it back unchanged.

    ``papers.bib_source`` holds the entry (type and key as written, each field's
    name and raw value, and the column values it was read into); ``bib_files``
    holds the ``@string`` and ``@preamble`` definitions of each imported file.
    """
    db.execute("ALTER TABLE papers ADD COLUMN bib_source TEXT")
    db.execute("""CREATE TABLE bib_files (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        preambles TEXT NOT NULL DEFAULT '[]',
        strings TEXT NOT NULL DEFAULT '[]',
        imported_at TEXT NOT NULL
    )""")


@migrations(name="0014_annotations_fts")
def _annotations_fts(db: Database) -> None:
    """Tags and notes in a full-text table of their own (``annotations_fts``), so that
    tagging a paper rewrites a small row, never the one holding its abstract."""
    for statement in schema_0014.STATEMENTS:
        if statement.strip():
            db.execute(statement)


@migrations(name="0015_bib_file")
def _bib_file(db: Database) -> None:
    """``papers.bib_file``: the ``bib_files`` row an entry kept in ``bib_source`` came from
    (its ``file``), indexed where there is one, so that an export finds the files whose
    ``@string``/``@preamble`` blocks it needs without reading every paper's JSON.

    A library into which no .bib file was ever imported has no such entry: its papers
    are not read. (New papers from a .bib import enter the index at its end: their file
    is the newest, their ids the highest.)"""
    db.execute("ALTER TABLE papers ADD COLUMN bib_file INTEGER")
    if db.execute("SELECT 1 FROM bib_files LIMIT 1").fetchone() is not None:
        db.execute("UPDATE papers SET bib_file = json_extract(bib_source, '$.file') "
                   "WHERE bib_source IS NOT NULL")
    db.execute("CREATE INDEX papers_bib_file ON papers(bib_file) WHERE bib_file IS NOT NULL")


@migrations(name="0016_frozen_keys")
def _frozen_keys(db: Database) -> None:
    """Which citation keys are frozen (they left PaperDesk), in a table of their own
    (``frozen_keys``), so that freezing a key writes a small row, never the one holding
    the paper's abstract: the first export of 100,000 papers froze every key by
    rewriting every paper (400 MB of write-ahead log, 2.3 s).

    ``papers.citekey_frozen`` is no longer read or kept: it stays only because dropping
    a column rewrites the whole table. A paper's frozen row goes with the paper."""
    db.execute("CREATE TABLE frozen_keys (paper_id INTEGER PRIMARY KEY "
               "REFERENCES papers(id) ON DELETE CASCADE)")
    db.execute("INSERT INTO frozen_keys (paper_id) SELECT id FROM papers "
               "WHERE citekey_frozen = 1")


@migrations(name="0017_id_tops")
def _id_tops(db: Database) -> None:
    """The highest id ``papers``, ``sightings``, ``notes`` and ``digests`` ever held
    (``id_tops``; ``core/db/ids.py``): new rows get ids above it, never those of rows
    deleted since (SQLite gave the largest id plus one, so an undo of the emptied trash
    met new papers under the old ids). A paper a merge removed counts: the merge's undo
    puts it back under its id."""
    db.execute("CREATE TABLE id_tops (name TEXT PRIMARY KEY, top INTEGER NOT NULL) "
               "WITHOUT ROWID")
    db.execute("INSERT INTO id_tops (name, top) SELECT 'papers', max("
               "coalesce((SELECT max(id) FROM papers), 0), "
               "coalesce((SELECT max(j.value) FROM merges m, json_each(m.merged_ids) j), 0))")
    for table in ("sightings", "notes", "digests"):
        db.execute(f"INSERT INTO id_tops (name, top) "
                   f"SELECT '{table}', coalesce(max(id), 0) FROM {table}")


@migrations(name="0018_retired_keys")
def _retired_keys(db: Database) -> None:
    """Keys that left PaperDesk for a paper that no longer has them, never made for
    another (``schema_0018``)."""
    for statement in schema_0018.STATEMENTS:
        db.execute(statement)


@migrations(name="0019_tag_ids")
def _tag_ids(db: Database) -> None:
    """Tags' ids are never given twice either (``id_tops``): an undo of a deleted tag
    met a newer tag under its id and renamed it."""
    db.execute("INSERT OR IGNORE INTO id_tops (name, top) "
               "SELECT 'tags', coalesce(max(id), 0) FROM tags")


@migrations(name="0020_retired_keys_of_merges")
def _retired_keys_of_merges(db: Database) -> None:
    """Keys that left PaperDesk and were retired by a merge made before 0018, found in
    the merges' kept images (``merges.undo``): a merged-away paper's frozen key, and the
    kept paper's when the merge chose another. A merge since undone retired nothing; an
    image that is not what a merge writes (damaged) is passed over, so the upgrade never
    fails on it."""
    # Every JSON function sees JSON: an image or a row that is not an object reads as
    # '{}' and yields nothing, and a row needs an integer id and a text key.
    db.execute("""
        WITH images AS (
            SELECT CASE WHEN i.type = 'object' THEN i.value ELSE '{}' END AS image
            FROM merges m,
                 json_each(CASE WHEN json_valid(m.undo) THEN m.undo ELSE '{}' END,
                           '$.images') i
            WHERE m.undone_at IS NULL ORDER BY m.id),
        rows AS (
            SELECT CASE WHEN r.type = 'object' THEN r.value ELSE '{}' END AS row
            FROM images,
                 json_each(CASE WHEN json_extract(image, '$.table') = 'papers'
                           THEN image ELSE '{}' END, '$.before') r)
        INSERT OR IGNORE INTO retired_keys (key, paper_id)
        SELECT json_extract(row, '$.citekey'), json_extract(row, '$.id') FROM rows
        WHERE json_type(row, '$.id') = 'integer' AND json_type(row, '$.citekey') = 'text'
          AND json_extract(row, '$.citekey_frozen') = 1
          AND json_extract(row, '$.citekey') IS NOT (
              SELECT p.citekey FROM papers p WHERE p.id = json_extract(row, '$.id'))""")


@migrations(name="0021_retired_key_owners")
def _retired_key_owners(db: Database) -> None:
    """Every paper a retired key named (``retired_owners``; ``schema_0021``), not only
    the first: a biblatex export writes a retired key as another paper's alias only when
    all of them are now that paper."""
    for statement in schema_0021.STATEMENTS:
        db.execute(statement)


@migrations(name="0022_carried_keys")
def _carried_keys(db: Database) -> None:
    """``carried_keys``: a paper whose frozen key a merge carried onto it from the paper
    merged away (``source``), and which has not left PaperDesk as this paper's since (no
    export, sync or copy of it). Undoing that merge gives the key back to the paper it
    left as (``paper_restore``); any freeze of the paper's key ends it. A table of its
    own: ``frozen_keys`` is read as a one-column list (``id IN frozen_keys``)."""
    db.execute("CREATE TABLE carried_keys (paper_id INTEGER PRIMARY KEY "
               "REFERENCES papers(id) ON DELETE CASCADE, source INTEGER NOT NULL)")


@migrations(name="0023_sync_library")
def _sync_library(db: Database) -> None:
    """``syncs.library``: the library file (its real path) a sync was made on. A copy of
    the library (a backup opened, a file copied) carries its syncs but writes none of
    their files. NULL: made before; the first library to write it takes it."""
    db.execute("ALTER TABLE syncs ADD COLUMN library TEXT")


@migrations(name="0024_hub_upvotes_and_seen")
def _hub_upvotes_and_seen(db: Database) -> None:
    """``upvotes`` is the larger of the digests' count and the Hub's, kept so by the
    sightings' triggers; ``seen_at``: a paper triage set aside (``schema_0024``)."""
    for statement in schema_0024.STATEMENTS:
        db.execute(statement)
    if db.execute(schema_0024.ANY_HUB_COUNT).fetchone():
        db.execute(schema_0024.BACKFILL)


@migrations(name="0025_imports_and_follows")
def _imports_and_follows(db: Database) -> None:
    """``imports``: what each import created (``imports_table``), so that the library's
    last import can be undone by any program, after a restart too; its ids are never
    given twice (``id_tops``). ``follows``: the arXiv categories and authors whose new
    papers Today brings beside the Hub's (``follows_table``), with the newest submission
    date taken so far."""
    db.execute("CREATE TABLE imports (id INTEGER PRIMARY KEY, at TEXT NOT NULL, "
               "label TEXT NOT NULL, files TEXT NOT NULL, record TEXT NOT NULL)")
    db.execute("INSERT OR IGNORE INTO id_tops (name, top) VALUES ('imports', 0)")
    db.execute("CREATE TABLE follows (kind TEXT NOT NULL CHECK (kind IN ('category', "
               "'author')), value TEXT NOT NULL, added TEXT NOT NULL, newest TEXT, "
               "PRIMARY KEY (kind, value)) WITHOUT ROWID")


@migrations(name="0026_sync_generations")
def _sync_generations(db: Database) -> None:
    """What the kept-in-sync files have not caught up with yet, recorded by the write that
    makes the change, in its own transaction: a command killed after its commit and
    before it wrote the files leaves the change pending, not lost.

    ``sync_changes``: one row a committed change a synced file may show (its
    ``generation``, rising), with the papers it changed (``paper_ids``, 8-byte integers;
    NULL: any paper). ``syncs.generation``: the library's generation its file was last
    written at (NULL: before this was recorded); ``syncs.kept``: the conflict file the
    last write kept someone else's version in."""
    db.execute("CREATE TABLE sync_changes (generation INTEGER PRIMARY KEY, paper_ids BLOB)")
    db.execute("ALTER TABLE syncs ADD COLUMN generation INTEGER")
    db.execute("ALTER TABLE syncs ADD COLUMN kept TEXT")


@migrations(name="0027_paper_uids")
def _paper_uids(db: Database) -> None:
    """``papers.uid``: each paper's stable id, the same on every computer for the same
    arXiv id, DOI or digest entry (``core/model/uids.py``), unique in the library
    (``schema_0027``)."""
    db.execute(schema_0027.ADD)
    taken: set[str] = set()
    rows = db.execute(schema_0027.ROWS).fetchall()
    db.conn.executemany(schema_0027.SET, [
        (uids.choose(arxiv_id, doi, title_key, key, taken), pid)
        for pid, arxiv_id, doi, title_key, key in rows])
    db.execute(schema_0027.INDEX)


@migrations(name="0028_attachments_and_highlights")
def _attachments_and_highlights(db: Database) -> None:
    """A paper's PDFs (``attachments``: a copy kept in ``NAME.files/`` or the user's own
    file linked, with its SHA-256) and the highlights made on them (``highlights``),
    written by ``attachments_table`` and ``highlights_table`` (``schema_0028``)."""
    for statement in schema_0028.STATEMENTS:
        db.execute(statement)


@migrations(name="0029_share")
def _share(db: Database) -> None:
    """Sharing the library with other computers (``core/share/``, ``share_table``).

    ``share_doc``: the shared document as this library last matched it, a compacted
    snapshot and the updates after it in ``seq`` order, written in the same transaction
    as what an exchange applied, so the two never part. ``share_state``: the share's
    few settings and records (its folder, this computer's device id, the person, the
    update files read). ``share_notes``: the stable id of each note in the document."""
    db.execute("CREATE TABLE share_doc (seq INTEGER PRIMARY KEY, data BLOB NOT NULL)")
    db.execute("CREATE TABLE share_state (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID")
    db.execute("CREATE TABLE share_notes (note_id INTEGER PRIMARY KEY REFERENCES notes(id) "
               "ON DELETE CASCADE, uid TEXT NOT NULL UNIQUE)")


@migrations(name="0030_published_versions")
def _published_versions(db: Database) -> None:
    """``published_versions``: the venue a preprint appeared at, as the user accepted it
    from DBLP or Semantic Scholar (``core/hub/published.py``): one row a paper, with
    where it came from (``source``) and when it was accepted; exports write the venue
    entry from it. Written only by ``core/db/published_table.py``."""
    db.execute("CREATE TABLE published_versions (paper_id INTEGER PRIMARY KEY "
               "REFERENCES papers(id) ON DELETE CASCADE, entry_type TEXT NOT NULL CHECK "
               "(entry_type IN ('inproceedings', 'article')), venue TEXT NOT NULL, "
               "year INTEGER, pages TEXT, volume TEXT, doi TEXT, source TEXT NOT NULL, "
               "accepted TEXT NOT NULL)")


@migrations(name="0031_highlights_searched")
def _highlights_searched(db: Database) -> None:
    """The text and comment of a paper's highlights in its row of ``annotations_fts``,
    beside its notes, so that words find them as they find notes, kept by triggers on
    highlights and attachments (``schema_0031``)."""
    for statement in schema_0031.STATEMENTS:
        if statement.strip():
            db.execute(statement)


@migrations(name="0032_shared_keys")
def _shared_keys(db: Database) -> None:
    """``papers`` made again without ``UNIQUE`` on ``citekey`` and with ``key_shared``
    (``schema_0032``): a key that left PaperDesk for two papers on two computers is
    kept by both. Runs with foreign keys off (as ``apply`` does: dropping the old
    table with them on would take every paper's tags, notes and sightings with it)."""
    kept = [r[0] for r in db.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'papers' AND type IN "
        "('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name")]
    db.execute(schema_0032.PAPERS)
    db.execute(f"INSERT INTO papers_0032 ({schema_0032.COPIED}) "
               f"SELECT {schema_0032.COPIED} FROM papers")
    db.execute("DROP TABLE papers")  # its indexes and triggers with it
    # Legacy renaming: the other tables' triggers naming ``papers`` are left as they
    # are (they name the new table once it is renamed), not parsed against its absence.
    db.execute("PRAGMA legacy_alter_table = ON")
    try:
        db.execute("ALTER TABLE papers_0032 RENAME TO papers")
    finally:
        db.execute("PRAGMA legacy_alter_table = OFF")
    for statement in kept:
        db.execute(statement)
    db.execute(schema_0032.UNIQUE_KEYS)
    db.execute(schema_0032.SHARED_INDEX)
    db.execute(schema_0032.KEY_INDEX)
    # The old table's statistics went with it: the query planner's, made again.
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone():
        db.execute(f"PRAGMA analysis_limit = {schema_0032.ANALYSIS_LIMIT}")
        db.execute("ANALYZE papers")
