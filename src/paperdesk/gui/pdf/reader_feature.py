"""Paper > Read PDF, and ``open_reader``: the built-in reader opened on a paper's PDF.

``open_reader(attachment_id, page=None, words=None)`` is what the rest of the window
calls (the full-text search's hits, the attachment list): it opens the reader on
the PDF (or raises the reader already open on it), at ``page`` (0-based; else where
the user left it), with ``words`` found and marked. The file is opened off the UI
thread, through one sandbox process all readers share (started at the first open,
kept until the window closes, so later opens start no process: it starts two
seconds after the window opens on a library with PDFs, or when a library without
gets its first, by Get PDF or a drop); a file it cannot
read is one line in the status bar, and the window goes on. Opening the PDF of a
to-read paper makes it reading, an edit the undo stack holds.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QThread, QTimer, Signal

from paperdesk.core.api import ATTACHMENTS, PaperDeskError
from paperdesk.gui.context import Feature
from paperdesk.gui.pdf.layout import START_ZOOM
from paperdesk.gui.pdf.reader_window import KEYS, ReaderWindow

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

WARM_MS = 2000  # after the window opens, the readers' process starts (a library with PDFs)


class Opener(QThread):
    """Opens a PDF's pages through the sandbox, off the UI thread."""

    opened = Signal(object)  # ReaderPages
    failed = Signal(str)

    def __init__(self, reading: Any, path: Any, sandbox: Any, scale: float,
                 parent=None) -> None:
        super().__init__(parent)
        self.reading, self.path, self.sandbox, self.scale = reading, path, sandbox, scale

    def run(self) -> None:
        try:  # the first page comes rendered at the zoom the reader opens at
            self.opened.emit(self.reading.pages(self.path, self.sandbox, self.scale))
        except PaperDeskError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # never a traceback for a file: one line
            self.failed.emit(f"{self.path.name} could not be opened: {exc}")


class Reader(Feature):
    name = "reader"
    keys = ("Reader", KEYS)

    def install(self, context: Context) -> None:
        super().install(context)
        self.windows: dict[int, ReaderWindow] = {}
        self.openers: list[Opener] = []
        self._sandbox: Any = None
        context.menus.add("paper", "read_pdf", "&Read PDF", self.read_current, "Ctrl+Shift+P")
        self._closed = False
        self.warmed: threading.Thread | None = None  # the warm-up, once started
        QTimer.singleShot(WARM_MS, context.widget, self.warm)
        detail = getattr(context.widget, "detail", None)
        if detail is not None:  # a highlight's page in the detail pane reads it there
            detail.highlight_opened.connect(lambda aid, page: self.open_reader(aid, page))

    @property
    def sandbox(self) -> Any:
        if self._sandbox is None:
            self._sandbox = self.context.lib.reading.sandbox()
        return self._sandbox

    def warm(self) -> None:
        """Start the readers' sandbox in the background when the library has PDFs, so that
        the first Read PDF opens without starting a process."""
        if self._closed:
            return
        try:
            wanted = self._sandbox is None and self.context.lib.reading.any_pdf()
        except Exception:  # a library gone under the window: nothing to warm for
            return
        if wanted:
            self.warmed = threading.Thread(target=self.context.lib.reading.warm,
                                           args=(self.sandbox,), name="paperdesk-reader-warm",
                                           daemon=True)
            self.warmed.start()

    def changes_applied(self, changes: Any, initiator: object | None) -> None:
        """A PDF attached (Get PDF, a drop): the readers' process starts, if not yet,
        so that reading it starts none."""
        if ATTACHMENTS in changes.kinds and self._sandbox is None and self.warmed is None:
            self.warm()

    def read_current(self) -> None:
        """Read the first PDF of the paper in the table's focus."""
        pid = self.context.selection.current_id() if self.context.selection else None
        if pid is None:
            self.context.notify("Select a paper to read its PDF")
            return
        found = self.context.lib.reading.attachments(pid)
        if not found:
            self.context.notify("This paper has no PDF (drop one on it, or Paper > Get PDF)")
            return
        self.open_reader(found[0]["id"])

    def open_reader(self, attachment_id: int, page: int | None = None,
                    words: list[str] | None = None) -> ReaderWindow | None:
        """Open (or raise) the reader on an attachment; the window when it is already
        open, else None (it shows when the file has been opened: ``opened_window``)."""
        open_now = self.windows.get(attachment_id)
        if open_now is not None:
            open_now.raise_()
            open_now.activateWindow()
            self._place(open_now, page, words)
            return open_now
        try:
            attachment = self.context.lib.reading.attachment(attachment_id)
        except PaperDeskError as exc:
            self.context.notify(str(exc))
            return None
        if attachment["missing"]:
            self.context.notify(f"{attachment['name']} is missing "
                                f"(it was at {attachment['file']})")
            return None
        dpr = self.context.widget.devicePixelRatioF() or 1.0
        opener = Opener(self.context.lib.reading, attachment["file"], self.sandbox,
                        START_ZOOM * dpr, self.context.widget)
        opener.opened.connect(lambda pages: self._opened(attachment, pages, page, words))
        opener.failed.connect(self.context.notify)
        opener.finished.connect(lambda: self.openers.remove(opener))
        self.openers.append(opener)
        opener.start()
        return None

    def _opened(self, attachment: dict[str, Any], pages: Any, page: int | None,
                words: list[str] | None) -> None:
        aid = int(attachment["id"])
        window = ReaderWindow(self.context, attachment, pages)
        window.closed.connect(lambda a: self.windows.pop(a, None))
        self.windows[aid] = window
        window.show()
        first = page if page is not None else attachment.get("last_page")
        self._place(window, first, words)
        self.context.ops.edit(self.context.lib.reading.began, aid)

    def _place(self, window: ReaderWindow, page: int | None, words: list[str] | None) -> None:
        if page is not None:
            window.view.go_to(int(page))
        if words:
            window.find(" ".join(words), words=list(words))

    def opened_window(self, attachment_id: int) -> ReaderWindow | None:
        return self.windows.get(attachment_id)

    def library_changed(self, _lib: Any) -> None:
        for window in list(self.windows.values()):
            window.close()

    def close(self) -> None:
        self._closed = True
        for window in list(self.windows.values()):
            window.close()
        for opener in list(self.openers):
            opener.wait(15_000)
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None


def open_reader(context: Context, attachment_id: int, page: int | None = None,
                words: list[str] | None = None) -> ReaderWindow | None:
    """The reader on ``attachment_id`` (see ``Reader.open_reader``), for other features."""
    reader = context.features.get("reader")
    if not isinstance(reader, Reader):
        return None
    return reader.open_reader(attachment_id, page, words)
