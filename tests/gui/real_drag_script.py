"""Run under a real X server (Xvfb): drag a row of the reading queue with the mouse
(xdotool), through a real QDrag, and print the queue's order before and after."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from paperdesk.core.library import Library
from paperdesk.gui.main_window import MainWindow
from paperdesk.gui.table.paper_model import TITLE

app = QApplication([])
lib = Library.open(sys.argv[1])
lib.import_paths(sorted(Path(sys.argv[2]).glob("*.txt")))
ids = lib.search(sort="title").ids[:6]
lib.curation.set_status(ids, "to-read")
window = MainWindow(lib)
window.resize(1200, 700)
window.show()
window.sidebar.select(("list", None))
before = list(window.feed.model.ids())
window.feed.select_ids([before[4]], before[4])


def point(row: int, dy: int) -> tuple[int, int]:
    rect = window.feed.view.visualRect(window.feed.model.index(row, TITLE))
    where = window.feed.view.viewport().mapToGlobal(rect.topLeft())
    return where.x() + 30, where.y() + dy


def drive() -> None:
    (x0, y0), (x1, y1) = point(4, 8), point(1, 3)
    steps = [f"mousemove {x0} {y0}", "sleep 0.3", "mousedown 1", "sleep 0.3"]
    for n in range(1, 9):
        steps += [f"mousemove {x0} {y0 + (y1 - y0) * n // 8}", "sleep 0.15"]
    steps += [f"mousemove {x1} {y1}", "sleep 0.4", "mouseup 1"]
    subprocess.Popen(["xdotool", *" ".join(steps).split()])


def finish() -> None:
    print(json.dumps({"before": before, "after": list(window.feed.model.ids()),
                      "queue": lib.curation.reading_list(), "papers": lib.stats()["papers"]}))
    window.close()
    app.quit()


QTimer.singleShot(800, drive)
QTimer.singleShot(6000, finish)
app.exec()
