"""A million papers: building the library, the window, the duplicate scan.

The library is generated (never committed): ``--papers`` (1,000,000) papers
imported as digests of ``--digest`` (50,000) entries each, one import after
another into the same library, as a lab archive would arrive. Printed:

1. Each import's time, the first and last few, and the peak memory of the
   building process (bounded: it must not grow with the library).
2. Whole processes on the result: ``stats --json``, a word search, and
   ``duplicates --json`` (time and peak memory; the scan must finish).
3. The window (offscreen, bench_gui's measures): start to first rows
   (target <= 1.5 s) and a search keystroke to the repainted table
   (target <= 100 ms at this size).

The built library is kept under bench/out/ and reused (``--rebuild`` to redo).

    .venv/bin/python bench/bench_million.py [--papers 1000000] [--runs 3] [--skip-gui]
        [--fast] [--skip-processes]

``--fast`` builds the library in set-based SQL instead (minutes, not the imports' 23):
the cached 100,000-paper build, then nine copies whose titles and abstracts are those of
two other papers. It is for the search and window figures only (its copies share their
sightings' figures and skip the duplicate scan).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import cache
from common import OUT, ROOT, header, note, own_peak, process_peak, report
from generate import VERSION, digest_text, plan_digest

# Measured as installed: with compiled bytecode (a shell that sets
# PYTHONDONTWRITEBYTECODE would make every process compile every module).

EXE = [sys.executable, "-m", "paperdesk"]


def build(target: Path, n: int, digest_size: int) -> None:
    """Import digests until the library holds ``n`` papers; print each import's figures."""
    from paperdesk.core.library import Library

    tmp = target.with_suffix(".building")
    for stale in tmp.parent.glob(tmp.name + "*"):
        stale.unlink()
    lib = Library.open(tmp)
    have = first = number = 0
    times: list[tuple[int, float]] = []
    digest = OUT / "million-digest.txt"
    started = time.perf_counter()
    while have < n:
        size = min(digest_size, n - have)
        entries, fresh, _copies = plan_digest(size, seed=0, first=first, older=first,
                                             near_share=0.01)
        digest.write_text(digest_text(entries, date=f"Dec {29 + number % 3}", seed=number),
                          encoding="utf-8")
        start = time.perf_counter()
        [result] = lib.import_paths([digest])
        seconds = time.perf_counter() - start
        if result.status != "imported":
            raise SystemExit(f"import failed: {result.status} {result.error}")
        have = lib.stats()["papers"]
        first += fresh
        number += 1
        times.append((have, seconds))
        peak = own_peak()
        note(f"import {number:>3}: {len(entries):,} entries in {seconds:5.1f} s -> "
             f"{have:,} papers (peak memory so far {peak:.0f} MB)")
    lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    lib.close()
    digest.unlink()
    total = time.perf_counter() - started
    peak = own_peak()
    header(f"Building {have:,} papers from {number} digests")
    report("whole build (imports, stats between them)", total, None, None)
    report("first import (into an empty library)", times[0][1], None, None)
    report("last import (into the full library)", times[-1][1], None, None)
    note(f"peak memory of the building process: {peak:.0f} MB; "
         f"file {tmp.stat().st_size / 2**20:.0f} MiB")
    shutil.move(str(tmp), target)


# The columns a fast copy takes from the paper whose title it borrows, from the one
# whose abstract it borrows, and from its own source paper.
_COPY = """
INSERT INTO papers (id, title, abstract, title_key, authors, author_count, organization,
  organization_handle, published, year, year_inferred, citekey, rating, status, upvotes,
  seen_count, added, modified, momentum)
SELECT a.id + :offset, t.title || ' ' || :k, b.abstract, t.title_key || ' ' || :k, a.authors,
  a.author_count, a.organization, a.organization_handle, a.published, a.year, a.year_inferred,
  a.citekey || '-' || :k, a.rating, a.status, a.upvotes, a.seen_count, a.added, a.modified,
  a.momentum
FROM papers a JOIN papers t ON t.id = (a.id * 7919 + :k * 104729) % :n + 1
              JOIN papers b ON b.id = (a.id * 15485863 + :k * 32452843) % :n + 1
WHERE a.id <= :n
"""


