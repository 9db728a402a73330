"""Triage of a digest: its papers one at a time, decided with single keys.

The view shows one paper large (title, abstract, what the digests say about
it: "seen in 3 digests, upvotes 5 → 41"), the progress ("12 of 41"), and
takes single keys: T to read, S seen (the paper stays unread but is set aside, out of
Today's backlog, and triage moves on), Shift+S set every paper from here on aside,
0-5 stars, G tag, N / → / J next, P / ← / K previous, Ctrl+Z undo (Ctrl+Shift+Z or
Ctrl+Y redo), Esc close. Where each paper came from is shown with its evidence.
Every decision is an edit on the window's undo stack; undoing one goes back to its
paper. Where the user stopped is remembered per library and digest, and the next
triage of it starts there.
"""

from __future__ import annotations

import hashlib
import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QTextBrowser,
    QVBoxLayout,
)

from paperdesk.core.api import author_line, plain_text
from paperdesk.gui.common import settings
from paperdesk.gui.common.geometry import fit_to_screen
from paperdesk.gui.context import Feature, context_of
from paperdesk.gui.panes.upvote_chart import UpvoteChart
from paperdesk.gui.table.paper_model import STATUS_LABELS
from paperdesk.gui.table.stars import StarRating

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

KEYS = [("T", "To read"), ("S", "Seen (stays unread)"), ("Shift+S", "The rest seen"),
        ("0–5", "Stars"), ("G", "Tag"),
        ("N →", "Next"), ("P ←", "Previous"), ("Ctrl+Z", "Undo"),
        ("Ctrl+Shift+Z / Ctrl+Y", "Redo"), ("Esc", "Close")]
_NEXT = {Qt.Key.Key_N, Qt.Key.Key_Right, Qt.Key.Key_J, Qt.Key.Key_Space}
_PREVIOUS = {Qt.Key.Key_P, Qt.Key.Key_Left, Qt.Key.Key_K}
_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier


def _place_key(lib_path: Any, digest_ids: list[int]) -> str:
    name = hashlib.sha1(f"{lib_path}|{sorted(digest_ids)}".encode()).hexdigest()[:16]
    return f"triage/{name}"


