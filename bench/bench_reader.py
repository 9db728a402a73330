"""The PDF reader's speed on a 30-page PDF made with pdflatex (cached in bench/out), offscreen.

1. Open to the first page on screen (target <= 300 ms): from ``open_reader`` to the
   view painted with page 1's image at its zoom, the readers' process already started
   (as two seconds after the window opens in a library with PDFs), beside the floor:
   the same page rendered straight with pypdfium2 in this process (open the file,
   render page 1 at the same pixels, into a QImage).
   Also the cold open (the process started by the open itself), beside a bare process
   that imports pypdfium2 and renders the page.
2. A page turn (target <= 50 ms) at QT_SCALE_FACTOR=2: from PgDown to the next page
   painted at its zoom, beside the raw pypdfium2 render of that page at the same
   pixels; and a jump to a page far ahead (nothing rendered before the ask).

Each scale runs in a process of its own (Qt reads the factor at start):

    .venv/bin/python bench/bench_reader.py [--runs 5] [--scales 1 2]
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

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import OUT, ROOT, header, note, report

sys.path.insert(0, str(ROOT))

FLOOR_PROCESS = """
import sys, time
start = time.perf_counter()
import pypdfium2 as pdfium
doc = pdfium.PdfDocument(sys.argv[1])
page = doc[0]
page.render(scale=float(sys.argv[2])).buffer
print(time.perf_counter() - start)
"""


def raw_render(pdf: Path, page: int, scale: float) -> float:
    """pypdfium2 straight: open, render one page into a QImage."""
    import pypdfium2 as pdfium
    from PySide6.QtGui import QImage

    start = time.perf_counter()
    doc = pdfium.PdfDocument(str(pdf))
    bitmap = doc[page].render(scale=scale, rev_byteorder=False)
    QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride,
           QImage.Format.Format_ARGB32).copy()
    seconds = time.perf_counter() - start
    doc.close()
    return seconds


def until(app, condition, limit: float = 30.0) -> None:
    end = time.perf_counter() + limit
    while not condition():
        if time.perf_counter() > end:
            raise TimeoutError("the reader did not get there")
        app.processEvents()
        time.sleep(0.0005)


def open_once(app, window, aid: int) -> tuple[float, object]:
    reader = window.context.features["reader"]
    start = time.perf_counter()
    reader.open_reader(aid, 0)
    until(app, lambda: reader.opened_window(aid) is not None
          and reader.opened_window(aid).view.has_page_image(0))
    shown = reader.opened_window(aid)
    shown.view.viewport().repaint()  # on screen: painted with it
    return time.perf_counter() - start, shown


def measure(runs: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from tests.reader_pdf import attach, reader_pdf

    from paperdesk.core.api import Library
    from paperdesk.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    scale = float(os.environ.get("QT_SCALE_FACTOR", "1"))
    pdf = reader_pdf(OUT / "reader")
    folder = Path(tempfile.mkdtemp(prefix="paperdesk-bench-reader-"))
    os.environ["PAPERDESK_DATA_DIR"] = str(folder / "data")
    lib = Library.open(folder / "bench.sqlite")
    lib.import_paths(sorted((ROOT / "seeds").glob("*.txt"))[:1])
    aid = attach(lib, lib.search("").ids[0], pdf)
    window = MainWindow(lib)
    window.show()
    reader = window.context.features["reader"]
    cold, shown = open_once(app, window, aid)
    zoom, dpr = shown.view.zoom, shown.view.devicePixelRatioF()
    shown.close()
    opens = []
    for _ in range(runs):
        seconds, shown = open_once(app, window, aid)
        opens.append(seconds)
        shown.close()
    floor = statistics.median(raw_render(pdf, 0, zoom * dpr) for _ in range(runs))
    bare = statistics.median(float(subprocess.run(
        [sys.executable, "-c", FLOOR_PROCESS, str(pdf), str(zoom * dpr)],
        capture_output=True, text=True, check=True).stdout) for _ in range(runs))
    print(f"-- scale {scale:g} (device pixel ratio {dpr:g}, zoom {zoom:g}: "
          f"{zoom * dpr:g} pixels a point) --")
    report(f"open to first page, scale {scale:g}", statistics.median(opens), floor, 0.300)
    report(f"cold open (process start), scale {scale:g}", cold, bare, None)
    # Page turns: the view renders ahead, so the next page is usually there already.
    seconds, shown = open_once(app, window, aid)
    turns, jumps = [], []
    for page in range(1, 1 + runs):
        until(app, lambda p=page: shown.view.has_page_image(p))  # as a reader pauses
        start = time.perf_counter()
        QTest.keyClick(shown.view, Qt.Key.Key_PageDown)
        until(app, lambda p=page: shown.view.current_page() == p
              and shown.view.has_page_image(p))
        shown.view.viewport().repaint()
        turns.append(time.perf_counter() - start)
    for page in (15, 22, 29)[:max(1, min(3, runs))]:
        start = time.perf_counter()
        shown.view.go_to(page)
        until(app, lambda p=page: shown.view.has_page_image(p))
        shown.view.viewport().repaint()
        jumps.append(time.perf_counter() - start)
    turn_floor = statistics.median(raw_render(pdf, p, zoom * dpr) for p in range(1, 1 + runs))
    report(f"page turn (PgDown), scale {scale:g}", statistics.median(turns), turn_floor, 0.050)
    report(f"jump to a page not rendered, scale {scale:g}", statistics.median(jumps),
           turn_floor, None)
    note(f"renders and texts asked of the sandbox in the last reader: {shown.renderer.calls}")
    shown.close()
    window.close()
    reader.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scales", nargs="+", default=["1", "2"])
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        measure(args.runs)
        return
    header()
    for scale in args.scales:
        env = {**os.environ, "QT_SCALE_FACTOR": scale, "QT_QPA_PLATFORM": "offscreen",
               "PYTHONPATH": str(ROOT / "src")}
        subprocess.run([sys.executable, __file__, "--inner", "--runs", str(args.runs)],
                       env=env, check=True)


if __name__ == "__main__":
    main()
