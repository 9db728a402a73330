"""CPU seconds of bulk edits and their undos: what the writers' row images cost.

On a generated library (``--papers``, 10,000 by default): a rating, a tag and a move
to the trash of half the papers, each one undoable edit, and the undo of each, in
this process's CPU seconds (SQLite's work included), the median of ``--runs``. CPU
seconds follow the machine's load much less than wall time does, so a run on a busy
machine still compares with one on an idle machine, and one commit with another
(run it from each worktree: ``generate`` puts that tree's ``src`` first).

    .venv/bin/python bench/bench_edits_cpu.py [--papers 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generate import make_library


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000, help="library size")
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib = make_library(Path(tmp) / "library.sqlite", args.papers)
        ids = lib.search("", sort="id").ids
        half = len(ids) // 2
        rng = random.Random(5)
        cpu: dict[str, list[float]] = {}

        def timed(name: str, fn: Callable[..., Any], *args: Any) -> Any:
            start = time.process_time()
            result = fn(*args)
            cpu.setdefault(name, []).append(time.process_time() - start)
            return result

        for run in range(args.runs):
            chosen = rng.sample(ids, half)
            done = timed("set_rating", lib.curation.set_rating, chosen, run % 5 + 1)
            timed("undo of set_rating", lib.undo, done.undo)
            done = timed("add_tags", lib.curation.add_tags, chosen, [f"bench-{run}"])
            timed("undo of add_tags", lib.undo, done.undo)
            done = timed("trash.delete", lib.trash.delete, chosen)
            timed("undo of trash.delete", lib.undo, done.undo)
        lib.close()
    print(f"{half:,} of {len(ids):,} papers, CPU seconds, median of {args.runs}")
    for name, times in cpu.items():
        print(f"  {name:22} {statistics.median(times) * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
