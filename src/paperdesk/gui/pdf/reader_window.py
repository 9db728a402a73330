"""The built-in PDF reader: one window per open PDF, beside the library's.

Pages in one continuous scroll (``PageView``), rendered by a thread of the
reader's own through its sandbox (``Renderer``); a tool bar with the page and
its count (go to page), zoom out / in, fit width, find (every hit marked, the
current one stronger, next and previous), the highlight colours, and "Open in the
system viewer". Every part has a key (``KEYS``, on the F1 sheet and in the
guide). Highlights are made from the selection (a drag over the text) or, with
no selection, from the current find hit, so the keyboard alone can make one; a
comment goes on the current highlight. Highlighting, commenting, deleting and
undoing are edits of the library, through the window's operation runner and
undo stack. The page in view is kept per PDF when it changes and when the
window closes.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRect, QSize, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QMainWindow,
    QSpinBox,
    QToolBar,
)

from paperdesk.core.api import HIGHLIGHT_COLOURS, PaperDeskError
from paperdesk.gui.pdf.comment_dialog import ask_comment
from paperdesk.gui.pdf.layout import ZOOM_STEP
from paperdesk.gui.pdf.page_view import PageView
from paperdesk.gui.pdf.renderer import Renderer, as_image

if TYPE_CHECKING:
    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context

KEEP_MS = 1500  # the page in view is kept this long after it stops changing

# (name, text, keys): the reader's actions, in its tool bar's order.
ACTIONS = [
    ("previous_page", "Previous page", ["PgUp"]),
    ("next_page", "Next page", ["PgDown"]),
    ("first_page", "First page", ["Home"]),
    ("last_page", "Last page", ["End"]),
    ("go_to_page", "Go to page", ["Ctrl+G"]),
    ("zoom_out", "Zoom out", ["Ctrl+-"]),
    ("zoom_in", "Zoom in", ["Ctrl++", "Ctrl+="]),
    ("fit_width", "Fit width", ["Ctrl+0"]),
    ("find", "Find", ["Ctrl+F"]),
    ("find_next", "Find next", ["F3"]),
    ("find_previous", "Find previous", ["Shift+F3"]),
    ("copy", "Copy the selected text", ["Ctrl+C"]),
    ("highlight", "Highlight the selection (or the find hit)", ["Ctrl+H"]),
    *[(f"highlight_{name}", f"Highlight in {name}", [f"Ctrl+{n}"])
      for n, name in enumerate(HIGHLIGHT_COLOURS, 1)],
    ("comment", "Comment on the highlight", ["Ctrl+M"]),
    ("next_highlight", "Next highlight", ["Ctrl+J"]),
    ("delete_highlight", "Delete the highlight", ["Ctrl+Del"]),
    ("undo", "Undo", ["Ctrl+Z"]),
    ("redo", "Redo", ["Ctrl+Shift+Z", "Ctrl+Y"]),
    ("system_viewer", "Open in the system viewer", ["Ctrl+Shift+O"]),
    ("close", "Close the reader", ["Ctrl+W", "Esc"]),
]
# What the tool bar's buttons say (the menu text is the action's).
SHORT = {"previous_page": "◀", "next_page": "▶", "zoom_out": "−", "zoom_in": "+",
         "find_previous": "↑", "find_next": "↓", "highlight": "Highlight",
         "comment": "Comment", "system_viewer": "System viewer"}
KEYS = [(" / ".join(keys), text) for _name, text, keys in ACTIONS] + [
    ("↑ / ↓", "Scroll"), ("Enter (find box)", "Find next")]


def fitted_size(window: QMainWindow) -> QSize:
    """The reader's first size: 900 by 1000, or less where the screen is smaller (at
    a scale of 2 a 1920 by 1200 screen holds 960 by 600), so that its tool bar and
    status line are on the screen."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen is not None else QRect(0, 0, 900, 1000)
    return QSize(min(900, int(room.width() * 0.95)), min(1000, int(room.height() * 0.95)))


