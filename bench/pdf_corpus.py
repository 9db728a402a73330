"""A corpus of PDFs for the full-text benchmarks: 1,000 files of 16 pages (16,000 pages).

Written byte by byte (``tests/pdf_files.py``: a few milliseconds a file, no TeX), each
page about 45 lines of research prose in Helvetica from a fixed vocabulary, with what
real papers hold: words set with the ligature glyphs fi and fl (``efficient``,
``flow``, ``office``: Helvetica has no ffi), words hyphenated at a line's end, and a
known phrase of its own (``marker dDDDpPP``: file DDD, page PP) so a search can be
checked page by page.

    python bench/pdf_corpus.py [--files 1000] [--pages 16] [-o DIR]

``corpus(folder, files, pages)`` writes what is missing and returns the paths, so a
second run costs nothing. ``library_with(path, files)`` attaches them, one a paper, to
a library of the bench's own generator (the attachments' writer, as ``pdf attach
--link`` records a file).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

from common import OUT, ROOT

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.pdf_files import pdf_bytes

WORDS = ("model training data scaling attention layer token sequence language vision "
         "network learning sparse dense retrieval agent reward policy gradient loss "
         "benchmark dataset evaluation transformer diffusion latent encoder decoder "
         "inference memory compute parallel kernel graph reasoning alignment").split()
LIGATURED = ["ef\ufb01cient", "\ufb02ow", "of\ufb01ce", "\ufb01ne-tuning", "speci\ufb01c",
             "signi\ufb01cant", "\ufb01rst", "in\ufb02uence", "con\ufb01guration", "ef\ufb01cacy"]
HYPHENATED = [("representa", "tion"), ("optimiza", "tion"), ("generaliza", "tion"),
              ("architec", "ture"), ("perfor", "mance"), ("experi", "ments")]
LINES = 45


def page_lines(doc: int, page: int) -> list[str]:
    """The lines of page ``page`` of file ``doc``: deterministic."""
    rng = random.Random(doc * 1000 + page)
    lines = []
    for n in range(LINES):
        words = [rng.choice(WORDS) for _ in range(rng.randint(9, 13))]
        if n % 7 == 3:
            words.insert(rng.randint(0, len(words)), rng.choice(LIGATURED))
        if n == 20:
            words[3:3] = ["marker", f"d{doc:03d}p{page:02d}"]
        lines.append(" ".join(words))
    for n in range(5, LINES - 1, 9):  # a word broken at the line's end, its rest below
        head, tail = HYPHENATED[(doc + n) % len(HYPHENATED)]
        lines[n] += f" {head}-"
        lines[n + 1] = f"{tail} {lines[n + 1]}"
    return lines


def corpus(folder: Path, files: int = 1000, pages: int = 16) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for doc in range(files):
        path = folder / f"paper-{doc:04d}.pdf"
        if not path.exists():
            data = pdf_bytes([page_lines(doc, p) for p in range(pages)], title=f"Paper {doc}")
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        paths.append(path)
    return paths


def library_with(path: Path, pdfs: list[Path]):
    """A library of ``len(pdfs)`` papers at ``path``, one PDF linked to each."""
    from generate import make_library
    from paperdesk.core.db import attachments_table

    lib = make_library(path, len(pdfs))
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id")]
    with lib.write("Attach the corpus", ["attachments"]):
        for pid, pdf in zip(ids, pdfs, strict=True):
            data = pdf.read_bytes()
            attachments_table.insert(lib.db, {
                "paper_id": pid, "kind": "linked", "path": str(pdf), "name": pdf.name,
                "sha256": hashlib.sha256(data).hexdigest(), "size": len(data),
                "added_at": "2026-12-02T00:00:00Z"})
    return lib


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("-o", "--out", type=Path, default=OUT / "pdf-corpus")
    args = parser.parse_args(argv)
    paths = corpus(args.out, args.files, args.pages)
    size = sum(p.stat().st_size for p in paths)
    print(f"{len(paths):,} PDFs, {len(paths) * args.pages:,} pages, {size / 1e6:.1f} MB "
          f"in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
