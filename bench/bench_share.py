"""Sharing a generated library through a folder, beside the direct ways to do the work.

    python bench/bench_share.py [--papers 100000] [--runs 3] [--shape real|long]

The library is a generated one (``generate.make_library``) given what a used library
holds before it is timed: a fifth of its papers tagged (one to three of 60 tags), one
in twenty with a note, 500 in the reading queue, one in ten rated. ``--shape long``
is a library shaped otherwise, to check the figures hold beyond the generator: every
abstract three times as long, no arXiv ids, eight to fourteen tags on every paper.

Figures (issue 41's targets), each the median of ``--runs`` runs on fresh copies:

- first share: ``lib.share.start(folder)`` of a library never shared (read every paper,
  build the document, write one file, store the document in the library); floor: the
  same rows read with sqlite3 and written as one JSON file.
- a new computer joining: ``share.start`` of an empty library on that folder (import
  the file, make every paper through the writers); floor: the rows inserted with
  sqlite3 ``executemany`` into an empty table of the same columns.
- one edit in the other computer's window: the exchange the window runs when it sees
  a new file (it looks once a second, ``gui/sharing.py``), after one rating; the
  window adds up to that second. Floor: one ``UPDATE`` with sqlite3. The first such
  exchange after the join pays for the engine's first change to the loaded document;
  "the next edit" is the one after it, as a window that keeps its document runs it.
- 10,000 waiting edits: the other computer rated 10,000 papers; one exchange applies
  them; floor: the same 10,000 ``UPDATE``s with sqlite3.
- the folder's size after the first share and after the edits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from common import header, note, report
from generate import make_library
from paperdesk.core.db import changes as ch
from paperdesk.core.db import notes_table
from paperdesk.core.library import Library
from paperdesk.core.model.clock import now
from paperdesk.core.share import fields

TAGS = [f"topic-{n:02d}" for n in range(60)]
TARGETS = {"first": 30.0, "join": 60.0, "one": 2.0, "again": 2.0, "waiting": 5.0}
NAMES = {"first": "first share of the library", "join": "a new computer joining",
         "one": "one edit, the other computer's exchange",
         "again": "the next edit, the document kept",
         "waiting": "10,000 waiting edits applied"}


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def folder_size(folder: Path) -> int:
    return sum((folder / n).stat().st_size for n in os.listdir(folder))


def shaped(path: Path, n: int, shape: str) -> Library:
    """A generated library of ``n`` papers, used as a library is (see the notes)."""
    lib = make_library(path, n)
    rng = random.Random(7)
    ids = lib.search("", limit=n).ids
    if shape == "long":
        with lib.db.conn:  # straight into the file: the benchmark's set-up, not timed
            lib.db.conn.execute("UPDATE papers SET abstract = abstract || ' ' || abstract "
                                "|| ' ' || abstract, arxiv_id = NULL, url = NULL")
    per_tag: dict[str, list[int]] = {t: [] for t in TAGS}
    for pid in ids:
        if shape == "long":
            chosen = rng.sample(TAGS, rng.randint(8, 14))
        else:
            chosen = rng.sample(TAGS, rng.randint(1, 3)) if rng.random() < 0.2 else []
        for t in chosen:
            per_tag[t].append(pid)
    for tag, tagged in per_tag.items():
        if tagged:
            lib.curation.add_tags(tagged, tag)
    with lib.write("Notes for the benchmark", [ch.NOTES]):
        stamp = now()
        for pid in rng.sample(ids, len(ids) // 20):
            notes_table.add(lib.db, pid, "Compare with the baseline of section 4; the "
                            "ablation in table 2 is what matters here.", stamp)
    lib.curation.set_status(rng.sample(ids, min(500, len(ids))), "to-read")
    lib.curation.set_rating(rng.sample(ids, len(ids) // 10), 3)
    return lib


def run_once(root: Path, n: int, shape: str) -> dict[str, float]:
    """Every figure and its floor, once, in a fresh folder (``*_floor`` for floors)."""
    shared = root / "Sync"
    shared.mkdir()
    (root / "a").mkdir()
    (root / "b").mkdir()
    a = shaped(root / "a" / "library.sqlite", n, shape)
    columns = ", ".join(f"[{c}]" for c in ("uid", *fields.COLUMNS))
    out: dict[str, float] = {}

    def floor_read() -> None:
        conn = sqlite3.connect(root / "a" / "library.sqlite")
        rows = conn.execute(f"SELECT {columns} FROM papers").fetchall()
        (root / "floor.json").write_text(json.dumps(rows))
        conn.close()

    out["first_floor"] = timed(floor_read)
    out["first"] = timed(lambda: a.share.start(shared))
    out["size_first"] = folder_size(shared)
    rows = json.loads((root / "floor.json").read_text())

    def floor_insert() -> None:
        conn = sqlite3.connect(root / "floor.sqlite")
        conn.execute(f"CREATE TABLE papers ({columns}, PRIMARY KEY (uid))")
        conn.executemany(f"INSERT INTO papers VALUES ({','.join('?' * len(rows[0]))})", rows)
        conn.commit()
        conn.close()

    out["join_floor"] = timed(floor_insert)
    b = Library.open(root / "b" / "library.sqlite")
    out["join"] = timed(lambda: b.share.start(shared))
    assert b.stats()["papers"] == a.stats()["papers"]

    def floor_update(count: int) -> None:
        conn = sqlite3.connect(root / "floor.sqlite")
        conn.executemany("UPDATE papers SET rating = 4 WHERE uid = ?",
                         [(r[0],) for r in rows[:count]])
        conn.commit()
        conn.close()

    ids = a.search("", limit=10_000).ids
    a.curation.set_rating(ids[:1], 5)
    a.share.now()
    out["one_floor"] = timed(lambda: floor_update(1))
    out["one"] = timed(b.share.now)
    a.curation.set_rating(ids[1:2], 5)
    a.share.now()
    out["again_floor"] = out["one_floor"]
    out["again"] = timed(b.share.now)  # the window's next: its document kept (kept.py)
    a.curation.set_rating(ids, 4)
    a.share.now()
    out["waiting_floor"] = timed(lambda: floor_update(10_000))
    out["waiting"] = timed(b.share.now)
    assert b.db.execute("SELECT count(*) FROM papers WHERE rating = 4").fetchone()[0] == len(ids)
    out["size_after"] = folder_size(shared)
    out["files"] = len(os.listdir(shared))
    out["stored"] = _doc_size(a)
    a.close()
    b.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shape", choices=("real", "long"), default="real")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(run_once(Path(tmp), args.papers, args.shape))
            shutil.rmtree(tmp, ignore_errors=True)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    header(f"Sharing, {args.papers:,} papers, shape {args.shape}, median of {args.runs}")
    for key, name in NAMES.items():
        report(name, med[key], med[f"{key}_floor"], TARGETS[key])
    note(f"folder after the first share: {med['size_first'] / 2**20:.1f} MiB; after the "
         f"join and the edits: {med['size_after'] / 2**20:.1f} MiB ({med['files']:.0f} files)")
    note(f"the document kept in the library: {med['stored'] / 2**20:.1f} MiB")
    note("each run: " + "; ".join(", ".join(f"{k} {r[k]:.2f}" for k in NAMES) for r in runs))


def _doc_size(lib: Library) -> int:
    return lib.db.execute("SELECT coalesce(sum(length(data)), 0) FROM share_doc").fetchone()[0]


if __name__ == "__main__":
    main()
