"""What an import wrote, table by table, without its timestamps: to check that a change
to the import's speed leaves every row as it was.

Every table's rows (the full-text table's as stored, and FTS5's own integrity check)
sorted, minus the columns that hold the time of the run; one line per table with its
row count and digest, and with ``--full FILE`` every row written out for a diff. A
kept entry (``papers.bib_source``) is compared by what its JSON holds, not how it is
spaced.

    .venv/bin/python bench/import_dump.py LIBRARY [--full FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import sys
from typing import TextIO

TIMES = {"added", "modified", "imported_at", "applied_at", "written_at", "undone_at"}
SKIP = ("sqlite_", "_sqlite_migrations")
SHADOW = ("_data", "_idx", "_docsize", "_config", "_content")


def tables(db: sqlite3.Connection) -> list[tuple[str, bool]]:
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                      "ORDER BY name").fetchall()
    virtual = {name for name, sql in rows if sql and sql.upper().startswith("CREATE VIRTUAL")}
    shadows = {name for name in (n for n, _ in rows)
               if any(name == v + s for v in virtual for s in SHADOW)}
    return [(name, name in virtual) for name, _ in rows
            if not name.startswith(SKIP) and name not in shadows]


def dump(path: str, full: TextIO | None = None) -> list[tuple[str, int, str]]:
    """Each table's name, row count and digest (its rows, sorted in SQL, into ``full``)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = []
    for name, virtual in tables(db):
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({name})")
                   if r[1] not in TIMES]
        if virtual:
            columns.insert(0, "rowid")
        order = ", ".join(str(i + 1) for i in range(len(columns)))
        digest, count = hashlib.sha256(), 0
        if full:
            full.write(f"== {name}\n")
        kept = columns.index("bib_source") if "bib_source" in columns else None
        for row in db.execute(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {order}"):
            if kept is not None and row[kept] is not None:
                row = (*row[:kept], json.dumps(json.loads(row[kept])), *row[kept + 1:])
            line = repr(row) + "\n"
            digest.update(line.encode())
            count += 1
            if full:
                full.write(line)
        out.append((name, count, digest.hexdigest()[:16]))
    return out


def fts_ok(path: str) -> str:
    db = sqlite3.connect(path)
    try:
        for name in ("papers_fts", "annotations_fts"):
            db.execute(f"INSERT INTO {name}({name}) VALUES('integrity-check')")
        return "ok"
    except sqlite3.DatabaseError as exc:
        return f"FAILED: {exc}"
    finally:
        db.rollback()
        db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("--full")
    args = parser.parse_args()
    with open(args.full or os.devnull, "w", encoding="utf-8") as full:
        for name, count, digest in dump(args.library, full if args.full else None):
            print(f"{name:28} {count:>9,} {digest}")
    print(f"{'fts integrity-check':28} {fts_ok(args.library)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
