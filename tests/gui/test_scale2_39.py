"""At QT_SCALE_FACTOR=2 on a 1600x1000 screen (issue 39, "What broke" 5): the window
opens at the table's first column, not scrolled right, and stays there as J moves
down; the F1 sheet is on the screen with room for its title bar, even
before the window manager has framed it; a digest's date stays whole in the
sidebar. Each case is a real process (the scale factor is read when Qt starts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from paperdesk.core.library import Library

SCRIPT = r"""
import json, sys
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem
from paperdesk.core.library import Library
from paperdesk.gui.common.geometry import fit_to_screen
from paperdesk.gui.main_window import MainWindow
from paperdesk.gui.shortcuts_sheet import ShortcutsSheet

app = QApplication([])
window = MainWindow(Library.open(sys.argv[1]))
window.show()
for _ in range(10):
    app.processEvents()
out = {"hscroll": window.feed.view.horizontalScrollBar().value(),
       "hmax": window.feed.view.horizontalScrollBar().maximum()}
window.activateWindow()
window.feed.view.setFocus()
for _ in range(5):
    QTest.keyClick(window.feed.view, Qt.Key.Key_J)
out["hscroll_after_j"] = window.feed.view.horizontalScrollBar().value()
out["row_after_j"] = window.feed.view.currentIndex().row()
sheet = ShortcutsSheet(window.actions_by_name, window.context.feature_keys(), window)
sheet.move(90, 0)
fit_to_screen(sheet)  # not shown yet: no frame known
out["title"] = sheet.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight, None, sheet)
g = sheet.geometry()
out["sheet"] = [g.x(), g.y(), g.width(), g.height()]
sheet.show()
for _ in range(10):
    app.processEvents()
f = sheet.frameGeometry()
out["sheet_shown"] = [f.x(), f.y(), f.width(), f.height()]
screen = window.screen().availableGeometry()
out["screen"] = [screen.width(), screen.height()]
sidebar = window.sidebar
item = next(i for i in sidebar.entries() if " · " in i.text(0))
index = sidebar.indexFromItem(item)
option = QStyleOptionViewItem()
option.initFrom(sidebar.viewport())
option.rect = sidebar.visualRect(index)
sidebar.itemDelegate().initStyleOption(option, index)
out["digest"] = [item.text(0), option.text]
print(json.dumps(out))
window.close()
"""


def test_the_scale_2_window_opens_at_the_left_and_the_sheet_is_on_screen(tmp_path, seeds):
    with Library.open(tmp_path / "lib.sqlite") as lib:
        lib.import_paths(seeds)
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "big", "x": 0, "y": 0, "width": 1600, "height": 1000,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_SCALE_FACTOR": "2",
           "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "PAPERDESK_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "lib.sqlite")],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["screen"] == [800, 500]
    assert out["hmax"] > 0  # the table is narrower than its columns: it could scroll
    assert out["hscroll"] == 0 and out["hscroll_after_j"] == 0
    assert out["row_after_j"] == 5
    x, y, w, h = out["sheet"]
    # Placed by its frame's corner (move), its height leaves a title bar's room.
    assert out["title"] > 0 and y >= 0 and y + h + out["title"] <= 500
    assert x >= 0 and x + w <= 800
    x, y, w, h = out["sheet_shown"]
    assert y >= 0 and y + h <= 500 and x >= 0 and x + w <= 800
    whole, drawn = out["digest"]
    assert drawn[:10] == whole[:10]  # the date, e.g. 2026-04-21
    assert drawn.endswith(whole[whole.rindex("  ("):])  # and the count
