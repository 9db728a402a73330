"""Jobs of the review, export and trash views on the window's worker.

``run`` sends a job to the window's one background worker (where it opens its
own connection to the library), shows its progress in the status bar's panel,
and calls ``done`` with the result or ``failed`` with the one-line error, on
the UI thread. Small jobs on small libraries may run inline (``inline=True``)
so that nothing waits for a thread when there is no need.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject

from paperdesk.core.db.changes import Changes
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import no_progress
from paperdesk.gui.undo import EditCommand
from paperdesk.gui.worker import Job, Outcome

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

LARGE = 2000  # papers from which exports run on the worker rather than inline


class Jobs(QObject):
    """The window's extra jobs: their callbacks by job id."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._pending: dict[int, tuple[str, Callable[[Any], None], Callable[[str], None]]] = {}
        self._loud: set[int] = set()  # jobs that show the progress panel
        self.closed = False  # once the window closes (and stops its worker), no new jobs
        window.worker.progress.connect(self._progress)
        window.worker.finished_job.connect(self._finished)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.closed = True
        return False

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def run(self, label: str, job: Job, done: Callable[[Any], None],
            failed: Callable[[str], None] | None = None, *, inline: bool = False,
            quiet: bool = False) -> int | None:
        """Run ``job(lib, progress, cancel)``; returns the worker's job id (None inline).

        ``quiet`` jobs (scans in the background) show no progress panel.
        """
        fail = failed or self.window.notify
        if inline:
            try:
                result = job(self.window.lib, no_progress, threading.Event())
            except PaperDeskError as exc:
                fail(str(exc))
                return None
            done(result)
            return None
        if self.closed:
            return None
        job_id = self.window.worker.submit(label, self.window.lib.path, job)
        self._pending[job_id] = (label, done, fail)
        if quiet:
            return job_id
        self._loud.add(job_id)
        panel = self.window.progress
        panel.label.setText(f"{label}…")
        panel.bar.setValue(0)
        panel.cancel.setEnabled(True)
        panel.show()
        return job_id

    def _progress(self, job_id: int, fraction: float, message: str) -> None:
        if job_id in self._loud:
            panel = self.window.progress
            panel.bar.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
            if message and panel.cancel.isEnabled():
                panel.label.setText(message)

    def _finished(self, outcome: Outcome) -> None:
        found = self._pending.pop(outcome.job_id, None)
        if found is None:
            return
        if outcome.job_id in self._loud:
            self._loud.discard(outcome.job_id)
            if not self._loud and not self.window.importer.busy:
                self.window.progress.hide()
        _label, done, fail = found
        if outcome.error:
            fail(outcome.error)
        else:
            done(outcome.result)


def jobs(window: MainWindow) -> Jobs:
    """The window's ``Jobs``, made on first use."""
    found = getattr(window, "_extra_jobs", None)
    if found is None:
        found = window._extra_jobs = Jobs(window)
    return found


def edit(window: MainWindow, fn: Callable[..., Changes], *args: Any) -> Changes | None:
    """Like ``window.edit``, for edits that add or remove papers (see ``record``)."""
    try:
        changes = fn(*args)
    except PaperDeskError as exc:
        window.notify(str(exc))
        return None
    record(window, changes)
    return changes


def record(window: MainWindow, changes: Changes) -> None:
    """An edit already made: onto the undo stack (the views heard of it from the library)."""
    if changes.undo is not None:
        window.undo_stack.push(EditCommand(window.lib, changes.undo, window.notify))
