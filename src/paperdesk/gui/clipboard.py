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
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QMimeData, QObject, QPoint, Qt, QUrl
from PySide6.QtGui import QDrag, QGuiApplication
from PySide6.QtWidgets import QApplication

from paperdesk.core.areas import citation
from paperdesk.core.library import Library
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.gui import queue_view

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

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
    return citation.latex_cite(citation.keys(lib, ids))


def pandoc_citation(lib: Library, ids: Sequence[int]) -> str:
    return citation.pandoc_cite(citation.keys(lib, ids))


def references_mime(lib: Library, ids: Sequence[int]) -> QMimeData:
    """The formatted references, as plain text and as HTML (italics kept)."""
    data = QMimeData()
    data.setText("\n".join(citation.references(lib, ids)))
    data.setHtml("<br>\n".join(citation.references(lib, ids, html=True)))
    return data


def copy_bibtex(window: MainWindow) -> int:
    """Put the selected papers' BibTeX on the clipboard; how many entries."""
    ids = window.selected_ids()
    if not ids:
        window.notify("Select the papers to copy first")
        return 0
    QGuiApplication.clipboard().setMimeData(bibtex_mime(window.lib, ids))
    window.statusBar().showMessage(
        f"Copied {len(ids)} BibTeX entr{'y' if len(ids) == 1 else 'ies'}", 5000)
    return len(ids)


def copy_cite(window: MainWindow) -> str:
    ids = window.selected_ids()
    text = cite_command(window.lib, ids) if ids else ""
    if text:
        window.lib.bibtex.freeze(ids)  # the keys leave PaperDesk
        QGuiApplication.clipboard().setText(text)
        window.statusBar().showMessage(f"Copied {text}", 5000)
    return text


def copy_pandoc(window: MainWindow) -> str:
    ids = window.selected_ids()
    text = pandoc_citation(window.lib, ids) if ids else ""
    if text:
        window.lib.bibtex.freeze(ids)  # the keys leave PaperDesk
        QGuiApplication.clipboard().setText(text)
        window.statusBar().showMessage(f"Copied {text}", 5000)
    return text


def copy_reference(window: MainWindow) -> str:
    """The selected papers as formatted references (plain text and HTML)."""
    ids = window.selected_ids()
    if not ids:
        window.notify("Select the papers to copy first")
        return ""
    try:
        data = references_mime(window.lib, ids)
    except (PaperDeskError, ImportError, ValueError) as exc:
        window.notify(f"Could not format the references: {exc}")
        return ""
    QGuiApplication.clipboard().setMimeData(data)
    window.statusBar().showMessage(
        f"Copied {len(ids)} reference{'' if len(ids) == 1 else 's'} ({citation.STYLE_NAME})",
        5000)
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
    keys = citation.keys(lib, ids)
    data.setData(LATEX_CITE_MIME, citation.latex_cite(keys).encode("utf-8"))
    data.setData(PANDOC_CITE_MIME, citation.pandoc_cite(keys).encode("utf-8"))
    if len(ids) <= DRAG_REFERENCES:
        with contextlib.suppress(ImportError, ValueError):  # the other forms still go
            data.setHtml("<br>\n".join(citation.references(lib, ids, html=True)))
    folder = Path(tempfile.mkdtemp(prefix="paperdesk-drag-"))
    path = folder / drag_file_name(lib, ids)
    path.write_bytes(bytes(data.data(BIBTEX_MIME)))
    data.setUrls([QUrl.fromLocalFile(str(path))])
    return data


class DragOut(QObject):
    """Starts a drag when rows already selected are pressed and pulled out of the table."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.viewport = window.table.viewport()
        self.viewport.installEventFilter(self)
        self._press: QPoint | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            index = self.window.table.indexAt(event.position().toPoint())
            selected = self.window.table.selectionModel().isRowSelected(index.row())
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
            index = self.window.table.indexAt(self._press)
            self._press = None
            if index.isValid():  # a plain click on a selected row: select just that row
                self.window.table.selectRow(index.row())
            return False  # other watchers (the rating stars) still see the click
        return False

    def start_drag(self) -> None:
        ids = self.window.selected_ids()
        if not ids:
            return
        drag = QDrag(self.window.table)
        if queue_view.in_queue(self.window):  # a reorder inside the queue: no export
            drag.setMimeData(queue_view.ids_mime(self.window, ids))
            drag.exec(Qt.DropAction.MoveAction)
            return
        drag.setMimeData(queue_view.ids_mime(self.window, ids, drag_mime(self.window.lib, ids)))
        drag.exec(Qt.DropAction.CopyAction)
