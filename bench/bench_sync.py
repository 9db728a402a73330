"""Kept-in-sync files: the figures of the sync issue.

1. In the window (offscreen), a rating change to the synced 10,000-paper .bib
   renamed into place, with the sync written on its own thread after the one
   second debounce; beside a plain ``export_to`` of the same papers. The same
   runs measure the UI thread: a 2 ms heartbeat timer records the longest gap
   between its ticks from the click to the rename (target: no stall over 16 ms),
   beside the longest gap of the same timer while the window sits idle.
2. ``paperdesk tag ID +x`` as a process on a 100,000-paper library that keeps a
   100,000-paper .bib in sync: its extra time over the same command on the same
   library without the sync (target <= 2 s). The floor is the command without.

    .venv/bin/python bench/bench_sync.py [--runs 3] [--only window|cli]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from common import OUT, ROOT, header, note, report
from generate import make_library

WINDOW_PAPERS = 10_000
CLI_PAPERS = 100_000
HEARTBEAT_MS = 2


def bench_window(runs: int) -> list[bool]:
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication

    from paperdesk.core.sync import sync_write
    from paperdesk.gui.main_window import MainWindow

    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="sync-window-", dir=OUT))
    lib = make_library(folder / "library.sqlite", WINDOW_PAPERS + 1)
    with lib.transaction():  # every paper rated but the last: the sync holds 10,000
        lib.db.execute("UPDATE papers SET rating = 1 WHERE id < (SELECT max(id) FROM papers)")
    last = lib.db.execute("SELECT max(id) FROM papers").fetchone()[0]
    target = folder / "refs.bib"
    lib.syncs.write(lib.syncs.add(target, "query", "rating>=1"))
    assert lib.syncs.get(target).entries == WINDOW_PAPERS

    renamed: list[float] = []
    replace = sync_write._replace

    def timed_replace(*args, **kwargs):
        replace(*args, **kwargs)
        renamed.append(time.perf_counter())

    sync_write._replace = timed_replace
    app = QApplication.instance() or QApplication([])
    window = MainWindow(lib)
    window.resize(1440, 820)
    window.show()
    app.processEvents()

    gaps: list[float] = []
    clock = QElapsedTimer()
    heartbeat = QTimer(interval=HEARTBEAT_MS)

    def beat() -> None:
        gaps.append(clock.restart() / 1000)

    heartbeat.timeout.connect(beat)

    def idle_gap() -> float:
        gaps.clear()
        clock.start()
        heartbeat.start()
        end = time.perf_counter() + 2.5
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.0005)
        heartbeat.stop()
        return max(gaps)

    def one(rating: int) -> tuple[float, float, float]:
        renamed.clear()
        gaps.clear()
        clock.start()
        heartbeat.start()
        start = time.perf_counter()
        window.edit(lib.curation.set_rating, [last], rating)
        edit = time.perf_counter() - start
        while not renamed or window.context.features["sync"].writer.busy:
            app.processEvents()
            time.sleep(0.0005)
            if time.perf_counter() - start > 60:
                raise RuntimeError("the synced file was not written within a minute")
        app.processEvents()
        heartbeat.stop()
        return renamed[0] - start, max([*gaps, edit]), edit

    results = [one(3 if n % 2 == 0 else 0) for n in range(runs * 2)]
    total = statistics.median(r[0] for r in results)
    stall = statistics.median(r[1] for r in results)
    worst = max(r[1] for r in results)
    idle = statistics.median(idle_gap() for _ in range(runs))
    floor_path = folder / "floor.bib"
    ids = lib.syncs.members(lib.syncs.get(target))
    floors = []
    for _ in range(runs):
        start = time.perf_counter()
        lib.bibtex.export_to(floor_path, ids)
        floors.append(time.perf_counter() - start)
    floor = statistics.median(floors)
    debounce = window.context.features["sync"].writer.timer.interval() / 1000
    window.close()
    sync_write._replace = replace
    oks = [
        report("rating change to 10k .bib renamed (with 1 s debounce)", total, floor, None),
        report("  the same, after the debounce", total - debounce, floor, None),
        report("longest UI-thread stall, rating to rename (median)", stall, idle, 0.016),
        report("longest UI-thread stall, worst run", worst, idle, 0.016),
    ]
    note(f"{len(results)} rating changes (each adds or removes one of the 10,000 entries); "
         f"the edit itself took {statistics.median(r[2] for r in results) * 1000:.1f} ms "
         f"on the UI thread; floor of the stall rows: the heartbeat's longest gap at idle")
    lib.close()
    return oks


def _paperdesk(library: Path, *args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "paperdesk", "--library", str(library), *args],
                   check=True, capture_output=True, env=env, timeout=600)
    return time.perf_counter() - start


def bench_cli(runs: int) -> list[bool]:
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="sync-cli-", dir=OUT))
    synced, plain = folder / "synced.sqlite", folder / "plain.sqlite"
    make_library(synced, CLI_PAPERS).close()
    make_library(plain, CLI_PAPERS).close()
    start = time.perf_counter()
    _paperdesk(synced, "sync", "add", str(folder / "refs.bib"))
    first = time.perf_counter() - start
    size = (folder / "refs.bib").stat().st_size
    with_sync, without = [], []
    for n in range(runs):
        sign = "+" if n % 2 == 0 else "-"
        without.append(_paperdesk(plain, "tag", "17", f"{sign}x"))
        with_sync.append(_paperdesk(synced, "tag", "17", f"{sign}x"))
    plain_s, synced_s = statistics.median(without), statistics.median(with_sync)
    ok = report("`tag` extra time with a 100k-paper sync", synced_s - plain_s, plain_s, 2.0)
    note(f"`tag` with the sync {synced_s:.2f} s, without {plain_s:.2f} s (medians of {runs}); "
         f"the file is {size / 1e6:.0f} MB; `sync add` writing it whole took {first:.1f} s")
    return [ok]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=["window", "cli"])
    args = parser.parse_args()
    header("Kept-in-sync files")
    oks: list[bool] = []
    if args.only in (None, "window"):
        oks += bench_window(args.runs)
    if args.only in (None, "cli"):
        oks += bench_cli(args.runs)
    return 0 if all(oks) else 1


if __name__ == "__main__":
    sys.exit(main())
