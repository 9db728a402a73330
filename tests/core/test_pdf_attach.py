"""Attaching PDFs to papers: the files folder, the SHA-256, modes, matching a PDF to
its paper or making one, undo, merges, the trash, linked files gone missing, opening.

Real PDFs (tests/pdf_files.py writes them byte by byte; pdflatex's are in
test_pdf_tex.py), a real library, the real PDF sandbox process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

from paperdesk.core.db import papers_table
from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf import store
from tests.pdf_files import claims_pages, encrypted_pdf, nested_pdf, nested_tree_pdf, write_pdf

TABLES = ("papers", "attachments", "highlights", "notes", "paper_tags")


def content(path: Path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES}
    finally:
        conn.close()


def stored_files(lib) -> list[str]:
    top = store.files_folder(lib.path)
    return sorted(p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()) \
        if top.exists() else []


@pytest.fixture
def offline(monkeypatch):
    """No service answers: arXiv's API and Crossref on a closed port, the Hub off."""
    monkeypatch.setenv("PAPERDESK_ARXIV_API", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("PAPERDESK_CROSSREF_API", "http://127.0.0.1:9")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "download (1).pdf",
                     [["Known phrase on page one."], ["Page two."], ["Page three."]])


def test_a_copy_goes_to_the_papers_folder_whole_hashed_and_never_renamed(seed_lib, pdf):
    pid = seed_lib.search("scaling").ids[0]
    paper = seed_lib.paper(pid)
    changes = seed_lib.pdf.attach(pid, pdf)
    got = changes.result
    assert got["pages"] == 3 and got["kind"] == "stored" and not got["already"]
    assert got["path"] == f"{paper['uid']}/{store.readable_name(paper['title'], pdf.name)}"
    file = store.files_folder(seed_lib.path) / got["path"]
    assert file.read_bytes() == pdf.read_bytes()
    row = seed_lib.pdf.get(got["attachment_id"])
    assert row["sha256"] == store.digest(pdf)[0] and row["size"] == pdf.stat().st_size
    assert row["state"] == "ok" and row["source"] == "attached"
    assert [p.name for p in file.parent.iterdir()] == [file.name]  # no temporary left
    with seed_lib.edit("retitle", ["papers"], [pid]):
        papers_table.set_columns(seed_lib.db, pid, {"title": "Another title"})
    assert seed_lib.pdf.get(got["attachment_id"])["path"] == got["path"]  # never renamed
    assert file.is_file()


def test_no_copy_is_more_readable_than_the_library(seed_lib, pdf):
    os.chmod(seed_lib.path, 0o600)
    got = seed_lib.pdf.attach(1, pdf).result
    file = store.files_folder(seed_lib.path) / got["path"]
    assert stat.S_IMODE(file.stat().st_mode) & 0o077 == 0
    assert stat.S_IMODE(file.parent.stat().st_mode) & 0o077 == 0


def test_the_same_file_twice_is_one_attachment(seed_lib, pdf, tmp_path):
    first = seed_lib.pdf.attach(1, pdf).result
    before = content(seed_lib.path)
    copy = tmp_path / "same bytes.pdf"
    copy.write_bytes(pdf.read_bytes())
    again = seed_lib.pdf.attach(1, copy)
    assert again.result["already"] and again.result["attachment_id"] == first["attachment_id"]
    assert not again.kinds and content(seed_lib.path) == before
    assert seed_lib.pdf.attach(None, copy).result["attachment_id"] == first["attachment_id"]
    assert len(stored_files(seed_lib)) == 1


def test_attach_and_remove_are_undone_and_redone(seed_lib, pdf):
    before = content(seed_lib.path)
    attached = seed_lib.pdf.attach(2, pdf)
    aid = attached.result["attachment_id"]
    removed = seed_lib.pdf.remove(aid)
    assert seed_lib.pdf.of_paper(2) == []
    assert len(stored_files(seed_lib)) == 1  # the copy stays for the undo
    seed_lib.undo(removed.undo)
    assert seed_lib.pdf.get(aid)["state"] == "ok"
    seed_lib.undo(attached.undo)
    assert content(seed_lib.path) == before
    seed_lib.redo(attached.undo)
    assert seed_lib.pdf.get(aid)["state"] == "ok"


