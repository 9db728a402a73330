"""The library window's speed on a 100,000-paper library (offscreen).

1. Process start to a window showing its first rows (target <= 1.5 s), beside a
   bare Python process that opens the file with sqlite3, reads the first page of
   rows the same way (newest first) and prints the time.
2. A keystroke in the search box to the updated, repainted table (<= 50 ms, the
   150 ms typing pause not counted), beside the raw FTS5 query for the same words.
3. Re-sorting by a column to the repainted table (<= 100 ms), beside the raw
   ``SELECT id ... ORDER BY`` of that column.
4. A rating change to its repainted row (<= 20 ms), beside a raw
   ``UPDATE ... ; COMMIT`` of the rating.

    .venv/bin/python bench/bench_gui.py [--papers 100000] [--runs 3]
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from common import OUT, ROOT, command_line, header, median_time, note, options, report
from generate import make_library

FLOOR_STARTUP = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute("SELECT id, title, year, year_inferred, upvotes, rating, status, seen_count, "
                    "added FROM papers WHERE deleted_at IS NULL ORDER BY added DESC, id DESC "
                    "LIMIT 60").fetchall()
print(f"first-rows {time.time():.6f} rows={len(rows)}", flush=True)
"""


def spawn_until_rows(cmd: list[str], env: dict[str, str]) -> float:
    start = time.time()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=True)
    stamp = next(line for line in out.stdout.splitlines() if line.startswith("first-rows"))
    return float(stamp.split()[1]) - start


def bench_startup(path: Path, runs: int) -> bool:
    data = tempfile.mkdtemp(prefix="paperdesk-bench-")
    env = {**os.environ, "PAPERDESK_BENCH_STARTUP": "1", "PAPERDESK_DATA_DIR": data,
           "QT_QPA_PLATFORM": "offscreen"}
    app = [sys.executable, "-m", "paperdesk", "--library", str(path)]
    spawn_until_rows(app, env)  # warm the file cache once
    window = statistics.median(spawn_until_rows(app, env) for _ in range(runs))
    floor = statistics.median(spawn_until_rows([sys.executable, "-c", FLOOR_STARTUP, str(path)],
                                               env) for _ in range(runs))
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    conn.close()
    ok = report(f"start to first rows painted ({papers:,} papers)", window, floor, 1.5)
    imports = [sys.executable, "-c", "import time, paperdesk.app, paperdesk.gui.main_window; "
               "print(f'first-rows {time.time():.6f}')"]
    note(f"of which importing the app and Qt (no window): "
         f"{statistics.median(spawn_until_rows(imports, env) for _ in range(runs)):.2f} s")
    return ok


def bench_in_window(path: Path, runs: int, keystroke_target: float = 0.05) -> list[bool]:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from paperdesk.core.library import Library
    from paperdesk.gui.main_window import MainWindow
    from paperdesk.gui.table.paper_model import TITLE, UPVOTES

    app = QApplication.instance() or QApplication([])
    lib = Library.open(path)
    window = MainWindow(lib)
    window.resize(1440, 820)
    window.show()
    app.processEvents()
    viewport = window.feed.view.viewport()
    raw = sqlite3.connect(path)
    results = []

    def settle() -> None:
        viewport.repaint()  # paints now, reading the rows it shows

    def idle(*_: object) -> None:
        """Untimed, between runs: let the rest of the list arrive from the reading thread."""
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline:
            app.processEvents()
            if window.feed.model.complete and not window.context.reader.busy:
                break
            time.sleep(0.005)

    words = iter(["scaling", "sparse agents", "robust", "multimodal", "causal", "efficient",
                  "hierarchical", "adaptive", "scalable", "language"] * 3)

    def search(_: object = None) -> None:
        window.search_bar.edit.setText(next(words))
        window.search_bar.fire()
        settle()

    fts_words = iter(["scaling", "sparse agents", "robust", "multimodal", "causal",
                      "efficient", "hierarchical", "adaptive", "scalable", "language"] * 3)

    def fts_floor() -> None:
        raw.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?",
                    [" ".join(f'"{w}"' for w in next(fts_words).split())]).fetchall()

    header(f"Library window, {lib.stats()['papers']:,} papers")
    results.append(report("search keystroke to repainted table",
                          median_time(search, runs * 2, idle),
                          median_time(fts_floor, runs * 2), keystroke_target))
    core_words = iter(["scaling", "sparse agents", "robust", "multimodal", "causal"] * 3)
    core = median_time(lambda: lib.search(next(core_words), sort="relevance", limit=200,
                                          first_page=True), runs)
    note(f"of which the core's first page (lib.search first_page=True, best 200 of at most "
         f"the newest 2,000 matches): {core * 1000:.1f} ms; the table shows "
         f"{window.feed.model.rowCount()} papers at once, the rest follow")
    every = median_time(lambda: lib.search(next(core_words), sort="relevance"), runs)
    note(f"the full list in relevance order (the reading thread's part): {every * 1000:.0f} ms")

    def clear(_: object = None) -> None:
        window.search_bar.edit.setText("")
        window.search_bar.fire()
        settle()

    def all_floor() -> None:
        raw.execute("SELECT id FROM papers WHERE deleted_at IS NULL "
                    "ORDER BY added DESC, id DESC").fetchall()

    results.append(report("clearing the search (all 100k back)", median_time(clear, runs, idle),
                          median_time(all_floor, runs), 0.05))

    orders = iter([(UPVOTES, Qt.SortOrder.DescendingOrder), (TITLE, Qt.SortOrder.AscendingOrder),
                   (UPVOTES, Qt.SortOrder.AscendingOrder)] * runs)

    def resort(_: object = None) -> None:
        column, order = next(orders)
        window.feed.view.sortByColumn(column, order)
        settle()

    def sort_floor() -> None:
        raw.execute("SELECT id FROM papers WHERE deleted_at IS NULL "
                    "ORDER BY upvotes DESC NULLS LAST, id DESC").fetchall()

    results.append(report("re-sort by a column to repainted table", median_time(resort, runs, idle),
                          median_time(sort_floor, runs), 0.1))

    window.feed.view.selectRow(3)
    pid = window.feed.model.paper_id(3)
    stars = iter([1, 2, 3, 4, 5, 0] * runs)

    def rate(_: object = None) -> None:
        window.rate_selected(next(stars))
        viewport.repaint(window.feed.view.visualRect(window.feed.model.index(3, 0)).adjusted(
            0, 0, viewport.width(), 0))

    rates = iter([1, 2, 3, 4, 5, 0] * runs)

    def rate_floor() -> None:
        raw.execute("UPDATE papers SET rating = ? WHERE id = ?", [next(rates), pid])
        raw.commit()

    results.append(report("rating change to repainted row", median_time(rate, runs * 2, idle),
                          median_time(rate_floor, runs * 2), 0.02))

    def sidebar() -> None:
        window.refresh_sidebar()

    report("sidebar counts refreshed after an edit (deferred)", median_time(sidebar, runs),
           None, None)
    window.close()
    lib.close()
    raw.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = command_line(__doc__, 3)
    parser.add_argument("--papers", type=int, default=100_000)
    args = options(parser, argv)
    path = OUT / f"gui-{args.papers}.sqlite"
    OUT.mkdir(parents=True, exist_ok=True)
    make_library(path, args.papers).close()
    note(f"library: {path} ({args.papers} papers); python {sys.version.split()[0]}")
    header("Start-up")
    ok = [bench_startup(path, args.runs)]
    ok += bench_in_window(path, args.runs)
    print("all targets met" if all(ok) else "some targets NOT met")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    raise SystemExit(main())
