"""Starting the desktop app."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMessageBox

from paperdesk.core.demo import open_demo
from paperdesk.core.errors import PaperDeskError
from paperdesk.core.library import Library


def run_gui(path: Path, *, demo: bool = False, argv: list[str] | None = None) -> int:
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("PaperDesk")
    try:
        lib = open_demo() if demo else Library.open(path)
    except PaperDeskError as exc:
        QMessageBox.critical(None, "PaperDesk", str(exc))
        return 1
    window = QMainWindow()
    window.setWindowTitle(f"PaperDesk — {lib.name}")
    window.setCentralWidget(QLabel(f"{lib.stats()['papers']} papers in {lib.path}"))
    window.resize(900, 600)
    window.show()
    try:
        return app.exec()
    finally:
        lib.close()
