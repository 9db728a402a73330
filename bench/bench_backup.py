"""Backup and restore of a generated library, beside the direct ways to copy it.

    python bench/bench_backup.py [--papers 10000] [--runs 3]

Figures: ``Library.backup`` (SQLite's backup API in one step, a quick_check of
the copy, fsync, rename) against a plain file copy of the same library and a
bare ``sqlite3`` backup; ``restore`` (checks, a safety copy of the current
library, the pages written under its write lock) against a bare backup into
the library. No target is set by the issue; the ratios show what the checks cost.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
from pathlib import Path

from common import header, median_time, note, report
from generate import make_library
from paperdesk.core.db import backup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "library.sqlite"
        lib = make_library(path, args.papers)
        lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = path.stat().st_size
        note(f"{args.papers} papers, {size / 2**20:.0f} MiB")
        header(f"Backup and restore, {args.papers} papers")
        n = iter(range(10**6))

        def target() -> Path:
            return folder / f"copy{next(n)}.sqlite"

        floor_copy = median_time(lambda t: shutil.copyfile(path, t), args.runs, target)

        def raw_backup(t: Path) -> None:
            source, dest = sqlite3.connect(path), sqlite3.connect(t)
            source.backup(dest)
            dest.close()
            source.close()

        floor_backup = median_time(raw_backup, args.runs, target)
        ours = median_time(lambda t: lib.backup(t), args.runs, target)
        report("Library.backup vs file copy", ours, floor_copy, None)
        report("Library.backup vs bare sqlite3 backup", ours, floor_backup, None)

        source = lib.backup(folder / "source.sqlite")
        lib.close()

        def raw_restore() -> None:
            src, dest = sqlite3.connect(source), sqlite3.connect(path)
            src.backup(dest)
            dest.close()
            src.close()

        floor_restore = median_time(raw_restore, args.runs)
        restored = median_time(lambda: backup.restore(source, path), args.runs)
        report("restore (checks + safety copy) vs bare backup", restored, floor_restore, None)


if __name__ == "__main__":
    main()
