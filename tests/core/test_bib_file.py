"""``papers.bib_file`` (migration 0015): the .bib file a kept entry came from, as a
column, so that an export finds the files whose ``@string``/``@preamble`` blocks it
needs on an index instead of reading every paper's ``bib_source``.

The column always says what ``bib_source``'s ``file`` says: after imports, merges,
undo and redo, the trash, and an upgrade of a library built before it existed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from paperdesk.core.bibtex.bibtex_source import header_blocks
from paperdesk.core.db import migrations, store
from paperdesk.core.db.database import Database
from paperdesk.core.importing import import_undo
from paperdesk.core.library import Library

A = ('@preamble{"\\newcommand{\\aa}{A}"}\n@string{jn = {Journal of A}}\n'
     "@article{a1, title = {Alpha one}, author = {Ann Able}, journal = jn, year = 2001,\n"
     " doi = {10.1000/a1}}\n"
     "@article{a2, title = {Alpha two}, author = {Ann Able}, journal = jn, year = 2002,\n"
     " doi = {10.1000/a2}}\n")
B = ("@string{jn = {Journal of B}}\n@string{bx = {Bee}}\n"
     "@article{b1, title = {Beta one}, author = {Bo Bee}, journal = jn, year = 2003}\n"
     "@article{b2, title = {Beta two}, author = {Bo Bee}, journal = bx, year = 2004}\n")
C = "@string{cc = {Journal abbreviations only}}\n"
D = ("@string{dd = {Binned}}\n"
     "@misc{d1, title = {Delta one}, author = {Di Dee}, note = dd, year = 2005}\n")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _import(lib: Library, tmp_path: Path, name: str, text: str):
    report = lib.import_paths([_write(tmp_path, name, text)])[0]
    assert report.status == "imported", report.error
    return report


def mismatches(db) -> list[tuple]:
    """Papers whose column says another file than their kept entry (none, always)."""
    return db.execute("SELECT id, bib_file, json_extract(bib_source, '$.file') FROM papers "
                      "WHERE bib_file IS NOT json_extract(bib_source, '$.file')").fetchall()


def file_of(lib: Library, key: str) -> int | str | None:
    """The paper's column, or "gone" when there is no such paper."""
    row = lib.db.execute("SELECT bib_file FROM papers WHERE citekey = ?", [key]).fetchone()
    return row[0] if row else "gone"


def file_id(lib: Library, name: str) -> int:
    return lib.db.execute("SELECT id FROM bib_files WHERE name = ?", [name]).fetchone()[0]


def json_header(lib: Library, chosen: list[int] | None) -> list[str]:
    """The blocks as the export found them before the column: from every paper's JSON."""
    db = lib.db
    rows = db.execute("SELECT json_extract(bib_source, '$.file'), max(deleted_at IS NULL) "
                      "FROM papers WHERE bib_source IS NOT NULL GROUP BY 1").fetchall()
    used = {r[0] for r in rows}
    if chosen is None:
        files = {r[0] for r in rows if r[1]}
    else:
        files = {r[0] for r in db.execute(
            f"SELECT json_extract(bib_source, '$.file') FROM papers WHERE id IN "
            f"({','.join('?' * len(chosen))}) AND bib_source IS NOT NULL", chosen)}
    files |= {r[0] for r in db.execute("SELECT id FROM bib_files")} - used
    files.discard(None)
    rows = db.execute(f"SELECT preambles, strings FROM bib_files WHERE id IN "
                      f"({','.join('?' * len(files))}) ORDER BY id", sorted(files)).fetchall()
    return header_blocks(rows, ascii=False)