class TriageView(QDialog):
    def __init__(self, context: Context, digest_ids: list[int], title: str) -> None:
        super().__init__(context.widget)
        self.context = context
        self.digest_ids = list(digest_ids)
        self.ids = context.lib.triage.digest_papers(self.digest_ids)
        self.setWindowTitle(f"Triage — {title}")
        self.setObjectName("triage")
        self._build_header()
        self._build_decisions()
        self._lay_out()
        self.resize(960, 680)
        fit_to_screen(self)
        self.index = 0
        self.places: dict[int, int] = {}  # undo stack index after a decision -> its paper
        remembered = settings.settings().value(self._key())
        if remembered is not None and int(remembered) in self.ids:
            self.index = self.ids.index(int(remembered))
        self.show_current()

    def _font(self, scale: float, *, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * scale)
        if bold:
            font.setBold(True)
        return font

    def _build_header(self) -> None:
        """The progress, and what the paper is: title, meta line, evidence, upvote chart."""
        self.progress_label = QLabel()
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(8)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setFont(self._font(1.6, bold=True))
        self.meta = QLabel()
        self.evidence = QLabel()
        self.evidence.setObjectName("evidence")
        self.evidence.setFont(self._font(1.15, bold=True))
        self.origin = QLabel()  # where the paper came from
        self.origin.setObjectName("origin")
        self.chart = UpvoteChart()

    def _build_decisions(self) -> None:
        """The abstract, the state and stars, the tag entry and the legend of the keys."""
        self.abstract = QTextBrowser()
        self.abstract.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.abstract.setFont(self._font(1.35))
        self.state = QLabel()
        self.stars = StarRating()
        self.stars.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.stars.rated.connect(self.rate)
        self.tag_entry = QLineEdit()
        self.tag_entry.setPlaceholderText("Tags, separated by commas; Enter adds, Esc cancels")
        self.tag_entry.returnPressed.connect(self._add_tags)
        self.tag_entry.hide()
        self.legend = QLabel("   ".join(f"<b>{k}</b> {v}" for k, v in KEYS))
        self.legend.setObjectName("triage-keys")
        self.legend.setWordWrap(True)  # every key shown, however narrow the window

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.progress_label)
        top.addWidget(self.progress_bar, 1)
        state = QHBoxLayout()
        state.addWidget(self.state)
        state.addWidget(self.stars)
        state.addStretch(1)
        head = QHBoxLayout()
        text = QVBoxLayout()
        for widget in (self.title, self.meta, self.evidence, self.origin):
            text.addWidget(widget)
        head.addLayout(text, 1)
        head.addWidget(self.chart)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(head)
        layout.addWidget(self.abstract, 1)
        layout.addLayout(state)
        layout.addWidget(self.tag_entry)
        layout.addWidget(self.legend)

    # -- showing ---------------------------------------------------------------

    def _key(self) -> str:
        return _place_key(self.context.lib.path, self.digest_ids)

    def narrow(self, ids: list[int]) -> None:
        """Triage only ``ids`` (e.g. the papers new to the library), from the first."""
        self.ids = list(ids)
        self.index = 0
        self.show_current()

    def current(self) -> int | None:
        return self.ids[self.index] if self.ids else None

    def show_current(self) -> None:
        if not self.ids:
            self.progress_label.setText("Nothing to triage")
            self.title.setText("This digest has no papers left to triage")
            return
        lib = self.context.lib
        pid = self.ids[self.index]
        paper = lib.paper(pid, with_notes=False)
        sightings = lib.sightings(pid)
        self.progress_label.setText(f"{self.index + 1} of {len(self.ids)}")
        self.progress_bar.setRange(0, len(self.ids))
        self.progress_bar.setValue(self.index + 1)
        self.title.setText(plain_text(paper["title"]))
        who = author_line(paper["authors"]) or paper["organization"] or (
            f"{paper['author_count']} authors" if paper["author_count"] else "authors unknown")
        self.meta.setText(f"{who} · {paper['published'] or paper['year'] or 'no date'}")
        self.evidence.setText(lib.triage.evidence(sightings)["text"].capitalize())
        origin = lib.triage.origin(pid)
        self.origin.setText(origin[:1].upper() + origin[1:])
        self.chart.set_sightings(sightings)
        abstract = plain_text(paper["abstract"]) or "No abstract."
        self.abstract.setHtml(f"<p>{html.escape(abstract)}</p>")
        tags = ", ".join(paper["tags"]) or "no tags"
        self.state.setText(f"{STATUS_LABELS.get(paper['status'], paper['status'])} · {tags}")
        self.stars.setRating(paper["rating"])
        settings.save({self._key(): pid})

    # -- deciding -------------------------------------------------------------------

    def go(self, delta: int) -> None:
        if self.ids:
            self.index = max(0, min(len(self.ids) - 1, self.index + delta))
            self.show_current()

    def _edit(self, fn, *args) -> None:
        stack = self.context.undo_stack
        before = stack.index()
        self.context.ops.edit(fn, *args, initiator=self)
        if stack.index() != before:  # the decision is on the stack: undo comes back here
            self.places[stack.index()] = self.index

    def undo(self) -> None:
        """Take back the last edit (Ctrl+Z) and show the paper it was made on."""
        stack = self.context.undo_stack
        at = stack.index()
        if stack.canUndo() and not self.context.ops.history.busy:
            stack.undo()
            if (place := self.places.get(at)) is not None and place < len(self.ids):
                self.index = place
            self.show_current()

    def redo(self) -> None:
        stack = self.context.undo_stack
        if stack.canRedo() and not self.context.ops.history.busy:
            stack.redo()
            self.show_current()

    def _undo_key(self, event: QKeyEvent) -> bool:
        """Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (the window's undo stack)."""
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        if mods == _CTRL and key == Qt.Key.Key_Z:
            self.undo()
        elif (mods == _CTRL | _SHIFT and key == Qt.Key.Key_Z) or (
                mods == _CTRL and key == Qt.Key.Key_Y):
            self.redo()
        else:
            return False
        return True

    def set_status(self, status: str) -> None:
        if (pid := self.current()) is not None:
            self._edit(self.context.lib.curation.set_status, [pid], status)
            if self.index < len(self.ids) - 1:
                self.go(1)
            else:
                self.show_current()

    def set_aside(self) -> None:
        """S: seen; the paper stays unread, leaves Today's backlog, and triage goes on."""
        if (pid := self.current()) is not None:
            self._edit(self.context.lib.curation.set_aside, [pid])
            self.go(1) if self.index < len(self.ids) - 1 else self.show_current()

    def set_rest_aside(self) -> None:
        """Shift+S: this paper and every one after it seen, in one undoable edit."""
        rest = self.ids[self.index:]
        if rest:
            self._edit(self.context.lib.curation.set_aside, rest)
            self.index = len(self.ids) - 1
            self.show_current()

    def rate(self, stars: int) -> None:
        if (pid := self.current()) is not None:
            self._edit(self.context.lib.curation.set_rating, [pid], stars)
            self.show_current()

    def ask_tag(self) -> None:
        self.tag_entry.show()
        self.tag_entry.setFocus()

    def _add_tags(self) -> None:
        names = [t.strip() for t in self.tag_entry.text().split(",") if t.strip()]
        self.tag_entry.clear()
        self.tag_entry.hide()
        self.setFocus()
        if names and (pid := self.current()) is not None:
            self._edit(self.context.lib.curation.add_tags, [pid], names)
            self.show_current()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self.tag_entry.hasFocus():
            if key == Qt.Key.Key_Escape:
                self.tag_entry.clear()
                self.tag_entry.hide()
                self.setFocus()
                return
            super().keyPressEvent(event)
            return
        if self._undo_key(event):
            return
        if key == Qt.Key.Key_S and event.modifiers() == _SHIFT:
            self.set_rest_aside()
            return
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            super().keyPressEvent(event)
            return
        if key in _NEXT:
            self.go(1)
        elif key in _PREVIOUS:
            self.go(-1)
        elif key == Qt.Key.Key_T:
            self.set_status("to-read")
        elif key == Qt.Key.Key_S:
            self.set_aside()
        elif key == Qt.Key.Key_G:
            self.ask_tag()
        elif Qt.Key.Key_0 <= key <= Qt.Key.Key_5:
            self.rate(key - Qt.Key.Key_0)
        else:
            super().keyPressEvent(event)  # Esc closes


