"""Imports through the operation runner, then the report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QUrl, Signal

from paperdesk.core.api import Changes, ImportRecord, ImportResult
from paperdesk.gui import operations
from paperdesk.gui.importing.import_report import ImportReport

if TYPE_CHECKING:
    from paperdesk.gui.context import Context


def local_paths(urls: Sequence[QUrl]) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]


class Importer(QObject):
    """Imports through the window's operation runner, one after another; the report
    after each."""

    # The core's ImportResult: it reads as the list of FileReports and names the papers
    # the importers created (``created_ids``), so nobody works them out again.
    done = Signal(object)

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self.context = context
        self.report: ImportReport | None = None
        # What Undo last import removes: the library's last import, whoever made it.
        self.last_import: ImportRecord | None = None
        self._jobs: set[int] = set()

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def start(self, paths: Sequence[Path]) -> None:
        paths = [Path(p) for p in paths]
        if not paths:
            return
        text = f"Importing {paths[0].name}" + (f" and {len(paths) - 1} more"
                                               if len(paths) > 1 else "")
        job_id = None

        def finished(reports: ImportResult | None, error: str | None = None) -> None:
            self._jobs.discard(job_id)
            if error is not None:
                self.context.notify(error)
                return
            assert reports is not None  # a job that did not fail gives its result
            self.context.lib.imports.record(reports)  # kept in the library by the import
            self.last_import = self.context.lib.imports.last()
            self.done.emit(reports)
            self.report = ImportReport(reports, self.context.widget)
            self.report.open()

        job_id = self.context.ops.run(
            "Import", lambda lib, progress, cancel: lib.import_paths(paths, progress, cancel),
            finished, lambda error: finished(None, error), text=text, initiator=self)
        if job_id is not None:
            self._jobs.add(job_id)

    def undo_last(self) -> None:
        """Remove what the library's last import created; the user's work since stays."""
        record, self.last_import = self.context.lib.imports.last(), None
        if record is None:
            self.context.notify("no import is left to undo")
            return
        ctx = self.context

        def said(changes: Changes) -> None:
            ctx.show_message(ctx.lib.imports.summary(changes.result), 15000)

        if len(record.created) + len(record.digest_ids) < operations.LARGE:
            if (changes := ctx.ops.edit(ctx.lib.imports.undo, record)) is not None:
                said(changes)
            return
        ctx.ops.run(record.label, lambda lib, _p, _c: lib.imports.undo(record), said,
                    undo=True, text=f"Undoing {record.label.removeprefix('Undo ')}…",
                    cancellable=False)
