"""Import speed: the figures of the library-and-import issue.

1. A 100,000-entry digest into an empty library, search index included
   (target <= 1.5x the floor), beside a raw sqlite3 ``executemany`` of the same rows into
   the same tables and columns (papers, sightings, the FTS rows) in this run
   (``--digest PATH``: of another digest, such as the alike titles of bench_dup_shapes).
2. A 1,000-entry digest (with repeats of papers already there) into a library
   of 100,000 papers, and the close after it (target <= 0.3 s), beside the same raw floor.
3. ``paperdesk list --json`` on the seed library as a whole process
   (target < 0.5 s wall), beside a bare Python process that reads the same
   papers with sqlite3 and prints them as JSON.
4. Digests of n entries that share one title over different abstracts (n = 1,000
   and 4,000) into an empty library, beside the same entries each under its own
   title: matching by title is indexed, so the ratio stays near 1 as n grows.

    .venv/bin/python bench/bench_import.py [--runs 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

import generate
from common import OUT, ROOT, header, median_of, median_time, note, report
from generate import VERSION, make_library, same_title_digest, write_digest
from paperdesk.core.db import schema
from paperdesk.core.library import Library

PAPER_COLUMNS = ("id, title, abstract, title_key, author_count, organization, organization_handle,"
                 " published, year, year_inferred, citekey, added, modified, upvotes, seen_count")
SIGHTING_COLUMNS = ("id, digest_id, paper_id, position, line, raw_title, meta_raw, author_count,"
                    " organization, organization_handle, published, published_raw, year_inferred,"
                    " upvotes")
DIGEST_COLUMNS = ("id, name, path, sha256, digest_date, year, year_source, daily_papers,"
                  " encoding, entries, warnings, imported_at, new_papers, merged")


def digest_file(entries: int, **options: int) -> Path:
    suffix = "-".join(f"{k}{v}" for k, v in sorted(options.items()))
    shape = "" if generate.SHAPE == "friendly" else f"-{generate.SHAPE}"
    path = OUT / f"digest-v{VERSION}{shape}-{entries}-{suffix}.txt"
    if not path.exists():
        write_digest(path, entries, **options)
    return path


def import_once(lib_path: Path, digest: Path,
                usage: dict[str, list[float]] | None = None) -> float:
    """Seconds of the import alone: opening and closing the library are not timed
    here; ``usage`` collects the import's CPU seconds ("cpu") and the seconds of each
    close ("close", where the write-ahead log an import leaves is copied into the
    main file), and of the two together ("whole")."""
    lib = Library.open(lib_path)
    seconds = 0.0
    try:
        start, cpu = time.perf_counter(), time.process_time()
        [result] = lib.import_paths([digest])
        seconds = time.perf_counter() - start
        if usage is not None:
            usage.setdefault("cpu", []).append(time.process_time() - cpu)
        if result.status != "imported":
            raise SystemExit(f"import failed: {result.status} {result.error}")
    finally:
        start = time.perf_counter()
        lib.close()
        if usage is not None:
            usage.setdefault("close", []).append(time.perf_counter() - start)
            usage.setdefault("whole", []).append(seconds + usage["close"][-1])
    return seconds


def added_rows(lib_path: Path, digest_id: int, first_paper: int) -> dict[str, list[tuple]]:
    """The rows one import wrote: its digest, its new papers, its sightings, their FTS rows."""
    conn = sqlite3.connect(lib_path)
    rows = {
        "digests": conn.execute(f"SELECT {DIGEST_COLUMNS} FROM digests WHERE id = ?",
                                [digest_id]).fetchall(),
        "papers": conn.execute(f"SELECT {PAPER_COLUMNS} FROM papers WHERE id > ? ORDER BY id",
                               [first_paper]).fetchall(),
        "sightings": conn.execute(f"SELECT {SIGHTING_COLUMNS} FROM sightings WHERE digest_id = ?",
                                  [digest_id]).fetchall(),
    }
    rows["papers_fts"] = [(r[0], r[1], r[2], "", "") for r in rows["papers"]]
    conn.close()
    return rows


def raw_insert(lib_path: Path, rows: dict[str, list[tuple]]) -> None:
    """The floor: plain sqlite3, one transaction, one executemany per table, no triggers."""
    conn = sqlite3.connect(lib_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("BEGIN IMMEDIATE")
    columns = {"digests": DIGEST_COLUMNS, "papers": PAPER_COLUMNS, "sightings": SIGHTING_COLUMNS,
               "papers_fts": "rowid, title, abstract, notes, tags"}
    for table in ("digests", "papers", "sightings", "papers_fts"):
        marks = ",".join("?" * len(rows[table][0])) if rows[table] else ""
        if marks:
            conn.executemany(f"INSERT INTO {table} ({columns[table]}) VALUES ({marks})",
                             rows[table])
    conn.execute("COMMIT")
    conn.close()


def without_triggers(lib_path: Path) -> None:
    conn = sqlite3.connect(lib_path, isolation_level=None)
    for name in schema.TRIGGER_NAMES:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.close()


def profiled(lib_path: Path, digest: Path) -> None:
    profile = cProfile.Profile()
    profile.enable()
    import_once(lib_path, digest)
    profile.disable()
    pstats.Stats(profile).sort_stats("cumulative").print_stats(18)


def raw_floor(rows: dict, runs: int, library: Callable[[], Path]) -> tuple[float, list[float]]:
    """The floor: the median seconds of writing ``rows`` raw into a library from
    ``library()`` whose triggers are dropped (not timed), and the CPU seconds of each run."""
    def raw_library() -> Path:
        path = library()
        without_triggers(path)
        return path

    floor_cpu: list[float] = []

    def raw_timed(path: Path) -> None:
        cpu = time.process_time()
        raw_insert(path, rows)
        floor_cpu.append(time.process_time() - cpu)

    return median_time(raw_timed, runs, setup=raw_library), floor_cpu


def bench_big(tmp: Path, runs: int, profile: bool, digest: Path | None = None) -> None:
    digest = digest or digest_file(100_000, seed=1)
    note(f"digest: {digest.name}, {digest.stat().st_size / 2**20:.0f} MiB")
    counter = iter(range(10**6))

    def fresh() -> Path:
        path = tmp / f"empty-{next(counter)}.sqlite"
        Library.open(path).close()
        return path

    usage: dict[str, list[float]] = {}
    seconds = median_of(lambda: import_once(fresh(), digest, usage), runs)
    rows = added_rows(tmp / "empty-0.sqlite", 1, 0)
    for path in tmp.glob("empty-[1-9]*.sqlite*"):
        path.unlink()

    floor, floor_cpu = raw_floor(rows, runs, fresh)
    report(f"import {len(rows['sightings']):,} entries into an empty library", seconds, floor,
           1.5 * floor)
    note(f"{len(rows['papers'])} papers, {len(rows['sightings'])} sightings; floor = "
         "executemany of the same rows (papers, sightings, FTS) into the same tables; "
         "target: 1.5x the floor")
    cpu, cpu_floor = median(usage["cpu"]), median(floor_cpu)
    note(f"CPU: {cpu:.2f} s median, the floor's {cpu_floor:.2f} s ({cpu / cpu_floor:.2f}x)")
    if profile:
        profiled(fresh(), digest)


def bench_into_big(tmp: Path, runs: int, profile: bool) -> None:
    base = tmp / "base-100k.sqlite"
    make_library(base, 100_000).close()  # opened once: upgraded and checkpointed
    conn = sqlite3.connect(base)
    first_paper = conn.execute("SELECT max(id) FROM papers").fetchone()[0]
    conn.close()
    digest = digest_file(1000, seed=0, first=200_000, older=90_000)
    counter = iter(range(10**6))

    def copy() -> Path:
        """A copy of the base library, on disk before anything is timed (the floor's
        setup below syncs its copy too, when it closes it after dropping the triggers)."""
        path = tmp / f"copy-{next(counter)}.sqlite"
        shutil.copyfile(base, path)
        with path.open("rb") as f:
            os.fsync(f.fileno())
        return path

    usage: dict[str, list[float]] = {}
    imports = median_of(lambda: import_once(copy(), digest, usage), runs)
    # What a person waits for: the import and the close that copies its log into the
    # main file (the floor's time includes that copy too).
    seconds = median(usage["whole"])
    with Library.open(tmp / "copy-0.sqlite") as lib:
        digest_id = lib.db.execute("SELECT max(id) FROM digests").fetchone()[0]
        merged = lib.db.execute("SELECT merged FROM digests WHERE id = ?",
                                [digest_id]).fetchone()[0]
    rows = added_rows(tmp / "copy-0.sqlite", digest_id, first_paper)

    floor, floor_cpu = raw_floor(rows, runs, copy)
    report("1,000 entries into 100,000 papers: import + close", seconds,
           floor, 0.3)
    note(f"{len(rows['papers'])} new papers, {merged} merged into existing ones")
    note(f"the import alone {imports * 1000:.1f} ms median, the close "
         f"{median(usage['close']) * 1000:.1f} ms (it copies the write-ahead log the import "
         "left into the main file; the floor's time includes that copy)")
    note(f"CPU of the import: {median(usage['cpu']) * 1000:.1f} ms median, the floor's "
         f"{median(floor_cpu) * 1000:.1f} ms")
    if profile:
        profiled(copy(), digest)
    for path in tmp.glob("copy-*.sqlite*"):
        path.unlink()


LIST_FLOOR = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
cols = ["id", "title", "abstract", "author_count", "organization", "published", "year"]
rows = conn.execute("SELECT " + ", ".join(cols) + " FROM papers ORDER BY id")
print(json.dumps([dict(zip(cols, r)) for r in rows]))
"""


