"""Imports on the worker: progress and Cancel in the status bar, then the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from paperdesk.core.formats.file_report import FileReport
from paperdesk.gui.icons import icon
from paperdesk.gui.import_report import ImportReport
from paperdesk.gui.worker import Outcome, Worker


def local_paths(urls: Sequence[QUrl]) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]


class ProgressPanel(QWidget):
    """Progress bar with a Cancel button, shown while a job runs."""

    def __init__(self, cancel: Callable[[], None], parent=None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(False)
        self.cancel = QPushButton(icon("cancel"), "Cancel")
        self.cancel.clicked.connect(cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.label, self.bar, self.cancel):
            layout.addWidget(widget)
        self.hide()


class Importer(QObject):
    """Runs imports one after another on the window's worker."""

    done = Signal(list)  # [FileReport]
    failed = Signal(str)

    def __init__(self, worker: Worker, panel: ProgressPanel, library_path: Callable[[], Path],
                 parent=None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.panel = panel
        self.library_path = library_path
        self.report: ImportReport | None = None
        self._jobs: set[int] = set()
        worker.progress.connect(self._progress)
        worker.finished_job.connect(self._finished)

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def start(self, paths: Sequence[Path]) -> None:
        paths = [Path(p) for p in paths]
        if not paths:
            return
        job_id = self.worker.submit(
            "Import", self.library_path(),
            lambda lib, progress, cancel: lib.import_paths(paths, progress, cancel))
        self._jobs.add(job_id)
        self.panel.label.setText(f"Importing {paths[0].name}"
                                 + (f" and {len(paths) - 1} more" if len(paths) > 1 else ""))
        self.panel.bar.setValue(0)
        self.panel.cancel.setEnabled(True)
        self.panel.show()

    def cancel(self) -> None:
        self.panel.label.setText("Cancelling…")
        self.panel.cancel.setEnabled(False)
        self.worker.cancel()

    def _progress(self, job_id: int, fraction: float, message: str) -> None:
        if job_id in self._jobs:
            self.panel.bar.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
            if message and self.panel.cancel.isEnabled():
                self.panel.label.setText(message)

    def _finished(self, outcome: Outcome) -> None:
        if outcome.job_id not in self._jobs:
            return
        self._jobs.discard(outcome.job_id)
        if not self._jobs:
            self.panel.hide()
        if outcome.error:
            self.failed.emit(outcome.error)
            return
        reports: list[FileReport] = outcome.result
        self.done.emit(reports)
        self.report = ImportReport(reports, self.panel.window())
        self.report.open()
