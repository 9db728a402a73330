"""Migrations are frozen: each step's SQL as it ran, so old libraries upgrade to
exactly what a new library is."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.db import (
    schema,
    schema_0001,
    schema_0002,
    schema_0014,
    schema_0024,
    schema_0031,
)
from paperdesk.core.library import Library

DATA = Path(__file__).resolve().parents[1] / "data"
SRC = Path(__file__).resolve().parents[2] / "src" / "paperdesk"


def master(path: Path) -> set[tuple[str, str, str, str | None]]:
    """sqlite_master without SQLite's own statistics tables."""
    with sqlite3.connect(path) as conn:
        return set(conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE name NOT LIKE 'sqlite_stat%'"))


def test_an_upgraded_first_library_has_the_schema_of_a_new_one(tmp_path):
    fresh, old = tmp_path / "fresh.sqlite", tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", old)
    Library.open(fresh).close()
    Library.open(old).close()
    assert master(old) == master(fresh)
    assert len(master(fresh)) > 40


def test_the_first_step_is_written_out_as_it_ran():
    """The library kept from 0001 holds exactly the SQL schema_0001 runs."""
    with sqlite3.connect(DATA / "library-0001.sqlite") as conn:
        stored = {sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master")}
    assert set(schema_0001.TABLES + schema_0001.TRIGGERS) <= stored
    # 0002 replaced the first index triggers (INSERT OR REPLACE) with ones an undo can fire.
    assert sum("INSERT OR REPLACE" in t for t in schema_0001.TRIGGERS) == 8
    assert not any("INSERT OR REPLACE" in t for t in schema_0002.TRIGGERS)
    # The current triggers are 0002's but for the index's, which 0014 replaced (tags
    # and notes in a table of their own) and 0031 again for the annotation rows (the
    # highlights with the notes), and the papers' statistics, which 0024 replaced (the
    # Hub's upvotes count).
    replaced = schema_0014.TRIGGER_NAMES + schema_0024.TRIGGER_NAMES
    kept = [t for t in schema_0002.TRIGGERS if t.split()[2] not in replaced]
    text_rows = [t for t in schema_0014.TRIGGERS
                 if t.split()[2] not in schema_0031.TRIGGER_NAMES]
    current = text_rows + kept + schema_0024.TRIGGERS + schema_0031.TRIGGERS
    assert current == schema.TRIGGERS
    assert all(t.split()[2] in schema_0014.TRIGGER_NAMES for t in schema_0002.TRIGGERS
               if "_fts_" in t.split()[2])


def test_known_migrations_come_from_the_schema_not_from_sqlite_utils_internals():
    names = schema.known_migrations()
    assert names[:2] == ["0001_initial", "0002_list_and_trash_indexes"]
    assert [n.split("_")[0] for n in names] == [f"{i:04d}" for i in range(1, len(names) + 1)]
    assert not [p for p in SRC.rglob("*.py") if "._migrations" in p.read_text()]


def test_the_steps_are_a_sqlite_utils_migration_set_in_the_named_order(tmp_path):
    """The names ``schema`` reads at every open are the sqlite-utils steps that run."""
    import sqlite_utils

    from paperdesk.core.db import migrations

    assert isinstance(migrations.migrations, sqlite_utils.Migrations)
    empty = sqlite_utils.Database(tmp_path / "empty.sqlite")
    assert [m.name for m in migrations.migrations.pending(empty)] == schema.known_migrations()


def test_an_upgrade_is_recorded_by_sqlite_utils_and_an_open_loads_it_only_then(tmp_path):
    import subprocess
    import sys

    old = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", old)
    probe = ("import sys; from paperdesk.core.library import Library; "
             "Library.open(sys.argv[1]).close(); print('sqlite_utils' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", probe, old], capture_output=True,
                           text=True, check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]  # the upgrade, then an open of an up-to-date library
    import sqlite_utils

    rows = list(sqlite_utils.Database(old)["_sqlite_migrations"].rows)
    assert [r["name"] for r in rows] == schema.known_migrations()
    assert {r["migration_set"] for r in rows} == {"paperdesk"}


def test_making_papers_again_keeps_every_row_that_refers_to_a_paper(tmp_path):
    """0032 makes ``papers`` again (its key no longer unique by itself): every paper
    keeps its id and row, no sighting, tag or note goes with the old table, the search
    index's triggers work on the new one, and keys stay unique but where marked."""
    old = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", old)
    with sqlite3.connect(old) as conn:
        before = {t: sorted(conn.execute(f"SELECT paper_id FROM {t}").fetchall())
                  for t in ("sightings", "paper_tags", "notes")}
        papers = conn.execute("SELECT id, title, citekey, status FROM papers "
                              "ORDER BY id").fetchall()
    assert len(papers) == 193 and all(before.values())
    with Library.open(old) as lib:
        assert lib.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert lib.db.execute("SELECT id, title, citekey, status FROM papers "
                              "ORDER BY id").fetchall() == papers
        for table, rows in before.items():
            assert sorted(lib.db.execute(f"SELECT paper_id FROM {table}")) == rows, table
        assert lib.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        # The planner's statistics of the old table, made again for the new one.
        assert {r[0] for r in lib.db.execute(
            "SELECT idx FROM sqlite_stat1 WHERE tbl = 'papers'")} >= {
            "papers_citekey_any", "papers_title_key"}
        assert lib.db.execute("PRAGMA foreign_key_check").fetchall() == []
        pid = papers[0][0]
        lib.db.execute("UPDATE papers SET title = 'Quokkas count' WHERE id = ?", [pid])
        assert lib.search("quokkas").ids == [pid]  # the text triggers are there
        a, b = (p[0] for p in papers[1:3])
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            lib.db.execute("UPDATE papers SET citekey = 'twin2025' WHERE id IN (?, ?)", [a, b])
        lib.db.execute("UPDATE papers SET citekey = 'twin2025', key_shared = 1 "
                       "WHERE id IN (?, ?)", [a, b])
        lib.db.execute("DELETE FROM papers WHERE id = ?", [pid])  # its children go with it
        assert lib.db.execute("SELECT count(*) FROM sightings WHERE paper_id = ?",
                              [pid]).fetchone()[0] == 0
