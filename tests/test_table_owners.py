"""One module owns each table's writes: every INSERT, UPDATE, DELETE and REPLACE on a
table of the library, anywhere under src/paperdesk, is in the module OWNERS names
for that table. The features call that module's small named functions instead of
writing the table themselves, so a reader finds every way a table changes in one
file.

The SQL is found in the code's string literals (f-strings included, their
expressions read as ``{...}``), parsed with ``ast``. Exempt, each with its reason:
the frozen migrations (history, never edited), the temporary tables of one
connection, and the few modules that write rows of whatever table they are handed
(undo images), which are the only ones allowed a table name not written out."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "paperdesk"

# {table: the one module (path under src/paperdesk) that writes it}
OWNERS = {
    "papers": "core/db/papers_table.py",
    "follows": "core/db/follows_table.py",
    "published_versions": "core/db/published_table.py",
    "imports": "core/db/imports_table.py",
    "frozen_keys": "core/db/papers_table.py",
    "carried_keys": "core/db/papers_table.py",
    "id_tops": "core/db/ids.py",
    # written by its triggers alone (a frozen key's paper deleted or re-keyed)
    "retired_keys": "core/db/schema_0021.py",
    "retired_owners": "core/db/schema_0021.py",
    "tags": "core/db/tags_table.py",
    "paper_tags": "core/db/tags_table.py",
    "notes": "core/db/notes_table.py",
    "attachments": "core/db/attachments_table.py",
    "highlights": "core/db/highlights_table.py",
    "digests": "core/db/digests_table.py",
    "sightings": "core/db/digests_table.py",
    "duplicate_candidates": "core/db/candidates_table.py",
    "syncs": "core/db/syncs_table.py",
    "merges": "core/db/merges_table.py",
    "not_duplicates": "core/db/merges_table.py",
    "saved_searches": "core/db/searches_table.py",
    "sync_changes": "core/db/sync_changes.py",
    "share_doc": "core/db/share_table.py",
    "share_state": "core/db/share_table.py",
    "share_notes": "core/db/share_table.py",
    "bib_files": "core/importing/bibtex_import.py",
    # the search index, written by triggers and, around bulk writes, by these two
    "papers_fts": "core/db/store.py",
    "annotations_fts": "core/db/annotations.py",
    # not the library's: the full-text file beside it (NAME.fulltext.sqlite), derived
    "extractions": "core/db/fulltext_db.py",
    "page_texts": "core/db/fulltext_db.py",
    "page_texts_fts": "core/db/fulltext_db.py",
}

# Frozen history: each step writes the schema and data of its day (triggers
# included) and is never edited once released, so it keeps its own SQL.
MIGRATIONS = {
    "core/db/migrations.py": "the migration steps as run by sqlite-utils",
    "core/db/schema_0001.py": "migration 0001: the first schema and its triggers",
    "core/db/schema_0002.py": "migration 0002: the statistics and index triggers",
    "core/db/schema_0010.py": "migration 0010: the momentum triggers and their backfill",
    "core/db/schema_0014.py": "migration 0014: the annotations index and its triggers",
    "core/db/schema_0018.py": "migration 0018: the retired keys' first triggers",
    "core/db/schema_0024.py": "migration 0024: the statistics triggers with the Hub's count",
    "core/db/schema_0027.py": "migration 0027: every paper's stable id",
    "core/db/schema_0028.py": "migration 0028: the attachments and highlights tables",
    "core/db/schema_0031.py": "migration 0031: the annotations index with the highlights",
}

# Modules that write rows of a table named at run time (``{table}``), never one
# written out: nowhere else may a write name its table that way.
ANY_TABLE = {
    "core/db/changes.py": "undo and redo write back the row images an edit took, "
                          "of whichever tables its scopes named",
    "core/db/column_restore.py": "undoing an edit of a few columns writes them back, "
                                 "one UPDATE per row that differs",
    "core/db/database.py": "fills the temporary id table a caller names",
    "core/db/store.py": "sets and clears FTS5's hashsize for the index it is handed",
}

_WRITE = re.compile(
    r"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|DELETE\s+FROM|UPDATE(?:\s+OR\s+\w+)?)"
    r"\s+(\S+?)(?=[\s(]|$)", re.I)


def _texts(tree: ast.AST) -> list[str]:
    """Every string literal, an f-string as one text with ``{...}`` for its expressions."""
    inner = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for v in node.values}
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inner:
            texts.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            texts.append("".join(v.value if isinstance(v, ast.Constant) else "{...}"
                                 for v in node.values))
    return texts


def writes(source: str) -> list[str]:
    """The tables the SQL in ``source`` writes, once per statement (``{...}`` when
    the name is made at run time). An UPDATE counts only before SET: ``DO UPDATE
    SET`` of an upsert and a trigger's ``UPDATE OF col ON t`` are not statements."""
    found = []
    for text in _texts(ast.parse(source)):
        for m in _WRITE.finditer(text):
            table = m.group(1).strip("[]\"`").lower()
            if m.group(0).upper().startswith("UPDATE") and not re.match(
                    r"\s*SET\b", text[m.end():], re.I):
                continue
            found.append("{...}" if "{" in table else table)
    return found


