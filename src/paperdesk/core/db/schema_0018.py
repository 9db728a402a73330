"""Migration 0018's SQL, as it ran: keys that left PaperDesk are never given to another
paper. Never edit.

A frozen key (``frozen_keys``) names its paper in someone's document. When that paper is
deleted (the trash emptied, merged into another, an import undone and redone) or gets
another key (chosen in a merge, set by hand), the key goes into ``retired_keys`` with the
paper it named, written by these triggers on every path that deletes a paper or changes a
key. ``citekey.KeyAllocator`` never makes a retired key for a paper, so
``\\cite{serverless}`` never comes to print another one; a paper that comes back under its
own retired key has it frozen again (``papers_table.refreeze_retired``). A key typed by
hand or read from a .bib file is the user's word and is taken as written.
"""

from __future__ import annotations

TABLE = ("CREATE TABLE retired_keys (key TEXT PRIMARY KEY COLLATE NOCASE, "
         "paper_id INTEGER NOT NULL) WITHOUT ROWID")

_RETIRE = "INSERT OR IGNORE INTO retired_keys (key, paper_id) VALUES (old.citekey, old.id)"

TRIGGERS = [
    f"""CREATE TRIGGER papers_retire_deleted_key BEFORE DELETE ON papers
        WHEN old.citekey IS NOT NULL AND old.id IN (SELECT paper_id FROM frozen_keys)
        BEGIN {_RETIRE}; END""",
    f"""CREATE TRIGGER papers_retire_changed_key BEFORE UPDATE OF citekey ON papers
        WHEN old.citekey IS NOT NULL AND old.citekey IS NOT new.citekey
         AND old.id IN (SELECT paper_id FROM frozen_keys)
        BEGIN {_RETIRE}; END""",
]

STATEMENTS = [TABLE, *TRIGGERS]
