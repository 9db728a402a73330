# ruff: noqa: E501  (the SQL is kept exactly as it ran)
"""Migration 0032's SQL, as it ran: one citation key held by two papers. Never edit.

A citation key that left PaperDesk on two computers for two different papers (each
exported, copied or kept in a .bib file there) is kept by both when the two libraries
share (``core/share``): a document written on either computer cites its own paper by
it. ``papers.citekey`` was ``UNIQUE`` (0001), which no paper could then hold; a column's
constraint is dropped only by making the table again. The new ``papers`` is the old one
column for column (the columns 0005-0027 added, in their order), with ``citekey``
no longer unique by itself and a new column, ``key_shared`` (1: this paper holds a key
another paper holds too, as sharing found it). Keys stay unique among all other papers:
``papers_citekey`` is a unique index on the keys of the papers whose ``key_shared`` is 0
(``papers_key_shared`` finds the few marked, ``papers_citekey_any`` any paper by its key,
as the column's own index did).

The rows are copied with their ids, so every table that refers to a paper still
refers to it; the indexes and triggers of ``papers`` are made again as they were.
"""

from __future__ import annotations

PAPERS = """CREATE TABLE papers_0032 (
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
        citekey TEXT,
        rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
        status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN ('unread', 'to-read', 'reading', 'read')),
        read_at TEXT,
        list_position REAL,
        upvotes INTEGER,
        seen_count INTEGER NOT NULL DEFAULT 0,
        added TEXT NOT NULL,
        modified TEXT NOT NULL,
        deleted_at TEXT,
        bib_type TEXT,
        bib_fields TEXT,
        citekey_frozen INTEGER NOT NULL DEFAULT 0,
        sources TEXT,
        github TEXT,
        project_page TEXT,
        hub_upvotes INTEGER,
        momentum REAL,
        bib_source TEXT,
        bib_file INTEGER,
        seen_at TEXT,
        uid TEXT,
        key_shared INTEGER NOT NULL DEFAULT 0
    )"""

# The columns copied: every one the table had before.
COPIED = ("id, title, abstract, title_key, authors, author_count, organization, "
          "organization_handle, published, year, year_inferred, arxiv_id, doi, url, citekey, "
          "rating, status, read_at, list_position, upvotes, seen_count, added, modified, "
          "deleted_at, bib_type, bib_fields, citekey_frozen, sources, github, project_page, "
          "hub_upvotes, momentum, bib_source, bib_file, seen_at, uid")

UNIQUE_KEYS = ("CREATE UNIQUE INDEX papers_citekey ON papers(citekey) "
               "WHERE key_shared = 0")
# The few papers marked, found without reading the table.
SHARED_INDEX = "CREATE INDEX papers_key_shared ON papers(id) WHERE key_shared = 1"
# Papers found by their key (``citekey IN (...)``), which the partial index above cannot
# serve: what the column's own unique index did.
KEY_INDEX = "CREATE INDEX papers_citekey_any ON papers(citekey)"
# Rows ANALYZE samples per index of the new table (``store.ANALYSIS_LIMIT`` as it was).
ANALYSIS_LIMIT = 400
