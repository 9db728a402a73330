"""The text of the PDFs in the window: indexed in the background, its hits in the
detail pane.

The indexer runs ``lib.fulltext.index`` on a thread of its own with a library
connection of its own (the window's is never used off the UI thread), its PDFs read
by a sandbox process of its own, so the window never waits for it: a keystroke's
search runs meanwhile on the reading thread, and reads the pages indexed so far.
It starts when the window opens a library and again after a write that changed
attachments (a PDF attached, fetched, removed); one already running is asked to run
once more when it ends. Its progress is a label in the status bar ("PDF text: 12 of
40"), gone when it is done; a file it cannot read is one line there.

For the one selected paper, when the search asks for words of the PDFs
(``pdf:word``), the detail pane lists the pages they are on with a snippet
(``MainWindow.show_selection``); a page's link opens the reader there with the
words marked (``read_hit``, through pdf-reader's ``open_reader``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import QLabel

from paperdesk.core.api import ATTACHMENTS, Library, PaperDeskError
from paperdesk.gui.context import Feature
from paperdesk.gui.pdf.reader_feature import open_reader

if TYPE_CHECKING:
    from pathlib import Path

    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context


class IndexThread(QThread):
    """One run of the indexer over the library at ``path``, off the UI thread."""

    progressed = Signal(float, str)
    done = Signal(object)  # the IndexReport, or None when it could not run
    failed = Signal(str)

    def __init__(self, path: Path, parent=None) -> None:
        super().__init__(parent)
        self.path = path
        self.cancel = threading.Event()

    def run(self) -> None:
        try:
            with Library.open(self.path, create=False) as lib:
                # The pages normalised in the sandbox: no Python work here for the UI
                # thread to wait on.
                report = lib.fulltext.index(progress=self.progressed.emit, cancel=self.cancel,
                                            normalise_here=False, background=True)
        except PaperDeskError as exc:
            self.failed.emit(str(exc))
            self.done.emit(None)
            return
        self.done.emit(report)


class FullText(Feature):
    name = "fulltext"

    def install(self, context: Context) -> None:
        super().install(context)
        self.thread: IndexThread | None = None
        self.again = False
        self.runs = 0  # runs started (the tests count them)
        self.status = QLabel("")
        self.status.hide()
        context.widget.statusBar().addPermanentWidget(self.status)
        detail = getattr(context.widget, "detail", None)
        if detail is not None and hasattr(detail, "pdf_hit_opened"):
            detail.pdf_hit_opened.connect(self.read_hit)
        self.start()

    # -- the indexer -------------------------------------------------------------------

    def start(self) -> None:
        """Index what is not indexed yet (again at the end, if a run is on)."""
        if self.thread is not None:
            self.again = True
            return
        if not self.context.lib.fulltext.attachments():
            return  # no PDF: no process started
        self.runs += 1
        thread = self.thread = IndexThread(self.context.lib.path, self.context.widget)
        thread.progressed.connect(self._progressed)
        thread.failed.connect(self.context.notify)
        thread.done.connect(self._done)
        thread.start()

    def _progressed(self, fraction: float, message: str) -> None:
        self.status.setText(message.replace("Indexing the text of PDFs", "PDF text"))
        self.status.setVisible(fraction < 1.0)

    def _done(self, report: Any) -> None:
        thread, self.thread = self.thread, None
        if thread is not None:
            thread.wait()
        self.status.hide()
        if report is not None and (report.failed or report.missing):
            lines = [*report.failed, *report.missing]
            more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
            self.context.notify(f"PDF text: {lines[0]}{more}")
        if self.again:
            self.again = False
            self.start()

    def changes_applied(self, changes: Changes, initiator: object | None) -> None:
        if ATTACHMENTS in changes.kinds:
            self.start()

    def library_changed(self, lib: Library) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        thread, self.thread = self.thread, None
        self.again = False
        if thread is not None:
            thread.cancel.set()
            thread.wait()
        self.status.hide()

    def close(self) -> None:
        self.stop()

    # -- the hits ----------------------------------------------------------------------

    def read_hit(self, attachment_id: int, page: int) -> None:
        """Open the reader on a hit's page with the query's pdf: words marked."""
        query = self.context.selection.query if self.context.selection else ""
        read_at(self.context, attachment_id, page, self.context.lib.fulltext.words(query))


def read_at(context: Context, attachment_id: int, page: int, words: list[str]) -> None:
    """The one call into the reader (pdf-reader's ``open_reader``)."""
    open_reader(context, attachment_id, page, words)
