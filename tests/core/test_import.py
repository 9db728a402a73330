"""Importing digests into a real library file."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from paperdesk.core.library import Library
from tests.conftest import SEED_ENTRIES, SEED_PAPERS

TABLES = ("papers", "digests", "sightings", "tags", "paper_tags", "notes", "papers_fts")


def content(path) -> dict[str, list]:
    """Every row of every table: what 'the library is exactly as it was' compares."""
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES}
    finally:
        conn.close()


def test_seeds_give_193_papers_from_267_entries(seed_lib):
    stats = seed_lib.stats()
    assert (stats["papers"], stats["sightings"], stats["digests"]) == (SEED_PAPERS, SEED_ENTRIES, 5)
    assert seed_lib.db.execute("SELECT count(*) FROM papers_fts").fetchone()[0] == SEED_PAPERS


def test_two_different_scaling_laws_papers_stay_apart(seed_lib):
    titles = [p["title"] for p in seed_lib.papers(seed_lib.search("translation").ids)]
    assert "Scaling Laws for Neural Machine Translation" in titles
    assert "Scaling Laws for Multilingual Neural Machine Translation" in titles


def test_reimport_changes_nothing_and_says_so(seed_lib, seeds, tmp_path):
    before = content(seed_lib.path)
    reports = seed_lib.import_paths(seeds)
    assert [r.status for r in reports] == ["already imported"] * 5
    assert all("already imported" in r.warnings[0] for r in reports)
    assert content(seed_lib.path) == before


def test_same_content_under_another_name_is_already_imported(seed_lib, seeds, tmp_path):
    copy = tmp_path / "renamed.txt"
    copy.write_bytes(seeds[2].read_bytes())
    assert seed_lib.import_paths([copy])[0].status == "already imported"


def test_a_paper_seen_again_fills_what_it_lacked(lib, seeds):
    # 003 has no metadata; 001 (imported after) carries author counts and dates.
    lib.import_paths([seeds[3]])
    [pid] = lib.search('"R2D2 Reducing Redundancy"').ids
    assert lib.paper(pid)["author_count"] is None
    report = lib.import_paths([seeds[1]])[0]
    assert report.merged >= 1
    paper = lib.paper(pid)
    assert paper["author_count"] == 7 and paper["published"] == "2023-12-20"
    assert not paper["year_inferred"]
    assert len(paper["digests"]) == 2


def test_upvotes_are_the_highest_seen(seed_lib):
    rows = seed_lib.db.execute(
        "SELECT p.upvotes, (SELECT max(upvotes) FROM sightings s WHERE s.paper_id = p.id), "
        "p.seen_count, (SELECT count(DISTINCT digest_id) FROM sightings s WHERE s.paper_id = p.id)"
        " FROM papers p").fetchall()
    assert all(a == b and c == d for a, b, c, d in rows)
    assert max(r[0] or 0 for r in rows) == 8


def test_inferred_years_are_flagged(seed_lib):
    [pid] = seed_lib.search('"PhysiX"').ids
    paper = seed_lib.paper(pid)
    assert paper["published"] == "2025-06-21" and paper["year_inferred"] is True


def test_folder_imports_the_digests_inside_and_skips_other_files(lib, seeds):
    folder = seeds[0].parent
    (folder / "notes.md").write_text("# my notes\n")
    (folder / ".hidden.txt").write_bytes(seeds[0].read_bytes())
    reports = lib.import_paths([folder])
    assert sorted(r.status for r in reports) == ["imported"] * 5 + ["skipped"]
    assert lib.stats()["papers"] == SEED_PAPERS


def _bad_inputs(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "binary.txt").write_bytes(bytes(range(256)) * 50)
    (tmp_path / "prose.txt").write_text("It was a dark and stormy night.\n\nThe end.\n")
    (tmp_path / "folder.txt").mkdir()
    return ["empty.txt", "binary.txt", "prose.txt", "missing.txt"]


def test_bad_files_leave_the_library_as_it_was(seed_lib, tmp_path):
    before = content(seed_lib.path)
    names = _bad_inputs(tmp_path)
    reports = seed_lib.import_paths([tmp_path / n for n in names])
    assert [r.status for r in reports] == ["error"] * 4
    assert all(r.error and "\n" not in r.error for r in reports)
    assert content(seed_lib.path) == before


def test_cancel_keeps_nothing_of_the_file(lib, seeds):
    class Flag:
        def is_set(self):
            return True

    [report] = lib.import_paths([seeds[1]], cancel=Flag())
    assert report.status == "cancelled"
    assert lib.stats() == Library.open(lib.path).stats()
    assert lib.stats()["papers"] == 0 and lib.stats()["digests"] == 0


def test_progress_is_reported_up_to_one(lib, seeds):
    seen = []
    lib.import_paths(seeds, progress=lambda f, m: seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 5


def test_a_failing_write_rolls_the_whole_file_back(lib, seeds):
    lib.db.execute("CREATE TRIGGER boom BEFORE INSERT ON sightings WHEN new.position = 50 "
                   "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    [report] = lib.import_paths([seeds[1]])
    assert report.status == "error" and "disk on fire" in report.error
    assert lib.stats()["papers"] == 0 and lib.stats()["digests"] == 0


@pytest.mark.parametrize("bulk", [False, True])
def test_bulk_and_row_by_row_indexing_agree(lib, seeds, monkeypatch, bulk):
    from paperdesk.core.importing import file_report

    monkeypatch.setattr(file_report, "BULK_THRESHOLD", 1 if bulk else 10**9)
    lib.import_paths(seeds)
    rows = lib.db.execute("SELECT rowid, title, abstract FROM papers_fts ORDER BY rowid").fetchall()
    digest = hashlib.sha256(repr(rows).encode()).hexdigest()
    expected = lib.db.execute("SELECT id, title, abstract FROM papers ORDER BY id").fetchall()
    assert rows == expected and digest
    # 12 index and stats triggers, the 3 momentum triggers (0010), the 2 that retire
    # keys (0018) and the 6 that keep highlights in the notes' index (0031), all back
    assert lib.db.execute("SELECT count(*) FROM sqlite_master WHERE type='trigger'").fetchone()[0] \
        == 23
    momentum = lib.db.execute("SELECT id, momentum FROM papers ORDER BY id").fetchall()
    lib.db.execute("UPDATE papers SET momentum = NULL")
    from paperdesk.core.db import schema

    lib.db.execute(schema.MOMENTUM_BULK.format(papers="SELECT paper_id FROM sightings"))
    assert lib.db.execute("SELECT id, momentum FROM papers ORDER BY id").fetchall() == momentum


def _stored(path) -> tuple[dict[str, list], list, list]:
    """Rows (stamps left out), schema and FTS configuration of a library file."""
    conn = sqlite3.connect(path)
    try:
        rows = {}
        for table in ("papers", "sightings", "papers_fts"):
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")
                    if r[1] not in ("added", "modified")]
            rows[table] = conn.execute(f"SELECT rowid, {', '.join(cols)} FROM {table} "
                                       "ORDER BY rowid").fetchall()
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        config = conn.execute("SELECT * FROM papers_fts_config ORDER BY k").fetchall()
        conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return rows, schema, config
    finally:
        conn.close()


def test_a_first_bulk_load_stores_what_row_by_row_does(tmp_path, seeds, monkeypatch):
    """A large import into an empty library builds some indexes and the search index
    in sets: the rows, the schema and the index's settings end as row by row."""
    from paperdesk.core.importing import file_report

    stored = {}
    for threshold in (10**9, 1):
        monkeypatch.setattr(file_report, "BULK_THRESHOLD", threshold)
        path = tmp_path / f"lib-{threshold}.sqlite"
        with Library.open(path) as lib:
            [big] = lib.import_paths([seeds[2]])  # the first, into an empty library
            reports = lib.import_paths(seeds)
            assert big.new_papers > 1 and lib.search("learning").ids
        stored[threshold] = _stored(path)
        assert [r.status for r in reports].count("imported") == 4
    assert stored[1] == stored[10**9]


