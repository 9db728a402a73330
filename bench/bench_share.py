"""Sharing a generated library through a folder, beside the direct ways to do the work.

    python bench/bench_share.py [--papers 100000]

Figures (issue 41's targets):

- first share: ``lib.share.start(folder)`` of a library never shared (read every paper,
  build the document, write one update file, store the document in the library);
  floor: the same rows read with sqlite3 and written as one JSON file.
- a new computer joining: ``share.start`` of an empty library on that folder (import
  the update, make every paper through the writers); floor: the rows inserted with
  sqlite3 ``executemany`` into an empty table of the same columns.
- 10,000 waiting edits: the other computer rated 10,000 papers; one exchange applies
  them; floor: the same 10,000 ``UPDATE``s with sqlite3.
- the folder's size after the first share and the join.

Each is timed once (a first share happens once); the ratio is the figure to watch.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from common import header, note, report
from generate import make_library
from paperdesk.core.library import Library
from paperdesk.core.share import fields


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def folder_size(folder: Path) -> int:
    return sum((folder / n).stat().st_size for n in os.listdir(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shared = root / "Sync"
        shared.mkdir()
        (root / "a").mkdir()
        (root / "b").mkdir()
        a = make_library(root / "a" / "library.sqlite", args.papers)
        columns = ", ".join(f"[{c}]" for c in ("uid", *fields.COLUMNS))

        def floor_read() -> None:
            conn = sqlite3.connect(root / "a" / "library.sqlite")
            rows = conn.execute(f"SELECT {columns} FROM papers").fetchall()
            (root / "floor.json").write_text(json.dumps(rows))
            conn.close()

        header(f"Sharing, {args.papers:,} papers")
        floor = timed(floor_read)
        first = timed(lambda: a.share.start(shared))
        report("first share of the library", first, floor, 30.0)
        after_first = folder_size(shared)

        rows = json.loads((root / "floor.json").read_text())

        def floor_insert() -> None:
            conn = sqlite3.connect(root / "floor.sqlite")
            conn.execute(f"CREATE TABLE papers ({columns})")
            conn.executemany(f"INSERT INTO papers VALUES ({','.join('?' * len(rows[0]))})",
                             rows)
            conn.commit()
            conn.close()

        floor = timed(floor_insert)
        b = Library.open(root / "b" / "library.sqlite")
        join = timed(lambda: b.share.start(shared))
        report("a new computer joining", join, floor, 60.0)
        assert b.stats()["papers"] == a.stats()["papers"]

        ids = a.search("", limit=10_000).ids
        a.curation.set_rating(ids, 4)
        a.share.now()

        def floor_update() -> None:
            conn = sqlite3.connect(root / "floor.sqlite")
            conn.executemany("UPDATE papers SET rating = 4 WHERE uid = ?",
                             [(r[0],) for r in rows[:10_000]])
            conn.commit()
            conn.close()

        floor = timed(floor_update)
        waiting = timed(b.share.now)
        report("10,000 waiting edits applied", waiting, floor, 5.0)
        note(f"folder after the first share: {after_first / 2**20:.1f} MiB; after the join "
             f"and the edits: {folder_size(shared) / 2**20:.1f} MiB "
             f"({len(os.listdir(shared))} files)")
        note(f"the document kept in the library: {_doc_size(a) / 2**20:.1f} MiB")
        a.close()
        b.close()


def _doc_size(lib: Library) -> int:
    return lib.db.execute("SELECT coalesce(sum(length(data)), 0) FROM share_doc").fetchone()[0]


if __name__ == "__main__":
    main()
