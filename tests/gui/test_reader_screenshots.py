"""Pictures of the reader (PAPERDESK_SCREENSHOTS=1 puts them in docs/screenshots/): page 3
with every find hit marked and a highlight with its comment, the detail pane listing the
highlight, and the same reader at QT_SCALE_FACTOR=2 (its own process: Qt reads the
factor at start), checked to be drawn at twice the pixels."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.gui.conftest import select_row
from tests.gui.screenshots import DOCS, save_screenshot
from tests.reader_pdf import PAGE3_PHRASE, ZEBRA, attach, reader_pdf

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.tex  # the pictures are of a PDF pdflatex typeset

SCALED = r"""
import os, sys, time
sys.path.insert(0, sys.argv[3])
from PySide6.QtWidgets import QApplication
app = QApplication([])
from paperdesk.core.api import Library
from paperdesk.gui.main_window import MainWindow
from paperdesk.gui.pdf.reader_feature import open_reader
lib = Library.open(sys.argv[1])
aid = int(sys.argv[4])
window = MainWindow(lib)
window.show()
reader = window.context.features["reader"]
open_reader(window.context, aid, 2, ["zebra"])
end = time.time() + 60
while time.time() < end and not (reader.opened_window(aid) is not None
        and reader.opened_window(aid).view.has_page_image(2)
        and len(reader.opened_window(aid).view.texts) == 30):
    app.processEvents()
    time.sleep(0.01)
shown = reader.opened_window(aid)
# The offscreen screen is 800 by 800 pixels, 400 by 400 at this scale, and the reader
# opens to fit it: give it the room a real screen would.
shown.resize(760, 900)
end = time.time() + 60
while time.time() < end and not shown.view.has_page_image(2):
    app.processEvents()
    time.sleep(0.01)
shown.set_current_highlight(shown.view.highlights[0]["id"])
shown.view.viewport().repaint()
image = shown.grab()
image.save(sys.argv[2])
print(image.width(), image.height(), image.devicePixelRatio(), shown.view.devicePixelRatioF())
shown.close()
window.close()
reader.close()
"""


def _reader_with_marks(qtbot, window, pdf):
    lib = window.context.lib
    pid = select_row(window, 0)
    aid = attach(lib, pid, pdf)
    reader = window.context.features["reader"]
    reader.open_reader(aid, 2, [ZEBRA])
    qtbot.waitUntil(lambda: reader.opened_window(aid) is not None)
    shown = reader.opened_window(aid)
    qtbot.waitUntil(lambda: len(shown.view.texts) == 30 and shown.view.has_page_image(2))
    start, end = shown.view.texts[2].find(PAGE3_PHRASE)[0]
    shown.view.set_selection((2, start, end))
    shown.highlight("green")
    shown.comment("The claim to check against table 2.")
    return lib, pid, aid, shown


def test_reader_screenshots(qtbot, make_window, seed_lib, tmp_path, monkeypatch):
    pdf = reader_pdf(tmp_path / "pdf")
    window = make_window(seed_lib)
    window.resize(1400, 900)
    lib, _pid, aid, shown = _reader_with_marks(qtbot, window, pdf)
    shown.resize(900, 1000)
    qtbot.waitUntil(lambda: shown.view.has_page_image(2))
    shown.view.viewport().repaint()
    assert "The claim to check" in shown.statusBar().currentMessage()
    save_screenshot(shown, tmp_path, "reader.png")
    # The detail pane lists the highlight with its page and comment.
    select_row(window, 1)
    select_row(window, 0)
    qtbot.waitUntil(lambda: window.detail.marks.isVisible())
    assert "The claim to check" in window.detail.marks.text()
    window.splitter.setSizes([180, 720, 500])
    window.detail.ensureWidgetVisible(window.detail.marks, 0, 0)
    qtbot.wait(50)
    save_screenshot(window.detail, tmp_path, "reader-highlights-detail.png")
    shown.close()
    # The same at scale 2, in a process of its own.
    target = tmp_path / "reader-scale2.png"
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": str(ROOT / "src")}
    lib.settle()
    out = subprocess.run([sys.executable, "-c", SCALED, str(lib.path), str(target), str(ROOT),
                          str(aid)], env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    width, _height, ratio, view_ratio = out.stdout.split()[-4:]
    assert (float(ratio), float(view_ratio)) == (2.0, 2.0)
    image = QImage(str(target))
    assert image.width() == int(width) and image.width() >= 1400
    if os.environ.get("PAPERDESK_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        target.replace(DOCS / "reader-scale2.png")