def build_fast(target: Path, n: int) -> None:
    """A library of ``n`` papers in set-based SQL, for the search and window figures:
    the cached 100,000-paper build, then copies whose title and abstract are those of
    two other papers (so every word is as frequent as in ``n`` generated papers) with
    the triggers off and the index written in one statement per copy."""
    from generate import make_library
    from paperdesk.core.db import schema

    base = 100_000
    tmp = target.with_suffix(".building")
    for stale in tmp.parent.glob(tmp.name + "*"):
        stale.unlink()
    started = time.perf_counter()
    make_library(tmp, base).close()
    conn = sqlite3.connect(tmp, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for k in range(1, n // base):
        conn.execute("BEGIN IMMEDIATE")
        for name in schema.TRIGGER_NAMES + schema.MOMENTUM_TRIGGER_NAMES:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(_COPY, {"offset": k * base, "k": k, "n": base})
        conn.execute("INSERT INTO papers_fts (rowid, title, abstract, notes, tags) "
                     "SELECT id, title, abstract, '', '' FROM papers WHERE id > ?", [k * base])
        for statement in schema.TRIGGERS + schema.MOMENTUM_TRIGGERS:
            conn.execute(statement)
        conn.execute("COMMIT")
        note(f"copy {k}: {(k + 1) * base:,} papers after {time.perf_counter() - started:.0f} s")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    header(f"Building {n:,} papers in set-based SQL")
    report("whole build (100,000 imported once, then copies)", time.perf_counter() - started,
           None, None)
    shutil.move(str(tmp), target)


def processes(path: Path, papers: int, runs: int, fast: bool) -> None:
    header(f"Whole processes on {papers:,} papers (median of {runs})")
    bare = process_peak([sys.executable, "-c", "pass"])[0]
    lib_args = [*EXE, "--library", str(path)]
    for name, command, repeat in (
            ("stats --json", ["stats", "--json"], runs),
            ('list "training efficient" --limit 200 --json',
             ["list", "training efficient", "--limit", "200", "--json"], runs),
            ("duplicates --json (the full scan)", ["duplicates", "--json"], 0 if fast else 1)):
        if not repeat:
            continue
        took = [process_peak([*lib_args, *command]) for _ in range(repeat)]
        seconds = sorted(r[0] for r in took)[len(took) // 2]
        report(name, seconds, bare, None)
        note(f"peak memory {max(r[1] for r in took):.0f} MB; floor = python -c pass")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--digest", type=int, default=50_000, help="entries per digest")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--skip-gui", action="store_true")
    parser.add_argument("--fast", action="store_true",
                        help="build the library in set-based SQL (search and window figures "
                             "only: its copies are not separate imports)")
    parser.add_argument("--skip-processes", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    # An older build is upgraded in place (cache.py): too large to copy.
    latest = cache.latest()
    if args.fast:
        path = OUT / f"million-fast-v{VERSION}-m{latest}-{args.papers}.sqlite"
        if args.rebuild or not cache.ready(path, in_place=True):
            build_fast(path, args.papers)
    else:
        path = OUT / f"million-v{VERSION}-m{latest}-{args.papers}-d{args.digest}.sqlite"
        if args.rebuild or not cache.ready(path, in_place=True):
            build(path, args.papers, args.digest)
    note(f"library: {path.name}, {path.stat().st_size / 2**20:.0f} MiB")

    if not args.skip_processes:
        processes(path, args.papers, args.runs, args.fast)

    if not args.skip_gui:
        import bench_gui

        header("The window on a million papers")
        bench_gui.bench_startup(path, args.runs)
        bench_gui.bench_in_window(path, args.runs, keystroke_target=0.1)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    raise SystemExit(main())
