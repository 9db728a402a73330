"""Run under X (by test_search_keys_x11.py): the search box with focus, Ctrl+E pressed.

Prints one JSON line: whether the window's Ctrl+E action fired, and whether Ctrl+K
(no window key of that letter here) still did the box's own Emacs move."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMainWindow

from paperdesk.gui.panes.search_bar import SearchBar

app = QApplication([])
window = QMainWindow()
bar = SearchBar()
window.setCentralWidget(bar)
fired: list[str] = []
export = QAction("Export", window)
export.setShortcut(QKeySequence("Ctrl+E"))
export.triggered.connect(lambda: fired.append("export"))
window.addAction(export)
window.show()
window.activateWindow()
bar.edit.setFocus()
QTest.qWaitForWindowExposed(window)
bar.edit.setText("pdf:zebra")
bar.edit.setCursorPosition(4)
QTest.keyClick(bar.edit, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
QTest.keyClick(bar.edit, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
print(json.dumps({"fired": fired, "text": bar.edit.text(),
                  "emacs": bool(QKeySequence.keyBindings(
                      QKeySequence.StandardKey.MoveToEndOfLine)[1:])}))