def test_a_pdf_without_a_paper_finds_it_by_the_arxiv_id_on_its_first_page(seed_lib, tmp_path):
    pid = seed_lib.search("scaling").ids[0]
    with seed_lib.edit("id", ["papers"], [pid]):
        papers_table.set_columns(seed_lib.db, pid, {"arxiv_id": "2001.08361"})
    pdf = write_pdf(tmp_path / "x.pdf",
                    [["Scaling Laws", "arXiv:2001.08361v1 [cs.LG] 23 Jan 2020"]])
    before = seed_lib.stats()["papers"]
    got = seed_lib.pdf.attach(None, pdf).result
    assert got["paper_id"] == pid and not got["new_paper"]
    assert seed_lib.stats()["papers"] == before


def test_a_pdf_naming_no_paper_becomes_one_and_undo_takes_both(seed_lib, tmp_path, offline):
    before = content(seed_lib.path)
    pdf = write_pdf(tmp_path / "scan.pdf", [["A Paper Seen Only As A PDF", "Some body text."]])
    changes = seed_lib.pdf.attach(None, pdf)
    got = changes.result
    assert got["new_paper"]
    paper = seed_lib.paper(got["paper_id"])
    assert paper["title"] == "A Paper Seen Only As A PDF"
    assert json.loads(seed_lib.db.execute("SELECT sources FROM papers WHERE id = ?",
                                          [got["paper_id"]]).fetchone()[0]
                      )["title"]["source"] == "pdf"
    assert {"paper_set", "attachments"} <= changes.kinds
    seed_lib.undo(changes.undo)
    assert content(seed_lib.path) == before


def test_offline_a_pdf_with_an_unknown_arxiv_id_is_a_paper_with_the_pdfs_title(
        lib, tmp_path, offline):
    pdf = write_pdf(tmp_path / "2401.99999v2.pdf",
                    [["Quiet Transformers Listen", "arXiv:2401.99999v2 [cs.CL] 3 Jan 2024"]],
                    title="Quiet Transformers Listen")
    got = lib.pdf.attach(None, pdf).result
    paper = lib.paper(got["paper_id"])
    assert paper["arxiv_id"] == "2401.99999" and paper["title"] == "Quiet Transformers Listen"
    assert paper["citekey"] != "arxiv"  # the provisional key follows the PDF's title


