"""The full text of the PDFs: NAME.fulltext.sqlite, its indexer and pdf:/has:pdf.

Real PDFs in the files folder, a real library, the real sandbox process.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading

import pytest

from paperdesk.core.db import fulltext_db
from paperdesk.core.model.errors import QueryError
from paperdesk.core.pdf import normalise
from tests.pdf_files import encrypted_pdf
from tests.pdf_library import attach_bytes, attach_pdf, paper_ids

FIRST = [["Known phrase quokka marmalade on page one.", "Nothing else."],
         ["The \ufb01rst ef\ufb02uent of the second page, a hyphen-", "ated word."],
         ["Third page: zebra xylophone, and a self-", "Attention block."]]
SECOND = [["Another paper. Its page one speaks of marmalade too."],
          ["Page two: quokka marmalade is the known phrase here as well."]]


def rows(path) -> dict[str, list]:
    """The full-text file's content, as a rebuild must make it again."""
    conn = sqlite3.connect(path)
    try:
        return {"pages": conn.execute("SELECT id, attachment_id, page, text FROM page_texts "
                                      "ORDER BY attachment_id, page").fetchall(),
                "states": conn.execute("SELECT * FROM extractions ORDER BY 1").fetchall(),
                "integrity": conn.execute("INSERT INTO page_texts_fts (page_texts_fts) "
                                          "VALUES ('integrity-check')").fetchall()}
    finally:
        conn.close()


@pytest.fixture
def pdf_lib(seed_lib):
    one, two, _ = paper_ids(seed_lib, 3)
    seed_lib.test_papers = (one, two)
    seed_lib.test_attachments = (attach_pdf(seed_lib, one, FIRST, "first.pdf"),
                                 attach_pdf(seed_lib, two, SECOND, "second.pdf"))
    return seed_lib


def test_known_phrases_on_known_pages(pdf_lib) -> None:
    report = pdf_lib.fulltext.index()
    assert (report.indexed, report.pages, report.failed) == (2, 5, [])
    one, two = pdf_lib.test_papers
    assert sorted(pdf_lib.search('pdf:"quokka marmalade"').ids) == sorted([one, two])
    assert pdf_lib.search("pdf:zebra").ids == [one]
    assert pdf_lib.search('pdf:"marmalade is the known"').ids == [two]
    assert pdf_lib.search('pdf:"marmalade on page two"').ids == []
    hits = pdf_lib.fulltext.hits([one, two], 'pdf:"quokka marmalade"')
    assert [(h["name"], h["page"]) for h in hits[one]] == [("first.pdf", 0)]
    assert [(h["name"], h["page"]) for h in hits[two]] == [("second.pdf", 1)]
    assert hits[two][0]["snippet"] == ("Page two: [quokka marmalade] is the known phrase "
                                       "here as well.")


def test_ligatures_and_hyphenation(pdf_lib) -> None:
    pdf_lib.fulltext.index()
    one, _ = pdf_lib.test_papers
    assert pdf_lib.search("pdf:first").ids == [one]  # set with the ligature fi
    assert pdf_lib.search("pdf:effluent").ids == [one]  # ff + the ligature fl
    assert pdf_lib.search("pdf:hyphenated").ids == [one]  # joined across the line end
    assert pdf_lib.search("pdf:ated").ids == []
    assert pdf_lib.search('pdf:"self-attention"').ids == [one]  # a hyphen kept, capital


def test_normalise_splits_ligatures_and_joins_line_end_hyphens() -> None:
    assert normalise.normalise("e\ufb03cient \ufb01ne \ufb00 \ufb06") == "efficient fine ff st"
    assert normalise.normalise("hyphen-\r\nated and con\u00ad\nsider") == "hyphenated and consider"
    assert normalise.normalise("PDFium's hyphen\ufffeated") == "PDFium's hyphenated"
    assert normalise.normalise("Self-\nAttention, 2020-\n2021") == "Self-Attention, 2020- 2021"
    assert normalise.normalise("a\x00b\r\n\tc  d") == "a b c d"


def test_has_pdf_and_queries_combined(pdf_lib) -> None:
    one, two = pdf_lib.test_papers
    assert sorted(pdf_lib.search("has:pdf").ids) == sorted([one, two])
    without = pdf_lib.search("-has:pdf").ids
    assert one not in without and two not in without
    assert len(without) + 2 == pdf_lib.stats()["papers"]
    assert pdf_lib.search("pdf:zebra").ids == []  # nothing indexed yet: nothing found
    pdf_lib.fulltext.index()
    assert sorted(pdf_lib.search('pdf:zebra OR pdf:"is the known"').ids) == sorted([one, two])
    assert pdf_lib.search("pdf:marmalade -pdf:zebra").ids == [two]
    assert pdf_lib.search("pdf:xylo*").ids == [one]
    for bad in ("pdf:", "pdf:%", "pdf:x*"):
        with pytest.raises(QueryError):
            pdf_lib.search(bad)


