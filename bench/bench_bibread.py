"""Reading a large .bib file's entries into BibPapers, in one process, without a library:
the per-entry work of the import (scanner, macros, LaTeX decoding, names, dates, ids).

The files are bench_bibfile.py's (TeX Live's tugboat.bib replicated, and arXiv-style
entries with abstracts, 100,000 entries each, made under bench/out/ when missing). The
figure is the median CPU seconds of ``BibReader(text).papers()`` over the whole file;
the floor, same run, is the scanner alone (blocks found and raw field values cut out,
nothing decoded). ``--src DIR`` measures another checkout's code (``DIR`` is its
``src``), for a before and after in the same minutes.

A second figure is a reading process's whole work, per entry: the import's chunks
(``bibtex_import._byte_chunks``, 1,000 entries each) unpickled as they arrive, read
(``bib_records.read_chunk``: the fields above, the kept entry's JSON, title keys) and
their results pickled; beside it, the importing process's unpickling of the results.

    .venv/bin/python bench/bench_bibread.py [--runs 3] [--only real|arxiv] [--src DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import generate
from bench_bibfile import arxiv_file, tugboat_file
from common import OUT, ROOT, header, note, report

MEASURE = """
import json, statistics, sys, time
from paperdesk.core.bibtex import bib_scan
from paperdesk.core.bibtex.bib_read import BibReader
text = open(sys.argv[1], encoding="utf-8").read()
read, scanned = [], []
from paperdesk.core.bibtex import latex_read
for _ in range(int(sys.argv[2])):
    # each run as a reading process meets the file: no formula read before
    getattr(latex_read._math, "cache_clear", lambda: None)()
    start = time.process_time()
    count = sum(1 for _ in BibReader(text, "bench.bib").papers())
    read.append(time.process_time() - start)
    start = time.process_time()
    for seg in bib_scan.segments(text):
        if seg.fast:
            bib_scan.read_fast(text, seg)
    scanned.append(time.process_time() - start)
import pickle
from paperdesk.core.importing import bibtex_import
from paperdesk.core.importing.bib_records import chunk_reader
reader = BibReader(text, "bench.bib")
chunks = [pickle.dumps(c) for c in bibtex_import._byte_chunks(
    reader.text, reader.text.encode("utf-8"), reader.found)]
work, received = [], []
for _ in range(int(sys.argv[2])):
    getattr(latex_read._math, "cache_clear", lambda: None)()
    read_chunk = chunk_reader(reader.strings, reader.found.string_keys, "bench.bib", False)
    start = time.process_time()
    sent = [pickle.dumps(read_chunk(pickle.loads(c)), -1) for c in chunks]
    work.append(time.process_time() - start)
    start = time.process_time()
    for result in sent:
        pickle.loads(result)
    received.append(time.process_time() - start)
print(json.dumps([count, statistics.median(read), statistics.median(scanned),
                  statistics.median(work), statistics.median(received),
                  sum(map(len, sent))]))
"""


def measure(bib: Path, runs: int, src: Path) -> list[float]:
    """Entries, then median CPU seconds: read, scanned, a reading process's work, the
    importing process's unpickling; then the bytes pickled."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", MEASURE, str(bib), str(runs)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("real", "arxiv"))
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--shape", choices=generate.SHAPES, default="real",
                        help="the arXiv-style file's shape (generate.py)")
    args = parser.parse_args()
    generate.set_shape(args.shape)
    OUT.mkdir(parents=True, exist_ok=True)
    for label, make in (("real-world (tugboat.bib replicated)", tugboat_file),
                        ("arXiv-style with abstracts", arxiv_file)):
        if args.only and not label.lower().startswith(args.only):
            continue
        bib = make(args.entries)
        count, read, scanned, work, received, size = measure(bib, args.runs,
                                                             args.src.resolve())
        header(f".bib {label}: {count:,} entries read, code from {args.src}")
        report("entries read into BibPapers, CPU seconds", read, scanned, None)
        note("floor = the scanner alone: blocks found, raw field values cut out")
        report("the reading processes' work, CPU seconds", work, scanned, None)
        note(f"{work / count * 1e6:.0f} us an entry: chunks unpickled, read into entry rows, "
             f"results pickled ({size / count:,.0f} bytes an entry); the importing process "
             f"unpickles them in {received / count * 1e6:.1f} us an entry; floor = the "
             "scanner alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