def test_the_column_follows_imports_merges_and_the_trash(seed_lib, tmp_path):
    lib = seed_lib
    seed = lib.db.execute("SELECT id FROM papers WHERE bib_source IS NULL ORDER BY id "
                          "LIMIT 1").fetchone()[0]
    lib.db.execute("UPDATE papers SET arxiv_id = '2101.00001' WHERE id = ?", [seed])
    _import(lib, tmp_path, "a.bib", A + "@misc{byid, title = {Elsewhere}, eprint = "
                                        "{2101.00001v2}, archivePrefix = {arXiv}}\n")
    a = file_id(lib, "a.bib")
    assert lib.db.execute("SELECT bib_file FROM papers WHERE id = ?", [seed]).fetchone() == (a,)
    assert file_of(lib, "a1") == file_of(lib, "a2") == a
    # Into papers that kept an entry already: the same entry, and one by its DOI.
    again = ("@article{a1, title = {Alpha one}, author = {Ann Able}, journal = jn, year = 2001,"
             "\n doi = {10.1000/a1}}\n@article{other, title = {Alpha two, again}, "
             "author = {Ann Able}, year = 2002, doi = {10.1000/A2}}\n")
    report = _import(lib, tmp_path, "b.bib", B + again)
    assert report.merged == 2
    assert file_of(lib, "a1") == file_of(lib, "a2") == a
    assert file_of(lib, "b1") == file_of(lib, "b2") == file_id(lib, "b.bib")
    assert mismatches(lib.db) == []
    count = lib.db.execute("SELECT count(bib_file) FROM papers").fetchone()[0]
    assert count == 5
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers WHERE bib_file IS NOT NULL")]
    lib.trash.delete(ids[:3])
    assert mismatches(lib.db) == [] and lib.db.execute(
        "SELECT count(bib_file) FROM papers").fetchone()[0] == count
    lib.trash.restore(ids[:2])
    lib.trash.empty()
    assert mismatches(lib.db) == []
    assert lib.db.execute("SELECT count(bib_file) FROM papers").fetchone()[0] == count - 1


def test_undo_and_redo_of_an_import_and_of_a_merge_keep_the_column(lib, tmp_path):
    _import(lib, tmp_path, "a.bib", A)
    report = _import(lib, tmp_path, "b.bib", B)
    a, b = file_id(lib, "a.bib"), file_id(lib, "b.bib")
    undone = import_undo.undo_import(lib, import_undo.record(lib, [report]))
    assert file_of(lib, "b1") == "gone" and mismatches(lib.db) == []
    assert lib.db.execute("SELECT count(*) FROM papers WHERE bib_file = ?", [b]).fetchone() == (0,)
    lib.undo(undone.undo)  # the import back
    assert file_of(lib, "b1") == file_of(lib, "b2") == b and mismatches(lib.db) == []
    lib.redo(undone.undo)
    assert file_of(lib, "b2") == "gone" and mismatches(lib.db) == []
    lib.undo(undone.undo)
    assert file_of(lib, "b2") == b
    keep, other = (lib.db.execute("SELECT id FROM papers WHERE citekey = ?", [k]).fetchone()[0]
                   for k in ("a1", "b1"))
    merged = lib.duplicates.merge(keep, [other])
    assert lib.db.execute("SELECT bib_file FROM papers WHERE id = ?", [keep]).fetchone() == (a,)
    assert mismatches(lib.db) == []
    lib.undo(merged.undo)
    assert file_of(lib, "b1") == b and file_of(lib, "a1") == a and mismatches(lib.db) == []
    lib.redo(merged.undo)
    assert file_of(lib, "b1") == "gone" and mismatches(lib.db) == []
    lib.duplicates.unmerge(merged.result.merge_id)
    assert file_of(lib, "b1") == b and mismatches(lib.db) == []


def _library_of_0014(path: Path) -> None:
    """Take the library at ``path`` back to the schema before 0015, with the merges'
    stored images as 0014 wrote them (no bib_file in a paper's row). The columns later
    steps added go too (0024's ``seen_at``, 0027's ``uid``), so the upgrade adds them in
    their order, and 0032's ``key_shared`` (0032 makes the table again as it always
    does)."""
    conn = sqlite3.connect(path)
    with conn:
        for index in ("papers_citekey", "papers_key_shared", "papers_citekey_any"):
            conn.execute(f"DROP INDEX {index}")
        conn.execute("ALTER TABLE papers DROP COLUMN key_shared")
        conn.execute("DROP INDEX papers_bib_file")
        conn.execute("ALTER TABLE papers DROP COLUMN bib_file")
        conn.execute("ALTER TABLE papers DROP COLUMN seen_at")
        conn.execute("DROP INDEX papers_uid")
        conn.execute("ALTER TABLE papers DROP COLUMN uid")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name IN "
                     "('0015_bib_file', '0024_hub_upvotes_and_seen', '0027_paper_uids', "
                     "'0032_shared_keys')")
        for merge_id, undo in conn.execute("SELECT id, undo FROM merges").fetchall():
            data = json.loads(undo)
            for image in data["images"]:
                for row in image["before"] + image["after"]:
                    row.pop("bib_file", None)
            conn.execute("UPDATE merges SET undo = ? WHERE id = ?", [json.dumps(data), merge_id])
    conn.close()


