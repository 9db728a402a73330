"""The detail pane's list of a paper's PDFs: name, pages, stored or linked, "missing".

One line per attachment. Activating one (double-click, Enter) opens it; a linked file
that went missing shows "missing" and activating it, or Locate…, asks where it is
now. The list only shows and asks; the feature that owns it (``gui/hub/get_pdf.py``)
reads the attachments and opens, locates and fetches through the core.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

MISSING = "missing"


def line(attachment: dict[str, Any]) -> str:
    """What the list says of one attachment: its name, then (a second line) its pages,
    stored or linked, the arXiv version, and MISSING for a file that went missing."""
    pages = attachment.get("pages")
    parts: list[str] = []
    if pages:
        parts.append(f"{pages} page{'s' * (pages != 1)}")
    parts.append("linked" if attachment.get("kind") == "linked" else "stored")
    if attachment.get("source") == "arxiv" and attachment.get("arxiv_version"):
        parts.append(f"arXiv v{attachment['arxiv_version']}")
    if attachment.get("state") == MISSING:
        parts.append("MISSING")
    return f"{attachment['name']}\n{' · '.join(parts)}"


class AttachmentsList(QWidget):
    opened = Signal(int)      # attachment id: open it
    locate = Signal(int)      # attachment id: a missing file, where is it now?
    get_pdf = Signal()        # the paper has none: fetch it from arXiv

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("attachments")
        self.heading = QLabel("<b>PDFs</b>")
        self.list = QListWidget()
        self.list.setObjectName("attachments-list")
        self.list.setAlternatingRowColors(False)
        self.list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # the tooltip has it all
        self.list.itemActivated.connect(self._activated)
        self.list.currentItemChanged.connect(lambda *_: self._buttons())
        self.empty = QLabel("No PDF yet: drop one here, or Paper > Get PDF.")
        self.empty.setWordWrap(True)
        self.open_button = QPushButton("Open")
        self.open_button.clicked.connect(lambda: self._activated(self.list.currentItem()))
        self.locate_button = QPushButton("Locate…")
        self.locate_button.clicked.connect(self._locate)
        self.get_button = QPushButton("Get PDF")
        self.get_button.clicked.connect(self.get_pdf.emit)
        buttons = QHBoxLayout()
        for button in (self.open_button, self.locate_button, self.get_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        layout.addLayout(buttons)
        self.attachments: list[dict[str, Any]] = []
        self.show_attachments([], can_fetch=False)

    def show_attachments(self, attachments: list[dict[str, Any]], *, can_fetch: bool) -> None:
        """The PDFs of the paper shown; ``can_fetch``: it has an arXiv id."""
        current = self.list.currentItem()
        kept = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        self.attachments = list(attachments)
        # Rebuilt without its signals: the list emptied and filled again would hide
        # the Open button and show it again, and each shown or hidden button lays the
        # whole detail pane out anew (4 ms a time, most of a keystroke's repaint).
        # The buttons follow once, from the list as it ends.
        with QSignalBlocker(self.list):
            self._fill(attachments, kept)
        height = sum(self.list.sizeHintForRow(n) for n in range(len(attachments)))
        self.list.setFixedHeight(height + 2 * self.list.frameWidth() + 2)
        self.list.setVisible(bool(attachments))
        self.empty.setVisible(not attachments)
        self.get_button.setVisible(not attachments and can_fetch)
        self._buttons()

    def _fill(self, attachments: list[dict[str, Any]], kept: int | None) -> None:
        self.list.clear()
        for attachment in attachments:
            item = QListWidgetItem(line(attachment))
            item.setData(Qt.ItemDataRole.UserRole, int(attachment["id"]))
            item.setToolTip(f"{attachment['name']}\n"
                            f"{attachment.get('file') or attachment.get('path') or ''}")
            if attachment.get("state") == MISSING:
                item.setForeground(self.palette().placeholderText())
            self.list.addItem(item)
            if attachment["id"] == kept:
                self.list.setCurrentItem(item)
        if attachments and self.list.currentItem() is None:
            self.list.setCurrentRow(0)

    def current(self) -> dict[str, Any] | None:
        item = self.list.currentItem()
        if item is None:
            return None
        aid = item.data(Qt.ItemDataRole.UserRole)
        return next((a for a in self.attachments if a["id"] == aid), None)

    def _buttons(self) -> None:
        chosen = self.current()
        missing = chosen is not None and chosen.get("state") == MISSING
        self.open_button.setVisible(chosen is not None)
        self.open_button.setEnabled(chosen is not None and not missing)
        self.locate_button.setVisible(missing)

    def _activated(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        aid = int(item.data(Qt.ItemDataRole.UserRole))
        chosen = self.current()
        if chosen is not None and chosen["id"] == aid and chosen.get("state") == MISSING:
            self.locate.emit(aid)
        else:
            self.opened.emit(aid)

    def _locate(self) -> None:
        chosen = self.current()
        if chosen is not None:
            self.locate.emit(int(chosen["id"]))