def bench_list(tmp: Path, runs: int) -> None:
    path = tmp / "seeds.sqlite"
    with Library.open(path) as lib:
        lib.import_paths(sorted((ROOT / "seeds").glob("*.txt")))
    exe = Path(sys.executable).parent / "paperdesk"
    command = [str(exe), "--library", str(path), "list", "--json"]
    check = subprocess.run(command, capture_output=True, text=True)
    if check.returncode != 0:
        raise SystemExit(f"paperdesk list failed: {check.stderr.strip()}")
    seconds = median_time(lambda: subprocess.run(command, stdout=subprocess.DEVNULL,
                                                 check=True), runs)
    floor = median_time(lambda: subprocess.run([sys.executable, "-c", LIST_FLOOR, str(path)],
                                               stdout=subprocess.DEVNULL, check=True), runs)
    report("paperdesk list --json on the seed library (process)", seconds, floor, 0.5,
           below=True)
    note("floor = a bare python process reading the same papers with sqlite3 and printing JSON")


def bench_same_title(tmp: Path, runs: int, sizes: tuple[int, ...] = (1000, 4000)) -> None:
    for n in sizes:
        files = {}
        for same in (True, False):
            path = OUT / f"same-title-v{VERSION}-{n}-{int(same)}.txt"
            if not path.exists():
                path.write_text(same_title_digest(n, same=same), encoding="utf-8")
            files[same] = path

        def once(digest: Path) -> float:
            lib_path = tmp / "same-title.sqlite"
            for old in tmp.glob("same-title.sqlite*"):
                old.unlink()
            return import_once(lib_path, digest)

        same, own = files[True], files[False]
        seconds = median_of(lambda: once(same), runs)  # noqa: B023 (used at once)
        floor = median_of(lambda: once(own), runs)  # noqa: B023
        report(f"import {n:,} entries sharing one title", seconds, floor, None)
    note("floor = the same entries, each under its own title; linear matching keeps the "
         "ratio flat as n grows")