class ReaderWindow(QMainWindow):
    closed = Signal(int)  # the attachment id

    def __init__(self, context: Context, attachment: dict[str, Any], pages: Any) -> None:
        super().__init__(context.widget)
        self.context = context
        self.attachment = attachment
        self.attachment_id = int(attachment["id"])
        self.pages = pages
        self.colour = next(iter(HIGHLIGHT_COLOURS))
        self.current_highlight: int | None = None
        self.setWindowTitle(f"{attachment['name']} — PaperDesk")
        dpr = self.devicePixelRatioF() or 1.0
        self.renderer = Renderer(pages, dpr, self)
        self.renderer.failed.connect(self.context.notify)
        self.view = PageView(self.renderer, pages.sizes, self)
        first = getattr(pages, "first", None)
        if first is not None and first[0] == round(self.view.zoom * dpr, 4):
            self.view.take_image(0, as_image(first[1], dpr))  # rendered while opening
        self.setCentralWidget(self.view)
        self.actions_by_name: dict[str, QAction] = {}
        self._tool_bar()
        self.view.page_changed.connect(self._page_changed)
        self.view.highlight_clicked.connect(self.set_current_highlight)
        self.view.text_arrived.connect(lambda _p: self._find_more())
        self._keep = QTimer(self, singleShot=True, interval=KEEP_MS)
        self._keep.timeout.connect(self.keep_page)
        self.find_query = ""
        self._words: list[str] = []
        context.changed.connect(self._changes)
        self.statusBar().showMessage("Drag over the text to select it; Ctrl+H highlights it")
        self.resize(fitted_size(self))
        self.renderer.start()
        self.reload_highlights()

    # -- the tool bar and the keys ----------------------------------------------------

    def _tool_bar(self) -> None:
        bar = QToolBar("Reader", self)
        bar.setObjectName("reader_tools")
        self.addToolBar(bar)
        self.page_box = QSpinBox(minimum=1, maximum=self.view.page_count)
        self.page_box.setKeyboardTracking(False)
        self.page_box.valueChanged.connect(lambda n: self.view.go_to(n - 1))
        self.page_label = QLabel(f" / {self.view.page_count} ")
        self.find_box = QLineEdit(placeholderText="Find in the PDF")
        self.find_box.setClearButtonEnabled(True)
        self.find_box.returnPressed.connect(self._find_entered)
        self.hits_label = QLabel("")
        slots = {"previous_page": lambda: self.turn(-1), "next_page": lambda: self.turn(1),
                 "first_page": lambda: self.view.go_to(0),
                 "last_page": lambda: self.view.go_to(self.view.page_count - 1),
                 "go_to_page": self._focus_page_box,
                 "zoom_out": lambda: self.view.set_zoom(self.view.zoom / ZOOM_STEP),
                 "zoom_in": lambda: self.view.set_zoom(self.view.zoom * ZOOM_STEP),
                 "fit_width": self.view.fit_width, "find": self._focus_find,
                 "find_next": lambda: self.step_hit(1),
                 "find_previous": lambda: self.step_hit(-1), "copy": self.copy,
                 "highlight": lambda: self.highlight(self.colour),
                 "comment": self.ask_comment, "next_highlight": self.next_highlight,
                 "delete_highlight": self.delete_highlight,
                 "undo": self.context.undo_stack.undo, "redo": self.context.undo_stack.redo,
                 "system_viewer": self.open_in_system_viewer, "close": self.close}
        for name in HIGHLIGHT_COLOURS:
            slots[f"highlight_{name}"] = lambda _checked=False, n=name: self.highlight(n)
        shown = {"previous_page", "next_page", "zoom_out", "zoom_in", "fit_width",
                 "find_previous", "find_next", "highlight", "comment", "system_viewer"}
        for name, text, keys in ACTIONS:
            action = QAction(text, self)
            action.setIconText(SHORT.get(name, text))
            action.setToolTip(f"{text} ({' / '.join(keys)})")
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.triggered.connect(lambda _checked=False, slot=slots[name]: slot())
            self.addAction(action)
            self.actions_by_name[name] = action
            if name == "next_page":
                bar.addWidget(self.page_box)
                bar.addWidget(self.page_label)
            if name == "find_next":
                bar.addWidget(self.find_box)
                bar.addWidget(self.hits_label)
            if name in shown:
                bar.addAction(action)

    def _focus_page_box(self) -> None:
        self.page_box.setFocus()
        self.page_box.selectAll()

    def _focus_find(self) -> None:
        self.find_box.setFocus()
        self.find_box.selectAll()

    # -- pages ----------------------------------------------------------------------------

    def turn(self, by: int) -> None:
        self.view.go_to(self.view.current_page() + by)

    def _page_changed(self, page: int) -> None:
        self.page_box.blockSignals(True)
        self.page_box.setValue(page + 1)
        self.page_box.blockSignals(False)
        self._keep.start()

    def keep_page(self) -> None:
        """Remember the page in view for this PDF (never an error the reader shows)."""
        try:
            self.context.lib.reading.keep_page(self.attachment_id, self.view.current_page())
        except Exception as exc:  # a library gone read-only: the position is not worth a dialog
            self.context.show_message(f"the reading position was not kept: {exc}")

    def open_in_system_viewer(self) -> None:
        """The PDF in the system's viewer (``lib.pdf.open``: the one way PaperDesk does it)."""
        try:
            self.context.lib.pdf.open(self.attachment_id)
        except PaperDeskError as exc:
            self.context.notify(str(exc))

    # -- find -----------------------------------------------------------------------------

    def _find_entered(self) -> None:
        if self.find_box.text() != self.find_query:
            self.find(self.find_box.text())
        else:
            self.step_hit(1)

    def find(self, query: str, words: list[str] | None = None) -> None:
        """Mark every hit of ``query`` (or of each of ``words``) on every page; the first
        on or after the page in view becomes the current one."""
        self.find_query = query
        if self.find_box.text() != query:
            self.find_box.setText(query)
        self._words = words if words is not None else ([query] if query.strip() else [])
        self._start_page = self.view.current_page()
        self.view.hits, self.view.current_hit = [], -1
        count = self.view.page_count  # the texts from the page in view on, then from the top
        self.view.want_texts([*range(self._start_page, count), *range(self._start_page)])
        self._find_more()

    def _find_more(self) -> None:
        """Gather the hits of the pages whose text has come (find waits for the rest)."""
        if not self._words:
            self.hits_label.setText("")
            self.view.viewport().update()
            return
        hits = []
        for page in sorted(self.view.texts):
            hits += [(page, s, e) for s, e in self.view.texts[page].find_words(self._words)]
        current = self.view.hits[self.view.current_hit] if self.view.current_hit >= 0 else None
        self.view.hits = hits
        waiting = len(self.view.texts) < self.view.page_count
        if current in hits:
            self.view.current_hit = hits.index(current)
        elif hits:
            first = self._first_hit(hits, waiting)
            if first is not None:
                self.view.current_hit = first
                self._show_hit()
        self.hits_label.setText(
            f" {self.view.current_hit + 1 if hits else 0} of {len(hits)}"
            f"{'…' if waiting else ''} ")
        self.view.viewport().update()

    def _first_hit(self, hits: list[tuple[int, int, int]], waiting: bool) -> int | None:
        """The hit to show first: the first on or after the page find started from, once
        every page up to it has been read (else None: not known yet); none after it,
        when all are read, the first of all."""
        texts, start = self.view.texts, self._start_page
        for n, (page, _s, _e) in enumerate(hits):
            if page >= start and all(p in texts for p in range(start, page + 1)):
                return n
        return None if waiting else 0

    def step_hit(self, by: int) -> None:
        hits = self.view.hits
        if not hits:
            return
        self.view.current_hit = (self.view.current_hit + by) % len(hits)
        self.hits_label.setText(f" {self.view.current_hit + 1} of {len(hits)} ")
        self._show_hit()

    def _show_hit(self) -> None:
        page, start, end = self.view.hits[self.view.current_hit]
        quads = self.view.texts[page].quads(start, end)
        top = max(q[1] for q in quads) if quads else None
        self.view.go_to(page, top)
        self.view.viewport().update()

    # -- the selection: copy, highlight --------------------------------------------------

    def _passage(self) -> tuple[int, int, int] | None:
        """The selection, else the current find hit: (page, start, end)."""
        if self.view.selection is not None:
            return self.view.selection
        if self.view.current_hit >= 0 and self.view.hits:
            return self.view.hits[self.view.current_hit]
        return None

    def copy(self) -> None:
        passage = self._passage()
        if passage is None:
            return
        page, start, end = passage
        QGuiApplication.clipboard().setText(self.view.texts[page].text_of(start, end))

    def highlight(self, colour: str) -> int | None:
        """Highlight the selection (or the find hit) in ``colour``; the new id."""
        self.colour = colour
        passage = self._passage()
        if passage is None:
            self.context.show_message("Select some text (or find it) to highlight it")
            return None
        page, start, end = passage
        text = self.view.texts[page]
        changes = self.context.ops.edit(
            self.context.lib.highlights.add, self.attachment_id, page,
            text.quads(start, end), text.text_of(start, end), colour)
        if changes is None:
            return None
        self.view.set_selection(None)
        self.set_current_highlight(changes.result.highlight_id)
        return self.current_highlight

    def set_current_highlight(self, highlight_id: int | None) -> None:
        """The highlight Comment and Delete act on; its comment shows in the status bar."""
        self.current_highlight = highlight_id
        found = next((h for h in self.view.highlights if h["id"] == highlight_id), None)
        if found is None:
            self.statusBar().clearMessage()
            return
        said = found["comment"] or "no comment yet (Ctrl+M writes one)"
        self.statusBar().showMessage(f"Highlight, page {found['page'] + 1}: {said}")

    def ask_comment(self) -> None:
        if self.current_highlight is None:
            self.context.show_message("Make a highlight (Ctrl+H) to comment on it")
            return
        found = next((h for h in self.view.highlights if h["id"] == self.current_highlight),
                     None)
        if found is None:
            return
        passage = self.view.passage_on_screen(found["page"], found["quads"])
        if passage.isEmpty():  # scrolled away: brought back, the box beside it
            self.view.go_to(found["page"], max(q[1] for q in found["quads"]))
            passage = self.view.passage_on_screen(found["page"], found["quads"])
        text = ask_comment(self, found["text"][:80], found["comment"], passage)
        if text is not None:
            self.comment(text)

    def comment(self, text: str) -> None:
        if self.current_highlight is not None:
            self.context.ops.edit(self.context.lib.highlights.set_comment,
                                  self.current_highlight, text)

    def next_highlight(self) -> None:
        marks = self.view.highlights
        if not marks:
            return
        ids = [h["id"] for h in marks]
        n = (ids.index(self.current_highlight) + 1) % len(ids) \
            if self.current_highlight in ids else 0
        self.set_current_highlight(ids[n])
        quads = marks[n]["quads"]
        self.view.go_to(marks[n]["page"], max(q[1] for q in quads))

    def delete_highlight(self) -> None:
        if self.current_highlight is not None:
            self.context.ops.edit(self.context.lib.highlights.delete, self.current_highlight)
            self.current_highlight = None

    def reload_highlights(self) -> None:
        self.view.highlights = self.context.lib.highlights.of_attachment(self.attachment_id)
        self.view.viewport().update()
        if self.current_highlight is not None:
            self.set_current_highlight(self.current_highlight)

    def _changes(self, changes: Changes, _initiator: object) -> None:
        if "highlights" in changes.kinds or "attachments" in changes.kinds:
            self.reload_highlights()

    # -- closing ----------------------------------------------------------------------------

    def closeEvent(self, event) -> None:
        self._keep.stop()
        self.keep_page()
        with contextlib.suppress(RuntimeError, TypeError):  # already let go
            self.context.changed.disconnect(self._changes)
        self.renderer.stop()
        self.closed.emit(self.attachment_id)
        super().closeEvent(event)
