"""The window fits its screen at QT_SCALE_FACTOR=2 on a 1600x1000 screen, saved size or not.

The scale factor is read when Qt starts, so each case runs a real process with the
offscreen platform given a 1600x1000 screen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from paperdesk.core.library import Library

SCRIPT = r"""
import sys
from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QApplication
from paperdesk.core.library import Library
from paperdesk.gui.common import settings
from paperdesk.gui.main_window import MainWindow

app = QApplication([])
if sys.argv[2] == "saved":  # a size saved on a bigger screen, at scale 1
    from PySide6.QtWidgets import QWidget
    big = QWidget()
    big.setGeometry(10, 10, 2212, 1300)
    settings.save({"window/geometry": big.saveGeometry()})
window = MainWindow(Library.open(sys.argv[1]))
window.show()
app.processEvents()
screen = window.screen().availableGeometry()
frame = window.frameGeometry()
detail = window.detail.mapTo(window, window.detail.rect().topRight())
print(screen.width(), screen.height(), frame.x(), frame.y(), frame.width(), frame.height(),
      window.detail.isVisible(), detail.x(), window.screen().devicePixelRatio())
window.close()
"""


def run(tmp_path, case: str) -> list[str]:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "big", "x": 0, "y": 0, "width": 1600, "height": 1000,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_SCALE_FACTOR": "2",
           "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "PAPERDESK_DATA_DIR": str(tmp_path / f"data-{case}")}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "lib.sqlite"), case],
                         env=env, capture_output=True, text=True, timeout=120, check=True)
    return out.stdout.split()


def test_first_window_and_saved_size_fit_at_scale_factor_2(tmp_path, seeds):
    with Library.open(tmp_path / "lib.sqlite") as lib:
        lib.import_paths(seeds[:1])
    for case in ("first", "saved"):
        sw, sh, x, y, w, h, detail_shown, detail_right, ratio = run(tmp_path, case)
        assert (int(sw), int(sh), float(ratio)) == (800, 500, 2.0)  # 1600x1000 at scale 2
        assert int(x) >= 0 and int(x) + int(w) <= 800, (case, x, w)
        assert int(y) >= 0 and int(y) + int(h) <= 500, (case, y, h)
        assert detail_shown == "True" and int(detail_right) <= int(w)  # pane on screen