def all_writes() -> dict[str, list[str]]:
    """{module path under src/paperdesk: tables it writes}, migrations aside."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name not in MIGRATIONS:
            out[name] = writes(path.read_text(encoding="utf-8"))
    return out


def test_each_table_is_written_only_by_its_owner():
    wrong = sorted(
        f"{module} writes {table}"
        + (f" (its owner is {OWNERS[table]})" if table in OWNERS else " (a table with no owner)")
        for module, tables in all_writes().items() for table in set(tables)
        if table != "{...}" and not table.startswith("temp.") and OWNERS.get(table) != module)
    assert wrong == [], "move these writes into the owner's functions (or name an owner " \
                        "in OWNERS for a new table): " + "; ".join(wrong)


def test_only_the_listed_modules_write_a_table_named_at_run_time():
    dynamic = {m for m, tables in all_writes().items() if "{...}" in tables}
    assert dynamic == set(ANY_TABLE)


def test_every_owner_and_exemption_is_still_needed():
    found = all_writes()
    for table, module in OWNERS.items():
        assert table in found[module], f"{module} no longer writes {table}: update OWNERS"
    for module in MIGRATIONS:
        assert writes((PACKAGE / module).read_text(encoding="utf-8")), module


def test_every_table_of_a_library_has_an_owner(tmp_path):
    from paperdesk.core.library import Library

    lib = Library.open(tmp_path / "owners.sqlite", new=True)
    try:
        names = [r[0] for r in lib.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        # FTS5's own tables (papers_fts_data...) are written by SQLite alone
        shadow = re.compile(r"\w+_fts_(data|idx|content|docsize|config)")
        tables = {n for n in names if not shadow.fullmatch(n)}
    finally:
        lib.close()
    # the migrations' own record is written by sqlite-utils, in migrations.py
    assert sorted(tables - set(OWNERS) - {"_sqlite_migrations"}) == []


def test_the_scan_finds_writes_in_every_form():
    source = '''
a = "insert or ignore into paper_tags (paper_id, tag_id) VALUES (?, ?)"
b = f"UPDATE papers SET {cols} WHERE id IN ({marks})"
c = ("DELETE FROM [notes] "
     "WHERE id = ?")
d = """REPLACE INTO syncs (id) VALUES (1)"""
e = f"INSERT INTO {table} (x) VALUES (?)"
f = "INSERT INTO saved_searches (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET q = 1"
g = "CREATE TRIGGER t AFTER UPDATE OF title ON papers BEGIN SELECT 1; END"
h = "UPDATE OR IGNORE tags SET name = ?"
'''
    assert sorted(writes(source)) == sorted(
        ["paper_tags", "papers", "notes", "syncs", "{...}", "saved_searches", "tags"])
