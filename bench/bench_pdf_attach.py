"""Attaching PDFs: PaperDesk's attach against reading and copying the same file raw.

    python bench/bench_pdf_attach.py [--pages 30] [--files 40]

Generated PDFs (``tests/pdf_files.py``) of N pages each, attached one by one to the
papers of a new library through ``lib.pdf.attach`` (the PDF read in the sandbox
process, hashed, copied whole with fsync, the row written in an undoable edit). The
floor is the same work without PaperDesk: pypdfium2 in this process reading the page
count, metadata and first page, then a SHA-256 and a copy with fsync. The first
attach (which starts the sandbox process) is timed apart. No target in the issue; the
figures say what a drop costs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, header, note, report

sys.path.insert(0, str(ROOT))

from tests.pdf_files import write_pdf

from paperdesk.core.library import Library


def raw(path: Path, dest: Path) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    len(doc)
    doc.get_metadata_dict()
    page = doc[0]
    text = page.get_textpage()
    text.get_text_range()
    text.close()
    page.close()
    doc.close()
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    shutil.copyfile(path, dest)
    fd = os.open(dest, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    assert sha


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--files", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        top = Path(folder)
        pdfs = [write_pdf(top / f"p{i}.pdf",
                          [[f"Paper {i} page {n + 1}", "Some words on it." * 4]
                           for n in range(args.pages)], title=f"Generated paper {i}")
                for i in range(args.files + 1)]
        os.environ.update(HF_HUB_OFFLINE="1", PAPERDESK_ARXIV_API="http://127.0.0.1:9/x",
                          PAPERDESK_CROSSREF_API="http://127.0.0.1:9")
        lib = Library.open(top / "bench.sqlite", new=True)
        try:
            began = time.perf_counter()
            lib.pdf.attach(None, pdfs[0])  # starts the sandbox, makes the first paper
            first = time.perf_counter() - began
            times = []
            for pdf in pdfs[1:]:
                began = time.perf_counter()
                lib.pdf.attach(None, pdf)
                times.append(time.perf_counter() - began)
        finally:
            lib.close()
        size = pdfs[0].stat().st_size
        floors = []
        for i, pdf in enumerate(pdfs[1:]):
            began = time.perf_counter()
            raw(pdf, top / f"raw{i}.pdf")
            floors.append(time.perf_counter() - began)
    header(f"Attaching {args.files} PDFs of {args.pages} pages "
           f"({size / 1024:.0f} KB each), a new paper each")
    report("first attach (the sandbox process starts)", first, None, None)
    report("an attach, median", statistics.median(times), statistics.median(floors), None)
    note("floor: pypdfium2 in-process (count, metadata, page 1), SHA-256, copy + fsync")


if __name__ == "__main__":
    main()