def test_the_cycle_collector_is_off_during_an_import_and_back_after(lib, seeds, monkeypatch):
    import gc

    from paperdesk.core.importing import digest_import
    from paperdesk.core.model.jobs import gc_paused

    seen = []
    parse = digest_import.parse_digest
    monkeypatch.setattr(digest_import, "parse_digest",
                        lambda *a: (seen.append(gc.isenabled()), parse(*a))[1])
    [report] = lib.import_paths([seeds[0]])
    assert report.status == "imported" and seen == [False] and gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_a_first_import_leaves_the_planner_its_statistics(tmp_path, monkeypatch):
    """Closing after a large first import (some indexes built at its end, its duplicate
    check made as a scan) analyses the papers table, so the searches that follow are planned with
    its statistics."""
    from paperdesk.core.duplicates import duplicates
    from tests.digest_files import paper, write_entries

    monkeypatch.setattr(duplicates, "IMPORT_PROBE_LIMIT", 1000)  # as for a huge file
    entries = [(*paper(n), n) for n in range(1500)]
    digest = write_entries(tmp_path, "big.txt", 3, 1, entries)
    path = tmp_path / "first.sqlite"
    with Library.open(path) as lib:
        [report] = lib.import_paths([digest])
        assert report.new_papers == 1500
    conn = sqlite3.connect(path)
    analysed = {r[0] for r in conn.execute("SELECT idx FROM sqlite_stat1 WHERE tbl = 'papers'")}
    conn.close()
    assert {"papers_title_key", "papers_citekey_fold", "papers_year"} <= analysed


