"""Migration 0021's SQL, as it ran: every paper a retired key named. Never edit.

``retired_keys`` (0018) keeps the first paper a key was retired with, which is what the
key allocator needs (the key is never made again). But a key can name more than one
paper over time: taken by the paper a frozen paper was merged into, exported as that
one's, retired again when it goes; or typed by hand onto another paper. A biblatex
export writes a retired key as an alias (``ids``) of the paper that is now its work
(``core/bibtex/key_aliases.py``) only when every paper it named leads there, so these
triggers, which replace 0018's, also keep each (key, paper) in ``retired_owners``.
"""

from __future__ import annotations

TABLE = ("CREATE TABLE retired_owners (key TEXT NOT NULL COLLATE NOCASE, "
         "paper_id INTEGER NOT NULL, PRIMARY KEY (key, paper_id)) WITHOUT ROWID")

_RETIRE = ("INSERT OR IGNORE INTO retired_keys (key, paper_id) VALUES (old.citekey, old.id); "
           "INSERT OR IGNORE INTO retired_owners (key, paper_id) VALUES (old.citekey, old.id)")

TRIGGERS = [
    f"""CREATE TRIGGER papers_retire_deleted_key BEFORE DELETE ON papers
        WHEN old.citekey IS NOT NULL AND old.id IN (SELECT paper_id FROM frozen_keys)
        BEGIN {_RETIRE}; END""",
    f"""CREATE TRIGGER papers_retire_changed_key BEFORE UPDATE OF citekey ON papers
        WHEN old.citekey IS NOT NULL AND old.citekey IS NOT new.citekey
         AND old.id IN (SELECT paper_id FROM frozen_keys)
        BEGIN {_RETIRE}; END""",
]

STATEMENTS = [
    TABLE,
    "INSERT INTO retired_owners (key, paper_id) SELECT key, paper_id FROM retired_keys",
    "DROP TRIGGER papers_retire_deleted_key",
    "DROP TRIGGER papers_retire_changed_key",
    *TRIGGERS,
]
