"""Every paper has a stable id (``papers.uid``): derived from its arXiv id, DOI or
digest entry, so two libraries that make the same paper on their own agree on it, and
unique within a library however many unmerged duplicates it holds."""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from pathlib import Path

from paperdesk.core.library import Library
from paperdesk.core.model import uids
from tests.command_line import paperdesk

DATA = Path(__file__).resolve().parents[1] / "data"

BIB = """
@article{a1, title = {Sparse Mixtures of Experts}, author = {Ada Lovelace},
  year = 2024, eprint = {2401.00001v3}, archivePrefix = {arXiv}}
@article{a2, title = {Sparse Mixtures of Experts, Again}, author = {Ada Lovelace},
  year = 2024, eprint = {2401.00001v1}, archivePrefix = {arXiv}}
@article{d1, title = {A Paper With a DOI}, author = {Alan Turing}, year = 1950,
  doi = {10.1093/MIND/LIX.236.433}}
@misc{t1, title = {Nothing But a Title}, author = {Grace Hopper}, year = 1952}
"""


def uids_of(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        return {title: uid for title, uid in conn.execute("SELECT title, uid FROM papers")}


def test_every_seed_paper_has_a_unique_stable_id(seed_lib):
    rows = seed_lib.db.execute("SELECT uid, title_key FROM papers").fetchall()
    assert rows and all(uid for uid, _ in rows)
    assert len({uid for uid, _ in rows}) == len(rows)
    # A digest paper's id is its entry's: the normalised title.
    uid, key = rows[0]
    assert uid == str(uuid.uuid5(uids.NAMESPACE, "title:" + key))


def test_two_libraries_importing_the_same_files_agree_on_every_id(tmp_path, seeds):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    assert paperdesk("--library", one, "import", *seeds, bib).returncode == 0
    # The other computer imports in another order.
    assert paperdesk("--library", two, "import", bib, *reversed(seeds)).returncode == 0
    assert uids_of(one) == uids_of(two)
    assert len(set(uids_of(one).values())) == len(uids_of(one))


def test_the_id_goes_by_arxiv_id_then_doi_then_title(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    path = tmp_path / "lib.sqlite"
    assert paperdesk("--library", path, "import", bib).returncode == 0
    got = uids_of(path)
    first = str(uuid.uuid5(uids.NAMESPACE, "arxiv:2401.00001"))
    # Versions do not matter; the second paper of one arXiv id takes the next id.
    assert got["Sparse Mixtures of Experts"] == first
    assert got["Sparse Mixtures of Experts, Again"] == str(
        uuid.uuid5(uids.NAMESPACE, "arxiv:2401.00001#2"))
    assert got["A Paper With a DOI"] == str(
        uuid.uuid5(uids.NAMESPACE, "doi:10.1093/mind/lix.236.433"))
    with sqlite3.connect(path) as conn:
        key = conn.execute("SELECT title_key FROM papers WHERE title = ?",
                           ["Nothing But a Title"]).fetchone()[0]
    assert got["Nothing But a Title"] == str(uuid.uuid5(uids.NAMESPACE, "title:" + key))


def test_an_entry_without_a_title_goes_by_its_key_so_two_imports_agree(tmp_path):
    bib = tmp_path / "untitled.bib"
    bib.write_text("@book{recurse1, author = {A. Author}, year = 1999}\n"
                   "@report{matches2, author = {B. Author}, year = 2001}\n")
    got = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.sqlite"
        assert paperdesk("--library", path, "import", bib).returncode == 0
        with sqlite3.connect(path) as conn:
            got.append(dict(conn.execute("SELECT citekey, uid FROM papers")))
    assert got[0] == got[1] == {k: str(uuid.uuid5(uids.NAMESPACE, "key:" + k))
                                for k in ("recurse1", "matches2")}


def test_list_json_carries_the_stable_id(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", bib)
    listed = json.loads(paperdesk("--library", path, "list", "--json").stdout)
    assert {p["title"]: p["uid"] for p in listed} == uids_of(path)


def test_an_upgraded_library_gets_ids_in_id_order_and_new_papers_never_clash(tmp_path):
    old = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", old)
    with sqlite3.connect(old) as conn:
        before = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    Library.open(old).close()
    with sqlite3.connect(old) as conn:
        rows = conn.execute("SELECT id, uid, arxiv_id, doi, title_key, citekey FROM papers "
                            "ORDER BY id").fetchall()
    assert len(rows) == before
    taken: set[str] = set()
    assert [uid for _, uid, *_ in rows] == [uids.choose(a, d, t, k, taken)
                                           for _, _, a, d, t, k in rows]
    # Importing the same papers again as a .bib makes duplicates: each gets its own id.
    lines = "".join(f"@misc{{k{pid}, title = {{{t}}}}}\n" for pid, t in sqlite3.connect(old)
                    .execute("SELECT id, title FROM papers LIMIT 20"))
    (tmp_path / "again.bib").write_text(lines)
    paperdesk("--library", old, "import", tmp_path / "again.bib")
    with sqlite3.connect(old) as conn:
        assert conn.execute("SELECT count(*) = count(DISTINCT uid) AND count(uid) = count(*)"
                            " FROM papers").fetchone()[0] == 1


def test_a_paper_deleted_for_good_comes_back_by_undo_under_its_own_id(lib, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    lib.import_paths([bib])
    before = dict(lib.db.execute("SELECT title, uid FROM papers"))
    pid = lib.db.execute("SELECT id FROM papers WHERE title = 'A Paper With a DOI'").fetchone()[0]
    lib.trash.delete([pid])
    emptied = lib.trash.empty()
    assert "A Paper With a DOI" not in dict(lib.db.execute("SELECT title, uid FROM papers"))
    assert emptied.undo is not None
    lib.undo(emptied.undo)
    assert dict(lib.db.execute("SELECT title, uid FROM papers")) == before
    lib.redo(emptied.undo)
    lib.undo(emptied.undo)
    assert dict(lib.db.execute("SELECT title, uid FROM papers")) == before


def test_a_paper_written_by_another_program_gets_its_id_when_first_asked(lib):
    from paperdesk.core.db import papers_table

    lib.db.execute("INSERT INTO papers (title, title_key, arxiv_id, added, modified) "
                   "VALUES ('Outside', 'outside', '2402.00002v2', '2026', '2026')")
    pid = lib.db.execute("SELECT id FROM papers WHERE title = 'Outside'").fetchone()[0]
    with lib.write("give ids"):
        got = papers_table.ensure_uids(lib.db, [pid])
    assert got == {pid: str(uuid.uuid5(uids.NAMESPACE, "arxiv:2402.00002"))}
    with lib.write("again"):
        assert papers_table.ensure_uids(lib.db, [pid]) == got


def test_the_stable_id_is_uuid5_of_its_basis_whatever_the_text():
    names = ["", "title:x", "title:x#2", "doi:10.1/ä", "key:日本#17", "arxiv:2401.00001",
             "title:" + "long " * 200]
    for name in names:
        assert uids.name_uid(name) == str(uuid.uuid5(uids.NAMESPACE, name))


def test_many_papers_of_one_title_each_take_the_next_free_id(tmp_path):
    # Forty papers of one title (a title key alike): ids #2 to #40 of that title, each
    # found past those the library already holds, in two imports.
    for run in (1, 2):
        bib = tmp_path / f"same{run}.bib"
        bib.write_text("".join(f"@misc{{same{run}x{i}, title = {{Editorial}}, year = {2000 + i}}}\n"
                               for i in range(20)))
        assert paperdesk("--library", tmp_path / "lib.sqlite", "import", bib).returncode == 0
    with sqlite3.connect(tmp_path / "lib.sqlite") as conn:
        got = {uid for (uid,) in conn.execute("SELECT uid FROM papers")}
        key = conn.execute("SELECT title_key FROM papers LIMIT 1").fetchone()[0]
    base = "title:" + key
    assert got == {str(uuid.uuid5(uids.NAMESPACE, base))} | {
        str(uuid.uuid5(uids.NAMESPACE, f"{base}#{n}")) for n in range(2, 41)}


def test_copies_of_a_title_across_chunks_take_the_first_free_ids_past_the_librarys(
        tmp_path, monkeypatch):
    # The library holds candidates 1, 3, 4 and 7 of a title; an import written two
    # entries a chunk gives its six copies 2, 5, 6, 8, 9, 10: each the first free one,
    # the candidates each chunk remembers from the chunks before it skipped, none reused.
    from paperdesk.core.importing.bibtex_write import BibWriter

    path = tmp_path / "lib.sqlite"
    first = tmp_path / "first.bib"
    first.write_text("".join(f"@misc{{old{i}, title = {{Editorial}}, year = {1990 + i}}}\n"
                             for i in range(4)))
    with Library.open(path) as lib:
        lib.import_paths([first])
        key = lib.db.execute("SELECT title_key FROM papers LIMIT 1").fetchone()[0]
    base = "title:" + key
    with sqlite3.connect(path) as conn:
        ids = [pid for (pid,) in conn.execute("SELECT id FROM papers ORDER BY id")]
        conn.execute("UPDATE papers SET uid = 'moved-' || id")
        for pid, n in zip(ids, (1, 3, 4, 7), strict=True):
            conn.execute("UPDATE papers SET uid = ? WHERE id = ?", [uids.nth(base, n), pid])
    monkeypatch.setattr(BibWriter, "CHUNK", 2)
    again = tmp_path / "again.bib"
    again.write_text("".join(f"@misc{{new{i}, title = {{Editorial}}, year = {2000 + i}}}\n"
                             for i in range(6)))
    with Library.open(path) as lib:
        lib.import_paths([again])
        got = [uid for (uid,) in lib.db.execute(
            "SELECT uid FROM papers WHERE citekey LIKE 'new%' ORDER BY id")]
    assert got == [uids.nth(base, n) for n in (2, 5, 6, 8, 9, 10)]
    assert uids.nth(base, 1) == uids.name_uid(base)
    assert uids.nth(base, 5) == str(uuid.uuid5(uids.NAMESPACE, f"{base}#5"))