def open_triage(owner: Any, digest_ids: list[int] | None = None) -> TriageView | None:
    """Triage ``digest_ids``; by default the digest chosen in the sidebar, else the
    last import's, else the newest digest."""
    context = context_of(owner)
    lib = context.lib
    if not digest_ids:
        source = context.sidebar.current_source()
        if source[0] == "digest":
            digest_ids = [source[1]]
        elif context.importer.last_import is not None and context.importer.last_import.digest_ids:
            digest_ids = list(context.importer.last_import.digest_ids)
        else:
            newest = lib.digests()[:1]
            digest_ids = [newest[0]["id"]] if newest else []
    if not digest_ids:
        context.notify("no digest to triage yet: import one first")
        return None
    names = {d["id"]: d for d in lib.digests()}
    first = names.get(digest_ids[0])
    title = (f"{first['digest_date'] or ''} {first['name']}".strip() if first else "digest") + (
        f" and {len(digest_ids) - 1} more" if len(digest_ids) > 1 else "")
    view = TriageView(context, digest_ids, title)
    context.features["triage"].view = view
    view.show()
    view.raise_()
    view.activateWindow()
    view.setFocus()
    return view


def triage_link(context: Context, digest_ids: list[int]) -> None:
    """A "Triage" button under the import report, for the digests just imported."""
    from PySide6.QtWidgets import QPushButton

    report = context.importer.report
    count = len(context.lib.triage.digest_papers(digest_ids))
    if report is None or not count:
        return
    button = QPushButton(f"Triage the {count} papers of this import, one at a time…")
    button.setObjectName("triage-button")

    def go() -> None:
        report.accept()
        open_triage(context, digest_ids)

    button.clicked.connect(go)
    report.layout().insertWidget(1, button)


class Triage(Feature):
    """Triage a digest: from the sidebar's digests, after an import, by Ctrl+Shift+T."""

    name = "triage"
    keys = ("Triage", KEYS)

    def install(self, context: Context) -> None:
        super().install(context)
        self.view: TriageView | None = None  # the last one opened
        context.sidebar.triage.connect(lambda digest: self.open([digest]))
        context.importer.done.connect(self._imported)

    def open(self, digest_ids: list[int] | None = None) -> TriageView | None:
        return open_triage(self.context, digest_ids)

    def _imported(self, _reports: list) -> None:
        """Under the import report (once it is open), a button to triage its digests."""
        record = self.context.importer.last_import
        if record is not None and record.digest_ids:
            digest_ids = list(record.digest_ids)
            QTimer.singleShot(0, self.context.widget, lambda: triage_link(self.context, digest_ids))
