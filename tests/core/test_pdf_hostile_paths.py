"""Every hostile file through every path that reads a PDF: attached (with a paper and
without: ``test_pdf_attach``, ``test_cli_pdf``), indexed and rendered. Each is one line
naming the file, the library is as it was, and the sandbox reads the next file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf import store
from paperdesk.core.pdf.sandbox import PdfSandbox
from tests.pdf_files import claims_pages, encrypted_pdf, nested_pdf, nested_tree_pdf, write_pdf

GOOD = [["A page of words"], ["and another"]]


def hostile(folder: Path, name: str) -> Path:
    path = folder / name
    good = write_pdf(folder / "good-source.pdf", GOOD).read_bytes()
    data = {"encrypted.pdf": encrypted_pdf(), "empty.pdf": b"", "cut.pdf": good[:180],
            "words.pdf": b"plain words, not a PDF\n" * 40,
            "million.pdf": claims_pages(1_000_000), "tree.pdf": nested_tree_pdf(5000)}
    if name == "huge.pdf":
        with open(path, "wb") as f:  # sparse: past the size PaperDesk stores, no disk used
            f.write(good)
            f.truncate(store.MAX_BYTES + 1)
    else:
        path.write_bytes(data[name])
    return path


SAID = {"encrypted.pdf": "is encrypted (it needs a password)",
        "empty.pdf": "is empty",
        "cut.pdf": "is not a PDF, or is damaged",
        "words.pdf": "is not a PDF, or is damaged",
        "million.pdf": "has a page that cannot be loaded",
        "tree.pdf": "has a page that cannot be loaded",
        "huge.pdf": "is larger than PaperDesk reads (1,024 MB; at most 1,024 MB)"}
NAMES = sorted(SAID)


def library_rows(path: Path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("papers", "attachments", "highlights", "notes")}
    finally:
        conn.close()


@pytest.fixture
def linked(seed_lib, tmp_path):
    """Each hostile file linked to a paper, as a good PDF when attached and changed
    under the library after (attach itself refuses them)."""
    folder = tmp_path / "pdfs"
    folder.mkdir()
    pids = seed_lib.search("").ids
    paths = {}
    for pid, name in zip(pids, NAMES, strict=False):
        path = write_pdf(folder / name, GOOD)
        seed_lib.pdf.attach(pid, path, link=True)
        paths[name] = path
    for name in NAMES:
        hostile(folder, name)
    return seed_lib, paths


def test_the_indexer_says_each_file_in_one_line_and_goes_on(linked, tmp_path):
    lib, _paths = linked
    lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = library_rows(lib.path)
    good = write_pdf(tmp_path / "fine.pdf", GOOD)
    lib.pdf.attach(lib.search("").ids[-1], good, link=True)
    report = lib.fulltext.index()
    assert report.indexed == len(NAMES) + 1
    lines = sorted(report.failed)
    assert len(lines) == len(NAMES) and all("\n" not in line for line in lines)
    for name, line in zip(NAMES, lines, strict=True):
        assert line.startswith(name) and SAID[name] in line, line
    assert lib.search("pdf:words").ids == [lib.search("").ids[-1]]  # the good one read
    rows = library_rows(lib.path)
    assert rows["papers"] == before["papers"] and rows["highlights"] == before["highlights"]
    assert len(rows["attachments"]) == len(before["attachments"]) + 1


@pytest.mark.parametrize("name", NAMES)
def test_rendering_says_each_file_in_one_line_and_the_sandbox_goes_on(tmp_path, name):
    path = hostile(tmp_path, name)
    good = write_pdf(tmp_path / "fine.pdf", GOOD)
    page = 1 if name == "million.pdf" else 0  # its first page is there, the next not
    with PdfSandbox() as pdf:
        for task in (lambda: pdf.render(path, page, 1.0), lambda: pdf.boxes(path, page)):
            with pytest.raises(PdfError) as caught:
                task()
            message = str(caught.value)
            assert "\n" not in message and message.startswith(name) and SAID[name] in message
        assert pdf.render(good, 0, 1.0).width == 612


def test_arrays_nested_thousands_deep_read_as_their_page_everywhere(tmp_path):
    path = tmp_path / "nested.pdf"
    path.write_bytes(nested_pdf(100_000))
    with PdfSandbox() as pdf:
        assert pdf.text(path) == ["nested"]
        assert pdf.render(path, 0, 1.0).width == 612