def master(path: Path) -> set[tuple]:
    with sqlite3.connect(path) as conn:
        return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                "WHERE name NOT LIKE 'sqlite_stat%'"))


def test_an_upgraded_library_fills_the_column_from_the_kept_entries(tmp_path):
    path = tmp_path / "old.sqlite"
    with Library.open(path) as lib:
        for name, text in (("a.bib", A), ("b.bib", B), ("c.bib", C), ("d.bib", D)):
            _import(lib, tmp_path, name, text)
        keys = {k: file_of(lib, k) for k in ("a1", "a2", "b1", "b2", "d1")}
        ids = dict(lib.db.execute("SELECT citekey, id FROM papers"))
        merge_id = lib.duplicates.merge(ids["a2"], [ids["b2"]]).result.merge_id
        lib.trash.delete([ids["d1"]])
    _library_of_0014(path)
    with sqlite3.connect(path) as conn:
        assert "bib_file" not in {r[1] for r in conn.execute("PRAGMA table_info(papers)")}
    Library.open(tmp_path / "fresh.sqlite").close()
    with Library.open(path) as lib:
        assert {k: file_of(lib, k) for k in ("a1", "a2", "d1")} == {
            k: keys[k] for k in ("a1", "a2", "d1")}
        assert mismatches(lib.db) == []
        assert lib.bibtex.header(None) == json_header(lib, None)
        # A merge made before the column: taking it apart gives the paper its file back.
        lib.duplicates.unmerge(merge_id)
        assert file_of(lib, "b2") == keys["b2"] and mismatches(lib.db) == []
    assert master(path) == master(tmp_path / "fresh.sqlite")


def test_the_upgrade_of_a_library_without_bib_files_reads_no_paper(tmp_path):
    path = tmp_path / "digests.sqlite"
    with Library.open(path) as lib:
        lib.db.execute("INSERT INTO papers (title, title_key, added, modified) "
                       "VALUES ('T', 't', '2025-01-01', '2025-01-01')")
    _library_of_0014(path)
    conn = store.connect(path)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    db = Database(conn)
    with store.foreign_keys_off(db), store.write(db):
        migrations.apply(conn)
    conn.set_trace_callback(None)
    assert db.execute("SELECT bib_file FROM papers").fetchall() == [(None,)]
    conn.close()
    assert any("ADD COLUMN bib_file" in s for s in statements)
    # 0015 reads and writes no paper; only 0027 gives each its stable id.
    assert not [s for s in statements if s.lstrip().upper().startswith("UPDATE PAPERS")
                and not s.lstrip().startswith("UPDATE papers SET uid = ")]
    assert sum(s.lstrip().startswith("UPDATE papers SET uid = ") for s in statements) == 1


def test_the_blocks_are_those_the_kept_entries_name(lib, tmp_path):
    for name, text in (("a.bib", A), ("b.bib", B), ("c.bib", C), ("d.bib", D)):
        _import(lib, tmp_path, name, text)
    ids = dict(lib.db.execute("SELECT citekey, id FROM papers"))
    lib.trash.delete([ids["d1"]])
    header = lib.bibtex.header
    every = header(None)
    assert every == json_header(lib, None)
    # Two files define jn: the first file's value; d's only paper is in the trash;
    # c holds definitions only and goes with every export.
    assert every == ['@preamble{"\\newcommand{\\aa}{A}"}\n', "@string{jn = {Journal of A}}\n",
                     "@string{bx = {Bee}}\n", "@string{cc = {Journal abbreviations only}}\n"]
    for chosen in ([ids["b1"]], [ids["b2"], ids["a1"]], [ids["d1"]], [ids["a2"]],
                   list(ids.values()), []):
        assert header(chosen) == json_header(lib, chosen), chosen
    assert header([ids["b1"]])[0] == "@string{jn = {Journal of B}}\n"
    assert "@string{dd = {Binned}}\n" in header([ids["d1"]])
    lib.trash.restore([ids["d1"]])
    assert header(None) == json_header(lib, None) and "@string{dd = {Binned}}\n" in header(None)
