"""Duplicate detection speed and recall: the figures of the duplicates issue.

Libraries come from ``generate.make_library``, with 5% of the papers re-typed
repeats that import cannot merge (a typo in the title, the same abstract), so
they stay separate papers for the scan to find.

1. A full scan (``lib.duplicates.scan()``) of 100,000 papers (target <= 3 s),
   beside the floor of reading every (id, title_key) with raw sqlite3.
2. Recall on a 20,000-paper library: every pair an all-pairs comparison
   (rapidfuzz ``cdist`` of all titles, then the same judge) calls a duplicate,
   against the pairs the blocked scan groups (target >= 99%); printed both for
   the generated repeats and for every pair all-pairs finds.
3. Checking the new papers of a 1,000-entry digest against the 100,000-paper
   library, as import does (target <= 0.5 s), beside raw sqlite3 reading the
   new titles and their neighbours in the title index.

    .venv/bin/python bench/bench_duplicates.py [--runs 3]
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz, process

from common import command_line, header, median_time, note, options, report
from generate import make_library, near, write_digest
from paperdesk.core.duplicates import duplicates
from paperdesk.core.library import Library
from paperdesk.core.model.text import title_key

NEAR = 0.05


def library(tmp: Path, n: int, name: str) -> Path:
    """A generated library of ``n`` papers of which NEAR are typo copies of another.

    ``make_library`` gives 1% typo copies; 4% more replace as many other papers
    (typo copies of two papers at random), so the count stays ``n``.
    """
    rng = random.Random(n)
    with make_library(tmp / name, n) as lib, lib.transaction() as db:
        taken = {i for pair in repeats_in(db) for i in pair}
        free = [r[0] for r in db.execute("SELECT id FROM papers ORDER BY id") if r[0] not in taken]
        extra = round(n * (NEAR - 0.01))
        picked = rng.sample(free, 2 * extra)
        gone, sources = picked[:extra], picked[extra:]
        db.execute(f"DELETE FROM papers WHERE id IN ({','.join(map(str, gone))})")
        cols = [c for c in db["papers"].columns if c != "id"]
        for source in sources:
            row = dict(next(iter(db.query("SELECT * FROM papers WHERE id = ?", [source]))))
            row["uid"] = None  # a copy is another paper: never the original's stable id
            row["title"] = near(row["title"], rng)
            row["title_key"], row["citekey"] = title_key(row["title"]), f"near{source}"
            db.execute(f"INSERT INTO papers ({', '.join(cols)}) VALUES "
                       f"({', '.join('?' * len(cols))})", [row[c] for c in cols])
        papers = db.execute("SELECT count(*) FROM papers").fetchone()[0]
    note(f"{name}: {papers} papers, {len(repeats(tmp / name))} generated repeat pairs")
    return tmp / name


def repeats_in(db) -> set[tuple[int, int]]:
    """The generated repeats: papers that share an abstract."""
    pairs = set()
    for (ids,) in db.execute("SELECT group_concat(id) FROM papers GROUP BY abstract "
                             "HAVING count(*) > 1"):
        members = sorted(map(int, ids.split(",")))
        pairs |= {(a, b) for a in members for b in members if a < b}
    return pairs


def repeats(path: Path) -> set[tuple[int, int]]:
    conn = sqlite3.connect(path)
    try:
        return repeats_in(conn)
    finally:
        conn.close()


def grouped_pairs(groups) -> set[tuple[int, int]]:
    return {(a, b) for g in groups for a in g.ids for b in g.ids if a < b}


def raw_titles(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("SELECT id, title_key FROM papers").fetchall()
    conn.close()


def bench_scan(path: Path, runs: int) -> bool:
    cpu: list[float] = []

    def scan(lib: Library) -> None:
        start = time.process_time()
        groups[:] = lib.duplicates.scan()
        cpu.append(time.process_time() - start)

    with Library.open(path) as lib:
        groups: list = []
        seconds = median_time(lambda: scan(lib), runs)
    floor = median_time(lambda: raw_titles(path), runs)
    ok = report("full scan, 100,000 papers", seconds, floor, 3.0)
    note(f"CPU time of the scan (all threads), median: {statistics.median(cpu):.2f} s "
         "(the wall time on an otherwise idle machine is about this)")
    truth = repeats(path)
    found = grouped_pairs(groups)
    note(f"{len(groups)} groups; {len(truth & found)} of {len(truth)} generated repeats "
         f"found ({100 * len(truth & found) / max(1, len(truth)):.2f}%)")
    return ok


def all_pairs_reference(lib: Library) -> tuple[set[tuple[int, int]], float]:
    """Every pair all-pairs title comparison plus the judge calls a duplicate."""
    start = time.perf_counter()
    rows = lib.db.execute("SELECT id, title_key FROM papers WHERE deleted_at IS NULL").fetchall()
    ids = [r[0] for r in rows]
    keys = [r[1] for r in rows]
    close = []
    for lo in range(0, len(keys), 1000):
        scores = process.cdist(keys[lo:lo + 1000], keys, scorer=fuzz.ratio, dtype=np.uint8,
                               score_cutoff=duplicates.TITLE_FLOOR, workers=-1)
        for r, c in zip(*np.nonzero(scores), strict=True):
            if lo + r < c:
                close.append((min(ids[lo + r], ids[c]), max(ids[lo + r], ids[c])))
    judged, _ = duplicates.judge_pairs(lib.db, sorted(set(close)))
    return {(p.a, p.b) for p in judged}, time.perf_counter() - start


def bench_recall(path: Path) -> bool:
    with Library.open(path) as lib:
        reference, all_seconds = all_pairs_reference(lib)
        start = time.perf_counter()
        found = grouped_pairs(lib.duplicates.scan())
        scan_seconds = time.perf_counter() - start
    truth = repeats(path)
    ref_repeats = reference & truth
    recall_repeats = len(ref_repeats & found) / max(1, len(ref_repeats))
    recall_all = len(reference & found) / max(1, len(reference))
    report("all-pairs comparison, 20,000 papers (once)", all_seconds, None, None)
    report("blocked scan, 20,000 papers (once)", scan_seconds, all_seconds, None)
    note(f"generated repeats: {len(truth)}; all-pairs finds {len(ref_repeats)}, "
         f"the scan {len(ref_repeats & found)}: recall {100 * recall_repeats:.2f}% "
         f"(target >= 99%: {'met' if recall_repeats >= 0.99 else 'NOT met'})")
    note(f"every pair all-pairs calls a duplicate: {len(reference)}; the scan finds "
         f"{len(reference & found)}: recall {100 * recall_all:.2f}%")
    return recall_repeats >= 0.99


def raw_neighbours(path: Path, new_ids: list[int]) -> None:
    conn = sqlite3.connect(path)
    marks = ",".join("?" * len(new_ids))
    for (key,) in conn.execute(f"SELECT title_key FROM papers WHERE id IN ({marks})", new_ids):
        conn.execute("SELECT id, title_key FROM papers WHERE title_key >= ? "
                     "ORDER BY title_key LIMIT 3", [key]).fetchall()
    conn.close()


def bench_check(path: Path, tmp: Path, runs: int) -> bool:
    digest = write_digest(tmp / "new-1000.txt", 1000, first=200_000, older=90_000,
                          near_share=NEAR)
    work = tmp / "check.sqlite"
    shutil.copyfile(path, work)
    with Library.open(work) as lib:
        start = time.perf_counter()
        [imported] = lib.import_paths([digest])
        import_seconds = time.perf_counter() - start
        new_ids = [p for p in imported.paper_ids if p > 100_000]
        found: list = []
        seconds = median_time(
            lambda: found.__setitem__(slice(None), duplicates.check_new(lib, new_ids)), runs)
    floor = median_time(lambda: raw_neighbours(work, new_ids), runs)
    ok = report(f"check {len(new_ids)} new papers against 100,000", seconds, floor, 0.5)
    note(f"{len(found)} groups; the whole import took {import_seconds:.2f} s and flagged "
         f"{imported.likely_duplicates} new papers")
    return ok


def main() -> int:
    args = options(command_line(__doc__, 3, "runs per timed figure"))
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        big = library(tmp, 100_000, "lib-100k.sqlite")
        sample = library(tmp, 20_000, "lib-20k.sqlite")
        header("Duplicates (medians; floors measured in this run)")
        note(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
             f"on {os.cpu_count()} cores")
        results = [bench_scan(big, args.runs), bench_recall(sample),
                   bench_check(big, tmp, args.runs)]
    note(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"\nfigures met: {sum(results)} of {len(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