def bench_phases(tmp: Path, runs: int) -> None:
    """Where the 100,000-entry import's time goes: parsing, title keys and citation keys,
    alone, with the cycle collector paused as in the import."""
    from paperdesk.core.bibtex.citekey import KeyAllocator
    from paperdesk.core.importing.digest_import import _entry_fields
    from paperdesk.core.model.digest import parse_digest
    from paperdesk.core.model.jobs import gc_paused
    from paperdesk.core.model.text import title_key

    digest = digest_file(100_000, seed=1)
    data = digest.read_bytes()
    parsed = parse_digest(data, digest.name, 2025)
    with gc_paused():  # as the import runs them
        report("  parse the digest (decode, blocks, dates)",
               median_time(lambda: parse_digest(data, digest.name, 2025), runs), None, None)
        report("  title keys of the entries",
               median_time(lambda: [title_key(e.title) for e in parsed.entries], runs),
               None, None)
    papers = [{"title": e.title, **_entry_fields(e)} for e in parsed.entries]
    with Library.open(tmp / "phases-empty.sqlite") as lib, gc_paused():

        def keys() -> None:
            allocator = KeyAllocator(lib.db)
            for paper in papers:
                allocator.take(paper)

        report("  citation keys for the entries (empty library)", median_time(keys, runs),
               None, None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--profile", action="store_true", help="cProfile one import of each")
    parser.add_argument("--only", choices=["big", "into", "list", "phases", "same-title"],
                        help="one figure only")
    parser.add_argument("--digest", type=Path,
                        help="the first figure on this digest (one written by bench_dup_shapes "
                             "--keep, or any other) instead of the generated one")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000],
                        help="entries of the same-title digests (default: 1000 4000)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=OUT) as name:
        tmp = Path(name)
        header(f"Import ({args.runs} runs each, medians)")
        if args.only in (None, "big"):
            bench_big(tmp, args.runs, args.profile, args.digest)
        if args.only in (None, "into"):
            bench_into_big(tmp, args.runs, args.profile)
        if args.only in (None, "list"):
            bench_list(tmp, args.runs)
        if args.only in (None, "phases"):
            bench_phases(tmp, args.runs)
        if args.only in (None, "same-title"):
            bench_same_title(tmp, args.runs, tuple(args.sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
