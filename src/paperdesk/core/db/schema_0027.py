"""Migration 0027's SQL, as it ran: every paper gets its stable id. Never edit.

``papers.uid`` names a paper the same way on every computer (``core/model/uids.py``
derives it): the PDF files folder is keyed by it, and libraries that share their
changes tell their papers apart by it. Existing papers take theirs in id order, so of
two unmerged duplicates the older keeps the plain derived id.
"""

from __future__ import annotations

ADD = "ALTER TABLE papers ADD COLUMN uid TEXT"
ROWS = "SELECT id, arxiv_id, doi, title_key FROM papers ORDER BY id"
SET = "UPDATE papers SET uid = ? WHERE id = ?"
INDEX = "CREATE UNIQUE INDEX papers_uid ON papers(uid)"