def _hostile(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    good = write_pdf(tmp_path / "good.pdf", [["words"]]).read_bytes()
    data = {"encrypted.pdf": encrypted_pdf(), "empty.pdf": b"", "cut.pdf": good[:180],
            "words.pdf": b"plain words, not a PDF\n" * 40, "nested.pdf": nested_pdf(20000),
            "million.pdf": claims_pages(1_000_000), "tree.pdf": nested_tree_pdf(5000)}.get(name)
    if name == "huge.pdf":
        with open(path, "wb") as f:  # sparse: a size past the cap, no disk used
            f.truncate(store.MAX_BYTES + 1)
    else:
        path.write_bytes(data)  # type: ignore[arg-type]
    return path


HOSTILE = ["encrypted.pdf", "empty.pdf", "cut.pdf", "words.pdf", "million.pdf", "huge.pdf",
           "tree.pdf"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_files_get_one_line_and_leave_the_library_as_it_was(seed_lib, tmp_path,
                                                                     name, offline):
    path = _hostile(tmp_path, name)
    before = content(seed_lib.path)
    for paper in (1, None):
        with pytest.raises(PdfError) as caught:
            seed_lib.pdf.attach(paper, path)
        message = str(caught.value)
        assert "\n" not in message and name in message and "nothing was attached" in message
    assert content(seed_lib.path) == before and stored_files(seed_lib) == []


def test_objects_nested_thousands_deep_are_read_as_the_page_they_hold(lib, tmp_path):
    """PDFium bounds the depth it parses (in the sandbox): arrays nested 20,000 deep
    beside the page's contents are left unread and the page reads, so the file is
    attached as the one page it shows. A page tree nested 5,000 deep hides its page:
    refused, one line (``test_hostile_files_get_one_line...``, tree.pdf)."""
    got = lib.pdf.attach(None, _hostile(tmp_path, "nested.pdf")).result
    assert got["pages"] == 1 and got["new_paper"]
    with pytest.raises(PdfError, match=r"^tree\.pdf has a page that cannot be loaded \(its "
                                       r"page tree .*\(page 1 of 1\); nothing was attached$"):
        lib.pdf.attach(None, _hostile(tmp_path, "tree.pdf"))


def test_a_merge_moves_the_files_and_keeps_an_identical_one_once(seed_lib, pdf, tmp_path):
    other = write_pdf(tmp_path / "other.pdf", [["Another file"]])
    seed_lib.pdf.attach(1, pdf)
    seed_lib.pdf.attach(2, pdf)
    seed_lib.pdf.attach(2, other)
    merged = seed_lib.duplicates.merge(1, [2])
    rows = seed_lib.pdf.of_paper(1)
    assert len(rows) == 2 and all(r["state"] == "ok" for r in rows)
    assert {r["sha256"] for r in rows} == {store.digest(pdf)[0], store.digest(other)[0]}
    seed_lib.undo(merged.undo)
    assert [len(seed_lib.pdf.of_paper(p)) for p in (1, 2)] == [1, 2]


def test_the_trash_keeps_files_until_it_is_emptied(seed_lib, pdf, tmp_path):
    other = write_pdf(tmp_path / "other.pdf", [["Another file"]])
    kept = seed_lib.pdf.attach(1, pdf).result
    gone = seed_lib.pdf.attach(3, other).result
    removed = seed_lib.pdf.attach(4, write_pdf(tmp_path / "third.pdf", [["Third"]])).result
    seed_lib.pdf.remove(removed["attachment_id"])
    seed_lib.trash.delete([3])
    assert len(stored_files(seed_lib)) == 3  # in the trash, removed: still kept
    seed_lib.trash.empty()
    assert stored_files(seed_lib) == [kept["path"]]
    assert seed_lib.pdf.of_paper(3) == [] and gone["path"] not in stored_files(seed_lib)


def test_emptying_the_trash_keeps_the_copy_an_unmerge_gives_back(seed_lib, pdf):
    seed_lib.pdf.attach(1, pdf)
    twin = seed_lib.pdf.attach(2, pdf).result
    merged = seed_lib.duplicates.merge(1, [2])
    assert len(seed_lib.pdf.of_paper(1)) == 1
    seed_lib.trash.empty()
    assert twin["path"] in stored_files(seed_lib)
    seed_lib.duplicates.unmerge(merged.result["merge_id"])
    assert [r["state"] for r in seed_lib.pdf.of_paper(2)] == ["ok"]


def test_a_linked_file_that_went_missing_reads_missing_and_is_located(seed_lib, pdf,
                                                                      tmp_path):
    got = seed_lib.pdf.attach(5, pdf, link=True).result
    assert got["kind"] == "linked" and got["path"] == str(pdf) and stored_files(seed_lib) == []
    moved = tmp_path / "moved" / "paper.pdf"
    moved.parent.mkdir()
    pdf.rename(moved)
    assert seed_lib.pdf.get(got["attachment_id"])["state"] == "missing"
    assert [r["state"] for r in seed_lib.pdf.listing()] == ["missing"]
    with pytest.raises(PdfError, match=r"is missing .*pdf locate"):
        seed_lib.pdf.file(got["attachment_id"])
    located = seed_lib.pdf.locate(got["attachment_id"], moved)
    assert seed_lib.pdf.get(got["attachment_id"])["state"] == "ok"
    assert seed_lib.pdf.file(got["attachment_id"]) == moved
    seed_lib.undo(located.undo)
    assert seed_lib.pdf.get(got["attachment_id"])["state"] == "missing"


def test_open_runs_the_viewer_on_the_file(seed_lib, pdf, tmp_path, monkeypatch):
    got = seed_lib.pdf.attach(1, pdf).result
    said = tmp_path / "opened.txt"
    script = tmp_path / "viewer.py"
    script.write_text("import sys, pathlib\n"
                      f"pathlib.Path({str(said)!r}).write_text(sys.argv[1])\n")
    monkeypatch.setenv("PAPERDESK_PDF_OPENER", f"{sys.executable} {script}")
    process = seed_lib.pdf.open(got["attachment_id"])
    assert process is not None and process.wait(60) == 0
    assert said.read_text() == str(store.files_folder(seed_lib.path) / got["path"])
    os.unlink(said.read_text())
    with pytest.raises(PdfError, match="is missing"):
        seed_lib.pdf.open(got["attachment_id"])


def test_the_listing_follows_a_query(seed_lib, pdf):
    pid = seed_lib.search("scaling").ids[0]
    seed_lib.pdf.attach(pid, pdf)
    assert [r["paper_id"] for r in seed_lib.pdf.listing("scaling")] == [pid]
    assert seed_lib.pdf.listing("zzzznothing") == []
