"""Starting the desktop app."""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from paperdesk.core.api import APP_NAME, Library, PaperDeskError, open_demo
from paperdesk.gui.startup import single_instance

# Set to any value, the app prints "first-rows <unix time>" once the table has
# painted its first rows, and quits (bench/bench_gui.py measures start-up so).
BENCH_STARTUP = "PAPERDESK_BENCH_STARTUP"


_open_errors: list[QMessageBox] = []  # dialogs on screen (kept alive until closed)


def show_error(exc_type, exc, tb) -> QMessageBox | None:
    """sys.excepthook: an unexpected error becomes a dialog, not a silent death.

    The dialog does not block: the window stays usable behind it.
    """
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(details)
    if QApplication.instance() is None:
        return None
    box = QMessageBox(QMessageBox.Icon.Critical, APP_NAME,
                      str(exc) if isinstance(exc, PaperDeskError)
                      else f"Something went wrong: {exc_type.__name__}: {exc}")
    box.setInformativeText("PaperDesk keeps running. The step that failed changed nothing "
                           "in your library: every edit is one transaction.")
    box.setDetailedText(details)
    _open_errors.append(box)
    box.finished.connect(lambda _result: _open_errors.remove(box))
    box.open()
    return box


class _FirstPaint(QObject):
    """Prints the time of the table's first paint with rows, then quits."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        window.feed.view.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint and self.window.feed.model.rowCount():
            QTimer.singleShot(0, self._done)
            watched.removeEventFilter(self)
        return False

    def _done(self) -> None:
        print(f"first-rows {time.time():.6f} rows={self.window.feed.model.rowCount()}", flush=True)
        self.window.close()
        QApplication.quit()


def run_gui(path: Path, *, demo: bool = False, argv: list[str] | None = None,
            files: list[Path] | None = None, new: bool = False,
            search: str | None = None) -> int:
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    QApplication.setDesktopFileName("org.paperdesk.PaperDesk")  # matches packaging/linux's entry
    sys.excepthook = show_error
    message = {"files": [str(f.absolute()) for f in files or []], "search": search}
    if single_instance.hand_over(single_instance.server_name(path), message):
        # said on the terminal, which the window cannot do (stderr: stdout stays data)
        what = [f"{len(files)} file{'s' * (len(files) != 1)}"] if files else []
        what += [f"the search {search!r}"] if search else []
        print(f"paperdesk: handed {' and '.join(what) or 'the request'} to the window "
              f"already open on {path}", file=sys.stderr)
        return 0
    try:
        lib = open_demo() if demo else Library.open(path, new=new)
    except PaperDeskError as exc:
        QMessageBox.critical(None, APP_NAME, str(exc))
        return 1
    from paperdesk.gui.main_window import MainWindow

    window = MainWindow(lib)
    if os.environ.get(BENCH_STARTUP):
        _FirstPaint(window)
    window.show()
    # A second `paperdesk` on this library hands over (named now that the file exists),
    # once the window is up: its QtNetwork loads after the start.
    listener = single_instance.Listener(parent=window)
    listener.received.connect(lambda m: single_instance.deliver(window, m))
    window.context.library_changed.connect(
        lambda lib: listener.listen(single_instance.server_name(lib.path)))
    QTimer.singleShot(0, listener,
                      lambda: listener.listen(single_instance.server_name(window.lib.path)))
    single_instance.deliver(window, message)  # `paperdesk FILE...`: as a drop
    try:
        return app.exec()
    finally:
        window.worker.stop()
        window.context.reader.stop()
        listener.close()
        window.lib.close()
