"""Migration 0028's SQL, as it ran: a paper's PDFs and their highlights. Never edit.

- ``attachments``: one PDF of a paper. ``kind`` 'stored' is a copy PaperDesk keeps in
  the files folder beside the library (``NAME.files/``; ``path`` relative to it),
  'linked' the user's own file (``path`` absolute). ``name`` is the readable file name
  shown, ``sha256`` and ``size`` the bytes' (the same file twice on one paper is one
  attachment: ``UNIQUE (paper_id, sha256)``), ``pages`` its page count when read,
  ``arxiv_version`` the arXiv version fetched, ``source`` how it came ('attached',
  'arxiv'...), ``source_url`` from where, ``last_page`` the reading position (0-based).
- ``highlights``: a passage of an attachment's page (0-based) marked in a colour, with
  its quads (JSON, PDF points), text and comment: rows of the library, never written
  into the PDF.

Both go with their parent (ON DELETE CASCADE): emptying the trash or a merge's removal
of a paper takes its attachments and their highlights, imaged with it for the undo.
``attachments_sha256`` finds a file attached elsewhere (a merge's identical files, a
file already in the library); ``highlights_attachment`` an attachment's highlights.
Their ids are never given twice (``id_tops``), so an undo puts rows back under them.
"""

from __future__ import annotations

STATEMENTS = [
    """CREATE TABLE attachments (
        id INTEGER PRIMARY KEY,
        paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('stored', 'linked')),
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        pages INTEGER,
        arxiv_version INTEGER,
        source TEXT NOT NULL DEFAULT 'attached',
        source_url TEXT,
        added_at TEXT NOT NULL,
        last_page INTEGER,
        UNIQUE (paper_id, sha256)
    )""",
    "CREATE INDEX attachments_sha256 ON attachments(sha256)",
    """CREATE TABLE highlights (
        id INTEGER PRIMARY KEY,
        attachment_id INTEGER NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
        page INTEGER NOT NULL,
        quads TEXT NOT NULL,
        text TEXT NOT NULL,
        comment TEXT NOT NULL DEFAULT '',
        colour TEXT NOT NULL,
        created_at TEXT NOT NULL,
        modified_at TEXT NOT NULL
    )""",
    "CREATE INDEX highlights_attachment ON highlights(attachment_id, page)",
    "INSERT OR IGNORE INTO id_tops (name, top) VALUES ('attachments', 0), ('highlights', 0)",
]
