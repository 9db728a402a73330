"""Citations out of the window: Copy BibTeX, Copy citation, dragging papers out.

Copy BibTeX puts the selected papers' entries on the clipboard as both
``text/plain`` and ``text/x-bibtex``. Copy citation keys gives ``\\cite{a,b}``,
Copy pandoc citation ``[@a; @b]``, Copy formatted reference the references in
the shipped CSL style (plain text and HTML). Dragging selected rows out of the
table carries a ``.bib`` file (written to a fresh temporary folder, so the
drop target can read it after the drag), the same entries as text, and every
other form under its own type: CSL-JSON, the LaTeX and pandoc citations and
the formatted references as HTML.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QMimeData, QObject, QPoint, Qt, QUrl
from PySide6.QtGui import QDrag, QGuiApplication
from PySide6.QtWidgets import QApplication

from paperdesk.core.api import Library, PaperDeskError
from paperdesk.gui.bibtex.key_check import keys_ready
from paperdesk.gui.context import Feature, context_of
from paperdesk.gui.curation import queue_view

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

BIBTEX_MIME = "text/x-bibtex"
CSL_JSON_MIME = "application/vnd.citationstyles.csl+json"
LATEX_CITE_MIME = "application/x-latex-cite"
PANDOC_CITE_MIME = "application/x-pandoc-cite"
HTML_MIME = "text/html"
DRAG_REFERENCES = 200  # formatting is slow: larger drags carry no formatted references


def bibtex_mime(lib: Library, ids: Sequence[int]) -> QMimeData:
    text = lib.bibtex.export(list(ids), freeze=True)  # the keys leave PaperDesk
    data = QMimeData()
    data.setText(text)
    data.setData(BIBTEX_MIME, text.encode("utf-8"))
    return data


def cite_command(lib: Library, ids: Sequence[int]) -> str:
    return lib.citations.latex_cite(lib.citations.keys(ids))


def pandoc_citation(lib: Library, ids: Sequence[int]) -> str:
    return lib.citations.pandoc_cite(lib.citations.keys(ids))


def references_mime(lib: Library, ids: Sequence[int]) -> QMimeData:
    """The formatted references, as plain text and as HTML (italics kept)."""
    data = QMimeData()
    data.setText("\n".join(lib.citations.references(ids)))
    data.setHtml("<br>\n".join(lib.citations.references(ids, html=True)))
    return data


def copy_bibtex(owner: Any) -> int:
    """Put the selected papers' BibTeX on the clipboard (once their keys are ready:
    ``key_check``); how many entries (0 while a completion goes first)."""
    context = context_of(owner)
    ids = context.selected_ids()
    if not ids:
        context.notify("Select the papers to copy first")
        return 0

    def copy() -> None:
        QGuiApplication.clipboard().setMimeData(bibtex_mime(context.lib, ids))
        context.show_message(
            f"Copied {len(ids)} BibTeX entr{'y' if len(ids) == 1 else 'ies'}", 5000)

    return len(ids) if keys_ready(context, ids, copy) else 0


def _copy_citation(owner: Any, make: Any) -> str:
    context = context_of(owner)
    ids = context.selected_ids()
    copied: list[str] = []

    def copy() -> None:
        text = make(context.lib, ids)
        context.lib.bibtex.freeze(ids)  # the keys leave PaperDesk
        QGuiApplication.clipboard().setText(text)
        context.show_message(f"Copied {text}", 5000)
        copied.append(text)

    if ids and make(context.lib, ids):
        keys_ready(context, ids, copy)
    return copied[0] if copied else ""


def copy_cite(owner: Any) -> str:
    return _copy_citation(owner, cite_command)


def copy_pandoc(owner: Any) -> str:
    return _copy_citation(owner, pandoc_citation)


def copy_reference(owner: Any) -> str:
    """The selected papers as formatted references (plain text and HTML)."""
    context = context_of(owner)
    ids = context.selected_ids()
    if not ids:
        context.notify("Select the papers to copy first")
        return ""
    try:
        data = references_mime(context.lib, ids)
    except (PaperDeskError, ImportError, ValueError) as exc:
        context.notify(f"Could not format the references: {exc}")
        return ""
    QGuiApplication.clipboard().setMimeData(data)
    style = context.lib.citations.style_name
    context.show_message(
        f"Copied {len(ids)} reference{'' if len(ids) == 1 else 's'} ({style})", 5000)
    return data.text()


def drag_file_name(lib: Library, ids: Sequence[int]) -> str:
    if len(ids) == 1:
        key = lib.paper(ids[0], with_notes=False)["citekey"] or "paper"
        return f"{re.sub(r'[^A-Za-z0-9_.+-]+', '_', key).strip('._') or 'paper'}.bib"
    return f"{len(ids)}-papers.bib"


def drag_mime(lib: Library, ids: Sequence[int]) -> QMimeData:
    """A .bib file of ``ids`` in a new temporary folder, as a file URL plus the text."""
    data = bibtex_mime(lib, ids)
    data.setData(CSL_JSON_MIME, lib.bibtex.export(list(ids), style="csl-json").encode("utf-8"))
    keys = lib.citations.keys(ids)
    data.setData(LATEX_CITE_MIME, lib.citations.latex_cite(keys).encode("utf-8"))
    data.setData(PANDOC_CITE_MIME, lib.citations.pandoc_cite(keys).encode("utf-8"))
    if len(ids) <= DRAG_REFERENCES:
        with contextlib.suppress(ImportError, ValueError):  # the other forms still go
            data.setHtml("<br>\n".join(lib.citations.references(ids, html=True)))
    folder = Path(tempfile.mkdtemp(prefix="paperdesk-drag-"))
    path = folder / drag_file_name(lib, ids)
    path.write_bytes(bytes(data.data(BIBTEX_MIME)))
    data.setUrls([QUrl.fromLocalFile(str(path))])
    return data


class DragOut(QObject):
    """Starts a drag when rows already selected are pressed and pulled out of the table."""

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self.context = context
        self.table = context.table
        self.viewport = self.table.viewport()
        self.viewport.installEventFilter(self)
        self._press: QPoint | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            index = self.table.indexAt(event.position().toPoint())
            selected = self.table.selectionModel().isRowSelected(index.row())
            plain = event.modifiers() == Qt.KeyboardModifier.NoModifier
            self._press = event.position().toPoint() if index.isValid() and selected \
                and plain else None
            return self._press is not None  # keep the selection for the drag
        if kind == QEvent.Type.MouseMove and self._press is not None \
                and event.buttons() & Qt.MouseButton.LeftButton:
            moved = (event.position().toPoint() - self._press).manhattanLength()
            if moved >= QApplication.startDragDistance():
                self._press = None
                self.start_drag()
            return True
        if kind == QEvent.Type.MouseButtonRelease and self._press is not None:
            index = self.table.indexAt(self._press)
            self._press = None
            if index.isValid():  # a plain click on a selected row: select just that row
                self.table.selectRow(index.row())
            return False  # other watchers (the rating stars) still see the click
        return False

    def start_drag(self) -> None:
        ids = self.context.selected_ids()
        if not ids:
            return
        drag = QDrag(self.table)
        if queue_view.in_queue(self.context):  # a reorder inside the queue: no export
            drag.setMimeData(queue_view.ids_mime(self.context, ids))
            drag.exec(Qt.DropAction.MoveAction)
            return
        if not keys_ready(self.context, ids, lambda: None, None):  # completing: drag again
            self.context.show_message("Drag the papers again once their keys are complete",
                                      8000)
            return
        drag.setMimeData(queue_view.ids_mime(self.context, ids, drag_mime(self.context.lib, ids)))
        drag.exec(Qt.DropAction.CopyAction)


class Clipboard(Feature):
    """Edit > Copy BibTeX, citation keys, pandoc citation, formatted reference; drags out."""

    name = "clipboard"

    def install(self, context: Context) -> None:
        super().install(context)
        menus = context.menus
        menus.separator("edit")
        for name, text, copy, keys in (
                ("copy_bibtex", "Copy &BibTeX", copy_bibtex, "Ctrl+Shift+C"),
                ("copy_cite", "Copy citation &key(s)", copy_cite, "Ctrl+Shift+K"),
                ("copy_pandoc", "Copy &pandoc citation [@key]", copy_pandoc, "Ctrl+Shift+M"),
                ("copy_reference", "Copy formatted &reference (IEEE)", copy_reference,
                 "Ctrl+Shift+R")):
            menus.add("edit", name, text, lambda copy=copy: copy(context), keys)
        self.drag_out = DragOut(context)