def test_unreadable_files_are_one_line_each_and_not_read_again(pdf_lib) -> None:
    one, _ = pdf_lib.test_papers
    attach_bytes(pdf_lib, one, encrypted_pdf(), "locked.pdf")
    attach_bytes(pdf_lib, one, b"%PDF-1.4 and then nothing", "cut.pdf")
    report = pdf_lib.fulltext.index()
    assert report.indexed == 4
    assert sorted(report.failed) == ["cut.pdf is not a PDF, or is damaged",
                                     "locked.pdf is encrypted (it needs a password)"]
    again = pdf_lib.fulltext.index()
    assert (again.indexed, again.current, again.failed) == (0, 4, [])
    assert pdf_lib.fulltext.status() == {"attachments": 4, "indexed": 4, "waiting": 0,
                                         "failed": 2, "pages": 5}


def test_a_missing_file_is_reported_and_tried_again(pdf_lib) -> None:
    folder = pdf_lib.path.with_name(pdf_lib.path.stem + ".files")
    moved = folder / "p_moved.pdf"
    first = next(folder.rglob("first.pdf"))
    first.rename(moved)
    report = pdf_lib.fulltext.index()
    assert report.missing == ["first.pdf is missing"]
    assert report.indexed == 1
    moved.rename(first)
    assert pdf_lib.fulltext.index().indexed == 1


def test_rebuild_and_delete_make_the_same_rows(pdf_lib) -> None:
    pdf_lib.fulltext.index()
    path = pdf_lib.fulltext.path
    assert path.name == "library.fulltext.sqlite" and path.parent == pdf_lib.path.parent
    first = rows(path)
    assert len(first["pages"]) == 5
    report = pdf_lib.fulltext.index(rebuild=True)
    assert report.indexed == 2 and rows(path) == first
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    assert pdf_lib.search("pdf:zebra").ids == []  # the file is gone: nothing found
    assert pdf_lib.fulltext.index().indexed == 2
    assert rows(path) == first
    assert pdf_lib.search("pdf:zebra").ids == [pdf_lib.test_papers[0]]  # found again


def test_normalised_in_the_sandbox_the_same_rows(pdf_lib) -> None:
    """The window's way (the pages normalised in the sandbox) makes the same rows."""
    pdf_lib.fulltext.index()
    here = rows(pdf_lib.fulltext.path)
    assert pdf_lib.fulltext.index(rebuild=True, normalise_here=False).indexed == 2
    assert rows(pdf_lib.fulltext.path) == here


def test_a_new_extractor_reads_everything_again(pdf_lib, monkeypatch) -> None:
    assert pdf_lib.fulltext.index().indexed == 2
    assert pdf_lib.fulltext.index().indexed == 0
    monkeypatch.setattr(normalise, "VERSION", normalise.VERSION + 1)
    normalise.extractor.cache_clear()
    try:
        assert pdf_lib.fulltext.status()["waiting"] == 2
        assert pdf_lib.fulltext.index().indexed == 2
    finally:
        normalise.extractor.cache_clear()


def test_a_removed_attachment_is_forgotten(pdf_lib) -> None:
    from paperdesk.core.db import attachments_table
    from paperdesk.core.db import changes as ch

    pdf_lib.fulltext.index()
    one, _ = pdf_lib.test_papers
    with pdf_lib.edit("Remove", {ch.ATTACHMENTS}, [one]):
        attachments_table.delete(pdf_lib.db, pdf_lib.test_attachments[0])
    assert pdf_lib.search("pdf:zebra").ids == []  # the library has no such attachment
    assert pdf_lib.fulltext.index().removed == 1
    assert len(rows(pdf_lib.fulltext.path)["pages"]) == 2


def test_cancel_keeps_what_was_done(pdf_lib) -> None:
    flag = threading.Event()
    seen = []

    def progress(fraction: float, message: str) -> None:
        seen.append(message)
        if fraction > 0:
            flag.set()  # after the first file

    report = pdf_lib.fulltext.index(progress=progress, cancel=flag)
    assert report.cancelled and report.indexed == 1
    assert seen[0] == "Indexing the text of PDFs: 0 of 2"
    flag.clear()
    assert pdf_lib.fulltext.index().indexed == 1


def test_a_damaged_fulltext_file_is_made_again(pdf_lib) -> None:
    path = pdf_lib.fulltext.path
    path.write_bytes(b"this is not a database" * 100)
    assert pdf_lib.search("pdf:zebra").ids == []
    assert pdf_lib.fulltext.index().indexed == 2
    assert pdf_lib.search("pdf:zebra").ids == [pdf_lib.test_papers[0]]
    assert path.with_name(path.name + ".damaged").exists()


def test_the_file_is_no_more_readable_than_the_library(pdf_lib) -> None:
    pdf_lib.path.chmod(0o600)
    pdf_lib.fulltext.index()
    assert fulltext_db.path_of(pdf_lib.path).stat().st_mode & 0o077 == 0


def _index_niceness(lib, **how) -> set[int]:
    """The priority of the sandbox processes an indexing starts, seen while it runs."""
    import time

    import psutil

    me, start, seen = psutil.Process(), time.time() - 1, set()

    def progress(_fraction: float, _message: str) -> None:
        for child in me.children():
            with contextlib.suppress(psutil.Error):
                if child.create_time() >= start:
                    seen.add(child.nice())

    lib.fulltext.index(rebuild=True, progress=progress, **how)
    return seen


def test_a_command_indexes_at_its_own_priority_the_window_below_it(pdf_lib) -> None:
    import psutil

    mine = psutil.Process().nice()
    assert _index_niceness(pdf_lib) == {mine}
    assert _index_niceness(pdf_lib, background=True) == {min(mine + 10, 19)}