def test_a_bulk_bib_import_stores_what_row_by_row_does(tmp_path, monkeypatch):
    """A large .bib import writes each chunk's search rows from the values in hand:
    rows, search rows, schema and the index's settings end as row by row (the
    triggers), for a first import into an empty library and for later ones."""
    from paperdesk.core.importing import file_report
    from tests import realbib

    files = sorted(realbib.corpus(), key=lambda p: -p.stat().st_size)[:4]
    stored = {}
    for threshold in (10**9, 1):
        monkeypatch.setattr(file_report, "BULK_THRESHOLD", threshold)
        path = tmp_path / f"lib-{threshold}.sqlite"
        with Library.open(path) as lib:
            reports = lib.import_paths(files)
            assert [r.status for r in reports] == ["imported"] * len(files)
            assert reports[0].new_papers > 50
            word = lib.db.execute("SELECT title FROM papers WHERE id = 7").fetchone()[0].split()[0]
            assert 7 in lib.search(word).ids
        stored[threshold] = _stored(path)
    assert stored[1] == stored[10**9]


def test_a_digest_another_program_imports_meanwhile_is_already_imported(lib, seeds,
                                                                           monkeypatch):
    """Between the importer's look at the digests and its write, another program imports
    the same file: the digests' unique sha256 refuses the second under the write lock."""
    from paperdesk.core.importing import digest_import

    parse = digest_import.parse_digest
    before: dict[str, list] = {}

    def parsed_while_another_imports(*args, **kwargs):
        monkeypatch.setattr(digest_import, "parse_digest", parse)  # the other's: as ever
        with Library.open(lib.path, create=False) as other:  # another program's connection
            assert other.import_paths([seeds[0]])[0].status == "imported"
        before.update(content(lib.path))
        return parse(*args, **kwargs)

    monkeypatch.setattr(digest_import, "parse_digest", parsed_while_another_imports)
    [report] = lib.import_paths([seeds[0]])
    assert report.status == "already imported"
    assert report.warnings == [f"{seeds[0].name}: already imported; nothing changed"]
    assert report.digest_id is None and report.created_ids == []
    assert content(lib.path) == before
    assert lib.stats()["digests"] == 1
