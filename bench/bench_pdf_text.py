"""The text of PDFs: extraction, pdf:word, and the window's keystrokes while it indexes.

On the corpus ``pdf_corpus.py`` writes (1,000 PDFs of 16 pages: 16,000 pages), each PDF
linked to a paper of a 1,000-paper library:

1. Indexing every PDF (``lib.fulltext.index(rebuild=True)``: the sandbox process,
   NFKC and hyphen joining, SHA-256, the FTS5 writes) beside raw pypdfium2 in this
   process reading the text of every page of the same files; target: at least 90% of
   raw speed (the time at most the floor / 0.9). Noted beside it: the same floor in a
   process started with the allocator settings PaperDesk gives its PDF child (a
   quarter of raw pypdfium2's time in a default process is page faults), so that what
   the pipeline itself costs is seen too.
2. ``lib.search("pdf:WORD")`` for a word on one page, a word on every page and a
   phrase, beside the raw FTS5 query on the full-text file (target 50 ms). Each
   answer is checked (the one paper, the page the phrase is on).
3. A keystroke in the window's search box to the repainted table while the window's
   background indexer runs (``gui/pdf/fulltext_feature.py``, from an empty full-text
   file), words and pdf: words, beside the same keystrokes once the indexer is stopped
   (target 50 ms); the raw FTS5 query and the UI thread's own CPU time a keystroke
   (``time.thread_time``: what is left of the wall time is waiting) are noted.

    .venv/bin/python bench/bench_pdf_text.py [--files 1000] [--pages 16] [--runs 1]
        [--only extraction|queries|keys]
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import OUT, command_line, header, median_time, note, options, report
from pdf_corpus import corpus, library_with


def raw_extraction(paths: list[Path]) -> int:
    """The floor: pypdfium2 here, the text of every page, nothing else."""
    import pypdfium2 as pdfium

    pages = 0
    for path in paths:
        doc = pdfium.PdfDocument(path)
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
            pages += 1
        doc.close()
    return pages


def raw_tuned(paths: list[Path]) -> float:
    """The same floor in a process started as PaperDesk starts its PDF child (glibc's
    allocator keeping freed memory: ``core/model/child_env.py``): its time, taken there."""
    import subprocess

    from paperdesk.core.model.child_env import TUNABLES

    code = ("import sys, time; sys.path[:0] = sys.argv[1:3]; "
            "from bench_pdf_text import raw_extraction; from pathlib import Path; "
            "paths = [Path(p) for p in sys.argv[3:]]; t = time.perf_counter(); "
            "raw_extraction(paths); print(time.perf_counter() - t)")
    here = Path(__file__).resolve().parent
    done = subprocess.run([sys.executable, "-c", code, str(here), str(here.parent / "src"),
                           *map(str, paths)], capture_output=True, text=True, check=True,
                          env={**os.environ, "GLIBC_TUNABLES": TUNABLES})
    return float(done.stdout.split()[-1])


def bench_extraction(lib, paths: list[Path], runs: int) -> bool:
    header(f"Extracting the text of {len(paths):,} PDFs")
    floors, ours, tuned = [], [], []
    for _ in range(runs):  # alternated, so that the machine's load falls on all three
        start = time.perf_counter()
        pages = raw_extraction(paths)
        floors.append(time.perf_counter() - start)
        start = time.perf_counter()
        done = lib.fulltext.index(rebuild=True)
        ours.append(time.perf_counter() - start)
        assert done.indexed == len(paths) and done.pages == pages and not done.failed, done
        tuned.append(raw_tuned(paths))
    floor, figure = statistics.median(floors), statistics.median(ours)
    ok = report(f"index {len(paths):,} PDFs, {pages:,} pages (>= 90% raw)", figure, floor,
                floor / 0.9)
    note(f"raw pypdfium2 {floor / pages * 1000:.2f} ms a page; indexed "
         f"{figure / pages * 1000:.2f} ms a page: {floor / figure:.0%} of raw speed")
    fair = statistics.median(tuned)
    note(f"raw pypdfium2 with the allocator PaperDesk gives its PDF child: "
         f"{fair / pages * 1000:.2f} ms a page; indexed at {fair / figure:.0%} of that "
         "(what the sandbox, normalising and the FTS5 writes cost)")
    return ok


def bench_queries(lib, files: int, pages: int, runs: int) -> list[bool]:
    doc, page = files // 2, pages - 1
    rare = f"d{doc:03d}p{page:02d}"
    paper = lib.search(f"pdf:{rare}").ids
    assert len(paper) == 1, paper
    hits = lib.fulltext.hits(paper, f'pdf:"marker {rare}"')[paper[0]]
    assert [h["page"] for h in hits] == [page], hits
    assert len(lib.search("pdf:marker").ids) == files
    assert len(lib.search("pdf:efficient").ids) == files  # set with the fi ligature
    assert len(lib.search("pdf:optimization").ids) > 0  # hyphenated at a line's end
    raw = sqlite3.connect(f"file:{lib.fulltext.path}?mode=ro", uri=True)
    header(f"pdf: queries on {files * pages:,} pages")
    results = []
    for label, query, fts in (("one page's word", f"pdf:{rare}", f'"{rare}"'),
                              ("a word on every page", "pdf:marker", '"marker"'),
                              ("a phrase", f'pdf:"marker {rare}"', f'"marker {rare}"')):
        figure = median_time(lambda q=query: lib.search(q), runs * 5)
        floor = median_time(lambda f=fts: raw.execute(
            "SELECT rowid FROM page_texts_fts WHERE page_texts_fts MATCH ?", [f]).fetchall(),
            runs * 5)
        results.append(report(f"lib.search {label} ({query})", figure, floor, 0.05))
    hit_time = median_time(lambda: lib.fulltext.hits(paper, f"pdf:{rare}"), runs * 5)
    note(f"a selected paper's hits and snippets: {hit_time * 1000:.1f} ms")
    raw.close()
    return results


def bench_keystrokes(path: Path, runs: int) -> bool:
    from PySide6.QtWidgets import QApplication

    from paperdesk.core.library import Library
    from paperdesk.gui.main_window import MainWindow

    fulltext = path.with_name(path.stem + ".fulltext.sqlite")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{fulltext}{suffix}").unlink(missing_ok=True)
    app = QApplication.instance() or QApplication([])
    lib = Library.open(path)
    window = MainWindow(lib)
    window.resize(1440, 820)
    window.show()
    app.processEvents()
    feature = window.context.features["fulltext"]
    raw = sqlite3.connect(path)
    queries = itertools.cycle(["scaling", "pdf:marker", "sparse agents", "pdf:efficient",
                               "robust", 'pdf:"marker d010p03"', "language",
                               "pdf:optimization"])
    during = []
    cpu: list[float] = []  # the UI thread's own CPU time a keystroke (the rest is waiting)

    def search(_: object = None) -> None:
        running = feature.thread is not None
        started = time.thread_time()
        window.search_bar.edit.setText(next(queries))
        window.search_bar.fire()
        window.feed.view.viewport().repaint()
        cpu.append(time.thread_time() - started)
        during.append(running and feature.thread is not None)

    def idle(_: object = None) -> None:
        deadline = time.perf_counter() + 0.2
        while time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.005)

    floor_words = iter(["scaling", "sparse agents", "robust", "language"] * 20)
    header("Window: a keystroke while the background indexer runs")
    idle()
    figure = median_time(search, runs * 16, idle)
    timed, indexed = sum(during), feature.status.text()
    cpu_indexing = statistics.median(cpu)
    feature.stop()  # the floor: the same keystrokes with no indexer
    during.clear()
    cpu.clear()
    floor = median_time(search, runs * 16, idle)
    ok = report("search keystroke to repainted table, indexing", figure, floor, 0.05)
    note(f"the UI thread's own CPU time a keystroke: {cpu_indexing * 1000:.1f} ms indexing, "
         f"{statistics.median(cpu) * 1000:.1f} ms stopped (the rest of the wall time it "
         "waited for a core, the interpreter's lock or a database)")
    fts = median_time(lambda: raw.execute(
        "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?",
        [" ".join(f'"{w}"' for w in next(floor_words).split())]).fetchall(), runs * 16)
    note(f"floor: the same keystrokes with the indexer stopped; {timed} of {runs * 16} "
         f"timed while it ran (status bar then: {indexed!r}); raw FTS5 {fts * 1000:.1f} ms")
    feature.stop()
    window.close()
    raw.close()
    lib.close()
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = command_line(__doc__, 1)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--only", choices=("extraction", "queries", "keys"))
    args = options(parser, argv)
    paths = corpus(OUT / "pdf-corpus", args.files, args.pages)
    path = OUT / f"pdf-bench-{args.files}" / "library.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob("library*"):
        old.unlink()
    lib = library_with(path, paths)
    results = []
    if args.only in (None, "extraction", "queries"):
        if args.only == "queries":
            lib.fulltext.index()
        else:
            results.append(bench_extraction(lib, paths, args.runs))
        if args.only != "extraction":
            results += bench_queries(lib, args.files, args.pages, args.runs)
    lib.close()
    if args.only in (None, "keys"):
        results.append(bench_keystrokes(path, args.runs))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
